// Custom systems in the editor and in links, without a browser: the JSON export of
// every preset runs bit for bit like the preset; the editor's check names field, line and
// column; the system= codec (www/shared/url.js) round-trips, rejects damaged, oversize and bomb links
// with a message and never hangs; the command line reads the same link to the same state hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { initSync, Simulation, presets, scenario_json, check_scenario, joint_frames, canonical_scenario } from '../../www/pkg/tumble_wasm.js';
import { encodeSystem, decodeSystem, parseQuery, buildQuery, locationQuery, MAX_SYSTEM_BYTES, MAX_SYSTEM_PARAM, DEFAULTS } from '../../www/shared/url.js';

initSync({ module: readFileSync(new URL('../../www/pkg/tumble_wasm_bg.wasm', import.meta.url)) });
const CLI = fileURLToPath(new URL('../../target/release/tumble', import.meta.url));

const hashAfter = (text, integrator, dt, n) => {
  const s = new Simulation(text, integrator, dt, 0);
  assert.equal(s.step(n), n, `${text.slice(0, 40)} ${integrator}: ${s.last_error()}`);
  const h = s.state_hash();
  s.free();
  return h;
};

test('every preset exported as JSON runs with the same state hash as the preset (all three integrators)', () => {
  for (const p of presets()) {
    const text = p.name === 'chain' ? 'chain?links=5&joint=spherical&push=1' : p.name;
    const json = scenario_json(text);
    assert.match(json, /^\{\n {2}"gravity": /);
    for (const integrator of ['director', 'rattle', 'baumgarte']) {
      // the same step: a custom system has no per-integrator step advice (suitable_dt)
      const dt = integrator === 'rattle' && p.name === 'nk-spherical' ? 0.02 : 0;
      const dtJson = dt || new Simulation(text, integrator, 0, 0).dt();
      assert.equal(hashAfter(json, integrator, dtJson, 40), hashAfter(text, integrator, dtJson, 40), `${text} ${integrator}`);
    }
    // and the export of the export is the same text
    assert.equal(scenario_json(json), json, text);
  }
  // too large for the JSON form: a message, not a hang
  assert.throws(() => scenario_json('chain?links=4096'), /at most 1048576/);
});

test('the editor check names the field, the line and the column', () => {
  const good = scenario_json('nk-revolute');
  assert.deepEqual(check_scenario(good), { ok: true, canonical: canonical_scenario(good) });
  const lines = good.split('\n');
  const bodyLine = lines.findIndex((l) => l.includes('"mass"')) + 1;
  const cases = [
    [good.replace('"mass": 12', '"mass": "heavy"'), 'bodies[0].mass', bodyLine, /^bodies\[0\]\.mass must be a number, not the text "heavy" \(line/],
    [good.replace('"mass": 12', '"mass": -12'), 'bodies[0].mass', bodyLine, /must be/],
    [good.replace('"inertia": [9.25, 10, 1.25]', '"inertia": [9.25, 10, 30]'), 'bodies[0].inertia', bodyLine, /triangle/],
    [good.replace('"b": 1', '"b": 1, "hinge": 2'), 'joints[1].hinge', lines.findIndex((l) => l.includes('"b": 1')) + 1, /^joints\[1\]\.hinge is not a field here; the fields are type, a,/],
    [good.replace('"b": 1,', '"b": 0,'), 'joints[1]', lines.findIndex((l) => l.includes('"b": 1')) + 1, /itself/],
    [good.replace(/"dt": [^,]+,/, '"dt": 0,'), 'dt', 3, /between/],
    [good.replace(/\]\n\}\n$/, ''), 'joints', 0, /EOF/],
  ];
  for (const [text, path, line, re] of cases) {
    const r = check_scenario(text);
    assert.equal(r.ok, false, path);
    assert.equal(r.path, path, r.message);
    if (line) assert.equal(r.line, line, r.message);
    assert.ok(r.column >= 1, r.message);
    assert.match(r.message, re);
    assert.ok(r.message.includes(path) && r.message.includes(`line ${r.line}, column ${r.column}`), r.message);
  }
});

test('joint frames: 14 numbers a joint, as the scenario defines them', () => {
  const f = joint_frames('nk-revolute');
  assert.equal(f.length, 14 * 4);
  assert.deepEqual([...f.slice(14, 28)].map((x) => x + 0), [0, 0, 0, -1.5, 1, 0, 0, 1, 0, 0, 1.5, 1, 0, 0]);
  assert.equal(f[0], -1); // the ground
  assert.deepEqual([...joint_frames("top").slice(4, 7)].map((x) => x + 0), [0, 0, 0]); // spherical: no axis
});

let seed = 0x2545f491;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const pick = (a) => a[Math.floor(rnd() * a.length)];

test('system= codec: round-trips any text, links round-trip, the limit is stated', async () => {
  for (let i = 0; i < 60; i++) {
    const n = Math.floor(rnd() * 3000);
    let text = '';
    for (let k = 0; k < n; k++) text += String.fromCodePoint(pick([32 + Math.floor(rnd() * 90), 0xe9, 0x1f600, 10]));
    const v = await encodeSystem(text);
    assert.match(v, /^[A-Za-z0-9_-]*$/);
    assert.equal(await decodeSystem(v), text);
  }
  const json = canonical_scenario(scenario_json('chain?links=12'));
  const system = await encodeSystem(json);
  const settings = { ...DEFAULTS, system, integrator: 'director', dt: 0.005 };
  const q = buildQuery(settings, { embed: 1 });
  // the system in the fragment (never sent to a server), after every other parameter
  assert.ok(q.startsWith('?integrator=director&dt=0.005&embed=1#system=') && !q.includes('scenario='), q);
  const loc = { search: q.slice(0, q.indexOf('#')), hash: q.slice(q.indexOf('#')) };
  const back = parseQuery(locationQuery(loc));
  assert.equal(back.settings.dt, 0.005);
  // links of the last release, with ?system= in the query, still read
  assert.equal(parseQuery('?system=' + system + '&integrator=director').settings.system, system);
  assert.equal(back.error, null);
  assert.equal(back.settings.system, system);
  assert.equal(await decodeSystem(back.settings.system), json);
  // over the limit: a message with the size and the limit (random bytes do not compress)
  const noise = Array.from({ length: 30000 }, () => String.fromCharCode(33 + Math.floor(rnd() * 90))).join('');
  await assert.rejects(encodeSystem(noise), /links carry at most 16384 bytes/);
  const big = 'A'.repeat(MAX_SYSTEM_PARAM + 4);
  assert.match(parseQuery('?system=' + big).error, /at most 16384 bytes \(16 KB\)/);
  await assert.rejects(decodeSystem(big), /16 KB/);
});

test('system= codec: bad base64, damaged streams and a compression bomb each get a message, quickly', async () => {
  const good = await encodeSystem(scenario_json('top'));
  // deflate-raw of 8 MiB of spaces: under 16 KB compressed (encodeSystem itself refuses such a text)
  const packed = new Uint8Array(await new Response(new Blob([' '.repeat(8 << 20)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
  const bomb = btoa(String.fromCharCode(...packed)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  assert.ok(bomb.length < MAX_SYSTEM_PARAM);
  const t0 = performance.now();
  await assert.rejects(decodeSystem(bomb), /inflates to more than 1048576 bytes \(1 MiB\)/);
  assert.ok(performance.now() - t0 < 2000, 'the bomb was inflated too far');
  for (const [bad, re] of [['', /empty/], ['ab!d', /base64url/], ['abcde', /base64url/], ['AAAAAAAA', /does not inflate/], [good.slice(0, 4 * (good.length >> 3)), /does not inflate/], [good.slice(0, 4 * (good.length >> 3) + 1), /base64url/],
    [await encodeSystem('\u0000'.repeat(3)).then((v) => v), null]]) {
    if (!re) continue;
    await assert.rejects(decodeSystem(bad), re, bad.slice(0, 20));
    if (bad.length) assert.equal(parseQuery('?system=' + bad).error === null, /^[A-Za-z0-9_-]+$/.test(bad) && bad.length % 4 !== 1);
  }
  assert.match(parseQuery('?system=AAAA&scenario=top').error, /both/);
  // flipped bits and cuts of a good value: a message or text that the JSON check then rejects; never a throw of anything else, never a hang
  for (let i = 0; i < 300; i++) {
    const chars = [...good];
    const at = Math.floor(rnd() * chars.length);
    chars[at] = pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']);
    const v = rnd() < 0.3 ? chars.join('').slice(0, at + 1) : chars.join('');
    try {
      const text = await decodeSystem(v);
      const r = check_scenario(text);
      assert.ok(r.ok || (r.message.length > 0 && r.line >= 0), v);
    } catch (e) {
      assert.ok(e instanceof Error && /custom system in this link/.test(e.message), e.message);
    }
  }
});

test('hostile editor texts: a located message, never a throw or a hang', () => {
  const texts = [
    '', '{', '[]', '{"bodies": ' + '['.repeat(100000), '{"bodies": [' + '{"mass": 1, "inertia": [1, 1, 1]},'.repeat(5000) + ']}',
    '{"bodies": [{"mass": NaN, "inertia": [1, 1, 1]}]}', '{"bodies": [{"mass": 1e999, "inertia": [1, 1, 1]}]}',
    '{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": "spherical", "a": 0, "b": 0}]}',
    '{"bodies": [{"mass": 1, "inertia": [1, 1, 1], "position": [0, 0, ' + '1, '.repeat(100000) + '0]}]}',
    '{"bodies": {"mass": 1}}', '{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "dt": "0.01"}', '{"\\u0000": 1}', '{"bodies": [{"mass": 1, "inertia": [1, 1, 1], "mass": 2}]}',
    '{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": "spherical", "a": -1, "b": 0}]}',
    '{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}]} trailing', 'x'.repeat((1 << 20) + 10), '{' + ' '.repeat(1 << 20) + '}',
  ];
  for (let i = 0; i < 200; i++) texts.push(JSON.stringify({ bodies: [{ mass: pick([1, -1, 0, 1e10, 'x', null]), inertia: [1, pick([1, 3, 'a']), 1] }], joints: rnd() < 0.5 ? [{ type: pick(['spherical', 'revolute', 'weld']), a: pick([null, 0, 1]), b: pick([0, 1, 2]) }] : [] }).replace(/1/g, () => (rnd() < 0.05 ? '{' : '1')));
  const t0 = performance.now();
  for (const text of texts) {
    const r = check_scenario(text);
    assert.equal(typeof r.ok, 'boolean');
    if (!r.ok) assert.ok(r.message.length > 0 && r.line >= 0 && r.column >= 0, text.slice(0, 60));
  }
  assert.ok(performance.now() - t0 < 20000, `took ${performance.now() - t0} ms`);
  // the module still works
  assert.equal(check_scenario(scenario_json('top')).ok, true);
});

test('closed loops in the editor: one that cannot close is located at its joint with the gap; too many loops are refused; one that closes is accepted', () => {
  const body = (y) => ({ mass: 1, inertia: [1, 1, 1], position: [0, y, 0] });
  const sph = (a, b, pa, pb) => ({ type: 'spherical', a, b, point_a: pa, point_b: pb });
  // two bodies 1 m apart, jointed to each other and each to the ground
  const loop = (gap) => JSON.stringify({ bodies: [body(0), body(1)], joints: [sph(null, 0, [0, 0, 0], [0, 0, 0]), sph(0, 1, [0, 1, 0], [0, 0, 0]), sph(null, 1, [0, 1 + gap, 0], [0, 0, 0])] }, null, 1);
  const ok = check_scenario(loop(0));
  assert.equal(ok.ok, true, ok.message);
  const r = check_scenario(loop(0.25));
  assert.equal(r.ok, false);
  assert.match(r.message, /^joints\[2\] closes a loop between the ground and body 1, and the loop cannot close at the initial positions: its two points are 2\.500e-1 m apart/);
  const text = loop(0.25);
  assert.equal(text.split('\n')[r.line - 1].trim(), '{', 'the message is located at the joint');
  // 4096 bodies in a chain, each also jointed to the ground where it is: 4096 loops
  const many = { bodies: [], joints: [] };
  for (let i = 0; i < 4096; i++) {
    many.bodies.push(body(i));
    many.joints.push(i ? sph(i - 1, i, [0, 1, 0], [0, 0, 0]) : sph(null, 0, [0, 0, 0], [0, 0, 0]));
    if (i) many.joints.push(sph(null, i, [0, i, 0], [0, 0, 0]));
  }
  const t0 = performance.now();
  const m = check_scenario(JSON.stringify(many));
  assert.equal(m.ok, false);
  assert.match(m.message, /the joints close 4095 loops .* at most 64 are supported/);
  assert.ok(performance.now() - t0 < 5000, `took ${performance.now() - t0} ms`);
});

test('the command line runs a link (or its system= value) to the same state hash', { skip: !existsSync(CLI) && 'target/release/tumble not built (scripts/build.sh)' }, async () => {
  const json = scenario_json('chain?links=3&joint=spherical&push=2').replace('"mass": 12', '"mass": 7');
  const system = await encodeSystem(canonical_scenario(json));
  const link = 'http://127.0.0.1:8000/' + buildQuery({ ...DEFAULTS, system, integrator: 'director', dt: 0.005 });
  const want = hashAfter(json, 'director', 0.005, 100);
  for (const [arg, extra] of [[link, []], [system, ['--integrator', 'director', '--dt', '0.005']]]) {
    const out = JSON.parse(execFileSync(CLI, ['run', arg, '--duration', '0.5', '--every', '0.005'].concat(extra), { encoding: 'utf8' }));
    assert.equal(out.samples.length, 101);
    assert.equal(out.integrator, 'director');
    assert.equal(out.state_hash, want);
  }
  // a damaged link: a message on stderr and a failure status
  assert.throws(() => execFileSync(CLI, ['run', link.replace(system, system.slice(0, system.length >> 1))], { encoding: 'utf8', stdio: 'pipe' }), /does not inflate|damaged/);
});
