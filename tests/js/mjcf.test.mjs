// Tumble systems as MuJoCo models and back (www/mjcf.js, issue 21), with MuJoCo's own wasm build
// (@mujoco/mujoco, from package-lock.json) under Node: every preset written as MJCF, compiled by
// MuJoCo's compiler and converted back is the same system; MuJoCo's energies of it agree with
// Tumble's; MuJoCo's RK4 and Tumble's director follow the same motion; MJCF written in MuJoCo's
// own style converts to the expected systems, and what Tumble cannot take is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { initSync, Simulation, presets, scenario_json, invariant_fields } from '../../www/pkg/tumble_wasm.js';
import { toMjcf, fromMjModel, compileMjcf, loadMujoco, quatOf } from '../../www/mjcf.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const mujoco = await loadMujoco();
const fixture = (name) => readFileSync(new URL(`../fixtures/mjcf/${name}`, import.meta.url), 'utf8');
const script = new URL('../../scripts/mjcf2tumble.mjs', import.meta.url).pathname;

/** Compile `xml` and convert it back: { system, notes }. */
function convert(xml) {
  const model = compileMjcf(mujoco, xml);
  try {
    return fromMjModel(mujoco, model);
  } finally {
    model.delete();
  }
}

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
// round trip): drives and motors with a function of time.
const LOST = { 'driven-pendulum': /forces\[0\] \(motor\)/, 'slider-crank': /drives\[0\]/, kapitza: /drives\[0\]/, governor: /drives\[0\]/ };

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
    const skip = (p) => p === '.duration' || p === '.drives' || /^\.joints\[\d+\]\.point_a$/.test(p) && /prismatic|cylindrical/.test(sys.joints[Number(p.match(/\d+/)[0])].type)
      || (LOST[name] && p === '.forces');
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
// quaternion and read back is the same matrix to about 1e-16), and each step's Newton solve is
// exact to its tolerance, 1e-12: so the two runs may part by up to about that much a step.
test('round trip: 100 director steps of the converted system follow the original to the Newton tolerance', () => {
  let same = 0, all = 0, worst = 0;
  for (const { name } of presets()) {
    if (LOST[name] || name === 'andrews') continue; // (andrews: 100 steps of 1e-5 s would do, but its bodies' poses differ by 1e-16 rounding only; below)
    const sys = JSON.parse(scenario_json(name));
    const back = convert(toMjcf(sys).xml).system;
    back.duration = sys.duration;
    const runs = [JSON.stringify(sys), JSON.stringify(back)].map((text) => {
      const s = new Simulation(text, 'director', sys.dt, 0);
      assert.equal(s.step(100), 100, `${name}: ${s.last_error()}`);
      const poses = new Float64Array(12 * s.body_count());
      s.write_poses(poses);
      const hash = s.state_hash();
      s.free();
      return { poses, hash };
    });
    const d = Math.max(...runs[0].poses.map((x, i) => Math.abs(x - runs[1].poses[i])));
    assert.ok(d < 100 * 1e-12, `${name}: poses differ by ${d} after 100 steps`);
    worst = Math.max(worst, d);
    all++;
    if (runs[0].hash === runs[1].hash) same++;
  }
  // the state hashes are of the bits: a rotation written as a quaternion and read back is the
  // same matrix to about 1e-16, not to the last bit, and a point expressed in another frame and
  // back likewise, so most hashes differ although the states agree to 1e-12
  console.log(`# same state hash after 100 steps: ${same} of ${all} presets (the others differ in the last bits of the converted start); poses apart by ${worst.toExponential(1)} m at most`);
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
  assert.ok(errors[0] < 2e-6, `${errors[0]} m at h = 1e-3`);
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
  assert.match(armNotes.join(' '), /contacts and collision geometry \(2 geoms/);
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
  const { notes } = convert(fixture('robot.xml'));
  const text = notes.join('\n');
  assert.match(text, /contacts and collision geometry/);
  assert.match(text, /actuator other than a motor|position servo|'grip'/);
  assert.match(text, /limits are ignored/);
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
