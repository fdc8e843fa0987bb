// MuJoCo's fixed tendons as Tumble tendons (www/mujoco/from-mjcf-tendons.js, to-mjcf-tendons.js):
// two pendulums and a slider (written here, contact-free, gravity tilted so that every
// coordinate moves) coupled by a fixed tendon with stiffness, springlength and damping, and a
// second fixed tendon over a hinge and the slide driven by a motor with a control range through a
// step and a ramp. Tumble's director (h = 1e-3) beside MuJoCo's RK4 (h = 1e-4) with the same
// controls at every millisecond: the bodies follow MuJoCo's to 1e-4 m over 2 s, the balance
// holds, and W is the integral of the motor's power in MuJoCo's run (gear ctrl times the tendon's
// velocity, trapezoid rule at 1e-4 s) to 1e-4 of it. The system goes to MJCF and back with its
// tendons, and MuJoCo runs the export as the model itself. A tendon equality becomes a stiff
// tendon spring from its solref; one between two tendons is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { compileMjcf, fromMjModel, toMjcf } from '../../www/mujoco/mjcf.js';
import { mujoco } from './mjcf-convert.mjs';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

const MODEL = (extra = '') => `<mujoco><option timestep="1e-4" integrator="RK4" gravity="1.5 -2 -9.81"/>
  <worldbody>
    <body name="left" pos="0 0 1">
      <joint name="h1" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.03" mass="0.8" contype="0" conaffinity="0"/>
    </body>
    <body name="right" pos="0.6 0 1">
      <joint name="h2" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.1 0 -0.4" size="0.03" mass="0.5" contype="0" conaffinity="0"/>
    </body>
    <body name="cart" pos="0 1 0.5">
      <joint name="s" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.1 0.1 0.05" mass="1.2" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="couple" stiffness="3" springlength="0.1" damping="0.05">
      <joint joint="h1" coef="0.5"/><joint joint="h2" coef="-1"/>
    </fixed>
    <fixed name="pull"><joint joint="h2" coef="0.3"/><joint joint="s" coef="2"/></fixed>
  </tendon>
  <actuator><motor name="drive" tendon="pull" gear="2" ctrlrange="-1 1"/></actuator>
  ${extra}</mujoco>`;

/** The control at step k of 1 ms: 0 until 0.2 s, then 0.8, then from 0.6 s a ramp to -1 at
 * 1.4 s, held after. */
function schedule(k) {
  const t = k * 1e-3;
  if (t < 0.2 - 1e-12) return 0;
  return 0.8 - 1.8 * Math.min(Math.max((t - 0.6) / 0.8, 0), 1);
}

test('a tendon spring and a driven tendon motor: the bodies follow MuJoCo, the balance holds and W is the motor\'s work', () => {
  const model = compileMjcf(mujoco, MODEL());
  const data = new mujoco.MjData(model);
  const { system, notes } = fromMjModel(mujoco, model);
  assert.ok(notes.some((n) => /fixed tendons \(2\)/.test(n)), notes.join('; '));
  assert.deepEqual(system.tendons.map((t) => t.name), ['couple', 'pull']);
  const sim = new wasm.Simulation(JSON.stringify({ ...system, dt: 1e-3 }), 'director', 1e-3, 0);
  try {
    assert.deepEqual(sim.controls().map((c) => [c.name, c.lower, c.upper, c.gear, c.unit]), [['drive', -1, 1, 2, '']]);
    const poses = new Float64Array(36), inv = new Float64Array(wasm.invariant_fields().length);
    const [W, B] = ['work', 'balance'].map((f) => wasm.invariant_fields().indexOf(f));
    let gap = 0, work = 0, balance = 0, last = 0;
    for (let k = 0; k < 2000; k++) {
      const u = schedule(k);
      sim.set_control(0, u);
      data.ctrl[0] = u;
      for (let s = 0; s < 10; s++) {
        const power = () => model.actuator_gainprm[0] * data.ctrl[0] * data.actuator_velocity[0];
        const p0 = power();
        mujoco.mj_step(model, data);
        mujoco.mj_forward(model, data);
        work += 0.5 * 1e-4 * (p0 + power());
      }
      assert.equal(sim.step(1), 1, sim.last_error());
      sim.write_poses(poses);
      for (let b = 0; b < 3; b++) {
        gap = Math.max(gap, Math.hypot(...[0, 1, 2].map((c) => poses[12 * b + c] - data.xipos[3 * (b + 1) + c])));
      }
      sim.invariants(inv);
      [last, balance] = [inv[W], Math.max(balance, Math.abs(inv[B]))];
    }
    console.log(`# tendons driven: gap to MuJoCo ${gap.toExponential(2)} m over 2 s; balance <= ${balance.toExponential(2)} J; W ${last.toFixed(6)} J, the motor's work in MuJoCo ${work.toFixed(6)} J`);
    assert.ok(gap < 1e-4, `${gap}`);
    assert.ok(balance < 1e-9, `${balance}`);
    assert.ok(Math.abs(work) > 0.05, `${work}`);
    assert.ok(Math.abs(last - work) < 1e-4 * Math.abs(work), `${last} ${work}`);
  } finally {
    sim.free();
    data.delete();
    model.delete();
  }
});

test('a system with tendons goes to MJCF and back, and MuJoCo runs the export as the model', () => {
  const original = compileMjcf(mujoco, MODEL().replace('timestep="1e-4"', 'timestep="1e-3"'));
  const { system } = fromMjModel(mujoco, original);
  const exported = compileMjcf(mujoco, toMjcf(system, { integrator: 'RK4', timestep: 1e-3 }).xml);
  const runs = [original, exported].map((model) => ({ model, data: new mujoco.MjData(model) }));
  try {
    const back = fromMjModel(mujoco, exported).system;
    // (the elements' names are not carried through MJCF, whose actuators Tumble names fN)
    const tendonParts = (s) => [s.tendons.map((t) => t.terms), s.forces.filter((f) => f.type.startsWith('tendon')).map(({ name, ...f }) => f)];
    assert.deepEqual(tendonParts(back), tendonParts(system));
    for (const { model, data } of runs) {
      mujoco.mj_resetDataKeyframe(model, data, 0);
      data.ctrl[0] = 0.7;
      for (let k = 0; k < 1500; k++) mujoco.mj_step(model, data);
    }
    const [a, b] = runs.map(({ data }) => Array.from(data.xipos.slice(3, 12)));
    const gap = Math.max(...a.map((x, i) => Math.abs(x - b[i])));
    console.log(`# the export beside the model, driven 1.5 s: ${gap.toExponential(2)} m apart`);
    assert.ok(gap < 1e-9, `${a} ${b}`);
  } finally {
    for (const { model, data } of runs) { data.delete(); model.delete(); }
  }
});

test('a tendon equality is a stiff tendon spring from its solref; one between two tendons is refused', () => {
  const held = compileMjcf(mujoco, MODEL('<equality><tendon name="hold" tendon1="pull" solref="0.02 0.5"/></equality>'));
  try {
    const { system, notes } = fromMjModel(mujoco, held);
    const inv = held.tendon_invweight0[1], w = 1 / (0.02 * 0.5);
    const spring = system.forces.find((f) => f.type === 'tendon_spring' && f.tendon === 1);
    assert.ok(Math.abs(spring.stiffness - (w * w) / inv) < 1e-9 * spring.stiffness, JSON.stringify(spring));
    assert.ok(Math.abs(spring.damping - (2 * 0.5 * w) / inv) < 1e-9 * spring.damping, JSON.stringify(spring));
    assert.ok(notes.some((n) => /tendon 'hold': MuJoCo's soft equality holding pull/.test(n)), notes.join('; '));
  } finally {
    held.delete();
  }
  const two = compileMjcf(mujoco, MODEL('<equality><tendon name="both" tendon1="pull" tendon2="couple"/></equality>'));
  try {
    assert.throws(() => fromMjModel(mujoco, two), /tendon 'both': an equality between two tendons has no Tumble element/);
  } finally {
    two.delete();
  }
});

const CARDAN = `<mujoco><option timestep="1e-4" integrator="RK4" gravity="2 -3 -9.81"/>
  <worldbody>
    <body name="fin" pos="0 0 1">
      <joint name="roll" type="hinge" axis="1 0 0" stiffness="0.4" springref="0.2" damping="0.01"/>
      <joint name="pitch" type="hinge" axis="0 1 0" stiffness="0.3" damping="0.02"/>
      <geom type="box" pos="0.05 0.02 -0.3" size="0.08 0.03 0.12" mass="0.7" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <tendon><fixed name="flap" stiffness="0.5"><joint joint="roll" coef="0.5"/><joint joint="pitch" coef="-0.5"/></fixed></tendon>
  <actuator><motor name="pitch motor" joint="pitch" gear="0.2" ctrlrange="-1 1"/></actuator></mujoco>`;

test('a universal joint\'s two hinges with their springs, a tendon over both and a motor on one follow MuJoCo', () => {
  const model = compileMjcf(mujoco, CARDAN);
  const data = new mujoco.MjData(model);
  const { system, notes } = fromMjModel(mujoco, model);
  assert.equal(system.joints[0].type, 'universal');
  assert.ok(notes.some((n) => /universal and gimbal joints: 2 of their hinges carry springs, dampers, ranges or actuators/.test(n)), notes.join('; '));
  const sim = new wasm.Simulation(JSON.stringify({ ...system, dt: 1e-3 }), 'director', 1e-3, 0);
  try {
    const poses = new Float64Array(12), inv = new Float64Array(wasm.invariant_fields().length);
    const B = wasm.invariant_fields().indexOf('balance');
    let gap = 0, balance = 0;
    for (let k = 0; k < 2000; k++) {
      const u = schedule(k);
      sim.set_control(0, u);
      data.ctrl[0] = u;
      for (let s = 0; s < 10; s++) mujoco.mj_step(model, data);
      assert.equal(sim.step(1), 1, sim.last_error());
      sim.write_poses(poses);
      gap = Math.max(gap, Math.hypot(...[0, 1, 2].map((c) => poses[c] - data.xipos[3 + c])));
      sim.invariants(inv);
      balance = Math.max(balance, Math.abs(inv[B]));
    }
    console.log(`# universal joint's hinges driven: gap to MuJoCo ${gap.toExponential(2)} m over 2 s; balance <= ${balance.toExponential(2)} J`);
    assert.ok(gap < 1e-4, `${gap}`);
    assert.ok(balance < 1e-9, `${balance}`);
  } finally {
    sim.free();
    data.delete();
    model.delete();
  }
});

test("tendon limits of given stiffness go to MuJoCo's default solreflimit in one note, not one each", () => {
  const { system } = fromMjModel(mujoco, compileMjcf(mujoco, MODEL()));
  const limit = (tendon, stiffness) => ({ type: 'tendon_limit', tendon, lower: -1, upper: 1, stiffness, restitution: 0.5 });
  const one = toMjcf({ ...system, forces: [...system.forces, limit(0, 198.07796723935772)] }).notes.filter((n) => /solreflimit/.test(n));
  assert.deepEqual(one, ["tendon 0's limit: its stiffness 198 becomes MuJoCo's default solreflimit"]);
  const tendons = [...system.tendons, system.tendons[0], system.tendons[0]];
  const three = toMjcf({ ...system, tendons, forces: [...system.forces, limit(0, 198.07796723935772), limit(1, 33.1095), limit(2, 545.37)] }).notes.filter((n) => /solreflimit/.test(n));
  assert.deepEqual(three, ["3 tendon limits (tendons 0, 1, 2): their stiffness (33.1 to 545) becomes MuJoCo's default solreflimit"]);
});
