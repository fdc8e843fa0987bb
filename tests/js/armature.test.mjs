// A tendon armature (a rotor inertia on a joint coordinate: MuJoCo's armature) beside MuJoCo:
// the export writes it as the fixed tendon's armature, MuJoCo's RK4 (h = 1e-4) runs a double
// pendulum with one on its elbow where Tumble's director (h = 1e-3) does, and Tumble's measure of
// MuJoCo's states counts its kinetic energy A (dL/dt)^2 / 2: MuJoCo's run keeps E to its RK4's
// error, which it would miss by A w^2 / 2 (some 1e-2 J here) without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { loadMujoco, toMjcf } from '../../www/mujoco/mjcf.js';
import { MujocoRun } from '../../www/mujoco/mujoco-run.js';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const mujoco = await loadMujoco();
const fields = wasm.invariant_fields();
const at = (name) => fields.indexOf(name);

/** Two rods (1 kg, 0.5 m) hinged about z at the top and the elbow, gravity -y, started at the
 * angles phi from -y with the rates dphi, an armature `a` on the elbow (tests/tests/armature.rs
 * has the same pendulum against its Lagrangian). */
function pendulum(a, phi = [1.1, 0.2], dphi = [0.5, -1.5]) {
  const l = 0.5, iz = l * l / 12;
  const u = (p) => [Math.sin(p), -Math.cos(p)];
  const [u1, u2] = phi.map(u);
  const c1 = [0.5 * l * u1[0], 0.5 * l * u1[1]], e = [l * u1[0], l * u1[1]];
  const c2 = [e[0] + 0.5 * l * u2[0], e[1] + 0.5 * l * u2[1]];
  const v1 = [-dphi[0] * c1[1], dphi[0] * c1[0]];
  const v2 = [-dphi[0] * e[1] - dphi[1] * (c2[1] - e[1]), dphi[0] * e[0] + dphi[1] * (c2[0] - e[0])];
  return {
    gravity: [0, -9.81, 0],
    bodies: [
      { mass: 1, inertia: [0.011, 0.011, iz], position: [...c1, 0], velocity: [...v1, 0], angular_velocity: [0, 0, dphi[0]] },
      { mass: 1, inertia: [0.011, 0.011, iz], position: [...c2, 0], velocity: [...v2, 0], angular_velocity: [0, 0, dphi[1]] },
    ],
    joints: [
      { type: 'revolute', a: null, point_a: [0, 0, 0], b: 0, point_b: [-c1[0], -c1[1], 0], axis_a: [0, 0, 1], axis_b: [0, 0, 1] },
      { type: 'revolute', a: 0, point_a: [e[0] - c1[0], e[1] - c1[1], 0], b: 1, point_b: [e[0] - c2[0], e[1] - c2[1], 0], axis_a: [0, 0, 1], axis_b: [0, 0, 1] },
    ],
    tendons: [{ terms: [{ joint: 1, coef: 1 }] }],
    forces: a > 0 ? [{ type: 'tendon_armature', tendon: 0, armature: a }] : [],
  };
}

test("the export writes a tendon armature as MuJoCo's tendon armature", () => {
  const { xml, notes } = toMjcf(pendulum(0.02), { integrator: 'RK4', timestep: 1e-4 });
  assert.match(xml, /<fixed name="t0"[^>]* armature="0.02"/);
  assert.deepEqual(notes.filter((n) => /forces\[0\]/.test(n)), []);
});

test("MuJoCo's RK4 beside the director: a double pendulum with an armature on its elbow, 2 s", () => {
  const scenario = JSON.stringify(pendulum(0.02));
  const run = new MujocoRun(wasm, mujoco, { scenario, mujoco: 'RK4', dt: 1e-4 });
  const sim = new wasm.Simulation(scenario, 'director', 1e-3, 0);
  const plain = new wasm.Simulation(JSON.stringify(pendulum(0)), 'director', 1e-3, 0);
  try {
    const poses = new Float64Array(24), bare = new Float64Array(24);
    let gap = 0, balance = 0, apart = 0;
    for (let k = 0; k < 2000; k++) {
      assert.equal(run.advance(10), 10, run.error);
      assert.equal(sim.step(1), 1, sim.last_error());
      assert.equal(plain.step(1), 1, plain.last_error());
      sim.write_poses(poses);
      plain.write_poses(bare);
      for (let b = 0; b < 2; b++) {
        gap = Math.max(gap, Math.hypot(...[0, 1, 2].map((c) => poses[12 * b + c] - run.poses[12 * b + c])));
        apart = Math.max(apart, Math.hypot(...[0, 1, 2].map((c) => poses[12 * b + c] - bare[12 * b + c])));
      }
      balance = Math.max(balance, Math.abs(run.inv[at('balance')]));
    }
    console.log(`# armature 0.02 kg m^2 on the elbow: the director ${gap.toExponential(2)} m from MuJoCo RK4 over 2 s (without the armature it is ${apart.toFixed(3)} m elsewhere); MuJoCo's |E - E0| measured by Tumble <= ${balance.toExponential(2)} J`);
    assert.ok(gap < 1e-4, `${gap}`);
    assert.ok(apart > 1e-2, `${apart}`);
    assert.ok(balance < 1e-6, `${balance}`);
  } finally {
    run.free();
    sim.free();
    plain.free();
  }
});

test('RATTLE and Baumgarte refuse an armature by name', () => {
  for (const method of ['rattle', 'baumgarte']) {
    assert.throws(() => new wasm.Simulation(JSON.stringify(pendulum(0.02)), method, 1e-3, 0), /forces\[0\] \(tendon_armature\): a rotor inertia is integrated by the director only/);
  }
});
