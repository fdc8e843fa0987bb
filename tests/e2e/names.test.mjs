// Names on the page, in headless Chromium: a custom system whose joints are
// named, opened from a #system= link, lists them in the Joint menu ("joint 1: elbow: 2/b
// (revolute, body 0 – body 1)") and the reaction chart's title; the editor's JSON keeps them.
// A name with markup (`<b>x</b>`) is refused by the solver, and the page shows the message
// naming the field with the name as text: no element is made from it. axe-core stays clean.
// Screenshot: tests/out/names.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, loaded, pause } from './harness.mjs';
import { encodeSystem } from '../../www/shared/url.js';

useBrowser();

const system = (elbow) => JSON.stringify({
  bodies: [
    { name: 'upper arm', mass: 2, inertia: [0.7, 0.7, 0.01], size: [0.1, 0.1, 2], position: [0, 0, -1] },
    { mass: 1, inertia: [0.35, 0.35, 0.005], size: [0.1, 0.1, 2], position: [0, 0, -3] },
  ],
  joints: [
    { name: 'shoulder', type: 'revolute', a: null, point_a: [0, 0, 0], b: 0, point_b: [0, 0, 1] },
    { name: elbow, type: 'revolute', a: 0, point_a: [0, 0, -1], b: 1, point_b: [0, 0, 1] },
  ],
  forces: [{ type: 'joint_spring', joint: 1, stiffness: 1, name: 'elbow spring' }],
});

const reactionTitle = (page) => page.evaluate(() => document.getElementById('charts').tumbleCharts.specs.find((s) => s.key === 'reactions')?.shownTitle ?? null);

test('a named system: the Joint menu and the reaction chart show the joints\' names', { skip }, async () => {
  const { page, problems } = await open(`?integrator=director#system=${await encodeSystem(system('elbow: 2/b'))}`);
  await loaded(page);
  await pause(page);
  const options = await page.$$eval('#joint-pick option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(options, ['joint 0: shoulder (revolute, ground \u2013 body 0)', 'joint 1: elbow: 2/b (revolute, body 0 \u2013 body 1)']);
  assert.match(await reactionTitle(page), /^Reaction at joint 0 \(shoulder \(revolute, ground \u2013 body 0\)\)/);
  await page.selectOption('#joint-pick', '1');
  await page.waitForFunction(() => document.getElementById('charts').tumbleCharts.specs.find((s) => s.key === 'reactions')?.shownTitle.startsWith('Reaction at joint 1'));
  assert.match(await reactionTitle(page), /^Reaction at joint 1 \(elbow: 2\/b \(revolute, body 0 \u2013 body 1\)\)/);
  // the editor's JSON (the export) carries the names, each element's first
  await page.click('#edit-json');
  await page.waitForSelector('.cm-content .cm-line', { timeout: 30000 });
  const text = await page.$eval('.cm-content', (e) => [...e.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
  assert.match(text, /\{ "name": "upper arm", "mass": 2,/);
  assert.match(text, /\{ "name": "elbow: 2\/b", "type": "revolute",/);
  assert.match(text, /\{ "name": "elbow spring", "type": "joint_spring",/);
  await page.screenshot({ path: join(out, 'names.png') });
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a name with markup is refused, and the message shows it as text', { skip }, async () => {
  const { page, problems } = await open(`?integrator=director#system=${await encodeSystem(system('<b>x</b>'))}`);
  await page.waitForFunction(() => document.getElementById('error-text').textContent.includes('name'), null, { timeout: 20000 });
  const shown = await page.$eval('#error-text', (e) => ({ text: e.textContent, bold: e.querySelectorAll('b').length, html: e.innerHTML }));
  assert.match(shown.text, /joints\[1\]\.name must be 1 to 64 characters of letters, digits, spaces and _-\.:\/, not "<b>x<\/b>"/);
  assert.equal(shown.bold, 0, 'no element made from the name');
  assert.match(shown.html, /&lt;b&gt;x&lt;\/b&gt;/);
  assert.equal(await page.$$eval('#joint-pick option', (os) => os.some((o) => o.textContent.includes('<b>'))), false);
  assert.deepEqual(problems.filter((p) => !/name must be/.test(p)), []);
  await page.close();
});
