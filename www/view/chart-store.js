// chart-store.js: the charts' samples of the whole run, thinned for drawing without losing a spike.
//
// The samples go into buckets of `span` consecutive samples; a bucket keeps two points: the
// smallest and the largest value of its samples, in the order they came, at the times of the
// bucket's first and last sample. With span 2 (the start) the two points are the two samples
// themselves, so nothing is lost until the store is full. When all CAP buckets are full, each
// two neighbours are merged into one (span doubles): the extremes of the merged bucket are the
// extremes of its two halves' four points, so every spike survives every merge. A missing value
// (NaN: a run that stopped, a singular joint-space system) counts as an extreme, so a line still
// breaks where a run had a gap.
//
// Points are kept in preallocated Float64Arrays of 2 CAP values: point 2b and 2b + 1 of bucket
// b, times in `t`, each series' values in its own array. Pushing a sample costs O(1) per series;
// a merge O(CAP), once per doubling. Nothing is allocated after `reset`.

/** Buckets kept: 2 CAP points per series, enough for a chart a few thousand pixels wide. */
export const CAP = 4000;

const four = new Float64Array(4);

// the extremes of four[0..3] (in time order) as two values in time order, into out[at], out[at + 1]
function extremes(out, at) {
  let lo = -1, hi = -1, gap = -1;
  for (let j = 0; j < 4; j++) {
    const v = four[j];
    if (Number.isNaN(v)) { if (gap < 0) gap = j; continue; }
    if (lo < 0 || v < four[lo]) lo = j;
    if (hi < 0 || v > four[hi]) hi = j;
  }
  if (hi < 0) { out[at] = NaN; out[at + 1] = NaN; return; }
  if (gap >= 0) lo = gap; // a gap in the bucket: keep it (and the largest value) so the line breaks
  const a = Math.min(lo, hi), b = Math.max(lo, hi);
  out[at] = four[a];
  out[at + 1] = four[b];
}

export class ChartStore {
  /** Start over for `series` value arrays. */
  reset(series) {
    this.t = new Float64Array(2 * CAP);
    this.ys = Array.from({ length: series }, () => new Float64Array(2 * CAP));
    this.span = 2;     // samples per bucket
    this.bucket = 0;   // the bucket being filled
    this.fill = 0;     // samples in it so far
    this.samples = 0;  // samples pushed
    // per series, how many of the first samples hold their values: a series whose values come
    // later (MuJoCo's beside Tumble's, mujoco-pipe.js) holds NaN placeholders after them
    this.filled = new Float64Array(series);
  }

  /** Points held now (the bucket being filled included). */
  get length() {
    return 2 * this.bucket + (this.fill ? 2 : 0);
  }

  /** Begin a sample at time t (s); then `put(j, y)` for every series j. */
  begin(t) {
    if (this.fill === this.span) {
      this.bucket++;
      this.fill = 0;
      if (this.bucket === CAP) this.merge();
    }
    const at = 2 * this.bucket;
    if (this.fill === 0) this.t[at] = t;
    this.t[at + 1] = t;
    this.fill++;
    this.samples++;
  }

  /** Value y of series j in the sample begun last (`held`: false for a placeholder, NaN, of a
   * value that comes later, by `late`). */
  put(j, y, held = true) {
    const Y = this.ys[j], at = 2 * this.bucket;
    if (held && this.filled[j] === this.samples - 1) this.filled[j] = this.samples;
    if (this.fill === 1) { Y[at] = y; Y[at + 1] = y; return; }
    four[0] = Y[at];
    four[1] = Y[at + 1];
    four[2] = y;
    four[3] = y;
    extremes(Y, at);
  }

  /** Value y of series j in sample s, which came before it (its place held by a placeholder). */
  late(j, s, y) {
    if (!(s >= 0 && s < this.samples)) return;
    const Y = this.ys[j], at = 2 * Math.floor(s / this.span);
    // (samples skipped keep their placeholder: a gap)
    if (s + 1 > this.filled[j]) this.filled[j] = s + 1;
    if (s % this.span === 0) { Y[at] = y; Y[at + 1] = y; return; }
    four[0] = Y[at];
    four[1] = Y[at + 1];
    four[2] = y;
    four[3] = y;
    extremes(Y, at);
  }

  // every two neighbouring buckets into one: span doubles, half the buckets are left
  merge() {
    const half = CAP / 2, span = this.span;
    for (let b = 0; b < half; b++) {
      this.t[2 * b] = this.t[4 * b];
      this.t[2 * b + 1] = this.t[4 * b + 3];
    }
    for (let k = 0; k < this.ys.length; k++) {
      const Y = this.ys[k], filled = this.filled[k];
      for (let b = 0; b < half; b++) {
        if ((2 * b + 1) * span >= filled) {
          // the second half holds only placeholders: the first half's points as they are
          Y[2 * b] = Y[4 * b];
          Y[2 * b + 1] = Y[4 * b + 1];
          continue;
        }
        for (let j = 0; j < 4; j++) four[j] = Y[4 * b + j];
        extremes(Y, 2 * b);
      }
    }
    this.bucket = half;
    this.span *= 2;
  }
}
