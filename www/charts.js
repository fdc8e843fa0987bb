// charts.js: the live invariant charts (uPlot): relative energy error (log), the three
// angular-momentum components, the internal and joint constraint violation (log), and the
// Newton iterations of the last step.
// Points go into preallocated ring-free arrays; a bounded window keeps the cost flat.
import uPlot from './vendor/uPlot.esm.js';

const WINDOW = 4000;   // points kept per series
const FLOOR = 1e-16;   // log charts: values below round-off (exact zeros) are drawn at this floor

const CHARTS = [
  { title: 'relative energy error |E - E0| / |E0|', log: true, series: [['energy', '#2f6fde']] },
  { title: 'angular momentum about the origin', log: false, series: [['l1', '#d0443a'], ['l2', '#2e9a4a'], ['l3', '#3a6fd0']] },
  { title: 'constraint violation', log: true, series: [['internal (e(q), C(q)p or RᵀR - I)', '#8a4fd6'], ['joints |Phi|', '#e0862b']] },
  { title: 'Newton iterations of the last step', log: false, height: 110, range: (u, min, max) => [0, Math.max(4, max + 1)], series: [['iterations', '#4b5563']] },
];

export class Charts {
  constructor(container) {
    this.container = container;
    this.plots = [];
    this.reset();
    new ResizeObserver(() => this.resize()).observe(container);
  }

  reset(energy0 = 0) {
    this.e0 = energy0;
    this.t = [];
    this.ys = CHARTS.map((c) => c.series.map(() => []));
    for (const p of this.plots) p.destroy();
    this.container.replaceChildren();
    const width = this.width();
    this.plots = CHARTS.map((c, i) => new uPlot({
      title: c.title,
      width,
      height: c.height ?? 150,
      scales: { x: { time: false }, y: c.log ? { distr: 3, log: 10 } : c.range ? { range: c.range } : { auto: true } },
      series: [{ label: 't (s)', value: (u, v) => (v == null ? '-' : v.toFixed(3)) },
        ...c.series.map(([label, stroke]) => ({ label, stroke, width: 1.5, value: (u, v) => (v == null ? '-' : c.log ? v.toExponential(3) : +v.toPrecision(6)) }))],
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
    this.plots.forEach((p, i) => p.setSize({ width: w, height: CHARTS[i].height ?? 150 }));
  }

  /** Append one sample from the invariants array [t, E, T, V, l1, l2, l3, internal, joint, its, res]. */
  push(inv) {
    const rel = Math.abs(inv[1] - this.e0) / Math.max(Math.abs(this.e0), 1e-300);
    const values = [[rel], [inv[4], inv[5], inv[6]], [inv[7], inv[8]], [inv[9]]];
    for (const row of values) for (const v of row) if (!Number.isFinite(v)) return false;
    this.t.push(inv[0]);
    values.forEach((row, i) => row.forEach((v, j) => this.ys[i][j].push(CHARTS[i].log ? Math.max(v, FLOOR) : v)));
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
