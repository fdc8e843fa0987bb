// MuJoCo's actuators with a control range as Tumble controls (www/mujoco/from-mjcf-controls.js,
// Simulation.set_control): a cart on a rail under a position servo and a pole on a motor (the
// control suite's cartpole, written here), both driven by a step and then a ramp of their
// controls, run by Tumble's director (h = 1e-3) beside MuJoCo's RK4 (h = 1e-4) with the same
// controls at every millisecond: the cart and the pole's tip follow MuJoCo's to 1e-4 m over 2 s,
// and W is the integral of the controls' power in MuJoCo's run, gain ctrl times the actuator's
// velocity (the motor's whole power, the servo's part that its control sets: its spring and
// damper are Tumble's V and D), trapezoid rule at 1e-4 s, to 1e-4 of it. The controls are listed with their names, gears and
// ranges; a value beyond a range or not a number is refused naming the control.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { compileMjcf, fromMjModel } from '../../www/mujoco/mjcf.js';
import { mujoco } from './mjcf-convert.mjs';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

const CARTPOLE = `<mujoco><option timestep="1e-4" integrator="RK4"/>
  <worldbody>
    <body name="cart" pos="0 0 1">
      <joint name="slider" type="slide" axis="1 0 0" damping="0.2"/>
      <geom type="box" size="0.2 0.1 0.05" mass="1" contype="0" conaffinity="0"/>
      <body name="pole" pos="0 0 0">
        <joint name="hinge" type="hinge" axis="0 1 0" damping="0.01"/>
        <geom type="capsule" fromto="0 0 0 0.05 0 0.6" size="0.03" mass="0.2" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position name="cart servo" joint="slider" kp="20" kv="2" ctrlrange="-1 1"/>
    <motor name="pole motor" joint="hinge" gear="0.5" ctrlrange="-2 2"/>
  </actuator></mujoco>`;

/** The controls at step k of 1 ms: 0 until 0.2 s, then a step (0.5, 1), then from 0.6 s a ramp
 * to (-0.8, -1.5) at 1.4 s, held after. */
function schedule(k) {
  const t = k * 1e-3;
  if (t < 0.2 - 1e-12) return [0, 0];
  const r = Math.min(Math.max((t - 0.6) / 0.8, 0), 1);
  return [0.5 - 1.3 * r, 1 - 2.5 * r];
}

test('a position servo and a motor driven by a step and a ramp: the cart and the pole follow MuJoCo, and W is the motor\'s work', () => {
  const model = compileMjcf(mujoco, CARTPOLE);
  const data = new mujoco.MjData(model);
  const { system, notes } = fromMjModel(mujoco, model);
  assert.ok(notes.some((n) => /controls \(2\): 'cart servo', 'pole motor': drivable/.test(n)), notes.join('; '));
  const sim = new wasm.Simulation(JSON.stringify({ ...system, dt: 1e-3 }), 'director', 1e-3, 0);
  try {
    assert.deepEqual(sim.controls().map((c) => [c.name, c.lower, c.upper, c.gear, c.unit]),
      [['cart servo', -1, 1, 20, 'N'], ['pole motor', -2, 2, 0.5, 'N m']]);
    const poses = new Float64Array(24), inv = new Float64Array(wasm.invariant_fields().length);
    const W = wasm.invariant_fields().indexOf('work');
    let gap = 0, work = 0, last = 0;
    for (let k = 0; k < 2000; k++) {
      const u = schedule(k);
      u.forEach((v, c) => sim.set_control(c, v));
      data.ctrl.set(u);
      for (let s = 0; s < 10; s++) {
        // the controls' power in MuJoCo's run, gain ctrl times velocity, trapezoid rule
        const power = () => [0, 1].reduce((sum, a) => sum + model.actuator_gainprm[10 * a] * data.ctrl[a] * data.actuator_velocity[a], 0);
        const p0 = power();
        mujoco.mj_step(model, data);
        mujoco.mj_forward(model, data);
        work += 0.5 * 1e-4 * (p0 + power());
      }
      assert.equal(sim.step(1), 1, sim.last_error());
      sim.write_poses(poses);
      for (let b = 0; b < 2; b++) {
        gap = Math.max(gap, Math.hypot(...[0, 1, 2].map((c) => poses[12 * b + c] - data.xipos[3 * (b + 1) + c])));
      }
      sim.invariants(inv);
      last = inv[W];
    }
    console.log(`# cartpole driven: gap to MuJoCo ${gap.toExponential(2)} m over 2 s; W ${last.toFixed(6)} J, the controls' work in MuJoCo ${work.toFixed(6)} J`);
    assert.ok(gap < 1e-4, `${gap}`);
    assert.ok(Math.abs(last - work) < 1e-4 * Math.abs(work), `${last} ${work}`);
    assert.throws(() => sim.set_control(1, 2.5), /control 1 \('pole motor'\): 2.5 is not within its range \[-2, 2\]/);
    assert.throws(() => sim.set_control(0, NaN), /control 0 \('cart servo'\): NaN is not within its range \[-1, 1\]/);
    assert.throws(() => sim.set_control(2, 0), /control 2 does not exist: there are 2 controls, numbered 0 to 1/);
  } finally {
    sim.free();
    data.delete();
    model.delete();
  }
});

test('a system with controls goes to MJCF and back with its controls, gears and ranges', async () => {
  const { toMjcf } = await import('../../www/mujoco/mjcf.js');
  const model = compileMjcf(mujoco, CARTPOLE);
  const { system } = fromMjModel(mujoco, model);
  model.delete();
  const motors = (s) => s.forces.filter((f) => f.control).map((f) => [f.type, f.torque ?? f.force, f.control.value, f.control.range]);
  const { xml } = toMjcf(system, { integrator: 'RK4', timestep: 1e-3 });
  const back = compileMjcf(mujoco, xml);
  try {
    assert.deepEqual(motors(fromMjModel(mujoco, back).system), motors(system));
    assert.deepEqual(motors(system), [['slider_motor', 20, 0, [-1, 1]], ['motor', 0.5, 0, [-2, 2]]]);
  } finally {
    back.delete();
  }
});

test('MuJoCo beside runs the converted system as the model itself: a servo\'s spring and its joint\'s own damper on one slide add up', async () => {
  // (the page's MuJoCo runs Tumble's export of the system: the servo's kp, kv and the slide's own
  // damping are two slider springs on one joint, which must become one stiffness and damping)
  const { toMjcf } = await import('../../www/mujoco/mjcf.js');
  const original = compileMjcf(mujoco, CARTPOLE.replace('timestep="1e-4"', 'timestep="1e-3"'));
  const { system } = fromMjModel(mujoco, original);
  const exported = compileMjcf(mujoco, toMjcf(system, { integrator: 'RK4', timestep: 1e-3 }).xml);
  const runs = [original, exported].map((model) => ({ model, data: new mujoco.MjData(model) }));
  try {
    for (const { model, data } of runs) {
      mujoco.mj_resetDataKeyframe(model, data, 0);
      data.ctrl.set([1, -0.5]);
      for (let k = 0; k < 1500; k++) mujoco.mj_step(model, data);
    }
    const [a, b] = runs.map(({ data }) => Array.from(data.xipos.slice(3, 9)));
    const gap = Math.max(...a.map((x, i) => Math.abs(x - b[i])));
    console.log(`# the export beside the model, driven 1.5 s: ${gap.toExponential(2)} m apart`);
    assert.ok(gap < 1e-9, `${a} ${b}`);
  } finally {
    for (const { model, data } of runs) { data.delete(); model.delete(); }
  }
});
