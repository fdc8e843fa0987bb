// The flyball governor (IFToMM A05's data) on the page in headless Chromium: the three
// integrators side by side at the step that suits all three (2.5e-5 s, offered by the notice:
// RATTLE's and Baumgarte's spring-damper forces are explicit), both springs drawn, the
// arms swinging out, the director's balance error at round-off; axe-core clean.
// Screenshots: tests/out/governor-laptop.png, governor-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, loaded, axe, out, settle, pause, playUntil, PHONE } from './harness.mjs';
import { INV } from '../../www/shared/invariants.js';

useBrowser();

test('governor: three integrators at the step that suits all three, two springs, the arms swing out', { skip }, async () => {
  const { page, problems } = await open('?scenario=governor&integrator=director&compare=all');
  // (the page plays at once: the stored start, through the time bar)
  await pause(page);
  await page.evaluate(() => { const s = document.getElementById('scrub'); s.value = '0'; s.dispatchEvent(new Event('input')); });
  await page.waitForFunction(() => window.tumble.springs().lengths.every((l) => Math.abs(l - 0.5) < 1e-9), null, { timeout: 10000 });
  const springs = await page.evaluate(() => window.tumble.springs());
  assert.equal(springs.lengths.length, 2, 'two spring-dampers');
  // each drawn as a coil round a dashpot (the damper: an amber cylinder, a lead and a rod)
  const { COIL_FLOATS, DASH_FLOATS } = await page.evaluate(() => import('./view/render.js'));
  await settle(page);
  const drawn = await page.evaluate(() => window.tumble.springs());
  assert.equal(drawn.coilVerts, 2 * COIL_FLOATS / 6);
  assert.equal(drawn.dashVerts, 2 * DASH_FLOATS / 6);
  for (const l of springs.lengths) assert.ok(Math.abs(l - 0.5) < 1e-9, `spring length ${l} m at the start, 0.5 m at rest`);
  // compare mode shares one step: the director's 1e-3 s is beyond RATTLE's and Baumgarte's, and
  // the notice offers one that suits all three
  assert.match(await page.evaluate(() => window.tumble.notice()), /RATTLE .*and Baumgarte/);
  await page.click('#notice-use');
  await loaded(page);
  assert.equal(Number(await page.inputValue('#dt')), 2.5e-5);
  await playUntil(page, (goal) => window.tumble.time() > goal, 0.4);
  await settle(page);
  const later = await page.evaluate(() => window.tumble.springs());
  // the arms have swung out and lifted the sleeve; the stiff springs stay near their rest length
  for (const l of later.lengths) assert.ok(Math.abs(l - 0.5) < 1e-2, `spring length ${l} m at t > 0.4 s`);
  const runs = await page.evaluate(() => window.tumble.runs());
  assert.equal(runs.length, 3, 'director, RATTLE and Baumgarte');
  for (const [name, , , error] of runs) assert.ok(!error, `${name} failed: ${error}`);
  // the director's balance |E - E0 - W + D| (J), the last of the 14 invariants: each step's
  // Newton residual is held above the stiff springs' round-off (4 eps c |x|, about 3.5e-11), so
  // over the 16 000 steps of 0.4 s at 2.5e-5 s it adds up to a few 1e-9 J of the 49 J of E
  const balance = (await page.evaluate(() => window.tumble.invariants()))[INV.balance];
  assert.ok(Math.abs(balance) < 1e-8, `director balance ${balance} J`);
  await page.screenshot({ path: join(out, 'governor-laptop.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
});

test('governor on a phone: it runs and draws', { skip }, async () => {
  const { page, problems } = await open('?scenario=governor&integrator=director', PHONE);
  await playUntil(page, (goal) => window.tumble.time() > goal, 0.3);
  await settle(page);
  await page.screenshot({ path: join(out, 'governor-phone.png') });
  assert.deepEqual(problems, []);
});
