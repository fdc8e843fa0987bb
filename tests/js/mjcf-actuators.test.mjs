// MuJoCo's actuators, armature and keyframes on import (www/mujoco/from-mjcf-actuators.js,
// fromMjModel's `keyframe`): tests/js/fixtures/mjcf/servo.xml (a two-link arm on position servos
// about vertical hinges, the shoulder with an armature, a cart on a position servo along a rail,
// a wheel on a velocity servo; keyframes 'rest' and 'turned') converted, run by Tumble's director
// and by MuJoCo itself (RK4 at the same step): the servos settle at their controls in both, the
// wheel spins up as the closed form of a damper about the speed ctrl, and the two runs agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { loadMujoco, compileMjcf, fromMjModel } from '../../www/mujoco/mjcf.js';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const mujoco = await loadMujoco();
const FIXTURE = new URL('./fixtures/mjcf/servo.xml', import.meta.url);
const xml = readFileSync(FIXTURE, 'utf8');

/** Tumble's run and MuJoCo's of the fixture from keyframe `key`, sampled every `every` steps:
 * per sample [t, shoulder, elbow, rail, spin] from each (Tumble's from its body poses). */
function both(key, seconds, every = 100) {
  const model = compileMjcf(mujoco, xml);
  const data = new mujoco.MjData(model);
  const { system } = fromMjModel(mujoco, model, { keyframe: key });
  const h = model.opt.timestep;
  const sim = new wasm.Simulation(JSON.stringify(system), 'director', h, 0);
  try {
    mujoco.mj_resetDataKeyframe(model, data, model.nkey > 1 ? ['rest', 'turned'].indexOf(key) : 0);
    const poses = new Float64Array(12 * sim.body_count());
    sim.write_poses(poses);
    const start = Float64Array.from(poses);
    const q0 = Array.from(data.qpos);
    // the joints' coordinates from Tumble's poses (bodies: arm, fore, cart, wheel), measured from
    // the start: the arm's direction from the shoulder (0, 0) to its centre, the fore's from the
    // elbow (0.5 m along the arm) to its centre, the wheel's turn about x
    const dirs = (P) => {
      const a = Math.atan2(P[1], P[0]), ex = 0.5 * Math.cos(a), ey = 0.5 * Math.sin(a);
      return [a, Math.atan2(P[13] - ey, P[12] - ex)];
    };
    const angleZ = (b) => { const [a, f] = dirs(poses), [a0, f0] = dirs(start); return b === 0 ? a - a0 : f - f0; };
    const angleX = (b) => Math.atan2(poses[12 * b + 8], poses[12 * b + 7]) - Math.atan2(start[12 * b + 8], start[12 * b + 7]); // R's second column about x
    const unwrap = (a) => a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
    const out = [];
    let spin = 0, last = 0;
    for (let k = 0; k * every * h < seconds - 1e-9; k++) {
      for (let s = 0; s < every; s++) mujoco.mj_step(model, data);
      assert.equal(sim.step(every), every, sim.last_error());
      sim.write_poses(poses);
      const a = angleX(3);
      spin += unwrap(a - last); // (the wheel turns more than a turn)
      last = a;
      out.push({
        t: data.time,
        mj: [data.qpos[0], data.qpos[1], data.qpos[2], data.qpos[3]],
        tumble: [q0[0] + angleZ(0), q0[1] + unwrap(angleZ(1) - angleZ(0)), q0[2] + poses[24] - start[24], q0[3] + spin],
      });
    }
    return { system, out };
  } finally {
    sim.free();
    data.delete();
    model.delete();
  }
}

test('keyframes: each can be the start; their names returned; an unknown one refused by name', () => {
  const model = compileMjcf(mujoco, xml);
  try {
    const first = fromMjModel(mujoco, model);
    assert.deepEqual(first.keyframes, ['rest', 'turned']);
    assert.ok(first.notes.some((n) => /keyframes: 'rest' is the start \(2 to choose from\)/.test(n)), first.notes.join('; '));
    const turned = fromMjModel(mujoco, model, { keyframe: 'turned' });
    assert.ok(turned.notes.some((n) => /keyframes: 'turned' is the start/.test(n)));
    assert.deepEqual(fromMjModel(mujoco, model, { keyframe: 1 }).system, turned.system);
    assert.deepEqual(fromMjModel(mujoco, model, { keyframe: '1' }).system, turned.system);
    // the arm's centre turned by 1.2 rad about the shoulder (0, 0, 1); the cart at -0.2 m
    const arm = turned.system.bodies[0].position, arm0 = first.system.bodies[0].position;
    assert.ok(Math.abs(Math.atan2(arm[1], arm[0]) - 1.2) < 1e-12 && Math.abs(Math.atan2(arm0[1], arm0[0])) < 1e-12, `${arm} ${arm0}`);
    assert.ok(Math.abs(turned.system.bodies[2].position[0] + 0.2) < 1e-12);
    assert.throws(() => fromMjModel(mujoco, model, { keyframe: 'up' }), /the model has no keyframe 'up' \(it has 'rest', 'turned'\)/);
    assert.throws(() => fromMjModel(mujoco, model, { keyframe: 2 }), /no keyframe '2'/);
  } finally {
    model.delete();
  }
});

test('actuators: position servos are joint and slider springs about ctrl / gear (kv their damping), a velocity servo a damper and a motor; armature in the inertia', () => {
  const model = compileMjcf(mujoco, xml);
  try {
    const { system, notes } = fromMjModel(mujoco, model, { keyframe: 'turned' });
    const want = [
      { type: 'joint_spring', joint: 0, stiffness: 20, rest_angle: 0.5 - 1.2, damping: 2 }, // kp, ctrl - q_start, kv
      { type: 'joint_spring', joint: 1, stiffness: 4 * 5, rest_angle: -0.4 / 2, damping: 4 * 0.4 }, // gear 2: gear^2 kp, ctrl / gear, gear^2 kv
      { type: 'slider_spring', joint: 2, stiffness: 100, rest_slide: 0.3 + 0.2, damping: 30 },
      { type: 'joint_spring', joint: 3, stiffness: 0, rest_angle: 0, damping: 0.2 },
      { type: 'motor', joint: 3, torque: 0.2 * 3 },
    ];
    assert.equal(system.forces.length, want.length, JSON.stringify(system.forces));
    want.forEach((w, i) => {
      const got = system.forces[i];
      assert.deepEqual(Object.keys(got).sort(), Object.keys(w).sort());
      for (const [k, v] of Object.entries(w)) {
        assert.ok(typeof v === 'string' ? got[k] === v : Math.abs(got[k] - v) < 1e-14, `forces[${i}].${k}: ${got[k]} vs ${v}`);
      }
    });
    assert.ok(notes.some((n) => /spin_servo: a velocity servo held at the start's control 3: a damper of 0.2 and a constant torque of 0.6\d* N m \(together, a damper about the speed 3 rad\/s, exactly\)/.test(n)), notes.join('; '));
    // the shoulder's armature 0.02 in the arm's inertia about the (vertical) hinge axis; the other
    // two moments (of a thin capsule: 0.0375 and 0.0007) raised together until they sum to it
    const arm = system.bodies[0].inertia, mjArm = Array.from(model.body_inertia.slice(3, 6));
    assert.ok(Math.abs(arm[0] - (mjArm[0] + 0.02)) < 1e-15, `${arm} vs ${mjArm}`);
    assert.ok(arm[1] + arm[2] > arm[0] && Math.abs(arm[1] - mjArm[1] - (arm[2] - mjArm[2])) < 1e-15 && arm[1] + arm[2] - arm[0] < 1e-8, `${arm} vs ${mjArm}`);
    assert.ok(notes.some((n) => /joint 'shoulder': its armature 0.02 is in the body's inertia about the hinge; the body's other two moments are raised/.test(n)), notes.join('; '));
  } finally {
    model.delete();
  }
});

test("the servos settle at their controls in Tumble's run and MuJoCo's own (6 s from 'turned'), the wheel as its closed form", () => {
  const { out } = both('turned', 6);
  const end = out[out.length - 1];
  const want = [0.5, -0.4 / 2, 0.3];
  console.log(`# after 6 s: MuJoCo ${end.mj.map((x) => x.toFixed(8)).join(', ')}; Tumble ${end.tumble.map((x) => x.toFixed(8)).join(', ')} (shoulder, elbow rad, rail m, wheel rad)`);
  for (const [i, w] of want.entries()) {
    assert.ok(Math.abs(end.mj[i] - w) < 1e-3, `MuJoCo's coordinate ${i}: ${end.mj[i]} vs ${w}`);
    assert.ok(Math.abs(end.tumble[i] - w) < 1e-3, `Tumble's coordinate ${i}: ${end.tumble[i]} vs ${w}`);
  }
  // the wheel: I dw/dt = kv (ctrl - w) from rest: w = 3 (1 - e^(-t/tau)), tau = I / kv
  const I = 0.2513274122871835, tau = I / 0.2;
  let worst = 0, apart = 0;
  for (const s of out) {
    const theta = 3 * (s.t - tau * (1 - Math.exp(-s.t / tau)));
    worst = Math.max(worst, Math.abs(s.mj[3] - theta), Math.abs(s.tumble[3] - theta));
    for (let i = 0; i < 4; i++) apart = Math.max(apart, Math.abs(s.mj[i] - s.tumble[i]));
  }
  console.log(`# the wheel's angle against the closed form: ${worst.toExponential(2)} rad at most; the two runs ${apart.toExponential(2)} apart at most (every 0.1 s)`);
  assert.ok(worst < 1e-5, `wheel ${worst}`); // (the director's error at h = 1 ms: 3.3e-6 rad)
  assert.ok(apart < 1e-5, `runs apart by ${apart}`);
});

test("the armature folded into the inertia is MuJoCo's: the arm swung from 'turned' by its servo follows MuJoCo's own run, not the run without it", () => {
  // the shoulder's motion in the first 0.5 s, with and without the armature in Tumble's inertia
  const { system, out } = both('turned', 0.5, 10);
  const apart = Math.max(...out.map((s) => Math.abs(s.mj[0] - s.tumble[0])));
  const bare = structuredClone(system);
  bare.bodies[0].inertia[0] -= 0.02;
  const sim = new wasm.Simulation(JSON.stringify(bare), 'director', 1e-3, 0);
  const poses = new Float64Array(12 * sim.body_count());
  sim.write_poses(poses);
  const a0 = Math.atan2(poses[1], poses[0]);
  sim.step(500);
  sim.write_poses(poses);
  const without = 1.2 + Math.atan2(poses[1], poses[0]) - a0; // (the arm's centre about the shoulder)
  sim.free();
  const end = out[out.length - 1];
  console.log(`# shoulder at 0.5 s: MuJoCo ${end.mj[0].toFixed(9)}, Tumble ${end.tumble[0].toFixed(9)} rad (apart at most ${apart.toExponential(2)} rad); without the armature ${without.toFixed(9)} rad`);
  assert.ok(apart < 1e-5, `${apart}`);
  assert.ok(Math.abs(without - end.mj[0]) > 100 * apart, `without the armature: ${without}`);
});

test('mjcf2tumble --keyframe NAME|INDEX picks the start; an unknown one exits 2 naming the keyframes', () => {
  const script = new URL('../../scripts/mjcf2tumble.mjs', import.meta.url).pathname;
  const run = (...args) => execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const byName = JSON.parse(run('--keyframe', 'turned', FIXTURE.pathname));
  const byIndex = JSON.parse(run(FIXTURE.pathname, '--keyframe', '1'));
  assert.deepEqual(byName, byIndex);
  assert.ok(Math.abs(byName.bodies[2].position[0] + 0.2) < 1e-12, 'the cart where "turned" puts it');
  assert.throws(() => run('--keyframe', 'up', FIXTURE.pathname), (e) => e.status === 2 && /no keyframe 'up' \(it has 'rest', 'turned'\)/.test(e.stderr));
});
