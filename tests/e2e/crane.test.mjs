// The crane (the distance driver) on the page in headless Chromium: the cylinder (a
// driven distance joint) drawn as a rod inside a magenta cylinder, the rope (a distance joint) as
// a rod; the cylinder's length follows its drive (0.5 m longer after the 2 s ramp), the rope keeps
// its 1.5 m; the three integrators side by side, the director's balance at round-off while the
// cylinder puts hundreds of joules in; axe-core clean.
// The embed draws them the same way. Screenshots: tests/out/crane-laptop.png, crane-phone.png,
// crane-iframe.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, settle, pause, playUntil, PHONE, IFRAME } from './harness.mjs';
import { INV } from '../../www/shared/invariants.js';

useBrowser();

const play = (page) => page.evaluate(() => { if (!window.tumble.playing()) document.getElementById('play').click(); });

test('crane: the cylinder extends as driven, the rope holds, both drawn as rods', { skip }, async () => {
  const { page, problems } = await open('?scenario=crane&integrator=director&compare=all');
  await pause(page);
  await page.evaluate(() => { const s = document.getElementById('scrub'); s.value = '0'; s.dispatchEvent(new Event('input')); });
  // the scrub lands when the engine replies: until then springs() is the live state (a few steps on)
  await page.waitForFunction(() => window.tumble.scrubGhosts() !== null && window.tumble.springs().lengths.length === 2, null, { timeout: 10000 });
  const start = await page.evaluate(() => window.tumble.springs());
  const [cylinder0, rope0] = start.lengths;
  assert.ok(Math.abs(rope0 - 1.5) < 1e-12, `rope ${rope0} m`);
  // the cylinder's start length: from (0, 0.8, -0.5) to 1.2 m along the boom at 0.3 rad
  const want0 = Math.hypot(1.2 * Math.cos(0.3) - 0.8, 1.2 * Math.sin(0.3) + 0.5);
  assert.ok(Math.abs(cylinder0 - want0) < 1e-12, `cylinder ${cylinder0} m, geometry ${want0} m`);
  await play(page);
  await playUntil(page, (goal) => window.tumble.time() > goal, 2.5);
  await settle(page);
  const later = await page.evaluate(() => window.tumble.springs());
  assert.ok(Math.abs(later.lengths[0] - (want0 + 0.5)) < 1e-9, `cylinder ${later.lengths[0]} m after the stroke, ${want0 + 0.5} m prescribed`);
  assert.ok(Math.abs(later.lengths[1] - 1.5) < 1e-9, `rope ${later.lengths[1]} m`);
  // a rod is one line; the driven one a line and a cylinder; no coil, no damper
  const { DASH_FLOATS } = await page.evaluate(() => import('./view/render.js'));
  assert.equal(later.rodVerts, 2 + 2 + DASH_FLOATS / 6);
  assert.equal(later.coilVerts, 0);
  const runs = await page.evaluate(() => window.tumble.runs());
  assert.equal(runs.length, 3, 'director, RATTLE and Baumgarte');
  for (const [name, , , error] of runs) assert.ok(!error, `${name} failed: ${error}`);
  const inv = await page.evaluate(() => window.tumble.invariants());
  // [.., work W (J) at 11, .., balance at 13]: the boom and the load lifted (hundreds of J)
  assert.ok(inv[INV.work] > 400, `W = ${inv[INV.work]} J`);
  assert.ok(Math.abs(inv[INV.balance]) < 1e-9, `director balance ${inv[INV.balance]} J`);
  // the risen boom and the swinging load stay in the view the start framed
  const { view: [l, t, r, b], shown: [x0, y0, x1, y1] } = await page.evaluate(() => window.tumble.framing());
  assert.ok(x0 > l && y0 > t && x1 < r && y1 < b, `drawn ${[x0, y0, x1, y1]} in the view ${[l, t, r, b]}`);
  await page.screenshot({ path: join(out, 'crane-laptop.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
});

test('crane at phone size: it runs and draws', { skip }, async () => {
  const { page, problems } = await open('?scenario=crane&integrator=director', PHONE);
  await play(page);
  await playUntil(page, (goal) => window.tumble.time() > goal, 2.2);
  await settle(page);
  await page.screenshot({ path: join(out, 'crane-phone.png') });
  assert.deepEqual(problems, []);
});

test('crane in an iframe-sized embed: the view and its chart play', { skip }, async () => {
  const { page, problems } = await open('?embed=1&scenario=crane&integrator=director&charts=budget&autoplay', { viewport: IFRAME });
  await page.waitForFunction(() => window.tumble.time() > 2.2, null, { timeout: 60000 });
  await page.evaluate(() => window.tumble.element.pause());
  await settle(page);
  // the element draws the rods as the page does (not as springs' coils)
  const { DASH_FLOATS } = await page.evaluate(() => import('./view/render.js'));
  const drawn = await page.evaluate(() => { const r = window.tumble.element.player.renderer; return { rods: r.rodVerts, coils: r.coilVerts }; });
  assert.deepEqual(drawn, { rods: 2 + 2 + DASH_FLOATS / 6, coils: 0 });
  await page.screenshot({ path: join(out, 'crane-iframe.png') });
  assert.deepEqual(problems, []);
});
