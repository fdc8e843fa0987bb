// A ball in a cup as DeepMind's ball_in_cup has it (tests/fixtures/mjcf/cup.xml): its string, a
// limited spatial tendon, opens as a Tumble rope (forces/rope.rs), drawn as a line from the cup's
// site to the ball. With the cup's 'x' motor at its upper end and MuJoCo RK4 beside, the ball
// swings on the string: it is never further from the cup's site than the string's 0.3 m and the
// stop's stretch, the balance holds, and MuJoCo runs the same model. Laptop and phone, axe clean.
// Screenshots: tests/out/mujoco-rope-laptop.png, mujoco-rope-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, loaded, root, pause, settle, PHONE } from './harness.mjs';
import { INV } from '../../www/shared/invariants.js';

useBrowser();

for (const [size, viewport] of [['laptop', undefined], ['phone', PHONE]]) {
  test(`${size}: the ball_in_cup's string is a rope: drawn, holding the ball as the cup is driven, MuJoCo beside`, { skip }, async () => {
    const { page, problems } = await open('?scenario=nk-revolute&integrator=director', viewport);
    await loaded(page);
    await pause(page);
    await page.setInputFiles('#open-mjcf-file', join(root, 'tests', 'fixtures', 'mjcf', 'cup.xml'));
    await page.waitForFunction(() => /^Opened the MuJoCo model/.test(document.getElementById('mujoco-status').textContent), null, { timeout: 60000 });
    await loaded(page);
    assert.doesNotMatch(await page.locator('#mujoco-status').innerText(), /string/, 'nothing of the string left out');
    // (an opened model plays: back to its start, paused)
    await pause(page);
    await page.evaluate(() => document.getElementById('reset').click());
    await loaded(page);
    // the string from the ball's site to the cup's: 0.292 m at the start, drawn as a line
    const start = await page.evaluate(() => window.tumble.springs());
    assert.equal(start.lengths.length, 1);
    assert.ok(Math.abs(start.lengths[0] - 0.292) < 1e-9, `${start.lengths}`);
    assert.equal(start.rodVerts, 2);
    // the cup's x motor to its upper end, MuJoCo RK4 beside
    await page.selectOption('#mujoco', 'RK4');
    const names = await page.$$eval('#controls-list .control-name', (n) => n.map((x) => x.textContent));
    assert.deepEqual(names, ['x', 'z']);
    await page.focus('#controls-list input');
    await page.keyboard.press('End');
    let longest = 0;
    await page.evaluate(() => document.getElementById('play').click());
    await page.waitForFunction(() => window.tumble.runs().length === 2, null, { timeout: 60000 });
    for (let k = 0; k < 200 && (await page.evaluate(() => window.tumble.time())) < 1.5; k++) {
      longest = Math.max(longest, ...(await page.evaluate(() => window.tumble.springs())).lengths);
      await settle(page);
    }
    await pause(page);
    await page.evaluate(() => window.tumble.settled());
    const inv = await page.evaluate(() => window.tumble.invariants());
    console.log(`# ${size}: t ${inv[INV.t].toFixed(3)} s, the string at most ${longest.toFixed(4)} m, W ${inv[INV.work].toFixed(4)} J, balance ${inv[INV.balance].toExponential(2)} J`);
    assert.ok(inv[INV.t] >= 1.5, `t = ${inv[INV.t]}`);
    // taut, and stretched at most v / omega + g / omega^2 past 0.3 m: the stop rings at about
    // 50 rad/s (solreflimit's 0.02 s) and the ball jerks it at under 1 m/s: 0.324 m
    assert.ok(longest > 0.295 && longest < 0.324, `longest ${longest}`);
    assert.ok(inv[INV.work] > 0.1, `the motor's work ${inv[INV.work]}`);
    assert.ok(Math.abs(inv[INV.balance]) < 1e-9, `balance ${inv[INV.balance]}`);
    // MuJoCo's run of the same model beside, without a failure
    const runs = await page.evaluate(() => window.tumble.runs());
    assert.deepEqual(runs.map((r) => r[0]), ['director', 'mujoco']);
    assert.ok(runs[1][1] > 0.5, `MuJoCo at t = ${runs[1][1]}`);
    assert.equal(runs[1][3], null, `MuJoCo failed: ${runs[1][3]}`);
    await page.screenshot({ path: join(out, `mujoco-rope-${size}.png`) });
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
