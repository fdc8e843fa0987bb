// mujoco-remote.js: MuJoCo's run as the stepper sees it when MuJoCo steps in its own worker
// (mujoco-worker.js). RemoteRun has the run interface (RunInterface, shared/names.js: poses,
// joints, springs, inv, steps, error, msPerStep, sim.state_hash(), ...), kept from the worker's
// last reply. Beside Tumble's runs it is driven by a pipe (mujoco-pipe.js): its worker steps
// while Tumble's runs step, catching up to them at its own pace. Alone (Tumble's runs stopped)
// the stepper asks it for steps (`catchUp`) and waits.
import { startWorker, WorkerEngine } from '../sim/workers.js';
import { INV, NINV } from '../shared/invariants.js';

/** MuJoCo's worker, started: Tumble's compiled wasm `module`, MuJoCo's glue at `url` and its wasm
 * `bytes`. Resolves to the engine, or rejects with why it did not start. */
export async function startMujocoWorker(module, url, bytes) {
  const engine = new WorkerEngine(startWorker(new URL('./mujoco-worker.js', import.meta.url)), "MuJoCo's worker");
  const reply = await engine.request({ type: 'init', module, url, bytes }, [bytes.buffer]);
  if (reply.type !== 'ready') {
    engine.close();
    throw new Error(reply.message);
  }
  engine.ms = reply.ms;
  return engine;
}

/** Ask MuJoCo's worker; an error reply becomes a thrown Error. */
export async function ask(engine, msg, transfer = []) {
  const reply = await engine.request(msg, transfer);
  if (reply.type === 'error') throw new Error(reply.message);
  return reply;
}

export class RemoteRun {
  /** MuJoCo's run of `settings` (its integrator in settings.mujoco) in the worker `engine`. */
  static async create(engine, settings) {
    const { id, info, state } = await ask(engine, { type: 'load', settings: { scenario: settings.scenario, mujoco: settings.mujoco, solver: settings.mjsolver || '', dt: settings.dt, controls: settings.controls } });
    return new RemoteRun(engine, id, info, state);
  }

  constructor(engine, id, info, state) {
    this.engine = engine;
    this.id = id; // (the worker's run: a newer load replaces it there, and this one's free does nothing)
    this.remote = true;
    Object.assign(this, { name: info.name, n: info.n, nj: info.nj, ns: info.ns, forced: info.forced, sizes: info.sizes, conserved: info.conserved, inv0: info.inv0, notes: info.notes, driveUnits: info.driveUnits ?? [], lossesCounted: info.lossesCounted ?? false });
    this.energy0 = info.inv0[INV.energy];
    this.h = info.dt;
    this.joint = 0;
    this.poses = new Float64Array(12 * this.n);
    this.joints = new Float64Array(3 * this.nj);
    this.springs = new Float64Array(6 * this.ns);
    this.inv = new Float64Array(NINV);
    this.give = null; // the worker's sample buffers, handed back with the next request
    this.pipe = null; // beside Tumble's runs: what drives this run (mujoco-pipe.js)
    this.apply(state);
    this.poses.set(state.poses);
    this.joints.set(state.joints);
    this.springs.set(state.springs);
    this.inv.set(state.inv);
    const self = this;
    this.sim = {
      dt: () => self.h, tol: () => 0, gains: () => [0, 0], state_hash: () => self.hashNow,
      pulled: () => self.pulledNow, last_error: () => self.error, free() {},
    };
  }

  apply(s) {
    this.steps = s.steps;
    this.error = s.error;
    this.hashNow = s.hash;
    this.pulledNow = s.pulled;
    this.msPerStep = s.ms;
    this.mjMsPerStep = s.mjms; // (of which in MuJoCo's own mj_step)
    // the drives' error (mujoco-run.js): now, and the largest so far
    const k = this.driveUnits?.length ?? 0;
    this.driveError = k && s.drive ? s.drive.slice(0, k) : null;
    this.driveWorst = k && s.drive ? s.drive.slice(k) : null;
  }

  /** Take n steps in the worker, recording into `history` (as run `r`) the samples it took at the
   * multiples of `stride`; then `sampleAt(step, i)` reads the invariants of a sample taken there
   * into a chart row. Resolves when the reply is in. */
  async catchUp(n, stride, history, r) {
    this.take(await this.request(n, stride), history, r);
  }

  /** Ask the worker for n steps sampled at the multiples of `stride`: a Promise of its reply,
   * for `take` (the stepper's pipe, mujoco-pipe.js, asks and goes on with Tumble's steps). */
  request(n, stride) {
    const give = this.give;
    this.give = null;
    return ask(this.engine, { type: 'advance', n, stride, give, joint: this.joint }, give ? [give.inv.buffer, give.poses.buffer, give.recorded.buffer, give.now.buffer, give.react.buffer] : []);
  }

  /** Take the reply `rep` of an advance: the state after it, its samples into `history` (run `r`). */
  take(rep, history, r) {
    this.apply(rep);
    const b = rep.buf, pn = rep.pn, np = this.poses.length, nj = this.joints.length, ns = this.springs.length;
    this.poses.set(b.now.subarray(0, np));
    this.joints.set(b.now.subarray(np, np + nj));
    this.springs.set(b.now.subarray(np + nj, np + nj + ns));
    this.inv.set(b.now.subarray(pn, pn + NINV));
    for (let k = 0; k < rep.count; k++) {
      if (!b.recorded[k]) continue;
      const at = k * pn;
      history.record(r, rep.from + k * rep.stride, b.inv.subarray(k * NINV, (k + 1) * NINV), b.poses.subarray(at, at + np),
        b.poses.subarray(at + np, at + np + nj), b.poses.subarray(at + np + nj, at + pn), rep.hashes[k]);
    }
    this.last = rep;
    this.give = b;
  }

  /** The invariants of the sample taken at step `step` in the last catch-up into `samples` at
   * `o`, and the charted joint's reaction there into `react` at `ro` (|F| in N, |M| in N m): NaN
   * when there is none (the run stopped before it). */
  sampleAt(step, samples, o, react, ro) {
    const rep = this.last, k = rep ? (step - rep.from) / rep.stride : -1;
    if (rep && k >= 0 && k < rep.count && Number.isInteger(k) && rep.buf.recorded[k]) {
      samples.set(rep.buf.inv.subarray(k * NINV, (k + 1) * NINV), o);
      react[ro] = this.joint >= 0 ? rep.buf.react[2 * k] : NaN;
      react[ro + 1] = this.joint >= 0 ? rep.buf.react[2 * k + 1] : NaN;
    } else {
      samples.fill(NaN, o, o + NINV);
      react.fill(NaN, ro, ro + 2);
    }
  }

  // the rest goes to the worker in order, before the next steps it is asked for; beside
  // Tumble's runs (the pipe) at the step Tumble's runs take it from, however far behind this is
  send(msg, now = false) {
    if (this.pipe) this.pipe.later(msg, now);
    else this.engine.request(msg);
  }

  pull(p) { this.send({ type: 'pull', pull: p }); }

  setControl(control, value) { this.send({ type: 'control', control, value }); }

  resume(h) {
    this.h = h;
    // a run that stopped takes it before any more steps; a live one at the others' step
    this.send({ type: 'resume', h }, !!this.error);
    this.error = null;
  }

  free() { this.engine.request({ type: 'free', id: this.id }); }
}
