// The scenario editor and links that carry custom systems, in headless Chromium:
// edit a preset as JSON and apply it; an invalid edit is marked at its line and the last system
// keeps running; the editor's link opens the same run elsewhere (and in the command line);
// damaged and oversize system= links explain themselves; axe-core finds nothing serious.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { useBrowser, skip, open, out, root, LAPTOP, loaded } from './harness.mjs';

const ctx = useBrowser();
const CLI = join(root, 'target', 'release', 'tumble');

/** Replace the editor's whole text as a user would (select all, type). */
async function typeText(page, text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

/** The editor's text (CodeMirror draws the lines in view: all of them for these short systems). */
const editorText = (page) => page.$eval('.cm-content', (e) => [...e.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));

/** Pause, reset and take `n` single steps; the state hash and time after them. */
async function stepHash(page, n) {
  await page.evaluate(() => { document.activeElement?.blur(); document.getElementById('play').click(); });
  if (await page.evaluate(() => window.tumble.playing())) await page.evaluate(() => document.getElementById('play').click());
  await page.evaluate(() => document.getElementById('reset').click());
  await loaded(page); // the reset loads in the worker
  for (let i = 0; i < n; i++) await page.keyboard.press('ArrowRight');
  await page.evaluate(() => window.tumble.settled());
  return page.evaluate(() => [window.tumble.time(), window.tumble.hash()]);
}

let shared = null; // the link made by the first test, for the next

test('edit a preset as JSON: a new mass runs; an invalid edit is marked and the last system keeps running', { skip }, async () => {
  // under the page's own Content-Security-Policy (the harness bypasses it elsewhere): the import map's hash must match
  const page = await ctx.browser.newPage({ viewport: LAPTOP });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(ctx.base + '?scenario=nk-revolute&integrator=rattle');
  await page.waitForFunction(() => window.tumble !== undefined, null, { timeout: 20000 });
  await page.click('#edit-json');
  await page.waitForSelector('.cm-content .cm-line', { timeout: 30000 }); // editor.js and CodeMirror load on first use
  assert.equal(await page.getAttribute('#edit-json', 'aria-expanded'), 'true');
  const text = await editorText(page);
  assert.match(text, /^\{\n {2}"gravity": \[/);
  assert.equal((text.match(/"mass": 12,/g) ?? []).length, 4, text);
  assert.ok(await page.$('.cm-gutter.cm-lineNumbers'), 'no line numbers');
  const energy0 = await page.evaluate(() => window.tumble.energy());

  // change the first body's mass, Apply: the run restarts with the new system
  await typeText(page, text.replace('"mass": 12,', '"mass": 20,'));
  await page.click('#editor-apply');
  await page.waitForFunction(() => window.tumble.scenario().startsWith('{'), null, { timeout: 10000 });
  assert.match(await page.evaluate(() => window.tumble.scenario()), /"mass":20\.0,/);
  await page.waitForFunction(() => /^Applied/.test(document.getElementById('editor-status').textContent), null, { timeout: 10000 });
  assert.equal(await page.$eval('#scenario', (s) => s.value), 'custom');
  await page.waitForFunction(() => window.tumble.playing() && window.tumble.time() > 0.2, null, { timeout: 10000 });
  const e1 = await page.evaluate(() => window.tumble.runs()[0]);
  assert.ok(e1[1] < 5, `the run did not restart: t = ${e1[1]}`);
  // V = sum M g z: a heavier top link lowers the potential energy at the start
  const inv0 = await page.evaluate(() => window.tumble.energy());
  assert.notEqual(inv0, energy0);

  // an invalid edit: field, line and column beside the editor, a mark in the gutter, the system keeps running
  const applied = await page.evaluate(() => window.tumble.scenario());
  const good = await editorText(page);
  const line = good.split('\n').findIndex((l) => l.includes('"mass": 20')) + 1;
  await typeText(page, good.replace('"mass": 20,', '"mass": "heavy",'));
  await page.click('#editor-apply');
  const status = await page.textContent('#editor-status');
  assert.match(status, new RegExp(`bodies\\[0\\]\\.mass must be a number, not the text "heavy" \\(line ${line}, column \\d+\\)\\. The last valid system keeps running\\.`));
  assert.match(status, /last valid system keeps running/);
  await page.waitForSelector('.cm-lint-marker-error', { timeout: 5000 });
  const marked = await page.$$eval('.cm-gutter-lint .cm-gutterElement', (els) => els.findIndex((e) => e.querySelector('.cm-lint-marker-error')));
  assert.ok(marked >= 0);
  assert.equal(await page.evaluate(() => window.tumble.scenario()), applied);
  const t1 = await page.evaluate(() => window.tumble.time());
  await page.waitForFunction((t) => window.tumble.time() > t, t1, { timeout: 20000 }).catch(() => {});
  assert.ok(await page.evaluate((t) => window.tumble.playing() && window.tumble.time() > t, t1), 'the last valid system stopped');
  // a body attached to itself: the joint named
  await typeText(page, good.replace('"b": 1,', '"b": 0,'));
  await page.click('#editor-apply');
  assert.match(await page.textContent('#editor-status'), /joints\[1\] connects body 0 to itself \(line \d+, column \d+\)/);

  // the screenshot: the editor with its error, the schema open, the joint axes on
  await page.check('#joint-axes');
  await page.click('#editor-schema summary');
  await page.screenshot({ path: join(out, 'editor.png'), fullPage: true });
  assert.deepEqual(await axeUnderCsp(page), []);

  // the link of the applied system
  await typeText(page, good);
  await page.click('#editor-apply');
  await page.waitForFunction((a) => window.tumble.scenario() === a && /^Applied/.test(document.getElementById('editor-status').textContent), applied);
  shared = await page.evaluate(() => window.tumble.link());
  assert.match(shared, /\?integrator=rattle#system=[A-Za-z0-9_-]+$/);
  shared = { link: shared, hash: await stepHash(page, 50) };
  assert.deepEqual(problems, []);
  await page.close();
});

test('the link opens the same system elsewhere: same state hash after the same steps, in the page and the command line', { skip }, async () => {
  assert.ok(shared, 'the first test made no link');
  const { page, problems } = await open(shared.link.slice(ctx.base.length));
  assert.equal(await page.evaluate(() => window.tumble.error()), null);
  assert.match(await page.evaluate(() => window.tumble.scenario()), /"mass":20\.0,/);
  const [t, hash] = await stepHash(page, 50);
  assert.ok(Math.abs(t - 0.5) < 1e-12, `t = ${t}`);
  assert.deepEqual([t, hash], shared.hash);
  // opened in the editor, the system from the link is there, one body a line
  await page.click('#edit-json');
  await page.waitForSelector('.cm-content .cm-line');
  assert.match(await editorText(page), /\n {4}\{ "mass": 20, /);
  assert.deepEqual(problems, []);
  await page.close();
  if (existsSync(CLI)) {
    const run = JSON.parse(execFileSync(CLI, ['run', shared.link, '--duration', '0.5', '--every', '0.5'], { encoding: 'utf8' }));
    assert.equal(run.integrator, 'rattle');
    assert.equal(run.state_hash, hash, 'the command line ran the link to another state');
  }
});

test('a system that stops at its first step: the editor says it stopped, and why', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-revolute&integrator=director');
  await page.click('#edit-json');
  await page.waitForSelector('.cm-content .cm-line', { timeout: 30000 });
  // a 1e12 N m motor on a pendulum: the step is far too large for the motion it drives
  await typeText(page, JSON.stringify({
    bodies: [{ mass: 2, inertia: [1, 1, 1], position: [0, 0, -1] }],
    joints: [{ type: 'revolute', b: 0, point_b: [0, 0, 1] }],
    forces: [{ type: 'motor', joint: 0, torque: 1e12 }],
  }, null, 1));
  await page.click('#editor-apply');
  await page.waitForFunction(() => /^Applied, but/.test(document.getElementById('editor-status').textContent), null, { timeout: 20000 });
  const status = await page.textContent('#editor-status');
  assert.match(status, /^Applied, but the run stopped at t = 0\.0000 s: the step is too large for the motion: .*; try a smaller time step h\. Change the system .* and Apply again\.$/);
  assert.doesNotMatch(status, /redundant|degenerate/);
  assert.equal(await page.$eval('#editor-status', (e) => e.classList.contains('bad')), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('system= links that are too large, damaged or invalid say so; nothing throws', { skip }, async () => {
  const valid = shared?.link.match(/system=([^&]+)/)[1] ?? 'q1ZKyk_JTC1WsoquVspNLC5WsjLUUcrMSy0qyUxUsoo21DHUMYytja0FAA';
  const cases = [
    ['?system=' + 'A'.repeat(22000), /at most 16384 bytes \(16 KB\)/],
    ['?system=' + valid.slice(0, 4 * (valid.length >> 3)), /damaged: its compressed data does not inflate/],
    ['?system=abc!def', /not base64url/],
    ['?system=q1ZKyk_JTC1WsoquVspNLC5WsjLUUcrMSy0qyUxUsoo21DHUMYytja0FAA&scenario=top', /both/],
    // {"bodies":[{"mass":1,"inertia":[1,1,1]}],"joints":[{"type":"spherical","a":0,"b":0}]} : a body attached to itself
    ['?system=' + await deflate('{"bodies":[{"mass":1,"inertia":[1,1,1]}],\n"joints":[{"type":"spherical","a":0,"b":0}]}'), /not valid: joints\[0\] connects body 0 to itself \(line 2, column 11\)/],
    ['?system=' + await deflate('{"bodies":[{"mass":NaN}]}'), /not valid: bodies\[0\]\.mass: NaN is not a number JSON allows \(it has no NaN or Infinity; write a finite number\) \(line 1, column 20\)\./],
    // an element's field inside a tagged element (a force), and Rust's type names nowhere
    ['?system=' + await deflate('{"bodies":[{"mass":1,"inertia":[1,1,1]}],"joints":[{"type":"revolute","b":0}],\n"forces":[{"type":"motor","joint":-1,"torque":1}]}'), /not valid: forces\[0\]\.joint must be a joint number, 0 or more, not -1 \(line 2, column 27\)\./],
  ];
  for (const [query, re] of cases) {
    // the test server (Node's http, 16 KB of headers) refuses the longest: the page is served here
    const { page, problems } = query.length > 8000 ? await openLong(query) : await open(query);
    const msg = await page.evaluate(() => window.tumble.error());
    assert.match(msg ?? '', re, query.slice(0, 60));
    assert.match(msg, /[^.][.?!] The default scene is shown instead\.$/); // two sentences, never run together
    assert.doesNotMatch(msg, /usize|f64|variant|expected value/);
    assert.deepEqual(problems, [], query.slice(0, 60));
    await page.close();
  }
});

async function deflate(text) {
  const packed = new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
  return btoa(String.fromCharCode(...packed)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function openLong(query) {
  const page = await ctx.browser.newPage({ bypassCSP: true, viewport: LAPTOP });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.route((url) => url.search.length > 8000, (route) => route.fulfill({ path: join(root, 'www', 'index.html'), contentType: 'text/html' }));
  await page.goto(ctx.base + query);
  await page.waitForFunction(() => window.tumble !== undefined, null, { timeout: 20000 });
  return { page, problems };
}

/** harness.axe() on a page that keeps its Content-Security-Policy: axe-core (node_modules, pinned)
 * served from the page's own origin rather than inlined. */
async function axeUnderCsp(page) {
  await page.route('**/__axe.min.js', (r) => r.fulfill({ path: join(root, 'node_modules', 'axe-core', 'axe.min.js'), contentType: 'text/javascript' }));
  await page.addScriptTag({ url: ctx.base + '__axe.min.js' });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

test('a system that cannot start is not applied: the message is placed in the text and says whether the last system runs or is paused', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-revolute&integrator=rattle');
  await loaded(page);
  await page.click('#edit-json');
  await page.waitForSelector('.cm-content .cm-line', { timeout: 30000 });
  // two balls 90 % inside each other: valid JSON, refused when the run is built
  const ball = (x) => `{"mass": 1, "inertia": [0.004, 0.004, 0.004], "position": [${x}, 0, 0], "shapes": [{"type": "sphere", "radius": 0.1}]}`;
  const text = `{\n  "gravity": [0, 0, -9.81],\n  "bodies": [\n    ${ball(0)},\n    ${ball(0.02)}\n  ]\n}`;
  const running = await page.evaluate(() => window.tumble.scenario());
  for (const playing of [true, false]) {
    if (await page.evaluate(() => window.tumble.playing()) !== playing) await page.evaluate(() => document.getElementById('play').click());
    await typeText(page, text);
    await page.click('#editor-apply');
    const kept = playing ? 'The last valid system keeps running.' : 'The last valid system is kept, paused.';
    await page.waitForFunction((k) => document.getElementById('editor-status').textContent.endsWith(k), kept, { timeout: 10000 }).catch(() => {});
    const status = await page.textContent('#editor-status');
    assert.match(status, /spheres of bodies 0 and 1 start [\d.e-]+ m inside each other.*\(line 5, column 5\)\./, status);
    assert.ok(status.startsWith('Not applied') && status.endsWith(kept), status);
    await page.waitForSelector('.cm-lint-marker-error', { timeout: 5000 });
    assert.equal(await page.evaluate(() => window.tumble.scenario()), running);
    assert.equal(await page.evaluate(() => window.tumble.playing()), playing);
    const t = await page.evaluate(() => window.tumble.time());
    if (playing) await page.waitForFunction((t0) => window.tumble.time() > t0, t, { timeout: 10000 });
  }
  assert.deepEqual(problems.filter((p) => !/inside each other/.test(p)), []);
  await page.close();
});
