// Recording and explanations in the real page (headless Chromium): Record / Stop produce a
// WebM file that starts with the EBML header and decodes to frames (view alone, and view with
// charts); the recording indicator shows while recording only; a browser without MediaRecorder
// gets a sentence, not an exception; every preset and integrator is explained, one paragraph
// per integrator in compare mode, numbers with units; the panel does not push the view off
// screen, is closed on phones and hidden in embeds unless &explain=1; axe-core on both.
// Screenshots: tests/out/explain.png, explain-phone.png, recording.png, recording-frame*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, skip, open, out, axe, PHONE, LAPTOP } from './harness.mjs';

useBrowser();

// ---- helpers ----

const UNIT = /^\s*(?:kg m²\/s|kg m²|kg|m\/s²|m\/s|rad\/s|rad|mm|ms|MPa|m|s|J|1\/s|degrees|%|N m s\/rad|N m\/rad|N m|N\/m|N|Hz)(?![\w²])/;
const COUNT = /^\s*(?:boxes|box|bodies|balls|links|iterations|steps|numbers|integrators|arrows|(?:contact )?rows)\b/;
// numbers sharing one unit: "0.9144, 1.098 and 1.66 kg m²", "(0.1, 0.2, 0.3) rad/s", "l1 = 0.4, l2 = 0.9 kg m²/s", "3 to 8 iterations"
const LIST = /^(?:\)?(?:,\s*|\s+and\s+|\s+to\s+)(?:l\d = )?\d[\d.e-]*)*\)?(?:\/N)?/;

/** Numbers in `text` that state a quantity without a unit (returned with their context). */
export function unitless(text) {
  const bad = [];
  for (const sentence of text.split(/(?<=[.:;!?])\s+(?=[A-Z(])/)) {
    for (const m of sentence.matchAll(/(?<![\w.\-\/])\d+(?:\.\d+)?(?:e-?\d+)?(?!\/s)/g)) {
      const before = sentence.slice(0, m.index);
      const after = sentence.slice(m.index + m[0].length);
      if (/^(19|20)\d\d$/.test(m[0])) continue;                    // a year in a citation
      if (/(sec\.|Fig\.|eq\.)\s*\(?$/.test(before)) continue;        // a section, figure or equation number
      if (/relative|tolerance/.test(before) && /e-\d/.test(m[0])) continue; // a relative error: no unit
      if (/(restitution|ratio|mu(_[sk])?)\s*(=|of)?\s*$/.test(before)) continue; // a coefficient: no unit
      const rest = after.replace(LIST, '');
      if (UNIT.test(rest) || COUNT.test(rest)) continue;
      bad.push(`"${sentence.slice(Math.max(0, m.index - 25), m.index + m[0].length + 20)}"`);
    }
  }
  return bad;
}

const texts = (page) => page.evaluate(async () => {
  const m = await import('./view/explain.js');
  return { scenarios: m.SCENARIO_TEXT, integrators: m.INTEGRATOR_TEXT };
});

const panel = (page) => page.evaluate(() => {
  const d = document.querySelector('#explain details');
  return {
    open: d?.open ?? null,
    scenario: d?.querySelector('.explain-scenario')?.dataset.scenario ?? null,
    text: d?.textContent ?? '',
    methods: [...document.querySelectorAll('#explain .explain-method')].map((m) => [m.dataset.integrator, m.textContent]),
    visible: !!document.querySelector('#explain')?.offsetParent,
  };
});

// wait until the panel explains `scenario` with `integrators` (primary first)
async function expectPanel(page, t, scenario, integrators) {
  // (the page loads a new run asynchronously: wait for the panel of exactly these integrators)
  await page.waitForFunction(([s, names]) => document.querySelector('#explain .explain-scenario')?.dataset.scenario === s
    && [...document.querySelectorAll('#explain .explain-method')].map((m) => m.dataset.integrator).join() === names.join(), [scenario, integrators], { timeout: 10000 });
  const p = await panel(page);
  const sc = t.scenarios[scenario];
  assert.ok(p.text.includes(sc.text), `${scenario}: scenario text missing`);
  assert.ok(p.text.includes(sc.look), `${scenario}: what to look for missing`);
  assert.deepEqual(p.methods.map((m) => m[0]), integrators, `${scenario}: integrator paragraphs`);
  for (const [name, text] of p.methods) {
    assert.ok(text.includes(t.integrators[name].text) && text.includes(t.integrators[name].look), `${scenario}/${name}: paragraph incomplete`);
  }
  return p;
}

// mine: the explanation panel and the recording controls; the rest belongs to other parts of the page
const isMine = (v) => /explain|rec-|#record/.test(v);

async function recordOnce(page, { withCharts, shot }) {
  if (withCharts) await page.check('#record-charts');
  else await page.uncheck('#record-charts');
  assert.equal(await page.isVisible('#rec-indicator'), false, 'indicator shown before recording');
  await page.click('#record');
  await page.waitForSelector('#rec-indicator', { state: 'visible', timeout: 5000 });
  // the page plays meanwhile; the indicator counts the seconds recorded
  await page.waitForFunction(() => /REC\s*0:0[1-9]/.test(document.getElementById('rec-indicator').textContent), null, { timeout: 20000 }).catch(() => {});
  const label = await page.textContent('#rec-indicator');
  assert.match(label, /REC\s*0:0[1-9]/, `indicator: ${label}`);
  assert.ok(await page.evaluate(() => window.tumble.playing()), 'the page stopped playing while recording');
  if (shot) await page.screenshot({ path: join(out, shot) });
  const download = page.waitForEvent('download', { timeout: 15000 });
  await page.click('#rec-stop');
  const file = await download;
  const bytes = await readFile(await file.path());
  await page.waitForSelector('#rec-indicator', { state: 'hidden', timeout: 5000 });
  assert.equal(await page.textContent('#record'), 'Record video');
  return { name: file.suggestedFilename(), bytes };
}

// decode the first frame of a video in the page; returns its size and a PNG of it
async function firstFrame(page, bytes) {
  return page.evaluate(async (b64) => {
    const blob = await (await fetch(`data:video/webm;base64,${b64}`)).blob();
    const v = document.createElement('video');
    v.muted = true;
    v.src = URL.createObjectURL(blob);
    await new Promise((ok, fail) => { v.onloadeddata = ok; v.onerror = () => fail(new Error('the video does not decode')); });
    // a decoded frame is drawable once presented: play until the first frame callback
    await v.play();
    await new Promise((ok) => v.requestVideoFrameCallback(ok));
    v.pause();
    const c = document.createElement('canvas');
    c.width = v.videoWidth; c.height = v.videoHeight;
    const g = c.getContext('2d');
    g.drawImage(v, 0, 0);
    const px = g.getImageData(0, 0, c.width, c.height).data;
    let lit = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] > 120) lit++;
    return { width: v.videoWidth, height: v.videoHeight, lit: lit / (px.length / 4), png: c.toDataURL('image/png').split(',')[1] };
  }, bytes.toString('base64'));
}

// ---- recording ----

test('Record / Stop downloads a WebM video of the view, and of the view with the charts', { skip }, async () => {
  const { page, problems } = await open();
  await page.waitForFunction(() => window.tumble.chartPoints() > 10, null, { timeout: 30000 });
  const viewWidth = await page.evaluate(() => document.getElementById('canvas').width);

  const view = await recordOnce(page, { withCharts: false, shot: 'recording.png' });
  assert.equal(view.name, 'tumble-free-body-rattle.webm');
  assert.ok(view.bytes.length > 1024, `only ${view.bytes.length} bytes`);
  assert.equal(view.bytes.subarray(0, 4).toString('hex'), '1a45dfa3', 'no EBML (WebM) header');
  const f1 = await firstFrame(page, view.bytes);
  assert.ok(f1.width > 100 && f1.height > 100, `frame ${f1.width} x ${f1.height}`);
  await writeFile(join(out, 'recording-frame.png'), Buffer.from(f1.png, 'base64'));

  const both = await recordOnce(page, { withCharts: true });
  assert.ok(both.bytes.length > 1024, `only ${both.bytes.length} bytes`);
  assert.equal(both.bytes.subarray(0, 4).toString('hex'), '1a45dfa3', 'no EBML (WebM) header');
  const f2 = await firstFrame(page, both.bytes);
  // the composite is wider than the view for its height: the charts column is there, and light (white panel)
  assert.ok(f2.width / f2.height > f1.width / f1.height + 0.2, `composite ${f2.width} x ${f2.height} vs view ${f1.width} x ${f1.height}`);
  assert.ok(f2.lit > f1.lit + 0.1, `charts column not drawn (lit ${f2.lit} vs ${f1.lit})`);
  await writeFile(join(out, 'recording-frame-charts.png'), Buffer.from(f2.png, 'base64'));
  assert.ok(viewWidth > 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a browser without MediaRecorder gets a sentence in the error panel', { skip }, async () => {
  const { page, problems } = await open();
  await page.evaluate(() => { window.MediaRecorder = undefined; });
  await page.click('#record');
  const msg = await page.evaluate(() => window.tumble.error());
  assert.match(msg ?? '', /MediaRecorder/);
  assert.equal(await page.isVisible('#rec-indicator'), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe-core while recording: no serious or critical violations from the recording controls', { skip }, async () => {
  const { page, problems } = await open();
  await page.click('#record');
  await page.waitForSelector('#rec-indicator', { state: 'visible' });
  const found = await axe(page);
  const others = found.filter((v) => !isMine(v));
  if (others.length) console.log('axe (recording), not from the recording controls or the explanation:\n  ' + others.join('\n  '));
  assert.deepEqual(found.filter(isMine), []);
  await page.waitForTimeout(1000); // a second of video after the axe run (which can hold the page)
  const download = page.waitForEvent('download');
  await page.click('#record'); // the Record button stops as well
  const failed = page.waitForFunction(() => window.tumble.error(), null, { timeout: 30000 }).then((h) => h.jsonValue());
  const outcome = await Promise.race([download.then(() => null), failed]);
  assert.equal(outcome, null, 'no download: the page says why');
  assert.deepEqual(problems, []);
  await page.close();
});

// ---- explanations ----

test('every number in the explanations has a unit (or is a relative error or a count)', { skip }, async () => {
  const { page } = await open();
  const t = await texts(page);
  const all = [...Object.entries(t.scenarios).flatMap(([k, v]) => [[k, v.title], [k, v.text], [k, v.look], ...(v.mujoco ? [[k, v.mujoco]] : [])]),
    ...Object.entries(t.integrators).flatMap(([k, v]) => [[k, v.title], [k, v.text], [k, v.look]])];
  const bad = all.flatMap(([k, s]) => unitless(s).map((b) => `${k}: ${b}`));
  assert.deepEqual(bad, []);
  // and the check itself catches a missing unit
  assert.equal(unitless('The paper uses the step h = 0.1 here.').length, 1);
  assert.equal(unitless('The paper uses the step h = 0.1 s here.').length, 0);
  assert.equal(unitless('A restitution of 0.8 and mu_k = 0.4 have no unit.').length, 0);
  for (const name of ['free-body', 'flip', 'top', 'nk-revolute', 'nk-spherical', 'chain', 'double-pendulum', 'four-bar', 'catenary', 'spring-pendulum', 'damped-pendulum', 'driven-pendulum', 'custom']) {
    assert.ok(t.scenarios[name]?.title && t.scenarios[name].text.length > 80 && t.scenarios[name].look.length > 40, `text for ${name}`);
  }
  for (const [name, source] of [['director', /Nielsen & Krenk 2013/], ['rattle', /Terze, Mueller & Zlatar 2013/], ['baumgarte', /STAR-CCM\+/]]) assert.match(t.integrators[name].paper, source, `${name}: its paper`);
  await page.close();
});

test('every preset and integrator is explained; one paragraph per integrator in compare mode', { skip }, async () => {
  const { page, problems } = await open();
  const t = await texts(page);
  const names = await page.$$eval('#scenario option', (os) => os.map((o) => o.value));
  assert.ok(names.length >= 6);
  for (const name of names) {
    await page.selectOption('#scenario', name);
    await expectPanel(page, t, name, ['rattle']);
  }
  for (const integrator of ['director', 'baumgarte', 'rattle']) {
    await page.selectOption('#integrator', integrator);
    await expectPanel(page, t, names[names.length - 1], [integrator]);
  }
  // the chain's own settings are stated
  await page.selectOption('#scenario', 'chain');
  assert.match((await expectPanel(page, t, 'chain', ['rattle'])).text, /This run: \d+ boxes, hinge \(revolute\) joints/);
  // compare: primary first, then the others, and what to compare
  await page.selectOption('#scenario', 'nk-revolute');
  await page.selectOption('#compare', 'all');
  const p = await expectPanel(page, t, 'nk-revolute', ['rattle', 'director', 'baumgarte']);
  assert.match(p.text, /Comparing 3 integrators/);
  assert.match(p.text, /Compare:/);
  await page.selectOption('#compare', 'director');
  await expectPanel(page, t, 'nk-revolute', ['rattle', 'director']);
  // the panel keeps the reader's open / closed choice across restarts
  await page.click('#explain summary');
  await page.selectOption('#integrator', 'baumgarte');
  await expectPanel(page, t, 'nk-revolute', ['baumgarte', 'director']);
  assert.equal((await panel(page)).open, false, 'the panel reopened by itself');
  // a custom (JSON) system gets the generic text
  const json = JSON.stringify({ bodies: [{ mass: 1, inertia: [1, 2, 2.5] }] });
  const custom = await open('?scenario=' + encodeURIComponent(json));
  assert.equal(await custom.page.evaluate(() => window.tumble.error()), null);
  await expectPanel(custom.page, t, 'custom', ['rattle']);
  await custom.page.close();
  assert.deepEqual(problems, []);
  await page.close();
});

test('the explanation sits below the view: open on a laptop, closed on a phone, view in sight; axe-core', { skip }, async () => {
  const { page, problems } = await open('?scenario=flip&integrator=director&compare=rattle');
  await page.waitForSelector('#explain details');
  let p = await panel(page);
  assert.equal(p.open, true, 'closed on a laptop');
  assert.ok(p.visible);
  const rect = (sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; });
  const view = await rect('.view');
  assert.ok(view.top >= 0 && view.bottom <= LAPTOP.height, `view off screen: ${JSON.stringify(view)}`);
  const box = await rect('#explain');
  assert.ok(box.top >= view.bottom, 'the panel overlaps the view');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'sideways scrolling');
  const found = await axe(page);
  const others = found.filter((v) => !isMine(v));
  if (others.length) console.log('axe (laptop, panel open), not from the explanation or the recording controls:\n  ' + others.join('\n  '));
  assert.deepEqual(found.filter(isMine), []);
  await page.screenshot({ path: join(out, 'explain.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();

  const phone = await open('?scenario=top&integrator=director', PHONE);
  await phone.page.waitForSelector('#explain details');
  p = await panel(phone.page);
  assert.equal(p.open, false, 'open on a phone');
  // the panel comes after the view and the charts: it cannot push the view down
  const [pv, pe] = await phone.page.evaluate(() => [document.querySelector('.view').getBoundingClientRect(), document.getElementById('explain').getBoundingClientRect()].map((r) => [r.top, r.bottom]));
  assert.ok(pv[0] < PHONE.viewport.height && pe[0] >= pv[1], `phone: view ${pv}, panel ${pe}`);
  await phone.page.click('#explain summary');
  assert.equal((await panel(phone.page)).open, true);
  assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'phone: sideways scrolling');
  const target = await phone.page.$eval('#explain summary', (e) => e.getBoundingClientRect().height);
  assert.ok(target >= 44, `summary touch target ${target} px`);
  const pf = await axe(phone.page);
  const po = pf.filter((v) => !isMine(v));
  if (po.length) console.log('axe (phone, panel open), not from the explanation or the recording controls:\n  ' + po.join('\n  '));
  assert.deepEqual(pf.filter(isMine), []);
  await phone.page.$eval('#explain', (e) => e.scrollIntoView());
  await phone.page.screenshot({ path: join(out, 'explain-phone.png') });
  assert.deepEqual(phone.problems, []);
  await phone.page.close();
});

test('embeds hide the explanation unless the link asks for it (&explain=1, kept when the element changes)', { skip }, async () => {
  const about = (page) => page.evaluate(() => {
    const a = window.tumble.element.shadowRoot.querySelector('.about');
    const d = a.querySelector('details');
    return { visible: a.offsetParent !== null && !a.hidden, open: d?.open ?? null, text: a.textContent };
  });
  const plain = await open('?scenario=top&integrator=rattle&embed=1', { viewport: { width: 640, height: 400 } });
  await plain.page.waitForFunction(() => window.tumble.element.player !== null);
  assert.equal((await about(plain.page)).visible, false, 'shown in a plain embed');
  await plain.page.close();
  const { page, problems } = await open('?scenario=top&integrator=rattle&embed=1&explain=1', { viewport: { width: 640, height: 400 } });
  await page.waitForFunction(() => window.tumble.element.shadowRoot.querySelector('.about details') !== null);
  const p = await about(page);
  assert.equal(p.visible, true, 'hidden although asked for');
  assert.equal(p.open, false, 'an embed opens with the panel closed');
  assert.match(p.text, /RATTLE/);
  assert.equal(await page.evaluate(() => window.tumble.error()), null);
  await page.evaluate(() => window.tumble.element.setAttribute('integrator', 'director'));
  await page.waitForFunction(() => /director method/i.test(window.tumble.element.shadowRoot.querySelector('.about').textContent));
  assert.equal((await about(page)).visible, true);
  assert.deepEqual(problems, []);
  await page.close();
});
