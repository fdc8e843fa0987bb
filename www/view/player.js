// player.js: the simulation loop shared by the full page (app/main.js) and the <tumble-view>
// element. The stepping happens in a Web Worker (engine.js, stepper.js): each animation frame
// asks for the steps real time (or "run to t", or the single steps pressed) calls for, and draws
// the newest state it has; the main thread only draws, so the page answers a click at once
// however long a step takes. The player keeps a mirror of each run's newest state (poses,
// joints, invariants, hash, error), the 3-D view and the charts, play, step, run to and scrub.
// It knows no page controls: what happens is reported through the callbacks.
import * as wasm from '../pkg/tumble_wasm.js';
import { Renderer } from './render.js';
import { Charts } from './charts.js';
import { createEngine } from '../sim/engine.js';
import { INTEGRATORS, INTEGRATOR_COLORS, MUJOCO, SAMPLE_CAP, CONTACT_CAP } from '../shared/names.js';
import { INV, NINV } from '../shared/invariants.js';

// The worker steps about this long per request (a chunk; stepper.js sizes its steps by their
// measured pace), then answers, and the page asks again at once: a pause (the page asks for no
// more), a pull, a new joint or a reset waits at most one chunk, and the state the page holds is
// never more than a chunk behind the run's. (Two requests under way, so that the worker never
// waits for this thread, moved the run no faster in SwiftShader: one it is.)
const CHUNK_MS = 5;
const LOCAL_MS = 20; // without a worker, the page's own thread steps this long a frame
const hexColor = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);

/** The integrators a settings object puts on the page, primary first. */
export function integratorNames(settings) {
  const names = [settings.integrator];
  const others = INTEGRATORS.filter((n) => n !== settings.integrator);
  if (settings.compare === 'all') names.push(...others);
  else if (others.includes(settings.compare)) names.push(settings.compare);
  return names;
}

/** The charts are redrawn at most this often while playing (ms). Redrawing the uPlot canvases
 * (and the browser rastering them again) is the largest cost of a frame: in headless Chromium
 * (software WebGL, benches/page/bench.mjs) the page drew nk-revolute at 18.5 frames/s with the
 * charts redrawn every frame, 36 at 100 ms, 42 at 200 ms; a 256-link chain 17, 20-27 and
 * 30-31. Five times a second still reads as live. */
const CHART_EVERY_MS = 200;

/** Draw less when the frame budget is spent: while playing, once a frame comes SLOW_MS or more
 * after the one before (a large scene in software WebGL), the 3-D view is drawn every other
 * frame, so the readout and the controls get the frames between; paused, the view is drawn only
 * when what it shows may have changed (an event on the page, a new state, a new size) or
 * IDLE_MS have passed, so a paused page leaves the machine alone. */
const SLOW_MS = 100;
const NONE_MISSING = [];
const IDLE_MS = 500;
const TOUCH_EVENTS = ['pointerdown', 'pointermove', 'pointerup', 'wheel', 'keydown', 'input', 'change', 'resize'];

export class Player {
  /**
   * @param canvas the 3-D view's canvas; `charts` the charts' container (or null for none),
   *   `chartsOptions` what the Charts take (which charts, fitted to the container's height)
   * @param on callbacks: failure(failed, live) when runs stop, frame(now) after each drawn
   *   frame, playing(on) when play or pause changes
   */
  constructor({ canvas, charts, chartsOptions }, on = {}) {
    this.on = on;
    this.renderer = new Renderer(canvas);
    this.charts = charts ? new Charts(charts, chartsOptions) : null;
    this.engine = createEngine();
    this.runs = [];
    this.run = null;
    this.gen = 0; // bumped by every load: replies to older requests are dropped
    this.playing = false;
    this.speed = 1; // simulated seconds per second (0: as fast as possible)
    this.trails = false;
    this.joint = 0; // the joint whose reaction the chart shows (kept over reloads while it exists)
    this.scrub = null; // the stored moment shown ({ t, runs: [{ poses, joints, inv, hash }] }), or null for the live state
    this.target = null; // "run to t" goal (s)
    this.pending = 0; // single steps asked for and not yet sent
    this.inflight = false;
    this.behind = 0; // MuJoCo's run has work left (steps behind Tumble's, rows not yet sent): a paused page asks on
    this.local = false; // the engine steps on this thread (engine.js): a request a frame
    this.loads = 0; // loads asked for and not yet answered (the tests wait for 0 after a reset)
    this.give = null; // reply arrays to hand back to the worker
    this.acc = 0;
    this.last = 0;
    this.chartAt = -Infinity; // when the charts were last redrawn (ms, frame time)
    this.endT = 0;
    this.idle = [];
    this.stats = { steps: 0, since: 0, rate: 0, rt: 0 };
    this.stopped = false;
    this.frameAt = 0; // the last frame's time (ms)
    this.drawnAt = -Infinity; // when the 3-D view was last drawn (ms)
    this.skipped = false; // the last frame left the 3-D view out
    this.draws = 0; // 3-D views drawn
    this.touched = true; // something the view shows may have changed since it was drawn
    this.touch = () => { this.touched = true; };
    for (const t of TOUCH_EVENTS) window.addEventListener(t, this.touch, { capture: true, passive: true });
    this.tick = (now) => this.frame(now);
    this.raf = requestAnimationFrame(this.tick);
  }

  /** Start `settings` ({ scenario, integrator, compare, dt, tol, alpha, beta }) from its
   * initial state, paused. Rejects with an Error carrying the solver's message; then nothing changes. */
  async load(settings) {
    const names = integratorNames(settings);
    const dt = settings.dt || wasm.suitable_dt(settings.scenario, names[0]);
    // from here on, steps asked for belong to the new runs (the worker answers in order); a
    // reply to a request sent before is dropped
    const gen = ++this.gen;
    this.pending = 0;
    this.behind = 0;
    this.inflight = false;
    this.chunkMax = 0;
    this.give = null;
    // paused from the request on: a play, step or run-to asked for while the worker loads
    // applies to the new runs
    this.scrub = null;
    this.target = null;
    this.acc = 0;
    this.grabbed = null;
    this.renderer.pull = null;
    this.setPlaying(false);
    this.loads++;
    let reply;
    try {
      const engine = await this.engine;
      this.local = !!engine.local;
      // the reactions cost an index-1 solve a sample: asked for only where their chart is shown
      if (settings.joint !== undefined) this.joint = settings.joint; // a link's or an element's
      const charted = this.charts && (!this.charts.only || this.charts.only.includes('reactions'));
      reply = await engine.request({ type: 'load', settings: { ...settings, dt, integrators: names, joint: charted ? this.joint : -1, arrows: this.renderer.arrows.on } });
    } finally {
      this.loads--;
    }
    if (reply.type === 'error') throw new Error(reply.message);
    if (gen !== this.gen) throw new Error('superseded by a newer load');
    this.settings = { ...settings };
    this.runs = reply.info.map((info) => ({
      ...info, energy0: info.inv0[INV.energy], poses: new Float64Array(12 * info.n), joints: new Float64Array(3 * info.nj), springs: new Float64Array(6 * info.ns),
      // a chart row: the invariants and the chosen joint's reaction |F| (N), |M| (N m)
      inv: new Float64Array(NINV + 2).fill(NaN), row: new Float64Array(NINV + 2), steps: 0, error: null, hash: '',
    }));
    this.run = this.runs[0];
    // one body weight as an arrow as long as the largest body (its inertia box's longest side)
    this.arrowUnit = Math.max(0.02, ...this.run.sizes);
    this.invs = this.runs.map(() => null);
    this.apply(reply);
    const r = this.run;
    this.decorate(settings.scenario);
    // a link's or an element's joint that the system does not have: joint 0, and a note
    this.jointNote = null;
    if (settings.joint !== undefined && settings.joint >= r.nj) {
      this.jointNote = `'reaction' asks for the reaction of joint ${settings.joint}, but this system has ${r.nj === 0 ? 'no joints' : `${r.nj === 1 ? '1 joint, numbered 0' : `${r.nj} joints, numbered 0 to ${r.nj - 1}`}: the reaction chart shows joint 0`}.`;
    }
    // held to the ground: springs or ropes (drawn ones may end on it), or every body on a path of
    // joints from it (r.reach); joints among free bodies alone are not (the suite's humanoid, a
    // tree with no ground joint, was framed about the origin at 10 m, its bodies' lengths laid
    // end to end, and not followed as it walked)
    this.renderer.frame(r.poses, r.sizes, r.joints, r.ns > 0 || (r.nj > 0 && r.reach >= 0), r.forced, r.reach);
    this.renderer.clearTrails();
    if (this.joint >= r.nj) this.joint = 0; // (the worker fell back to joint 0 too)
    // (beside contacts or stops MuJoCo counts what they take in its D unless the system has loops or drives: mujoco-losses.js)
    const soft = r.contact || r.stops ? (this.runs.some((x) => x.name === MUJOCO && !x.lossesCounted) ? 'uncounted' : 'counted') : '';
    this.charts?.reset(this.runs.map((x) => x.name), this.runs.map((x) => x.inv0), r.conserved, r.forced, r.nj ? this.reactionJoint() : null, soft);
    this.charts?.push(this.runs.map((x) => x.inv));
    this.frameChartedJoint();
    this.ghosts = this.runs.slice(1).map((x) => ({ poses: x.poses, color: hexColor(INTEGRATOR_COLORS[x.name]) }));
    this.scrubGhosts = this.runs.slice(1).map((x) => ({ poses: x.poses, color: hexColor(INTEGRATOR_COLORS[x.name]) }));
    return names;
  }

  // take a 'state' (or 'loaded') reply: the mirrors, the chart samples, failures
  apply(reply) {
    this.touched = true;
    // plain loops: this runs for every reply and every chart sample, and makes no closures
    const b = reply.buf, runs = this.runs;
    for (let i = 0; i < runs.length; i++) {
      const x = runs[i], r = reply.runs[i];
      x.poses.set(b.poses[i]);
      x.joints.set(b.joints[i]);
      x.springs.set(b.springs[i]);
      x.inv.set(b.inv[i]);
      x.steps = r.steps;
      x.error = r.error;
      x.hash = r.hash;
      x.pulled = r.pulled;
      x.substeps = r.substeps;
      x.ms = r.ms; // wall time a step of this run takes (ms; MuJoCo's: mjms of it in its own mj_step)
      x.mjms = r.mjms;
      x.drive = r.drive; // MuJoCo's drives' error (mujoco-run.js), or null
    }
    this.endT = reply.end;
    // the first run's contact forces, for the arrows (copied: the reply's arrays go back)
    const nc = reply.ncontacts ?? 0;
    if (nc) {
      if (!this.contacts || this.contacts.length < 6 * nc) this.contacts = new Float64Array(6 * CONTACT_CAP);
      this.contacts.set(b.contacts.subarray(0, 6 * nc));
    }
    this.ncontacts = nc;
    const width = runs.length * NINV;
    // a reply to a request sent before the user picked another joint carries the reaction of
    // the joint before: the chart, which already shows the new one, leaves those samples out
    const stale = reply.joint !== this.joint;
    // beside MuJoCo its values come later (stepper.js, mujoco-pipe.js): its column is left to them
    if (reply.samples) this.charts?.rowsFrom(reply.rowFirst ?? 0);
    for (let j = 0; j < reply.samples; j++) {
      const at = ((reply.sampleStart + j) % SAMPLE_CAP) * width;
      for (let i = 0; i < runs.length; i++) {
        const o = at + i * NINV;
        if (i === reply.later) { this.invs[i] = undefined; continue; }
        if (Number.isNaN(b.samples[o + INV.t])) { this.invs[i] = null; continue; }
        for (let m = 0; m < NINV; m++) runs[i].row[m] = b.samples[o + m];
        const ra = ((reply.sampleStart + j) % SAMPLE_CAP) * runs.length * 2 + 2 * i;
        runs[i].row[NINV] = stale ? NaN : b.react[ra];
        runs[i].row[NINV + 1] = stale ? NaN : b.react[ra + 1];
        this.invs[i] = runs[i].row;
      }
      this.charts?.push(this.invs);
    }
    for (let j = 0; j < (reply.late ?? 0); j++) this.charts?.late(runs.length - 1, b.lateRows[j], b.late, j * (NINV + 2));
    this.behind = reply.behind ?? 0;
    if (reply.samples && this.trails && !this.run.error) this.renderer.recordTrails(this.run.poses);
    this.give = b;
    this.stats.steps += reply.taken;
    if (reply.taken > this.chunkMax) this.chunkMax = reply.taken; // (the largest chunk since the load, for the tests)
    if (reply.failed.length) {
      const failed = this.runs.filter((x) => reply.failed.some((f) => f.name === x.name));
      const live = this.runs.filter((x) => !x.error);
      if (!live.length) this.setPlaying(false);
      this.on.failure?.(failed, live);
    }
  }

  /** The integrators for which step h is beyond what they handle on this scenario, and the
   * largest step that suits all of them: { beyond: [[name, suitable]], suits }. */
  stepAdvice() {
    const h = this.run.dt;
    let suits = h;
    const beyond = [];
    for (const x of this.runs) {
      if (x.name === MUJOCO) continue; // (MuJoCo's own stability is its own: it says so when it fails)
      const s = wasm.suitable_dt(this.settings.scenario, x.name);
      suits = Math.min(suits, s);
      if (h > s * (1 + 1e-9)) beyond.push([x.name, s]);
    }
    return { beyond, suits };
  }

  setPlaying(on) {
    this.touched = true;
    if (on && this.runs.every((x) => x.error)) on = false;
    if (on) this.scrub = null; // back to the live state
    else this.target = null;
    const changed = on !== this.playing;
    this.playing = on;
    this.last = performance.now();
    this.lastAcc = this.last;
    this.acc = 0;
    this.stats = { steps: 0, since: performance.now(), rate: 0, rt: 0 };
    if (changed) this.on.playing?.(on);
  }

  /** Take n more steps with every live run (in the worker, Tumble's in lockstep; MuJoCo's follows at its own pace). */
  step(n) {
    this.scrub = null;
    this.pending += n;
    this.send();
  }

  /** Run as fast as possible to simulated time `goal` (s) and pause there. */
  runTo(goal) {
    this.setPlaying(true);
    this.target = goal;
  }

  /** Stopped runs go on from their last good state with step h (s). */
  async resume(h) {
    const engine = await this.engine, gen = this.gen;
    const reply = await engine.request({ type: 'resume', h }); // after any step under way (one queue)
    if (reply.type === 'error') throw new Error(reply.message);
    if (gen !== this.gen) return;
    for (const x of this.runs) x.dt = h;
    this.apply(reply);
  }

  /** The invariant fields the exports carry: `contact` (the last) only where the system has
   * shapes or joint limits, as `tumble run` writes it. */
  fields() {
    const all = wasm.invariant_fields(), r = this.runs[0];
    return r && (r.contact || r.stops) ? all : all.filter((f) => f !== 'contact');
  }

  /** Show the stored moment nearest to time t (s) (pauses). */
  async scrubTo(t) {
    if (this.playing) this.setPlaying(false);
    const engine = await this.engine, gen = this.gen;
    const reply = await engine.request({ type: 'sample', t });
    if (gen !== this.gen || reply.type !== 'sample' || this.playing) return;
    this.scrub = { t: reply.runs[0].inv[INV.t], runs: reply.runs };
    this.touched = true;
    // a run that has not been at this moment yet (MuJoCo behind) has no ghost there
    this.scrubGhosts.forEach((g, i) => { g.poses = reply.runs[i + 1]?.poses ?? this.runs[i + 1].poses; });
    this.scrubShown = this.scrubGhosts.filter((g, i) => reply.runs[i + 1]);
    this.scrub.missing = this.runs.filter((x, i) => !reply.runs[i]);
  }

  /** The stored history as CSV or JSON text (stepper.js, history.js). */
  async export(format, settings) {
    const engine = await this.engine; // after any step under way (one queue)
    const reply = await engine.request({ type: 'export', format, fields: this.fields(), settings });
    if (reply.type === 'error') throw new Error(reply.message);
    return reply.text;
  }

  /** Resolves once no steps are asked for or under way (for tests and exports). */
  settled() {
    if (!this.inflight && !this.pending && !this.behind) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  take() {
    const g = this.give;
    this.give = null;
    return g;
  }

  // ask the worker for the steps due (one request, a chunk, at a time)
  async send() {
    if (this.inflight || !this.run) return;
    const r = this.run, h = r.dt;
    let n = this.pending;
    if (this.playing) { // the simulated time due by now, however often frames come
      const now = performance.now();
      const speed = this.target !== null ? 1e9 : this.speed || 1e9;
      // a run slower than asked is a quarter of a second (or one step, if longer) behind at most:
      // it goes as fast as it can (the worker always has a chunk to take), and never races to
      // catch up more; a step longer than that still comes once its own time has passed
      this.acc = Math.min(this.acc + Math.min((now - this.lastAcc) / 1000, 0.25) * speed, Math.max(0.25 * speed, h));
      this.lastAcc = now;
    }
    if (this.playing && !n) {
      n = Math.floor(this.acc / h + 1e-9);
      if (this.target !== null) n = Math.min(n, Math.max(0, Math.round((this.target - r.inv[INV.t]) / h)));
    }
    // paused while MuJoCo's run catches up: a request of no steps brings its rows when they come
    const sync = !this.playing && !n && this.behind > 0;
    if (n <= 0 && !sync) { if (!this.behind) for (const f of this.idle.splice(0)) f(); return; }
    const single = this.pending > 0;
    this.pending = 0;
    this.inflight = true;
    const engine = await this.engine, gen = this.gen;
    // one request object and transfer list, refilled (postMessage copies the message)
    const msg = (this.msg ??= { type: 'step', n: 0, budget: 0, give: null });
    const transfer = (this.transfer ??= []);
    msg.n = n;
    msg.budget = single ? Infinity : this.local ? LOCAL_MS : CHUNK_MS;
    msg.sync = sync;
    msg.give = this.take();
    transfer.length = 0;
    if (msg.give) {
      for (const k of ['poses', 'joints', 'springs', 'inv']) for (const a of msg.give[k]) transfer.push(a.buffer);
      transfer.push(msg.give.samples.buffer, msg.give.react.buffer, msg.give.contacts.buffer, msg.give.lateRows.buffer, msg.give.late.buffer);
    }
    const reply = await engine.request(msg, transfer);
    msg.give = null;
    if (gen !== this.gen) return; // a load came in between: its own state holds (and it reset inflight)
    this.inflight = false;
    if (reply.type === 'error') { this.on.failure?.([{ ...this.run, error: reply.message }], []); this.setPlaying(false); return; }
    // (a chunk short of what was due leaves the rest due: the worker always has the next chunk)
    if (!single) this.acc = Math.max(0, this.acc - reply.taken * h);
    this.apply(reply);
    if (this.target !== null && (r.inv[INV.t] >= this.target - 0.5 * h || r.error)) this.setPlaying(false);
    if (!this.pending && !this.playing && !this.behind) for (const f of this.idle.splice(0)) f();
    // ask again at once: the worker keeps stepping while this thread draws (a frame may take
    // longer than a request); stepping on this thread (no worker) waits for the next frame
    // instead; paused, while MuJoCo's run catches up (each such request waits for it)
    if (this.pending || (!this.local && (this.playing || this.behind))) queueMicrotask(() => this.send());
  }

  /** The reaction chart's joint: { index, label } (`jointLabel` is the page's describer). */
  reactionJoint() {
    return { index: this.joint, label: this.jointLabel?.(this.joint) ?? '' };
  }

  // the view frames the joint whose reaction is charted (none when no reaction chart is shown)
  frameChartedJoint() {
    const charted = this.run?.nj && this.charts?.specs.some((s) => s.key === 'reactions');
    this.renderer.chartedJoint = charted ? this.joint : -1;
  }

  /** What the view draws of the scenario `text` besides bodies and joints, on the page and in
   * the element alike: the sliding joints' rails, the driven and motored joints' colours, the
   * collision shapes, contact planes and joint stops, and each point-to-point element as a coil (a spring), a dashpot (a damper), both, or a rod (a
   * distance joint; a driven one in a cylinder). */
  decorate(text) {
    const r = this.renderer;
    try {
      const rails = wasm.joint_rails(text);
      r.rails = rails.length ? new Float64Array(rails) : null;
      r.jointMarks = new Uint8Array(wasm.joint_marks(text));
      r.springKinds = new Uint8Array(wasm.spring_kinds(text));
      r.setShapes(new Float64Array(wasm.contact_shapes(text)), new Float64Array(wasm.contact_planes(text)), new Float64Array(wasm.shape_links(text)), new Float64Array(wasm.limit_stops(text)), wasm.shape_meshes(text));
    } catch {
      r.rails = null;
      r.jointMarks = null;
      r.springKinds = null;
      r.setShapes(null, null, null, null);
    }
  }

  /** Draw the contact forces as arrows or not: the worker computes them only while they are
   * drawn (the state it answers with carries the forces at once). */
  async setArrows(on) {
    if (on === this.renderer.arrows.on) return;
    this.renderer.arrows.on = on;
    const engine = await this.engine, gen = this.gen;
    const reply = await engine.request({ type: 'arrows', on });
    if (gen !== this.gen || reply.type !== 'state') return;
    this.apply(reply);
  }

  /** Chart the reaction of joint `j` from now on (every run; the chart's lines start over). */
  async setJoint(j) {
    if (!this.run || !(j >= 0 && j < this.run.nj) || j === this.joint) return;
    this.joint = j;
    this.charts?.setJoint(this.reactionJoint());
    this.frameChartedJoint();
    const engine = await this.engine;
    await engine.request({ type: 'joint', joint: j });
  }

  /** Look at the bodies shown from above, from the side or from the camera's direction, framed
   * to their bounds (camera.js look: 'top', 'side', 'fit'). */
  look(which) {
    if (!this.run) return;
    const s = this.scrub?.runs[0];
    const cam = this.renderer.camera, sh = this.renderer.shapes;
    cam.look(which, s ? s.poses : this.run.poses, this.run.sizes, s ? s.joints : this.run.joints);
    cam.auto = cam.canAuto; // (several bodies on a plane: kept framed from here on)
    cam.hold = 0;
    // a camera that goes along with free bodies on a plane keeps the new target's offset from
    // their centroid (of the last frame drawn)
    if (this.renderer.follow) for (let k = 0; k < 3; k++) sh.offset[k] = cam.target[k] - sh.mean[k];
    this.touched = true;
  }

  /** Grab body `body` at its point `point` (body frame, m): from now on `drag(target)` pulls it
   * there, the same pull on every run on the page; `release()` lets go. The view draws the pull
   * as a line from the body point to the target. */
  grab(body, point, target) {
    this.grabbed = { body, point, target: [...target], dirty: true };
    this.renderer.pull = this.grabbed;
  }

  drag(target) {
    if (!this.grabbed) return;
    this.touched = true;
    this.grabbed.target = [...target];
    this.grabbed.dirty = true;
  }

  async release() {
    if (!this.grabbed) return;
    this.grabbed = null;
    this.renderer.pull = null;
    const engine = await this.engine;
    await engine.request({ type: 'pull', pull: null });
  }

  /** Set control `c` of every run to `value` from the next step (the worker's 'control'):
   * resolves to the time it takes effect at (s), or rejects with the message naming it. */
  async setControl(c, value) {
    const engine = await this.engine;
    const reply = await engine.request({ type: 'control', control: c, value });
    if (reply.type === 'error') throw new Error(reply.message);
    return reply.t;
  }

  // send the pointer's newest target once a frame (the worker answers in order, between steps)
  async sendPull() {
    const g = this.grabbed;
    if (!g || !g.dirty) return;
    g.dirty = false;
    const engine = await this.engine;
    await engine.request({ type: 'pull', pull: { body: g.body, point: g.point, target: g.target } });
  }

  /** What to show: the live state, or the scrubbed moment: { inv, springs, hash (null when live),
   * live, missing (the runs that have not been at the scrubbed moment yet: MuJoCo behind) }. */
  shown() {
    if (this.scrub) return { inv: this.scrub.runs[0].inv, springs: this.scrub.runs[0].springs, hash: this.scrub.runs[0].hash, live: false, missing: this.scrub.missing };
    return { inv: this.run.inv, springs: this.run.springs, hash: null, live: true, missing: NONE_MISSING };
  }

  /** Time of the newest stored sample (s). */
  end() {
    return this.endT;
  }

  frame(now) {
    if (this.stopped) return;
    if (this.grabbed?.dirty) this.sendPull();
    if (this.run && (this.playing || this.behind)) this.send();
    const since = now - this.frameAt;
    this.frameAt = now;
    this.last = now;
    if (this.run) {
      if (this.viewDue(since)) this.draw();
      // the charts at most every CHART_EVERY_MS while playing: the 3-D view keeps every frame
      if (now - this.chartAt >= CHART_EVERY_MS || !this.playing) {
        this.charts?.redraw();
        this.chartAt = now;
      }
      this.measure(now);
      this.on.frame?.(now);
    }
    this.raf = requestAnimationFrame(this.tick);
  }

  // whether this frame draws the 3-D view (SLOW_MS, IDLE_MS), `since` ms after the last frame
  viewDue(since) {
    const cv = this.renderer.canvas, w = cv.clientWidth, h = cv.clientHeight;
    if (w !== this.drawnW || h !== this.drawnH) { this.drawnW = w; this.drawnH = h; this.touched = true; }
    const due = this.playing ? since < SLOW_MS || this.skipped : this.touched || this.frameAt - this.drawnAt >= IDLE_MS;
    this.skipped = !due;
    if (due) { this.touched = false; this.drawnAt = this.frameAt; }
    return due;
  }

  // steps per second and the real-time factor, over half-second windows
  measure(now) {
    const s = this.stats;
    const dt = (now - s.since) / 1000;
    if (dt > 0.5) {
      s.rate = s.steps / dt;
      s.rt = s.rate * this.run.dt;
      s.steps = 0;
      s.since = now;
    }
  }

  /** Draw the live state, or the stored moment the scrubber points at. */
  draw() {
    const r = this.run;
    this.draws++; // (the tests count them: a paused page that shows nothing new draws nothing)
    // the contact forces belong to the live state: none drawn on a stored moment
    const A = this.renderer.arrows;
    A.count = this.scrub ? 0 : this.ncontacts;
    A.data = this.contacts;
    A.weight = r.weight ?? 1;
    A.unit = this.arrowUnit ?? 0.2;
    if (!this.scrub) this.renderer.draw(r.poses, r.sizes, r.joints, this.ghosts, r.springs);
    else this.renderer.draw(this.scrub.runs[0].poses, r.sizes, this.scrub.runs[0].joints, this.scrubShown, this.scrub.runs[0].springs);
    if (this.renderer.camera.auto && this.renderer.camera.easing) this.touched = true; // (paused: drawn until framed)
  }

  /** Stop the loop and the worker (an element removed from its page). */
  destroy() {
    this.stopped = true;
    for (const t of TOUCH_EVENTS) window.removeEventListener(t, this.touch, { capture: true });
    cancelAnimationFrame(this.raf);
    this.engine.then((e) => e.close());
    this.runs = [];
  }
}
