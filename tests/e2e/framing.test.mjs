// The camera's first framing of every preset, in headless Chromium: at t = 0 each body's box
// (all eight corners) and each joint point is drawn inside the view, at laptop and phone sizes,
// and Kapitza's rod, standing on its carriage, keeps a margin above its top (its top was cut
// off); its parameters show their units. Screenshots: tests/out/framing-presets.png (every preset's start, laptop size, one sheet)
// and tests/out/framing-kapitza-{laptop,phone}.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, out, settle, pause, loaded, LAPTOP, PHONE, ctx } from './harness.mjs';
import { encodeSystem } from '../../www/shared/url.js';

useBrowser();

/** Load preset `name` from the Scenario menu and show it paused at t = 0. */
async function startOf(page, name) {
  await page.selectOption('#scenario', name);
  await page.waitForFunction((n) => window.tumble.scenario().split('?')[0] === n && !window.tumble.loading(), name);
  await pause(page);
  await page.evaluate(() => document.getElementById('reset').click());
  await loaded(page);
  await settle(page);
  await settle(page);
}

/** Margins of the drawn bodies and joints inside the view, as fractions of its width and height. */
const margins = (page) => page.evaluate(() => {
  const { view: [l, t, r, b], shown: [x0, y0, x1, y1] } = window.tumble.framing();
  return { left: (x0 - l) / (r - l), top: (y0 - t) / (b - t), right: (r - x1) / (r - l), bottom: (b - y1) / (b - t), time: window.tumble.time() };
});

for (const [size, options] of [['laptop', { viewport: LAPTOP }], ['phone', PHONE]]) {
  test(`every preset starts inside the view (${size})`, { skip }, async () => {
    const { page, problems } = await open('?scenario=kapitza', options);
    const names = await page.$$eval('#scenario option', (o) => o.map((x) => x.value).filter((v) => v !== 'custom'));
    assert.ok(names.length >= 16, names.join(' '));
    const shots = [];
    for (const name of names) {
      await startOf(page, name);
      const m = await margins(page);
      assert.equal(m.time, 0);
      for (const side of ['left', 'top', 'right', 'bottom']) assert.ok(m[side] > 0.02, `${name} (${size}): ${side} margin ${m[side].toFixed(3)} of the view`);
      if (name === 'kapitza') {
        // (and its parameters show their units, the frequency's too, named mid-sentence in its help)
        assert.deepEqual(await page.$$eval('#params label', (ls) => ls.map((l) => l.firstChild.textContent.trim())), ['amplitude (m)', 'frequency (Hz)', 'angle (rad)']);
        assert.ok(m.top >= 0.07, `kapitza (${size}): the rod's top is ${m.top.toFixed(3)} of the view below its edge`);
        await page.locator('#canvas').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(out, `framing-kapitza-${size}.png`) });
      }
      if (size === 'laptop') shots.push([name, (await page.locator('#canvas').screenshot()).toString('base64')]);
    }
    assert.deepEqual(problems, []);
    await page.close();
    if (!shots.length) return;
    // one sheet of every preset's start, four a row
    const sheet = await ctx.browser.newPage({ viewport: { width: 1240, height: 200 } });
    await sheet.setContent(`<style>body{margin:8px;font:13px sans-serif;display:grid;grid-template-columns:repeat(4,300px);gap:8px}
      figure{margin:0}img{width:300px;display:block}figcaption{padding:2px 0}</style>`
      + shots.map(([n, b64]) => `<figure><img src="data:image/png;base64,${b64}"><figcaption>${n}</figcaption></figure>`).join(''));
    await sheet.screenshot({ path: join(out, 'framing-presets.png'), fullPage: true });
    await sheet.close();
  });
}

test('a tree of bodies with no joint to the ground, over a floor, is framed to its bounds', { skip }, async () => {
  // a 'walker' of six capsules (a torso, two legs of two links, a head), 1.4 m tall, joined by
  // hinges among themselves and standing free on the floor, as the suite's humanoid does: it was
  // framed about the origin as if it hung from there, its lengths laid end to end (the humanoid
  // at 10 m, a sixth of the view high)
  const link = (z, x = 0) => ({ mass: 1, inertia: [0.02, 0.02, 0.002], size: [0.1, 0.1, 0.4], position: [x, 0, z], shapes: [{ type: 'capsule', radius: 0.05, half_length: 0.15 }] });
  const hinge = (a, b, z, x = 0) => ({ type: 'revolute', a, point_a: [x, 0, z], b, point_b: [0, 0, 0.2], axis_a: [0, 1, 0], axis_b: [0, 1, 0] });
  const system = {
    dt: 0.002,
    bodies: [link(1.0), link(0.6, -0.1), link(0.2, -0.1), link(0.6, 0.1), link(0.2, 0.1), { ...link(1.3), size: [0.2, 0.2, 0.2], shapes: [{ type: 'sphere', radius: 0.1 }] }],
    joints: [hinge(0, 1, -0.2, -0.1), hinge(1, 2, -0.2), hinge(0, 3, -0.2, 0.1), hinge(3, 4, -0.2)].map((j) => ({ ...j, point_a: j.a === 0 ? j.point_a : [0, 0, -0.2] })).concat([{ type: 'revolute', a: 0, point_a: [0, 0, 0.2], b: 5, point_b: [0, 0, -0.1], axis_a: [0, 1, 0], axis_b: [0, 1, 0] }]),
    contact: { ground: true, planes: [{ point: [0, 0, 0], normal: [0, 0, 1] }], material: { young: 1e7, poisson: 0.45, restitution: 0.5, friction: 0.5 } },
  };
  const { page, problems } = await open(`?integrator=director#system=${await encodeSystem(JSON.stringify(system))}`);
  await loaded(page);
  await pause(page);
  await settle(page);
  const m = await margins(page);
  assert.ok(m.left > 0 && m.right > 0 && m.top > 0 && m.bottom > 0, JSON.stringify(m));
  // (before: 41 % high, in the view's upper half, 0.10 above it and 0.49 below)
  assert.ok(1 - m.top - m.bottom > 0.55, `the walker is ${(100 * (1 - m.top - m.bottom)).toFixed(0)} % of the view high`);
  assert.ok(Math.abs(m.top - m.bottom) < 0.15, `off the middle: ${m.top.toFixed(2)} of the view above it, ${m.bottom.toFixed(2)} below`);
  await page.locator('.view').screenshot({ path: join(out, 'framing-free-tree.png') });
  assert.deepEqual(problems, []);
});
