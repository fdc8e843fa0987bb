// history.js: the stored history of every run on the page, for the scrubber and the exports.
//
// Samples are taken at a fixed interval of simulated time: every `stride` steps, the same
// steps for every run. The stride starts at 1 (every step) and doubles whenever the store is
// full, dropping every other sample, so the samples stay evenly spaced in time however long
// the page runs. The cap is MAX_SAMPLES, lowered for large systems so that the poses held
// stay within MEMORY_BUDGET bytes (e.g. 20000 samples for a 4-body chain, 325 for three
// 1024-link runs). Everything is preallocated at reset: recording allocates only the hash
// string of the sample.
//
// A sample of run r holds its invariants (the 15 numbers of `invariant_fields()`), its body
// poses (12 per body), its joints' world positions (3 per joint), its springs' end points (6 per
// point-to-point spring) and its state hash; a run that stopped (failed step) records nothing
// after its last good step.
import { INV, NINV } from '../shared/invariants.js';

export const MAX_SAMPLES = 20000;
export const MEMORY_BUDGET = 96 * 1024 * 1024;

export class History {
  /** Start over for `runs` runs of `bodies` bodies, `joints` joints and `springs` springs each, step `dt` (s). */
  reset(runs, bodies, joints, dt, springs = 0) {
    this.runs = runs;
    this.bodies = bodies;
    this.joints = joints;
    this.pn = 12 * bodies + 3 * joints + 6 * springs; // pose, joint and spring numbers per sample
    this.dt = dt;
    const perSample = runs * (NINV + this.pn) * 8;
    this.cap = Math.max(64, Math.min(MAX_SAMPLES, Math.floor(MEMORY_BUDGET / perSample)));
    this.cap -= this.cap % 2;
    this.inv = Array.from({ length: runs }, () => new Float64Array(this.cap * NINV));
    this.poses = Array.from({ length: runs }, () => new Float64Array(this.cap * this.pn));
    this.hashes = Array.from({ length: runs }, () => new Array(this.cap).fill(null));
    this.last = new Int32Array(runs).fill(-1); // index of each run's newest sample
    this.count = 0; // samples taken (of the run that went furthest)
    this.stride = 1;
  }

  /** Steps until the next sample is due, for a run that has taken `steps` steps. */
  due(steps) {
    return this.stride - (steps % this.stride);
  }

  /** Record sample `steps / stride` of run `r` (call when `due()` reached 0, i.e. steps % stride == 0). */
  record(r, steps, inv, poses, joints, springs, hash) {
    if (steps % this.stride !== 0) return;
    let k = steps / this.stride;
    if (k >= this.cap) {
      this.thin();
      if (steps % this.stride !== 0) return;
      k = steps / this.stride;
    }
    this.inv[r].set(inv.subarray(0, NINV), k * NINV);
    this.poses[r].set(poses, k * this.pn);
    this.poses[r].set(joints, k * this.pn + poses.length);
    this.poses[r].set(springs, k * this.pn + poses.length + joints.length);
    this.hashes[r][k] = hash;
    this.last[r] = k;
    this.count = Math.max(this.count, k + 1);
  }

  // keep every other sample, double the stride
  thin() {
    const half = this.cap / 2, pn = this.pn;
    for (let r = 0; r < this.runs; r++) {
      for (let k = 0; k < half; k++) {
        this.inv[r].copyWithin(k * NINV, 2 * k * NINV, (2 * k + 1) * NINV);
        this.poses[r].copyWithin(k * pn, 2 * k * pn, (2 * k + 1) * pn);
        this.hashes[r][k] = this.hashes[r][2 * k];
      }
      this.hashes[r].fill(null, half);
      this.last[r] = this.last[r] >= 0 ? Math.floor(this.last[r] / 2) : -1;
    }
    this.count = Math.ceil(this.count / 2);
    this.stride *= 2;
  }

  /** Simulated time of sample k (s), as the runs' own clock reported it. */
  time(k) {
    for (let r = 0; r < this.runs; r++) if (k <= this.last[r]) return this.inv[r][k * NINV + INV.t];
    return NaN;
  }

  /** The sample nearest to time t (s), or -1 when there is none. */
  nearest(t) {
    if (this.count === 0) return -1;
    let lo = 0, hi = this.count - 1;
    while (lo < hi) { // first sample with time >= t
      const mid = (lo + hi) >> 1;
      if (this.time(mid) < t) lo = mid + 1; else hi = mid;
    }
    return lo > 0 && Math.abs(this.time(lo - 1) - t) <= Math.abs(this.time(lo) - t) ? lo - 1 : lo;
  }

  /** Views of run r's sample k (valid until the next record): { inv, poses, joints, springs, hash }, or null. */
  sample(r, k) {
    if (k < 0 || k > this.last[r]) return null;
    const at = k * this.pn, mid = at + 12 * this.bodies, end = mid + 3 * this.joints, P = this.poses[r];
    return { inv: this.inv[r].subarray(k * NINV, (k + 1) * NINV), poses: P.subarray(at, mid), joints: P.subarray(mid, end), springs: P.subarray(end, at + this.pn), hash: this.hashes[r][k] };
  }

  /** CSV: one row per sample and run: `integrator,` then the invariant fields, then `state_hash`. */
  csv(fields, names) {
    const rows = [['integrator', ...fields, 'state_hash'].join(',')];
    for (let k = 0; k < this.count; k++) {
      for (let r = 0; r < this.runs; r++) {
        const s = this.sample(r, k);
        if (s) rows.push([names[r], ...s.inv.subarray(0, fields.length), s.hash].join(','));
      }
    }
    return rows.join('\n') + '\n';
  }

  /** The JSON export: the settings, the sampling, and per run its samples and final hash. */
  json(fields, names, settings, finals) {
    const runs = names.map((name, r) => {
      const samples = [];
      for (let k = 0; k <= this.last[r]; k++) {
        const s = this.sample(r, k);
        samples.push(Object.fromEntries([...fields.map((f, i) => [f, s.inv[i]]), ['state_hash', s.hash]]));
      }
      return { integrator: name, ...finals[r], samples };
    });
    return JSON.stringify({
      tumble: 1,
      settings,
      sampling: { dt: this.dt, every_steps: this.stride, interval_s: this.stride * this.dt, max_samples: this.cap },
      runs,
    });
  }
}
