// mujoco-pipe.js: MuJoCo's run beside Tumble's, pipelined. Tumble's runs step in the stepper's
// worker at their own pace; MuJoCo's steps in its own worker at the same time, catching up to
// Tumble's step count in requests of about CHUNK_MS of its own time, one under way at a time. So
// Tumble's run never waits for MuJoCo's, and MuJoCo's runs as fast as its worker goes.
//
// The charts compare the two at the same steps: every chart row the stepper takes for Tumble's
// runs (`row`) waits here until MuJoCo's run has reached its step; then MuJoCo's sample there
// (its invariants and the charted joint's reaction) is kept as a late row (`late`: the row's
// number since the load, NINV + 2 values) for the next reply, which the page writes into the
// row it already drew (charts.js `late`). Row 0 is the load's. What the user does meanwhile (a
// pull, a control) reaches MuJoCo's worker when MuJoCo's run has taken the step Tumble's runs
// took it from (`later`), so both runs see it at the same simulated time.
//
// Nothing is allocated per step or reply: the rows waiting are a ring of ROWS steps (when Tumble
// runs so far ahead that it fills, the oldest are given up: gaps in MuJoCo's lines), the late
// rows a buffer of SAMPLE_CAP (while it is full, MuJoCo's worker waits for the next reply).
import { NINV } from '../shared/invariants.js';
import { SAMPLE_CAP } from '../shared/names.js';

const ROWS = 1 << 16;
const CHUNK_MS = 20;
const LATE = NINV + 2; // numbers a late row holds: the invariants, then |F| (N) and |M| (N m)

export class MujocoPipe {
  /** Drive RemoteRun `remote` (run `r` of `history`) beside Tumble's runs. */
  constructor(remote, history, r) {
    this.remote = remote;
    this.history = history;
    this.r = r;
    remote.pipe = this;
    this.target = remote.steps; // Tumble's steps: MuJoCo's run catches up to them
    this.busy = null; // the request under way (a Promise), or null
    this.dead = false; // a newer load replaced it: its replies are dropped
    this.step = new Float64Array(ROWS); // the step of each row waiting, a ring from `head`
    this.stride = new Float64Array(ROWS); // the history's stride when it was taken
    this.head = 0;
    this.waiting = 0;
    this.first = 1; // the number of the oldest row waiting (or of the next row, when none)
    this.rows = new Float64Array(SAMPLE_CAP); // late rows: their numbers
    this.values = new Float64Array(SAMPLE_CAP * LATE); // and their values
    this.late = 0;
    this.events = []; // [step, message]: for MuJoCo's worker once its run has taken `step` steps
    this.failed = null; // MuJoCo's run stopped: { name, error } for the next reply
  }

  /** A chart row taken at Tumble's step `step` (a multiple of `stride`); its number. */
  row(step, stride) {
    if (this.waiting === ROWS) this.drop();
    const at = (this.head + this.waiting) % ROWS;
    this.step[at] = step;
    this.stride[at] = stride;
    this.waiting++;
    return this.first + this.waiting - 1;
  }

  /** The number of the next row. */
  get next() {
    return this.first + this.waiting;
  }

  /** `failed` (a reply's list of runs that stopped), with MuJoCo's run if it stopped since the last. */
  failures(failed) {
    if (this.failed) failed.push(this.failed);
    this.failed = null;
    return failed;
  }

  // give up the oldest row waiting (its MuJoCo values stay missing)
  drop() {
    this.head = (this.head + 1) % ROWS;
    this.waiting--;
    this.first++;
  }

  /** `k` rows taken with MuJoCo's values in them (MuJoCo alone): none of them waits. */
  skip(k) {
    while (this.waiting) this.drop();
    this.first += k;
  }

  /** Steps MuJoCo's run is behind Tumble's, or rows it has for the page: work left. */
  behind() {
    return (this.remote.error ? 0 : Math.max(0, this.target - this.remote.steps)) + this.late;
  }

  /** Message `msg` for MuJoCo's worker from the step Tumble's runs are at (`now`: before its next steps). */
  later(msg, now = false) {
    if (now || (!this.busy && this.remote.steps >= this.target)) {
      this.remote.engine.request(msg);
      return;
    }
    this.events.push([this.target, msg]);
    this.kick();
  }

  /** Ask MuJoCo's worker for its next steps, unless a request is under way or nothing is due. */
  kick() {
    const x = this.remote;
    if (this.busy || this.dead || x.error) return;
    while (this.events.length && this.events[0][0] <= x.steps) x.engine.request(this.events.shift()[1]);
    let n = this.target - x.steps;
    if (this.events.length) n = Math.min(n, this.events[0][0] - x.steps);
    const room = SAMPLE_CAP - this.late;
    if (n <= 0 || room < 2) return;
    // sampled at the oldest waiting row's stride (the history's only grows: the later rows are
    // at multiples of it too), as many samples as there is room for late rows
    const stride = this.waiting ? this.stride[this.head] : this.history.stride;
    n = Math.min(n, Math.max(1, Math.floor(CHUNK_MS / Math.max(x.msPerStep, 1e-3))), stride * (room - 1));
    this.busy = x.request(n, stride).then((rep) => this.settle(rep), (e) => this.fail(e));
  }

  // MuJoCo's reply: its state and history, the waiting rows it reached, and the next request
  settle(rep) {
    this.busy = null;
    if (this.dead) return;
    const x = this.remote;
    x.take(rep, this.history, this.r);
    while (this.waiting && this.step[this.head] <= x.steps && this.late < SAMPLE_CAP) {
      const o = this.late * LATE;
      this.rows[this.late++] = this.first;
      x.sampleAt(this.step[this.head], this.values, o, this.values, o + NINV);
      this.drop();
    }
    if (x.error) this.stopped(x.error);
    this.kick();
  }

  fail(e) {
    this.busy = null;
    if (this.dead) return;
    // its worker failed (MuJoCo aborted): that run stops, the others go on
    this.remote.error = `MuJoCo's worker stopped: ${e?.message ?? e}`;
    this.remote.last = null;
    this.stopped(this.remote.error);
  }

  // MuJoCo's run stopped: the rows waiting keep no values of it; the next reply says so
  stopped(error) {
    while (this.waiting) this.drop();
    this.events.length = 0;
    this.failed = { name: this.remote.name, error };
  }

  /** Resolves once the request under way (if any) is in: a paused page waits for MuJoCo so. */
  async settled() {
    if (!this.busy) this.kick();
    await this.busy;
  }

  /** The late rows into `rows` and `values` (SAMPLE_CAP and SAMPLE_CAP (NINV + 2) long): how many. */
  drain(rows, values) {
    const k = this.late;
    rows.set(this.rows.subarray(0, k));
    values.set(this.values.subarray(0, k * LATE));
    this.late = 0;
    if (k) this.kick();
    return k;
  }

  /** Replaced by a newer load: its replies are dropped. */
  stop() {
    this.dead = true;
    this.remote.pipe = null;
  }
}
