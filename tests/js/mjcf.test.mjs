// Tumble systems as MuJoCo models and back (www/mujoco/mjcf.js), with MuJoCo's own wasm build
// (@mujoco/mujoco, from package-lock.json) under Node: every preset written as MJCF, compiled by
// MuJoCo's compiler and converted back is the same system; MuJoCo's energies of it agree with
// Tumble's; MuJoCo's RK4 and Tumble's director follow the same motion; MJCF written in MuJoCo's
// own style converts to the expected systems, and what Tumble cannot take is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { initSync, Simulation, presets, scenario_json, invariant_fields } from '../../www/pkg/tumble_wasm.js';
import { toMjcf, compileMjcf, fromMjModel, quatOf } from '../../www/mujoco/mjcf.js';
import { mujoco, convert } from './mjcf-convert.mjs';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const fixture = (name) => readFileSync(new URL(`../fixtures/mjcf/${name}`, import.meta.url), 'utf8');
const script = new URL('../../scripts/mjcf2tumble.mjs', import.meta.url).pathname;


/** Largest difference between two JSON values of the same shape (Infinity where they differ in
 * shape), and where: [difference, path]. `skip(path)` leaves a field out. */
function diff(a, b, path = '', skip = () => false) {
  if (skip(path)) return [0, path];
  if (typeof a === 'number' && typeof b === 'number') return [Math.abs(a - b), path];
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [Infinity, `${path} (length ${a.length} vs ${b.length})`];
    return a.reduce((m, x, i) => { const d = diff(x, b[i], `${path}[${i}]`, skip); return d[0] > m[0] ? d : m; }, [0, path]);
  }
  if (a && b && typeof a === 'object') {
    let m = [0, path];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (skip(`${path}.${k}`)) continue;
      if (!(k in a) || !(k in b)) return [Infinity, `${path}.${k} only on one side`];
      const d = diff(a[k], b[k], `${path}.${k}`, skip);
      if (d[0] > m[0]) m = d;
    }
    return m;
  }
  return a === b ? [0, path] : [Infinity, `${path}: ${a} vs ${b}`];
}

// What MuJoCo has no counterpart for, per preset (each left out with a note, and so not in the
// round trip): motors with a function of time. The drives are MuJoCo equalities the run moves
// (to-mjcf-drives.js, tests/js/mjcf-drives.test.mjs): no note, and they come back as drives
// that hold their joint (a constant 0), so those presets are compared without them.
const DRIVEN = new Set(['slider-crank', 'kapitza', 'governor', 'crane']);
const LOST = { 'driven-pendulum': /forces\[0\] \(motor\)/,
  incline: /^static friction \(mu_s 0\.5 beside mu_k 0\.4\)/ };
// Presets whose contact and joint limits go to MuJoCo (as geoms and ranges) and come back with
// their shapes, restitutions and bounds (mjcf-contact.test.mjs) but not their stiffness (Young's
// modulus is not MuJoCo's): the round trip here compares the rest of them.
const CONTACT = new Set(['ball-pit', 'stop-pendulum', 'bouncing-ball', 'newtons-cradle', 'incline', 'billiards', 'falling-chain', 'dominoes']);

test('round trip: every preset as MJCF, compiled by MuJoCo and converted back, is the same system to 1e-12', () => {
  for (const { name } of presets()) {
    const sys = JSON.parse(scenario_json(name));
    const { xml, notes } = toMjcf(sys);
    if (LOST[name]) assert.ok(notes.some((n) => LOST[name].test(n)), `${name}: ${notes.join('; ')}`);
    else assert.deepEqual(notes, [], name);
    const back = convert(xml);
    // the same bodies (mass, inertia, pose, velocities, drawn size), joints (kind, bodies,
    // points, axes), gravity and step; the elements MuJoCo has; a prismatic or cylindrical
    // joint's point on a may move along its axis (MuJoCo's slide keeps b's point only), which
    // changes nothing in the joint's equations
    const skip = (p) => p === '.duration' || p === '.drives' || (DRIVEN.has(name) && /^\.drives/.test(p)) || /^\.joints\[\d+\]\.point_a$/.test(p) && /prismatic|cylindrical/.test(sys.joints[Number(p.match(/\d+/)[0])].type)
      || ((LOST[name] || CONTACT.has(name)) && (p === '.forces' || p === '.contact' || /^\.bodies\[\d+\]\.shapes$/.test(p)));
    const [d, where] = diff(sys, back.system, '', skip);
    assert.ok(d < 1e-12, `${name}: ${d} at ${where}`);
    sys.joints?.forEach((j, k) => {
      if (!/prismatic|cylindrical/.test(j.type)) return;
      const j2 = back.system.joints[k];
      // the two points of a differ along the axis only
      const dp = j.point_a.map((x, i) => x - j2.point_a[i]);
      const ax = j.axis_a, along = dp[0] * ax[0] + dp[1] * ax[1] + dp[2] * ax[2];
      assert.ok(Math.hypot(...dp.map((x, i) => x - along * ax[i])) < 1e-12, `${name} joint ${k}`);
    });
  }
});

// The converted start differs from the original in the last bits (a rotation written as a
// quaternion is turned back into a matrix by MuJoCo, and a point expressed in another frame and
// back), so the state hashes, which are of the bits, differ for most presets although the
// states agree: bit-for-bit equality is not possible through MuJoCo's quaternions. The states
// are compared instead: positions and rotations (write_poses) to 1e-12, and the velocities
// through the kinetic energy and the angular momentum, to 1e-12 relative. Newton's tolerance is
// the tightest, 1e-14, for both runs: at the default 1e-12 the solves' own differences divided by
// the step show in the velocities (andrews, h = 1e-5 s: its momentum 4e-11 apart of 3.3e-5, its
// positions 1e-13; at 1e-14: 5e-15 and 9e-16). Two presets part
// further in 100 steps, from differences of 1e-16 at the start: nk-spherical by 7.8e-12 m (100
// steps of 0.1 s of a chaotic chain: a 1-ulp change of its gravity alone parts it by 2.2e-11 m)
// and catenary by 1.8e-12 m (eight links on ball joints, every start rotation through a quaternion).
const SENSITIVE = { 'nk-spherical': 5e-11, catenary: 5e-12 };
test('round trip: 100 director steps of the converted system follow the original (positions 1e-12 m, T and momentum 1e-12)', () => {
  let same = 0, all = 0;
  const fields = invariant_fields();
  const report = [];
  for (const { name } of presets()) {
    if (LOST[name] || CONTACT.has(name) || DRIVEN.has(name)) continue; // (their drives' motion, time-varying motors or contact do not come back)
    const sys = JSON.parse(scenario_json(name));
    const back = convert(toMjcf(sys).xml).system;
    back.duration = sys.duration;
    const runs = [JSON.stringify(sys), JSON.stringify(back)].map((text) => {
      const s = new Simulation(text, 'director', sys.dt, 1e-14);
      assert.equal(s.step(100), 100, `${name}: ${s.last_error()}`);
      const poses = new Float64Array(12 * s.body_count());
      s.write_poses(poses);
      const inv = new Float64Array(fields.length);
      s.invariants(inv);
      const hash = s.state_hash();
      s.free();
      return { poses, inv, hash };
    });
    const d = Math.max(...runs[0].poses.map((x, i) => Math.abs(x - runs[1].poses[i])));
    assert.ok(d <= (SENSITIVE[name] ?? 1e-12), `${name}: poses differ by ${d} m after 100 steps`);
    const scale = Math.abs(runs[0].inv[fields.indexOf('kinetic')]) + Math.abs(runs[0].inv[fields.indexOf('potential')]) || 1;
    for (const f of ['kinetic', 'l1', 'l2', 'l3']) {
      const k = fields.indexOf(f);
      assert.ok(k >= 0, f);
      const mscale = f === 'kinetic' ? scale : Math.max(1, ...['l1', 'l2', 'l3'].map((g) => Math.abs(runs[0].inv[fields.indexOf(g)])));
      assert.ok(Math.abs(runs[0].inv[k] - runs[1].inv[k]) <= 1e-12 * mscale, `${name}: ${f} ${runs[0].inv[k]} vs ${runs[1].inv[k]}`);
    }
    report.push(`${name} ${d.toExponential(1)}`);
    all++;
    if (runs[0].hash === runs[1].hash) same++;
  }
  console.log(`# after 100 director steps, original vs converted, largest pose difference (m): ${report.join(', ')}; same state hash: ${same} of ${all}`);
});

test("MuJoCo's energies of the converted system are Tumble's to 1e-12", () => {
  const fields = invariant_fields();
  const inv = new Float64Array(fields.length);
  for (const name of ['nk-revolute', 'chain', 'double-pendulum', 'spring-pendulum', 'top']) {
    const sys = JSON.parse(scenario_json(name));
    const model = compileMjcf(mujoco, toMjcf(sys).xml);
    const data = new mujoco.MjData(model);
    mujoco.mj_resetDataKeyframe(model, data, 0);
    mujoco.mj_forward(model, data);
    const [v, t] = [data.energy[0], data.energy[1]];
    data.delete();
    model.delete();
    const s = new Simulation(name, 'director', 0, 0);
    s.invariants(inv);
    s.free();
    const [tt, vv] = [inv[fields.indexOf('kinetic')], inv[fields.indexOf('potential')]];
    const scale = Math.max(Math.abs(tt) + Math.abs(vv), 1);
    assert.ok(Math.abs(t - tt) < 1e-12 * scale, `${name}: T ${t} J (MuJoCo) vs ${tt} J`);
    assert.ok(Math.abs(v - vv) < 1e-12 * scale, `${name}: V ${v} J (MuJoCo) vs ${vv} J`);
  }
});

// MuJoCo's RK4 (fourth order) at h = 2.5e-4 s is the reference here; the director (second order)
// converges to it: its positions at t = 1 s differ by about 1e-6 m at h = 1e-3 s (its own error
// there) and by four times less at each halving.
test("the Nielsen & Krenk chain: Tumble's director converges to MuJoCo's RK4 motion (positions at t = 1 s)", () => {
  const sys = JSON.parse(scenario_json('nk-revolute'));
  const mjAt = (h) => {
    const model = compileMjcf(mujoco, toMjcf(sys, { integrator: 'RK4', timestep: h }).xml);
    const data = new mujoco.MjData(model);
    mujoco.mj_resetDataKeyframe(model, data, 0);
    for (let k = 0; k < Math.round(1 / h); k++) mujoco.mj_step(model, data);
    mujoco.mj_forward(model, data);
    const x = Array.from(data.xipos.slice(3));
    data.delete();
    model.delete();
    return x;
  };
  const tumbleAt = (h) => {
    const s = new Simulation('nk-revolute', 'director', h, 0);
    assert.equal(s.step(Math.round(1 / h)), Math.round(1 / h));
    const poses = new Float64Array(48);
    s.write_poses(poses);
    s.free();
    return [0, 1, 2, 3].flatMap((b) => Array.from(poses.slice(12 * b, 12 * b + 3)));
  };
  const gap = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
  const ref = mjAt(2.5e-4);
  const rk4 = gap(mjAt(1e-3), ref);
  const errors = [1e-3, 5e-4, 2.5e-4].map((h) => gap(tumbleAt(h), ref));
  console.log(`# nk-revolute at t = 1 s against MuJoCo RK4 at h = 2.5e-4 s: the director ${errors.map((e) => e.toExponential(2)).join(', ')} m at h = 1e-3, 5e-4, 2.5e-4 s; MuJoCo RK4 at 1e-3 s: ${rk4.toExponential(2)} m`);
  // 1.15e-6 m at h = 1e-3 s is the director's own truncation error (second order; MuJoCo's RK4
  // at that step is 1.7e-12 m from its reference): within 1e-6 m from h = 5e-4 s on
  assert.ok(errors[0] < 2e-6, `${errors[0]} m at h = 1e-3`);
  assert.ok(errors[1] < 1e-6, `${errors[1]} m at h = 5e-4`);
  for (let i = 1; i < errors.length; i++) {
    const order = Math.log2(errors[i - 1] / errors[i]);
    assert.ok(order > 1.8 && order < 2.3, `order ${order}`);
  }
});

test("MJCF in MuJoCo's own style converts to the expected systems", () => {
  // defaults and classes, fromto capsules with density, a quat and an euler orientation
  const { system: arm, notes: armNotes } = convert(fixture('arm.xml'));
  assert.equal(arm.bodies.length, 2);
  // a capsule of radius 0.05 m from (0,0,0) to (0,0,-1) at 1000 kg/m^3: a cylinder of 1 m and
  // a sphere, mass pi r^2 (1 + 4 r / 3) rho
  const r = 0.05, m = Math.PI * r * r * (1 + 4 * r / 3) * 1000;
  assert.ok(Math.abs(arm.bodies[0].mass - m) < 1e-9 * m, `${arm.bodies[0].mass} kg vs ${m} kg`);
  assert.ok(Math.abs(arm.bodies[0].position[2] + 0.5) < 1e-12, 'the capsule\'s centre halfway down');
  assert.equal(arm.joints[0].type, 'revolute');
  assert.equal(arm.joints[0].a, null);
  assert.deepEqual(arm.joints[1].type, 'revolute');
  // the second link hangs from the first's end, turned by euler="0 0 1.5707963267948966" and
  // its hinge axis (the class's axis="1 0 0") comes out along the world's x2
  const worldAxis = [0, 1, 2].map((i) => arm.bodies[1].rotation[i].reduce((s, x, k) => s + x * arm.joints[1].axis_b[k], 0));
  assert.ok(Math.abs(Math.abs(worldAxis[1]) - 1) < 1e-9, `axis ${worldAxis}`);
  // its two capsules are parent and child, which MuJoCo does not collide, and there is no floor:
  // nothing to collide in Tumble either, so no contact and no note; MuJoCo draws them, so they
  // are visual shapes (drawn only)
  assert.ok(arm.bodies.every((b) => b.shapes.length === 1 && b.shapes[0].visual) && !arm.contact, 'no collision left');
  assert.ok(!armNotes.some((n) => /contact/.test(n)), armNotes.join('; '));
  // a loop closed by connect: a four-bar in the plane
  const { system: loop } = convert(fixture('loop.xml'));
  assert.equal(loop.bodies.length, 3);
  assert.deepEqual(loop.joints.map((j) => j.type), ['revolute', 'revolute', 'revolute', 'spherical']);
  const s = new Simulation(JSON.stringify(loop), 'director', 0.01, 0);
  assert.equal(s.step(100), 100, s.last_error());
  s.free();
  // a quaternion orientation: the body's axes as written
  const { system: quat } = convert(fixture('quat.xml'));
  const q = quatOf(quat.bodies[0].rotation);
  const want = [Math.cos(0.25), Math.sin(0.25), 0, 0];
  assert.ok(q.every((x, i) => Math.abs(Math.abs(x) - Math.abs(want[i])) < 1e-12), `quat ${q}`);
});

test('what Tumble cannot take is named: contacts, actuators, limits, several joints in one body', () => {
  const { notes, system } = convert(fixture('robot.xml'));
  const text = notes.join('\n');
  // (the floor, the boxes and the limits are converted: tests/js/mjcf-import.test.mjs)
  assert.match(text, /contact: 2 collision geoms as shapes and 1 plane/);
  assert.deepEqual(system.forces.filter((f) => /limit/.test(f.type)).map((f) => f.type), ['joint_limit', 'slider_limit']);
  assert.match(text, /actuator other than a motor|position servo|'grip'/);
  assert.match(text, /joint limits \(2\): MuJoCo's soft limits as Tumble's stops/);
  assert.throws(() => convert(fixture('gimbal.xml')), /has 3 joints \(hinge, hinge, hinge\) that no Tumble joint matches/);
});

test('bad input: a message each, from the converter and from the command-line script', () => {
  assert.throws(() => compileMjcf(mujoco, '<mujoco><worldbody><body>'), /MuJoCo's compiler rejected the model: .+/);
  assert.throws(() => compileMjcf(mujoco, '<mujoco><worldbody><body><joint type="wobble"/></body></worldbody></mujoco>'), /MuJoCo's compiler rejected the model: .*(wobble|invalid|type)/i);
  assert.throws(() => compileMjcf(mujoco, ''), /empty/);
  const run = (args) => {
    try {
      return { out: execFileSync('node', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), code: 0 };
    } catch (e) {
      return { err: e.stderr, code: e.status };
    }
  };
  const bad = run([new URL('../fixtures/mjcf/broken.xml', import.meta.url).pathname]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^mjcf2tumble: .*MuJoCo's compiler rejected the model/);
  assert.doesNotMatch(bad.err, /at .*\.mjs:\d+/, 'no stack trace');
  const ok = run([new URL('../fixtures/mjcf/loop.xml', import.meta.url).pathname]);
  assert.equal(ok.code, 0);
  assert.equal(JSON.parse(ok.out).bodies.length, 3);
  const back = run(['--to-mjcf', 'nk-revolute']);
  assert.equal(back.code, 0);
  assert.match(back.out, /^<mujoco model="tumble">/);
});

test("a kinematic tree deeper than MuJoCo's wasm build reads is refused before it can abort the module", () => {
  const deep = toMjcf(JSON.parse(scenario_json('chain?links=256'))).xml;
  assert.throws(() => compileMjcf(mujoco, deep), /nested 256 deep; MuJoCo's wasm build reads at most about 100 levels/);
  // the module still works (an abort would have left it unusable)
  const ok = convert(toMjcf(JSON.parse(scenario_json('chain?links=64'))).xml);
  assert.equal(ok.system.bodies.length, 64);
});

test('a 50 MB file and a model of 10 000 bodies are refused at once', () => {
  assert.throws(() => compileMjcf(mujoco, ' '.repeat(50 * 1024 * 1024 + 1)), /50 MB/);
  const many = `<mujoco><worldbody>${Array.from({ length: 10000 }, (_, i) => `<body pos="${i} 0 0"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body>`).join('')}</worldbody></mujoco>`;
  const t0 = Date.now();
  assert.throws(() => convert(many), /10000 bodies; Tumble takes at most 4096/);
  assert.ok(Date.now() - t0 < 60000);
});

// Every Tumble joint in MuJoCo's terms (tests/fixtures/mjcf/joints.xml: hinge, slide + hinge on
// one axis, two crossed hinges, a jointless body, ball, slide, free; joint springs with a
// springref, a spatial tendon; a keyframe off qpos0 with every velocity non-zero). The presets
// have no cylindrical or universal joint, so the round trip above does not cover them.
test('every joint kind: MJCF to Tumble agrees with MuJoCo (start, energy, motion) and survives the round trip', () => {
  const { system, notes } = convert(fixture('joints.xml'));
  assert.deepEqual(system.joints.map((j) => j.type), ['revolute', 'cylindrical', 'universal', 'fixed', 'spherical', 'prismatic']);
  assert.deepEqual(notes, ["body 'weight' has no joint: welded to body 'cross' by a fixed joint"]);
  // by hand: the arm is a 0.2 x 0.1 x 0.4 m box of 500 kg/m^3 (4 kg); its hinge's spring rests
  // at springref 0.1 rad, the keyframe puts the hinge at 0.3 rad: rest angle -0.2 rad
  assert.ok(Math.abs(system.bodies[0].mass - 4) < 1e-12);
  const spring0 = system.forces.find((f) => f.type === 'joint_spring' && f.joint === 0);
  assert.ok(Math.abs(spring0.rest_angle + 0.2) < 1e-15 && spring0.stiffness === 5 && spring0.damping === 0.05, JSON.stringify(spring0));
  // the keyframe's state is one Tumble accepts: every joint holds in position and velocity (the
  // constructor checks both to 1e-6)
  const s = new Simulation(JSON.stringify(system), 'director', 1e-3, 0);
  const fields = invariant_fields();
  const inv = new Float64Array(fields.length);
  s.invariants(inv);
  s.free();
  // MuJoCo's own energies at the keyframe (springs included) are Tumble's
  const model = compileMjcf(mujoco, fixture('joints.xml'));
  const data = new mujoco.MjData(model);
  model.opt.enableflags |= mujoco.mjtEnableBit.mjENBL_ENERGY.value;
  mujoco.mj_resetDataKeyframe(model, data, 0);
  mujoco.mj_forward(model, data);
  const [v, t] = [data.energy[0], data.energy[1]];
  const [tt, vv] = [inv[fields.indexOf('kinetic')], inv[fields.indexOf('potential')]];
  assert.ok(Math.abs(t - tt) < 1e-12 * Math.abs(tt), `T ${t} J (MuJoCo) vs ${tt} J`);
  assert.ok(Math.abs(v - vv) < 1e-12 * Math.abs(vv), `V ${v} J (MuJoCo) vs ${vv} J`);
  // the motion: MuJoCo's RK4 at 5e-5 s as the reference (RK4 is only second order in MuJoCo
  // where ball and free joints turn: 2.4e-6 m at 1e-3 s here, so its error at 5e-5 s is about
  // 6e-9 m); the director converges to it with order 2
  const T = 0.5;
  const mjAt = (h) => {
    model.opt.timestep = h;
    mujoco.mj_resetDataKeyframe(model, data, 0);
    for (let k = 0; k < Math.round(T / h); k++) mujoco.mj_step(model, data);
    mujoco.mj_forward(model, data);
    return Array.from(data.xipos.slice(3));
  };
  const tumbleAt = (h) => {
    const sim = new Simulation(JSON.stringify(system), 'director', h, 0);
    assert.equal(sim.step(Math.round(T / h)), Math.round(T / h), sim.last_error());
    const poses = new Float64Array(12 * sim.body_count());
    sim.write_poses(poses);
    sim.free();
    return system.bodies.flatMap((_, b) => Array.from(poses.slice(12 * b, 12 * b + 3)));
  };
  const ref = mjAt(5e-5);
  data.delete();
  model.delete();
  const gap = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
  const errors = [1e-3, 5e-4].map((h) => gap(tumbleAt(h), ref));
  console.log(`# joints.xml at t = 0.5 s against MuJoCo RK4 at 5e-5 s: the director ${errors.map((e) => e.toExponential(2)).join(', ')} m at h = 1e-3, 5e-4 s; E0 agrees to ${(Math.abs(t + v - tt - vv) / Math.abs(tt + vv)).toExponential(1)}`);
  assert.ok(errors[0] < 1e-5, `${errors[0]} m at h = 1e-3 s`);
  const order = Math.log2(errors[0] / errors[1]);
  assert.ok(order > 1.8 && order < 2.3, `order ${order}`);
  // Tumble -> MJCF -> Tumble: the same system (a slide's point on a may move along its axis)
  const out = toMjcf(system);
  assert.deepEqual(out.notes, []);
  const back = convert(out.xml).system;
  const skip = (p) => p === '.duration' || /^\.joints\[(1|5)\]\.point_a$/.test(p);
  const [d, where] = diff(system, back, '', skip);
  assert.ok(d < 1e-12, `${d} at ${where}`);
});

test('connect and weld: between sites, the world first, a weld and a connect that do not hold at the start refused', () => {
  const base = (eq, key = '') => `<mujoco><worldbody>
    <body name="p" pos="0 0 1"><joint type="hinge" axis="0 1 0"/><geom type="box" size="0.1 0.1 0.1"/><site name="sp" pos="0.5 0 0"/></body>
    <body name="q" pos="1 0 1" euler="0 30 0"><freejoint/><geom type="sphere" size="0.1"/><site name="sq" pos="-0.5 0 0"/><site name="sq2" pos="0 0 0.5"/></body>
  </worldbody><equality>${eq}</equality>${key}</mujoco>`;
  // sites placed to meet: p's site at (0.5, 0, 1), q's at (1, 0, 1) - R (0.5, 0, 0)
  const c = 0.5 * Math.cos(Math.PI / 6), sz = 0.5 * Math.sin(Math.PI / 6);
  const meet = base('<connect site1="sp" site2="sq"/>').replace('pos="1 0 1"', `pos="${0.5 + c} 0 ${1 - sz}"`);
  const { system } = convert(meet);
  assert.deepEqual(system.joints.map((x) => x.type), ['revolute', 'spherical']); // p's hinge, the connect
  const j = system.joints[1];
  assert.equal(j.type, 'spherical');
  assert.deepEqual([j.a, j.b], [1, 0]);
  assert.ok(Math.hypot(...j.point_b.map((x, i) => x - [0.5, 0, 0][i])) < 1e-12, `${j.point_b}`);
  assert.ok(Math.hypot(...j.point_a.map((x, i) => x - [-0.5, 0, 0][i])) < 1e-12, `${j.point_a}`);
  // the world as body1: the joint's a is the ground
  const world = convert(base('<connect body1="world" body2="q" anchor="1 0 1"/>')).system.joints[1];
  assert.deepEqual([world.type, world.a, world.b], ['spherical', null, 1]);
  assert.ok(Math.hypot(...world.point_a.map((x, i) => x - [1, 0, 1][i])) < 1e-12);
  // a weld at the start's pose: a fixed joint
  assert.equal(convert(base('<weld body1="p" body2="q"/>')).system.joints[1].type, 'fixed');
  // the same weld with the bodies moved away by a keyframe, and sites that do not meet: refused
  assert.throws(() => convert(base('<weld name="w" body1="p" body2="q"/>', '<keyframe><key qpos="0.3 1 0 1 1 0 0 0"/></keyframe>')), /weld 'w': its relpose is .* m from where the bodies are at the start/);
  assert.throws(() => convert(base('<connect name="c" site1="sp" site2="sq2"/>')), /connect 'c': its two points are .* m apart at the start/);
  // a joint equality holding a hinge where it starts: a drive of constant 0 (from-mjcf-actuators.js)
  const held = convert(base('<joint name="jj" joint1="h1"/>').replace('type="hinge"', 'name="h1" type="hinge"'));
  assert.deepEqual(held.system.drives, [{ joint: 0, type: 'angle', time: { kind: 'constant', value: 0 } }]);
  assert.ok(held.notes.some((n) => /joint 'jj': holds joint 'h1' where it starts: a drive of constant 0/.test(n)), held.notes.join('; '));
  // one that couples two joints, or that does not hold its joint at the start: refused by name
  assert.throws(() => convert(base('<joint name="jj" joint1="h1" joint2="h2"/>').replace('type="hinge"', 'name="h1" type="hinge"').replace('<freejoint/>', '<joint name="h2" type="hinge"/>')), /joint 'jj': only a joint equality on one hinge or slide/);
  assert.throws(() => convert(base('<joint name="jj" joint1="h1" polycoef="0.2 0 0 0 0"/>').replace('type="hinge"', 'name="h1" type="hinge"')), /joint 'jj': only a joint equality/);
});

test('what MuJoCo has and Tumble leaves out is named, each element', () => {
  const xml = `<mujoco><option density="1.2" viscosity="1e-5"><flag gravity="disable"/></option><worldbody>
    <body name="arm" pos="0 0 1" gravcomp="1"><joint name="h" type="hinge" armature="0.1" frictionloss="0.2"/><geom type="box" size="0.1 0.1 0.1" contype="0" conaffinity="0"/>
      <body name="ball" pos="0 0 -0.5"><joint name="b" type="ball" stiffness="2" damping="1" armature="0.05"/><geom type="sphere" size="0.1" contype="0" conaffinity="0"/><site name="s1"/></body></body>
    <body name="target" mocap="true" pos="1 0 0"><site name="s2"/></body>
  </worldbody>
  <tendon><spatial name="rope" stiffness="10" range="0 2"><site site="s1"/><site site="s2"/></spatial></tendon>
  <equality><connect name="off" body1="ball" body2="world" anchor="0 0 0" active="false"/></equality>
  <actuator><general name="filtered" joint="h" dyntype="filter" dynprm="0.1"/><motor name="m" joint="h" gear="2" ctrllimited="true" ctrlrange="-1 1"/><general name="integrated" joint="h" dyntype="integrator"/></actuator>
  <sensor><jointpos joint="h"/></sensor>
  <keyframe><key qpos="0 1 0 0 0" ctrl="0 5 0"/><key qpos="0.1 1 0 0 0"/></keyframe></mujoco>`;
  const out = convert(xml);
  const text = out.notes.join('\n');
  for (const want of [/keyframes: 'key 0' is the start \(2 to choose from\)/, /gravity is disabled in the model/, /the medium \(density 1.2/,
    /body 'arm': its gravity compensation/, /body 'target' is a mocap body/, /joint 'b': its armature \(rotor inertia\) is ignored/, /joint 'h': its dry friction/,
    /joint 'b': its stiffness 2 and damping 1 are ignored/, /connect 'off' is inactive at the start: ignored/,
    /filtered: its activation filter \(time constant 0.1 s\) is left out/, /integrated: an actuator Tumble has no element for \(its activation follows the control in time \(integrator/, /controls \(1\): 'm': drivable \(MuJoCo's ctrl, within its ctrlrange/, /sensors \(1\)/]) {
    assert.match(text, want);
  }
  assert.deepEqual(out.system.gravity, [0, 0, 0]);
  // the hinge to the world about the box's principal z: its armature 0.1 is in the box's inertia
  // (MuJoCo's box of half-size 0.1 and density 1000: m = 8 kg, I = m (0.2^2 + 0.2^2) / 12), the
  // other two moments raised to half of it (they do not act: the box turns about z only)
  const box = out.system.bodies[0].inertia, m = 8, I = m * 0.08 / 12;
  assert.ok(Math.abs(box[2] - (I + 0.1)) < 1e-12 && box[0] === box[1] && box[0] + box[1] > box[2] && box[0] + box[1] - box[2] < 1e-9, `${box}`);
  assert.match(text, /joint 'h': its armature 0.1 is in the body's inertia about the hinge; the body's other two moments are raised/);
  // (a control: gear 2 N m at ctrl 1, the keyframe's ctrl 1 its start, ctrlrange its range)
  assert.deepEqual(out.system.forces.find((f) => f.name === 'm'), { type: 'motor', name: 'm', joint: 0, torque: 2, control: { value: 1, range: [-1, 1] } });
  // (the filtered actuator, its filter left out: a motor at the keyframe's control, 0)
  assert.deepEqual(out.system.forces.filter((f) => f.type === 'motor' && !f.name), [{ type: 'motor', joint: 0, torque: 0 }]);
  // hinge and ball; the mocap body, without mass, is merged into the ground with its site
  assert.deepEqual(out.system.joints.map((j) => j.type), ['revolute', 'spherical']);
  assert.match(text, /body 'target' has neither mass nor joint: merged into the ground \(a frame\)/);
  // the tendon from the ball's centre (0, 0, 0.5) to the merged site (1, 0, 0): a spring whose rest
  // length is MuJoCo's default, the length at qpos0 (springlength -1), sqrt(1.25) m
  const rope = out.system.forces.find((f) => f.type === 'spring');
  assert.ok(Math.abs(rope.rest_length - Math.sqrt(1.25)) < 1e-15, `${rope.rest_length}`);
  assert.deepEqual({ ...rope, rest_length: 0 }, { type: 'spring', a: null, point_a: [1, 0, 0], b: 1, point_b: [0, 0, 0], stiffness: 10, rest_length: 0, damping: 0 });
  // and its range 0 to 2 m a rope of 2 m between the same points (forces/rope.rs)
  const limit = out.system.forces.find((f) => f.type === 'rope');
  assert.deepEqual([limit.a, limit.point_a, limit.b, limit.point_b, limit.length], [null, [1, 0, 0], 1, [0, 0, 0], 2]);
});

test('the script refuses a file over 50 MB before reading it, and 10 000 bodies before compiling them', async () => {
  const { mkdtempSync, writeFileSync, truncateSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/mjcf-`);
  try {
    const run = (args) => {
      const t0 = Date.now();
      try {
        execFileSync('node', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        return { code: 0, ms: Date.now() - t0 };
      } catch (e) {
        return { err: e.stderr, code: e.status, ms: Date.now() - t0 };
      }
    };
    const big = `${dir}/big.xml`;
    writeFileSync(big, '<mujoco>');
    truncateSync(big, 50 * 1024 * 1024 + 1); // sparse: nothing to read, only its size
    const many = `${dir}/many.xml`;
    writeFileSync(many, `<mujoco><worldbody>${'<body><freejoint/><geom size="0.1"/></body>'.repeat(10000)}</worldbody></mujoco>`);
    const cases = [
      [[big], /^mjcf2tumble: '.*big\.xml' is 50 MB, more than the 50 MB Tumble reads\n$/],
      [[many], /^mjcf2tumble: the MuJoCo model has 10000 bodies; Tumble takes at most 4096\n$/],
      [[`${dir}/none.xml`], /^mjcf2tumble: cannot read '.*none\.xml': no such file\n$/],
      [['--to-mjcf', 'no-such-preset'], /^mjcf2tumble: 'no-such-preset': .+\n$/],
    ];
    for (const [args, want] of cases) {
      const r = run(args);
      assert.equal(r.code, 2, `${args}: exit ${r.code}`);
      assert.match(r.err, want);
      assert.ok(r.ms < 5000, `${args}: ${r.ms} ms`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a body with neither mass nor joint (a frame) is merged: its children hang from its parent', () => {
  const { system, notes } = convert(`<mujoco><compiler angle="radian"/><option><flag contact="disable"/></option><worldbody>
    <body name="arm" pos="0 0 1"><joint type="hinge" axis="1 0 0"/><geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <body name="frame" pos="0 0 -0.5" euler="0 0 1.5707963267948966">
        <site name="mark"/>
        <body name="hand"><joint name="wrist" type="hinge" axis="1 0 0"/><geom type="sphere" size="0.1" mass="1"/></body>
      </body>
    </body></worldbody></mujoco>`);
  assert.equal(system.bodies.length, 2);
  assert.deepEqual(notes, ["body 'frame' has neither mass nor joint: merged into body 'arm' (a frame)"]);
  const wrist = system.joints[1];
  assert.deepEqual([wrist.type, wrist.a, wrist.b], ['revolute', 0, 1]);
  // on the arm 0.5 m below its centre, the frame's turn of pi/2 about z making x the arm's y
  assert.ok(Math.hypot(...wrist.point_a.map((x, i) => x - [0, 0, -0.5][i])) < 1e-12, `${wrist.point_a}`);
  assert.ok(Math.hypot(...wrist.axis_a.map((x, i) => x - [0, 1, 0][i])) < 1e-12, `${wrist.axis_a}`);
});

test("the model's own integrator and solver come with the system (what MuJoCo beside runs it with)", () => {
  const body = '<worldbody><body><joint type="hinge"/><geom type="sphere" size="0.1"/></body></worldbody>';
  const opts = (option) => {
    const model = compileMjcf(mujoco, `<mujoco>${option}${body}</mujoco>`);
    try {
      return fromMjModel(mujoco, model).options;
    } finally {
      model.delete();
    }
  };
  // MuJoCo's defaults: Euler and Newton (the page's '' solver)
  assert.deepEqual(opts(''), { integrator: 'Euler', solver: '' });
  assert.deepEqual(opts('<option integrator="implicitfast" solver="CG"/>'), { integrator: 'implicitfast', solver: 'CG' });
  assert.deepEqual(opts('<option integrator="RK4" solver="PGS"/>'), { integrator: 'RK4', solver: 'PGS' });
  assert.deepEqual(opts('<option integrator="implicit"/>'), { integrator: 'implicit', solver: '' });
});
