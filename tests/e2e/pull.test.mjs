// Grab and pull in headless Chromium: a press on a body in the 3-D view attaches a
// spring from that point to the pointer; dragging pulls the body after it, the work the pull puts
// in shows in W, the page marks the run as pulled (its link starts the run without the pull),
// and a press on empty space still orbits the camera. In compare mode the pull acts on every
// run. axe-core stays clean. Screenshot: tests/out/pull.png. Also: the sliding joints are drawn
// as rails and the driven and motored joints marked (screenshot tests/out/rails.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, settle, pause, pressAndDrag } from './harness.mjs';
import { INV } from '../../www/shared/invariants.js';

useBrowser();

test('pressing on a body and dragging pulls it; W grows; the run is marked pulled', { skip }, async () => {
  const { page, problems } = await open(`?scenario=${encodeURIComponent('damped-pendulum?angle=0')}&integrator=director&compare=rattle`);
  await pause(page);
  await settle(page);
  assert.equal(await page.evaluate(() => window.tumble.pulled()), false);
  assert.equal(await page.locator('#pulled').isHidden(), true);
  // the rod hangs from the origin: press on its centre and drag sideways on the screen
  const [x, y] = await page.evaluate(() => window.tumble.bodyOnScreen(0));
  const y0 = (await page.evaluate(() => window.tumble.invariants()))[INV.t];
  await pressAndDrag(page, x, y);
  // hold while the simulation runs (the press started playing)
  await page.waitForFunction(() => window.tumble.time() > 1, null, { timeout: 20000 });
  const during = await page.evaluate(() => ({ inv: window.tumble.invariants(), runs: window.tumble.runs(), pulled: window.tumble.pulled() }));
  await page.locator('#canvas').screenshot({ path: join(out, 'pull.png') });
  await page.mouse.up();
  assert.ok(during.pulled, 'the run is marked as pulled');
  assert.equal(await page.locator('#pulled').isVisible(), true, 'the pulled mark is shown');
  assert.ok(during.inv[INV.work] > 1e-3, `W = ${during.inv[INV.work]} J: the pull put energy in`);
  // the rod swung towards the pointer: its centre left the vertical (x2 = 0 m at rest)
  const moved = await page.evaluate(() => window.tumble.bodyOnScreen(0));
  assert.ok(Math.abs(moved[0] - x) > 5, `the rod's centre stayed at ${moved[0]} px (was ${x} px)`);
  // both runs of the compare were pulled: both left rest
  assert.equal(during.runs.length, 2);
  for (const [name, t, e] of during.runs) assert.ok(e > -4.905 + 1e-3, `${name} at t = ${t} s: E = ${e} J, not pulled`);
  assert.ok(y0 >= 0);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test('a press on empty space orbits the camera and pulls nothing', { skip }, async () => {
  // the double pendulum's lower rod is off the vertical axis the camera orbits about
  const { page, problems } = await open('?scenario=double-pendulum&integrator=director');
  await pause(page);
  await settle(page);
  const box = await page.locator('#canvas').boundingBox();
  const before = await page.evaluate(() => window.tumble.bodyOnScreen(1));
  // a corner of the view: no body there
  assert.equal(await page.evaluate(([x, y]) => window.tumble.pick(x, y), [box.x + 10, box.y + 10]), null);
  await page.mouse.move(box.x + 10, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 110, box.y + 10, { steps: 5 });
  await page.mouse.up();
  await settle(page);
  const after = await page.evaluate(() => window.tumble.bodyOnScreen(1));
  assert.ok(Math.hypot(after[0] - before[0], after[1] - before[1]) > 5, `the camera did not orbit: ${before} -> ${after}`);
  assert.equal(await page.evaluate(() => window.tumble.pulled()), false);
  assert.equal(await page.evaluate(() => window.tumble.playing()), false, 'an orbit does not start the run');
  assert.deepEqual(problems, []);
});

test('sliding joints are drawn as rails; driven and motored joints are marked', { skip }, async () => {
  for (const [scenario, rails, marks] of [
    ['slider-crank', 1, [1, 0, 0, 0]],
    ['slider-crank?speed=0', 1, [2, 0, 0, 0]],
    ['kapitza', 1, [1, 0]],
    ['driven-pendulum', 0, [2]],
    ['nk-revolute', 0, [0, 0, 0, 0]],
  ]) {
    const { page, problems } = await open(`?scenario=${encodeURIComponent(scenario)}&integrator=director`);
    await pause(page);
    await settle(page);
    assert.equal(await page.evaluate(() => window.tumble.rails()), rails, scenario);
    assert.deepEqual(await page.evaluate(() => window.tumble.jointMarks()), marks, scenario);
    if (scenario === 'slider-crank') {
      // the driven crank's hinge in magenta on the screen
      const magenta = await page.evaluate(() => {
        const c = document.getElementById('canvas'), gl = c.getContext('webgl2');
        const px = new Uint8Array(c.width * c.height * 4);
        gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
        let n = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i] > 200 && px[i + 1] < 130 && px[i + 2] > 170) n++;
        return n;
      });
      await page.locator('#canvas').screenshot({ path: join(out, 'rails.png') });
      assert.ok(magenta > 4, `the driven joint's mark: ${magenta} magenta pixels`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});
