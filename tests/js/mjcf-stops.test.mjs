// MuJoCo's joint limits as Tumble's stops (www/mujoco/from-mjcf-contact.js, stopOf): where a
// limit holds a load. A rod on a hinge (written here), horizontal at the start against the upper
// end of its range, gravity pressing it in; MuJoCo (implicitfast, 1 ms) and Tumble's director
// (1 ms) each run 10 s to rest. MuJoCo's law at impedance d = dmax (past solimplimit's width) sinks
// r = (1 - dmax) (tc z)^2 a0, a0 = gravity's torque over the joint's inertia (1 / dof_invweight0):
// MuJoCo's own run checks that reading, and Tumble's stop, calibrated on it, rests at MuJoCo's
// depth. Within the width (a light load) MuJoCo's impedance is lower and its limit softer than
// the stop: both hold the rod within the width there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { compileMjcf, fromMjModel } from '../../www/mujoco/mjcf.js';
import { mujoco } from './mjcf-convert.mjs';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

const ROD = (solref, solimp) => `<mujoco><option timestep="1e-3" integrator="implicitfast"/>
  <worldbody><body name="rod" pos="0 0 1">
    <joint name="h" type="hinge" axis="0 1 0" range="-30 0" solreflimit="${solref}" solimplimit="${solimp}"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1" contype="0" conaffinity="0"/>
  </body></worldbody></mujoco>`;

/** The rod's depth past its stop at rest: MuJoCo's (qpos), Tumble's (from its centre's
 * position, 0.25 m from the hinge), and the reading's (1 - dmax) (tc z)^2 a0. */
function rest(solref, solimp) {
  const model = compileMjcf(mujoco, ROD(solref, solimp));
  const data = new mujoco.MjData(model);
  try {
    for (let k = 0; k < 10000; k++) mujoco.mj_step(model, data);
    const [tc, z] = solref.split(' ').map(Number), dmax = Number(solimp.split(' ')[1]);
    const theta = data.qpos[0];
    const a0 = 9.81 * 0.25 * Math.cos(theta) * model.dof_invweight0[0];
    const { system, notes } = fromMjModel(mujoco, model);
    assert.ok(notes.some((n) => /joint limits \(1\).*over 1 - solimplimit's dmax/.test(n)), notes.join('; '));
    const sim = new wasm.Simulation(JSON.stringify({ ...system, dt: 1e-3 }), 'director', 1e-3, 0);
    try {
      assert.equal(sim.step(10000), 10000, sim.last_error());
      const poses = new Float64Array(12);
      sim.write_poses(poses);
      const tumble = Math.atan2(1 - poses[2], poses[0]);
      return { mujoco: theta, tumble, reading: (1 - dmax) * (tc * z) ** 2 * a0, speed: Math.abs(data.qvel[0]) };
    } finally {
      sim.free();
    }
  } finally {
    data.delete();
    model.delete();
  }
}

test('a rod resting on its stop: MuJoCo sinks (1 - dmax) (tc z)^2 a0 past its range, and Tumble\'s stop holds it there', () => {
  // MuJoCo's default solimplimit (0.9 0.95, width 1 mrad) and the control suite's (0 0.99,
  // width 10 mrad), each with a time constant that lets the rod sink past the width
  for (const [solref, solimp] of [['0.1 1', '0.9 0.95 0.001'], ['0.3 1', '0 0.99 0.01']]) {
    const r = rest(solref, solimp);
    console.log(`# solreflimit ${solref}, solimplimit ${solimp}: at rest ${r.mujoco.toExponential(4)} rad (MuJoCo), ${r.tumble.toExponential(4)} rad (Tumble), reading ${r.reading.toExponential(4)} rad`);
    assert.ok(r.speed < 1e-6, `MuJoCo's rod still turns at ${r.speed} rad/s`);
    assert.ok(r.mujoco > Number(solimp.split(' ')[2]), `MuJoCo rests within the width: ${r.mujoco}`);
    assert.ok(Math.abs(r.mujoco / r.reading - 1) < 1e-3, `MuJoCo ${r.mujoco} rad, reading ${r.reading} rad`);
    assert.ok(Math.abs(r.tumble / r.mujoco - 1) < 1e-3, `Tumble ${r.tumble} rad, MuJoCo ${r.mujoco} rad`);
  }
});

test('under a light load both hold the rod within solimplimit\'s width, Tumble\'s stop the stiffer there', () => {
  // the suite's limits at MuJoCo's default solreflimit (20 ms): the reading, 1.2e-4 rad, is
  // inside the width (10 mrad), where MuJoCo's impedance is below dmax
  const r = rest('0.02 1', '0 0.99 0.01');
  console.log(`# light load: at rest ${r.mujoco.toExponential(3)} rad (MuJoCo), ${r.tumble.toExponential(3)} rad (Tumble), reading ${r.reading.toExponential(3)} rad`);
  assert.ok(r.reading < 0.01 && r.mujoco > 0 && r.mujoco < 0.01, `MuJoCo ${r.mujoco} rad`);
  assert.ok(Math.abs(r.tumble / r.reading - 1) < 1e-3, `Tumble ${r.tumble} rad, reading ${r.reading} rad`);
  assert.ok(r.tumble < r.mujoco, `Tumble ${r.tumble} rad, MuJoCo ${r.mujoco} rad`);
});
