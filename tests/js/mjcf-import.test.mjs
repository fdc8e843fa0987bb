// MuJoCo models as they are distributed: joint ranges as Tumble's stops, collision
// geoms as shapes and planes, models of several files (includes, meshes) from the command line,
// and numbers that are not finite refused by name. Each converted system is run by Tumble (the
// `tumble` command line where built, else the wasm module) and checked against what does not
// come from the converter: the range written in the model, MuJoCo's own run of it, the rebound
// of a ball from the drop height and a restitution computed by integrating the oscillator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync, symlinkSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { initSync, Simulation } from '../../www/pkg/tumble_wasm.js';
import { fromMjModel, compileMjcf, gatherMjcf, inside, mainOf, pickedReader, restitutionOfDampratio, dampratioOfRestitution } from '../../www/mujoco/mjcf.js';
import { mujoco, convert } from './mjcf-convert.mjs';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const dir = fileURLToPath(new URL('./fixtures/mjcf/', import.meta.url));
const fixture = (name) => readFileSync(join(dir, name), 'utf8');
const script = fileURLToPath(new URL('../../scripts/mjcf2tumble.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../../target/release/tumble', import.meta.url));


/** The command-line script on `args`: { code, out, err }. */
function script2(args) {
  const r = spawnSync('node', [script, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Body poses of a Tumble run of `system`: per sample { t, x: [position per body] }. With the
 * command line where it is built (`tumble run`, as a user would), else the wasm module. */
function run(system, { duration, every, maxIter = 30 }) {
  if (existsSync(CLI)) {
    const tmp = mkdtempSync(join(tmpdir(), 'tumble-mjcf-'));
    try {
      const file = join(tmp, 'system.json');
      writeFileSync(file, JSON.stringify(system));
      const out = execFileSync(CLI, ['run', file, '--duration', String(duration), '--every', String(every), '--max-iter', String(maxIter), '-q'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      return JSON.parse(out).samples.map((s) => ({ t: s.t, x: s.bodies.map((b) => b.position) }));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const sim = new Simulation(JSON.stringify(system), 'director', system.dt, 1e-12);
  try {
    const n = sim.body_count(), poses = new Float64Array(12 * n), out = [];
    const per = Math.max(1, Math.round(every / system.dt));
    for (let k = 0; k * per * system.dt <= duration + 1e-12; k++) {
      if (k) assert.equal(sim.step(per), per, sim.last_error());
      sim.write_poses(poses);
      out.push({ t: k * per * system.dt, x: Array.from({ length: n }, (_, b) => [0, 1, 2].map((i) => poses[12 * b + i])) });
    }
    return out;
  } finally {
    sim.free();
  }
}

test('restitution of MuJoCo\'s contact law: the formula against an integration of m x\'\' + c x\'\' + k x = F, F >= 0', () => {
  // an impact on a spring-damper whose force is kept from pulling (MuJoCo's contact force):
  // from x = 0 at speed 1 into the spring, until the force c x' + k x is 0 (explicit midpoint
  // steps of 1e-5, independent of the formula's RK4); for z = 1 the closed form x = t exp(-t)
  // gives exp(-2)
  const rebound = (z) => {
    const w = 1, h = 1e-5;
    let x = 0, v = 1;
    const f = (x, v) => -2 * z * w * v - w * w * x;
    for (let t = 0; t < 200; t += h) {
      const xm = x + h / 2 * v, vm = v + h / 2 * f(x, v);
      const xn = x + h * vm, vn = v + h * f(xm, vm);
      if (t > 0 && w * w * xn + 2 * z * w * vn <= 0) return -vn;
      x = xn; v = vn;
    }
    return 0;
  };
  for (const z of [0, 0.05, 0.2, 0.5, 0.9, 1, 1.5]) {
    const e = restitutionOfDampratio(z), num = rebound(z);
    assert.ok(Math.abs(num - e) < 1e-4, `z = ${z}: integrated ${num}, formula ${e}`);
    assert.ok(Math.abs(dampratioOfRestitution(e) - z) < 1e-9, `inverse at z = ${z}`);
  }
  assert.ok(Math.abs(restitutionOfDampratio(1) - Math.exp(-2)) < 1e-6, String(restitutionOfDampratio(1)));
});

test('a cart on a rail with a range (slide) and a pole with one (hinge): Tumble\'s stops hold it where MuJoCo\'s limits do', () => {
  const xml = fixture('cartpole.xml');
  const { system, notes } = convert(xml);
  assert.ok(!notes.some((n) => /limits are ignored/.test(n)), notes.join('; '));
  const slide = system.forces.find((f) => f.type === 'slider_limit');
  const hinge = system.forces.find((f) => f.type === 'joint_limit');
  // the range -0.5..0.5 m from a start at 0.2 m; -1..1 rad from a start at 0.1 rad (the keyframe)
  assert.ok(Math.abs(slide.lower + 0.7) < 1e-12 && Math.abs(slide.upper - 0.3) < 1e-12, JSON.stringify(slide));
  assert.ok(Math.abs(hinge.lower + 1.1) < 1e-12 && Math.abs(hinge.upper - 0.9) < 1e-12, JSON.stringify(hinge));
  // solreflimit 0.02 0.3: the restitution of dampratio 0.3; the hinge's default (z = 1): exp(-2)
  assert.ok(Math.abs(slide.restitution - restitutionOfDampratio(0.3)) < 1e-12);
  assert.ok(Math.abs(hinge.restitution - Math.exp(-2)) < 1e-6, String(hinge.restitution));
  // Tumble's run: the cart (body 0) starts at x = 0.2 m at 2 m/s, hits the stop at 0.5 m, bounces.
  // It may pass a stop by no more than an undamped spring of MuJoCo's frequency w = 1 / (tc z)
  // would let it: v / w (the pole's weight adds a little: 20 %). (Director, Newton up to 100
  // iterations: when the cart hits a stop while the pole lies on its own, 30 do not reach 1e-12.)
  const w = 1 / (0.02 * 0.3), give = 1.2 * 2 / w;
  const samples = run(system, { duration: 6, every: 0.005, maxIter: 100 });
  const xs = samples.map((s) => s.x[0][0]);
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  assert.ok(hi <= 0.5 + give && lo >= -0.5 - give, `cart between ${lo} and ${hi} m, range -0.5..0.5 m (+- ${give})`);
  assert.ok(hi > 0.49, `the cart reached the stop: ${hi}`);
  // it came back (a stop, not a wall it went through): after its first hit it is well inside again
  const hit = xs.findIndex((x) => x > 0.49);
  assert.ok(Math.min(...xs.slice(hit)) < 0.3, `after the hit at ${samples[hit].t} s the cart went no lower than ${Math.min(...xs.slice(hit))}`);
  // MuJoCo's own run of the model stays in the same band
  const model = compileMjcf(mujoco, xml), data = new mujoco.MjData(model);
  try {
    mujoco.mj_resetDataKeyframe(model, data, 0);
    let mlo = Infinity, mhi = -Infinity;
    for (let k = 0; k < 6 / model.opt.timestep; k++) {
      mujoco.mj_step(model, data);
      mlo = Math.min(mlo, data.qpos[0]); mhi = Math.max(mhi, data.qpos[0]);
    }
    assert.ok(mhi <= 0.5 + give && mlo >= -0.5 - give && mhi > 0.49, `MuJoCo's cart between ${mlo} and ${mhi}`);
  } finally {
    data.delete();
    model.delete();
  }
});

test('collision geoms: shapes and a floor that Tumble accepts, a ball that bounces as its solref says, bodies that rest on the floor', () => {
  const { system, notes } = convert(fixture('contact.xml'));
  const text = notes.join('\n');
  const shape = (b) => system.bodies[b].shapes[0];
  assert.deepEqual(system.bodies.map((b) => b.shapes?.filter((s) => !s.visual).map((s) => s.type)), [['sphere'], ['box'], ['capsule'], ['box'], ['mesh'], ['sphere'], ['sphere']]);
  assert.deepEqual(system.contact.planes.map((p) => p.normal), [[0, 0, 1]]);
  // the cylinder (radius 0.1, half height 0.15) as its box; the mesh (0.3 x 0.2 x 0.1) as its
  // 8 corners and 12 triangles (collided as their box: tests/js/mjcf-mesh.test.mjs)
  assert.deepEqual([...shape(3).half].sort(), [0.1, 0.1, 0.15]);
  assert.equal(shape(4).vertices.length, 8);
  assert.equal(shape(4).faces.length, 12);
  assert.deepEqual([0, 1, 2].map((k) => Math.max(...shape(4).vertices.map((v) => v[k]))).sort(), [0.05, 0.1, 0.15]);
  assert.match(text, /geom 'can' \(a cylinder: its bounding box\)/);
  assert.match(text, /mesh geoms as Tumble meshes, meeting planes with their convex hull's corners .*: geom 'block' \(drawn as its 12 triangles\)/);
  assert.match(text, /collision geoms left out: geom 'post' \(a box fixed to the world/);
  assert.match(text, /geom pairs of a box and a box or a capsule \(such as .*\): where they meet at a box's edge, Tumble holds the contact point for a step/);
  // the visual geom (contype 0) is no collision shape: a visual one, drawn only
  assert.deepEqual(system.bodies[1].shapes.map((s) => !!s.visual), [false, true]);
  // friction: MuJoCo's pair with the floor takes the larger, 0.8; Tumble's the geometric mean
  assert.ok(Math.abs(Math.sqrt(shape(0).material.friction * system.contact.planes[0].material.friction) - 0.8) < 1e-12);
  // filter (Tumble's rule: a.group & b.mask or b.group & a.mask): every shape meets the floor
  // (group 1, mask 1); the spheres meet spheres, boxes and the capsule; the boxes meet the boxes
  // and the capsule (from-mjcf-contact.js filterBits; a capsule meets capsules: its own test)
  const touch = (s, t) => (s.group & t.mask) !== 0 || (t.group & s.mask) !== 0;
  const floor = { group: 1, mask: 1 };
  for (let b = 0; b < 7; b++) assert.ok(touch(shape(b), floor), `body ${b} and the floor`);
  for (const b of [0, 5, 6]) for (let c = 0; c < 7; c++) if (c !== b) assert.ok(touch(shape(b), shape(c)), `sphere ${b} and body ${c}`);
  for (const b of [1, 2, 3, 4]) for (const c of [1, 2, 3, 4]) if (c !== b) assert.ok(touch(shape(b), shape(c)), `bodies ${b} and ${c}`);
  // the ball drops from 1 m (centre; radius 0.1): its first rebound rises e^2 of the fall, e from
  // the pair's dampratio 0.2 (each geom's solref has z = 0.2)
  const e = restitutionOfDampratio(0.2);
  assert.ok(Math.abs(shape(0).material.restitution - e) < 1e-12);
  const samples = run(system, { duration: 2.5, every: 0.002 });
  const z = (b) => samples.map((s) => s.x[b][2]);
  const ball = z(0);
  const bottom = ball.findIndex((x, i) => i > 0 && x < ball[i - 1] && x < ball[i + 1]);
  const peak = Math.max(...ball.slice(bottom));
  const ratio = (peak - 0.1) / (1 - 0.1);
  // (measured 0.335 of 0.327: the peak sampled every 2 ms, Hertz's indentation at the bottom)
  assert.ok(Math.abs(ratio - e * e) < 0.04 * e * e, `rebound ${ratio} of the fall, e^2 = ${e * e}`);
  // every body ends resting on the floor at its half height (the capsule lies: its radius), none
  // sinks through it; the upper sphere rests on the lower
  const rest = [0.1, 0.05, 0.05, 0.15, 0.05, 0.1, 0.3];
  rest.forEach((h, b) => {
    const zb = z(b);
    assert.ok(Math.abs(zb[zb.length - 1] - h) < 0.01, `body ${b} ends at ${zb[zb.length - 1]}, rests at ${h}`);
    assert.ok(Math.min(...zb) > h - 0.02, `body ${b} sank to ${Math.min(...zb)}`);
  });
});

test('<exclude>: a sphere excluded from the world stays off the floor; two bodies excluded are contact.exclude', () => {
  const xml = `<mujoco><worldbody><geom type="plane" size="2 2 .1"/>
    <body name="a" pos="0 0 .1"><freejoint/><geom type="sphere" size=".1"/></body>
    <body name="b" pos="0 0 .5"><freejoint/><geom type="sphere" size=".1"/></body>
    <body name="c" pos="1 0 .5"><freejoint/><geom type="sphere" size=".1" contype="2" conaffinity="2"/></body>
    <body name="d" pos="-1 0 .5"><freejoint/><geom type="sphere" size=".1"/></body></worldbody>
    <contact><exclude body1="a" body2="b"/><exclude body1="world" body2="d"/></contact></mujoco>`;
  const { system, notes } = convert(xml);
  assert.ok(!/<exclude>/.test(notes.join('\n')), notes.join('\n'));
  const [a, b, c, d] = system.bodies.map((body) => body.shapes?.[0]);
  assert.equal(d.group & 1, 0, 'd does not touch the floor'); // planes: group 1, mask 1
  assert.ok(a.group & 1 && b.group & 1, 'a and b touch the floor');
  assert.deepEqual(system.contact.exclude, [[0, 1]], 'a and b never touch (crates/tumble/src/contact/compile.rs)');
  // c (contype 2) meets neither the floor (contype 1) nor a, b and d, by MuJoCo's rule: a shape
  // that touches nothing is only drawn (a visual shape)
  assert.ok(c.visual && !('group' in c), JSON.stringify(c));
  // b falls through a, resting on the floor; d falls through the floor, as in MuJoCo
  const samples = run(system, { duration: 1, every: 0.01 });
  const last = samples[samples.length - 1].x;
  assert.ok(last[3][2] < -0.5, `d falls through the floor: ${last[3][2]}`);
  assert.ok(Math.abs(last[1][2] - 0.1) < 2e-3 && Math.abs(last[0][2] - 0.1) < 2e-3, `a and b rest on the floor: ${last[0][2]}, ${last[1][2]}`);
});

test('several files from the command line: includes and a mesh from meshdir, read from the model\'s folder', () => {
  const r = script2([join(dir, 'robot', 'arm.xml')]);
  assert.equal(r.code, 0, r.err);
  const sys = JSON.parse(r.out);
  // the class in common/defaults.xml: range -45..45 degrees on both hinges, density 800
  const limits = sys.forces.filter((f) => f.type === 'joint_limit');
  assert.equal(limits.length, 2);
  for (const l of limits) assert.ok(Math.abs(l.lower + Math.PI / 4) < 1e-12 && Math.abs(l.upper - Math.PI / 4) < 1e-12, JSON.stringify(l));
  // the lower link: a capsule (radius 0.03, 0.3 m) and the mesh, a box 0.1 x 0.06 x 0.04 m, at 800 kg/m^3
  const cap = Math.PI * 0.03 ** 2 * (0.3 + 4 * 0.03 / 3) * 800, box = 0.1 * 0.06 * 0.04 * 800;
  assert.ok(Math.abs(sys.bodies[1].mass - (cap + box)) < 1e-6 * (cap + box), `${sys.bodies[1].mass} vs ${cap + box}`);
  assert.match(r.err, /mesh geoms as Tumble meshes, .*: geom 'hand' \(drawn as its 12 triangles\)/);
  // the same files through gatherMjcf and a reader of a map (the page's route) compile alike
  const read = (p) => (existsSync(join(dir, 'robot', p)) ? readFileSync(join(dir, 'robot', p)) : null);
  const files = gatherMjcf('arm.xml', read);
  assert.deepEqual([...files.keys()].sort(), ['arm.xml', 'common/defaults.xml', 'common/materials.xml', 'meshes/hand.obj']);
  const model = compileMjcf(mujoco, files.get('arm.xml'), { main: 'arm.xml', files });
  try {
    assert.deepEqual(JSON.parse(JSON.stringify(fromMjModel(mujoco, model).system)), sys); // (JSON: -0 is 0)
  } finally {
    model.delete();
  }
  // files dropped together arrive without their folders: found by their names (the page's route)
  const dropped = [...files].map(([p, data]) => ({ path: p.slice(p.lastIndexOf('/') + 1), data }));
  assert.equal(mainOf(dropped), 'arm.xml');
  const again = gatherMjcf('arm.xml', pickedReader(dropped, 'arm.xml'));
  assert.deepEqual([...again.keys()].sort(), [...files.keys()].sort());
  // a folder picked above the model's (webkitRelativePath 'models/robot/...'): by the ends of the paths
  const folder = [...files].map(([p, data]) => ({ path: `models/robot/${p}`, data }));
  assert.equal(mainOf(folder), 'models/robot/arm.xml');
  assert.equal(gatherMjcf('arm.xml', pickedReader(folder, 'models/robot/arm.xml')).size, 4);
  assert.throws(() => mainOf([{ path: 'a.obj', data: '' }]), /none of the 1 files is an MJCF file/);
  // a missing file is named by the page's route too
  assert.throws(() => gatherMjcf('arm.xml', (p) => (p === 'meshes/hand.obj' ? null : read(p))), /names the file 'hand.obj', which does not exist \(looked for meshes\/hand.obj/);
});

test('files a model names that are missing or outside its folder: a message naming them, exit 2, nothing read', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tumble-mjcf-'));
  try {
    const folder = join(tmp, 'model');
    mkdirSync(folder);
    // a file beside the folder, which exists: it must still be refused (and MuJoCo would take it)
    writeFileSync(join(tmp, 'secret.xml'), '<mujoco><option timestep="0.123"/></mujoco>');
    symlinkSync(join(tmp, 'secret.xml'), join(folder, 'link.xml'));
    const body = '<worldbody><body><freejoint/><geom size=".1"/></body></worldbody>';
    const cases = [
      ['missing.xml', `<mujoco><include file="common/gone.xml"/>${body}</mujoco>`, /includes 'common\/gone.xml', which does not exist/],
      ['mesh.xml', `<mujoco><compiler meshdir="meshes"/><asset><mesh file="arm.stl"/></asset>${body}</mujoco>`, /names the file 'arm.stl', which does not exist \(looked for meshes\/arm.stl/],
      ['up.xml', `<mujoco><include file="../secret.xml"/>${body}</mujoco>`, /'..\/secret.xml', a path outside the model's folder: refused/],
      ['etc.xml', `<mujoco><include file="../../../../../../etc/passwd"/>${body}</mujoco>`, /'..\/..\/..\/..\/..\/..\/etc\/passwd', a path outside the model's folder: refused/],
      ['abs.xml', `<mujoco><include file="${join(tmp, 'secret.xml')}"/>${body}</mujoco>`, /a path outside the model's folder: refused/],
      ['dir.xml', `<mujoco><compiler meshdir="../"/><asset><mesh file="x.stl"/></asset>${body}</mujoco>`, /\(meshdir\) names '..\/', a path outside the model's folder/],
      ['link-in.xml', `<mujoco><include file="link.xml"/>${body}</mujoco>`, /'link.xml' leads to '.*secret.xml', outside the model's folder: refused/],
    ];
    for (const [name, xml, want] of cases) {
      writeFileSync(join(folder, name), xml);
      const r = script2([join(folder, name)]);
      assert.equal(r.code, 2, `${name}: ${r.err}`);
      assert.match(r.err, want, name);
      assert.equal(r.out, '', name);
    }
    assert.equal(inside('a/../../b'), null);
    assert.equal(inside('C:\\x'), null);
    assert.equal(inside('common', '../x.xml'), 'x.xml');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a PNG texture missing from the model\'s files: a plain image stands in, with a note; the system is the one without textures', () => {
  // the suite's dog names two texture files its folder does not hold; Tumble draws no textures,
  // MuJoCo's compiler refuses a file it cannot read. A 2d texture on a material and a skybox in
  // one file of 3 x 4 faces (gridsize), both missing; a mesh missing stays an error
  const tmp = mkdtempSync(join(tmpdir(), 'tumble-mjcf-'));
  try {
    const body = '<worldbody><geom type="plane" size="1 1 .1"/><body pos="0 0 .3"><freejoint/><geom size=".1" material="skin"/></body></worldbody>';
    const plain = `<mujoco><asset><material name="skin" rgba=".8 .6 .4 1"/></asset>${body}</mujoco>`;
    const textured = `<mujoco><compiler texturedir="textures"/><asset>
      <texture name="skin" type="2d" file="skin.png"/>
      <texture name="sky" type="skybox" gridsize="3 4" gridlayout=".U..LFRB.D.." file="sky.png"/>
      <material name="skin" texture="skin" rgba=".8 .6 .4 1"/></asset>${body}</mujoco>`;
    writeFileSync(join(tmp, 'dog.xml'), textured);
    writeFileSync(join(tmp, 'plain.xml'), plain);
    const read = (p) => (existsSync(join(tmp, p)) ? readFileSync(join(tmp, p), 'utf8') : null);
    assert.throws(() => gatherMjcf('dog.xml', read), /names the file 'skin.png', which does not exist \(looked for textures\/skin.png/);
    const notes = [];
    const files = gatherMjcf('dog.xml', read, notes);
    assert.deepEqual(notes, ["texture files 'skin.png', 'sky.png' not among the model's files: a plain grey image stands in (Tumble draws no textures; MuJoCo's compiler needs a file)"]);
    const model = compileMjcf(mujoco, textured, { main: 'dog.xml', files });
    try {
      assert.equal(model.ntex, 2);
      assert.deepEqual([model.tex_width[1], model.tex_height[1]], [1, 6]); // (a skybox is six faces of 1 x 1)
      assert.deepEqual(fromMjModel(mujoco, model).system, convert(plain).system);
    } finally {
      model.delete();
    }
    const r = script2([join(tmp, 'dog.xml')]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /note: texture files 'skin.png', 'sky.png' not among the model's files: a plain grey image stands in/);
    assert.deepEqual(JSON.parse(r.out), JSON.parse(script2([join(tmp, 'plain.xml')]).out));
    writeFileSync(join(tmp, 'mesh.xml'), textured.replace('<asset>', '<asset><mesh name="m" file="m.stl"/>'));
    assert.throws(() => gatherMjcf('mesh.xml', read, []), /names the file 'm.stl', which does not exist/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('numbers that are not finite: refused with the element and attribute, exit 2', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tumble-mjcf-'));
  try {
    const file = join(tmp, 'nan.xml');
    writeFileSync(file, '<mujoco>\n<worldbody>\n  <body name="cart" pos="0 0 nan"><freejoint/><geom size=".1"/></body>\n</worldbody></mujoco>\n');
    const r = script2([file]);
    assert.equal(r.code, 2);
    assert.match(r.err, /body 'cart': pos has a non-finite number \(nan\), at line 3 of nan.xml/);
    assert.equal(r.out, '');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const base = (attrs) => `<mujoco><worldbody><body pos="0 0 1"><freejoint/><geom ${attrs}/></body></worldbody></mujoco>`;
  assert.throws(() => convert(base('size="inf"')), /the 1st <geom> \(no name\): size has a non-finite number \(inf\)/);
  assert.throws(() => convert(base('name="g" size="0.1" pos="0 -INF 0"')), /geom 'g': pos has a non-finite number \(-INF\)/);
  assert.throws(() => convert(base('size="1e999"')), /size has a non-finite number \(1e999\)/);
  // a name that reads like one is a name
  assert.doesNotThrow(() => convert(base('name="nan" size="0.1"')));
  // in an included file: named with its file
  assert.throws(() => gatherMjcf('m.xml', (p) => ({ 'm.xml': '<mujoco><include file="d.xml"/></mujoco>', 'd.xml': '<mujoco>\n<default><joint damping="nan"/></default></mujoco>' })[p] ?? null),
    /the 1st <joint> \(no name\): damping has a non-finite number \(nan\), at line 2 of d.xml/);
});

// A known failure, kept as a reproduction for the solver (not the converter): the ant's eight
// capsules land on the floor together at t = 0.385 s and the director's Newton stops converging
// there (residual 7e-2 after 30 iterations; smaller steps do not help; without its contacts, or
// with the torso's sphere alone, it runs). The conversion itself is checked: Tumble accepts it.
test('an ant-like walker (free sphere torso, eight limited hinges, capsules, a floor) lands and sinks onto its belly, as in MuJoCo', () => {
  // Its knees have no actuator or spring, only damping and +-60 degree ranges: landing, they fold
  // until the torso (a sphere of 0.25 m) rests on the floor with the shins' tips on it too, the
  // knees at about 29 degrees, inside their ranges (no stop is touched). The test expected the
  // legs to hold the torso up; MuJoCo's own run of the file lands the same way.
  const { system } = convert(fixture('ant.xml'));
  assert.equal(system.forces.filter((f) => f.type === 'joint_limit').length, 8);
  assert.equal(system.bodies.filter((b) => b.shapes).length, 9);
  const samples = run(system, { duration: 3, every: 0.05 });
  const end = samples[samples.length - 1].x;
  // the torso on the floor (dented by its 321 N weight, less than 5 mm)
  assert.ok(end[0][2] < 0.25 && end[0][2] > 0.245, `torso at ${end[0][2]} m`);
  // each shin (bodies 2, 4, 6, 8: a capsule of radius 0.04 from the knee to its tip, its centre
  // halfway) reaches the floor: the thighs (bodies 1, 3, 5, 7) turn about vertical hips and stay
  // level with the torso's centre, so the knee is at their height and the tip, the knee mirrored
  // through the shin's centre, 0.04 m up (its cap on the floor)
  for (const b of [2, 4, 6, 8]) {
    const tipZ = 2 * end[b][2] - end[b - 1][2];
    assert.ok(Math.abs(end[b - 1][2] - end[0][2]) < 1e-3, `thigh ${b - 1} at ${end[b - 1][2]} m`);
    assert.ok(Math.abs(tipZ - 0.04) < 2e-3, `shin ${b}: tip at ${tipZ} m`);
  }
  // MuJoCo's own run (its Euler at the file's 5 ms) ends with the torso on the floor too
  const model = compileMjcf(mujoco, fixture('ant.xml')), data = new mujoco.MjData(model);
  try {
    for (let k = 0; k < 3 / model.opt.timestep; k++) mujoco.mj_step(model, data);
    assert.ok(Math.abs(data.qpos[2] - 0.25) < 0.01, `MuJoCo's torso at ${data.qpos[2]} m`);
    assert.ok(Math.abs(data.qpos[2] - end[0][2]) < 0.01, `MuJoCo ${data.qpos[2]} m, Tumble ${end[0][2]} m`);
  } finally {
    data.delete();
    model.delete();
  }
});
