// charts.js: the live invariant charts (uPlot), made to be read in a classroom.
//   1. energy: relative error |E - E0| / |E0| (log); for a system with force elements or loads,
//      whose energy changes by the physics, the balance error |E - E0 - W + D| / max(|E0|, 1 J)
//      (log), W the work put in by loads and motors, D the energy taken out by dampers
//   1b. energy budget (systems with force elements only): T, V, W and D in J of the first run,
//      one colour per quantity (linear)
//   2. angular momentum: the drift of each conserved component |l_i - l_i(0)| / max(|l(0)|, L_FLOOR)
//      (log), or, when the scenario conserves no component, the non-zero components as values (linear)
//   3. constraint drift: joints |Phi| (m, solid) and the internal violation (dashed) (log)
//   4. Newton iterations of the last step
//   5. reaction (systems with joints): the force |F| (N, solid) and torque |M| (N m, dashed) that
//      the joint the user picked transmits to its body b, per run (samples carry them after the
//      invariants, at NINV and NINV + 1; NaN where the joint-space system is singular), with a
//      caption under it saying what the magnitudes are and where they come from
// One colour per integrator (the same as its ghost in the 3-D view); dashes tell components apart,
// and the legend swatches show them. In compare mode the runs are drawn widest first, so a line
// that coincides with another still shows as a border around it.
// The charts show the whole run: the samples live in a ChartStore (chart-store.js), which thins
// them for drawing and keeps each interval's smallest and largest value, so no spike disappears.
import uPlot from '../vendor/uPlot.esm.js';
import { ChartStore } from './chart-store.js';
import { LABEL } from '../shared/names.js';
import { INV, NINV } from '../shared/invariants.js';
import { chartSpecs, fresh, compact, L_FLOOR, E_FLOOR, BUDGET_COLORS } from './chart-specs.js';

export { L_FLOOR, E_FLOOR, BUDGET_COLORS };

const LOG_FLOOR = 1e-16;  // log charts: smaller values (round-off, exact zeros) are drawn at this floor
const FONT = '13px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif';
const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif';
const CURSOR_COLOR = '#1d2330';

let measureCtx = null;
function textWidth(s, font = FONT) {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  measureCtx.font = font;
  return measureCtx.measureText(s).width;
}

/** 10^e as a tick label: 1, 10, 100, 1e3 ... 0.1, 0.01, 1e-3 ... */
function pow10Label(v) {
  const e = Math.round(Math.log10(v));
  if (e >= 0 && e <= 2) return String(10 ** e);
  if (e === -1) return '0.1';
  if (e === -2) return '0.01';
  return `1e${e}`;
}

/** Tick labels of a linear axis: the fewest significant digits that keep every label distinct. */
function linearLabels(splits) {
  const vals = splits.filter((v) => v != null);
  for (let d = 1; d <= 6; d++) {
    const out = vals.map((v) => compact(v, d));
    if (new Set(out).size === vals.length && vals.every((v, i) => Math.abs(Number(out[i]) - v) <= 1e-9 * Math.max(1, Math.abs(v)))) {
      return splits.map((v) => (v == null ? '' : compact(v, d)));
    }
  }
  return splits.map((v) => (v == null ? '' : compact(v, 6)));
}

/** The value (y) axis of chart `spec`: on a log chart one label per k-th decade, k the
 * smallest stride whose labels are >= 24 px apart; on a linear one the fewest digits that tell
 * the labels apart. */
function valueAxis(spec) {
  let plotHeight = 100;
  const yAxis = {
    font: FONT, gap: 4, ticks: { size: 4, stroke: '#c9ced8', width: 1 }, grid: { stroke: '#e3e6ec', width: 1 },
    size: (u, values) => Math.ceil(Math.max(24, ...(values ?? []).map((s) => textWidth(s))) + 4 + 4 + 6),
  };
  if (spec.log) {
    Object.assign(yAxis, {
      space: (u, i, min, max, dim) => { plotHeight = dim; return 20; },
      splits: (u, i, min, max) => {
        const e0 = Math.ceil(Math.log10(min) - 1e-9), e1 = Math.floor(Math.log10(max) + 1e-9);
        const fit = Math.max(2, Math.floor(plotHeight / 24) + 1);
        let k = 1;
        while (Math.floor(e1 / k) - Math.ceil(e0 / k) + 1 > fit) k++;
        const out = [];
        for (let e = Math.ceil(e0 / k) * k; e <= e1; e += k) out.push(Number(`1e${e}`));
        return out;
      },
      filter: (u, splits) => splits,
      values: (u, splits) => splits.map((v) => (v == null ? '' : pow10Label(v))),
    });
  } else {
    Object.assign(yAxis, { space: 26, values: (u, splits) => linearLabels(splits) });
    if (spec.incrs) yAxis.incrs = spec.incrs;
  }
  return yAxis;
}

/** The space (px) uPlot is to keep between time labels: that of the finest of its increments
 * (1, 2, 2.5, 5 x 10^k s) at which `least` px apart and each two neighbours' labels, measured as
 * they will be drawn in `font`, `pad` px apart. Measuring the labels of each increment, not the
 * range's end alone, keeps three times on an embed's 115 px plot all through 0.9-1 s (the end's
 * "0.97" and 10 px had asked for more than 0.25 s takes there, and left "0" and "0.5"). */
function timeSpace(min, max, dim, least, pad, font) {
  const span = max - min;
  if (!(span > 0) || !(dim > 0)) return least;
  const top = Math.floor(Math.log10(span));
  for (let e = top - 3; e <= top + 1; e++) {
    for (const m of [1, 2, 2.5, 5]) {
      const incr = m * 10 ** e, gap = (dim * incr) / span;
      if (gap < least) continue;
      const splits = [];
      for (let k = Math.ceil(min / incr - 1e-9); k * incr <= max + 1e-9 * span; k++) splits.push(k * incr);
      const w = linearLabels(splits).map((s) => textWidth(s, font));
      let need = 0;
      for (let j = 1; j < w.length; j++) need = Math.max(need, (w[j - 1] + w[j]) / 2 + pad);
      if (gap >= need) return gap * (1 - 1e-9);
    }
  }
  return least;
}

/** The time (x) axis; `fit` (an embed): without its label, its times 12 px high and closer (4 px
 * between two labels, at least 24 px apart; on the page 24 px, at least 56): an embed's plot is
 * about 115 px wide, where 0.25 s between 13 px times "0.25" and "0.5" 6 px apart needs a range
 * below 0.93 s, and 0.5 s shows three times from 1 s on: 12 px and 4 px close that gap (to 1.07 s). */
function timeAxis(fit) {
  const font = fit ? LABEL_FONT : FONT;
  return {
    font, gap: 3, ticks: { size: 4, stroke: '#c9ced8', width: 1 }, grid: { stroke: '#e3e6ec', width: 1 },
    label: fit ? null : 'time t (s)', labelFont: LABEL_FONT, labelSize: fit ? 0 : 16, labelGap: 0, size: fit ? 20 : 24,
    space: (u, i, min, max, dim) => (fit ? timeSpace(min, max, dim, 24, 4, font) : timeSpace(min, max, dim, 56, 24, font)),
    values: (u, splits) => linearLabels(splits),
  };
}

/** A value in the legend or summary. */
const show = (v, log) => (v == null || Number.isNaN(v) ? '-' : log ? v.toExponential(1) : compact(v, 4));

// a swatch for the legend: a short line with the series' colour, width and dashes
function swatch(color, width, dash) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('width', '30');
  svg.setAttribute('height', '12');
  svg.setAttribute('aria-hidden', 'true');
  const line = document.createElementNS(NS, 'line');
  for (const [k, v] of [['x1', 1], ['y1', 6], ['x2', 29], ['y2', 6], ['stroke', color], ['stroke-width', Math.max(width, 1.5)]]) line.setAttribute(k, v);
  if (dash.length) line.setAttribute('stroke-dasharray', dash.join(' '));
  svg.append(line);
  return svg;
}

export class Charts {
  /**
   * @param container the element the charts go into
   * @param only the charts shown, of 'energy', 'momentum', 'constraints', 'iterations' (all by default)
   * @param fit share the container's height among the charts (embeds), instead of fixed heights
   */
  constructor(container, { only = null, fit = false } = {}) {
    this.container = container;
    this.only = only;
    this.fit = fit;
    this.extra = [];
    container.tumbleCharts = this; // a read-only hook for the browser tests
    this.plots = [];
    this.specs = [];
    this.names = [];
    this.n = 0;
    this.cursorT = null;
    this.store = new ChartStore();
    this.dirty = false;
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /** Start over for runs `names` (primary first) with initial invariants `invs0` and the
   * conserved-component flags `conserved` ([l1, l2, l3]); `forced`: the system has force
   * elements or loads (the energy chart shows the balance, and the budget chart is added);
   * `soft`: '' without contacts or stops, else whether MuJoCo's D counts their losses ('counted',
   * 'uncounted': its balance line is then its contacts' losses; chart-specs.js). */
  reset(names, invs0, conserved = [false, false, false], forced = false, joint = null, soft = '') {
    this.names = names.slice();
    this.soft = soft;
    this.v0s = invs0.map((v) => Float64Array.from(v));
    this.conserved = conserved.slice();
    this.forced = forced;
    this.specs = chartSpecs(this.names, this.v0s, this.conserved, forced, joint, soft).filter((c) => !this.only || this.only.includes(c.key));
    this.n = 0;
    this.stoppedAt = this.names.map(() => null); // time of a stopped run's last sample
    this.lastOf = this.names.map(() => null); // time of each run's newest value
    this.rows = 0; // rows offered (push), numbered from 0: MuJoCo's late values name theirs
    this.skips = []; // [from, to): rows offered and not kept (rare: a row of no live run, a non-finite value)
    this.jointFrom = 0; // the first row of the reaction chart's joint
    this.lateRow = new Float64Array(NINV + 2);
    this.nonzero = new Set();
    let k = 0;
    for (const spec of this.specs) for (const s of spec.series) fresh(s, k++);
    this.store.reset(k);
    this.scratch = new Float64Array(k);
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.container.replaceChildren();
    this.specs.forEach((spec, ci) => this.build(ci));
    if (this.fit) { this.resize(); this.dirty = true; return; } // no room for the note in an embed
    const note = document.createElement('p');
    note.className = 'charts-note';
    note.textContent = `Log charts draw values below ${LOG_FLOOR.toExponential(0)} (round-off, exact zeros) at ${LOG_FLOOR.toExponential(0)}. `
      + (forced ? `The energy balance error is relative to |E\u2080| when |E\u2080| > ${E_FLOOR} J, in J below. ` : '')
      + `Momentum drift is relative to |l(0)| when |l(0)| > ${L_FLOOR} kg m\u00b2/s, in kg m\u00b2/s below. Time t in s.`;
    this.container.append(note);
    this.dirty = true;
  }

  // the series of chart `ci` that are shown now
  active(ci) {
    const spec = this.specs[ci];
    const on = spec.series.filter((s) => !s.group || this.nonzero.has(s.group));
    // nothing non-zero yet (e.g. a chain released from rest at t = 0): show every component
    return on.length ? on : spec.series;
  }

  // (re)create chart `ci` with its active series: its lines' dashes, title and options, the
  // plot, its labels for screen readers, legend swatches and caption, in place of the old one
  build(ci) {
    const spec = this.specs[ci];
    const series = this.active(ci);
    spec.shown = series;
    // dashes tell components (or the two constraint kinds) apart: with one shown, solid lines
    const single = new Set(series.map((s) => s.comp)).size === 1;
    for (const s of series) s.style = single && s.comp != null ? [] : s.dash;
    spec.data = [null, ...series.map(() => null)];
    const old = this.plots[ci];
    // embeds (fit) have room for a short title only
    const zero = spec.titleZero && !series.some((s) => s.group && this.nonzero.has(s.group));
    const title = this.fit ? spec.short : zero ? spec.titleZero : spec.titleWithout && !series.some((s) => s.group) ? spec.titleWithout : spec.title;
    spec.shownTitle = title;
    const el = document.createElement('div');
    const plot = new uPlot(this.plotOptions(ci, series, title), [new Float64Array(0), ...series.map(() => new Float64Array(0))], el);
    this.describe(plot, spec, series, title, el);
    if (old) {
      old.root.parentElement.replaceWith(el);
      old.destroy();
    } else {
      this.container.append(el);
    }
    this.plots[ci] = plot;
  }

  // uPlot's options for chart `ci` showing `series` under `title`
  plotOptions(ci, series, title) {
    const spec = this.specs[ci];
    const log = spec.log;
    return {
      title,
      width: this.width(),
      height: this.heightOf(ci),
      // right: room for half the last time label, centred on the plot's right edge ("100" was cut)
      padding: [this.fit ? 8 : 10, (u) => Math.max(this.fit ? 10 : 20, Math.ceil(textWidth(u.axes[0]._values?.at(-1) ?? '') / 2) + 2), 0, this.fit ? 0 : 2],
      scales: { x: { time: false }, y: log ? { distr: 3, log: 10 } : spec.range ? { range: spec.range } : { auto: true } },
      series: [
        { label: 't (s)', value: (u, v, si, i) => show(this.legendValue(u, 0, i, v), false) },
        ...series.map((s) => ({
          label: s.label, stroke: s.color, dash: s.style, width: s.width, spanGaps: false, points: { show: false },
          value: (u, v, si, i) => (this.stoppedAt[s.i] != null && i == null ? 'stopped' : show(this.legendValue(u, si, i, v), log)),
        })),
      ],
      axes: [timeAxis(this.fit), valueAxis(spec)],
      legend: { live: true, markers: { width: 0, fill: 'transparent' } },
      cursor: { points: { show: false } },
      hooks: { draw: [(u) => this.drawCursor(u)] },
    };
  }

  // what a screen reader and the legend say of `plot` (in `el`): its role and label, the
  // swatch of each line, and the chart's caption under it
  describe(plot, spec, series, title, el) {
    plot.root.setAttribute('role', 'figure');
    if (this.fit) plot.root.querySelector('.u-title')?.setAttribute('title', spec.title); // the whole title, where the short one is cut
    plot.root.setAttribute('aria-label', `${title}. Chart of ${spec.name} against time in s for ${this.names.map((n) => LABEL[n] ?? n).join(', ')}.`);
    plot.root.querySelectorAll('.u-legend .u-series').forEach((row, k) => {
      const marker = row.querySelector('.u-marker');
      if (!marker) return;
      if (k === 0) { marker.remove(); return; }
      const s = series[k - 1];
      marker.append(swatch(s.color, s.width, s.style));
    });
    if (spec.caption && !this.fit) {
      const cap = document.createElement('p');
      cap.className = 'chart-caption';
      cap.id = `chart-caption-${spec.key}`;
      cap.textContent = spec.caption;
      el.append(cap);
      plot.root.setAttribute('aria-describedby', cap.id);
    }
  }

  // legend values: the sample under the cursor, or the newest one when the cursor is elsewhere
  legendValue(u, si, idx, v) {
    if (idx != null) return v;
    const d = u.data[si];
    for (let j = d.length - 1; j >= 0; j--) if (d[j] != null && !Number.isNaN(d[j])) return d[j];
    return null;
  }

  width() {
    return Math.max(this.fit ? 120 : 240, this.container.clientWidth - (this.fit ? 8 : 14));
  }

  // the plot height of chart ci (axes included; its title and legend come on top): fixed, or
  // in fit mode an equal share of the container's height less each chart's title and legend
  heightOf(ci) {
    if (!this.fit) return this.specs[ci].height ?? 160;
    const share = this.container.clientHeight / Math.max(1, this.specs.length);
    // a title and legend measured while hidden (0 px) or unlaid read as 40 px
    const extra = this.extra[ci] > 0 && this.extra[ci] < share ? this.extra[ci] : 40;
    return Math.max(40, Math.floor(share - extra - 2));
  }

  resize() {
    const w = this.width();
    this.plots.forEach((p, i) => {
      if (this.fit) this.extra[i] = p.root.getBoundingClientRect().height - p.height;
      const h = this.heightOf(i);
      if (p.width !== w || p.height !== h) p.setSize({ width: w, height: h });
    });
  }

  /** Append one sample: the invariant arrays of the runs at the same time (primary first), or
   * null for a run that stopped (its lines end there). False, and nothing kept, if a live run's
   * values are not finite. */
  push(invs) {
    if (!this.specs.length) return true;
    const row = this.rows++;
    let t = NaN;
    for (let i = 0; i < invs.length; i++) if (invs[i]) { t = invs[i][INV.t]; break; }
    if (Number.isNaN(t)) {
      invs.forEach((v, i) => { if (v === null && this.stoppedAt[i] == null) this.stoppedAt[i] = this.lastOf[i] ?? this.lastT ?? 0; });
      this.dirty = true;
      this.skip(row, row + 1);
      return true; // no run is live: nothing to add
    }
    // every value first, into scratch: nothing is kept if one is not finite
    let k = 0;
    for (const spec of this.specs) {
      for (const s of spec.series) {
        const v = invs[s.i];
        const y = v ? s.get(v, this.v0s[s.i]) : NaN;
        if (v && !Number.isFinite(y) && !(s.nanOk && Number.isNaN(y))) { this.skip(row, row + 1); return false; }
        this.scratch[k++] = y;
      }
    }
    if (!Number.isFinite(t)) { this.skip(row, row + 1); return false; }
    for (let i = 0; i < invs.length; i++) {
      // (a run that resumed: its lines go on after a gap; undefined: its values come later)
      if (invs[i]) { this.stoppedAt[i] = null; this.lastOf[i] = t; }
      else if (invs[i] === null && this.stoppedAt[i] == null) this.stoppedAt[i] = this.lastOf[i] ?? this.lastT ?? t;
    }
    this.store.begin(t);
    k = 0;
    let rebuild = 0; // bit ci: chart ci shows a new group of series
    for (let ci = 0; ci < this.specs.length; ci++) {
      const spec = this.specs[ci];
      for (const s of spec.series) {
        const y = this.scratch[k++];
        if (!Number.isNaN(y)) {
          s.last = y;
          if (Math.abs(y) > s.max) s.max = Math.abs(y);
          if (s.group && y !== 0 && !this.nonzero.has(s.group)) {
            this.nonzero.add(s.group);
            rebuild |= 1 << ci;
          }
        }
        if (Number.isNaN(y)) s.gaps = true;
        this.store.put(s.k, spec.log && y < LOG_FLOOR ? LOG_FLOOR : y, invs[s.i] !== undefined);
      }
    }
    this.n++;
    this.lastT = t;
    for (let ci = 0; rebuild; ci++, rebuild >>= 1) if (rebuild & 1) this.build(ci);
    this.dirty = true;
    return true;
  }

  // rows [from, to) offered and not kept
  skip(from, to) {
    const last = this.skips[this.skips.length - 1];
    if (last && last[1] === from) last[1] = to;
    else this.skips.push([from, to]);
  }

  /** The next row offered is row `g` (the rows before it that never came are not kept). */
  rowsFrom(g) {
    if (g > this.rows) this.skip(this.rows, g);
    this.rows = Math.max(this.rows, g);
  }

  /** Run i's values in row g, which came before them (MuJoCo's beside Tumble's: mujoco-pipe.js):
   * NINV invariants and the reaction's |F|, |M| in `vals` from `o`. */
  late(i, g, vals, o) {
    let k = g;
    for (const [a, b] of this.skips) {
      if (g < a) break;
      if (g < b) return; // (a row not kept)
      k -= b - a;
    }
    const row = this.lateRow;
    for (let m = 0; m < row.length; m++) row[m] = vals[o + m];
    const t = row[INV.t], stale = g < this.jointFrom; // (a reaction of the joint charted before)
    if (Number.isNaN(t) && this.stoppedAt[i] == null) this.stoppedAt[i] = this.lastOf[i] ?? 0;
    else if (!Number.isNaN(t)) this.lastOf[i] = t;
    let rebuild = 0;
    for (let ci = 0; ci < this.specs.length; ci++) {
      const spec = this.specs[ci];
      for (const s of spec.series) {
        if (s.i !== i) continue;
        let y = Number.isNaN(t) || (stale && spec.key === 'reactions') ? NaN : s.get(row, this.v0s[i]);
        if (!Number.isFinite(y)) y = NaN;
        if (Number.isNaN(y)) s.gaps = true;
        else {
          s.last = y;
          if (Math.abs(y) > s.max) s.max = Math.abs(y);
          if (s.group && y !== 0 && !this.nonzero.has(s.group)) { this.nonzero.add(s.group); rebuild |= 1 << ci; }
        }
        this.store.late(s.k, k, spec.log && y < LOG_FLOOR ? LOG_FLOOR : y);
      }
    }
    for (let ci = 0; rebuild; ci++, rebuild >>= 1) if (rebuild & 1) this.build(ci);
    this.dirty = true;
  }

  /** Show joint `joint` = { index, label } in the reaction chart from now on: its lines start
   * over (the runs' earlier samples were of the joint before). */
  setJoint(joint) {
    const ci = this.specs.findIndex((s) => s.key === 'reactions');
    if (ci < 0) return;
    this.jointFrom = this.rows;
    const spec = chartSpecs(this.names, this.v0s, this.conserved, this.forced, joint, this.soft).find((s) => s.key === 'reactions');
    spec.series.forEach((s, j) => {
      fresh(s, this.specs[ci].series[j].k);
      this.store.ys[s.k].fill(NaN);
      s.gaps = true;
    });
    this.specs[ci] = spec;
    this.build(ci);
    this.dirty = true;
  }

  /** Points drawn per line (the whole run, thinned). */
  points() {
    return this.store.length;
  }

  /** Draw the whole run; cheap when nothing changed since the last call. */
  redraw() {
    if (!this.dirty) return;
    this.dirty = false;
    const len = this.store.length;
    const x = this.store.t.subarray(0, len);
    this.specs.forEach((spec, ci) => {
      const data = spec.data;
      data[0] = x;
      spec.shown.forEach((s, j) => {
        const view = this.store.ys[s.k].subarray(0, len);
        if (!s.gaps) {
          data[j + 1] = view;
          return;
        }
        // a run with missing samples: uPlot ends a line only at null, which a Float64Array
        // cannot hold
        s.plain ??= [];
        s.plain.length = len;
        for (let m = 0; m < len; m++) s.plain[m] = Number.isNaN(view[m]) ? null : view[m];
        data[j + 1] = s.plain;
      });
      this.plots[ci].setData(data);
    });
    // fitted charts: a legend that wrapped onto more or fewer lines (its values grew or shrank)
    // changes the room the title and legend take: share the height again
    if (this.fit && this.plots.some((p, i) => Math.abs(p.root.getBoundingClientRect().height - p.height - this.extra[i]) > 1)) this.resize();
  }

  /** A vertical marker at simulated time t (s) on every chart; null removes it. */
  setCursor(t) {
    const c = t == null || !Number.isFinite(t) ? null : t;
    if (c === this.cursorT) return; // the page calls this every frame: redraw only on a change
    this.cursorT = c;
    for (const p of this.plots) p.redraw(false);
  }

  drawCursor(u) {
    if (this.cursorT == null) return;
    const { left, top, width, height } = u.bbox;
    const x = Math.round(u.valToPos(this.cursorT, 'x', true));
    if (!(x >= left - 1 && x <= left + width + 1)) return;
    const ctx = u.ctx;
    const r = uPlot.pxRatio;
    ctx.save();
    ctx.strokeStyle = CURSOR_COLOR;
    ctx.lineWidth = 2 * r;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
    ctx.fillStyle = CURSOR_COLOR;
    ctx.beginPath();
    ctx.moveTo(x - 5 * r, top);
    ctx.lineTo(x + 5 * r, top);
    ctx.lineTo(x, top + 6 * r);
    ctx.fill();
    ctx.restore();
  }

  /** One paragraph of plain text for screen readers: the time, and per chart each run's current
   * value and the largest error so far. */
  summary() {
    if (!this.specs.length || this.n === 0) return 'No chart data yet.';
    const runs = this.names.map((n) => LABEL[n] ?? n);
    const list = (a) => (a.length < 3 ? a.join(' and ') : `${a.slice(0, -1).join(', ')} and ${a[a.length - 1]}`);
    const parts = [`Charts at t = ${this.lastT.toFixed(2)} s for ${list(runs)}.`];
    for (const spec of this.specs) {
      const items = spec.shown.map((s) => {
        const label = this.names.length === 1 || s.label.startsWith(LABEL[s.n]) ? s.label : `${LABEL[s.n]} ${s.label}`;
        const name = label === 'energy' || label === 'balance' || label === 'iterations' ? runs[0] : label;
        if (spec.key === 'iterations') return `${name} ${show(s.last, false)}`;
        const unit = s.unit ?? spec.unit; // (the reaction chart's force and torque have their own)
        if (!spec.log) return `${name.replace(` (${unit})`, '')} ${show(s.last, false)} ${unit} now, largest magnitude ${show(s.max, false)} ${unit}`;
        return `${name} ${show(s.last, true)} now, max ${show(s.max, true)}`;
      });
      parts.push(`${spec.shownTitle}: ${items.join('; ')}.`);
    }
    this.stoppedAt.forEach((t, i) => { if (t != null) parts.push(`${runs[i]} stopped at t = ${t.toFixed(2)} s.`); });
    return parts.join(' ');
  }
}
