// The scenario editor on force elements and drives, in headless Chromium: a bad field inside
// `forces` or `drives` is named with its path and placed at its line and column (the message
// beside the editor and the error mark in the gutter), whether the module's validation or the
// JSON reader finds it; the schema reference has a group for every force element, load, time
// function, the drives and every joint type, with a row for every field docs/scenarios.md
// names. axe-core stays clean with the schema open. Screenshots: tests/out/editor-schema.png
// (laptop), tests/out/editor-schema-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { useBrowser, skip, open, axe, out, root, pause, PHONE } from './harness.mjs';

useBrowser();

const editorText = (page) => page.$eval('.cm-content', (e) => [...e.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));

async function typeText(page, text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

/** Open the editor on the current scenario; its text. */
async function openEditor(page) {
  await page.click('#edit-json');
  await page.waitForSelector('.cm-content .cm-line', { timeout: 30000 });
  return editorText(page);
}

/** The 1-based line and column of the first `needle` after the first `anchor` in `text`. */
function where(text, anchor, needle) {
  const at = text.indexOf(needle, text.indexOf(anchor));
  const before = text.slice(0, at);
  return [before.split('\n').length, at - before.lastIndexOf('\n')];
}

/** Apply `text`; the status line and the gutter lines that carry an error mark (1-based). */
async function applyBad(page, text) {
  await typeText(page, text);
  await page.click('#editor-apply');
  await page.waitForSelector('.cm-lint-marker-error', { timeout: 5000 });
  const status = await page.textContent('#editor-status');
  // the marker sits in the gutter element of its line; the line numbers' gutter names the line
  const marked = await page.evaluate(() => {
    const lint = [...document.querySelectorAll('.cm-gutter-lint .cm-gutterElement')];
    const nums = [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')];
    return lint.filter((e) => e.querySelector('.cm-lint-marker-error')).map((e) => {
      const top = e.getBoundingClientRect().top;
      return Number(nums.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 2)?.textContent);
    });
  });
  return { status, marked };
}

test('a bad field inside forces or drives is named and marked at its line and column', { skip }, async () => {
  const { page, problems } = await open('?scenario=slider-crank&integrator=director');
  await pause(page);
  const good = await openEditor(page);
  const applied = await page.evaluate(() => window.tumble.scenario());
  const cases = [
    // the module's validation: a negative damper in the joint spring
    [good.replace('"damping": 0.1,', '"damping": -1,'), '"joint_spring"', '"damping"',
      /^Not applied: forces\[0\]\.damping must be between 0 and 1e12, not -1 \(line (\d+), column (\d+)\)/],
    // the module's validation: a drive's time function out of range
    [good.replace('"rate": 6.283185307179586, "time": 1', '"rate": 6.283185307179586, "time": -1'), '"ramp_speed"', '"time": -1',
      /^Not applied: drives\[0\]\.time\.time must be between 1e-9 and 1e9, not -1 \(line (\d+), column (\d+)\)/],
    // the module's validation: a drive of an angle on the prismatic joint
    [good.replace('{ "type": "angle", "joint": 0,', '{ "type": "angle", "joint": 3,'), '"drives"', '{ "type": "angle"',
      /^Not applied: drives\[0\]: joints\[3\] is a prismatic joint, which has no angle to drive .* \(line (\d+), column (\d+)\)/],
    // the JSON reader: a misspelt field in a force element
    [good.replace('"rest_angle": 0,', '"rest_angel": 0,'), '"joint_spring"', '"rest_angel"',
      /^Not applied: forces\[0\]\.rest_angel is not a field here; the fields are joint, stiffness, rest_angle, damping and name \(line (\d+), column (\d+)\)/],
    // the JSON reader: a misspelt parameter of a drive's time function
    [good.replace('"rate": 6.283185307179586', '"rat": 6.283185307179586'), '"ramp_speed"', '"rat"',
      /^Not applied: drives\[0\]\.time\.rat is not a field here; the fields are rate and time \(line (\d+), column (\d+)\)/],
  ];
  for (const [text, anchor, needle, re] of cases) {
    const { status, marked } = await applyBad(page, text);
    const m = re.exec(status);
    assert.ok(m, status);
    const [line, column] = where(text, anchor, needle);
    assert.deepEqual([Number(m[1]), Number(m[2])], [line, column], `${status}: expected line ${line}, column ${column}`);
    assert.deepEqual(marked, [line], `the gutter marks line(s) ${marked}, not ${line}`);
    assert.equal(await page.evaluate(() => window.tumble.scenario()), applied, 'the last valid system keeps running');
  }
  assert.deepEqual(problems, []);
  await page.close();
});

// what docs/scenarios.md names: the force elements' fields (its JSON examples), the time
// functions' parameters, the joint types and their rows
const docs = readFileSync(join(root, 'docs', 'scenarios.md'), 'utf8');
const ELEMENTS = [...docs.matchAll(/^\{ "type": "(\w+)",([^}]*)\}/gm)].map(([, type, rest]) => [type, [...rest.matchAll(/"(\w+)":/g)].map((k) => k[1])]);
const KINDS = [...docs.slice(docs.indexOf('Time functions')).matchAll(/`(constant|linear|sine|ramp|ramp_speed)` \(([^)]*)\)/g)]
  .map(([, kind, params]) => [kind, [...params.matchAll(/`(\w+)`/g)].map((p) => p[1])]);
const JOINTS = [...docs.matchAll(/^\| `(\w+)` \| (\d) \|/gm)].map(([, type, rows]) => [type, Number(rows)]);

test('the schema reference has every force element, load, time function, drive field and joint type of the docs', { skip }, async () => {
  assert.deepEqual(ELEMENTS.map(([t]) => t), ['spring', 'joint_spring', 'slider_spring', 'force', 'torque', 'motor', 'slider_motor', 'joint_limit', 'slider_limit', 'tendon_spring', 'tendon_motor', 'tendon_limit', 'tendon_armature', 'rope']);
  assert.deepEqual(KINDS.map(([k]) => k), ['constant', 'linear', 'sine', 'ramp', 'ramp_speed']);
  assert.equal(JOINTS.length, 11);
  for (const [name, options] of [['laptop', { viewport: { width: 1280, height: 800 } }], ['phone', PHONE]]) {
    const { page, problems } = await open('?scenario=kapitza', options);
    await pause(page);
    await openEditor(page);
    await page.click('#editor-schema summary');
    const groups = await page.$$eval('#editor-schema tbody', (bodies) => bodies.map((b) => ({
      title: b.querySelector('th').firstChild.textContent,
      rows: [...b.querySelectorAll('tr')].slice(1).map((r) => [...r.cells].map((c) => c.textContent)),
    })));
    const group = (title) => groups.find((g) => g.title === title) ?? assert.fail(`no group ${title}: ${groups.map((g) => g.title)}`);
    const fields = (g) => g.rows.flatMap(([f]) => f.replace(/^"\w+": /, '').split(', '));
    for (const [type, keys] of ELEMENTS) {
      const g = group(['force', 'torque', 'motor', 'slider_motor', 'tendon_motor'].includes(type) ? `Load "${type}"` : `Force element "${type}"`);
      for (const k of keys.filter((x) => x !== 'type')) assert.ok(fields(g).includes(k), `${type}: no row for ${k} (${fields(g)})`);
      // every row has its meaning and its limits; numbers other than indices and time functions have a unit
      for (const [f, unit, meaning, limits] of g.rows) {
        assert.ok(meaning && limits, `${type}.${f}: ${meaning} | ${limits}`);
        if (!['a', 'b', 'joint', 'slide', 'body', 'time', 'tendon'].includes(f)) assert.ok(unit, `${type}.${f} has no unit`);
      }
    }
    const times = group('Time functions');
    for (const [kind, params] of KINDS) {
      const row = times.rows.find(([f]) => f.startsWith(`"${kind}"`)) ?? assert.fail(`no row for the time function ${kind}`);
      for (const p of params) assert.ok(row[0].includes(p), `${kind}: no parameter ${p} in ${row[0]}`);
      assert.match(row[2], /f/);
    }
    assert.deepEqual(group('Drives').rows.map(([f]) => f), ['joint', 'type', 'time']);
    const joints = group('Joints');
    for (const [type, rows] of JOINTS) {
      const row = joints.rows.find(([f]) => f === `"${type}"`) ?? assert.fail(`no row for the joint type ${type}`);
      assert.match(row[2], new RegExp(`, ${rows} equations?: `), type);
    }
    // the table's first 1600 px (on a phone it is several screens long)
    const box = await page.locator('#editor-schema').boundingBox();
    const scroll = await page.evaluate(() => window.scrollY);
    await page.screenshot({ path: join(out, name === 'laptop' ? 'editor-schema.png' : 'editor-schema-phone.png'), fullPage: true,
      clip: { x: box.x, y: box.y + scroll, width: box.width, height: Math.min(box.height, 1600) } });
    const violations = await axe(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
    assert.deepEqual(problems, []);
    await page.close();
  }
});
