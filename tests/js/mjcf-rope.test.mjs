// MuJoCo's limited spatial tendon between two sites (the ball_in_cup's string) as a Tumble rope
// (www/mujoco/from-mjcf-springs.js, to-mjcf.js; crates/tumble/src/forces/rope.rs). A ball on two
// slides (as the ball_in_cup's) hangs from a site on the world by a string of 0.3 m and moves away
// at 1 m/s without gravity: the string goes taut at 0.2 s and throws it back. Tumble's rope takes
// its restitution from solreflimit's dampratio as the joint limits do (restitutionOfDampratio):
// Tumble's ball comes back at that restitution to 1e-3 and within 0.02 of MuJoCo's RK4 run of the
// model itself (soft against a stop: they agree on the rebound, not on the stretch); the director's
// balance holds. The system goes to MJCF and back with its rope; a rope that starts beyond its
// range is lengthened to its start with a note.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { compileMjcf, fromMjModel, toMjcf } from '../../www/mujoco/mjcf.js';
import { restitutionOfDampratio } from '../../www/mujoco/mjcf-math.js';
import { mujoco } from './mjcf-convert.mjs';
import { MujocoRun } from '../../www/mujoco/mujoco-run.js';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

const MODEL = (range = '0 0.3') => `<mujoco><option timestep="1e-4" integrator="RK4" gravity="0 0 0"/>
  <worldbody>
    <site name="anchor" pos="0 0 1"/>
    <body name="ball" pos="0 0 0.9">
      <joint name="ball_x" type="slide" axis="1 0 0"/><joint name="ball_z" type="slide" axis="0 0 1"/>
      <geom type="sphere" size="0.02" mass="0.5" contype="0" conaffinity="0"/><site name="ball"/>
    </body>
  </worldbody>
  <tendon><spatial name="string" limited="true" range="${range}" solreflimit="0.01 0.3"><site site="anchor"/><site site="ball"/></spatial></tendon>
  <keyframe><key qpos="0 0" qvel="0 -1"/></keyframe>
</mujoco>`;

/** The ball in MuJoCo's own run of `xml` at t (RK4, h = 1e-4): { vz, z } (world). */
function mujocoRun(xml, t) {
  const model = compileMjcf(mujoco, xml);
  const data = new mujoco.MjData(model);
  try {
    mujoco.mj_resetDataKeyframe(model, data, 0);
    for (let k = 0; k < Math.round(t / 1e-4); k++) mujoco.mj_step(model, data);
    return { vz: data.qvel[1], z: 0.9 + data.qpos[1] };
  } finally {
    data.delete();
    model.delete();
  }
}

/** Tumble's run of `system` (one 0.5 kg ball) with the director at h to t: { speed (from the
 * kinetic energy), z, balance }. */
function tumbleRun(system, h, t) {
  const sim = new wasm.Simulation(JSON.stringify({ ...system, dt: h }), 'director', h, 0);
  try {
    assert.equal(sim.step(Math.round(t / h)), Math.round(t / h), sim.last_error());
    const fields = wasm.invariant_fields(), inv = new Float64Array(fields.length), poses = new Float64Array(12);
    sim.invariants(inv);
    sim.write_poses(poses);
    return { speed: Math.sqrt(2 * inv[fields.indexOf('kinetic')] / 0.5), z: poses[2], balance: inv[fields.indexOf('balance')] };
  } finally {
    sim.free();
  }
}

test('the ball_in_cup\'s string: a rope that throws the ball back as MuJoCo\'s limited tendon does', () => {
  const model = compileMjcf(mujoco, MODEL());
  const { system, notes } = fromMjModel(mujoco, model);
  model.delete();
  const rope = system.forces.find((f) => f.type === 'rope');
  assert.ok(rope, `${JSON.stringify(system.forces)}; ${notes.join('; ')}`);
  assert.equal(rope.length, 0.3);
  assert.deepEqual([rope.a, rope.point_a, rope.b, rope.point_b], [null, [0, 0, 1], 0, [0, 0, 0]]);
  const e = restitutionOfDampratio(0.3);
  assert.ok(Math.abs(rope.restitution - e) < 1e-12, `${rope.restitution} against ${e}`);
  assert.ok(!notes.some((n) => /string/.test(n)), notes.join('; '));
  // h = 5e-5: the stop, MuJoCo's stiffness at rest (1 / (1 - dmax) = 20 times its spring's at
  // MuJoCo's default solimplimit, from-mjcf-contact.js), rings at 1490 rad/s; at h = 1e-4
  // (omega h = 0.15) the director's rebound is off the law's e by 1.2e-3, at 5e-5 by 1.5e-4
  const mine = tumbleRun(system, 5e-5, 0.4);
  const theirs = mujocoRun(MODEL(), 0.4);
  console.log(`# rebound at 0.4 s: Tumble ${mine.speed.toFixed(5)} m/s (e = ${e.toFixed(5)}) at z ${mine.z.toFixed(5)} m, MuJoCo ${theirs.vz.toFixed(5)} m/s at z ${theirs.z.toFixed(5)} m; balance ${mine.balance.toExponential(2)} J`);
  assert.ok(Math.abs(mine.speed - e) < 1e-3, `Tumble's rebound ${mine.speed}, e ${e}`);
  assert.ok(theirs.vz > 0 && Math.abs(mine.speed - theirs.vz) < 0.02, `Tumble ${mine.speed}, MuJoCo ${theirs.vz}`);
  // both on their way back up, within 5 mm of each other (the stretch phases differ)
  assert.ok(mine.z > 0.7 && Math.abs(mine.z - theirs.z) < 5e-3, `z: Tumble ${mine.z}, MuJoCo ${theirs.z}`);
  assert.ok(Math.abs(mine.balance) < 1e-9, `balance ${mine.balance}`);
});

test('a rope goes to MJCF and back; one starting beyond its range is lengthened with a note', () => {
  const model = compileMjcf(mujoco, MODEL());
  const { system } = fromMjModel(mujoco, model);
  model.delete();
  const { xml } = toMjcf(system);
  assert.match(xml, /<spatial name="f0" limited="true" range="0 0.3" solreflimit="[^"]+"/);
  const back = compileMjcf(mujoco, xml);
  const again = fromMjModel(mujoco, back).system;
  back.delete();
  const [r0, r1] = [system, again].map((s) => s.forces.find((f) => f.type === 'rope'));
  assert.equal(r1.length, r0.length);
  assert.deepEqual([r1.a, r1.point_a, r1.b, r1.point_b], [r0.a, r0.point_a, r0.b, r0.point_b]);
  assert.ok(Math.abs(r1.restitution - r0.restitution) < 1e-9, `${r1.restitution} against ${r0.restitution}`);
  // the ball starts 0.1 m from the anchor: a range of 0 to 0.05 m is behind it
  const short = compileMjcf(mujoco, MODEL('0 0.05'));
  const out = fromMjModel(mujoco, short);
  short.delete();
  assert.ok(Math.abs(out.system.forces.find((f) => f.type === 'rope').length - 0.1) < 1e-12);
  assert.ok(out.notes.some((n) => /string: it starts 0.1 m long, beyond its range's 0.05 m/.test(n)), out.notes.join('; '));
});

test('MuJoCo beside a system with a rope: its run starts in Tumble\'s state and draws the rope', () => {
  const model = compileMjcf(mujoco, MODEL());
  const { system } = fromMjModel(mujoco, model);
  model.delete();
  const scenario = wasm.canonical_scenario(JSON.stringify({ ...system, dt: 1e-3 }));
  // (the rope is a point-to-point element of the view: its ends sized as the springs', which
  // failed before the run counted ropes among them)
  const run = new MujocoRun(wasm, mujoco, { scenario, mujoco: 'RK4', dt: 1e-3 });
  try {
    assert.equal(run.ns, 1);
    assert.equal(run.advance(400), 400);
    const s = run.springs;
    const length = Math.hypot(s[3] - s[0], s[4] - s[1], s[5] - s[2]);
    // at 0.4 s the string has thrown the ball back: slack again, shorter than 0.3 m
    assert.ok(length > 0.2 && length < 0.3, `${length}`);
  } finally {
    run.free();
  }
});
