// Force elements on the page in headless Chromium: springs drawn as coils that
// stretch with the spring (and come back with the history), the energy budget chart of a system
// with force elements (T, V, W and D in their own colours, W growing from 0 J), the energy chart
// reading the balance |E - E0 - W + D| for such a system and the relative energy error for a
// conservative one, the exports' three new columns, and axe-core on the driven pendulum.
// Screenshots: tests/out/forces-spring.png, forces-budget.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, skip, open, loaded, axe, out, settle, playUntil } from './harness.mjs';
import { INV, NINV } from '../../www/shared/invariants.js';

useBrowser();

/** Play until the simulated time passes `t` (s), then pause with every step asked for landed. */
const playTo = (page, t) => playUntil(page, (goal) => window.tumble.time() > goal, t);

/** The spring's pixels in the 3-D view: how many are within 90 levels of the coil's steel
 * colour, and the height of their bounding box (px). */
const steel = (page) => page.evaluate(() => {
  const c = document.getElementById('canvas'), gl = c.getContext('webgl2');
  const px = new Uint8Array(c.width * c.height * 4);
  gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const want = [0.86, 0.89, 0.95].map((v) => 255 * v);
  let n = 0, top = Infinity, bottom = -Infinity;
  for (let i = 0; i < px.length; i += 4) {
    if (Math.abs(px[i] - want[0]) + Math.abs(px[i + 1] - want[1]) + Math.abs(px[i + 2] - want[2]) > 90) continue;
    n++;
    const y = Math.floor(i / 4 / c.width);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  }
  return { n, height: n ? bottom - top : 0 };
});

test('spring-pendulum: the spring is drawn as a coil that stretches, and the history keeps its ends', { skip }, async () => {
  const { page, problems } = await open('?scenario=spring-pendulum&integrator=director');
  await playTo(page, 1.2);
  const { COIL_FLOATS } = await page.evaluate(() => import('./view/render.js'));
  const later = await page.evaluate(() => window.tumble.springs());
  assert.equal(later.lengths.length, 1, 'one spring');
  assert.equal(later.coilVerts, COIL_FLOATS / 6, 'one coil of line segments a spring');
  const drawnLater = await steel(page);
  // back to t = 0 with the scrubber: the stored sample's spring ends
  await page.evaluate(() => { const s = document.getElementById('scrub'); s.value = '0'; s.dispatchEvent(new Event('input')); });
  const start = 1 + 9.81 / 40 + 0.2; // hanging length 1 m + g/k, stretched 0.2 m (m)
  await page.waitForFunction((l) => Math.abs(window.tumble.springs().lengths[0] - l) < 1e-9, start, { timeout: 10000 });
  await settle(page);
  const drawnStart = await steel(page);
  await page.locator('#canvas').screenshot({ path: join(out, 'forces-spring.png') });
  // stretched differently by then: at t = 1.2 s the body has bounced (0.85 m to 1.64 m)
  assert.ok(Math.abs(later.lengths[0] - start) > 0.05, `spring length ${later.lengths[0]} m at t > 1.2 s, ${start} m at t = 0 s`);
  for (const [when, d] of [['t = 0 s', drawnStart], ['t > 1.2 s', drawnLater]]) {
    assert.ok(d.n > 60, `${when}: only ${d.n} pixels of the coil's colour`);
  }
  // the coil on screen follows the spring's length (the camera has not moved)
  assert.notEqual(drawnStart.height, drawnLater.height, `the coil is ${drawnStart.height} px tall at both times`);
  // a system without springs draws no coil
  await page.selectOption('#scenario', 'damped-pendulum');
  await loaded(page);
  await settle(page);
  assert.deepEqual(await page.evaluate(() => window.tumble.springs()), { lengths: [], coilVerts: 0, dashVerts: 0, rodVerts: 0 });
  assert.deepEqual(problems, []);
  await page.close();
});

/** Contrast ratio of a colour '#rrggbb' against white (WCAG 2). */
function contrastOnWhite(hex) {
  const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255));
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

test('driven-pendulum: the energy budget chart shows T, V, W and D in their own colours; W grows from 0 J, D never falls', { skip }, async () => {
  const { page, problems } = await open('?scenario=driven-pendulum&integrator=director&compare=rattle');
  await playTo(page, 2.5);
  // C, the contacts' and stops' energy, has a colour too; it is not drawn for a pendulum that
  // touches nothing (the line shows once it is not zero)
  const all = await page.evaluate(async () => (await import('./view/charts.js')).BUDGET_COLORS);
  assert.deepEqual(Object.keys(all), ['T', 'V', 'W', 'D', 'C']);
  assert.equal(new Set(Object.values(all)).size, 5, 'one colour per quantity');
  const colours = { T: all.T, V: all.V, W: all.W, D: all.D };
  const integrators = await page.evaluate(async () => Object.values((await import('./shared/names.js')).INTEGRATOR_COLORS));
  for (const [k, c] of Object.entries(all)) {
    assert.ok(contrastOnWhite(c) >= 3, `${k}: ${c} has contrast ${contrastOnWhite(c).toFixed(2)} against the white chart`);
    assert.ok(!integrators.includes(c), `${k}: ${c} is an integrator's colour`);
  }
  const b = await page.evaluate(() => {
    const charts = document.getElementById('charts').tumbleCharts;
    const ci = charts.specs.findIndex((s) => s.key === 'budget');
    const p = charts.plots[ci];
    const c = p.root.querySelector('canvas');
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const strokes = p.series.slice(1).map((s) => s._stroke ?? s.stroke);
    const rgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    const counts = strokes.map((h) => {
      const [r, g, bl] = rgb(typeof h === 'function' ? h() : h);
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i + 3] >= 250 && Math.abs(px[i] - r) + Math.abs(px[i + 1] - g) + Math.abs(px[i + 2] - bl) <= 40) n++;
      return n;
    });
    return {
      count: charts.specs.length, index: ci, title: p.root.querySelector('.u-title').textContent,
      labels: p.series.map((s) => s.label), strokes, counts, t: Array.from(p.data[0]),
      W: Array.from(p.data[3]), D: Array.from(p.data[4]), aria: p.root.getAttribute('aria-label'),
      swatches: [...p.root.querySelectorAll('.u-legend .u-marker svg line')].map((l) => l.getAttribute('stroke')),
    };
  });
  assert.equal(b.count, 6, 'energy, budget, momentum, constraints, iterations, reaction');
  assert.equal(b.index, 1, 'the budget comes right after the energy chart');
  assert.equal(b.title, 'Energy budget in J: kinetic T, potential V, work put in W, dissipated D (director run)');
  assert.deepEqual(b.labels, ['t (s)', 'kinetic T (J)', 'potential V (J)', 'work in W (J)', 'dissipated D (J)']);
  assert.deepEqual(b.strokes, Object.values(colours));
  assert.deepEqual(b.swatches, Object.values(colours), 'legend swatches in the series\' colours');
  b.counts.forEach((n, i) => assert.ok(n >= 40, `${b.labels[i + 1]}: ${n} pixels of its colour`));
  assert.match(b.aria, /in J/);
  assert.equal(b.t[0], 0);
  assert.equal(b.W[0], 0, 'W starts at 0 J');
  assert.ok(b.W[b.W.length - 1] > 1, `W = ${b.W[b.W.length - 1]} J at t = ${b.t[b.t.length - 1]} s`);
  for (let i = 1; i < b.D.length; i++) assert.ok(b.D[i] >= b.D[i - 1], `D falls at sample ${i}`);
  await page.evaluate(() => document.getElementById('charts').scrollIntoView());
  await page.locator('#charts .uplot').nth(1).screenshot({ path: join(out, 'forces-budget.png') });
  // the readout states W, D and the balance in J
  assert.match(await page.textContent('#readout'), /W = \S+ J in, D = \S+ J dissipated, E \u2212 E\u2080 \u2212 W \+ D = \S+ J/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the energy chart reads the balance |E - E0 - W + D| for a forced system, the relative energy error for nk-revolute', { skip }, async () => {
  const { page, problems } = await open('?scenario=driven-pendulum&integrator=director');
  await playTo(page, 1);
  const forced = await page.evaluate(() => {
    const charts = document.getElementById('charts').tumbleCharts, p = charts.plots[0];
    const y = Array.from(p.data[1]);
    return { title: p.root.querySelector('.u-title').textContent, label: p.series[1].label, last: y[y.length - 1], inv: window.tumble.invariants(), note: document.querySelector('#charts .charts-note').textContent };
  });
  assert.equal(forced.title, 'Energy balance error |E \u2212 E\u2080 \u2212 W + D| / max(|E\u2080|, 1 J), E\u2080 = -4.905 J (W: work in, D: dissipated)');
  assert.equal(forced.label, 'balance');
  assert.equal(forced.inv.length, NINV);
  // the value drawn: |balance| over the stated scale max(|E0|, 1 J) = 4.905 J, the director's at round-off
  assert.ok(Math.abs(forced.last - Math.max(Math.abs(forced.inv[INV.balance]) / 4.905, 1e-16)) <= 1e-12 * Math.abs(forced.last), `${forced.last} vs ${forced.inv[INV.balance]} J / 4.905 J`);
  assert.ok(Math.abs(forced.inv[INV.balance]) < 1e-9, `director balance ${forced.inv[INV.balance]} J`);
  assert.match(forced.note, /balance error is relative to \|E\u2080\| when \|E\u2080\| > 1 J, in J below/);
  await page.selectOption('#scenario', 'nk-revolute');
  await loaded(page);
  await settle(page);
  const plain = await page.evaluate(() => {
    const charts = document.getElementById('charts').tumbleCharts;
    return { title: charts.plots[0].root.querySelector('.u-title').textContent, keys: charts.specs.map((s) => s.key), note: document.querySelector('#charts .charts-note').textContent };
  });
  assert.equal(plain.title, 'Energy: relative error |E \u2212 E\u2080| / |E\u2080|');
  assert.deepEqual(plain.keys, ['energy', 'momentum', 'constraints', 'iterations', 'reactions'], 'no budget chart for a conservative system');
  assert.ok(!/balance/.test(plain.note));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the exports carry work, dissipated and balance for every sample', { skip }, async () => {
  const { page, problems } = await open('?scenario=damped-pendulum&integrator=director');
  await playTo(page, 0.5);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const doc = JSON.parse(await readFile(await dl.path(), 'utf8'));
  const s = doc.runs[0].samples;
  assert.ok(s.length > 10);
  for (const k of ['work', 'dissipated', 'balance']) assert.ok(s.every((x) => Number.isFinite(x[k])), `${k} in every sample`);
  assert.equal(s[0].dissipated, 0);
  assert.ok(s[s.length - 1].dissipated > 0, 'the damper has taken energy out');
  // E - E0 - W + D, from the exported numbers, is the exported balance (to round-off)
  for (const x of s) assert.ok(Math.abs(x.energy - s[0].energy - x.work + x.dissipated - x.balance) < 1e-12, `t = ${x.t} s`);
  const [dl2] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const lines = (await readFile(await dl2.path(), 'utf8')).trim().split('\n');
  assert.equal(lines[0].split(',').slice(-4).join(), 'work,dissipated,balance,state_hash');
  assert.ok(lines.slice(1).every((l) => l.split(',').length === 16));
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe-core: no serious or critical violation on the page with driven-pendulum loaded', { skip }, async () => {
  const { page, problems } = await open('?scenario=driven-pendulum&integrator=director&compare=all');
  await playTo(page, 0.5);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});
