// Contact on the page in headless Chromium: the bouncing ball is drawn as a sphere on a tiled
// ground, falls and bounces (it stays in the view, which follows it along the ground), the
// director's balance stays at the Newton tolerance while the bounces dissipate joules;
// Newton's cradle draws five balls and their five strings; the incline's box slides and stays
// in view; MuJoCo beside the bouncing ball bounces its ghost at the same restitution;
// laptop, phone and iframe sizes, axe-core clean. Screenshots: tests/out/contact-*.png.
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

test('MuJoCo beside the bouncing ball: its ghost bounces off the same ground at the same restitution', { skip }, async () => {
  const { page, problems } = await open('?scenario=bouncing-ball&integrator=director&mujoco=RK4');
  await page.waitForFunction(() => window.tumble.runs().length === 2, null, { timeout: 60000 });
  await play(page);
  // the first impact at 0.43 s, the rebound's top at 0.79 s (0.64 m up at e = 0.8)
  // each run's highest point between 0.5 s and 1.1 s, sampled every frame
  const top = await page.evaluate(() => new Promise((resolve) => {
    const top = [0, 0];
    const frame = () => {
      const t = window.tumble.time();
      if (t > 0.5) window.tumble.heights(0).forEach((x, i) => { top[i] = Math.max(top[i], x); });
      if (t > 1.1) resolve(top); else requestAnimationFrame(frame);
    };
    frame();
  }));
  await page.evaluate(() => { if (window.tumble.playing()) document.getElementById('play').click(); });
  const runs = await page.evaluate(() => window.tumble.runs());
  assert.deepEqual(runs.map((r) => [r[0], r[3]]), [['director', null], ['mujoco', null]]);
  // the rebound's top: 0.1 m (the radius) + 1 m e^2 for both, to 1.5 cm (MuJoCo's softer
  // contact, the frames that sample it)
  for (const [i, z] of top.entries()) assert.ok(Math.abs(z - 0.74) < 0.015, `${runs[i][0]}: rebound top ${z} m`);
  assert.equal(await page.locator('#mujoco-status').innerText().then((s) => /no counterpart/.test(s)), false);
  await page.screenshot({ path: join(out, 'contact-mujoco.png') });
  assert.deepEqual(problems, []);
});
