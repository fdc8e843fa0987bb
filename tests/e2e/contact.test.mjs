// Contact on the page in headless Chromium: the bouncing ball is drawn as a sphere on a tiled
// ground, falls and bounces (it stays in the view, which follows it along the ground), the
// director's balance stays at the Newton tolerance while the bounces dissipate joules;
// Newton's cradle draws five balls and their five strings; the incline's box slides and stays
// in view; laptop, phone and iframe sizes, axe-core clean. Screenshots: tests/out/contact-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, settle, playUntil, inked, PHONE, IFRAME } from './harness.mjs';

useBrowser();

const play = (page) => page.evaluate(() => { if (!window.tumble.playing()) document.getElementById('play').click(); });
const inView = async (page) => {
  const { view: [l, t, r, b], shown: [x0, y0, x1, y1] } = await page.evaluate(() => window.tumble.framing());
  return x0 > l && y0 > t && x1 < r && y1 < b;
};

test('bouncing ball: a sphere on the ground, bouncing, the balance at the tolerance', { skip }, async () => {
  const { page, problems } = await open('?scenario=bouncing-ball&integrator=director');
  // one sphere; no cylinder; 15 x 15 tiles of the ground
  assert.deepEqual(await page.evaluate(() => window.tumble.shapes().counts), [1, 0, 225]);
  await play(page);
  await playUntil(page, (goal) => window.tumble.time() > goal, 1.5);
  await settle(page);
  const inv = await page.evaluate(() => window.tumble.invariants());
  // [.., dissipated D (J) at 12, balance at 13]: the first bounce took a third of 10.8 J
  assert.ok(inv[12] > 2, `D = ${inv[12]} J`);
  assert.ok(Math.abs(inv[13]) < 1e-9, `director balance ${inv[13]} J`);
  assert.ok(await inView(page), 'the ball is in view');
  assert.ok(await inked(page) > 0.05, 'the view is drawn');
  await page.screenshot({ path: join(out, 'contact-laptop.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
});

test("Newton's cradle at phone size: five balls on five strings", { skip }, async () => {
  const { page, problems } = await open('?scenario=newtons-cradle&integrator=director', PHONE);
  assert.deepEqual(await page.evaluate(() => window.tumble.shapes().counts), [5, 5, 0]);
  await play(page);
  await playUntil(page, (goal) => window.tumble.time() > goal, 0.4);
  await settle(page);
  assert.ok(await inView(page), 'the cradle is in view');
  await page.screenshot({ path: join(out, 'contact-phone.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
});

test('incline at iframe size: the box slides and the view follows it', { skip }, async () => {
  const { page, problems } = await open('?scenario=incline&integrator=director', { viewport: IFRAME });
  assert.deepEqual(await page.evaluate(() => window.tumble.shapes().counts), [0, 0, 1 + 225]);
  await play(page);
  await playUntil(page, (goal) => window.tumble.time() > goal, 2);
  await settle(page);
  assert.ok(await inView(page), 'the box is in view after sliding');
  await page.screenshot({ path: join(out, 'contact-iframe.png') });
  assert.deepEqual(problems, []);
});

test('stop-pendulum: the stop drawn at the hinge, the rod rebounds from it, the balance at the tolerance', { skip }, async () => {
  const { page, problems } = await open('?scenario=stop-pendulum&integrator=director');
  // no shape; two stop bars (the upper one, a full turn away, hidden); no plane
  assert.deepEqual(await page.evaluate(() => window.tumble.shapes().counts), [0, 2, 0]);
  await play(page);
  await playUntil(page, (goal) => window.tumble.time() > goal, 1);
  await settle(page);
  const inv = await page.evaluate(() => window.tumble.invariants());
  assert.ok(inv[12] > 0.5, `the stop took D = ${inv[12]} J`);
  assert.ok(Math.abs(inv[13]) < 1e-9, `director balance ${inv[13]} J`);
  await page.screenshot({ path: join(out, 'contact-stop.png') });
  assert.deepEqual(problems, []);
});
