// The invariant charts (www/view/charts.js) in headless Chromium: readable in compare mode (every
// integrator's line shows in its own colour in every chart), tick labels that neither overlap nor
// get clipped at laptop, phone and iframe sizes, sparse log-axis labels, an accessible name and a
// text summary, stopped runs, the whole run kept (thinned, every spike kept) and the time cursor.
// Screenshots: tests/out/charts-compare.png, charts-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, skip, open, axe, out, PHONE, IFRAME, LAPTOP, pause, playUntil } from './harness.mjs';

useBrowser();

const runFor = (page, points) => playUntil(page, (n) => window.tumble.chartPoints() > n, points);

/** For each chart canvas: how many pixels are within `tol` (sum of |dr|+|dg|+|db|) of each colour. */
function countColours(page, colours, tol = 40) {
  return page.evaluate(([cols, tol]) => {
    const rgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    const targets = Object.entries(cols).map(([k, h]) => [k, rgb(h)]);
    return [...document.querySelectorAll('#charts .uplot')].map((root) => {
      const c = root.querySelector('canvas');
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const n = Object.fromEntries(targets.map(([k]) => [k, 0]));
      for (let i = 0; i < px.length; i += 4) {
        if (px[i + 3] < 250) continue;
        for (const [k, [r, g, b]] of targets) if (Math.abs(px[i] - r) + Math.abs(px[i + 1] - g) + Math.abs(px[i + 2] - b) <= tol) n[k]++;
      }
      return { title: root.querySelector('.u-title')?.textContent, n };
    });
  }, [colours, tol]);
}

for (const scenario of ['nk-revolute', 'top']) {
  test(`compare mode (${scenario}): every integrator's line has pixels of its own colour in every chart`, { skip }, async () => {
    const { page, problems } = await open(`?scenario=${scenario}&integrator=director&compare=all`);
    await runFor(page, 150);
    const all = await page.evaluate(async () => (await import('./shared/names.js')).INTEGRATOR_COLORS);
    assert.deepEqual(Object.keys(all).sort(), ['baumgarte', 'director', 'mujoco', 'rattle']);
    assert.equal(new Set(Object.values(all)).size, 4, 'one colour per integrator (and MuJoCo)');
    const colours = { director: all.director, rattle: all.rattle, baumgarte: all.baumgarte };
    const charts = await countColours(page, colours);
    assert.equal(charts.length, 5, 'energy, momentum, constraints, iterations, the reaction at joint 0');
    for (const { title, n } of charts) {
      for (const [name, count] of Object.entries(n)) assert.ok(count >= 40, `${scenario}, chart "${title}": ${name} has ${count} pixels of its colour (${JSON.stringify(n)})`);
    }
    // the legend swatches show each line's colour and dash pattern
    const swatches = await page.$$eval('#charts .u-legend .u-marker svg line', (ls) => ls.map((l) => [l.getAttribute('stroke'), l.getAttribute('stroke-dasharray')]));
    assert.ok(swatches.length >= 9, `swatches: ${swatches.length}`);
    assert.ok(swatches.some(([, d]) => d), 'some swatch is dashed (internal violation)');
    for (const [stroke] of swatches) assert.ok(Object.values(colours).includes(stroke), `swatch colour ${stroke}`);
    if (scenario === 'nk-revolute') {
      // the revolute chain conserves no momentum component: l1 as a value, l2 = l3 = 0 hidden
      const labels = await page.$$eval('#charts .uplot', (roots) => [...roots[1].querySelectorAll('.u-legend .u-label')].map((e) => e.textContent));
      assert.deepEqual(labels, ['t (s)', 'director l\u2081', 'RATTLE l\u2081', 'Baumgarte l\u2081']);
      await page.locator('#charts').screenshot({ path: join(out, 'charts-compare.png') });
    } else {
      // the top conserves l3: its drift, on a log scale
      const m = await page.evaluate(() => { const c = document.getElementById('charts').tumbleCharts; return [c.plots[1].scales.y.distr, c.plots[1].series.slice(1).map((s) => s.label)]; });
      assert.deepEqual(m, [3, ['director l\u2083', 'RATTLE l\u2083', 'Baumgarte l\u2083']]);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}

// Every text uPlot draws on the chart canvases, with its box in canvas pixels (from the canvas's
// own measureText with the font, alignment, baseline and transform in force at the time).
async function drawnLabels(page) {
  return page.evaluate(async () => {
    const log = [];
    const proto = CanvasRenderingContext2D.prototype;
    const orig = proto.fillText;
    proto.fillText = function (text, x, y, ...rest) {
      const m = this.measureText(text);
      const t = this.getTransform();
      const xs = [x - m.actualBoundingBoxLeft, x + m.actualBoundingBoxRight];
      const ys = [y - m.actualBoundingBoxAscent, y + m.actualBoundingBoxDescent];
      const pts = xs.flatMap((px) => ys.map((py) => [t.a * px + t.c * py + t.e, t.b * px + t.d * py + t.f]));
      log.push({ canvas: this.canvas, text: String(text), l: Math.min(...pts.map((p) => p[0])), r: Math.max(...pts.map((p) => p[0])), t: Math.min(...pts.map((p) => p[1])), b: Math.max(...pts.map((p) => p[1])) });
      return orig.call(this, text, x, y, ...rest);
    };
    const plots = document.getElementById('charts').tumbleCharts.plots;
    for (const p of plots) p.redraw(false, true);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    proto.fillText = orig;
    const box = document.getElementById('charts').getBoundingClientRect();
    return plots.map((p) => {
      const c = p.root.querySelector('canvas');
      const rect = c.getBoundingClientRect();
      return {
        title: p.root.querySelector('.u-title')?.textContent,
        width: c.width, height: c.height,
        inside: rect.left >= box.left - 0.5 && rect.right <= box.right + 0.5,
        labels: log.filter((e) => e.canvas === c).map(({ canvas, ...e }) => e),
      };
    });
  });
}

const SIZES = [['laptop', { viewport: LAPTOP }], ['phone', PHONE], ['iframe', { viewport: IFRAME }]];
for (const [size, options] of SIZES) {
  test(`tick labels neither overlap nor get clipped (${size})`, { skip }, async () => {
    for (const query of ['?scenario=chain%3Flinks%3D64', '']) {
      const { page, problems } = await open(query, options);
      await runFor(page, 120);
      const charts = await drawnLabels(page);
      // the chain has joints: the reaction chart too; the free body none
      assert.equal(charts.length, query ? 5 : 4);
      for (const c of charts) {
        const where = `${size} ${query || 'default'} "${c.title}"`;
        assert.ok(c.inside, `${where}: the chart canvas sticks out of #charts`);
        assert.ok(c.labels.length >= 4, `${where}: only ${c.labels.length} labels drawn`);
        for (const a of c.labels) {
          assert.ok(a.l >= -0.5 && a.t >= -0.5 && a.r <= c.width + 0.5 && a.b <= c.height + 0.5, `${where}: label "${a.text}" clipped: ${JSON.stringify(a)} in ${c.width}x${c.height}`);
        }
        for (let i = 0; i < c.labels.length; i++) {
          for (let j = i + 1; j < c.labels.length; j++) {
            const a = c.labels[i], b = c.labels[j];
            const ox = Math.min(a.r, b.r) - Math.max(a.l, b.l), oy = Math.min(a.b, b.b) - Math.max(a.t, b.t);
            assert.ok(!(ox > 0.5 && oy > 0.5), `${where}: labels "${a.text}" and "${b.text}" overlap`);
          }
        }
        assert.ok(!c.labels.some((e) => /0{5}/.test(e.text)), `${where}: long zeros in ${c.labels.map((e) => e.text)}`);
      }
      if (size === 'phone' && query === '') {
        await page.evaluate(() => document.getElementById('charts').scrollIntoView());
        await page.locator('#charts').screenshot({ path: join(out, 'charts-phone.png') });
      }
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
}

test('log axes label only as many decades as fit: at most 6 labels on a 150 px chart', { skip }, async () => {
  const { page } = await open('?scenario=top&integrator=director&compare=all');
  await runFor(page, 100);
  const result = await page.evaluate(async () => {
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    // the page's charts, and one of 35 decades (1e-16 .. 1e19, like Baumgarte blowing up)
    const { Charts } = await import('./view/charts.js');
    const box = document.createElement('div');
    box.style.width = '400px';
    document.body.append(box);
    const wide = new Charts(box);
    const inv = (t, e) => Float64Array.from([t, e, 0, 0, 1, 2, 3, 1e-14, 1e-12, 2, 1e-13]);
    wide.reset(['baumgarte'], [inv(0, 1)], [true, true, true]);
    for (let k = 1; k <= 100; k++) wide.push([inv(k, 1 + 10 ** (-16 + 0.35 * k))]);
    wide.redraw();
    const plots = [...document.getElementById('charts').tumbleCharts.plots, wide.plots[0]];
    const out = [];
    for (const h of [150, 300]) {
      for (const p of plots) p.setSize({ width: p.width, height: h });
      await frames();
      for (const p of plots) {
        if (p.scales.y.distr !== 3) continue;
        out.push({ h, labels: p.axes[1]._values.filter((v) => v), decades: Math.log10(p.scales.y.max / p.scales.y.min) });
      }
    }
    box.remove();
    return out;
  });
  assert.ok(result.some((r) => r.decades >= 34), `no wide log range: ${JSON.stringify(result.map((r) => r.decades))}`);
  for (const { h, labels, decades } of result) {
    assert.ok(labels.length >= 2, `${h} px: ${labels}`);
    if (h === 150) assert.ok(labels.length <= 6, `${h} px, ${decades} decades: ${labels.length} labels: ${labels}`);
    for (const l of labels) assert.match(l, /^(1e-?\d+|1|10|100|0\.1|0\.01)$/);
  }
  await page.close();
});

test('charts have accessible names and a text summary that names every integrator', { skip }, async () => {
  const { page, problems } = await open('?scenario=top&integrator=rattle&compare=all');
  await runFor(page, 30);
  const names = await page.$$eval('#charts .uplot', (rs) => rs.map((r) => [r.getAttribute('role'), r.getAttribute('aria-label')]));
  assert.equal(names.length, 5, 'energy, momentum, constraints, iterations, reaction');
  for (const [role, label] of names) {
    assert.equal(role, 'figure');
    assert.ok(label && label.length > 20, `aria-label: ${label}`);
  }
  assert.match(names[0][1], /energy/i);
  const summary = await page.evaluate(() => document.getElementById('charts').tumbleCharts.summary());
  for (const word of ['RATTLE', 'director', 'Baumgarte', 't = ', 'max']) assert.ok(summary.includes(word), `summary lacks "${word}": ${summary}`);
  assert.ok(!summary.includes('\n'), 'one paragraph');
  // axe-core: no serious or critical violation inside the charts (the rest of the page is tested elsewhere)
  const violations = (await axe(page)).filter((v) => /#charts|uplot|\.u-/.test(v));
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a stopped run ends its lines while the others go on; the whole run is kept, thinned; the cursor marks a time', { skip }, async () => {
  const { page, problems } = await open();
  await pause(page);
  const r = await page.evaluate(async () => {
    const { Charts } = await import('./view/charts.js');
    const box = document.createElement('div');
    box.style.width = '500px';
    document.body.append(box);
    const c = new Charts(box);
    const inv = (t, e) => Float64Array.from([t, e, 0, 0, 1, 2, 3, 1e-14, 1e-12, 2, 1e-13]);
    c.reset(['director', 'rattle'], [inv(0, 10), inv(0, 10)], [true, true, true]);
    const ok = [];
    for (let k = 1; k <= 4100; k++) ok.push(c.push([inv(k * 0.01, 10 + 1e-12 * k), k > 3000 ? null : inv(k * 0.01, 10 + 1e-6 * Math.sin(k))]));
    const bad = c.push([inv(41.01, NaN), null]);
    c.redraw();
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const e = c.plots[0];
    const rattle = Array.from(e.data[2]);
    const legend = [...e.root.querySelectorAll('.u-legend td')].map((td) => td.textContent);
    // the cursor: dark pixels in a column at t = 35 s
    c.setCursor(35);
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const column = (t) => {
      const x = Math.round(e.valToPos(t, 'x', true));
      const cv = e.root.querySelector('canvas');
      const px = cv.getContext('2d').getImageData(x - 1, e.bbox.top, 3, e.bbox.height).data;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] < 60 && px[i + 1] < 60 && px[i + 2] < 70 && px[i + 3] > 200) n++;
      return n;
    };
    const marked = column(35);
    c.setCursor(null);
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const cleared = column(35);
    const summary = c.summary();
    box.remove();
    return { allOk: ok.every(Boolean), bad, points: c.points(), x0: e.data[0][0], xn: e.data[0][e.data[0].length - 1], n: e.data[0].length,
      typed: e.data[0] instanceof Float64Array, liveNulls: Array.from(e.data[1]).filter((v) => v == null).length,
      rattleValid: rattle.filter((v) => v != null).length, rattleLastValid: rattle.findLastIndex((v) => v != null), legend, marked, cleared, summary };
  });
  assert.ok(r.allOk);
  assert.equal(r.bad, false, 'a non-finite value of a live run is refused');
  // 4100 samples kept (the last, not finite, refused): 2050 buckets of two samples, each drawn
  // as its two samples (the store thins only past 8000 samples)
  assert.equal(r.points, 4100);
  assert.equal(r.n, 4100);
  assert.ok(r.typed, 'the x data is a Float64Array view');
  assert.ok(Math.abs(r.x0 - 0.01) < 1e-9 && Math.abs(r.xn - 41) < 1e-9, `whole run ${r.x0} .. ${r.xn}`);
  assert.equal(r.liveNulls, 0);
  assert.equal(r.rattleValid, 3000, 'RATTLE samples 1..3000 kept, then nothing');
  assert.equal(r.rattleLastValid, 2999);
  assert.ok(r.legend.includes('stopped'), `legend: ${r.legend}`);
  assert.ok(r.marked > 30, `cursor column: ${r.marked} dark pixels`);
  assert.ok(r.cleared < 5, `cursor not cleared: ${r.cleared}`);
  assert.match(r.summary, /RATTLE stopped at t = 30\.00 s/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the charts hold the whole run: the bouncing ball's first bounce (t = 0.3 s) is still in them at t = 10 s", { skip }, async () => {
  // dropped 0.44 m, it touches the ground at t = 0.30 s; a step of 0.5 ms: 20 000 samples by
  // t = 10 s, more than twice the 8000 points the charts draw per line
  const { page, problems } = await open(`?scenario=${encodeURIComponent('bouncing-ball?height=0.44')}&integrator=director&dt=0.0005`);
  await page.selectOption('#speed', '0');
  await playUntil(page, () => window.tumble.time() > 10, null);
  const r = await page.evaluate(() => {
    const c = document.getElementById('charts').tumbleCharts;
    const spec = c.specs.find((s) => s.key === 'budget');
    const j = spec.shown.findIndex((s) => s.comp === 'C');
    const [x, y] = [c.plots[c.specs.indexOf(spec)].data[0], c.plots[c.specs.indexOf(spec)].data[j + 1]];
    let first = null, peak = 0;
    for (let m = 0; m < x.length; m++) {
      if (x[m] < 1 && y[m] > peak) peak = y[m];
      if (first == null && y[m] > 0.1) first = x[m];
    }
    return { points: x.length, x0: x[0], xn: x[x.length - 1], first, peak, steps: window.tumble.steps() };
  });
  assert.ok(r.steps > 19000, `${r.steps} steps`);
  assert.ok(r.points <= 8000, `${r.points} points drawn per line`);
  assert.ok(r.x0 < 0.01 && r.xn > 10, `the charts span ${r.x0} .. ${r.xn} s`);
  // the first bounce: the ball stores some joules in the contact at t = 0.3 s, drawn as a spike
  assert.ok(r.first > 0.25 && r.first < 0.35, `first stored C over 0.1 J at t = ${r.first} s`);
  assert.ok(r.peak > 1, `the first bounce's stored C peaks at ${r.peak} J in the chart`);
  await page.locator('#charts').screenshot({ path: join(out, 'charts-whole-run.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a fitted (embed) chart 190 px wide keeps its last time label whole: "100" at t = 100 s is not cut', { skip }, async () => {
  const { page, problems } = await open();
  await pause(page);
  const r = await page.evaluate(async () => {
    const { Charts } = await import('./view/charts.js');
    const box = document.createElement('div');
    Object.assign(box.style, { width: '190px', height: '300px' }); // the newtons-cradle embed's chart column at 480 x 360
    document.body.append(box);
    const c = new Charts(box, { fit: true, only: ['energy'] });
    const inv = (t) => Float64Array.from([t, 10 + 1e-13 * Math.sin(t), 0, 0, 1, 2, 3, 1e-14, 1e-12, 2, 1e-13]);
    c.reset(['director'], [inv(0)], [true, true, true]);
    for (let k = 1; k <= 1000; k++) c.push([inv(k * 0.1)]);
    const log = [];
    const proto = CanvasRenderingContext2D.prototype, orig = proto.fillText;
    proto.fillText = function (text, x, y, ...rest) {
      // (this chart's labels only: the page's own charts may draw in these frames too, wider)
      if (!box.contains(this.canvas)) return orig.call(this, text, x, y, ...rest);
      const m = this.measureText(text), t = this.getTransform();
      log.push({ text: String(text), l: t.a * (x - m.actualBoundingBoxLeft) + t.e, r: t.a * (x + m.actualBoundingBoxRight) + t.e });
      return orig.call(this, text, x, y, ...rest);
    };
    c.redraw();
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    proto.fillText = orig;
    const width = c.plots[0].root.querySelector('canvas').width;
    box.remove();
    return { width, labels: log };
  });
  const last = r.labels.find((l) => l.text === '100');
  assert.ok(last, `labels: ${r.labels.map((l) => l.text)}`);
  for (const l of r.labels) assert.ok(l.l >= -0.5 && l.r <= r.width + 0.5, `label "${l.text}" cut: ${l.l.toFixed(1)}..${l.r.toFixed(1)} px in a canvas ${r.width} px wide`);
  assert.deepEqual(problems, []);
  await page.close();
});
