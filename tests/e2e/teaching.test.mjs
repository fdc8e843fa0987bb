// The page a teacher puts in front of a class: each test pins one item that was
// broken (the error panel's buttons, play after a scenario change, shortcuts after a menu,
// presets that run with every integrator, compare-mode failures, the embed title, exports of
// every run), and the time controls (scrubber, "run to t"), units and the screen-reader summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, skip, open, out, PHONE, axe, loaded } from './harness.mjs';

useBrowser();

const runTo = async (page, t) => {
  await page.fill('#run-to-t', String(t));
  await page.click('#run-to button[type=submit]');
  await page.waitForFunction((goal) => !window.tumble.playing() && window.tumble.time() >= goal - 1e-9, t, { timeout: 60000 });
};

test('a bad link shows its message without the failed-step buttons, and the URL keeps its step', { skip }, async () => {
  const { page, problems } = await open('?integrator=euler&dt=0.004');
  assert.match(await page.evaluate(() => window.tumble.error()), /Unknown integrator 'euler'/);
  assert.equal(await page.isVisible('#error-actions'), false, 'Reset / half-step buttons shown for a bad link');
  assert.equal(await page.isVisible('#error-halve'), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('after a failed step, picking another scenario plays it', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-spherical&integrator=rattle&dt=0.1');
  await page.waitForFunction(() => window.tumble.error() !== null, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => window.tumble.playing()), false);
  await page.selectOption('#scenario', 'top');
  // the top is loaded in the worker: until then time() is the failed run's (1.3 s), which is not playing
  await loaded(page);
  await page.waitForFunction(() => window.tumble.time() > 0.2, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.tumble.playing()), true);
  assert.equal(await page.evaluate(() => window.tumble.error()), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test('keyboard shortcuts work after picking from a menu or pressing a button', { skip }, async () => {
  const { page, problems } = await open('?scenario=top&integrator=director');
  await page.focus('#scenario');
  await page.selectOption('#scenario', 'nk-revolute');
  await page.waitForFunction(() => window.tumble.playing());
  await page.keyboard.press(' '); // pause, with the menu focused
  assert.equal(await page.evaluate(() => window.tumble.playing()), false);
  await page.evaluate(() => document.getElementById('reset').click());
  await loaded(page); // the reset loads in the worker
  const t0 = await page.evaluate(() => window.tumble.time());
  await page.focus('#scenario');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.evaluate(() => window.tumble.settled()); // the steps run in a worker
  assert.equal(await page.inputValue('#scenario'), 'nk-revolute', 'the right arrow changed the scenario');
  assert.ok(Math.abs((await page.evaluate(() => window.tumble.time())) - t0 - 0.02) < 1e-12, 'right arrow did not step');
  await page.focus('#compare');
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => window.tumble.playing()), true, 'space on a menu did not play');
  await page.focus('#step');
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => window.tumble.playing()), false, 'space on a button did not pause');
  // typing in a number field is left alone
  await page.focus('#dt');
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => window.tumble.playing()), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('nk-spherical runs with every integrator at its default step', { skip }, async () => {
  for (const integrator of ['rattle', 'baumgarte', 'director']) {
    const { page, problems } = await open(`?scenario=nk-spherical&integrator=${integrator}`);
    assert.equal(await page.evaluate(() => window.tumble.notice()), null, integrator);
    await runTo(page, 3);
    assert.equal(await page.evaluate(() => window.tumble.error()), null, integrator);
    assert.deepEqual(problems, [], integrator);
    await page.close();
  }
});

test('compare mode: the step is flagged before the failure, and one failure leaves the others running', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-spherical&integrator=director&compare=all');
  assert.match(await page.evaluate(() => window.tumble.notice()), /beyond what RATTLE .*and Baumgarte/);
  await page.waitForFunction(() => window.tumble.runs()[1][3] !== null, null, { timeout: 30000 });
  const msg = await page.evaluate(() => window.tumble.error());
  assert.match(msg, /^RATTLE stopped at t = 1\.3/);
  assert.match(msg, /director and Baumgarte keep running/);
  const failedAt = (await page.evaluate(() => window.tumble.runs()))[1][1];
  await page.waitForFunction((t) => window.tumble.runs()[0][1] > t + 1, failedAt, { timeout: 30000 });
  const runs = await page.evaluate(() => window.tumble.runs());
  assert.equal(runs[0][1], runs[2][1], 'director and Baumgarte at different times');
  assert.equal(runs[1][1], failedAt, 'the failed run moved on');
  assert.equal(await page.evaluate(() => window.tumble.playing()), true);
  // the notice's button gives every integrator a step that suits it
  await page.click('#notice-use');
  await loaded(page); // restarted (a load in the worker)
  assert.ok((await page.evaluate(() => window.tumble.runs()[0][1])) < 0.5, 'not restarted');
  assert.equal(await page.inputValue('#dt'), '0.01');
  assert.equal(await page.evaluate(() => window.tumble.notice()), null);
  await page.screenshot({ path: join(out, 'compare-failure.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the embed snippet keeps the scenario text and its description whole', { skip }, async () => {
  const { page, problems } = await open('?scenario=' + encodeURIComponent('chain?links=3&joint=spherical'));
  await page.evaluate(() => { navigator.clipboard.writeText = async (t) => { window.copied = t; }; });
  await page.click('#embed');
  const [src, title] = await page.evaluate(() => {
    const f = new DOMParser().parseFromString(window.copied, 'text/html').querySelector('iframe');
    return [f.getAttribute('src'), f.getAttribute('title')];
  });
  assert.equal(new URL(src).searchParams.get('scenario'), 'chain?links=3&joint=spherical');
  assert.equal(new URL(src).searchParams.get('embed'), '1');
  assert.match(title, /^Tumble: straight hanging chain of N boxes/);
  await page.selectOption('#scenario', 'free-body');
  await page.click('#embed');
  const title2 = await page.evaluate(() => new DOMParser().parseFromString(window.copied, 'text/html').querySelector('iframe').getAttribute('title'));
  assert.match(title2, /Terze, Mueller & Zlatar/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('exports hold every run, sampled every step, with the settings and the state hashes', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-revolute&integrator=director&compare=all');
  await page.click('#play'); // pause
  await page.click('#reset');
  await loaded(page); // the reset loads in the worker
  await runTo(page, 1);
  const hash = await page.evaluate(() => window.tumble.hash());
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const doc = JSON.parse(await readFile(await dl.path(), 'utf8'));
  assert.equal(doc.settings.scenario, 'nk-revolute');
  assert.deepEqual(doc.settings.integrators, ['director', 'rattle', 'baumgarte']);
  assert.equal(doc.settings.dt, 0.01);
  assert.equal(doc.sampling.every_steps, 1);
  assert.deepEqual(doc.runs.map((r) => r.integrator), ['director', 'rattle', 'baumgarte']);
  assert.equal(doc.runs[0].state_hash, hash);
  for (const r of doc.runs) {
    assert.equal(r.samples.length, 101, r.integrator);
    r.samples.forEach((s, k) => assert.ok(Math.abs(s.t - 0.01 * k) < 1e-12, `${r.integrator} sample ${k} at t = ${s.t}`));
    assert.equal(r.samples[100].state_hash, r.state_hash);
  }
  const e = doc.runs[0].samples.map((s) => s.energy);
  assert.ok(Math.max(...e.map((x) => Math.abs(x - e[0]) / Math.abs(e[0]))) < 1e-11, 'director energy drifts in the export');
  const [dl2] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const lines = (await readFile(await dl2.path(), 'utf8')).trim().split('\n');
  assert.equal(lines[0], 'integrator,t,energy,kinetic,potential,l1,l2,l3,internal_violation,joint_violation,iterations,residual,work,dissipated,balance,state_hash');
  assert.equal(lines.length, 1 + 3 * 101);
  assert.deepEqual(lines.slice(1, 4).map((l) => l.split(',')[0]), ['director', 'rattle', 'baumgarte']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the scrubber shows a stored moment: its hash equals a fresh run\'s at that time', { skip }, async () => {
  const query = '?scenario=' + encodeURIComponent('chain?links=3&joint=spherical') + '&integrator=rattle&compare=director';
  const fresh = await open(query);
  await fresh.page.click('#play');
  await fresh.page.click('#reset');
  await loaded(fresh.page); // the reset loads in the worker
  await runTo(fresh.page, 1);
  const want = await fresh.page.evaluate(() => window.tumble.hash());
  await fresh.page.close();

  const { page, problems } = await open(query);
  await page.click('#play');
  await page.click('#reset');
  await loaded(page); // the reset loads in the worker
  await page.fill('#run-to-t', '2.5');
  // the bar is read as the run starts (a short run can end before a later look)
  const bar = await page.evaluate(() => { document.querySelector('#run-to button[type=submit]').click(); return document.getElementById('run-progress').checkVisibility(); });
  assert.equal(bar, true, 'no progress bar while running to t');
  await page.waitForFunction(() => !window.tumble.playing(), null, { timeout: 60000 });
  assert.ok(Math.abs((await page.evaluate(() => window.tumble.time())) - 2.5) < 1e-9);
  assert.equal(await page.isVisible('#run-progress'), false);
  const live = await page.evaluate(() => window.tumble.hash());
  const cursor = () => page.evaluate(() => document.getElementById('charts').tumbleCharts.cursorT);
  assert.equal(await cursor(), null, 'a chart cursor on the live state');
  // drag the time bar to t = 1
  await page.evaluate(() => { const s = document.getElementById('scrub'); s.value = '1'; s.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction((h) => window.tumble.shownHash() === h, want, { timeout: 20000 }).catch(() => {}); // a round trip to the worker
  assert.equal(await page.evaluate(() => window.tumble.shownHash()), want);
  assert.match(await page.textContent('#readout'), /t = 1\.000 s[\s\S]*history/);
  assert.ok(Math.abs((await cursor()) - 1) < 1e-9, 'the chart cursor is not at the scrubbed time');
  await page.screenshot({ path: join(out, 'scrub.png') });
  // Live returns to the running state
  await page.click('#live');
  await page.waitForFunction((t) => window.tumble.time() > t, 2.5, { timeout: 20000 });
  await page.waitForFunction((h) => window.tumble.shownHash() !== h, want, { timeout: 20000 }); // shown ten times a second while playing
  assert.doesNotMatch(await page.textContent('#readout'), /history/);
  assert.notEqual(live, want);
  assert.deepEqual(problems, []);
  await page.close();
});

test('units on every number a teacher reads, and a quiet screen-reader summary', { skip }, async () => {
  const { page, problems } = await open('?scenario=top&integrator=rattle');
  await page.waitForFunction(() => window.tumble.time() > 0.3);
  const readout = await page.textContent('#readout');
  assert.match(readout, /t = [\d.]+ s +h = 0\.005 s/);
  assert.match(readout, /E = T \+ V = -?[\d.]+ J +\(T = [\d.e+-]+ J, V = -?[\d.e+-]+ J\)/);
  const labels = await page.$$eval('.controls label', (ls) => ls.map((l) => l.textContent.replace(/\s+/g, ' ').trim()));
  for (const want of ['spin (rad/s)', 'tilt (rad)', 'step h (s)', 'Baumgarte α (1/s)', 'β (1/s)']) assert.ok(labels.some((l) => l.startsWith(want)), `${want} in ${labels}`);
  assert.equal(await page.getAttribute('#readout', 'aria-hidden'), 'true');
  // the live region changes at most once in 3 s of playing (the readout changes every frame)
  const changes = await page.evaluate(() => new Promise((done) => {
    let n = 0;
    const m = new MutationObserver(() => n++);
    m.observe(document.getElementById('sr-summary'), { childList: true, characterData: true, subtree: true });
    setTimeout(() => { m.disconnect(); done(n); }, 3000);
  }));
  assert.ok(changes <= 1, `the live summary changed ${changes} times in 3 s`);
  await page.keyboard.press(' ');
  await page.waitForFunction(() => /paused/.test(document.getElementById('sr-summary').textContent), null, { timeout: 10000 });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('on a phone every control is a 44 px touch target and axe finds nothing serious', { skip }, async () => {
  const { page, problems } = await open('?scenario=nk-revolute&integrator=director&compare=rattle', PHONE);
  const small = await page.$$eval('button, select, input[type=number], input[type=range]', (els) => els
    .filter((e) => e.offsetParent !== null)
    .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect().height])
    .filter(([, h]) => h < 44));
  assert.deepEqual(small, []);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the phone`);
  assert.deepEqual(await axe(page), []);
  await page.screenshot({ path: join(out, 'phone-compare.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});
