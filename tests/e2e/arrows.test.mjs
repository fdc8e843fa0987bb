// Contact-force arrows with many contacts, in headless Chromium: in the ball pit a resting pile has
// hundreds of contacts, and an arrow for each buried the pile in orange; at most 60 arrows are
// drawn, the largest forces, and the readout says how many of how many and from what force (N).
// axe-core clean. Screenshots: tests/out/arrows-ball-pit.png, arrows-ball-pit-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, settle, loaded, playUntil, PHONE } from './harness.mjs';

useBrowser();

/** Share of the view's pixels drawn in the arrows' orange. */
const orange = (page) => page.evaluate(() => {
  const c = document.getElementById('canvas'), gl = c.getContext('webgl2');
  const px = new Uint8Array(c.width * c.height * 4);
  gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - 255) + Math.abs(px[i + 1] - 140) + Math.abs(px[i + 2] - 26) < 60) n++;
  return n / (px.length / 4);
});

for (const [size, options] of [['laptop', undefined], ['phone', PHONE]]) {
  test(`ball pit (${size}): with hundreds of contacts at most 60 arrows, the largest forces, and the readout says so`, { skip }, async () => {
    const { page, problems } = await open('?scenario=ball-pit&integrator=rattle', options);
    await loaded(page);
    await page.check('#arrows');
    await page.selectOption('#speed', '0');
    await playUntil(page, () => window.tumble.time() > 1.5, null);
    await settle(page);
    const a = await page.evaluate(() => ({ ...window.tumble.arrows(), drawn: window.tumble.arrowsDrawn() }));
    const share = await orange(page);
    console.log(`ball pit ${size}: ${a.count} contact forces, ${JSON.stringify(a.drawn)} drawn (N), orange ${(100 * share).toFixed(2)} % of the view`);
    assert.ok(a.on && a.count > 100, `contacts: ${JSON.stringify(a)}`);
    assert.ok(a.drawn.drawn > 0 && a.drawn.drawn <= 60, `arrows drawn: ${JSON.stringify(a)}`);
    assert.ok(a.drawn.cut > 0 && a.drawn.cut < a.drawn.max, `drawn from ${a.drawn.cut} N to ${a.drawn.max} N`);
    // the pile shows: an arrow for each of the ~990 forces painted 1.6 % of the view orange; the
    // at most 60 drawn (the cap asserted above) paint well under that: at most 60 % of it (50 to
    // 52 arrows measured 0.78 to 0.80 %, so the old bound of 0.8 % failed on 52 arrows, within
    // the cap: where the run stands when the capture is taken decides how many are drawn)
    assert.ok(share < 0.6 * 0.016, `orange: ${(100 * share).toFixed(2)} % of the view`);
    const text = await page.textContent('#readout');
    const m = /arrows: (\d+) of (\d+) contact forces drawn, from ([0-9.e+-]+) N to the largest, ([0-9.e+-]+) N/.exec(text);
    assert.ok(m, `readout: ${text}`);
    assert.equal(Number(m[1]), a.drawn.drawn);
    assert.equal(Number(m[2]), a.count);
    await page.screenshot({ path: join(out, `arrows-ball-pit${size === 'phone' ? '-phone' : ''}.png`) });
    if (size === 'laptop') {
      const violations = await axe(page);
      assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
