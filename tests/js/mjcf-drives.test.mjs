// Tumble's drives in MuJoCo's run (www/mujoco/to-mjcf-drives.js): the time functions against
// Tumble's own evaluation (the wasm Evaluator's drive rows) and their closed forms; a drive's
// equality moved through model.eq_data takes effect; the driven presets follow f(t) in MuJoCo and
// follow Tumble's own run of them; the drive's work counts in MuJoCo's W.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { loadMujoco, toMjcf, compileMjcf } from '../../www/mujoco/mjcf.js';
import { timeFn, MujocoDrives } from '../../www/mujoco/to-mjcf-drives.js';
import { MujocoRun } from '../../www/mujoco/mujoco-run.js';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const mujoco = await loadMujoco();
const fields = wasm.invariant_fields();
const at = (name) => fields.indexOf(name);

const KINDS = [
  { kind: 'linear', rate: 1.3 },
  { kind: 'sine', amplitude: 0.4, frequency: 1.5, phase: 0 },
  { kind: 'sine', offset: -0.2, amplitude: 0.2, frequency: 0.7, phase: Math.PI / 2 },
  { kind: 'ramp', value: 0.8, time: 0.6 },
  { kind: 'ramp_speed', rate: 2, time: 0.5 },
];

test("timeFn: the closed forms of docs/scenarios.md, and derivatives that agree with f's differences", () => {
  // closed forms at chosen points
  const close = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-15 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
  close(timeFn({ kind: 'constant' }).at(3), 1, 'constant default');
  close(timeFn({ kind: 'linear', start: 2, rate: 3 }).at(0.5), 3.5, 'linear');
  close(timeFn({ kind: 'sine', amplitude: 2, frequency: 0.25 }).at(1), 2, 'sine at a quarter period');
  close(timeFn({ kind: 'ramp', value: 4, time: 2 }).at(1), 2, 'ramp at half time');
  close(timeFn({ kind: 'ramp', value: 4, time: 2 }).at(5), 4, 'ramp after');
  close(timeFn({ kind: 'ramp_speed', rate: 3, time: 2 }).at(5), 3 * (5 - 1), 'ramp_speed after: rate (t - time/2)');
  close(timeFn({ kind: 'ramp_speed', rate: 3, time: 2 }).rate(1), 1.5, 'ramp_speed rate at half time');
  // rate, accel and jerk against central differences of at, rate, accel
  const e = 1e-5;
  for (const F of KINDS) {
    const f = timeFn(F);
    for (const t of [0.05, 0.21, 0.33, 0.9, 1.7]) {
      for (const [d, g] of [[f.rate, f.at], [f.accel, f.rate], [f.jerk, f.accel]]) {
        const num = (g(t + e) - g(t - e)) / (2 * e);
        assert.ok(Math.abs(d(t) - num) < 1e-6 * Math.max(1, Math.abs(num)), `${F.kind} at ${t}: ${d(t)} vs ${num}`);
      }
    }
  }
});

test("timeFn is Tumble's f(t): a hinge turned to f(t) meets Tumble's own drive row (the Evaluator) to 1e-14", () => {
  for (const F of KINDS) {
    const sys = {
      bodies: [{ mass: 1, inertia: [0.1, 0.1, 0.1], position: [0, 0, -0.5] }],
      joints: [{ type: 'revolute', b: 0, point_a: [0, 0, 0], point_b: [0, 0, 0.5], axis_a: [1, 0, 0], axis_b: [1, 0, 0] }],
      drives: [{ joint: 0, type: 'angle', time: F }],
    };
    // a start rate the bodies have: f'(0) about x
    sys.bodies[0].angular_velocity = [timeFn(F).rate(0), 0, 0];
    sys.bodies[0].velocity = [0, 0.5 * timeFn(F).rate(0), 0];
    const ev = new wasm.Evaluator(JSON.stringify(sys));
    const states = new Float64Array(18), out = new Float64Array(fields.length);
    let worst = 0;
    for (const t of [0.1, 0.37, 0.8, 1.4]) {
      const q = timeFn(F).at(t), c = Math.cos(q), s = Math.sin(q);
      // R about x by q, column-major; the centre at R (0, 0, -0.5)
      states.set([0, 0.5 * s, -0.5 * c, 1, 0, 0, 0, c, s, 0, -s, c]);
      ev.evaluate(t, states, 0, 0, 0, out);
      worst = Math.max(worst, out[at('joint_violation')]);
      // and a state off by 1e-3 rad shows 1e-3 (the row is the drive's, not a free joint's)
      const q2 = q + 1e-3, c2 = Math.cos(q2), s2 = Math.sin(q2);
      states.set([0, 0.5 * s2, -0.5 * c2, 1, 0, 0, 0, c2, s2, 0, -s2, c2]);
      ev.evaluate(t, states, 0, 0, 0, out);
      assert.ok(Math.abs(out[at('joint_violation')] - 1e-3) < 1e-6, `${F.kind}: off by 1e-3 reads ${out[at('joint_violation')]}`);
    }
    ev.free();
    assert.ok(worst < 1e-14, `${F.kind}: ${worst}`);
  }
});

test('a drive equality moved through model.eq_data takes effect: a hinge spun up follows f(t) (RK4 and Euler, h = 0.01)', () => {
  const sys = {
    dt: 0.01, bodies: [{ mass: 1, inertia: [0.1, 0.01, 0.1], position: [0.5, 0, 0] }],
    joints: [{ type: 'revolute', b: 0, point_a: [0, 0, 0], point_b: [-0.5, 0, 0], axis_a: [0, 1, 0], axis_b: [0, 1, 0] }],
    drives: [{ joint: 0, type: 'angle', time: { kind: 'ramp_speed', rate: 2 * Math.PI, time: 1 } }],
  };
  const bound = { RK4: 1e-4, Euler: 5e-3 };
  for (const integrator of ['RK4', 'Euler']) {
    const { xml, notes, drives } = toMjcf(sys, { integrator });
    assert.deepEqual(notes, []);
    assert.match(xml, /<joint name="d0" joint1="j0" polycoef="0 0 0 0 0"/);
    const model = compileMjcf(mujoco, xml), data = new mujoco.MjData(model);
    try {
      mujoco.mj_resetDataKeyframe(model, data, 0);
      const d = new MujocoDrives(mujoco, model, drives, integrator);
      mujoco.mj_forward(model, data);
      d.readGains(model, data);
      let worst = 0, last = 0;
      for (let k = 0; k < 200; k++) {
        d.set(model, data);
        mujoco.mj_step(model, data);
        mujoco.mj_forward(model, data);
        d.measure(data);
        worst = Math.max(worst, d.error[0]);
      }
      last = data.qpos[0];
      console.log(`# ${integrator}: a hinge spun up to 2 pi rad/s follows f to ${worst.toExponential(2)} rad over 2 s; q(2) = ${last.toFixed(6)}, f(2) = ${(3 * Math.PI).toFixed(6)}`);
      assert.ok(worst < bound[integrator], `${integrator}: ${worst}`);
      assert.ok(Math.abs(last - 3 * Math.PI) < bound[integrator], 'q(2) = f(2) = 2 pi (2 - 1/2): the equality moved (a held one keeps q near 0)');
      assert.equal(d.worst[0], worst);
    } finally {
      data.delete();
      model.delete();
    }
  }
});

// The driven presets at their step, MuJoCo RK4, 1 s: the drive's error, the gap to Tumble's
// director at the same step (poses), and W beside Tumble's. The governor's stiff dampers
// (4e4 N s/m on the 3 kg sleeve) need h = 5e-5 in RK4, MuJoCo's as Tumble's RATTLE's (at its
// 1e-3 MuJoCo's state blows up at the second step, as it did before drives).
const PRESETS = [
  { name: 'slider-crank', h: 5e-3, drive: 2e-5, pose: 1e-3, W: 0.02 },
  { name: 'crane', h: 5e-3, drive: 1e-3, pose: 5e-3, W: 1.5 },
  { name: 'kapitza', h: 1e-3, drive: 5e-4, pose: 2e-3, W: 6 },
  { name: 'governor', h: 5e-5, drive: 1e-6, pose: 1e-6, W: 0.01 },
];
for (const p of PRESETS) {
  test(`${p.name} in MuJoCo (RK4, h = ${p.h} s): its drive followed to ${p.drive}, Tumble's run to ${p.pose} m, W to ${p.W} J over 1 s`, () => {
    const run = new MujocoRun(wasm, mujoco, { scenario: p.name, mujoco: 'RK4', dt: p.h });
    const sim = new wasm.Simulation(p.name, 'director', p.h, 0);
    try {
      assert.ok(!run.notes.some((n) => /drives\[/.test(n)), run.notes.join('; '));
      assert.equal(run.driveUnits.length, 1);
      const n = Math.round(1 / p.h);
      let worst = 0;
      for (let k = 0; k < n; k += 10) {
        assert.equal(run.advance(10), 10, run.error);
        worst = Math.max(worst, run.driveError[0]);
      }
      assert.equal(run.error, null);
      assert.ok(run.driveWorst[0] >= worst);
      sim.step(n);
      const poses = new Float64Array(12 * run.n), inv = new Float64Array(fields.length);
      sim.write_poses(poses);
      sim.invariants(inv);
      const gap = Math.max(...Array.from(poses, (x, i) => Math.abs(x - run.poses[i])));
      const dW = Math.abs(run.inv[at('work')] - inv[at('work')]);
      console.log(`# ${p.name}: drive error at most ${run.driveWorst[0].toExponential(2)} ${run.driveUnits[0]}, poses ${gap.toExponential(2)} from Tumble's director, W ${run.inv[at('work')].toFixed(4)} J (Tumble ${inv[at('work')].toFixed(4)} J), MuJoCo's balance ${run.inv[at('balance')].toExponential(2)} J, joint violation (with the drive's row) ${run.inv[at('joint_violation')].toExponential(2)}`);
      assert.ok(run.driveWorst[0] < p.drive, `drive error ${run.driveWorst[0]}`);
      assert.ok(gap < p.pose, `poses ${gap}`);
      assert.ok(dW < p.W, `W ${run.inv[at('work')]} vs ${inv[at('work')]}`);
      // the drive moved the mechanism (a held drive would leave W near 0)
      assert.ok(Math.abs(inv[at('work')]) > 10 * p.W || p.name === 'kapitza', `Tumble's W ${inv[at('work')]}`);
    } finally {
      run.free();
      sim.free();
    }
  });
}
