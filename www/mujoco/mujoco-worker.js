// mujoco-worker.js: MuJoCo's own Web Worker. The simulation worker (sim/stepper.js) starts it
// when a user first asks for MuJoCo, so MuJoCo's 10 MB module and its heap live apart from
// Tumble's runs: a page that never asks never starts it, and a MuJoCo that aborts (its wasm
// build cannot be used again after an abort) takes only this worker down. It holds one MujocoRun
// (mujoco-run.js) and Tumble's wasm module for its invariants (the Evaluator).
//
// Messages (each answered by one reply, in order):
//   { type: 'init', module, url, bytes } -> 'ready' { ms }: Tumble's compiled wasm module, then
//                                           MuJoCo's glue at `url` started from its wasm `bytes`
//   { type: 'load', settings }           -> 'loaded' { id, info, state }: MuJoCo's run of the system
//   { type: 'advance', n, stride, give } -> 'advanced' { steps, error, hash, pulled, ms, drive, from,
//                                           count, hashes, buf }: n steps, with a sample
//                                           (buf.inv; buf.poses: poses, joints and spring ends) at
//                                           every step that is a multiple of `stride`, the first
//                                           at `from` (buf.recorded[k]: taken; buf.react: the
//                                           charted joint's |F|, |M| there, Tumble's reaction at
//                                           MuJoCo's state), and the state after them in buf.now
//   { type: 'pull', pull }, { type: 'control', control, value }, { type: 'resume', h },
//   { type: 'free', id } -> 'ok' (a 'free' of a run
//                                           that a newer 'load' replaced does nothing)
//   { type: 'mjcf', xml[, main, files, keyframe] } -> 'mjcf' { system, notes, keyframes, options }: MuJoCo's
//                                           compiler and mjcf.js, the start at keyframe `keyframe`
// Errors reply { type: 'error', message }. The sample arrays are transferred; the stepper hands
// them back with its next 'advance' (`give`), so a run that keeps its size allocates nothing.
import { initSync } from '../pkg/tumble_wasm.js';
import * as wasm from '../pkg/tumble_wasm.js';
import { MujocoRun, startMujoco } from './mujoco-run.js';
import { compileMjcf, fromMjModel } from './mjcf.js';
import { NINV } from '../shared/invariants.js';

let mujoco = null;
let run = null;
let id = 0; // the run's number: a 'free' of a run that a new 'load' replaced frees nothing
let pool = null;

let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  queue = queue.then(() => handle(data)).catch((e) => self.postMessage({ type: 'error', message: e?.message ?? String(e) }));
};

async function handle(msg) {
  let out = { type: 'ok' }, transfer = [];
  switch (msg.type) {
    case 'init': {
      const t0 = performance.now();
      initSync({ module: msg.module });
      mujoco = await startMujoco(msg.url, msg.bytes);
      out = { type: 'ready', ms: performance.now() - t0 };
      break;
    }
    case 'load': {
      if (!mujoco) throw new Error('MuJoCo is not loaded');
      run?.free();
      run = null;
      run = new MujocoRun(wasm, mujoco, msg.settings);
      pool = null;
      const r = run;
      out = {
        type: 'loaded', id: ++id, state: state(),
        info: { name: r.name, n: r.n, nj: r.nj, ns: r.ns, forced: r.forced, sizes: r.sizes, conserved: r.conserved, inv0: r.inv0, notes: r.notes, dt: r.h, driveUnits: r.driveUnits, lossesCounted: r.losses !== null },
      };
      break;
    }
    case 'advance': {
      if (msg.give) pool = msg.give;
      if (run) run.joint = msg.joint ?? 0;
      ({ out, transfer } = advance(msg.n, msg.stride));
      break;
    }
    case 'pull': run?.pull(msg.pull); break;
    case 'control': run?.setControl(msg.control, msg.value); break;
    case 'resume': run?.resume(msg.h); out = { type: 'ok', state: run ? state() : null }; break;
    case 'free': if (msg.id === id) { run?.free(); run = null; } break;
    case 'mjcf': {
      if (!mujoco) throw new Error('MuJoCo is not loaded');
      // (files: a model of several files, its main one's name `main`: from-mjcf-files.js)
      const model = compileMjcf(mujoco, msg.xml, msg.files ? { main: msg.main, files: msg.files } : null);
      try {
        const { system, notes, keyframes, options } = fromMjModel(mujoco, model, { keyframe: msg.keyframe ?? 0 });
        out = { type: 'mjcf', system, notes, keyframes, options };
      } finally {
        model.delete();
      }
      break;
    }
    default: throw new Error(`unknown message '${msg.type}'`);
  }
  self.postMessage(out, transfer);
}

/** The run's current state, copied (small: the step's poses, joints, spring ends, invariants). */
function state() {
  const r = run;
  return {
    steps: r.steps, error: r.error, hash: r.hash(), pulled: r.wasPulled, ms: r.msPerStep, mjms: r.mjMsPerStep, drive: drive(r),
    poses: r.poses.slice(), joints: r.joints.slice(), springs: r.springs.slice(), inv: r.inv.slice(),
  };
}

/** The drives' error now and at most so far, [now..., worst...] (rad or m), or null. */
const drive = (r) => (r.driveError ? [...r.driveError, ...r.driveWorst] : null);

/** The History interface MujocoRun.advance records into (as the stepper's): a sample at every
 * multiple of `stride` from `from`, `count` of them, into `buf` (one object, reused). */
const recorder = {
  stride: 1, from: 0, count: 0, pn: 0, buf: null, hashes: [],
  due(steps) { return this.stride - (steps % this.stride); },
  record(_, steps, inv, poses, joints, springs, hash) {
    const k = (steps - this.from) / this.stride, b = this.buf, pn = this.pn;
    if (!(k >= 0 && k < this.count)) return;
    b.inv.set(inv.subarray(0, NINV), k * NINV);
    b.poses.set(poses, k * pn);
    b.poses.set(joints, k * pn + poses.length);
    b.poses.set(springs, k * pn + poses.length + joints.length);
    b.recorded[k] = 1;
    this.hashes[k] = hash;
    // the charted joint's reaction at the sample (-1: no reaction chart on the page)
    if (run.joint >= 0) run.reaction(b.react, 2 * k);
  },
};

/** n steps of the run, sampled at the multiples of `stride` (as the stepper's History). */
function advance(n, stride) {
  const r = run;
  if (!r) throw new Error('no MuJoCo run is loaded');
  const from = r.steps + stride - (r.steps % stride); // the first sample's step
  const count = from > r.steps + n ? 0 : Math.floor((r.steps + n - from) / stride) + 1;
  const pn = 12 * r.n + 3 * r.nj + 6 * r.ns;
  const fits = pool && pool.recorded.length >= count && pool.poses.length >= pool.recorded.length * pn && pool.now.length === pn + NINV;
  const cap = Math.max(count, 64);
  const buf = fits ? pool : { inv: new Float64Array(cap * NINV), poses: new Float64Array(cap * pn), recorded: new Uint8Array(cap), now: new Float64Array(pn + NINV), react: new Float64Array(2 * cap) };
  pool = null;
  buf.recorded.fill(0);
  recorder.stride = stride;
  recorder.from = from;
  recorder.count = count;
  recorder.pn = pn;
  recorder.buf = buf;
  recorder.hashes.length = count;
  recorder.hashes.fill(null);
  r.advance(n, recorder, 0);
  // the state after the steps: poses, joints, spring ends, then the invariants, in `now`
  buf.now.set(r.poses, 0);
  buf.now.set(r.joints, r.poses.length);
  buf.now.set(r.springs, r.poses.length + r.joints.length);
  buf.now.set(r.inv, pn);
  recorder.buf = null;
  const out = {
    type: 'advanced', steps: r.steps, error: r.error, hash: r.hash(), pulled: r.wasPulled, ms: r.msPerStep, mjms: r.mjMsPerStep, drive: drive(r),
    from, count, stride, pn, hashes: recorder.hashes, buf,
  };
  return { out, transfer: [buf.inv.buffer, buf.poses.buffer, buf.recorded.buffer, buf.now.buffer, buf.react.buffer] };
}
