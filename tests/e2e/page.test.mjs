// The real page in headless Chromium (Debian's, driven by playwright-core): it loads without
// errors, draws, charts while playing, reproduces a shared link, and explains bad links.
// Screenshots go to tests/out/ (git-ignored).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, skip, open, inked, out, PHONE, loaded, settle } from './harness.mjs';

const ctx = useBrowser();

test('the default page draws the free body and its charts grow while playing', { skip }, async () => {
  const { page, problems } = await open();
  await page.waitForFunction(() => window.tumble.chartPoints() > 20, null, { timeout: 30000 });
  const p1 = await page.evaluate(() => window.tumble.chartPoints());
  await page.waitForFunction((n) => window.tumble.chartPoints() > n, p1, { timeout: 30000 }).catch(() => {});
  const p2 = await page.evaluate(() => window.tumble.chartPoints());
  assert.ok(p2 > p1, `chart points ${p1} -> ${p2}`);
  const ink = await inked(page);
  assert.ok(ink > 0.02, `canvas nearly blank: ${ink}`);
  assert.equal(await page.evaluate(() => window.tumble.error()), null);
  // the readout (time, rate) is in sight without scrolling, and the legends show the newest values
  const readout = await page.evaluate(() => { const r = document.getElementById('readout'); return [r.getBoundingClientRect().bottom, innerHeight, r.textContent]; });
  assert.ok(readout[0] <= readout[1], `readout below the fold: ${readout[0]} > ${readout[1]}`);
  assert.match(readout[2], /t = \d+\.\d{3} s[\s\S]*steps\/s/);
  const legend = await page.$$eval('#charts .u-legend td', (tds) => tds.map((td) => td.textContent));
  assert.ok(legend.length >= 6 && legend.every((v) => v !== '-'), `legend values: ${legend}`);
  await page.screenshot({ path: join(out, 'main.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('every preset loads and draws', { skip }, async () => {
  const { page, problems } = await open();
  const names = await page.$$eval('#scenario option', (os) => os.map((o) => o.value));
  assert.ok(names.length >= 6);
  for (const name of names) {
    await page.selectOption('#scenario', name);
    await loaded(page); // the new run is loaded in the worker
    // (and drawn: the first frames after a load may still be to come under load, a blank
    // canvas read too early; each preset is given a few frames to ink it)
    let ink = 0;
    for (let k = 0; k < 30 && ink <= 0.01; k++) {
      await settle(page);
      ink = await inked(page);
    }
    assert.ok(ink > 0.01, `${name}: canvas blank`);
    assert.equal(await page.evaluate(() => window.tumble.error()), null, name);
  }
  await page.selectOption('#scenario', 'nk-revolute');
  await page.check('#trails');
  await page.waitForTimeout(3000);
  await page.screenshot({ path: join(out, 'chain.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a copied link reproduces the run: same energy and state at the same time', { skip }, async () => {
  const query = '?scenario=' + encodeURIComponent('chain?links=3&joint=spherical') + '&integrator=rattle&dt=0.01';
  const read = async () => {
    const { page } = await open(query);
    await page.evaluate(() => document.getElementById('play').click()); // pause
    await page.evaluate(() => document.getElementById('reset').click());
    for (let i = 0; i < 50; i++) await page.keyboard.press('ArrowRight');
    await page.evaluate(() => window.tumble.settled()); // the steps run in a worker
    const r = await page.evaluate(() => [window.tumble.time(), window.tumble.energy(), window.tumble.hash()]);
    await page.waitForFunction((h) => document.getElementById('hash').textContent === h, r[2], { timeout: 20000 }); // shown beside the link
    await page.close();
    return r;
  };
  const a = await read();
  const b = await read();
  assert.ok(Math.abs(a[0] - 0.5) < 1e-12, `t = ${a[0]}`);
  assert.deepEqual(a, b);
});

test('bad links and failures show the error panel, never an exception', { skip }, async () => {
  for (const query of ['?scenario=chain%3Flinks%3D0', '?scenario=chain?links=0', '?integrator=euler', '?dt=banana', '?scenario=%3Cscript%3Ealert(1)%3C%2Fscript%3E', '?scenario=' + 'x'.repeat(4000)]) {
    const { page, problems } = await open(query);
    const msg = await page.evaluate(() => window.tumble.error());
    assert.ok(msg && msg.length > 10, `${query.slice(0, 50)}: no error shown`);
    assert.equal(await page.$$eval('#error script, #error-text *', (e) => e.length), 0, 'error text holds markup');
    assert.deepEqual(problems, [], query.slice(0, 50));
    await page.close();
  }
  // a failed step (RATTLE at the paper's h = 0.1 on nk-spherical stops at t = 1.3 s) offers
  // to continue from the last good state with half the step, which then runs on
  const { page, problems } = await open('?scenario=nk-spherical&integrator=rattle&dt=0.1');
  await page.waitForFunction(() => window.tumble.error() !== null, null, { timeout: 30000 });
  assert.match(await page.evaluate(() => window.tumble.error()), /stopped at t = 1\.3/);
  assert.equal(await page.evaluate(() => window.tumble.playing()), false);
  assert.equal(await page.isVisible('#error-halve'), true);
  const t = await page.evaluate(() => window.tumble.time());
  await page.click('#error-halve');
  await page.waitForFunction(() => window.tumble.error() === null, null, { timeout: 20000 }); // a round trip to the worker
  assert.equal(await page.inputValue('#dt'), '0.05');
  await page.waitForFunction((t0) => window.tumble.time() > t0 + 0.5, t, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.tumble.error()), null, 'the halved step failed');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the invariant history exports as CSV', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-revolute&integrator=director');
  await page.waitForFunction(() => window.tumble.time() > 0.1, null, { timeout: 30000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = await readFile(await download.path(), 'utf8');
  const lines = text.trim().split('\n');
  assert.equal(lines[0], 'integrator,t,energy,kinetic,potential,l1,l2,l3,internal_violation,joint_violation,iterations,residual,work,dissipated,balance,state_hash');
  assert.ok(lines.length > 10);
  assert.ok(lines.slice(1).every((l) => l.startsWith('director,') && /,[0-9a-f]{16}$/.test(l)));
  const e = lines.slice(1).map((l) => Number(l.split(',')[2]));
  assert.ok(e.every(Number.isFinite));
  assert.ok(Math.abs(e[e.length - 1] - e[0]) / Math.abs(e[0]) < 1e-9, 'director energy drifts in the export');
  assert.deepEqual(problems, []);
  await page.close();
});

test('two integrators side by side from the compare menu', { skip }, async () => {
  const { page, problems } = await open('?scenario=top&integrator=rattle');
  await page.selectOption('#compare', 'director');
  await page.waitForFunction(() => window.tumble.runs().length === 2 && window.tumble.chartPoints() > 5, null, { timeout: 30000 });
  assert.deepEqual((await page.evaluate(() => window.tumble.runs())).map((r) => r[0]), ['rattle', 'director']);
  assert.match(page.url(), /compare=director/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('three integrators run side by side on the same scenario and step', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-revolute&integrator=director&compare=all');
  await page.waitForFunction(() => window.tumble.chartPoints() > 20, null, { timeout: 60000 });
  const runs = await page.evaluate(() => window.tumble.runs());
  assert.deepEqual(runs.map((r) => r[0]), ['director', 'rattle', 'baumgarte']);
  assert.ok(runs.every((r) => r[1] === runs[0][1]), `runs at different times: ${JSON.stringify(runs)}`);
  const legend = await page.$$eval('#charts .u-legend', (ls) => ls[0].textContent);
  for (const name of ['director', 'rattle', 'baumgarte']) assert.ok(legend.toLowerCase().includes(name), legend); // the legend says RATTLE, Baumgarte as the menu does
  assert.equal(await page.inputValue('#compare'), 'all');
  assert.ok((await inked(page)) > 0.02);
  await page.screenshot({ path: join(out, 'compare.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('readable on a phone: no sideways scrolling, view and charts stacked', { skip }, async () => {
  const page = await ctx.browser.newPage(PHONE);
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(ctx.base + '?scenario=chain%3Flinks%3D6');
  await page.waitForFunction(() => window.tumble !== undefined && window.tumble.chartPoints() > 5, null, { timeout: 30000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the phone`);
  const [view, charts] = await page.evaluate(() => ['.view', '#charts'].map((s) => document.querySelector(s).getBoundingClientRect().top));
  assert.ok(charts > view + 200, 'charts are not below the view');
  await page.screenshot({ path: join(out, 'phone.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('without Web Workers the page steps on its own thread and still answers', { skip, timeout: 60000 }, async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 860 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.addInitScript(() => { delete window.Worker; });
  await page.goto(ctx.base + '?scenario=' + encodeURIComponent('chain?links=64') + '&integrator=director');
  await page.waitForFunction(() => window.tumble !== undefined, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.tumble.engine()), 'LocalEngine');
  await page.waitForFunction(() => window.tumble.time() > 0.3, null, { timeout: 20000 });
  // frames keep coming while it steps as fast as it can (no back-to-back stepping that starves the page)
  await page.selectOption('#speed', '0');
  await page.waitForTimeout(300);
  const frames = await page.evaluate(() => new Promise((done) => { let n = 0; const t0 = performance.now(); const f = () => (++n, performance.now() - t0 < 1000 ? requestAnimationFrame(f) : done(n)); requestAnimationFrame(f); }));
  assert.ok(frames >= 3, `${frames} frames in a second`);
  await page.click('#play');
  assert.equal(await page.evaluate(() => window.tumble.playing()), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('two changes within one load: the menus and the run agree on the newer settings', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-revolute&integrator=rattle');
  await loaded(page);
  // the integrator, then the compare menu, in one task: the second load replaces the first
  // before the worker has answered it (the first used to put the old integrator back)
  await page.evaluate(() => {
    const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event('change', { bubbles: true })); };
    set('integrator', 'director');
    set('compare', 'baumgarte');
  });
  await loaded(page);
  await page.waitForFunction(() => window.tumble.runs().length === 2, null, { timeout: 20000 });
  assert.deepEqual((await page.evaluate(() => window.tumble.runs())).map((r) => r[0]), ['director', 'baumgarte']);
  assert.equal(await page.inputValue('#integrator'), 'director');
  assert.equal(await page.inputValue('#compare'), 'baumgarte');
  assert.match(await page.evaluate(() => location.search), /integrator=director/);
  assert.equal(await page.evaluate(() => window.tumble.error()), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a step longer than a quarter second runs at real time and at 1/4, one step per step of wall time', { skip, timeout: 60000 }, async () => {
  for (const q of ['free-body&dt=0.3', 'bouncing-ball&dt=1']) {
    const { page, problems } = await open('?scenario=' + q);
    await loaded(page);
    const h = Number(await page.inputValue('#dt'));
    // real time: within 2.5 h of wall time the run has stepped, and never ahead of the clock
    // (performance.now() counts from the page's opening)
    await page.waitForFunction(() => window.tumble.time() > 0, null, { timeout: 2500 * h });
    const [t, wall] = await page.evaluate(() => [window.tumble.time(), performance.now() / 1000]);
    assert.ok(t <= wall + 1e-9, `${q}: t = ${t} s after ${wall} s of wall time`);
    // 1/4: a step every 4 h of wall time
    await page.selectOption('#speed', '0.25');
    const s0 = await page.evaluate(() => window.tumble.time());
    await page.waitForFunction((s) => window.tumble.time() > s, s0, { timeout: 10000 * h });
    assert.ok(await page.evaluate(() => window.tumble.playing()), 'still playing');
    assert.deepEqual(problems, []);
    await page.close();
  }
});
