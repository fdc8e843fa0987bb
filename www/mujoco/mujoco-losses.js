// mujoco-losses.js: the energy MuJoCo's constraint forces (its soft contacts, joint limits and
// friction losses) take out of a step, so that MuJoCo's run counts them in its D as Tumble's runs
// count their contacts' losses. MuJoCo reports the forces (data.qfrc_constraint, J^T efc_force) but
// not their work. The rule that matches the integrator: the step's constraint impulse (h times the
// force for Euler and the implicit ones, which take the force of the step's start; RK4's weighted
// sum h (f1 + 2 f2 + 2 f3 + f4) / 6 of its four stages' forces) times the mean of the step's start
// and end velocities. For a constant mass matrix that is exactly the kinetic energy the impulse
// puts in, so what is left in E - E0 - W + D is the integrator's own error (measured under Node:
// tests/js/mujoco-run.test.mjs). Euler and implicit(fast) keep the force of the step's start in
// data after mj_step; RK4 overwrites it at each stage, so RK4's step is taken here stage by stage
// as MuJoCo's mj_RungeKutta takes it (its tableau, mj_forwardSkip at each stage, mj_integratePos),
// which gives MuJoCo's own mj_step to the bit (the same state hash, tested), and the stages'
// forces are summed on the way. Nothing is allocated per step.

const RK4_A = [0.5, 0.5, 1]; // the classic tableau's sub-diagonal (MuJoCo's RK4_A)
const RK4_B = [1 / 6, 1 / 3, 1 / 3, 1 / 6];
const FREE = 0, BALL = 1; // mjtJoint: mjJNT_FREE, mjJNT_BALL (then SLIDE, HINGE)
const MINVAL = 1e-15; // mjMINVAL

// The cost, measured under Node on the bouncing ball (mj_step alone 13 us): the bindings' calls
// that cross into wasm are dear for small models. mj_integratePos copies its velocity argument
// element by element from JS (5.5 us a call, four calls a step), each `data.qpos`-style getter
// makes a new view (0.3-0.7 us, some 25 a step) and `model.opt` a new struct wrapper (1.7 us).
// So the views are the run's kept ones (mujoco-views.js), the step h comes from the caller,
// and the positions are integrated here as mj_integratePos does it (`integratePos`, the same
// operations in the same order: the same bits, tested against mj_step's state hash). Step by step, RK4 with the
// count costs 1.06 to 1.46 times mj_step alone (2.3 to 5.8 times before; Node, four contact
// presets).

/** One quaternion step as MuJoCo's mju_quatIntegrate: q <- normalize(q) * (axis-angle of v h),
 * on q = x[i..i+4], v = w[k..k+3]. */
function quatIntegrate(x, i, w, k, h) {
  let a0 = w[k], a1 = w[k + 1], a2 = w[k + 2];
  const norm = Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2); // mju_normalize3
  if (norm < MINVAL) { a0 = 1; a1 = 0; a2 = 0; } else { const inv = 1 / norm; a0 *= inv; a1 *= inv; a2 *= inv; }
  const angle = h * norm;
  let r0 = 1, r1 = 0, r2 = 0, r3 = 0; // mju_axisAngle2Quat
  if (angle !== 0) { const s = Math.sin(angle * 0.5); r0 = Math.cos(angle * 0.5); r1 = a0 * s; r2 = a1 * s; r3 = a2 * s; }
  let q0 = x[i], q1 = x[i + 1], q2 = x[i + 2], q3 = x[i + 3];
  const n = Math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3); // mju_normalize4
  if (n < MINVAL) { q0 = 1; q1 = 0; q2 = 0; q3 = 0; } else if (Math.abs(n - 1) > MINVAL) { const inv = 1 / n; q0 *= inv; q1 *= inv; q2 *= inv; q3 *= inv; }
  x[i] = q0 * r0 - q1 * r1 - q2 * r2 - q3 * r3; // mju_mulQuat
  x[i + 1] = q0 * r1 + q1 * r0 + q2 * r3 - q3 * r2;
  x[i + 2] = q0 * r2 - q1 * r3 + q2 * r0 + q3 * r1;
  x[i + 3] = q0 * r3 + q1 * r2 - q2 * r1 + q3 * r0;
}

export class ConstraintLosses {
  /** Buffers for `model` (nq, nv); `rk4`: its integrator is RK4; `views` returns its data's
   * qpos, qvel, qacc, qfrc_constraint and qacc_warmstart (the run's keptViews). */
  constructor(model, rk4, views) {
    const nq = model.nq, nv = model.nv;
    this.rk4 = rk4;
    this.v0 = new Float64Array(nv); // the step's start velocity
    this.impulse = new Float64Array(nv); // the step's constraint impulse over h
    this.views = views;
    if (rk4) {
      this.q0 = new Float64Array(nq);
      this.V = [0, 1, 2, 3].map(() => new Float64Array(nv)); // each stage's velocity
      this.F = [0, 1, 2, 3].map(() => new Float64Array(nv)); // and acceleration
      this.dx = new Float64Array(nv);
      this.da = new Float64Array(nv);
      this.jntType = Int32Array.from(model.jnt_type);
      this.jntQpos = Int32Array.from(model.jnt_qposadr);
      this.jntDof = Int32Array.from(model.jnt_dofadr);
    }
  }

  /** mj_integratePos(model, q, w, h) with MuJoCo's own operations (see above). */
  integratePos(q, w, h) {
    const type = this.jntType, qa = this.jntQpos, va = this.jntDof;
    for (let j = 0; j < type.length; j++) {
      let p = qa[j], v = va[j];
      const t = type[j];
      if (t === FREE) {
        for (let k = 0; k < 3; k++) q[p + k] += w[v + k] * h;
        p += 3;
        v += 3;
      }
      if (t === FREE || t === BALL) quatIntegrate(q, p, w, v, h);
      else q[p] += h * w[v];
    }
  }

  /** One step of MuJoCo's (as mj_step) on `data`, whose model's step is `h` (s); returns the
   * energy its constraint forces took in it (J, positive for a loss). */
  step(mj, model, data, h) {
    if (this.rk4) return this.rungeKutta(mj, model, data, h);
    const v0 = this.v0;
    v0.set(this.views().qvel);
    mj.mj_step(model, data);
    const { qvel: v, qfrc_constraint: f } = this.views();
    let p = 0;
    for (let k = 0; k < v0.length; k++) p += f[k] * (v0[k] + v[k]);
    return -0.5 * h * p;
  }

  /** mj_step with RK4: mj_checkPos, mj_checkVel, mj_forward, mj_checkAcc, then mj_RungeKutta's
   * stages and its final update (mj_advance's: velocities, positions with the stages' mean
   * velocity, time, and the last stage's acceleration as the solver's next warm start). */
  rungeKutta(mj, model, data, h) {
    const t = data.time, nv = this.v0.length;
    const { V, F, dx, da, impulse } = this;
    mj.mj_checkPos(model, data);
    mj.mj_checkVel(model, data);
    mj.mj_forward(model, data);
    mj.mj_checkAcc(model, data);
    let view = this.views();
    this.q0.set(view.qpos);
    V[0].set(view.qvel);
    F[0].set(view.qacc);
    let f = view.qfrc_constraint;
    for (let k = 0; k < nv; k++) impulse[k] = RK4_B[0] * f[k];
    for (let i = 1; i < 4; i++) {
      const a = RK4_A[i - 1], Vp = V[i - 1], Fp = F[i - 1], V0 = V[0];
      for (let k = 0; k < nv; k++) dx[k] = Vp[k] * a;
      const q = view.qpos;
      q.set(this.q0);
      this.integratePos(q, dx, h);
      const v = view.qvel;
      for (let k = 0; k < nv; k++) v[k] = V0[k] + (Fp[k] * a) * h;
      data.time = t + a * h;
      mj.mj_forwardSkip(model, data, 0, 1); // (mjSTAGE_NONE, skip the sensors, as MuJoCo's stages)
      view = this.views();
      V[i].set(view.qvel);
      F[i].set(view.qacc);
      f = view.qfrc_constraint;
      for (let k = 0; k < nv; k++) impulse[k] += RK4_B[i] * f[k];
    }
    dx.fill(0);
    da.fill(0);
    for (let j = 0; j < 4; j++) {
      const Vj = V[j], Fj = F[j], b = RK4_B[j];
      for (let k = 0; k < nv; k++) { dx[k] += Vj[k] * b; da[k] += Fj[k] * b; }
    }
    const q = view.qpos, v = view.qvel;
    q.set(this.q0);
    v.set(V[0]);
    for (let k = 0; k < nv; k++) v[k] += da[k] * h;
    this.integratePos(q, dx, h);
    data.time = t + h;
    view.qacc_warmstart.set(view.qacc);
    let p = 0;
    const V0 = V[0];
    for (let k = 0; k < nv; k++) p += impulse[k] * (V0[k] + v[k]);
    return -0.5 * h * p;
  }
}
