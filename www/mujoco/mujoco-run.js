// mujoco-run.js: MuJoCo as one more run beside Tumble's integrators, for comparison with the engine
// most people who simulate jointed rigid bodies use. The same system goes to MuJoCo as the MJCF
// document mjcf.js writes, and MuJoCo (its official wasm build) steps it with its own integrator
// (RK4, Euler, implicit, implicitfast) at the page's step. It has the run interface (RunInterface
// in shared/names.js, as sim/sim.js's Run has), so the stepper runs it beside the others (at its own pace: mujoco-pipe.js),
// the history stores it and the charts, ghosts and exports show it. Its invariants are Tumble's own
// definitions evaluated at MuJoCo's body poses and velocities (the wasm Evaluator): the same E, T,
// V, momentum about the origin and joint violation from Tumble's joint equations, so the curves
// compare point for point. W and D: MuJoCo does not count them; they are summed here each step from
// MuJoCo's own forces (actuator force times velocity, and the joints' and tendons' damping c v^2,
// at the start of the step), so MuJoCo's balance error includes that rule's error. Its contacts',
// joint limits' and friction losses' losses are counted in D too, by the rule that matches its
// integrator (mujoco-losses.js: each step's constraint impulse times the step's mean velocity,
// RK4's taken stage by stage), in a system without equality constraints (loops, drives: their
// forces' work is not a loss, and a drive's is W), so in a run with contact MuJoCo's balance is its
// integrator's error as Tumble's is (a bouncing ball's 0.91 of E0 before, 3e-6 with RK4). The pointer's
// pull acts here too, as on Tumble's runs: the same spring-damper from the body point to the target
// (1.5 Hz on the body's mass, damping ratio 0.5), applied each step through MuJoCo's
// data.xfrc_applied at the body's centre (force, and the torque of its arm), with the positions and
// velocities of the step's start; its work counts in W. Tumble's drives move MuJoCo's drive
// equalities (to-mjcf-drives.js) before every step, their work counts in W, and `driveError`
// holds |q - q0 - f(t)| of each drive at the current state (`driveWorst` the largest so far,
// `driveUnits` rad or m), shown on the page.
import { toMjcf, compileMjcf } from './mjcf.js';
import { MujocoDrives } from './to-mjcf-drives.js';
import { MUJOCO } from '../shared/names.js';
import { INV, NINV } from '../shared/invariants.js';
import { scheduleEvents } from '../shared/controls.js';
import { ConstraintLosses } from './mujoco-losses.js';
import { keptViews } from './mujoco-views.js';

/** A balance error this many times the run's energy scale is a blow-up (`finite`). */
const DIVERGED = 100;

export class MujocoRun {
  /** `mujoco`: the loaded module; `settings`: { scenario, mujoco (its integrator), solver (its
   * constraint solver: '' for MuJoCo's default, Newton, or CG), dt }. */
  constructor(wasm, mujoco, { scenario, mujoco: integrator, solver = '', dt, controls }) {
    const system = JSON.parse(wasm.scenario_json(scenario));
    const { xml, notes, drives } = toMjcf(system, { integrator, solver, timestep: dt || system.dt });
    this.name = MUJOCO;
    this.integrator = integrator;
    this.notes = notes;
    this.mj = mujoco;
    this.model = compileMjcf(mujoco, xml);
    this.data = new mujoco.MjData(this.model);
    // the arrays read at every step or sample, kept as views (mujoco-views.js), and the model's
    // constants copied (each getter of the bindings makes a new view: 0.3-0.7 us)
    this.view = keptViews(this.data, ['qpos', 'qvel', 'qacc', 'qfrc_constraint', 'qacc_warmstart', 'xipos', 'ximat', 'cvel', 'subtree_com', 'actuator_force', 'actuator_velocity', 'ten_velocity', 'xfrc_applied', 'solver_niter']);
    this.rootid = Int32Array.from(this.model.body_rootid);
    this.dofDamping = Float64Array.from(this.model.dof_damping);
    this.tendonDamping = Float64Array.from(this.model.tendon_damping);
    mujoco.mj_resetDataKeyframe(this.model, this.data, 0);
    this.h = this.model.opt.timestep;
    this.drives = drives.length ? new MujocoDrives(mujoco, this.model, drives, integrator) : null;
    this.driveError = this.drives?.error ?? null;
    this.driveWorst = this.drives?.worst ?? null;
    this.driveUnits = this.drives?.units ?? [];
    this.drivePower = 0; // at the last step's start
    this.driveNow = 0; // at the current state
    this.driveP0 = null; // at the first state (or the last new step): W's trapezoid correction
    if (this.drives) {
      mujoco.mj_forward(this.model, this.data);
      this.drives.readGains(this.model, this.data);
    }
    // what Tumble's own run knows of the system: sizes, conserved components, forces
    const probe = new wasm.Simulation(scenario, 'director', this.h, 0);
    this.n = probe.body_count();
    this.nj = probe.joint_count();
    this.ns = probe.spring_count();
    this.forced = probe.has_forces();
    this.conserved = Array.from(probe.conserved(), (c) => c === 1);
    this.sizes = new Float64Array(3 * this.n);
    probe.write_sizes(this.sizes);
    const soft = probe.has_contact() || probe.has_limits();
    probe.free();
    this.ev = new wasm.Evaluator(scenario);
    this.controlsFrom(system, controls ?? []);
    // MuJoCo's body of each Tumble body (mjcf.js names them b0, b1, ...)
    this.body = new Int32Array(this.n);
    for (let b = 0; b < this.n; b++) this.body[b] = mujoco.mj_name2id(this.model, mujoco.mjtObj.mjOBJ_BODY.value, `b${b}`);
    this.jointPoints = (system.joints ?? []).map((j) => [j.b, j.point_b]);
    // the ends of each spring and rope, then of each rod (a distance joint), in the order of
    // spring_count
    const ends = (x) => [x.a ?? -1, x.point_a ?? [0, 0, 0], x.b, x.point_b ?? [0, 0, 0]];
    this.springEnds = [...(system.forces ?? []).filter((f) => f.type === 'spring' || f.type === 'rope'), ...(system.joints ?? []).filter((j) => j.type === 'distance')].map(ends);
    this.poses = new Float64Array(12 * this.n);
    this.joints = new Float64Array(3 * this.nj);
    this.springs = new Float64Array(6 * this.ns);
    this.states = new Float64Array(18 * this.n);
    this.inv = new Float64Array(NINV);
    this.react = new Float64Array(6 * this.nj); // every joint's reaction (Evaluator.reactions)
    this.work = 0;
    this.dissipated = 0;
    // contacts, stops and friction losses and no equality constraints: their losses counted in D
    this.losses = soft && this.model.neq === 0 && this.model.na === 0
      ? new ConstraintLosses(this.model, integrator === 'RK4', this.view) : null;
    this.counting = this.model.nu > 0 || this.model.ntendon > 0 || this.drives !== null || Array.from(this.model.dof_damping).some((c) => c > 0);
    this.pulling = null; // { body, point (body frame), target (world), k, c } while pulled
    this.wasPulled = false;
    this.joint = 0;
    this.steps = 0;
    this.msPerStep = 0; // wall time a step takes, its measures and samples included (ms)
    this.mjMsPerStep = 0; // of which in MuJoCo's mj_step (ms)
    this.error = null;
    const self = this;
    this.sim = {
      dt: () => self.h, tol: () => 0, gains: () => [0, 0], state_hash: () => self.hash(),
      pulled: () => self.wasPulled, last_error: () => self.error, free() {},
    };
    this.refresh();
    this.inv0 = Float64Array.from(this.inv);
    this.energy0 = this.inv[INV.energy];
  }

  /** Poses, joints, springs and invariants of MuJoCo's current state. Without drives only the
   * kinematics are computed again (body frames, centres of mass, velocities: mj_kinematics,
   * mj_comPos, mj_comVel), not a whole mj_forward, whose collision detection and constraint
   * solve cost as much as a step and served no measure here. */
  refresh() {
    const { mj, model, data } = this;
    if (this.drives) {
      this.drives.set(model, data, 0, true); // (the targets of this time: the drives' force here)
      mj.mj_forward(model, data); // positions and velocities of the current qpos, qvel, and the drives' forces
    } else {
      mj.mj_kinematics(model, data);
      mj.mj_comPos(model, data);
      mj.mj_comVel(model, data);
    }
    let work = this.work;
    if (this.drives) {
      this.drives.measure(data);
      this.driveNow = this.drives.power(data);
      this.driveP0 ??= this.driveNow;
      work += 0.5 * this.h * (this.driveNow - this.driveP0); // the step sums' trapezoid rule
    }
    const { xipos: xi, ximat: xm, cvel, subtree_com: com } = this.view(), root = this.rootid;
    const P = this.poses, S = this.states;
    for (let b = 0; b < this.n; b++) {
      const i = this.body[b];
      const c = 3 * root[i];
      for (let k = 0; k < 3; k++) {
        P[12 * b + k] = S[18 * b + k] = xi[3 * i + k];
        for (let r = 0; r < 3; r++) P[12 * b + 3 + 3 * k + r] = S[18 * b + 3 + 3 * k + r] = xm[9 * i + 3 * r + k]; // column k
      }
      // cvel: [angular; linear at the tree root's centre of mass], world axes
      const w0 = cvel[6 * i], w1 = cvel[6 * i + 1], w2 = cvel[6 * i + 2];
      const dx = xi[3 * i] - com[c], dy = xi[3 * i + 1] - com[c + 1], dz = xi[3 * i + 2] - com[c + 2];
      S[18 * b + 12] = cvel[6 * i + 3] + w1 * dz - w2 * dy;
      S[18 * b + 13] = cvel[6 * i + 4] + w2 * dx - w0 * dz;
      S[18 * b + 14] = cvel[6 * i + 5] + w0 * dy - w1 * dx;
      S[18 * b + 15] = w0;
      S[18 * b + 16] = w1;
      S[18 * b + 17] = w2;
    }
    const at = (b, p, out, o) => {
      if (b < 0) { out[o] = p[0]; out[o + 1] = p[1]; out[o + 2] = p[2]; return; }
      for (let r = 0; r < 3; r++) out[o + r] = P[12 * b + r] + P[12 * b + 3 + r] * p[0] + P[12 * b + 6 + r] * p[1] + P[12 * b + 9 + r] * p[2];
    };
    for (let j = 0; j < this.nj; j++) at(this.jointPoints[j][0], this.jointPoints[j][1], this.joints, 3 * j);
    for (let k = 0; k < this.ns; k++) {
      const [a, pa, b, pb] = this.springEnds[k];
      at(a, pa, this.springs, 6 * k);
      at(b, pb, this.springs, 6 * k + 3);
    }
    this.ev.evaluate(data.time, this.states, work, this.dissipated, this.view().solver_niter?.[0] ?? 0, this.inv);
  }

  /** W and D of one step of MuJoCo's, from its forces at the step's start (module notes). */
  count() {
    const { actuator_force: f, actuator_velocity: u, ten_velocity: l, qvel } = this.view();
    const ct = this.tendonDamping, cv = this.dofDamping;
    let w = 0, d = 0;
    for (let a = 0; a < f.length; a++) w += f[a] * u[a];
    for (let t = 0; t < ct.length; t++) d += ct[t] * l[t] ** 2;
    for (let v = 0; v < cv.length; v++) d += cv[v] * qvel[v] ** 2;
    if (this.drives) w += this.drivePower;
    this.work += this.h * w;
    this.dissipated += this.h * d;
  }

  /** The drives' targets for the next step (to-mjcf-drives.js). RK4's, taken at mid-step, give a
   * force at the step's start that is not the drive's: there the power is measured first, from a
   * forward with the targets of the start's own time. */
  driveStep() {
    const { mj, model, data, drives } = this;
    if (drives.offset) {
      drives.set(model, data, 0, true);
      mj.mj_forward(model, data);
      this.drivePower = drives.power(data);
    }
    drives.set(model, data);
  }

  /** Take up to n steps, recording run `r`'s samples into `history` when they are due (as
   * sim.js's Run). MuJoCo does not fail a step: a state that is not finite, or MuJoCo's own
   * warning of a bad position, velocity or acceleration (it then resets the state), stops the run
   * with a message. Its warnings are read (3.7 us each under Node, more than a small model's
   * step) at the end of each call and wherever a sample finds the state not finite or MuJoCo's
   * time gone back (its reset sets it to 0): a reset between samples is caught before the
   * sample, one in the first step of a run at t = 0 at the end of the call. */
  advance(n, history = null, r = 0) {
    if (this.error || n <= 0) return 0;
    const { mj, model, data } = this;
    const t0 = performance.now();
    let done = 0;
    let inStep = 0; // ms in MuJoCo's own steps (the rest: Tumble's measures at its states, the samples)
    while (done < n) {
      const m = history ? Math.min(n - done, history.due(this.steps)) : n - done;
      const s0 = performance.now(), t1 = data.time + (m - 0.5) * this.h; // MuJoCo's time after the m steps, less h / 2
      for (let k = 0; k < m; k++) {
        if (this.nextEvent < this.events.length) this.dueControls(this.steps + k);
        if (this.pulling) this.pullForce();
        if (this.drives) this.driveStep();
        if (this.losses) this.dissipated += this.losses.step(mj, model, data, this.h);
        else mj.mj_step(model, data);
        if (this.drives && !this.drives.offset) this.drivePower = this.drives.power(data);
        if (this.counting) this.count();
      }
      inStep += performance.now() - s0;
      done += m;
      this.steps += m;
      const { qpos, qvel } = this.view();
      const suspect = data.time < t1 || !Number.isFinite(qpos[0]) || !Number.isFinite(qvel[0]) || done >= n;
      if (suspect && this.unstable()) break;
      if (history && this.steps % history.stride === 0) {
        this.refresh();
        if (!this.finite()) break;
        history.record(r, this.steps, this.inv, this.poses, this.joints, this.springs, this.hash());
      }
    }
    const ms = (performance.now() - t0) / Math.max(done, 1), own = inStep / Math.max(done, 1);
    this.msPerStep = this.msPerStep ? 0.9 * this.msPerStep + 0.1 * ms : ms;
    this.mjMsPerStep = this.mjMsPerStep ? 0.9 * this.mjMsPerStep + 0.1 * own : own;
    this.refresh();
    this.finite();
    return done;
  }

  /** Whether MuJoCo warned of a bad position, velocity or acceleration (it then resets the state)
   * or its state is not finite; if so, the run's error says so. (Within a few steps, whatever the
   * step: an explicit integrator on a stiff damper of a light body, such as humanoid_CMU's toes
   * without their armature, which Tumble has no element for; MuJoCo's implicit integrators take
   * the damping implicitly.) */
  unstable() {
    const { mj, data } = this, W = mj.mjtWarning, { qpos, qvel } = this.view();
    let what = null;
    for (const [w, name] of [[W.mjWARN_BADQACC, 'a bad acceleration'], [W.mjWARN_BADQVEL, 'a bad velocity'], [W.mjWARN_BADQPOS, 'a bad position']]) {
      const stat = data.warning.get(w.value); // (an embind object: deleted at once)
      if (stat.number > 0) what ??= name;
      stat.delete?.();
    }
    if (!what && qpos.every(Number.isFinite) && qvel.every(Number.isFinite)) return false;
    this.error = `at t = ${data.time.toFixed(4)} s: MuJoCo's state became unstable (${what ? `${what}; MuJoCo resets it` : 'not finite'}); ${this.fix()}`;
    return true;
  }

  /** What helps a run that went unstable. */
  fix() {
    return this.integrator === 'RK4'
      ? 'a smaller time step, or MuJoCo\'s Euler, implicitfast or implicit integrator (they take the dampers implicitly, RK4 does not), will help'
      : 'a smaller time step will help';
  }

  /** Whether the run is still a run: its invariants finite, and its balance E - E0 - W + D
   * within DIVERGED times its energy scale max(|E0|, |E|, |W|, 1 J) (D is left out of the scale:
   * a blown-up run's contact losses are as absurd as its energy). Past that no integrator's
   * error explains it: the run has blown up (an explicit integrator on a stiff damper of a light
   * body: the suite's stacker with RK4 at 1 ms, its fingertips' dampers, counts D = 2.9e3 J in
   * its first step of a 3.1 J system and 4.8e46 J by the fifth, every number finite, and drew
   * "1.9e+49" for MuJoCo's balance), so it stops with a message instead of drawing it. */
  finite() {
    const inv = this.inv;
    if (!inv.every(Number.isFinite)) {
      this.error ??= "the invariants of MuJoCo's state are not finite";
      return false;
    }
    const scale = Math.max(Math.abs(this.energy0 ?? 0), Math.abs(inv[INV.energy]), Math.abs(inv[INV.work]), 1);
    if (Math.abs(inv[INV.balance]) <= DIVERGED * scale) return true;
    this.error ??= `at t = ${inv[INV.t].toFixed(4)} s: MuJoCo's run diverged (E - E0 - W + D = ${inv[INV.balance].toExponential(1)} J against an energy of ${scale.toPrecision(3)} J); ${this.fix()}`;
    return false;
  }

  /** A 64-bit FNV-1a hash of MuJoCo's state bits (qpos, qvel), as 16 hex digits. */
  hash() {
    let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x9e3779b9;
    const { qpos, qvel } = this.view();
    for (const arr of [qpos, qvel]) {
      const words = new Uint32Array(arr.buffer, arr.byteOffset, arr.length * 2);
      for (let i = 0; i < words.length; i++) {
        h1 = Math.imul(h1 ^ words[i], 0x01000193) >>> 0;
        h2 = Math.imul(h2 ^ words[i] ^ (h1 >>> 7), 0x01000193) >>> 0;
      }
    }
    return h2.toString(16).padStart(8, '0') + h1.toString(16).padStart(8, '0');
  }

  /** The reaction |F| (N), |M| (N m) of joint `this.joint` into out[o], out[o + 1]: by Tumble's
   * definition at MuJoCo's current state (the Evaluator: what Tumble's joints carry in the motion
   * MuJoCo produced; MuJoCo's own soft constraint forces differ by its softness), NaN where none. */
  reaction(out, o) {
    const j = this.joint;
    if (!(j >= 0 && j < this.nj) || !this.ev.reactions(this.react)) {
      out[o] = NaN;
      out[o + 1] = NaN;
      return;
    }
    const R = this.react, k = 6 * j;
    out[o] = Math.hypot(R[k], R[k + 1], R[k + 2]);
    out[o + 1] = Math.hypot(R[k + 3], R[k + 4], R[k + 5]);
  }

  /** The system's controls as MuJoCo's actuators (to-mjcf.js writes motor f{i} for element i)
   * and the link's schedule of them (shared/controls.js), applied at the steps Tumble's runs
   * apply it at. */
  controlsFrom(system, specs) {
    const list = [];
    (system.forces ?? []).forEach((f, i) => {
      if (!f.control) return;
      const actuator = this.mj.mj_name2id(this.model, this.mj.mjtObj.mjOBJ_ACTUATOR.value, `f${i}`);
      list.push({ name: f.name ?? String(list.length), lower: f.control.range[0], upper: f.control.range[1], actuator });
    });
    this.controlList = list;
    this.events = scheduleEvents(specs, list, this.h);
    this.nextEvent = 0;
  }

  /** The schedule's controls due at the start of step `step` into data.ctrl. */
  dueControls(step) {
    while (this.nextEvent < this.events.length && this.events[this.nextEvent].step <= step) {
      const { control, value } = this.events[this.nextEvent++];
      this.setControl(control, value);
    }
  }

  /** Control `c` (as Tumble's run numbers them) at `value` from the next step: its actuator's
   * data.ctrl. */
  setControl(c, value) {
    const a = this.controlList?.[c]?.actuator ?? -1;
    if (a >= 0) this.data.ctrl[a] = value;
  }

  /** Pull: `p` = { body, point (body frame, m), target (world, m) } as sim.js's Run takes it
   * (the same spring on every run); null lets go. */
  pull(p) {
    if (this.error) return;
    const i = p ? this.body[p.body] : -1;
    if (this.pulling) {
      // let go of the last body (or move to another): its applied load back to zero
      this.data.xfrc_applied.fill(0, 6 * this.body[this.pulling.body], 6 * this.body[this.pulling.body] + 6);
    }
    if (!p || i < 1) { this.pulling = null; return; }
    const m = this.model.body_mass[i], w = 2 * Math.PI * 1.5;
    this.pulling = { body: p.body, point: p.point, target: p.target, k: m * w * w, c: 2 * 0.5 * m * w };
    this.wasPulled = true;
  }

  /** The pull's force at the pulled point into data.xfrc_applied (force and its torque about the
   * centre), and its power times h into W. Scalars only. */
  pullForce() {
    const g = this.pulling, i = this.body[g.body];
    const { xipos: xi, ximat: xm, cvel: cv, subtree_com: com, xfrc_applied: X } = this.view(), c = 3 * this.rootid[i];
    const s0 = g.point[0], s1 = g.point[1], s2 = g.point[2];
    // the arm R s (ximat row-major) and the point
    const r0 = xm[9 * i] * s0 + xm[9 * i + 1] * s1 + xm[9 * i + 2] * s2;
    const r1 = xm[9 * i + 3] * s0 + xm[9 * i + 4] * s1 + xm[9 * i + 5] * s2;
    const r2 = xm[9 * i + 6] * s0 + xm[9 * i + 7] * s1 + xm[9 * i + 8] * s2;
    const p0 = xi[3 * i] + r0, p1 = xi[3 * i + 1] + r1, p2 = xi[3 * i + 2] + r2;
    // the point's velocity: cvel's linear part (at the root's centre of mass) moved to it
    const w0 = cv[6 * i], w1 = cv[6 * i + 1], w2 = cv[6 * i + 2];
    const d0 = p0 - com[c], d1 = p1 - com[c + 1], d2 = p2 - com[c + 2];
    const v0 = cv[6 * i + 3] + w1 * d2 - w2 * d1, v1 = cv[6 * i + 4] + w2 * d0 - w0 * d2, v2 = cv[6 * i + 5] + w0 * d1 - w1 * d0;
    const f0 = g.k * (g.target[0] - p0) - g.c * v0, f1 = g.k * (g.target[1] - p1) - g.c * v1, f2 = g.k * (g.target[2] - p2) - g.c * v2;
    const o = 6 * i;
    X[o] = f0; X[o + 1] = f1; X[o + 2] = f2;
    X[o + 3] = r1 * f2 - r2 * f1; X[o + 4] = r2 * f0 - r0 * f2; X[o + 5] = r0 * f1 - r1 * f0;
    this.work += this.h * (f0 * v0 + f1 * v1 + f2 * v2);
  }

  resume(h) {
    if (this.drives) { // W's trapezoid correction so far, at the old step
      this.work += 0.5 * this.h * (this.driveNow - this.driveP0);
      this.driveP0 = null;
    }
    this.model.opt.timestep = h;
    this.h = h;
    this.error = null;
    if (this.drives) { // the drives' rows' gains depend on the step (MuJoCo's safe time constant)
      this.mj.mj_forward(this.model, this.data);
      this.drives.readGains(this.model, this.data);
      this.refresh();
    }
  }

  free() {
    this.data.delete();
    this.model.delete();
    this.ev.free();
  }
}

/** Start MuJoCo's module from the bytes of its wasm (fetched by the page, which shows the
 * progress), its glue at `url` (vendor/mujoco/mujoco.js). */
export async function startMujoco(url, wasmBinary) {
  const mod = await import(url);
  return mod.default({ wasmBinary });
}
