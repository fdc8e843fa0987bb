// A walker-like model of our own, as a user opens one: the strider (benches/models/strider.xml,
// a planar root of two slides and a hinge, hips, knees and ankles with stops and motors) picked
// with the file it includes (common/materials.xml), MuJoCo beside it, one actuator driven by its
// slider. The check of W is independent of both engines' bookkeeping: the right hip's motor is
// the only source of work and its torque is constant (control 1 x gear 90 N m from the start, when
// the hip is at 0), so W = 90 N m x the hip's angle (to each engine's discretisation: below), read
// here from the two bodies' directors. The joint coordinates panel shows that angle in both runs,
// every coordinate under MuJoCo's joint name.
// Screenshots: tests/out/walker-laptop.png, walker-phone.png, walker-iframe.png (the page at an iframe's 640 x 400).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, loaded, root, playUntil, pause, PHONE, LAPTOP, IFRAME } from './harness.mjs';

useBrowser();
const dir = join(root, 'benches', 'models');
const FILES = [join(dir, 'strider.xml'), join(dir, 'common', 'materials.xml')];
const [TRUNK, THIGH_R] = [0, 1];
const GEAR = 90; // N m at control 1 (strider.xml's hip_r motor)

/** The angle (rad) of body b's frame relative to body a's about the unit axis n (a's axes), from
 * poses [centre, d1, d2, d3]: R_rel = R_a^T R_b, sin = the skew part along n, cos from the trace. */
function angle(pa, pb, n) {
  const R = (p) => [0, 1, 2].map((i) => [0, 1, 2].map((k) => p[3 + 3 * k + i]));
  const [A, B] = [R(pa), R(pb)];
  const r = [0, 1, 2].map((i) => [0, 1, 2].map((k) => A[0][i] * B[0][k] + A[1][i] * B[1][k] + A[2][i] * B[2][k]));
  const v = [r[2][1] - r[1][2], r[0][2] - r[2][0], r[1][0] - r[0][1]].map((x) => x / 2);
  return Math.atan2(v[0] * n[0] + v[1] * n[1] + v[2] * n[2], (r[0][0] + r[1][1] + r[2][2] - 1) / 2);
}

for (const [size, options] of [['laptop', { viewport: LAPTOP }], ['phone', PHONE], ['iframe', { viewport: IFRAME }]]) {
  test(`${size}: a walker-like model of our own from two files, MuJoCo beside it, its right hip driven by its slider: W = torque x angle in both runs`, { skip }, async () => {
    const { page, problems } = await open('?scenario=nk-revolute&integrator=director', options);
    await loaded(page);
    await page.setInputFiles('#open-mjcf-file', FILES);
    await page.waitForFunction(() => document.getElementById('scenario').value === 'custom', null, { timeout: 60000 });
    await loaded(page);
    const status = await page.locator('#mujoco-status').innerText();
    assert.match(status, /^Opened the MuJoCo model\. joint limits \(6\)/);
    assert.match(status, /controls \(6\): 'hip_r', 'knee_r', 'ankle_r', 'hip_l', 'knee_l', 'ankle_l': drivable/);
    assert.match(await page.locator('#readout').innerText(), /9 degrees of freedom/);
    // MuJoCo beside, then the right hip's slider to its upper end (End) before the run starts
    await page.selectOption('#mujoco', 'RK4');
    await page.waitForFunction(() => window.tumble.runs().length === 2, null, { timeout: 60000 });
    await loaded(page);
    if ((await page.locator('#controls-panel').getAttribute('open')) === null) await page.click('#controls-panel summary');
    assert.deepEqual(await page.$$eval('#controls-list .control-name', (e) => e.map((x) => x.textContent)), ['hip_r', 'knee_r', 'ankle_r', 'hip_l', 'knee_l', 'ankle_l']);
    // paused at the start (MuJoCo's arrival restarted the run, playing): the control from t = 0
    await pause(page);
    await page.evaluate(() => document.getElementById('reset').click());
    await loaded(page);
    assert.equal(await page.evaluate(() => window.tumble.time()), 0);
    await page.focus('#controls-list input');
    await page.keyboard.press('End'); // the link: from t = 0 (s), control 1
    await page.waitForFunction(() => /control=hip_r%3D0%3A1(&|#|$)/.test(window.tumble.link()));
    assert.equal(await page.locator('#controls-list output').first().textContent(), `1 (${GEAR} N m)`);
    await page.evaluate(() => document.getElementById('play').click());
    await playUntil(page, (goal) => window.tumble.time() > goal, 0.4);
    const runs = await page.evaluate(() => window.tumble.runs());
    assert.deepEqual(runs.map((r) => [r[0], r[3]]), [['director', null], ['mujoco', null]]);
    assert.equal(runs[1][1], runs[0][1], 'MuJoCo at the same time');
    const [trunk, right] = await Promise.all([TRUNK, THIGH_R].map((b) => page.evaluate((x) => window.tumble.poses(x), b)));
    const works = await page.evaluate(() => window.tumble.works());
    for (const k of [0, 1]) {
      const hip = angle(trunk[k], right[k], [0, -1, 0]);
      // the driven hip flexes onto its stop (95 degrees, 1.66 rad)
      assert.ok(hip > 1.4, `${runs[k][0]}: hip ${hip} rad`);
      const rel = Math.abs(works[k] - GEAR * hip) / (GEAR * hip);
      // the director's motor gives the exact angular impulse h tau a step, and so does the
      // work tau Delta theta to O(h^3) a step (crates/tumble/src/methods/director/forces.rs: 4e-5
      // of W at h = 2.5 ms); MuJoCo's W is the page's sum of each step's actuator power at its
      // start times h, first order in h (0.3 % here, the hip stopped hard at 95 degrees)
      assert.ok(rel < (k === 0 ? 2e-4 : 1e-2), `${runs[k][0]}: W ${works[k]} J against ${GEAR} N m x ${hip} rad (${rel})`);
    }
    // the joint coordinates panel (folded at first): every coordinate under MuJoCo's joint name
    // (the planar root's three too), a column per run, the hip's angle as read from the
    // directors above
    assert.equal(await page.locator('#coordinates-panel').getAttribute('open'), null);
    assert.equal(await page.locator('#coordinates-panel summary').innerText(), 'Joint coordinates (9, from the start)');
    await page.click('#coordinates-panel summary');
    await page.waitForFunction(() => /\d m$/.test(document.querySelector('#coordinates-table td')?.textContent));
    const table = await page.$$eval('#coordinates-table tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(table[0], ['coordinate', 'director', 'MuJoCo']);
    assert.deepEqual(table.slice(1).map((r) => r[0]), ['slide_z', 'slide_x', 'pitch', 'hip_r', 'knee_r', 'ankle_r', 'hip_l', 'knee_l', 'ankle_l']);
    for (const k of [0, 1]) {
      const [value, unit] = table[4][k + 1].split(' ');
      assert.equal(unit, 'rad');
      assert.ok(Math.abs(Number(value) - angle(trunk[k], right[k], [0, -1, 0])) < 1e-4, `${runs[k][0]}: hip_r shown as ${table[4][k + 1]}`);
    }
    assert.match(table[1][1], /^-?\d+\.\d{4} m$/);
    await page.locator('#coordinates-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(out, `walker-${size}.png`) });
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
