// A MuJoCo geom that collides with nothing (contype and conaffinity 0, as the suite finger's
// distal capsule, the manipulator's decorations) comes into Tumble as a visual shape
// (www/mujoco/from-mjcf-contact.js `visuals`; crates/tumble/src/custom_contact.rs): drawn where
// the model puts it, touching nothing. Before, such geoms were left out and the page drew the
// finger's fingertip floating below its proximal link.
// - a two-link finger: its distal capsule (visual) lands where the MJCF's fromto puts it, after
//   the collision shapes in what the view draws; geoms MuJoCo's viewer hides (group 3 and up,
//   fully transparent) and geoms on the world are left out, with a note for the world's;
// - the run is the same to the bit with and without the visual shapes (they touch nothing,
//   though the distal capsule lies in the floor at the start);
// - a visual mesh is drawn as its triangles, after the collision shapes' meshes; a visual
//   ellipsoid and cylinder as triangles on their surfaces, facing out (a collision one stays
//   its bounding box);
// - written back for MuJoCo, a visual shape is a geom with contype and conaffinity 0, and MuJoCo
//   runs the export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as wasm from '../../www/pkg/tumble_wasm.js';
import { toMjcf } from '../../www/mujoco/to-mjcf.js';
import { convert } from './mjcf-convert.mjs';

wasm.initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

// a finger as the suite's: a proximal capsule on a hinge, a distal body whose capsule is only
// drawn and whose fingertip collides; a hidden geom (group 3), a transparent one and a
// decoration on the world; the distal capsule reaches 0.028 m into the floor at the start
const FINGER = `<mujoco><option timestep="0.002"/>
  <asset><mesh name="tet" vertex="0 0 0 0.04 0 0 0 0.04 0 0 0 0.04"/></asset>
  <worldbody><geom name="floor" type="plane" size="1 1 0.1"/>
    <geom name="decoration" type="box" size="0.1 0.1 0.01" pos="0.5 0 0.01" contype="0" conaffinity="0"/>
    <body name="proximal" pos="0 0 0.4"><joint name="proximal" type="hinge" axis="0 1 0"/>
      <geom name="proximal" type="capsule" size="0.03" fromto="0 0 0 0 0 -0.17"/>
      <body name="distal" pos="0 0 -0.18"><joint name="distal" type="hinge" axis="0 1 0"/>
        <geom name="distal" type="capsule" size="0.028" fromto="0 0 0 0.1 0 -0.22" contype="0" conaffinity="0"/>
        <geom name="fingertip" type="sphere" size="0.03" pos="0.02 0 -0.05" mass="0.1"/>
        <geom name="hidden" type="sphere" size="0.05" group="3" contype="0" conaffinity="0"/>
        <geom name="clear" type="sphere" size="0.05" rgba="1 0 0 0" contype="0" conaffinity="0"/>
        <geom name="tet" type="mesh" mesh="tet" pos="0 0 -0.1" contype="0" conaffinity="0" mass="0"/>
      </body></body></worldbody></mujoco>`;

test('a geom that touches nothing comes in as a visual shape, where the model puts it', () => {
  const { system, notes } = convert(FINGER);
  const text = notes.join('\n');
  assert.match(text, /1 visual geom on the world \(such as geom 'decoration'\) not drawn: Tumble draws only its planes there/);
  const distal = system.bodies[1];
  const visual = distal.shapes.filter((s) => s.visual);
  assert.deepEqual(visual.map((s) => s.type), ['capsule', 'mesh']);
  assert.deepEqual(distal.shapes.filter((s) => !s.visual).map((s) => s.type), ['sphere']);
  for (const s of visual) assert.ok(!('material' in s) && !('group' in s) && !('mask' in s), JSON.stringify(s));
  // the capsule's centre in the world: the body's frame, then the offset; against the MJCF's
  // fromto's midpoint (0.05, 0, 0.4 - 0.18 - 0.11); its axis along the fromto
  const cap = visual[0], R = distal.rotation, p = distal.position;
  const centre = [0, 1, 2].map((r) => p[r] + R[r].reduce((s, x, k) => s + x * cap.offset[k], 0));
  const want = [0.05, 0, 0.4 - 0.18 - 0.11];
  assert.ok(Math.hypot(...centre.map((x, k) => x - want[k])) < 1e-9, `${centre} against ${want}`);
  assert.ok(Math.abs(cap.half_length - Math.hypot(0.1, 0.22) / 2) < 1e-9 && cap.radius === 0.028);
  // the view draws the collision shapes (2), then the visual ones, the mesh as its 4 triangles
  const canonical = wasm.canonical_scenario(JSON.stringify(system));
  const shapes = wasm.contact_shapes(canonical), tri = wasm.shape_meshes(canonical);
  assert.equal(shapes.length, 17 * 4);
  assert.deepEqual([shapes[17 * 2 + 1], shapes[17 * 3 + 1]], [1, 3]);
  assert.deepEqual([tri[0], tri[1], tri.length], [3, 4, 2 + 9 * 4]);
});

test('visual shapes change nothing in the run, though one starts in the floor', () => {
  const { system } = convert(FINGER);
  const bare = structuredClone(system);
  for (const b of bare.bodies) if (b.shapes) b.shapes = b.shapes.filter((s) => !s.visual);
  const poses = (sys) => {
    const sim = new wasm.Simulation(JSON.stringify(sys), 'director', 2e-3, 0);
    assert.equal(sim.step(500), 500, sim.last_error() ?? '');
    const out = new Float64Array(12 * sim.body_count());
    sim.write_poses(out);
    sim.free();
    return out;
  };
  assert.deepEqual(poses(system), poses(bare));
});

test('written back for MuJoCo, a visual shape is a geom that collides with nothing', () => {
  const { system } = convert(FINGER);
  const { xml } = toMjcf(system, { integrator: 'RK4', timestep: 2e-3 });
  const visual = xml.split('\n').filter((l) => /<geom /.test(l) && /contype="0" conaffinity="0"/.test(l));
  assert.equal(visual.length, 2, xml);
  assert.match(visual[0], /type="capsule"/);
  assert.match(visual[1], /type="mesh"/);
  // MuJoCo reads it back: the same shapes, the visual ones still visual
  const again = convert(xml).system;
  assert.deepEqual(again.bodies[1].shapes.map((s) => [s.type, !!s.visual]), system.bodies[1].shapes.map((s) => [s.type, !!s.visual]));
});

test('a visual ellipsoid and cylinder are drawn as triangles on their surfaces, facing out', () => {
  const { system, notes } = convert(`<mujoco><worldbody><body pos="0 0 1"><freejoint/>
    <geom type="ellipsoid" size="0.1 0.2 0.3" contype="0" conaffinity="0"/>
    <geom type="cylinder" size="0.05 0.15" pos="0.3 0 0" euler="0.3 0 0" contype="0" conaffinity="0"/>
    <geom type="cylinder" size="0.05 0.15" pos="-0.3 0 0"/></body></worldbody></mujoco>`);
  const shapes = system.bodies[0].shapes;
  // the colliding cylinder touches nothing here either (no floor, one body): a visual shape too
  assert.deepEqual(shapes.map((s) => [s.type, !!s.visual]), [['mesh', true], ['mesh', true], ['mesh', true]]);
  assert.ok(!notes.some((n) => /bounding box/.test(n)), notes.join('\n'));
  const surfaces = [
    (v) => (v[0] / 0.1) ** 2 + (v[1] / 0.2) ** 2 + (v[2] / 0.3) ** 2 - 1,
    // a cylinder: every vertex on its rim circles or at a cap's centre
    (v) => (Math.abs(Math.abs(v[2]) - 0.15) < 1e-6 && (Math.hypot(v[0], v[1]) < 1e-9 || Math.abs(Math.hypot(v[0], v[1]) - 0.05) < 1e-6) ? 0 : 1),
  ];
  for (const [s, on] of [[shapes[0], surfaces[0]], [shapes[1], surfaces[1]]]) {
    // the vertices in the mesh's own frame (MuJoCo's geom frame), before the body's
    for (const v of s.vertices) assert.ok(Math.abs(on(v)) < 1e-5, `${v} off the surface`);
    for (const [i, j, k] of s.faces) {
      const [a, b, c] = [s.vertices[i], s.vertices[j], s.vertices[k]];
      const n = [0, 1, 2].map((r) => (b[(r + 1) % 3] - a[(r + 1) % 3]) * (c[(r + 2) % 3] - a[(r + 2) % 3]) - (b[(r + 2) % 3] - a[(r + 2) % 3]) * (c[(r + 1) % 3] - a[(r + 1) % 3]));
      const mid = [0, 1, 2].map((r) => (a[r] + b[r] + c[r]) / 3);
      assert.ok(n[0] * mid[0] + n[1] * mid[1] + n[2] * mid[2] > 0, `face ${[i, j, k]} faces inward`);
    }
  }
  // Tumble reads them (closed meshes of valid triangles) and the view gets every triangle
  const text = wasm.canonical_scenario(JSON.stringify(system));
  const tri = wasm.shape_meshes(text);
  assert.deepEqual([tri[0], tri[1]], [0, shapes[0].faces.length]);
});

test("a collision mesh that touches nothing counts its triangles once against the model's budget", () => {
  // a closed sphere of 6860 triangles, twice on one body: as a collision geom that can touch
  // nothing (contype and conaffinity 2, and no other body: a visual shape) and as a visual geom.
  // 13720 triangles are within the 20000 drawn as such; the first was counted twice before (as a
  // collision candidate, then as a visual shape), 20580, and the second came in as a box
  const lat = 50, lon = 70, r = 0.1;
  const v = [[0, 0, r]];
  for (let i = 1; i < lat; i++) {
    for (let j = 0; j < lon; j++) {
      const th = (Math.PI * i) / lat, ph = (2 * Math.PI * j) / lon;
      v.push([r * Math.sin(th) * Math.cos(ph), r * Math.sin(th) * Math.sin(ph), r * Math.cos(th)]);
    }
  }
  v.push([0, 0, -r]);
  const at = (i, j) => 1 + (i - 1) * lon + (j % lon), south = v.length - 1, f = [];
  for (let j = 0; j < lon; j++) f.push([0, at(1, j), at(1, j + 1)], [south, at(lat - 1, j + 1), at(lat - 1, j)]);
  for (let i = 1; i < lat - 1; i++) {
    for (let j = 0; j < lon; j++) f.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)], [at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
  }
  assert.equal(f.length, 6860);
  const xml = `<mujoco><asset><mesh name="ball" vertex="${v.flat().join(' ')}" face="${f.flat().join(' ')}"/></asset>
    <worldbody><body name="b" pos="0 0 1"><freejoint/>
      <geom name="solid" type="mesh" mesh="ball" contype="2" conaffinity="2"/>
      <geom name="shown" type="mesh" mesh="ball" pos="0.3 0 0" contype="0" conaffinity="0" mass="0"/>
    </body></worldbody></mujoco>`;
  const { system, notes } = convert(xml);
  const shapes = system.bodies[0].shapes ?? [];
  assert.deepEqual(shapes.map((s) => [s.type, !!s.visual, s.faces?.length]), [['mesh', true, 6860], ['mesh', true, 6860]], notes.join('\n'));
  assert.ok(!notes.some((n) => /boxes around them/.test(n)), notes.join('\n'));
});
