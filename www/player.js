// player.js: the simulation loop shared by the full page (main.js) and the <tumble-view>
// element: the runs on the page (one per integrator, primary first), their stored history,
// the 3-D view and the charts, playing, stepping, "run to t" and the scrubber.
// It knows no page controls: what happens is reported through the callbacks.
import { Renderer } from './render.js';
import { Charts, INTEGRATOR_COLORS } from './charts.js';
import { Run } from './sim.js';
import { History } from './history.js';
import { INTEGRATORS } from './url.js';

const FRAME_BUDGET_MS = 12; // stepping per animation frame stays below this: the page stays responsive
export const LABEL = { director: 'director', rattle: 'RATTLE', baumgarte: 'Baumgarte' };
const hexColor = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);

/** The integrators a settings object puts on the page, primary first. */
export function integratorNames(settings) {
  const names = [settings.integrator];
  const others = INTEGRATORS.filter((n) => n !== settings.integrator);
  if (settings.compare === 'all') names.push(...others);
  else if (others.includes(settings.compare)) names.push(settings.compare);
  return names;
}

export class Player {
  /**
   * @param wasm the initialised wasm module
   * @param canvas the 3-D view's canvas; `charts` the charts' container (or null for none),
   *   `chartsOptions` what the Charts take (which charts, fitted to the container's height)
   * @param on callbacks: failure(failed, live) when runs stop, frame(now) after each drawn
   *   frame, playing(on) when play or pause changes
   */
  constructor(wasm, { canvas, charts, chartsOptions }, on = {}) {
    this.wasm = wasm;
    this.on = on;
    this.renderer = new Renderer(canvas);
    this.charts = charts ? new Charts(charts, chartsOptions) : null;
    this.history = new History();
    this.runs = [];
    this.run = null;
    this.playing = false;
    this.speed = 1; // simulated seconds per second (0: as fast as possible)
    this.trails = false;
    this.scrub = -1; // history sample shown, or -1 for the live state
    this.target = null; // "run to t" goal (s)
    this.acc = 0;
    this.last = 0;
    this.stats = { steps: 0, since: 0, rate: 0, rt: 0 };
    this.stopped = false;
    this.tick = (now) => this.frame(now);
    this.raf = requestAnimationFrame(this.tick);
  }

  /** Start `settings` ({ scenario, integrator, compare, dt, tol, alpha, beta }) from its
   * initial state, paused. Throws an Error with the solver's message; then nothing changes. */
  load(settings) {
    const names = integratorNames(settings);
    const runs = [];
    try {
      const h = settings.dt || this.wasm.suitable_dt(settings.scenario, names[0]);
      for (const integrator of names) runs.push(new Run(this.wasm, { ...settings, dt: h, integrator }));
    } catch (e) {
      for (const r of runs) r.free();
      throw e;
    }
    for (const r of this.runs) r.free();
    this.settings = { ...settings };
    this.runs = runs;
    this.run = runs[0];
    const r = this.run;
    this.renderer.frame(r.poses, r.sizes, r.joints, r.nj > 0);
    this.renderer.clearTrails();
    this.charts?.reset(names, runs.map((x) => x.inv0), r.conserved);
    this.charts?.push(runs.map((x) => x.inv));
    this.ghosts = runs.slice(1).map((x) => ({ poses: x.poses, color: hexColor(INTEGRATOR_COLORS[x.name]) }));
    this.scrubGhosts = runs.slice(1).map((x) => ({ poses: x.poses, color: hexColor(INTEGRATOR_COLORS[x.name]) }));
    this.history.reset(runs.length, r.n, r.nj, r.sim.dt());
    runs.forEach((x, i) => this.history.record(i, 0, x.inv, x.poses, x.joints, x.sim.state_hash()));
    this.scrub = -1;
    this.target = null;
    this.acc = 0;
    this.setPlaying(false);
    return names;
  }

  /** The integrators for which step h is beyond what they handle on this scenario, and the
   * largest step that suits all of them: { beyond: [[name, suitable]], suits }. */
  stepAdvice() {
    const h = this.run.sim.dt();
    let suits = h;
    const beyond = [];
    for (const x of this.runs) {
      const s = this.wasm.suitable_dt(this.settings.scenario, x.name);
      suits = Math.min(suits, s);
      if (h > s * (1 + 1e-9)) beyond.push([x.name, s]);
    }
    return { beyond, suits };
  }

  setPlaying(on) {
    if (on && this.runs.every((x) => x.error)) on = false;
    if (on) this.scrub = -1; // back to the live state
    else this.target = null;
    const changed = on !== this.playing;
    this.playing = on;
    this.last = performance.now();
    this.stats = { steps: 0, since: performance.now(), rate: 0, rt: 0 };
    if (changed) this.on.playing?.(on);
  }

  /** Take n steps with every live run, in lockstep (so the charts compare them at equal
   * times). The history and the charts get a sample every `history.stride` steps: a fixed
   * interval of simulated time, however many steps a frame takes. */
  step(n) {
    if (!this.run) return;
    this.scrub = -1;
    const failed = [];
    let left = n;
    while (left > 0) {
      const lead = this.runs.find((x) => !x.error);
      if (!lead) break;
      const m = Math.min(left, this.history.due(lead.steps));
      this.runs.forEach((x, i) => {
        if (x.error) return;
        x.advance(m, this.history, i);
        if (x.error) failed.push(x);
      });
      left -= m;
      this.stats.steps += m;
      if (lead.steps % this.history.stride === 0) {
        this.charts?.push(this.runs.map((x) => (x.error ? null : x.inv)));
        if (this.trails && !this.run.error) this.renderer.recordTrails(this.run.poses);
      }
      if (failed.length) break;
    }
    if (!failed.length) return;
    const live = this.runs.filter((x) => !x.error);
    if (!live.length) this.setPlaying(false);
    this.on.failure?.(failed, live);
  }

  /** Run as fast as possible to simulated time `goal` (s) and pause there. */
  runTo(goal) {
    this.setPlaying(true);
    this.target = goal;
  }

  /** Show the stored state nearest to time t (s) (pauses). */
  scrubTo(t) {
    if (this.playing) this.setPlaying(false);
    this.scrub = Math.max(0, this.history.nearest(t));
  }

  /** What to show: the live state, or the scrubbed sample: { inv, hash (null when live), live }. */
  shown() {
    if (this.scrub >= 0) {
      const s = this.history.sample(0, Math.min(this.scrub, this.history.last[0]));
      if (s) return { inv: s.inv, hash: s.hash, live: false };
    }
    return { inv: this.run.inv, hash: null, live: true };
  }

  /** Time of the newest stored sample (s). */
  end() {
    const k = this.history.count - 1;
    return k >= 0 ? this.history.time(k) : 0;
  }

  frame(now) {
    if (this.stopped) return;
    const r = this.run;
    if (r && this.playing) {
      const h = r.sim.dt();
      const speed = this.target !== null ? 1e9 : this.speed || 1e9;
      this.acc += Math.min((now - this.last) / 1000, 0.1) * speed;
      let want = Math.floor(this.acc / h + 1e-9);
      if (this.target !== null) want = Math.min(want, Math.max(0, Math.round((this.target - r.inv[0]) / h)));
      const ms = this.runs.reduce((sum, x) => sum + (x.error ? 0 : x.msPerStep), 0);
      const cap = ms > 0 ? Math.max(1, Math.floor(FRAME_BUDGET_MS / ms)) : 4;
      const n = Math.min(want, cap);
      if (n > 0) this.step(n);
      this.acc = want > cap ? 0 : this.acc - n * h;
      if (this.target !== null && (r.inv[0] >= this.target - 0.5 * h || r.error)) this.setPlaying(false);
    }
    this.last = now;
    if (r) {
      this.draw();
      this.charts?.redraw();
      this.measure(now);
      this.on.frame?.(now);
    }
    this.raf = requestAnimationFrame(this.tick);
  }

  // steps per second and the real-time factor, over half-second windows
  measure(now) {
    const s = this.stats;
    const dt = (now - s.since) / 1000;
    if (dt > 0.5) {
      s.rate = s.steps / dt;
      s.rt = s.rate * this.run.sim.dt();
      s.steps = 0;
      s.since = now;
    }
  }

  /** Draw the live state, or the stored sample the scrubber points at. */
  draw() {
    const r = this.run;
    if (this.scrub < 0) {
      this.renderer.draw(r.poses, r.sizes, r.joints, this.ghosts);
      return;
    }
    const s = this.history.sample(0, this.scrub) ?? this.history.sample(0, this.history.last[0]);
    this.scrubGhosts.forEach((g, i) => {
      const x = this.history.sample(i + 1, Math.min(this.scrub, this.history.last[i + 1]));
      g.poses = x ? x.poses : this.runs[i + 1].poses;
    });
    this.renderer.draw(s.poses, r.sizes, s.joints, this.scrubGhosts);
  }

  /** Stop the loop and free the runs (an element removed from its page). */
  destroy() {
    this.stopped = true;
    cancelAnimationFrame(this.raf);
    for (const r of this.runs) r.free();
    this.runs = [];
  }
}
