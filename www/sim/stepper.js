// stepper.js: the simulation side of the page, message in, message out. It runs in a Web Worker
// (worker.js), so the page's main thread only draws; where no worker can be made it runs on the
// main thread through the same messages (engine.js). It owns the runs (sim.js) and their stored
// history (history.js).
//
// Messages (each answered by one reply):
//   { type: 'load', settings }        -> 'loaded' { info: [{ name, n, nj, ns, forced, sizes, conserved, inv0, dt, tol, gains }] } + state
//   { type: 'step', n, budget, give } -> 'state': up to n steps of every live Tumble run in lockstep, for
//                                        about `budget` ms of wall-clock time (the page asks for a
//                                        few ms, a chunk, and again at once: whatever it sends
//                                        meanwhile waits a chunk at most, and a pause, which asks
//                                        for no more, stops the runs within one); past it by at
//                                        most one step of every run, the steps sized by their
//                                        measured pace, not by the history's sampling
//   { type: 'arrows', on }            -> 'state': the contact forces computed for the replies (the
//                                        page draws them) or not
//   { type: 'resume', h }             -> 'state': stopped runs go on from their last good state with step h
//   { type: 'sample', t }             -> 'sample': the stored moment nearest to t (poses, joints, inv, hash per run)
//   { type: 'export', format, fields, settings } -> 'export' { text }
//   { type: 'pull', pull }            -> 'pulled': every run pulled by the same spring ({ body,
//                                        point, target } in m, sim.js) from its next step, or let go (null)
//   { type: 'joint', joint }          -> 'joint': the joint whose reaction the samples carry
//   { type: 'control', control, value } -> 'controlled' { t }: control `control` of every Tumble
//                                        run set to `value` from its next step (sim.js), and the
//                                        time it takes effect at (s); MuJoCo's run gets the same ctrl
//   { type: 'mujoco-load', url, bytes } -> 'mujoco': MuJoCo's own worker (mujoco-worker.js)
//                                        started, its module from its wasm bytes; then a 'load'
//                                        with settings.mujoco (its integrator) adds MuJoCo's run
//                                        there (mujoco-remote.js) after Tumble's
//   { type: 'mjcf', xml[, main, files, keyframe] } -> 'mjcf' { system, notes, keyframes, options }: a MuJoCo model compiled by
//                                        MuJoCo and converted (mjcf.js), or 'error' saying why
// Every answer may be a Promise (the worker awaits each in turn). With MuJoCo on the page a
// 'step' steps Tumble's runs here while MuJoCo's worker steps MuJoCo's run towards them at its
// own pace (mujoco-pipe.js): Tumble's run never waits for MuJoCo's. MuJoCo's values in the chart
// rows come in later replies (`late`), at the same steps. A 'step' of no steps with `sync` (a
// paused page while MuJoCo catches up) waits for MuJoCo's next reply. Only MuJoCo's run left (the
// others stopped): it catches up with them, then steps alone, awaited.
// A 'state' reply holds each run's poses, joints, spring ends, invariants, step count, hash and
// error, the chart samples taken since the last reply (`samples`: k x runs x NINV, NaN where a run had
// stopped; at most SAMPLE_CAP of the newest) with the chosen joint's reaction (`react`: k x runs x
// 2, |F| in N and |M| in N m, of joint `joint`), the first run's contact forces at its state
// (`contacts`: 6 numbers each, point in m and force in N, `ncontacts` of them, at most
// CONTACT_CAP; wasm contact_forces; none unless settings.arrows or an 'arrows' message asked
// for them), and the runs that failed in it. Its typed arrays
// are transferred; the page hands them back with its next request (`give`), so nothing is
// allocated per frame once both sides hold a set.
import { Run } from './sim.js';
import { History } from './history.js';
import { SAMPLE_CAP, CONTACT_CAP } from '../shared/names.js';
import { INV, NINV } from '../shared/invariants.js';
import { RemoteRun, startMujocoWorker, ask } from '../mujoco/mujoco-remote.js';
import { MujocoPipe } from '../mujoco/mujoco-pipe.js';

export class Stepper {
  constructor(wasm, module = null) {
    this.wasm = wasm;
    this.module = module; // Tumble's compiled wasm module, for MuJoCo's worker
    this.mj = null; // MuJoCo's worker (a Promise of its engine) once asked for
    this.runs = [];
    this.history = new History();
    this.pool = [];
    this.arrows = false; // the page draws the contact forces: they are computed for its replies
    this.pipe = null; // MuJoCo's run beside Tumble's (mujoco-pipe.js)
  }

  /** Answer one message: { reply, transfer } (transfer: the ArrayBuffers the reply hands over). */
  async handle(msg) {
    try {
      if (msg.give) this.pool.push(msg.give);
      switch (msg.type) {
        case 'load': return await this.load(msg.settings);
        case 'step': return await this.step(msg.n, msg.budget ?? Infinity, !!msg.sync);
        case 'resume': for (const x of this.runs) x.resume(msg.h); this.history.dt = msg.h; return this.state('state', 0, []);
        case 'sample': return this.sample(msg.t);
        case 'export': return { reply: { type: 'export', text: this.export(msg) }, transfer: [] };
        case 'pull': for (const x of this.runs) x.pull(msg.pull); return { reply: { type: 'pulled' }, transfer: [] };
        case 'joint': for (const x of this.runs) x.joint = msg.joint; return { reply: { type: 'joint' }, transfer: [] };
        case 'control': return { reply: { type: 'controlled', t: this.setControl(msg.control, msg.value) }, transfer: [] };
        case 'arrows': this.arrows = !!msg.on; return this.state('state', 0, []);
        case 'mujoco-load': return await this.loadMujoco(msg.url, msg.bytes);
        case 'mjcf': return await this.convertMjcf(msg.xml, msg.main, msg.files, msg.keyframe);
        default: throw new Error(`unknown message '${msg.type}'`);
      }
    } catch (e) {
      return { reply: { type: 'error', message: e.message }, transfer: [] };
    }
  }

  /** Start MuJoCo's worker (once): a Promise of the reply. A start that failed is tried again
   * when asked again. */
  async loadMujoco(url, bytes) {
    try {
      const t0 = performance.now();
      if (!this.module) throw new Error('this page cannot start another worker for it');
      this.mj ??= startMujocoWorker(this.module, url, bytes);
      await this.mj;
      return { reply: { type: 'mujoco', ms: performance.now() - t0 }, transfer: [] };
    } catch (e) {
      this.mj = null;
      return { reply: { type: 'error', message: `MuJoCo did not start: ${e?.message ?? e}` }, transfer: [] };
    }
  }

  /** A MuJoCo model (MJCF text; or a model of several files: the main one's name and the Map of
   * them, from-mjcf-files.js) as a Tumble system, by MuJoCo's compiler in its worker. */
  async convertMjcf(xml, main, files, keyframe = 0) {
    if (!this.mj) throw new Error('MuJoCo is not loaded');
    const { system, notes, keyframes, options } = await ask(await this.mj, { type: 'mjcf', xml, keyframe, ...(files ? { main, files } : {}) });
    return { reply: { type: 'mjcf', system, notes, keyframes, options }, transfer: [] };
  }

  /** Control `c` of every run set to `value` from its next step: Tumble's runs here, MuJoCo's
   * in its worker (data.ctrl of its actuator); the time it takes effect at (s). */
  setControl(c, value) {
    let t = 0;
    for (const [i, x] of this.runs.entries()) {
      const at = x.setControl?.(c, value);
      if (i === 0) t = at ?? 0;
    }
    return t;
  }

  async load(settings) {
    const runs = [];
    try {
      for (const integrator of settings.integrators) runs.push(new Run(this.wasm, { ...settings, integrator }));
      if (settings.mujoco) {
        if (!this.mj) throw new Error('MuJoCo is not loaded');
        runs.push(await RemoteRun.create(await this.mj, { ...settings, dt: runs[0]?.sim.dt() ?? settings.dt }));
      }
    } catch (e) {
      for (const r of runs) r.free();
      throw e;
    }
    for (const r of this.runs) r.free();
    this.pipe?.stop();
    this.runs = runs;
    this.arrows = !!settings.arrows;
    // joint -1: no reaction chart on this page (an embed of other charts), none is computed
    for (const x of runs) x.joint = settings.joint < 0 ? -1 : settings.joint < x.nj ? settings.joint : 0;
    this.pool = [];
    const r = runs[0];
    this.history.reset(runs.length, r.n, r.nj, r.sim.dt(), r.ns);
    runs.forEach((x, i) => this.history.record(i, 0, x.inv, x.poses, x.joints, x.springs, x.sim.state_hash()));
    const last = runs[runs.length - 1];
    // beside Tumble's runs MuJoCo's steps at its own pace (alone, the stepper steps it)
    this.pipe = last?.remote && runs.length > 1 ? new MujocoPipe(last, this.history, runs.length - 1) : null;
    const info = runs.map((x) => ({
      name: x.name, n: x.n, nj: x.nj, ns: x.ns, forced: x.forced, reach: x.reach ?? -1, sizes: x.sizes, conserved: x.conserved, inv0: x.inv0, notes: x.notes ?? [],
      controls: x.controls ?? [], dt: x.sim.dt(), tol: x.sim.tol(), gains: Array.from(x.sim.gains()), weight: x.sim.weight?.() ?? 1, contact: x.sim.has_contact?.() ?? false, stops: x.sim.has_limits?.() ?? false,
      lossesCounted: x.lossesCounted ?? false,
    }));
    const out = this.state('loaded', 0, []);
    out.reply.info = info;
    return out;
  }

  // a set of reply arrays: one handed back by the page, or new ones
  buffers() {
    const r = this.runs;
    const arrows = r.length && r[0].sim.has_contact?.() ? 6 * CONTACT_CAP : 0;
    const late = this.pipe ? SAMPLE_CAP : 0; // MuJoCo's late rows (the pipe)
    const fits = (b) => b.react && b.poses.length === r.length && b.poses[0].length === 12 * r[0].n && b.joints[0].length === 3 * r[0].nj && b.springs[0].length === 6 * r[0].ns && b.contacts.length === arrows && b.lateRows?.length === late;
    while (this.pool.length) {
      const b = this.pool.pop();
      if (fits(b)) return b;
    }
    return {
      poses: r.map((x) => new Float64Array(12 * x.n)),
      joints: r.map((x) => new Float64Array(3 * x.nj)),
      springs: r.map((x) => new Float64Array(6 * x.ns)),
      inv: r.map(() => new Float64Array(NINV)),
      samples: new Float64Array(SAMPLE_CAP * r.length * NINV),
      react: new Float64Array(SAMPLE_CAP * r.length * 2),
      contacts: new Float64Array(arrows),
      lateRows: new Float64Array(late),
      late: new Float64Array(late * (NINV + 2)),
    };
  }

  async step(n, budget, sync = false) {
    const runs = this.runs, pipe = this.pipe;
    // MuJoCo's run (in its worker) is the last
    const remote = runs.length && runs[runs.length - 1].remote ? runs[runs.length - 1] : null;
    const local = remote ? runs.length - 1 : runs.length;
    let live = false;
    for (let i = 0; i < local; i++) if (!runs[i].error) live = true;
    if (remote && !remote.error && !live && n > 0) {
      // only MuJoCo's run is left: it catches up with the others' steps, then steps alone
      if (pipe && (pipe.busy || remote.steps < pipe.target)) {
        await pipe.settled();
        return this.state('state', 0, pipe.failures([]));
      }
      return this.alone(remote, local, n, budget);
    }
    const t0 = performance.now();
    const failed = [];
    const buf = this.buffers();
    const width = runs.length * NINV;
    const first = pipe ? pipe.next : 0; // the number of the first row taken here
    let taken = 0, k = 0, left = n;
    // plain loops, no closures: this runs for every batch of steps and every chart sample
    while (left > 0) {
      const spent = performance.now() - t0;
      if (taken > 0 && spent >= budget) break;
      let lead = null;
      for (let i = 0; i < local && !lead; i++) if (!runs[i].error) lead = runs[i];
      if (!lead) break;
      // at most to the next history sample (the charts get the same samples as the history),
      // and as many as fit in the time left at the measured pace of a step of every run (at
      // least one): a request never runs much past its budget, however slow a step or sparse
      // the samples. MuJoCo's run is not waited for: it steps meanwhile in its own worker.
      const pace = this.pace(local);
      const fit = pace > 0 ? Math.max(1, Math.floor((budget - spent) / pace)) : 1;
      const m = Math.min(left, this.history.due(lead.steps), fit);
      for (let i = 0; i < local; i++) {
        const x = runs[i];
        if (x.error) continue;
        x.advance(m, this.history, i);
        if (x.error) failed.push({ name: x.name, error: x.error });
      }
      left -= m;
      taken += m;
      if (pipe) pipe.target = lead.steps;
      if (lead.steps % this.history.stride === 0) {
        const at = (k % SAMPLE_CAP) * width;
        const ra = (k % SAMPLE_CAP) * runs.length * 2;
        for (let i = 0; i < local; i++) {
          const x = runs[i];
          if (x.error) buf.samples.fill(NaN, at + i * NINV, at + (i + 1) * NINV);
          else buf.samples.set(x.inv, at + i * NINV);
          // the chosen joint's reaction |F| (N), |M| (N m) beside the sample (Run.reaction)
          if (x.error || !x.nj) buf.react.fill(NaN, ra + 2 * i, ra + 2 * i + 2);
          else x.reaction(buf.react, ra + 2 * i);
        }
        if (remote) {
          // MuJoCo's values come in a later reply, once its run has reached this step
          buf.samples.fill(NaN, at + local * NINV, at + (local + 1) * NINV);
          buf.react.fill(NaN, ra + 2 * local, ra + 2 * local + 2);
          if (pipe && !remote.error) pipe.row(lead.steps, this.history.stride);
          else pipe?.skip(1);
        }
        k++;
      }
      if (failed.length) break;
    }
    if (pipe) {
      pipe.kick();
      // a paused page asks with no steps while MuJoCo catches up: this waits for its next reply
      if (sync && n === 0) await pipe.settled();
      pipe.failures(failed);
    }
    return this.state('state', taken, failed, buf, k, first + Math.max(0, k - SAMPLE_CAP));
  }

  // MuJoCo's run alone (Tumble's stopped): its steps, as many as its time allows, awaited; its
  // samples are the chart's rows (the others' columns NaN)
  async alone(remote, local, n, budget) {
    const buf = this.buffers(), runs = this.runs, width = runs.length * NINV, stride = this.history.stride;
    const taken = Math.min(n, Math.max(1, Math.floor(budget / Math.max(remote.msPerStep, 1e-3))));
    const before = remote.steps, failed = [];
    try {
      await remote.catchUp(taken, stride, this.history, local);
    } catch (e) {
      // its worker failed (MuJoCo aborted): that run stops
      remote.error = `MuJoCo's worker stopped: ${e.message}`;
      remote.last = null;
    }
    if (remote.error) failed.push({ name: remote.name, error: remote.error });
    let k = 0;
    for (let s = before + stride - (before % stride); s <= remote.steps && k < SAMPLE_CAP; s += stride) {
      buf.samples.fill(NaN, k * width, k * width + local * NINV);
      buf.react.fill(NaN, k * runs.length * 2, k * runs.length * 2 + 2 * local);
      remote.sampleAt(s, buf.samples, k * width + local * NINV, buf.react, k * runs.length * 2 + 2 * local);
      k++;
    }
    const first = this.pipe ? this.pipe.next : 0;
    if (this.pipe) {
      this.pipe.skip(k);
      this.pipe.target = remote.steps;
    }
    return this.state('state', taken, failed, buf, k, first);
  }

  // ms a step of every live local run takes (each run's own measured pace; 0 before any)
  pace(local) {
    let ms = 0;
    for (let i = 0; i < local; i++) if (!this.runs[i].error) ms += this.runs[i].msPerStep;
    return ms;
  }

  state(type, taken, failed, buf = this.buffers(), k = 0, rowFirst = 0) {
    this.runs.forEach((x, i) => {
      buf.poses[i].set(x.poses);
      buf.joints[i].set(x.joints);
      buf.springs[i].set(x.springs);
      buf.inv[i].set(x.inv);
    });
    const first = this.runs[0], pipe = this.pipe;
    // the contact forces only while the page draws them (its "contact forces" checkbox)
    const ncontacts = this.arrows && buf.contacts.length && !first.error ? Math.min(first.sim.contact_forces(buf.contacts), CONTACT_CAP) : 0;
    const reply = {
      type, taken, failed, buf, ncontacts,
      samples: Math.min(k, SAMPLE_CAP), sampleStart: k > SAMPLE_CAP ? k % SAMPLE_CAP : 0,
      // beside MuJoCo (the pipe): the number of the first row here (row 0 is the load's), the
      // run whose values in them come later (-1: none), and the rows of it come in (`late`: in
      // buf.lateRows their numbers, in buf.late NINV invariants and |F|, |M| each), and the
      // work MuJoCo's run has left (steps behind Tumble's, rows not yet sent)
      rowFirst,
      later: pipe && !pipe.remote.error ? this.runs.length - 1 : -1,
      late: pipe ? pipe.drain(buf.lateRows, buf.late) : 0,
      behind: pipe ? pipe.behind() : 0,
      runs: this.runs.map((x) => ({ steps: x.steps, error: x.error, hash: x.sim.state_hash(), ms: x.msPerStep, mjms: x.mjMsPerStep ?? null, pulled: x.sim.pulled(), substeps: x.sim.substeps?.() ?? 1, drive: x.driveError ? { now: Array.from(x.driveError), worst: Array.from(x.driveWorst), units: x.driveUnits } : null })),
      joint: this.runs[0]?.joint ?? 0, // the joint whose reaction `react` holds
      end: this.end(),
    };
    return { reply, transfer: [...buf.poses, ...buf.joints, ...buf.springs, ...buf.inv, buf.samples, buf.react, buf.contacts, buf.lateRows, buf.late].map((a) => a.buffer) };
  }

  // time of the newest stored sample (s)
  end() {
    const k = this.history.count - 1;
    return k >= 0 ? this.history.time(k) : 0;
  }

  sample(t) {
    const k = Math.max(0, this.history.nearest(t));
    const runs = this.runs.map((x, i) => {
      // a run that stopped shows where it stopped; one still behind (MuJoCo beside, at its own
      // pace) has not been at sample k yet: none (its newest sample would be an earlier moment)
      if (k > this.history.last[i] && !x.error) return null;
      const s = this.history.sample(i, Math.min(k, this.history.last[i]));
      return s ? { poses: s.poses.slice(), joints: s.joints.slice(), springs: s.springs.slice(), inv: s.inv.slice(), hash: s.hash } : null;
    });
    return { reply: { type: 'sample', k, runs }, transfer: [] };
  }

  export({ format, fields, settings }) {
    const names = this.runs.map((x) => x.name);
    if (format === 'csv') return this.history.csv(fields, names);
    const finals = this.runs.map((x) => ({ t: x.inv[INV.t], steps: x.steps, state_hash: x.sim.state_hash(), error: x.error }));
    return this.history.json(fields, names, settings, finals);
  }
}
