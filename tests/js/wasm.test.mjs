// The wasm module under Node: the same API the page uses, and bit-identical results with
// the native command line (determinism).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { initSync, Simulation, presets, canonical_scenario, invariant_fields, suitable_dt, check_scenario } from '../../www/pkg/tumble_wasm.js';
import { INV } from '../../www/shared/invariants.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const cli = new URL('../../target/release/tumble', import.meta.url).pathname;

test('every preset runs 10 steps with each integrator, with finite invariants', () => {
  const inv = new Float64Array(invariant_fields().length);
  for (const p of presets()) {
    for (const integrator of ['director', 'rattle', 'baumgarte']) {
      // 0.005 s, or the preset's own step where that is finer (andrews: 1e-5 s)
      const dt = Math.min(0.005, suitable_dt(p.name, integrator));
      const s = new Simulation(p.name, integrator, dt, 0);
      assert.equal(s.step(10), 10, `${p.name} ${integrator}: ${s.last_error()}`);
      s.invariants(inv);
      assert.ok(inv.every(Number.isFinite), `${p.name} ${integrator}`);
      assert.ok(Math.abs(inv[INV.t] - 10 * dt) < 1e-12);
      const poses = new Float64Array(12 * s.body_count());
      s.write_poses(poses);
      assert.ok(poses.every(Number.isFinite));
      s.free();
    }
  }
});

test('canonical scenario texts round-trip; malformed ones throw a message naming the field', () => {
  for (const p of presets()) assert.equal(canonical_scenario(p.name), p.name);
  assert.equal(canonical_scenario('chain?joint=spherical&links=64'), 'chain?links=64&joint=spherical');
  for (const [text, needle] of [['nope', 'unknown scenario'], ['chain?links=0', "'links'"], ['chain?joint=hinge', 'revolute, spherical'], ['{"bodies": 3}', 'bodies must be a list, not 3']]) {
    assert.throws(() => new Simulation(text, 'rattle', 0, 0), (e) => e instanceof Error && e.message.includes(needle), text);
  }
  assert.throws(() => new Simulation('top', 'euler', 0, 0), /unknown integrator/);
  assert.throws(() => new Simulation('top', 'rattle', -1, 0), /dt must be/);
  assert.throws(() => new Simulation('top', 'rattle', NaN, 0), /dt must be/);
});

test('the free body under rattle stays on SO(3): |R^T R - I| < 1e-13 after 1000 steps', () => {
  const s = new Simulation('free-body', 'rattle', 0, 0);
  assert.equal(s.step(1000), 1000);
  const inv = new Float64Array(invariant_fields().length);
  s.invariants(inv);
  assert.ok(inv[INV.internal_violation] < 1e-13, String(inv[INV.internal_violation]));
});

test('wasm and native give the same state bits (state hash after 300 steps)', () => {
  assert.ok(existsSync(cli), `${cli} is missing: build it first (cargo build --release -p tumble-cli, or scripts/build.sh)`);
  // the last six with force elements, drives, sliding and distance joints: the page's
  // run is the command line's, bit for bit
  for (const [scenario, integrator] of [['nk-spherical', 'rattle'], ['top', 'baumgarte'], ['chain?links=12&joint=revolute', 'rattle'], ['nk-revolute', 'director'],
    ['slider-crank?spring=40&piston_damping=0.5', 'director'], ['kapitza', 'rattle'], ['driven-pendulum', 'baumgarte'], ['spring-pendulum', 'director'],
    ['crane', 'director'], ['crane', 'baumgarte']]) {
    const s = new Simulation(scenario, integrator, 0.01, 0);
    assert.equal(s.step(300), 300, s.last_error());
    const wasmHash = s.state_hash();
    const out = JSON.parse(execFileSync(cli, ['run', scenario, '--integrator', integrator, '--dt', '0.01', '--duration', '3', '--every', '100']));
    assert.equal(out.state_hash, wasmHash, `${scenario} ${integrator}`);
  }
});

test('contact: wasm and native give the same state bits (300 steps at each preset\'s step)', () => {
  for (const [scenario, integrator, dt] of [['bouncing-ball?height=0.01&speed=1&spin=-20', 'director', 2.5e-4],
    ['newtons-cradle', 'rattle', 1e-3], ['incline', 'baumgarte', 2e-4], ['incline', 'director', 5e-4],
    // impacts taken in sub-steps (the cradle above too, at ten times its step): the same sub-steps
    ['billiards', 'director', 1e-3], ['bouncing-ball?height=5', 'baumgarte', 0.01]]) {
    const s = new Simulation(scenario, integrator, dt, 0);
    assert.equal(s.step(300), 300, s.last_error());
    const out = JSON.parse(execFileSync(cli, ['run', scenario, '--integrator', integrator, '--dt', String(dt), '--duration', String(300 * dt), '--every', String(100 * dt)]));
    assert.equal(out.samples.at(-1).t, s.time(), `${scenario}: the same number of steps`);
    assert.equal(out.state_hash, s.state_hash(), `${scenario} ${integrator}`);
  }
});

test('a failed step stops the run with a message and keeps the last good state', () => {
  const s = new Simulation('chain?links=64', 'baumgarte', 0.2, 0);
  const taken = s.step(50);
  assert.ok(taken < 50);
  assert.match(s.last_error(), /non-finite|did not converge|singular/);
  const hash = s.state_hash();
  assert.equal(s.step(5), 0);
  assert.equal(s.state_hash(), hash);
  const inv = new Float64Array(invariant_fields().length);
  s.invariants(inv);
  assert.ok(inv.every(Number.isFinite));
});

// The 1 MiB limit is on the text as typed: its normalised form (every default written out, what
// the page runs and the worker parses again) may be longer and still runs; a longer typed text
// is refused with its own size.
test('the 1 MiB limit applies to the text as typed, not to its normalised form', () => {
  const sphere = '{"type": "sphere", "radius": 0.1}';
  const body = (i) => `{"mass": 1, "inertia": [1, 1, 1], "position": [${i}, 0, 0], "shapes": [${sphere}, ${sphere}, ${sphere}]}`;
  const system = (n, pad = '') => `{"gravity": [0, 0, 0], "bodies": [\n${Array.from({ length: n }, (_, i) => body(i)).join(`,${pad}\n`)}\n]}`;
  const typed = system(4096);
  assert.ok(typed.length < 1 << 20);
  const r = check_scenario(typed);
  assert.ok(r.ok, r.message);
  assert.ok(r.canonical.length > 1 << 20, `normalised: ${r.canonical.length} bytes`);
  const s = new Simulation(r.canonical, 'director', 0.01, 0);
  assert.equal(s.step(2), 2, s.last_error());
  assert.equal(check_scenario(r.canonical).canonical, r.canonical);
  // over 1 MiB as typed: refused, with the size typed
  const long = system(4096, ' '.repeat(80));
  assert.ok(long.length > 1 << 20);
  const bad = check_scenario(long);
  assert.equal(bad.ok, false);
  assert.match(bad.message, new RegExp(`scenario JSON is ${long.length} bytes; at most 1048576 are accepted`));
  // and a text over 1 MiB without line breaks that is not a normalised form
  const flat = long.replaceAll('\n', '');
  assert.match(check_scenario(flat).message, new RegExp(`scenario JSON is ${flat.length} bytes`));
});
