// The camera's first framing of every preset, in headless Chromium: at t = 0 each body's box
// (all eight corners) and each joint point is drawn inside the view, at laptop and phone sizes,
// and Kapitza's rod, standing on its carriage, keeps a margin above its top (its top was cut
// off); its parameters show their units. Screenshots: tests/out/framing-presets.png (every preset's start, laptop size, one sheet)
// and tests/out/framing-kapitza-{laptop,phone}.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, out, settle, pause, loaded, LAPTOP, PHONE, ctx } from './harness.mjs';

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
