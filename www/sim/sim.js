// sim.js: one running simulation: the wasm Simulation plus the typed arrays it fills (poses,
// joints, invariants), allocated once; the run interface (RunInterface, shared/names.js). Few calls
// cross the wasm boundary.

import { INV, NINV } from '../shared/invariants.js';
import { scheduleEvents } from '../shared/controls.js';

export class Run {
  constructor(wasm, { scenario, integrator, dt, tol, alpha, beta, controls }) {
    this.sim = new wasm.Simulation(scenario, integrator, dt || 0, tol || 0); // throws Error with a message
    if (alpha !== undefined) this.sim.set_gains(alpha, beta);
    // the controls (MuJoCo's ctrl) and the link's schedule of them, applied at its steps
    this.controls = this.sim.controls();
    try {
      this.events = scheduleEvents(controls ?? [], this.controls, this.sim.dt());
    } catch (e) {
      this.sim.free();
      throw new Error(`This link's ${e.message}`);
    }
    this.nextEvent = 0;
    this.name = integrator;
    this.n = this.sim.body_count();
    this.nj = this.sim.joint_count();
    this.poses = new Float64Array(12 * this.n);
    this.sizes = new Float64Array(3 * this.n);
    this.joints = new Float64Array(3 * this.nj);
    this.forced = this.sim.has_forces(); // force elements or loads: E alone is not conserved
    this.ns = this.sim.spring_count();
    this.springs = new Float64Array(6 * this.ns); // each point-to-point spring's world ends, a then b
    this.inv = new Float64Array(NINV);
    // the reaction chart's joint and every joint's reaction (force on b, N; torque on b, N m)
    this.joint = 0;
    this.react = this.nj ? new Float64Array(6 * this.nj) : null;
    this.conserved = Array.from(this.sim.conserved(), (c) => c === 1);
    this.reach = this.sim.reach(); // how far the bodies can swing out from the origin (m), -1: no bound
    this.sim.write_sizes(this.sizes);
    this.msPerStep = 0;
    this.steps = 0;
    this.error = null; // why this run stopped, or null while it runs
    this.refresh();
    this.inv0 = Float64Array.from(this.inv);
    this.energy0 = this.inv[INV.energy];
  }

  /** Pull: `p` = { body, point (body frame, m), target (world, m) } attaches a zero-length spring
   * from the body point to the target, scaled to the body (1.5 Hz on its mass, damping ratio 0.5);
   * null lets go. Its work counts in W (the solver's set_pull). */
  pull(p) {
    if (this.error) return;
    if (!p) { this.sim.release_pull(); return; }
    if (!this.masses) { this.masses = new Float64Array(this.n); this.sim.write_masses(this.masses); }
    const m = this.masses[p.body], w = 2 * Math.PI * 1.5;
    this.sim.set_pull(p.body, p.point, p.target, m * w * w, 2 * 0.5 * m * w);
  }

  refresh() {
    this.sim.write_poses(this.poses);
    if (this.nj) this.sim.write_joints(this.joints);
    if (this.ns) this.sim.write_springs(this.springs);
    this.sim.invariants(this.inv);
  }

  /** Take up to n steps, recording run `r`'s samples into `history` when they are due.
   * Returns the number taken; on a failed step `error` says why and the run stays stopped. */
  advance(n, history = null, r = 0) {
    if (this.error || n <= 0) return 0;
    const t0 = performance.now();
    let done = 0, fresh = false; // fresh: the state was read after the last step (a sample)
    while (done < n) {
      const m = Math.min(history ? Math.min(n - done, history.due(this.steps)) : n - done, this.untilEvent());
      const taken = this.sim.step(m);
      done += taken;
      this.steps += taken;
      if (taken < m) {
        this.error = this.sim.last_error() ?? 'the step failed';
        break;
      }
      fresh = false;
      if (history && this.steps % history.stride === 0) {
        this.refresh();
        fresh = true;
        if (!this.finite()) break;
        history.record(r, this.steps, this.inv, this.poses, this.joints, this.springs, this.sim.state_hash());
      }
    }
    const ms = (performance.now() - t0) / Math.max(done, 1);
    this.msPerStep = this.msPerStep ? 0.9 * this.msPerStep + 0.1 * ms : ms;
    // (read once: at every step while each is sampled, as the history's first seconds are)
    if (!fresh) this.refresh();
    this.finite();
    return done;
  }

  /** Apply the schedule's events due at the current step; the steps until the next one. */
  untilEvent() {
    const ev = this.events;
    while (this.nextEvent < ev.length && ev[this.nextEvent].step <= this.steps) {
      const { control, value } = ev[this.nextEvent++];
      this.sim.set_control(control, value);
    }
    return this.nextEvent < ev.length ? ev[this.nextEvent].step - this.steps : Infinity;
  }

  /** Set control `c` to `value` from the next step on (throws, naming the control, beyond its
   * range); returns the time it takes effect at (s): the start of the next step. */
  setControl(c, value) {
    this.sim.set_control(c, value);
    this.controls[c].value = value;
    return this.steps * this.sim.dt();
  }

  /** The chosen joint's reaction at the current state into out[o] (|F| in N) and out[o + 1]
   * (|M| in N m): from the multipliers of the index-1 equations (wasm write_reactions); NaN where
   * there is no joint, none is charted (joint -1: the solve is skipped), or the joint-space
   * system is singular at this state. */
  reaction(out, o) {
    if (!this.react || this.joint < 0 || this.joint >= this.nj || !this.sim.write_reactions(this.react)) {
      out[o] = NaN;
      out[o + 1] = NaN;
      return;
    }
    const r = this.react, k = 6 * this.joint;
    out[o] = Math.sqrt(r[k] * r[k] + r[k + 1] * r[k + 1] + r[k + 2] * r[k + 2]);
    out[o + 1] = Math.sqrt(r[k + 3] * r[k + 3] + r[k + 4] * r[k + 4] + r[k + 5] * r[k + 5]);
  }

  finite() {
    if (this.inv.every(Number.isFinite)) return true;
    this.error ??= 'the invariants are not finite';
    return false;
  }

  /** Continue a stopped run with step `h` from its last good state (throws if h is out of range). */
  resume(h) {
    this.sim.set_dt(h);
    this.error = null;
  }

  free() {
    this.sim.free();
  }
}
