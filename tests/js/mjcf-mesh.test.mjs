// A MuJoCo mesh geom comes into Tumble as its triangles (www/mujoco/from-mjcf-contact.js
// meshShape; crates/tumble/src/custom_mesh.rs), drawn as such, meeting planes with its hull's
// corners (contact/hull.rs) and other shapes as its bounding box:
// - the triangles land where the model puts them: each vertex of a lopsided wedge, on a body and
//   a geom both turned, at the point the MJCF's own numbers give (MuJoCo's compiler moves a
//   mesh to its inertial frame; the conversion must undo that exactly), faces still outward;
// - a box written as a mesh lands flat and rests as the box primitive does (the director's
//   run of both, and MuJoCo's RK4 run of the mesh beside them);
// - a tetrahedron set on its base rests on it, its centre of mass a quarter of its height up
//   (against the floor, a mesh meets planes with its hull's corners: contact/hull.rs), where
//   its bounding box (in MuJoCo's inertial frame, across the base) would hold it up;
// - written back for MuJoCo (export, MuJoCo beside), a mesh is a mesh geom where Tumble has it;
// - a model whose meshes pass the triangle budget keeps the rest as boxes, with a note.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { compileMjcf, fromMjModel } from '../../www/mujoco/mjcf.js';
import { toMjcf } from '../../www/mujoco/to-mjcf.js';
import { mujoco } from './mjcf-convert.mjs';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

/** The Tumble system and notes of the MJCF text `xml`. */
function convert(xml) {
  const model = compileMjcf(mujoco, xml);
  try {
    return fromMjModel(mujoco, model);
  } finally {
    model.delete();
  }
}

// the rotation matrix of the quaternion q = [w, x, y, z] (normalised), rows
function rot(q) {
  const n = Math.hypot(...q), [w, x, y, z] = q.map((c) => c / n);
  return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]];
}
const apply = (p, R, v) => [0, 1, 2].map((r) => p[r] + R[r][0] * v[0] + R[r][1] * v[1] + R[r][2] * v[2]);
const sub = (a, b) => a.map((x, k) => x - b[k]);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

// a wedge: the triangle (0,0,0) (0.2,0,0) (0,0.1,0) extruded 0.06 along z; faces wound outward
const WEDGE_V = [[0, 0, 0], [0.2, 0, 0], [0, 0.1, 0], [0, 0, 0.06], [0.2, 0, 0.06], [0, 0.1, 0.06]];
const WEDGE_F = [[0, 2, 1], [3, 4, 5], [0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4], [2, 0, 3], [2, 3, 5]];

test('a mesh comes in as its triangles, each vertex where the model puts it, faces outward', () => {
  const bq = [0.9, 0.1, 0.3, 0.2], bp = [0.1, -0.2, 0.8], gq = [0.8, -0.2, 0.1, 0.4], gp = [0.05, 0.02, -0.03];
  const { system, notes } = convert(`<mujoco><asset><mesh name="wedge" vertex="${WEDGE_V.flat().join(' ')}" face="${WEDGE_F.flat().join(' ')}"/></asset>
    <worldbody><geom type="plane" size="1 1 0.1"/><body pos="${bp.join(' ')}" quat="${bq.join(' ')}"><freejoint/>
      <geom type="mesh" mesh="wedge" pos="${gp.join(' ')}" quat="${gq.join(' ')}"/></body></worldbody></mujoco>`);
  assert.match(notes.join('\n'), /mesh geoms as Tumble meshes, meeting planes with their convex hull's corners \(as MuJoCo\) and other shapes as their bounding boxes \(MuJoCo: the hull\): geom 1 \(drawn as its 8 triangles\)/);
  const body = system.bodies[0], shape = body.shapes[0];
  assert.equal(shape.type, 'mesh');
  assert.equal(shape.faces.length, WEDGE_F.length);
  // Tumble's world vertices: x_b + R_b (offset + S v)
  const R = body.rotation, S = shape.rotation ?? [[1, 0, 0], [0, 1, 0], [0, 0, 1]], o = shape.offset ?? [0, 0, 0];
  const world = shape.vertices.map((v) => apply(body.position, R, apply(o, S, v)));
  // the model's own numbers: body frame, then the geom's, then the vertex as written
  const want = WEDGE_V.map((v) => apply(bp, rot(bq), apply(gp, rot(gq), v)));
  assert.equal(world.length, want.length);
  for (const w of want) {
    const miss = Math.min(...world.map((p) => Math.hypot(...sub(p, w))));
    assert.ok(miss < 1e-6, `vertex ${w} is ${miss} m from the nearest converted one`);
  }
  // every face outward: its normal (from its corners' order) away from the wedge's centre
  const c = [0, 1, 2].map((k) => world.reduce((s, p) => s + p[k], 0) / world.length);
  for (const [i, j, k] of shape.faces) {
    const n = cross(sub(world[j], world[i]), sub(world[k], world[i]));
    assert.ok(dot(n, sub(world[i], c)) > 0, `face ${[i, j, k]} faces inward`);
  }
  // the module reads it, a box of the vertices' extent, and hands the view its 8 triangles
  const text = JSON.stringify(system), shapes = wasm.contact_shapes(text), tri = wasm.shape_meshes(text);
  assert.equal(shapes[1], 3);
  assert.deepEqual([tri[0], tri[1], tri.length], [0, 8, 2 + 9 * 8]);
  for (let k = 0; k < 3; k++) {
    const xs = shape.vertices.map((v) => v[k]);
    assert.ok(Math.abs(shapes[2 + k] - (Math.max(...xs) - Math.min(...xs)) / 2) < 1e-15, `half size ${k}`);
  }
});

const BOX_V = [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => [0.15 * x, 0.1 * y, 0.05 * z])));
const boxModel = (geom, asset = '') => `<mujoco><option timestep="1e-4" integrator="RK4"/>${asset}
  <worldbody><geom type="plane" size="2 2 0.1"/>
    <body pos="0 0 0.3"><freejoint/>${geom}</body></worldbody></mujoco>`;
const MESH_BOX = boxModel('<geom type="mesh" mesh="b"/>', `<asset><mesh name="b" vertex="${BOX_V.flat().join(' ')}"/></asset>`);

/** The director's run of `system` at h = 1 ms to t = 0.8 s: { z (the centre's height, m), T (the
 * kinetic energy at the end, J), worst (the largest |E - E0 - W + D| of any step, J) }. */
function director(system) {
  const h = 1e-3, sim = new wasm.Simulation(JSON.stringify({ ...system, dt: h }), 'director', h, 0);
  const fields = wasm.invariant_fields(), inv = new Float64Array(fields.length), poses = new Float64Array(12);
  let worst = 0;
  try {
    for (let k = 0; k < 800; k++) {
      assert.equal(sim.step(1), 1, sim.last_error());
      sim.invariants(inv);
      worst = Math.max(worst, Math.abs(inv[fields.indexOf('balance')]));
    }
    sim.write_poses(poses);
    return { z: poses[2], T: inv[fields.indexOf('kinetic')], worst };
  } finally {
    sim.free();
  }
}

test('a box written as a mesh lands flat and rests as the box primitive does, and as MuJoCo rests it', () => {
  const mesh = convert(MESH_BOX).system, box = convert(boxModel('<geom type="box" size="0.15 0.1 0.05"/>')).system;
  assert.equal(mesh.bodies[0].shapes[0].type, 'mesh');
  assert.equal(box.bodies[0].shapes[0].type, 'box');
  const a = director(mesh), b = director(box);
  // at rest on its face: the centre a little under 0.05 m (the floor's dent), still
  assert.ok(a.z > 0.049 && a.z < 0.05 && a.T < 1e-5, JSON.stringify(a));
  assert.ok(Math.abs(a.z - b.z) < 1e-6, `mesh ${a.z} m, box ${b.z} m`);
  assert.ok(a.worst < 1e-9 && b.worst < 1e-9, `balance ${a.worst}, ${b.worst} J`);
  // MuJoCo's own run of the mesh model (its convex hull) rests within a millimetre of it
  const model = compileMjcf(mujoco, MESH_BOX), data = new mujoco.MjData(model);
  try {
    for (let k = 0; k < 8000; k++) mujoco.mj_step(model, data);
    assert.ok(Math.abs(data.qpos[2] - a.z) < 1e-3, `MuJoCo ${data.qpos[2]} m, Tumble ${a.z} m`);
  } finally {
    data.delete();
    model.delete();
  }
});

test('a tetrahedron set on its base rests on it: its centre of mass a quarter of its height up, as in MuJoCo', () => {
  const T = [[0, 0, 0], [0.2, 0, 0], [0.05, 0.15, 0], [0.07, 0.05, 0.12]];
  const xml = `<mujoco><option timestep="1e-4" integrator="RK4"/><asset><mesh name="t" vertex="${T.flat().join(' ')}"/></asset>
    <worldbody><geom type="plane" size="2 2 0.1"/><body pos="0 0 0.0005"><freejoint/><geom type="mesh" mesh="t"/></body></worldbody></mujoco>`;
  const { system } = convert(xml);
  const shape = system.bodies[0].shapes[0];
  assert.equal(shape.type, 'mesh');
  // its box (in the inertial frame MuJoCo turned the mesh to) reaches below the base
  const R = system.bodies[0].rotation, S = shape.rotation, o = shape.offset;
  const boxLow = Math.min(...[0, 1, 2, 3, 4, 5, 6, 7].map((c) => {
    const v = [0, 1, 2].map((k) => ((c >> k) & 1 ? Math.max : Math.min)(...shape.vertices.map((p) => p[k])));
    return apply(system.bodies[0].position, R, apply(o, S, v))[2];
  }));
  assert.ok(boxLow < -0.005, `the box's lowest corner at ${boxLow} m`);
  const { z, T: kinetic, worst } = director(system);
  const quarter = 0.12 / 4;
  console.log(`# tetrahedron: centre of mass ${z.toFixed(6)} m (a quarter of its height: ${quarter} m), T ${kinetic.toExponential(2)} J, balance ${worst.toExponential(2)} J`);
  assert.ok(z < quarter && z > quarter - 1e-4 && kinetic < 1e-6, `${z} m, T ${kinetic} J`);
  assert.ok(worst < 1e-9, `balance ${worst} J`);
  const model = compileMjcf(mujoco, xml), data = new mujoco.MjData(model);
  try {
    for (let k = 0; k < 8000; k++) mujoco.mj_step(model, data);
    // (body 1's centre of mass, world z)
    assert.ok(Math.abs(data.xipos[5] - z) < 1e-3, `MuJoCo ${data.xipos[5]} m, Tumble ${z} m`);
  } finally {
    data.delete();
    model.delete();
  }
});

test('written back for MuJoCo, a mesh is a mesh geom with every vertex where Tumble has it', () => {
  // the wedge off its own origin, turned
  const S = rot([0.9, 0.3, -0.1, 0.2]), at = [0, 0, 0.5], o = [0.2, 0, 0];
  const system = { gravity: [0, 0, -9.81], bodies: [{ mass: 1, inertia: [0.01, 0.01, 0.01], position: at,
    shapes: [{ type: 'mesh', vertices: WEDGE_V, faces: WEDGE_F, offset: o, rotation: S }] }], contact: { ground: true } };
  const { xml, notes } = toMjcf(system);
  assert.match(notes.join('\n'), /1 mesh shape: MuJoCo meets other shapes with a mesh's convex hull, where Tumble takes its bounding box/);
  const model = compileMjcf(mujoco, xml), data = new mujoco.MjData(model);
  try {
    mujoco.mj_forward(model, data);
    const g = [...model.geom_type].findIndex((t) => t === mujoco.mjtGeom.mjGEOM_MESH.value);
    assert.ok(g >= 0, 'no mesh geom');
    const m = model.geom_dataid[g], v0 = model.mesh_vertadr[m];
    assert.equal(model.mesh_vertnum[m], WEDGE_V.length);
    const X = [...data.geom_xpos.subarray(3 * g, 3 * g + 3)], M = data.geom_xmat.subarray(9 * g, 9 * g + 9);
    const R = [[M[0], M[1], M[2]], [M[3], M[4], M[5]], [M[6], M[7], M[8]]];
    const theirs = Array.from({ length: WEDGE_V.length }, (_, i) => apply(X, R, [...model.mesh_vert.subarray(3 * (v0 + i), 3 * (v0 + i) + 3)]));
    for (const v of WEDGE_V) {
      const w = apply(at, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], apply(o, S, v));
      const miss = Math.min(...theirs.map((p) => Math.hypot(...sub(p, w))));
      assert.ok(miss < 1e-6, `vertex ${w}: MuJoCo's nearest ${miss} m away`);
    }
  } finally {
    data.delete();
    model.delete();
  }
});

// a closed surface of latitude rings: 2 n (n - 1) triangles over n (n - 1) + 2 vertices
function globe(n, r) {
  const v = [[0, 0, r], [0, 0, -r]], f = [];
  for (let i = 1; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const th = Math.PI * i / n, ph = 2 * Math.PI * j / n;
      v.push([r * Math.sin(th) * Math.cos(ph), r * Math.sin(th) * Math.sin(ph), r * Math.cos(th)].map((x) => +x.toFixed(6)));
    }
  }
  const at = (i, j) => 2 + (i - 1) * n + (j % n);
  for (let j = 0; j < n; j++) {
    f.push([0, at(1, j), at(1, j + 1)], [1, at(n - 1, j + 1), at(n - 1, j)]);
    for (let i = 1; i < n - 1; i++) f.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)], [at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
  }
  return { v, f };
}

test('meshes past the triangle budget are drawn and collided as their boxes, with a note', () => {
  const big = globe(101, 0.1); // 20200 triangles
  assert.equal(big.f.length, 20200);
  const { system, notes } = convert(`<mujoco><asset><mesh name="big" vertex="${big.v.flat().join(' ')}" face="${big.f.flat().join(' ')}"/>
      <mesh name="b" vertex="${BOX_V.flat().join(' ')}"/></asset>
    <worldbody><body><freejoint/><geom name="small" type="mesh" mesh="b"/></body>
      <body pos="1 0 0"><freejoint/><geom name="globe" type="mesh" mesh="big"/></body></worldbody></mujoco>`);
  assert.equal(system.bodies[0].shapes[0].type, 'mesh');
  const globeShape = system.bodies[1].shapes[0];
  assert.equal(globeShape.type, 'box');
  for (const h of globeShape.half) assert.ok(Math.abs(h - 0.1) < 1e-4, `half ${h}`);
  assert.match(notes.join('\n'), /geom 'globe' \(a mesh: MuJoCo's bounding box of it, drawn as a box too: the model's meshes have more than 20000 triangles\)/);
  // and the text stays within Tumble's 1 MiB
  assert.ok(JSON.stringify(system).length < 1 << 20);
});
