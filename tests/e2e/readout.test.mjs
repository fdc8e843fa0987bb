// The readout beside the view, in headless Chromium: on a phone it sits below the view and covers
// none of it (it hid the cradle's balls, about 35 % of the view); on a laptop a button folds it
// away, by keyboard too, and the page keeps the choice for the next visit. axe-core clean.
// Screenshots: tests/out/readout-phone.png, readout-laptop-open.png, readout-laptop-folded.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, settle, loaded, PHONE } from './harness.mjs';

useBrowser();

/** The readout box's and the view's rectangles, the bodies' drawn bounds, and the share of the view the box covers. */
const layout = (page) => page.evaluate(() => {
  const r = document.getElementById('readout-box').getBoundingClientRect(), v = document.getElementById('canvas').getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, v.right) - Math.max(r.left, v.left)), h = Math.max(0, Math.min(r.bottom, v.bottom) - Math.max(r.top, v.top));
  return { box: [r.left, r.top, r.right, r.bottom], view: [v.left, v.top, v.right, v.bottom], bodies: window.tumble.framing().shown, covered: (w * h) / (v.width * v.height) };
});

test("phone: the readout is below the view and covers none of the cradle's balls", { skip }, async () => {
  const { page, problems } = await open('?scenario=newtons-cradle&integrator=director', PHONE);
  await loaded(page);
  await page.waitForFunction(() => window.tumble.time() > 0.2);
  await settle(page);
  const l = await layout(page);
  assert.equal(l.covered, 0, `the readout covers ${(100 * l.covered).toFixed(1)} % of the view (${JSON.stringify(l)})`);
  assert.ok(l.box[1] >= l.view[3], `the readout (top ${l.box[1]} px) is below the view (bottom ${l.view[3]} px)`);
  // the bodies are drawn inside the view, whose whole area is free
  const [x0, y0, x1, y1] = l.bodies;
  assert.ok(x0 > l.view[0] && y0 > l.view[1] && x1 < l.view[2] && y1 < l.view[3], `bodies at ${l.bodies}, view ${l.view}`);
  assert.match(await page.textContent('#readout'), /t = [0-9.]+ s/);
  await page.screenshot({ path: join(out, 'readout-phone.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
  await page.close();
});

test('laptop: the readout folds by keyboard, stays folded on the next visit, and unfolds', { skip }, async () => {
  const { page, problems } = await open('?scenario=newtons-cradle&integrator=director');
  await loaded(page);
  await settle(page);
  const before = await layout(page);
  assert.ok(before.covered > 0.05, `the open readout covers ${(100 * before.covered).toFixed(1)} % of the view`);
  await page.screenshot({ path: join(out, 'readout-laptop-open.png') });
  // by keyboard: Tab to the button, Enter
  await page.focus('#readout-fold');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'readout-fold');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await page.getAttribute('#readout-fold', 'aria-expanded'), 'false');
  assert.equal(await page.isVisible('#readout'), false, 'the readout text is folded away');
  const folded = await layout(page);
  assert.ok(folded.covered < 0.01, `folded, the button covers ${(100 * folded.covered).toFixed(2)} % of the view`);
  await page.screenshot({ path: join(out, 'readout-laptop-folded.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  // the next visit keeps it folded
  await page.reload();
  await page.waitForFunction(() => window.tumble !== undefined);
  await loaded(page);
  assert.equal(await page.getAttribute('#readout-fold', 'aria-expanded'), 'false');
  assert.equal(await page.isVisible('#readout'), false);
  await page.focus('#readout-fold');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#readout-fold', 'aria-expanded'), 'true');
  assert.equal(await page.isVisible('#readout'), true);
  assert.equal(await page.textContent('#readout-fold'), 'Hide readout');
  assert.deepEqual(problems, []);
  await page.close();
});

test("a narrow laptop window: the readout's long lines wrap, none is cut at the view's edge", { skip }, async () => {
  // MuJoCo beside the ball pit falls behind: the lines on its pace are the readout's longest
  // (at 710 px they ran out of the box, cut after "8 iterations):" and "where both have")
  const { page, problems } = await open('?scenario=ball-pit&integrator=rattle&mujoco=RK4', { viewport: { width: 710, height: 900 } });
  await loaded(page);
  await page.waitForFunction(() => /MuJoCo itself sets its pace\nMuJoCo's run is at .* steps behind/.test(document.getElementById('readout').textContent), null, { timeout: 60000 });
  const [scroll, client] = await page.$eval('#readout', (e) => [e.scrollWidth, e.clientWidth]);
  assert.ok(scroll <= client + 1, `the readout is ${scroll} px wide in a box of ${client} px`);
  assert.match(await page.locator('#readout').innerText(), /MuJoCo itself sets its pace\nMuJoCo's run is at .* the charts compare the runs where both have been/);
  assert.deepEqual(problems, []);
});
