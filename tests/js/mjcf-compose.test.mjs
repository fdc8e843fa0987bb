// Several MuJoCo joints on one body (www/mujoco/from-mjcf-compose.js): models written here with
// the constructs of DeepMind's control suite (a planar root of slide, slide, hinge as the
// hopper's, walker's and cheetah's; two slides as the point mass's; a fin's two crossed hinges
// at offset points as the fish's, and an ankle's whose lines pass apart as the humanoid's),
// converted, and run by Tumble's director at h = 1e-3 beside
// MuJoCo's own RK4 at h = 1e-4 with gravity tilted so that every coordinate moves, contact-free:
// every body's centre follows MuJoCo's to 1e-4 m over 2 s, and the director's balance holds to
// the Newton tolerance. And the joints' ranges, stiffness and motors land on the coordinate they
// belong to, named as MuJoCo names them; forms Tumble has no joint for are refused naming the
// joints; a system with the new joints goes to MJCF and back unchanged, its coordinates' names too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { compileMjcf, fromMjModel, toMjcf } from '../../www/mujoco/mjcf.js';
import { mujoco, convert } from './mjcf-convert.mjs';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

const wrap = (body, extra = '') => `<mujoco><option timestep="1e-4" integrator="RK4" gravity="1.5 0.7 -9.81"/>
  <worldbody>${body}</worldbody>${extra}</mujoco>`;

// a planar hopper-like chain: torso on a planar root (x, z slides, hinge about y), a thigh on
// a hinge with a spring and damper, a foot on a hinge with a spring and a range it does not reach (contact-free:
// MuJoCo's soft limits and Tumble's stops part, docs/mujoco.md)
const HOPPER = wrap(`
  <body name="torso" pos="0 0 1">
    <joint name="rootx" type="slide" axis="1 0 0"/>
    <joint name="rootz" type="slide" axis="0 0 1" stiffness="30" damping="0.5"/>
    <joint name="rooty" type="hinge" axis="0 1 0" pos="0 0 0.1"/>
    <geom type="capsule" fromto="0 0 -0.1 0 0 0.2" size="0.06" contype="0" conaffinity="0"/>
    <body name="thigh" pos="0 0 -0.15">
      <joint name="hip" type="hinge" axis="0 1 0" stiffness="5" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 0.1 0 -0.3" size="0.04" contype="0" conaffinity="0"/>
      <body name="foot" pos="0.1 0 -0.3">
        <joint name="ankle" type="hinge" axis="0 1 0" range="-80 80" stiffness="1"/>
        <geom type="capsule" fromto="-0.05 0 0 0.15 0 0" size="0.03" contype="0" conaffinity="0"/>
      </body>
    </body>
  </body>`, '<actuator><motor name="hipmotor" joint="hip" gear="1"/><motor name="push" joint="rootx" gear="2"/></actuator><keyframe><key name="go" qvel="0.3 0.5 1 -0.5 0.2" ctrl="0.4 1.5"/></keyframe>');

// a point mass on two slides in a tilted plane, with damping on one, a range on the other;
// and one whose slides are oblique (refused: Tumble's slide is MuJoCo's coordinate only where
// they are perpendicular)
const POINT = wrap(`
  <body name="pointmass" pos="0 0 0.5" euler="20 0 0">
    <joint name="root_x" type="slide" axis="1 0 0" damping="0.3"/>
    <joint name="root_y" type="slide" axis="0 1 0" range="-0.3 0.3"/>
    <geom type="sphere" size="0.05" mass="0.3" contype="0" conaffinity="0"/>
  </body>`);

// a fin on two perpendicular hinges whose axes meet 5 mm from the first's anchor (the fish's)
const FIN = wrap(`
  <body name="torso" pos="0 0 0.5"><freejoint name="root"/>
    <geom type="ellipsoid" size="0.1 0.05 0.04" contype="0" conaffinity="0"/>
    <body name="fin" pos="0.1 0 0">
      <joint name="roll" type="hinge" axis="0 1 0"/>
      <joint name="pitch" type="hinge" axis="1 0 0" pos="0 0.005 0"/>
      <geom type="box" size="0.04 0.01 0.02" pos="0.04 0 0" contype="0" conaffinity="0"/>
    </body>
  </body>`, '<keyframe><key qvel="0 0 0 1 0.5 0 2 -1"/></keyframe>');

const HIP = wrap(`
  <body name="thigh" pos="0 0 1">
    <joint name="hip_x" type="hinge" axis="1 0 0" stiffness="3" springref="0.2" damping="0.02"/>
    <joint name="hip_z" type="hinge" axis="0 0 1" stiffness="2" damping="0.01" range="-80 80"/>
    <joint name="hip_y" type="hinge" axis="0 1 0" stiffness="4" springref="-0.3"/>
    <geom type="capsule" fromto="0 0 0 0.05 0.02 -0.35" size="0.04" mass="2" contype="0" conaffinity="0"/>
  </body>`, `<tendon><fixed name="twist" stiffness="1"><joint joint="hip_x" coef="0.5"/><joint joint="hip_y" coef="-1"/></fixed></tendon>
  <keyframe><key qpos="0.3 -0.4 0.2" qvel="1.5 -2 0.8"/></keyframe>`);

// an ankle as the humanoid's: hinges about y and about (1, 0, 0.5), 4 cm apart on the shin's
// axis, so that their lines pass 3.6 cm apart; a spring on each, a turned start (the springs a
// sixth of the humanoid's: with its 6 and 3 N m/rad this 1 kg foot swings at about 40 rad/s and
// the director's error at h = 1e-3 is 1.2e-4 m, 3.0e-5 m at h = 5e-4: order 2, checked below)
const ANKLE = (k1 = 1, k2 = 0.5) => wrap(`
  <body name="foot" pos="0 0 1">
    <joint name="ankle_y" type="hinge" axis="0 1 0" pos="0 0 0.08" stiffness="${k1}" damping="0.02"/>
    <joint name="ankle_x" type="hinge" axis="1 0 0.5" pos="0 0 0.04" stiffness="${k2}"/>
    <geom type="capsule" fromto="-0.07 -0.02 0 0.14 -0.04 0" size="0.027" mass="1" contype="0" conaffinity="0"/>
  </body>`, '<keyframe><key qpos="0.3 -0.4" qvel="2 -3"/></keyframe>');

/** `xml` converted and run by Tumble's director (h, default 1e-3) and MuJoCo (its RK4 at 1e-4) for
 * `seconds`: the largest distance between a body's centre in the two, the director's worst
 * balance |E - E0 - W + D|, and the system. */
function against(xml, seconds = 2, h = 1e-3) {
  const model = compileMjcf(mujoco, xml);
  const data = new mujoco.MjData(model);
  const { system, notes } = fromMjModel(mujoco, model);
  system.dt = h;
  const per = Math.round(1e-2 / h);
  const sim = new wasm.Simulation(JSON.stringify(system), 'director', h, 0);
  try {
    if (model.nkey) mujoco.mj_resetDataKeyframe(model, data, 0);
    const n = sim.body_count(), poses = new Float64Array(12 * n);
    const inv = new Float64Array(wasm.invariant_fields().length), at = wasm.invariant_fields().indexOf('balance');
    let gap = 0, balance = 0;
    for (let k = 0; k < seconds * 100; k++) {
      for (let s = 0; s < 100; s++) mujoco.mj_step(model, data);
      assert.equal(sim.step(per), per, sim.last_error());
      sim.write_poses(poses);
      for (let b = 0; b < n; b++) {
        const d = [0, 1, 2].map((c) => poses[12 * b + c] - data.xipos[3 * (b + 1) + c]);
        gap = Math.max(gap, Math.hypot(...d));
      }
      sim.invariants(inv);
      balance = Math.max(balance, Math.abs(inv[at]));
    }
    return { gap, balance, system, notes };
  } finally {
    sim.free();
    data.delete();
    model.delete();
  }
}

test('a planar root (slide, slide, hinge) is a planar joint whose slides and angle carry their stiffness, damping and motors; the chain follows MuJoCo RK4 to 1e-4 m over 2 s', () => {
  const { system } = convert(HOPPER);
  const root = system.joints[0];
  assert.equal(root.type, 'planar');
  assert.deepEqual(root.slides.map((v) => v.map((x) => +x.toFixed(12))), [[1, 0, 0], [0, 0, 1]]);
  const springs = system.forces.filter((f) => f.type === 'slider_spring');
  assert.deepEqual(springs.map((f) => [f.joint, f.slide ?? 0, f.stiffness, f.damping]), [[0, 1, 30, 0.5]]);
  const push = system.forces.find((f) => f.type === 'slider_motor');
  assert.deepEqual([push.joint, push.slide ?? 0], [0, 0]);
  // each coordinate keeps its MuJoCo joint's name, in the planar joint's order
  assert.deepEqual(root.coordinates, ['rootx', 'rootz', 'rooty']);
  const { gap, balance } = against(HOPPER);
  console.log(`# hopper-like: largest gap to MuJoCo ${gap.toExponential(2)} m over 2 s, balance ${balance.toExponential(2)} J`);
  assert.ok(gap < 1e-4, `${gap}`);
  assert.ok(balance < 1e-8, `${balance}`);
});

test('two slides on one body are a planar_slide joint, its range a stop on its second slide; the point mass follows MuJoCo', () => {
  const { system } = convert(POINT);
  assert.equal(system.joints[0].type, 'planar_slide');
  const limit = system.forces.find((f) => f.type === 'slider_limit');
  assert.deepEqual([limit.joint, limit.slide], [0, 1]);
  const { gap, balance } = against(POINT.replace('range="-0.3 0.3"', 'range="-20 20"')); // (a range it does not reach)
  console.log(`# point mass: gap ${gap.toExponential(2)} m, balance ${balance.toExponential(2)} J`);
  assert.ok(gap < 1e-4, `${gap}`);
  assert.ok(balance < 1e-8, `${balance}`);
});

test('two perpendicular hinges whose axes meet off their anchors are a universal joint where they meet; the fin follows MuJoCo', () => {
  const { system, notes } = convert(FIN);
  const j = system.joints.find((x) => x.type === 'universal');
  assert.ok(j, JSON.stringify(system.joints));
  assert.ok(notes.some((n) => /its two hinges meet 5 mm from the first's anchor: a universal joint there/.test(n)), notes.join('; '));
  const { gap } = against(FIN);
  console.log(`# fin: gap ${gap.toExponential(2)} m`);
  assert.ok(gap < 1e-4, `${gap}`);
});

test('three perpendicular hinges through one point are a gimbal joint whose angles carry their springs and a tendon; the thigh follows MuJoCo from a turned start, and so does the export', () => {
  const { system, notes } = convert(HIP);
  assert.equal(system.joints[0].type, 'gimbal');
  assert.ok(notes.some((n) => /universal and gimbal joints: 3 of their hinges carry springs, dampers, ranges or actuators/.test(n)), notes.join('; '));
  assert.deepEqual(system.tendons.map((t) => t.terms.map((x) => x.hinge ?? 0)), [[0, 2], [0], [1], [2]]);
  // hip_z's range (80 degrees either way), from its start at -0.4 rad: a stop on its one-term
  // tendon (not reached here)
  const stop = system.forces.find((f) => f.type === 'tendon_limit');
  const deg = Math.PI / 180;
  assert.equal(stop.tendon, 2);
  assert.ok(Math.abs(stop.lower - (-80 * deg + 0.4)) < 1e-12 && Math.abs(stop.upper - (80 * deg + 0.4)) < 1e-12, JSON.stringify(stop));
  const { gap, balance } = against(HIP);
  console.log(`# hip (gimbal): gap ${gap.toExponential(2)} m, balance ${balance.toExponential(2)} J`);
  assert.ok(gap < 1e-4, `${gap}`);
  assert.ok(balance < 1e-8, `${balance}`);
  // MuJoCo runs Tumble's export of the turned start as the model itself
  const original = compileMjcf(mujoco, HIP);
  const exported = compileMjcf(mujoco, toMjcf(system, { integrator: 'RK4', timestep: 1e-4 }).xml);
  const runs = [original, exported].map((model) => ({ model, data: new mujoco.MjData(model) }));
  try {
    for (const { model, data } of runs) {
      mujoco.mj_resetDataKeyframe(model, data, 0);
      for (let k = 0; k < 10000; k++) mujoco.mj_step(model, data);
    }
    const [a, b] = runs.map(({ data }) => Array.from(data.xipos.slice(3, 6)));
    const apart = Math.max(...a.map((x, i) => Math.abs(x - b[i])));
    console.log(`# hip: the export beside the model over 1 s: ${apart.toExponential(2)} m apart`);
    assert.ok(apart < 1e-9, `${a} ${b}`);
  } finally {
    for (const { model, data } of runs) { data.delete(); model.delete(); }
  }
});

test("two perpendicular hinges whose lines pass apart (the humanoid's ankle) are a universal joint with that offset; the foot follows MuJoCo from a turned start, and so does the export", () => {
  const { system, notes } = convert(ANKLE());
  const j = system.joints[0];
  assert.equal(j.type, 'universal');
  // the lines' distance: 0.04 m along z, seen across the common normal of y and (1, 0, 0.5)
  const want = 0.04 / Math.hypot(1, 0.5);
  assert.ok(Math.abs(Math.abs(j.offset) - want) < 1e-12, `offset ${j.offset} m, the lines ${want} m apart`);
  assert.ok(notes.some((n) => /body 'foot': its two hinges pass 35.8 mm apart: a universal joint with that offset/.test(n)), notes.join('; '));
  const { gap, balance } = against(ANKLE());
  console.log(`# ankle (offset universal): gap ${gap.toExponential(2)} m, balance ${balance.toExponential(2)} J`);
  assert.ok(gap < 1e-4, `${gap}`);
  assert.ok(balance < 1e-8, `${balance}`);
  // with the humanoid's own springs: the gap to MuJoCo falls as h^2
  const gaps = [1e-3, 5e-4].map((h) => against(ANKLE(6, 3), 2, h).gap);
  const order = Math.log2(gaps[0] / gaps[1]);
  console.log(`# ankle with the humanoid's springs: gap ${gaps.map((g) => g.toExponential(2)).join(', ')} m at h = 1e-3, 5e-4 s: order ${order.toFixed(3)}`);
  assert.ok(Math.abs(order - 2) < 0.1, `${gaps}`);
  const original = compileMjcf(mujoco, ANKLE());
  const exported = compileMjcf(mujoco, toMjcf(system, { integrator: 'RK4', timestep: 1e-4 }).xml);
  const runs = [original, exported].map((model) => ({ model, data: new mujoco.MjData(model) }));
  try {
    mujoco.mj_resetDataKeyframe(original, runs[0].data, 0);
    mujoco.mj_resetDataKeyframe(exported, runs[1].data, 0);
    for (const { model, data } of runs) for (let k = 0; k < 10000; k++) mujoco.mj_step(model, data);
    const [a, b] = runs.map(({ data }) => Array.from(data.xipos.slice(3, 6)));
    const apart = Math.max(...a.map((x, i) => Math.abs(x - b[i])));
    console.log(`# ankle: the export beside the model over 1 s: ${apart.toExponential(2)} m apart`);
    assert.ok(apart < 1e-9, `${a} ${b}`);
  } finally {
    for (const { model, data } of runs) { data.delete(); model.delete(); }
  }
});

test('forms Tumble has no joint for are refused naming the body, its joints and the forms it takes', () => {
  const oblique2 = wrap(`<body name="foot" pos="0 0 1">
    <joint name="ankle_y" type="hinge" axis="0 1 0" pos="0 0 0.08"/><joint name="ankle_x" type="hinge" axis="1 0.5 0" pos="0 0 0.04"/>
    <geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.03"/></body>`);
  assert.throws(() => convert(oblique2), /body 'foot' has 2 joints \(hinge 'ankle_y', hinge 'ankle_x'\) that no Tumble joint matches; Tumble takes .*three mutually perpendicular hinges through one point \(gimbal\).*two perpendicular slides and then a hinge normal to both \(planar\)/);
  const turnFirst = wrap(`<body name="b" pos="0 0 1"><joint type="hinge" axis="0 1 0"/><joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 0 1"/>
    <geom type="sphere" size="0.1"/></body>`);
  assert.throws(() => convert(turnFirst), /body 'b' has 3 joints \(hinge, slide, slide\) that no Tumble joint matches/);
  const oblique = wrap(`<body name="p" pos="0 0 1"><joint type="slide" axis="1 0 0"/><joint type="slide" axis="0.6 0.8 0"/>
    <geom type="sphere" size="0.1"/></body>`);
  assert.throws(() => convert(oblique), /body 'p' has 2 joints \(slide, slide\) that no Tumble joint matches; .*two perpendicular slides \(planar_slide\)/);
});

test('a system with planar and planar_slide joints and their elements goes to MJCF and back unchanged', () => {
  const system = {
    gravity: [1, 0, -9.81], dt: 0.001, duration: 1,
    bodies: [
      { mass: 2, inertia: [0.3, 0.4, 0.5], position: [0.3, 0, 1], velocity: [1, 0, 0.5], angular_velocity: [0, 2, 0] },
      { mass: 1, inertia: [0.1, 0.1, 0.1], position: [2, 0, 1], velocity: [0.2, 0, 0.3] },
    ],
    joints: [
      { type: 'planar', a: null, point_a: [0, 0, 1], b: 0, point_b: [-0.3, 0, 0], axis_a: [0, 1, 0], axis_b: [0, 1, 0], slides: [[1, 0, 0], [0, 0, 1]], coordinates: ['x', 'z', 'pitch'] },
      { type: 'planar_slide', a: null, point_a: [2, 0, 1], b: 1, point_b: [0, 0, 0], axis_a: [0, 1, 0], axis_b: [0, 1, 0], slides: [[1, 0, 0], [0, 0, 1]] },
    ],
    forces: [
      { type: 'slider_spring', joint: 0, slide: 1, stiffness: 20, rest_slide: -0.1, damping: 0.2 },
      { type: 'joint_spring', joint: 0, stiffness: 3, rest_angle: 0, damping: 0 },
      { type: 'slider_motor', joint: 1, force: 0.5 },
      { type: 'slider_limit', joint: 1, slide: 1, lower: -0.5, upper: 0.5, stiffness: 1000, restitution: 0.5 },
    ],
  };
  const { xml } = toMjcf(system, { integrator: 'RK4', timestep: 0.001 });
  const back = convert(xml).system;
  assert.deepEqual(back.joints.map((j) => [j.type, j.a, j.b]), [['planar', null, 0], ['planar_slide', null, 1]]);
  // the coordinates' names come back (carried in <custom> texts), none made up for the other
  assert.deepEqual(back.joints.map((j) => j.coordinates), [['x', 'z', 'pitch'], undefined]);
  const close = (x, y) => Math.abs(x - y) < 1e-9;
  back.joints.forEach((j, k) => j.slides.forEach((v, i) => assert.ok(v.every((c, n) => close(c, system.joints[k].slides[i][n])), `${k} ${i} ${v}`)));
  // (the import orders the elements by kind: the joints' springs, the limits, the actuators)
  const of = (type) => back.forces.find((f) => f.type === type);
  const kinds = back.forces.map((f) => [f.type, f.joint, f.slide ?? 0]).sort();
  assert.deepEqual(kinds, [['joint_spring', 0, 0], ['slider_limit', 1, 1], ['slider_motor', 1, 0], ['slider_spring', 0, 1]]);
  assert.ok(close(of('slider_spring').stiffness, 20) && close(of('slider_spring').rest_slide, -0.1) && close(of('slider_motor').force, 0.5));
  assert.ok(close(of('slider_limit').lower, -0.5) && close(of('slider_limit').upper, 0.5));
  back.bodies.forEach((b, i) => b.velocity.forEach((c, n) => assert.ok(close(c, system.bodies[i].velocity[n]), `${i} ${b.velocity}`)));
  assert.ok(close(back.bodies[0].angular_velocity[1], 2));
});

// three perpendicular slides on a turned body (a point moving freely, not turning), each with
// its own spring, damper and a motor on the third, a range on it that it does not reach (the
// stops part from MuJoCo's soft limits: their own tests); gravity tilted so that every slide moves
const THREE = wrap(`
  <body name="block" pos="0.1 -0.2 0.6" euler="20 -10 30">
    <joint name="sx" type="slide" axis="1 0 0" stiffness="8" damping="0.2"/>
    <joint name="sy" type="slide" axis="0 1 0" stiffness="5"/>
    <joint name="sz" type="slide" axis="0 0 1" damping="0.4" range="-50 50"/>
    <geom type="box" size="0.05 0.04 0.03" mass="0.5" contype="0" conaffinity="0"/>
  </body>`).replace('</worldbody>', '</worldbody><actuator><motor name="lift" joint="sz" gear="2" ctrlrange="-1 1" ctrllimited="true"/></actuator>');

test('three perpendicular slides on one body are a translation joint whose slides carry their springs, dampers, range and motor; it follows MuJoCo RK4 and goes to MJCF and back', () => {
  const { system } = convert(THREE);
  assert.equal(system.joints[0].type, 'translation');
  const kinds = system.forces.map((f) => [f.type, f.slide ?? 0]).sort();
  assert.deepEqual(kinds.filter(([t]) => t !== 'slider_motor'), [['slider_limit', 2], ['slider_spring', 0], ['slider_spring', 1], ['slider_spring', 2]]);
  assert.ok(system.forces.some((f) => f.type === 'slider_motor' && f.slide === 2), JSON.stringify(system.forces));
  const { gap, balance } = against(THREE);
  console.log(`# three slides: gap ${gap.toExponential(2)} m, balance ${balance.toExponential(2)} J`);
  assert.ok(gap < 1e-4, `${gap}`);
  assert.ok(balance < 1e-8, `${balance}`);
  // written back: three slides, the same joint and elements
  const { xml } = toMjcf(system, { integrator: 'RK4', timestep: 0.001 });
  assert.equal((xml.match(/type="slide"/g) ?? []).length, 3, xml);
  const back = convert(xml).system;
  assert.equal(back.joints[0].type, 'translation');
  assert.deepEqual(back.forces.map((f) => [f.type, f.slide ?? 0]).sort(), system.forces.map((f) => [f.type, f.slide ?? 0]).sort());
});
