// The reaction chart's joint, picked by the user, in headless Chromium: the "Joint"
// menu lists every joint by index, type and bodies (hidden, with the chart, for a system without
// joints); the keyboard, a click and a finger's tap on a joint's marker pick it, the chart's
// title, caption and lines follow and the view frames the picked marker in white, while a press
// on a joint that moves on still grabs the body under it. For a body hanging at rest the chart
// reads the weight below each hinge (m g) to 1e-6 relative, and no torque, on every
// run of a comparison, each in its run's
// colour, with values the worker computed. axe-core stays clean at laptop, phone and iframe
// sizes. Screenshots: tests/out/reaction-{laptop,phone,phone-chart,iframe}.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, settle, pause, playUntil, PHONE } from './harness.mjs';
import { encodeSystem } from '../../www/shared/url.js';
import { INTEGRATOR_COLORS } from '../../www/shared/names.js';

useBrowser();

/** The reaction chart as the page shows it: its title, caption, and per line label, colour and newest value. */
const reactionChart = (page) => page.evaluate(() => {
  const c = document.getElementById('charts').tumbleCharts;
  const spec = c.specs.find((s) => s.key === 'reactions');
  if (!spec) return null;
  return {
    title: spec.shownTitle,
    caption: document.getElementById('chart-caption-reactions')?.textContent ?? null,
    lines: spec.series.map((s) => ({ run: s.n, label: s.label, color: s.color, last: s.last, max: s.max })),
  };
});

const joint = (page) => page.$eval('#joint-pick', (s) => s.value);

// a 2 kg rod hanging at rest from a hinge at the origin, and a 1 kg rod hanging from its end
const G = 9.81, M0 = 2, M1 = 1;
const HANGING = JSON.stringify({
  bodies: [
    { mass: M0, inertia: [0.7, 0.7, 0.01], size: [0.1, 0.1, 2], position: [0, 0, -1] },
    { mass: M1, inertia: [0.35, 0.35, 0.005], size: [0.1, 0.1, 2], position: [0, 0, -3] },
  ],
  joints: [
    { type: 'revolute', point_a: [0, 0, 0], b: 0, point_b: [0, 0, 1] },
    { type: 'revolute', a: 0, point_a: [0, 0, -1], b: 1, point_b: [0, 0, 1] },
  ],
});

test('the Joint menu lists each joint by index, type and bodies; no menu and no chart without joints', { skip }, async () => {
  const { page, problems } = await open('?scenario=slider-crank&integrator=director');
  assert.equal(await page.textContent('#joint-pick-label').then((t) => t.trim().split(/\s/)[0]), 'Joint');
  assert.deepEqual(await page.$$eval('#joint-pick option', (o) => o.map((x) => `${x.value}=${x.textContent}`)), [
    '0=joint 0: revolute, ground \u2013 body 0',
    '1=joint 1: revolute, body 0 \u2013 body 1',
    '2=joint 2: revolute, body 1 \u2013 body 2',
    '3=joint 3: prismatic, ground \u2013 body 2',
  ]);
  // the whole text of the longest option shows: the menu is as wide as it needs
  const [inner, outer] = await page.$eval('#joint-pick', (s) => [s.scrollWidth, s.clientWidth]);
  assert.ok(inner <= outer, `the menu cuts its text: ${inner} px in ${outer} px`);
  const chart = await reactionChart(page);
  assert.match(chart.title, /^Reaction at joint 0 \(revolute, ground . body 0\): force \|F\| in N \(solid\), torque \|M\| in N m \(dashed\)/);
  assert.match(chart.caption, /^Magnitudes of the force F \(N\) and the torque M \(N m, about the joint's point\) that joint 0 exerts on its body b/);
  assert.equal(await page.evaluate(() => window.tumble.chartedJoint()), 0);
  // a free body: no joint, no menu, no reaction chart, nothing framed
  await page.selectOption('#scenario', 'flip');
  await page.waitForFunction(() => window.tumble.scenario().startsWith('flip') && !window.tumble.loading());
  assert.equal(await page.isVisible('#joint-pick'), false);
  assert.equal(await reactionChart(page), null);
  assert.equal(await page.evaluate(() => window.tumble.chartedJoint()), -1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the keyboard, a click and a tap pick the joint; a press on a joint that moves on grabs the body', { skip }, async () => {
  const { page, problems } = await open('?scenario=double-pendulum&integrator=director');
  await pause(page);
  await settle(page);
  // the keyboard: focus the menu, arrow down
  await page.focus('#joint-pick');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.getElementById('joint-pick').value === '1');
  await settle(page);
  assert.match((await reactionChart(page)).title, /^Reaction at joint 1 \(revolute, body 0 . body 1\)/);
  assert.match((await reactionChart(page)).caption, /that joint 1 exerts/);
  assert.equal(await page.evaluate(() => window.tumble.chartedJoint()), 1);
  // a click on joint 0's marker (the ground hinge): picked, nothing pulled, still paused
  const at0 = await page.evaluate(() => window.tumble.jointOnScreen(0));
  await page.mouse.click(at0[0] + 5, at0[1] - 5);
  await page.waitForFunction(() => document.getElementById('joint-pick').value === '0');
  await settle(page);
  assert.match((await reactionChart(page)).title, /^Reaction at joint 0 /);
  assert.equal(await page.evaluate(() => window.tumble.chartedJoint()), 0);
  assert.deepEqual(await page.evaluate(() => [window.tumble.pulled(), window.tumble.playing()]), [false, false]);
  // a press on joint 1 that moves on: it grabs the rod under it (and plays), the chart's joint stays
  const at1 = await page.evaluate(() => window.tumble.jointOnScreen(1));
  await page.mouse.move(at1[0], at1[1]);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) {
    await page.mouse.move(at1[0] + 10 * i, at1[1]);
    await settle(page);
  }
  await page.waitForFunction(() => window.tumble.pulled(), null, { timeout: 20000 });
  await page.mouse.up();
  assert.equal(await joint(page), '0');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a finger\'s tap within 24 px of a joint picks it on a phone', { skip }, async () => {
  const { page, problems } = await open('?scenario=double-pendulum&integrator=director', PHONE);
  await pause(page);
  await page.locator('#canvas').scrollIntoViewIfNeeded();
  await settle(page);
  const at1 = await page.evaluate(() => window.tumble.jointOnScreen(1));
  // 18 px off: beyond a mouse's 12 px, within a finger's 24 px
  await page.touchscreen.tap(at1[0] + 18, at1[1]);
  await page.waitForFunction(() => document.getElementById('joint-pick').value === '1');
  assert.equal(await page.evaluate(() => window.tumble.pulled()), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('rods hanging at rest: each hinge carries the weight below it to 1e-6, no torque, on each run in its colour', { skip }, async () => {
  const { page, problems } = await open(`?integrator=director&compare=all#system=${await encodeSystem(HANGING)}`);
  assert.equal(await page.evaluate(() => window.tumble.engine()), 'WorkerEngine', 'the runs step in the worker');
  const check = (chart, want, what) => {
    assert.deepEqual(chart.lines.map((l) => `${l.run} ${l.color}`), ['director', 'director', 'rattle', 'rattle', 'baumgarte', 'baumgarte'].map((n) => `${n} ${INTEGRATOR_COLORS[n]}`));
    for (let k = 0; k < chart.lines.length; k += 2) {
      const [f, m] = [chart.lines[k], chart.lines[k + 1]];
      assert.match(f.label, /\|F\| \(N\)$/);
      assert.match(m.label, /\|M\| \(N m\)$/);
      assert.ok(Math.abs(f.last - want) <= 1e-6 * want, `${what}, ${f.run}: |F| = ${f.last} N, want ${want} N`);
      // never more: no sample of the joint charted before (the worker's replies under way when it changed)
      assert.ok(f.max <= want * (1 + 1e-6), `${what}, ${f.run}: largest |F| = ${f.max} N, want ${want} N`);
      assert.ok(m.last <= 1e-6 * want * 1, `${what}, ${m.run}: |M| = ${m.last} N m`);
    }
  };
  // joint 0, the top hinge: both rods' weight, (m0 + m1) g
  await playUntil(page, (goal) => window.tumble.time() > goal, 0.3);
  check(await reactionChart(page), (M0 + M1) * G, 'joint 0');
  // joint 1, picked while playing: the lower rod's weight, m1 g, and never the 29.43 N of joint 0
  // (as fast as possible: a step request is always under way when the joint changes)
  await page.selectOption('#speed', '0');
  await page.evaluate(() => document.getElementById('play').click());
  await page.waitForFunction(() => window.tumble.playing() && window.tumble.time() > 0.5);
  await page.selectOption('#joint-pick', '1');
  // until each run's line of joint 1 has samples (the replies under way when it changed have none)
  await playUntil(page, (goal) => window.tumble.time() > goal
    && document.getElementById('charts').tumbleCharts.specs.find((s) => s.key === 'reactions').series.every((s) => Number.isFinite(s.last)), 2);
  check(await reactionChart(page), M1 * G, 'joint 1');
  // the legend shows each value with its unit in the label
  const legend = await page.$eval('#chart-caption-reactions', (c) => c.parentElement.querySelector('.u-legend').textContent);
  assert.match(legend, /director \|F\| \(N\):?\s*9\.81/);
  // the screen readers' summary reads the chart in N and N m
  assert.match(await page.evaluate(() => document.getElementById('charts').tumbleCharts.summary()), /director \|F\| 9\.81 N now, largest magnitude 9\.81 N; director \|M\| [-0-9.e]+ N m now/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe-core is clean with the Joint menu and the reaction chart; screenshots at laptop, phone and iframe sizes', { skip }, async () => {
  const sizes = [
    ['laptop', { viewport: { width: 1280, height: 800 } }, '?scenario=slider-crank&integrator=director&compare=rattle'],
    ['phone', PHONE, '?scenario=slider-crank&integrator=director&compare=rattle'],
    ['iframe', { viewport: { width: 600, height: 400 } }, '?embed=1&scenario=slider-crank&integrator=director&compare=rattle&charts=energy,reactions&autoplay'],
  ];
  for (const [name, options, query] of sizes) {
    const { page, problems } = await open(query, options);
    if (name === 'iframe') {
      await page.waitForFunction(() => window.tumble.chartPoints() > 20 && window.tumble.time() > 0.4, null, { timeout: 30000 });
      await page.evaluate(() => window.tumble.element.pause());
      await settle(page);
      const title = await page.evaluate(() => window.tumble.element.shadowRoot.querySelector('.charts').tumbleCharts.specs.find((s) => s.key === 'reactions')?.shownTitle);
      assert.match(title ?? '', /^joint 0 reaction \(N, N m\)$/, 'the embed charts joint 0');
      await page.screenshot({ path: join(out, `reaction-${name}.png`) });
    } else {
      await page.selectOption('#joint-pick', '2');
      await playUntil(page, (goal) => window.tumble.time() > goal, 0.8);
      assert.match((await reactionChart(page)).title, /^Reaction at joint 2 /);
      if (name === 'phone') {
        // the phone's page is long: the view with the Joint menu, then the chart with its caption
        await page.locator('#joint-pick').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(out, `reaction-${name}.png`) });
        await page.locator('#chart-caption-reactions').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(out, `reaction-${name}-chart.png`) });
      } else {
        await page.screenshot({ path: join(out, `reaction-${name}.png`), fullPage: true });
      }
    }
    const violations = await axe(page);
    assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations, null, 1)}`);
    assert.deepEqual(problems, [], name);
    await page.close();
  }
});

test("a link's reaction=k charts that joint, on the page and in an embed; a joint the system lacks is named", { skip }, async () => {
  const { page, problems } = await open('?scenario=slider-crank&integrator=director&reaction=3');
  assert.equal(await joint(page), '3');
  assert.match((await reactionChart(page)).title, /^Reaction at joint 3 \(prismatic/);
  assert.match(await page.evaluate(() => window.tumble.link()), /[?&]reaction=3(&|$)/, 'the link keeps the joint');
  // picking another joint updates the link; joint 0 is the default and leaves it out
  await page.selectOption('#joint-pick', '1');
  assert.match(await page.evaluate(() => window.tumble.link()), /[?&]reaction=1(&|$)/);
  await page.selectOption('#joint-pick', '0');
  assert.doesNotMatch(await page.evaluate(() => window.tumble.link()), /reaction=/);
  // another scenario starts at its own joint 0
  await page.selectOption('#joint-pick', '2');
  await page.selectOption('#scenario', 'damped-pendulum');
  await page.waitForFunction(() => window.tumble.scenario().startsWith('damped-pendulum') && !window.tumble.loading());
  assert.equal(await joint(page), '0');
  assert.doesNotMatch(await page.evaluate(() => window.tumble.link()), /reaction=/);
  assert.deepEqual(problems, []);
  await page.close();
  // a joint the system does not have: it says so and charts joint 0
  const bad = await open('?scenario=slider-crank&integrator=director&reaction=9');
  await bad.page.waitForFunction(() => window.tumble.error());
  assert.match(await bad.page.evaluate(() => window.tumble.error()), /joint 9, but this system has 4 joints, numbered 0 to 3: the reaction chart shows joint 0/);
  assert.equal(await joint(bad.page), '0');
  await bad.page.close();
  // a malformed one: the link's message
  const junk = await open('?scenario=slider-crank&integrator=director&reaction=two');
  await junk.page.waitForFunction(() => window.tumble.error());
  assert.match(await junk.page.evaluate(() => window.tumble.error()), /'reaction' in this link must be the number of the joint/);
  await junk.page.close();
  // the embed: joint=2
  const embed = await open('?embed=1&scenario=slider-crank&integrator=director&charts=reactions&reaction=2&autoplay', { viewport: { width: 600, height: 400 } });
  await embed.page.waitForFunction(() => window.tumble.chartPoints() > 5, null, { timeout: 30000 });
  const title = await embed.page.evaluate(() => window.tumble.element.shadowRoot.querySelector('.charts').tumbleCharts.specs.find((s) => s.key === 'reactions')?.shownTitle);
  assert.match(title ?? '', /^joint 2 reaction \(N, N m\)$/);
  assert.deepEqual(embed.problems, []);
  await embed.page.close();
});
