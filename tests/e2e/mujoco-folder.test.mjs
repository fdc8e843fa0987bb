// A folder of MuJoCo models (www/app/mjcf-picker.js), laid out as DeepMind's control suite is
// (models at the top, their includes in common/, assets in their own folder, files that are not
// models beside them): opening the folder lists its two models in the "model" menu and opens
// none; picking one opens it with the files it names (the foot's include and mesh), picking the
// other opens that one, its joint named in the menu and the reaction chart (not the first
// one's), each named in "What am I looking at?", which says why its run and MuJoCo's part; the
// other's texture, missing from the folder, stood in for with a note. The status says what
// happened; axe-core stays clean. Screenshots:
// tests/out/mujoco-folder-laptop.png, mujoco-folder-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, loaded, root, PHONE } from './harness.mjs';

useBrowser();
const folder = join(root, 'tests', 'js', 'fixtures', 'mjcf', 'suite');

for (const [size, viewport] of [['laptop', undefined], ['phone', PHONE]]) {
  test(`${size}: a folder of models offers a menu of them; each opens with the files it names`, { skip }, async () => {
    const { page, problems } = await open('?scenario=nk-revolute&integrator=director', viewport);
    await loaded(page);
    assert.equal(await page.locator('#mjcf-model-label').isHidden(), true);
    await page.setInputFiles('#open-mjcf-dir', folder);
    await page.waitForFunction(() => !document.getElementById('mjcf-model-label').hidden, null, { timeout: 60000 });
    assert.match(await page.locator('#mujoco-status').innerText(), /^These files hold 2 MuJoCo models \(ankle\.xml, swing\.xml\): pick one in the menu "model" beside\.$/);
    const options = await page.$$eval('#mjcf-model option', (o) => o.map((x) => [x.value, x.textContent, x.disabled]));
    assert.deepEqual(options, [['', 'pick a model', true], ['suite/ankle.xml', 'suite/ankle', false], ['suite/swing.xml', 'suite/swing', false]]);
    assert.notEqual(await page.locator('#scenario').inputValue(), 'custom', 'nothing opened before a pick');
    // the foot: its include and its mesh from assets/ read, the ankle's offset hinges converted
    await page.selectOption('#mjcf-model', 'suite/ankle.xml');
    await page.waitForFunction(() => /^Opened the MuJoCo model/.test(document.getElementById('mujoco-status').textContent), null, { timeout: 60000 });
    await loaded(page);
    assert.equal(await page.locator('#scenario').inputValue(), 'custom');
    assert.match(await page.locator('#mujoco-status').innerText(), /its two hinges pass 35\.8 mm apart: a universal joint with that offset/);
    // "What am I looking at?" names the model and says why its run and MuJoCo's part
    assert.equal(await page.locator('#explain .explain-name').innerText(), 'MuJoCo model ankle.xml');
    assert.match(await page.locator('#explain .explain-scenario').textContent(), /note. beside "open a MuJoCo model".*After it they part, and neither is wrong: MuJoCo's contacts and joint limits are soft constraints/s);
    // then the pendulum, from the same menu, with its motor as a control
    await page.selectOption('#mjcf-model', 'suite/swing.xml');
    await page.waitForFunction(() => document.querySelector('#controls-list .control-name')?.textContent === 'torque', null, { timeout: 60000 });
    assert.match(await page.locator('#mujoco-status').textContent(), /texture file 'sky.png' not among the model's files: a plain grey image stands in/);
    // the joint menu and the reaction chart name the pendulum's hinge, not the foot's joint (the
    // labels of a second system opened in a row were the first one's)
    await loaded(page);
    assert.deepEqual(await page.$$eval('#joint-pick option', (o) => o.map((x) => x.textContent)), ['joint 0: hinge (revolute, ground \u2013 body 0)']);
    assert.equal(await page.locator('#explain .explain-name').innerText(), 'MuJoCo model swing.xml');
    const reaction = await page.evaluate(() => document.getElementById('charts').tumbleCharts.specs.find((x) => x.key === 'reactions').shownTitle);
    assert.match(reaction, /^Reaction at joint 0 \(hinge \(revolute, ground . body 0\)\)/);
    await page.locator('#mjcf-model').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(out, `mujoco-folder-${size}.png`) });
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
