// sim.js: one running simulation: the wasm Simulation plus the typed arrays it fills each
// frame (poses, joints, invariants), allocated once. Few calls cross the wasm boundary.

export class Run {
  constructor(wasm, { scenario, integrator, dt, tol, alpha, beta }) {
    this.sim = new wasm.Simulation(scenario, integrator, dt || 0, tol || 0); // throws Error with a message
    if (alpha !== undefined) this.sim.set_gains(alpha, beta);
    this.n = this.sim.body_count();
    this.nj = this.sim.joint_count();
    this.poses = new Float64Array(12 * this.n);
    this.sizes = new Float64Array(3 * this.n);
    this.joints = new Float64Array(3 * this.nj);
    this.inv = new Float64Array(11);
    this.sim.write_sizes(this.sizes);
    this.msPerStep = 0;
    this.refresh();
    this.energy0 = this.inv[1];
  }

  refresh() {
    this.sim.write_poses(this.poses);
    this.sim.write_joints(this.joints);
    this.sim.invariants(this.inv);
  }

  /** Take up to n steps; returns { taken, error } (error is the solver's message, or null). */
  advance(n) {
    const t0 = performance.now();
    const taken = this.sim.step(n);
    const ms = (performance.now() - t0) / Math.max(taken, 1);
    this.msPerStep = this.msPerStep ? 0.9 * this.msPerStep + 0.1 * ms : ms;
    this.refresh();
    let error = taken < n ? (this.sim.last_error() ?? 'the step failed') : null;
    if (!error && !this.inv.every(Number.isFinite)) error = 'the invariants are not finite';
    return { taken, error };
  }

  free() {
    this.sim.free();
  }
}
