// The view's Top, Side and Fit buttons, in headless Chromium: a small scene on a large floor
// (billiard balls on their table) is framed to its bodies' bounds: seen from above, from the
// side, and from the current direction, every body in the view and the bodies spanning most
// of it; at the start too (they spanned 18-25 % of it before the start was framed to their
// bounds); the cushions drawn low. By keyboard too; phone size; in the embed; the stop of the
// stop pendulum seen face on; axe-core clean.
// Screenshots: tests/out/views-billiards-{start,top,side}.png, views-chain-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, settle, loaded, PHONE } from './harness.mjs';

useBrowser();

/** The bodies' drawn bounds as shares of the view: { inside, span (the larger of width and height shares) }. */
const framed = (page) => page.evaluate(() => {
  const { view: [l, t, r, b], shown: [x0, y0, x1, y1] } = window.tumble.framing();
  return { inside: x0 > l && y0 > t && x1 < r && y1 < b, span: Math.max((x1 - x0) / (r - l), (y1 - y0) / (b - t)) };
});

test('billiards: Top, Side and Fit frame the balls to their bounds', { skip }, async () => {
  const { page, problems } = await open('?scenario=billiards&integrator=rattle');
  await loaded(page);
  await page.evaluate(() => { if (window.tumble.playing()) document.getElementById('play').click(); });
  await settle(page);
  const start = await framed(page);
  // the cushions drawn low: as high as the balls (57.15 mm) and a quarter more, not as walls
  const wall = await page.evaluate(() => window.tumble.wallTop());
  assert.ok(wall > 0.057 && wall < 0.08, `cushions drawn ${wall} m high`);
  await page.screenshot({ path: join(out, 'views-billiards-start.png') });
  const spans = { start: start.span };
  for (const which of ['top', 'side', 'fit']) {
    if (which === 'side') { // by keyboard
      await page.focus('#view-side');
      await page.keyboard.press('Enter');
    } else {
      await page.click(`#view-${which}`);
    }
    await settle(page);
    await settle(page);
    const f = await framed(page);
    spans[which] = f.span;
    assert.ok(f.inside, `${which}: every ball in the view`);
    assert.ok(f.span > 0.6, `${which}: the balls span ${(100 * f.span).toFixed(0)} % of the view (at the start ${(100 * start.span).toFixed(0)} %)`);
    if (which !== 'fit') await page.screenshot({ path: join(out, `views-billiards-${which}.png`) });
  }
  console.log(`# billiards, the balls' span of the view: ${Object.entries(spans).map(([k, v]) => `${k} ${(100 * v).toFixed(0)} %`).join(', ')}`);
  assert.ok(start.inside && start.span > 0.45, `at the start the balls span ${(100 * start.span).toFixed(0)} % of the view: framed to their bounds`);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
  await page.close();
});

test('phone: the falling chain kept framed as it piles up, and from above after it piled up', { skip }, async () => {
  const { page, problems } = await open('?scenario=falling-chain&integrator=director', PHONE);
  await loaded(page);
  await page.selectOption('#speed', '0');
  await page.evaluate(() => { if (!window.tumble.playing()) document.getElementById('play').click(); });
  await page.waitForFunction(() => window.tumble.time() > 1.2, null, { timeout: 240000 });
  await page.evaluate(() => { if (window.tumble.playing()) document.getElementById('play').click(); });
  await settle(page);
  const before = await framed(page);
  // kept framed as it fell and piled, with no button (the pile spanned 4 % of the phone's view before)
  assert.ok(before.inside && before.span > 0.45, `before Top: ${JSON.stringify(before)}`);
  await page.tap('#view-top');
  await settle(page);
  await settle(page);
  const f = await framed(page);
  await page.locator('.viewcol').screenshot({ path: join(out, 'views-chain-phone.png') });
  console.log(`# falling chain piled (t > 1.2 s), phone: its span of the view ${(100 * before.span).toFixed(0)} % before Top, ${(100 * f.span).toFixed(0)} % after`);
  assert.ok(f.inside && f.span > 0.6, JSON.stringify([before, f]));
  assert.deepEqual(problems, []);
  await page.close();
});

test('billiards after the break: every ball kept in view as they spread, with no button (tests/js/camera.test.mjs: smoothly); a zoom stops it, Fit starts it again', { skip }, async () => {
  const { page, problems } = await open('?scenario=billiards&integrator=rattle');
  await loaded(page);
  await page.evaluate(() => { if (!window.tumble.playing()) document.getElementById('play').click(); });
  await page.selectOption('#speed', '0');
  await page.waitForFunction(() => window.tumble.time() > 4, null, { timeout: 240000 });
  await page.evaluate(() => { if (window.tumble.playing()) document.getElementById('play').click(); });
  await page.waitForFunction(() => !window.tumble.camera().easing, null, { timeout: 20000 }); // (paused, drawn until framed)
  await settle(page);
  const f = await framed(page);
  await page.screenshot({ path: join(out, 'views-billiards-spread.png') });
  console.log(`# billiards at t > 4 s, no button pressed: the balls span ${(100 * f.span).toFixed(0)} % of the view, all inside: ${f.inside}`);
  // (the camera followed the balls' centroid before: some balls left the view after the break)
  assert.ok(f.inside && f.span > 0.45, JSON.stringify(f));
  assert.equal(await page.evaluate(() => window.tumble.autoFrame()), true);
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await settle(page);
  assert.equal(await page.evaluate(() => window.tumble.autoFrame()), false, 'a zoom by the user leaves the framing to the user');
  await page.click('#view-fit');
  await settle(page);
  assert.equal(await page.evaluate(() => window.tumble.autoFrame()), true, 'Fit keeps them framed again');
  assert.deepEqual(problems, []);
  await page.close();
});

test("joint markers no wider than the thinnest body: the falling chain's 1 cm links are not buried, a large chain keeps its markers", { skip }, async () => {
  const { page, problems } = await open('?scenario=falling-chain&integrator=director');
  await loaded(page);
  // (paused at once: once the chain has piled up the view comes closer to it, and its links are drawn wider)
  await page.evaluate(() => { if (window.tumble.playing()) document.getElementById('play').click(); });
  await settle(page);
  await settle(page);
  const chain = await page.evaluate(() => window.tumble.markerPx());
  assert.ok(chain >= 2 && chain < 4, `falling chain: markers ${chain} px (they were 4 px, wider than the links)`);
  await page.screenshot({ path: join(out, 'views-chain-markers.png') });
  await page.selectOption('#scenario', 'nk-revolute');
  await page.waitForFunction(() => window.tumble.scenario() === 'nk-revolute' && !window.tumble.loading());
  await settle(page);
  await settle(page);
  assert.equal(await page.evaluate(() => window.tumble.markerPx()), 7, 'boxes of 0.5 m: the markers keep their 7 px');
  assert.deepEqual(problems, []);
  await page.close();
});

test("the stop pendulum's stop is seen: the view looks along the hinge, the stop's bar reaches past the rod's centre", { skip }, async () => {
  const { page, problems } = await open('?scenario=stop-pendulum&integrator=director');
  await loaded(page);
  await page.evaluate(() => { if (window.tumble.playing()) document.getElementById('play').click(); });
  await settle(page);
  const [[hx, hy], [ex, ey]] = await page.evaluate(() => window.tumble.stopOnScreen());
  const [bx, by] = await page.evaluate(() => window.tumble.bodyOnScreen(0)); // the rod's centre
  const bar = Math.hypot(ex - hx, ey - hy), rod = Math.hypot(bx - hx, by - hy);
  // the stop is 0.4 rad from hanging straight down: seen face on, its bar leans by about that
  const lean = Math.atan2(Math.abs(ex - hx), ey - hy);
  console.log(`# stop pendulum: the stop's bar ${bar.toFixed(0)} px long (the hinge to the rod's centre ${rod.toFixed(0)} px), leaning ${lean.toFixed(2)} rad on the screen`);
  assert.ok(bar > 1.4 * rod && bar > 100, `bar ${bar} px, rod ${rod} px`);
  assert.ok(lean > 0.3 && lean < 0.5, `the bar leans ${lean} rad on the screen`);
  await page.screenshot({ path: join(out, 'views-stop-pendulum.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the embed has Top, Side and Fit too: billiards at 480 x 360 from above', { skip }, async () => {
  const { page, problems } = await open('?scenario=billiards&integrator=rattle&embed=1', { viewport: { width: 480, height: 360 } });
  await page.waitForFunction(() => window.tumble?.element?.player?.run, null, { timeout: 30000 });
  // the balls' drawn bounds as a share of the element's view
  const span = () => page.evaluate(() => {
    const el = window.tumble.element, p = el.player, cam = p.renderer.camera, P = p.run.poses, S = p.run.sizes;
    const v = el.shadowRoot.querySelector('canvas').getBoundingClientRect(), box = [Infinity, Infinity, -Infinity, -Infinity];
    for (let b = 0; b < S.length / 3; b++) {
      const [x, y] = cam.toScreen(P[12 * b], P[12 * b + 1], P[12 * b + 2]);
      box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y); box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y);
    }
    return Math.max((box[2] - box[0]) / v.width, (box[3] - box[1]) / v.height);
  });
  const top = page.locator('tumble-view').locator('button[data-look=top]');
  assert.equal(await top.isVisible(), true);
  await top.click();
  await settle(page);
  const from = await page.evaluate(() => window.tumble.element.player.renderer.camera.pitch);
  assert.ok(from > 1.4, `pitch ${from} rad: from above`);
  const s = await span();
  assert.ok(s > 0.5, `the balls' centres span ${(100 * s).toFixed(0)} % of the view`);
  await page.locator('tumble-view').locator('button[data-look=side]').press('Enter');
  await settle(page);
  assert.ok(await page.evaluate(() => window.tumble.element.player.renderer.camera.pitch) < 0.1, 'from the side, by keyboard');
  await page.screenshot({ path: join(out, 'views-embed-billiards.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
  await page.close();
});
