// study-plots.js: the Study view's plots (uPlot, log-log), from a study report (the JSON of
// tumble::study::Report, the same as `tumble study --format json`):
//   1. error at T against the step h, with a slope-2 guide line and the observed orders;
//   2. work-precision: error against the run's wall time;
//   3. max relative energy error against h;
//   4. long run: relative energy error against time (log time axis);
//   5. long run: constraint drift (joints |Phi| in m, internal dimensionless) against time.
// One colour per integrator, the same as the live view's (INTEGRATOR_COLORS). Values below
// LOG_FLOOR (exact zeros, round-off) are drawn at LOG_FLOOR.
import uPlot from '../vendor/uPlot.esm.js';
import { INTEGRATOR_COLORS, LABEL } from '../shared/names.js';
import { num, step } from './study-core.js';

const LOG_FLOOR = 1e-16;
const GUIDE_COLOR = '#5b6475';
const FONT = '13px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif';
const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif';
const INTERNAL_DASH = [7, 4];

let measureCtx = null;
function textWidth(s) {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  measureCtx.font = FONT;
  return measureCtx.measureText(s).width;
}

/** Tick values of a log axis from min to max: every decade (every k-th where they would
 * crowd), or 1-2-5 in each decade when the axis spans less than two decades. */
function logSplits(min, max, px) {
  const e0 = Math.floor(Math.log10(min) + 1e-9), e1 = Math.ceil(Math.log10(max) - 1e-9);
  const fit = Math.max(2, Math.floor(px / 28));
  const out = [];
  if (e1 - e0 <= 2) {
    for (let e = e0; e <= e1; e++) for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) out.push(Number(v.toPrecision(3)));
    }
    if (out.length >= 2 && out.length <= fit) return out;
    out.length = 0;
  }
  let k = 1;
  while (Math.floor((e1 - e0) / k) + 1 > fit) k++;
  for (let e = Math.ceil(e0 / k) * k; e <= e1; e += k) {
    const v = Number(`1e${e}`);
    if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) out.push(v);
  }
  return out;
}

/** A tick label: 0.01, 0.005, 1e-6, 100, 1e3 ... */
function tick(v) {
  if (v == null) return '';
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e4) return String(+v.toPrecision(3));
  const [m, e] = v.toExponential(0).split('e');
  return m === '1' ? `1e${Number(e)}` : `${m}e${Number(e)}`;
}

function axis(label, px) {
  return {
    font: FONT, labelFont: LABEL_FONT, label, labelSize: 18, labelGap: 2, gap: 4,
    ticks: { size: 4, stroke: '#c9ced8', width: 1 }, grid: { stroke: '#e3e6ec', width: 1 },
    space: px,
    // x labels about 56 px apart, y labels 28 px
    splits: (u, i, min, max) => logSplits(min, max, (i === 0 ? u.bbox.width / 2 : u.bbox.height) / uPlot.pxRatio),
    filter: (u, splits) => splits,
    values: (u, splits) => splits.map(tick),
  };
}

/** Sorted union of the x values of `lines` ([{ points: [[x, y], ..] }]) and each line's y on
 * it (null where the line has no point): uPlot's aligned data. */
function align(lines) {
  const xs = [...new Set(lines.flatMap((l) => l.points.map((p) => p[0])))].filter((x) => x > 0).sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const ys = lines.map((l) => {
    const y = new Array(xs.length).fill(null);
    for (const [x, v] of l.points) if (at.has(x) && v != null && Number.isFinite(v)) y[at.get(x)] = Math.max(v, LOG_FLOOR);
    return y;
  });
  return [xs, ...ys];
}

/** Draw each line through its points in their own order (not sorted by x): the
 * work-precision curves go from level to level, whatever the wall times' order. */
function drawInOrder(u, lines) {
  const ctx = u.ctx, r = uPlot.pxRatio;
  ctx.save();
  ctx.beginPath();
  ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
  ctx.clip();
  lines.forEach((l, k) => {
    if (!u.series[k + 1].show) return;
    const pts = l.points.filter(([x, y]) => x > 0 && y != null && Number.isFinite(y));
    ctx.strokeStyle = l.color;
    ctx.lineWidth = (l.width ?? 2) * r;
    ctx.setLineDash((l.dash ?? []).map((d) => d * r));
    ctx.beginPath();
    pts.forEach(([x, y], i) => {
      const px = u.valToPos(x, 'x', true), py = u.valToPos(Math.max(y, LOG_FLOOR), 'y', true);
      if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py);
    });
    ctx.stroke();
  });
  ctx.restore();
}

/** One log-log plot. lines: [{ label, color, dash, width, points, unit, guide }]; `ordered`:
 * lines join the points in their given order instead of by x. */
function plot(el, { title, xLabel, yLabel, lines, xUnit, describe, ordered }, width) {
  const data = align(lines);
  const opts = {
    title, width, height: 230, padding: [10, 16, 0, 4],
    // x from the decade below the first point to the decade above the last (not one more)
    scales: {
      x: { time: false, distr: 3, log: 10, range: (u, min, max) => (min > 0 && max > 0 ? [10 ** Math.floor(Math.log10(min) + 1e-9), 10 ** Math.ceil(Math.log10(max) - 1e-9)] : [1e-3, 1]) },
      y: { distr: 3, log: 10 },
    },
    series: [
      { label: xLabel.replace(/ \(.*$/, ''), value: (u, v) => (v == null ? '-' : `${num(v, 4)} ${xUnit}`) },
      ...lines.map((l) => ({
        label: l.label, stroke: l.color, width: l.width ?? 2, dash: l.dash ?? [], spanGaps: true,
        ...(ordered ? { paths: () => null } : {}),
        // a dot on each run's point (levels); the long runs' dense series as lines only
        points: l.guide || l.points.length > 24 ? { show: false } : { show: true, size: 7, fill: l.color, stroke: l.color },
        value: (u, v) => (v == null ? '-' : `${num(v, 3)}${l.unit ? ' ' + l.unit : ''}`),
      })),
    ],
    axes: [
      { ...axis(xLabel, 56), size: 42 },
      { ...axis(yLabel, 24), size: (u, values) => Math.ceil(Math.max(28, ...(values ?? []).map((s) => textWidth(s))) + 14) },
    ],
    legend: { live: true },
    cursor: { points: { size: 9 }, drag: { x: false, y: false } },
    hooks: ordered ? { draw: [(u) => drawInOrder(u, lines)] } : {},
  };
  const u = new uPlot(opts, data, el);
  // legend swatches drawn like the lines (colour and dashes), as in the live charts
  u.root.querySelectorAll('.u-legend .u-series').forEach((row, k) => {
    const marker = row.querySelector('.u-marker');
    if (!marker) return;
    if (k === 0) { marker.remove(); return; }
    marker.replaceWith(swatch(lines[k - 1]));
  });
  u.root.setAttribute('role', 'figure');
  u.root.setAttribute('aria-label', `${title}. ${describe}`);
  return u;
}

function swatch(l) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('width', '26');
  svg.setAttribute('height', '10');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'study-marker');
  const line = document.createElementNS(NS, 'line');
  for (const [k, v] of [['x1', 1], ['y1', 5], ['x2', 25], ['y2', 5], ['stroke', l.color], ['stroke-width', 2.5]]) line.setAttribute(k, v);
  if (l.dash?.length) line.setAttribute('stroke-dasharray', l.dash.join(' '));
  svg.append(line);
  if (!l.guide && !(l.points.length > 24)) {
    const dot = document.createElementNS(NS, 'circle');
    for (const [k, v] of [['cx', 13], ['cy', 5], ['r', 3.5], ['fill', l.color]]) dot.setAttribute(k, v);
    svg.append(dot);
  }
  return svg;
}

const color = (n) => INTEGRATOR_COLORS[n] ?? '#555555';

export class StudyPlots {
  constructor(container) {
    this.container = container;
    this.plots = [];
    this.specs = [];
    new ResizeObserver(() => this.resize()).observe(container);
  }

  width() {
    const w = this.container.clientWidth;
    // the container's padding (2 x 8 px) and, for two columns, the gap between them (16 px)
    const two = w >= 860;
    return Math.max(240, Math.floor(two ? (w - 16 - 16) / 2 : w - 16) - 2);
  }

  /** Draw the plots of `report` (parsed JSON). */
  render(report) {
    this.destroy();
    const tables = report.integrators;
    const levelLines = (y, unit) => tables.map((t) => ({
      label: LABEL[t.integrator] ?? t.integrator, color: color(t.integrator), unit,
      points: t.runs.map((r) => [r.h, y(r)]),
    }));
    // the slope-2 guide: C h^2 through 0.4 times the smallest error at the largest h
    const errLines = levelLines((r) => r.error, 'm');
    const hs = [...new Set(tables.flatMap((t) => t.runs.map((r) => r.h)))].sort((a, b) => a - b);
    const hMax = hs[hs.length - 1];
    const atMax = tables.map((t) => t.runs.find((r) => r.h === hMax)?.error).filter((e) => e > 0);
    if (atMax.length && hs.length > 1) {
      const c = 0.4 * Math.min(...atMax) / (hMax * hMax);
      errLines.push({ label: 'slope 2 (guide)', color: GUIDE_COLOR, dash: [6, 4], width: 1.5, guide: true, unit: 'm', points: hs.map((h) => [h, c * h * h]) });
    }
    const orders = (t) => t.orders.map((o) => (o == null ? '-' : o.toFixed(2))).join(', ');
    this.specs = [
      {
        key: 'error', title: 'Error at T against the step h', xLabel: 'step h (s)', yLabel: 'error at T (m)', xUnit: 's',
        lines: errLines.map((l, i) => (i < tables.length ? { ...l, label: `${l.label} (orders ${orders(tables[i])})` } : l)),
        describe: `Log-log plot of the global error at T in m against the step h in s for ${tables.map((t) => LABEL[t.integrator]).join(', ')}, with a dashed line of slope 2. Observed orders: ${tables.map((t) => `${LABEL[t.integrator]} ${orders(t)}`).join('; ')}.`,
      },
      {
        key: 'work', title: 'Work-precision: error against wall time', xLabel: 'wall time of the run (s)', yLabel: 'error at T (m)', xUnit: 's', ordered: true,
        lines: tables.map((t) => ({ label: LABEL[t.integrator], color: color(t.integrator), unit: 'm', points: t.runs.map((r) => [r.wall_seconds, r.error]) })),
        describe: 'Log-log plot of the error at T in m against the wall time of each run in s: lower left is cheaper for the same accuracy.',
      },
      {
        key: 'energy', title: 'Max energy error against the step h', xLabel: 'step h (s)', yLabel: 'max |E \u2212 E\u2080| / |E\u2080|', xUnit: 's',
        lines: levelLines((r) => r.max_energy_error, ''),
        describe: 'Log-log plot of the largest relative energy error over each run against the step h in s.',
      },
    ];
    if (report.long.length) {
      this.specs.push({
        key: 'long-energy', title: `Long run to ${step(report.long_duration)} s: energy error`, xLabel: 'time t (s)', yLabel: '|E \u2212 E\u2080| / |E\u2080|', xUnit: 's',
        lines: report.long.map((r) => ({ label: `${LABEL[r.integrator]} (h = ${step(r.dt)} s)${r.failed ? ', stopped' : ''}`, color: color(r.integrator), unit: '', points: r.series.map((p) => [p[0], p[1]]) })),
        describe: 'Log-log plot of the relative energy error (the largest since the previous point) against time in s: flat means bounded, a rising line a drift.',
      });
      const joints = report.long.some((r) => r.series.some((p) => p[2] > 0));
      this.specs.push({
        key: 'long-drift', title: 'Long run: constraint drift', xLabel: 'time t (s)', yLabel: joints ? 'joints |\u03a6| (m), internal' : 'internal violation', xUnit: 's',
        lines: report.long.flatMap((r) => [
          ...(joints ? [{ label: `${LABEL[r.integrator]} joints`, color: color(r.integrator), unit: 'm', points: r.series.map((p) => [p[0], p[2]]) }] : []),
          { label: `${LABEL[r.integrator]} internal`, color: color(r.integrator), dash: INTERNAL_DASH, unit: '', points: r.series.map((p) => [p[0], p[3]]) },
        ]),
        describe: 'Log-log plot of the joint residual in m (solid) and the internal constraint violation, dimensionless (dashed), against time in s.',
      });
    }
    const w = this.width();
    for (const spec of this.specs) {
      const el = document.createElement('div');
      el.className = 'study-plot';
      this.container.append(el);
      this.plots.push(plot(el, spec, w));
    }
    const note = document.createElement('p');
    note.className = 'study-note';
    note.textContent = `Log scales; values below ${LOG_FLOOR.toExponential(0)} (round-off, exact zeros) are drawn at ${LOG_FLOOR.toExponential(0)}. Hover or touch a plot to read its values.`
      + (report.long.length ? ' Long-run values are the largest since the previous point of a grid of 20 points per decade of time.' : '');
    this.container.append(note);
  }

  resize() {
    const w = this.width();
    for (const p of this.plots) if (p.width !== w) p.setSize({ width: w, height: p.height });
  }

  destroy() {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.specs = [];
    this.container.replaceChildren();
  }

  /** What each plot draws: { key: [x values, ...series values] } (for the tests). */
  data() {
    return Object.fromEntries(this.specs.map((s, i) => [s.key, { labels: s.lines.map((l) => l.label), data: this.plots[i].data.map((a) => Array.from(a)) }]));
  }

  /** All plots in one PNG: each plot's title, its canvas and a legend line, two columns. */
  png(heading) {
    if (!this.plots.length) return Promise.resolve(null);
    const r = uPlot.pxRatio;
    const pw = this.plots[0].ctx.canvas.width, ph = this.plots[0].ctx.canvas.height;
    const cols = Math.min(2, this.plots.length), rows = Math.ceil(this.plots.length / cols);
    const titleH = 26 * r, legendH = 22 * r * 2, head = 34 * r, pad = 12 * r;
    const c = document.createElement('canvas');
    c.width = cols * (pw + pad) + pad;
    c.height = head + rows * (titleH + ph + legendH + pad);
    const g = c.getContext('2d');
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, c.width, c.height);
    g.fillStyle = '#1d2330';
    g.font = `600 ${16 * r}px system-ui, sans-serif`;
    g.fillText(heading, pad, 22 * r);
    this.plots.forEach((p, i) => {
      const x = pad + (i % cols) * (pw + pad), y = head + Math.floor(i / cols) * (titleH + ph + legendH + pad);
      g.fillStyle = '#1d2330';
      g.font = `600 ${14 * r}px system-ui, sans-serif`;
      g.fillText(this.specs[i].title, x, y + 18 * r);
      g.drawImage(p.ctx.canvas, x, y + titleH);
      g.font = `${12 * r}px system-ui, sans-serif`;
      let lx = x, ly = y + titleH + ph + 16 * r;
      for (const l of this.specs[i].lines) {
        const w = g.measureText(l.label).width + 34 * r;
        if (lx + w > x + pw) { lx = x; ly += 20 * r; }
        g.strokeStyle = l.color;
        g.lineWidth = 2.5 * r;
        g.setLineDash((l.dash ?? []).map((d) => d * r));
        g.beginPath();
        g.moveTo(lx, ly - 4 * r);
        g.lineTo(lx + 22 * r, ly - 4 * r);
        g.stroke();
        g.fillStyle = '#1d2330';
        g.fillText(l.label, lx + 26 * r, ly);
        lx += w;
      }
    });
    return new Promise((resolve) => c.toBlob(resolve, 'image/png'));
  }
}
