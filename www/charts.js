// charts.js: the live invariant charts (uPlot): relative energy error (log), the three
// angular-momentum components, the internal and joint constraint violation (log), and the
// Newton iterations of the last step.
// Points go into preallocated ring-free arrays; a bounded window keeps the cost flat.
import uPlot from './vendor/uPlot.esm.js';

const WINDOW = 4000;   // points kept per series
const FLOOR = 1e-16;   // log charts: values below round-off (exact zeros) are drawn at this floor

/** Colour of each integrator's lines (and of its ghost in the 3-D view). */
export const INTEGRATOR_COLORS = { director: '#2f6fde', rattle: '#2e9a4a', baumgarte: '#d0443a' };

// The charts for runs `names` (the first is the primary run): one line per run and quantity
// (dashes tell the momentum components and the two constraint kinds apart).
function chartsFor(names) {
  const col = (n) => INTEGRATOR_COLORS[n] ?? '#555';
  const one = names.length === 1;
  return [
    { title: 'relative energy error |E - E0| / |E0|', log: true, series: names.map((n) => [one ? 'energy' : n, col(n)]) },
    { title: 'angular momentum about the origin', log: false, series: one
      ? [['l1', '#d0443a'], ['l2', '#2e9a4a'], ['l3', '#3a6fd0']]
      : names.flatMap((n) => [[`${n} l1`, col(n)], [`${n} l2`, col(n), [6, 3]], [`${n} l3`, col(n), [2, 3]]]) },
    { title: 'constraint violation', log: true, series: one
      ? [['internal (e(q), C(q)p or RᵀR - I)', '#8a4fd6'], ['joints |Phi|', '#e0862b']]
      : names.flatMap((n) => [[`${n} internal`, col(n), [4, 3]], [`${n} joints`, col(n)]]) },
    { title: 'Newton iterations of the last step', log: false, height: 110, range: (u, min, max) => [0, Math.max(4, max + 1)], series: names.map((n) => [one ? 'iterations' : n, col(n)]) },
  ];
}

// the values each chart takes from the runs' invariant arrays [t, E, T, V, l1, l2, l3, internal, joint, its, res]
function valuesOf(invs, e0s) {
  const one = invs.length === 1;
  return [
    invs.map((v, i) => Math.abs(v[1] - e0s[i]) / Math.max(Math.abs(e0s[i]), 1e-300)),
    invs.flatMap((v) => [v[4], v[5], v[6]]),
    one ? [invs[0][7], invs[0][8]] : invs.flatMap((v) => [v[7], v[8]]),
    invs.map((v) => v[9]),
  ];
}

// legend values: the sample under the cursor, or the newest one when the cursor is elsewhere
const latest = (u, v, s) => (v != null ? v : u.data[s]?.[u.data[s].length - 1]);
const fmt = (v, f) => (v == null ? '-' : f(v));

export class Charts {
  constructor(container) {
    this.container = container;
    this.plots = [];
    this.reset();
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /** Start over for runs named `names` (primary first) with initial energies `energies`. */
  reset(names = ['energy'], invs0 = [new Float64Array(11)]) {
    this.e0s = invs0.map((v) => v[1]);
    this.charts = chartsFor(names);
    const CHARTS = this.charts;
    this.t = [];
    this.ys = CHARTS.map((c) => c.series.map(() => []));
    for (const p of this.plots) p.destroy();
    this.container.replaceChildren();
    const width = this.width();
    this.plots = CHARTS.map((c) => new uPlot({
      title: c.title,
      width,
      height: c.height ?? 150,
      scales: { x: { time: false }, y: c.log ? { distr: 3, log: 10 } : c.range ? { range: c.range } : { auto: true } },
      series: [{ label: 't (s)', value: (u, v, s) => fmt(latest(u, v, s), (x) => x.toFixed(3)) },
        ...c.series.map(([label, stroke, dash]) => ({ label, stroke, dash, width: 1.5, value: (u, v, s) => fmt(latest(u, v, s), (x) => (c.log ? x.toExponential(2) : +x.toPrecision(6))) }))],
      axes: [{ size: 30 }, { size: 62, values: (u, vals) => vals.map((v) => (v == null ? '' : c.log ? v.toExponential(0) : +v.toPrecision(3))) }],
      legend: { live: true },
    }, [[], ...c.series.map(() => [])], this.container));
    this.dirty = true;
  }

  width() {
    return Math.max(240, this.container.clientWidth - 14);
  }

  resize() {
    const w = this.width();
    this.plots.forEach((p, i) => p.setSize({ width: w, height: this.charts[i].height ?? 150 }));
  }

  /** Append one sample: the invariant arrays of the runs, at the same time, primary first. */
  push(invs) {
    invs = invs.map((v, i) => v ?? new Float64Array(11).fill(NaN).fill(this.e0s[i], 1, 2));
    const values = valuesOf(invs, this.e0s);
    if (!Number.isFinite(values[0][0])) return false;
    this.t.push(invs[0][0]);
    values.forEach((row, i) => row.forEach((v, j) => this.ys[i][j].push(this.charts[i].log ? Math.max(v, FLOOR) : v)));
    if (this.t.length > WINDOW) {
      const cut = this.t.length - WINDOW;
      this.t.splice(0, cut);
      for (const s of this.ys) for (const y of s) y.splice(0, cut);
    }
    this.dirty = true;
    return true;
  }

  points() {
    return this.t.length;
  }

  redraw() {
    if (!this.dirty) return;
    this.plots.forEach((p, i) => p.setData([this.t, ...this.ys[i]]));
    this.dirty = false;
  }
}
