// The run's controls (www/app/controls.js): a system whose motor has a control (MuJoCo's ctrl)
// shows a slider named as the motor, within its range, with the torque it sets; moving it (here
// with the keyboard, End: its upper end) drives the run from the next step, W counts the motor's
// work, and the link carries the change: the link reopened in the page and run by the command
// line reaches the same state hash after the same steps. axe-core stays clean; screenshots at
// laptop and phone sizes: tests/out/controls-laptop.png, controls-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { useBrowser, skip, open, axe, out, loaded, ctx, root, PHONE } from './harness.mjs';
import { encodeSystem } from '../../www/shared/url.js';
import { INV } from '../../www/shared/invariants.js';

useBrowser();
const CLI = join(root, 'target', 'release', 'tumble');

// a 1 m rod (2 kg) hanging from a hinge about x, its motor 8 N m at control 1, range [-1, 1]
const SYSTEM = {
  dt: 0.01,
  bodies: [{ mass: 2, inertia: [0.17, 0.17, 0.01], size: [0.05, 0.05, 1], position: [0, 0, -0.5] }],
  joints: [{ type: 'revolute', a: null, point_a: [0, 0, 0], b: 0, point_b: [0, 0, 0.5], axis_a: [1, 0, 0], axis_b: [1, 0, 0] }],
  forces: [{ type: 'motor', name: 'shoulder', joint: 0, torque: 8, control: { value: 0, range: [-1, 1] } }],
};

/** Step `n` times with the keyboard (the page paused, nothing focused): [t, hash]. */
async function steps(page, n) {
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < n; i++) await page.keyboard.press('ArrowRight');
  await page.evaluate(() => window.tumble.settled());
  return page.evaluate(() => [window.tumble.time(), window.tumble.hash()]);
}

/** From the start, paused: 20 steps, the control to its upper end, 30 steps: [t, hash]. */
async function drive(page) {
  await fromStart(page);
  await steps(page, 20);
  await page.focus('#controls-list input');
  await page.keyboard.press('End');
  await page.waitForFunction(() => /control=shoulder%3D/.test(window.tumble.link()));
  return steps(page, 30);
}

/** Paused at the start of the run (a reset, as the editor's tests take it). */
async function fromStart(page) {
  if (await page.evaluate(() => window.tumble.playing())) await page.evaluate(() => document.getElementById('play').click());
  await page.evaluate(() => document.getElementById('reset').click());
  await loaded(page);
}

let shared = null;

test('a motor with a control has a slider; moving it drives the run, and W counts its work', { skip }, async () => {
  const { page, problems } = await open(`?integrator=director#system=${await encodeSystem(JSON.stringify(SYSTEM))}`);
  await loaded(page);
  assert.equal(await page.locator('#controls-panel').isVisible(), true);
  assert.equal(await page.locator('#controls-list .control-name').textContent(), 'shoulder');
  assert.equal(await page.locator('#controls-list output').textContent(), '0 (0 N m)');
  const [t, hash] = await drive(page);
  assert.ok(Math.abs(t - 0.5) < 1e-12, `t = ${t}`);
  assert.equal(await page.locator('#controls-list output').textContent(), '1 (8 N m)');
  const inv = await page.evaluate(() => window.tumble.invariants());
  // 8 N m for 0.3 s on a rod of 0.17 + 2 (0.5)^2 = 0.67 kg m^2 about the hinge, against gravity
  assert.ok(inv[INV.work] > 0.5, `W = ${inv[INV.work]} J`);
  assert.ok(Math.abs(inv[INV.balance]) < 1e-9, `balance ${inv[INV.balance]}`);
  const link = await page.evaluate(() => window.tumble.link());
  assert.match(link, /control=shoulder%3D0\.2%3A1(&|#)/);
  shared = { link, t, hash };
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: join(out, 'controls-laptop.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the link replays the control: the same state hash in the page and the command line', { skip }, async () => {
  assert.ok(shared, 'the first test made no link');
  const { page, problems } = await open(shared.link.slice(ctx.base.length), PHONE);
  await loaded(page);
  await fromStart(page);
  assert.deepEqual(await steps(page, 50), [shared.t, shared.hash]);
  // the slider follows the replayed schedule: at its upper end from 0.2 s
  await page.waitForFunction(() => document.querySelector('#controls-list output').textContent === '1 (8 N m)', null, { timeout: 5000 });
  await page.screenshot({ path: join(out, 'controls-phone.png') });
  assert.deepEqual(problems, []);
  await page.close();
  if (existsSync(CLI)) {
    const run = JSON.parse(execFileSync(CLI, ['run', shared.link, '--duration', '0.5', '--every', '0.5', '-q'], { encoding: 'utf8' }));
    assert.equal(run.state_hash, shared.hash, 'the command line ran the link to another state');
  }
});

test('a link whose control is beyond its range says so, naming it', { skip }, async () => {
  const bad = shared ? shared.link.replace('control=shoulder%3D0.2%3A1', 'control=shoulder%3D0.2%3A3') : null;
  assert.ok(bad, 'no link');
  const { page } = await open(bad.slice(ctx.base.length));
  await page.waitForFunction(() => window.tumble.error() !== null, null, { timeout: 20000 });
  assert.match(await page.evaluate(() => window.tumble.error()), /control 'shoulder': 3 is not within its range \[-1, 1\]/);
  await page.close();
});

test('a model with many actuators starts with its controls folded, the count in the summary; a name too long for its column wraps at its underscores, whole', { skip }, async () => {
  // ten rods, each on its own hinge with a motor named as a quadruped's
  const n = 10;
  const system = {
    dt: 0.01,
    bodies: Array.from({ length: n }, (_, i) => ({ mass: 2, inertia: [0.17, 0.17, 0.01], size: [0.05, 0.05, 1], position: [i, 0, -0.5] })),
    joints: Array.from({ length: n }, (_, i) => ({ type: 'revolute', a: null, point_a: [i, 0, 0], b: i, point_b: [0, 0, 0.5], axis_a: [1, 0, 0], axis_b: [1, 0, 0] })),
    forces: Array.from({ length: n }, (_, i) => ({ type: 'motor', name: `extend_front_right_${i}`, joint: i, torque: 8, control: { value: 0, range: [-1, 1] } })),
  };
  const { page, problems } = await open(`?integrator=director#system=${await encodeSystem(JSON.stringify(system))}`);
  await loaded(page);
  assert.equal(await page.locator('#controls-panel').isVisible(), true);
  assert.equal(await page.locator('#controls-panel').getAttribute('open'), null, 'folded');
  assert.equal(await page.locator('#controls-panel summary').innerText(), 'Controls (10 actuators)');
  // the view is on the laptop's first screen: the folded panel no longer pushes it below
  const view = await page.locator('#canvas').boundingBox();
  assert.ok(view.y < 768 * 0.6, `the view starts ${view.y} px down`);
  await page.click('#controls-panel summary');
  assert.equal(await page.locator('#controls-list label').count(), n);
  assert.equal(await page.locator('#controls-list .control-name').first().getAttribute('title'), 'extend_front_right_0');
  // at 710 px (the suite's quadruped's 'extend_front_right' was cut to 'extend_front_ri...') and
  // on a phone every name is whole, broken after an underscore where it must be
  const cut = () => page.$$eval('#controls-list .control-name', (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
  for (const width of [710, 390]) {
    await page.setViewportSize({ width, height: 860 });
    assert.deepEqual(await cut(), [], `at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  // a reset keeps the fold as the user left it
  await fromStart(page);
  assert.notEqual(await page.locator('#controls-panel').getAttribute('open'), null, 'still open after a reset');
  await page.screenshot({ path: join(out, 'controls-many.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});
