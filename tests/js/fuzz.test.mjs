// A short fuzz pass over the wasm API entry points: random and hostile inputs to
// every call a page or a link can reach. Each call returns or throws an Error with a message;
// nothing panics (a panic would abort the module: later calls would fail), hangs or
// produces non-finite numbers. Deterministic: a fixed-seed generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, Simulation, canonical_scenario, presets } from '../../www/pkg/tumble_wasm.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });

let seed = 0x9e3779b9;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const pick = (a) => a[Math.floor(rnd() * a.length)];
const NUMBERS = [0, -1, 1e-7, 1e-3, 0.01, 0.3, 1, 2, 1e308, -1e308, NaN, Infinity, -Infinity, 4097, 1e6];
const WORDS = ['chain', 'top', 'flip', 'free-body', 'nk-revolute', 'nk-spherical', 'links', 'joint', 'angle', 'spin', 'tilt', 'spherical', 'revolute',
  '?', '&', '=', '{', '}', '"', '<script>', 'javascript:', '%00', '\u0000', '\u{1F600}', ' ', 'NaN', '1e999', '-0', '4096', '0x10'];

function randomText() {
  const n = Math.floor(rnd() * 8);
  let s = '';
  for (let i = 0; i < n; i++) s += rnd() < 0.7 ? pick(WORDS) : String(pick(NUMBERS));
  return rnd() < 0.05 ? s.repeat(200) : s;
}

function randomJson() {
  // contact: shapes of every kind with hostile sizes, materials and filters, planes
  const shape = () => ({ type: pick(['sphere', 'capsule', 'box', 'cone']), radius: pick(NUMBERS), half_length: pick(NUMBERS), half: [pick(NUMBERS), 0.1, 0.1],
    material: { restitution: pick(NUMBERS), friction: pick(NUMBERS), young: pick(NUMBERS), pull: pick([true, false, 0, 'x']) }, group: pick([0, 1, 3]), mask: pick([0, 1, 7]) });
  const body = () => ({ mass: pick(NUMBERS), inertia: [pick(NUMBERS), pick(NUMBERS), pick(NUMBERS)], position: [0, 0, pick(NUMBERS)],
    ...(rnd() < 0.3 ? { shapes: [shape()] } : {}) });
  const doc = { bodies: Array.from({ length: Math.floor(rnd() * 3) }, body), joints: rnd() < 0.5 ? [{ type: pick(['spherical', 'revolute', 'weld']), b: pick([0, 1, 5, -1]) }] : [] };
  if (rnd() < 0.3) doc.contact = { ground: rnd() < 0.5, planes: [{ point: [0, 0, pick(NUMBERS)], normal: [0, 0, pick(NUMBERS)] }], collide_joined: rnd() < 0.5 };
  if (rnd() < 0.2) doc.forces = [{ type: 'joint_limit', joint: pick([0, 1]), lower: pick(NUMBERS), upper: pick(NUMBERS), restitution: pick(NUMBERS) }];
  return JSON.stringify(doc).replace(/null/g, () => pick(['null', '1e400', '"x"']));
}

test('random scenario texts, integrators and settings: values or Errors, never a crash', () => {
  let accepted = 0;
  for (let i = 0; i < 1500; i++) {
    const r = rnd();
    const text = r < 0.25 ? randomJson() : r < 0.5 ? randomText() : r < 0.75 ? pick(presets()).name + '?' + randomText() : pick(presets()).name;
    try {
      canonical_scenario(text);
    } catch (e) {
      assert.ok(e instanceof Error && e.message.length > 0);
    }
    let s;
    try {
      const integrator = rnd() < 0.8 ? pick(['director', 'rattle', 'baumgarte']) : pick(['euler', '', 'RATTLE']);
      const dt = rnd() < 0.6 ? pick([0, 0.01, 0.005]) : pick(NUMBERS);
      s = new Simulation(text, integrator, dt, pick([0, 0, 1e-10, 1e-20, NaN, 1]));
    } catch (e) {
      assert.ok(e instanceof Error && e.message.length > 0, String(e));
      continue;
    }
    accepted++;
    const want = pick([0, 1, 3]);
    const taken = s.step(want);
    const inv = new Float64Array(14);
    s.invariants(inv);
    assert.ok(inv.every(Number.isFinite), text);
    // a run that stopped early says why, naming the time and one of the step's failures; a run
    // that did not stop has no error
    if (taken < want) {
      assert.match(s.last_error() ?? '', /^at t = \S+ s: (the state became non-finite|Newton did not converge|the joint-space system is singular|the Newton tangent of body|the rotation update of body|the step is too large for the motion)/, text);
    } else {
      assert.equal(taken, want, text);
      assert.equal(s.last_error(), undefined, text);
    }
    s.free();
  }
  // the module still works after all of that
  const s = new Simulation('top', 'rattle', 0, 0);
  assert.equal(s.step(10), 10);
  assert.ok(accepted > 10, `only ${accepted} inputs were accepted: the generator is too hostile to reach the stepping code`);
});

test('typed-array outputs tolerate wrong sizes: whole records into what fits, nothing beyond', () => {
  const s = new Simulation('chain?links=5', 'rattle', 0, 0);
  assert.equal(s.step(3), 3);
  // each output with its record size and its full length for 5 bodies and 5 joints
  const outputs = [
    ['write_poses', 12, 60],
    ['write_sizes', 3, 15],
    ['write_joints', 3, 15],
    ['invariants', 1, 15],
  ];
  for (const [name, record, length] of outputs) {
    const full = new Float64Array(length);
    s[name](full);
    assert.ok(full.every(Number.isFinite) && full.some((x) => x !== 0), name);
    for (const n of [0, 1, 7, 59, 60, 1000]) {
      const out = new Float64Array(n).fill(-7.5);
      s[name](out);
      const written = Math.min(Math.floor(n / record) * record, length);
      for (let i = 0; i < n; i++) {
        assert.equal(out[i], i < written ? full[i] : -7.5, `${name} into ${n} numbers, element ${i}`);
      }
    }
  }
  assert.equal(s.step(2), 2);
  // the spring ends (6 numbers a spring) of a system with one spring
  const sp = new Simulation('spring-pendulum', 'director', 0, 0);
  assert.equal(sp.spring_count(), 1);
  const full = new Float64Array(6);
  sp.write_springs(full);
  for (const n of [0, 5, 6, 13]) {
    const out = new Float64Array(n).fill(-7.5);
    sp.write_springs(out);
    for (let i = 0; i < n; i++) assert.equal(out[i], i < (n >= 6 ? 6 : 0) ? full[i] : -7.5, `write_springs into ${n} numbers, element ${i}`);
  }
  sp.free();
  // the contact forces (6 numbers a force) of a ball pressed on the ground: its normal force
  // and its friction's, counted whatever fits
  const ball = new Simulation('bouncing-ball?height=0&speed=1', 'director', 0, 0);
  assert.equal(ball.step(40), 40);
  const all = new Float64Array(60);
  const count = ball.contact_forces(all);
  assert.equal(count, 2);
  for (const n of [0, 5, 6, 13]) {
    const out = new Float64Array(n).fill(-7.5);
    assert.equal(ball.contact_forces(out), count);
    const written = Math.min(Math.floor(n / 6), count) * 6;
    for (let i = 0; i < n; i++) assert.equal(out[i], i < written ? all[i] : -7.5, `contact_forces into ${n} numbers, element ${i}`);
  }
  ball.free();
});
