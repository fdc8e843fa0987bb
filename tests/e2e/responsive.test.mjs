// The page under load: every integrator and MuJoCo beside a 64-link chain at the
// fastest speed. The readout describes the state the view draws at every frame (it was rebuilt
// ten times a second and trailed the run by hundreds of simulated seconds); a pause by Space
// stops the run within the chunk under way (the worker answers in chunks of a few ms, and the
// page asks for one at a time), and the readout then shows the run's final state, paused.
// Counted in steps and frames, not in milliseconds: the machine may be loaded. axe-core clean.
// Screenshots: tests/out/responsive-laptop.png, responsive-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, loaded, axe, out, settle, PHONE } from './harness.mjs';

useBrowser();

// in the page: the readout's simulated time (s), as it prints it
const readoutT = () => Number(/t = (-?[0-9.]+) s/.exec(document.getElementById('readout').textContent)?.[1]);

test('under load the readout shows the drawn state at every frame, and a pause by Space stops the run within the chunk under way', { skip }, async () => {
  // (at h = 0.005 s, the step that suits all three integrators here)
  const { page, problems } = await open(`?scenario=${encodeURIComponent('chain?links=64')}&integrator=director&compare=all&mujoco=RK4&dt=0.005`);
  await page.waitForFunction(() => window.tumble.runs().length === 4, null, { timeout: 60000 });
  await loaded(page);
  await page.selectOption('#speed', '0');
  await page.evaluate(() => { if (!window.tumble.playing()) document.getElementById('play').click(); });
  await page.waitForFunction(() => window.tumble.time() > 0.2, null, { timeout: 60000 });
  // 10 frames (a frame may take a second here: SwiftShader through ANGLE, a loaded machine):
  // after the player's own frame (its callback was asked for first), the readout's t against
  // the state the view has just drawn
  const frames = await page.evaluate(([src]) => new Promise((done) => {
    const shown = eval(src), log = [];
    const each = () => {
      log.push([shown(), Number(window.tumble.time().toFixed(3))]);
      if (log.length < 10) requestAnimationFrame(each); else done(log);
    };
    requestAnimationFrame(each);
  }), [`(${readoutT})`]);
  const moved = frames.filter((f, i) => i > 0 && f[1] !== frames[i - 1][1]).length;
  assert.ok(moved >= 5, `the run moved in ${moved} of 10 frames`);
  assert.deepEqual(frames.filter(([r, t]) => r !== t), [], 'the readout trails the view');
  // Space: at the key (before the page's own handler), the steps the page held
  await page.evaluate(([src]) => {
    const shown = eval(src);
    window.addEventListener('keydown', () => {
      window.__press = { steps: window.tumble.steps(), shown: shown(), time: window.tumble.time() };
    }, { once: true, capture: true });
  }, [`(${readoutT})`]);
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => window.tumble.playing()), false);
  await page.evaluate(() => window.tumble.settled());
  await settle(page);
  await page.waitForTimeout(300); // nothing more comes
  await settle(page);
  const press = await page.evaluate(() => window.__press);
  const after = await page.evaluate(() => ({ steps: window.tumble.steps(), chunk: window.tumble.chunk(), time: window.tumble.time(), text: document.getElementById('readout').textContent, runs: window.tumble.runs() }));
  // a chunk (a reply) is a fraction of a frame's steps, and the run stopped within the chunk
  // under way at the key
  const h = after.time / after.steps, perFrame = (frames[9][1] - frames[0][1]) / 9 / h;
  assert.ok(after.chunk >= 1 && after.chunk <= 2 * perFrame, `chunks of up to ${after.chunk} steps, ${perFrame.toFixed(1)} steps a frame`);
  assert.ok(after.steps - press.steps <= after.chunk,
    `${after.steps - press.steps} steps after Space, chunks of at most ${after.chunk} steps`);
  // the readout shows the run's final state, paused, and every run stopped at the same step
  assert.equal(after.text.match(/t = (-?[0-9.]+) s/)[1], after.time.toFixed(3));
  assert.match(after.text, /paused: press Play or space to run/);
  assert.deepEqual(after.runs.map((r) => [r[1], r[3]]), after.runs.map(() => [after.time, null]), JSON.stringify(after.runs));
  await page.screenshot({ path: join(out, 'responsive-laptop.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
  await page.close();
});

test('on a phone, under load, Pause stops the runs together and the readout says so', { skip }, async () => {
  const { page, problems } = await open(`?scenario=ball-pit&integrator=director&compare=all&mujoco=RK4`, PHONE);
  await page.waitForFunction(() => window.tumble.runs().length === 4, null, { timeout: 60000 });
  await loaded(page);
  await page.evaluate(() => { if (!window.tumble.playing()) document.getElementById('play').click(); });
  await page.waitForFunction(() => window.tumble.steps() > 5, null, { timeout: 60000 });
  await page.tap('#play');
  await page.evaluate(() => window.tumble.settled());
  await settle(page);
  const after = await page.evaluate(() => ({ time: window.tumble.time(), text: document.getElementById('readout').textContent, runs: window.tumble.runs() }));
  assert.equal(after.text.match(/t = (-?[0-9.]+) s/)[1], after.time.toFixed(3));
  assert.match(after.text, /paused/);
  assert.deepEqual(after.runs.map((r) => [r[1], r[3]]), after.runs.map(() => [after.time, null]), JSON.stringify(after.runs));
  await page.screenshot({ path: join(out, 'responsive-phone.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  assert.deepEqual(problems, []);
  await page.close();
});

test('draw less: a pause shows in the readout within the key\'s own task, and a paused page that shows nothing new does not redraw its view', { skip }, async () => {
  // the 400-ball pit at the fastest speed: a frame takes hundreds of ms in software WebGL
  const { page, problems } = await open(`?scenario=${encodeURIComponent('ball-pit?balls=400')}&integrator=rattle`);
  await loaded(page);
  await page.selectOption('#speed', '0');
  await page.evaluate(() => { if (!window.tumble.playing()) document.getElementById('play').click(); });
  await page.waitForFunction(() => window.tumble.time() > 0.3, null, { timeout: 60000 });
  const lags = [];
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => {
      const ro = document.getElementById('readout');
      window.__lag = null;
      window.addEventListener('keydown', () => {
        const key = performance.now();
        new MutationObserver((m, obs) => { if (/paused/.test(ro.textContent)) { window.__lag = performance.now() - key; obs.disconnect(); } })
          .observe(ro, { childList: true, characterData: true, subtree: true });
      }, { once: true, capture: true });
    });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => window.__lag !== null, null, { timeout: 20000 });
    lags.push(await page.evaluate(() => window.__lag));
    await page.keyboard.press(' ');
    await page.waitForTimeout(500);
  }
  // (before: 135 to 1083 ms from the key to "paused" in the readout on the loaded 2-core machine)
  assert.ok(Math.max(...lags) < 50, `key to paused readout: ${lags.map((x) => x.toFixed(0)).join(', ')} ms`);
  await page.keyboard.press(' ');
  await page.close();
  // paused, a small scene at 30 to 60 frames a second: its view is drawn at most every 0.5 s
  const small = await open('?scenario=nk-revolute&integrator=director');
  await small.page.evaluate(() => window.tumble.playing() && document.getElementById('play').click());
  await small.page.evaluate(() => window.tumble.settled());
  await settle(small.page);
  const [d0, f] = await small.page.evaluate(() => new Promise((res) => {
    const d0 = window.tumble.draws();
    let frames = 0;
    const t0 = performance.now();
    const each = () => { frames++; if (performance.now() - t0 < 2000) requestAnimationFrame(each); else res([window.tumble.draws() - d0, frames]); };
    requestAnimationFrame(each);
  }));
  assert.ok(f > 10, `only ${f} frames in 2 s`);
  assert.ok(d0 <= 5, `${d0} views drawn in ${f} frames of 2 s while paused and untouched`);
  // a change (the orbit by a drag) is drawn at once
  const before = await small.page.evaluate(() => window.tumble.draws());
  const box = await small.page.locator('#canvas').boundingBox();
  await small.page.mouse.move(box.x + 100, box.y + 100);
  await settle(small.page);
  assert.ok(await small.page.evaluate(() => window.tumble.draws()) > before, 'a pointer move redraws the view');
  assert.deepEqual([...problems, ...small.problems], []);
  await small.page.close();
});
