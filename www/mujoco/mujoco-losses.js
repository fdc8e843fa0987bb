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

export class ConstraintLosses {
  /** Buffers for `model` (nq, nv); `rk4`: its integrator is RK4. */
  constructor(model, rk4) {
    const nq = model.nq, nv = model.nv;
    this.rk4 = rk4;
    this.v0 = new Float64Array(nv); // the step's start velocity
    this.impulse = new Float64Array(nv); // the step's constraint impulse over h
    if (rk4) {
      this.q0 = new Float64Array(nq);
      this.V = [0, 1, 2, 3].map(() => new Float64Array(nv)); // each stage's velocity
      this.F = [0, 1, 2, 3].map(() => new Float64Array(nv)); // and acceleration
      this.dx = new Float64Array(nv);
      this.da = new Float64Array(nv);
    }
  }

  /** One step of MuJoCo's (as mj_step) on `data`; returns the energy its constraint forces took
   * in it (J, positive for a loss). */
  step(mj, model, data) {
    if (this.rk4) return this.rungeKutta(mj, model, data);
    this.v0.set(data.qvel);
    mj.mj_step(model, data);
    const f = data.qfrc_constraint, v = data.qvel, v0 = this.v0;
    let p = 0;
    for (let k = 0; k < v0.length; k++) p += f[k] * (v0[k] + v[k]);
    return -0.5 * model.opt.timestep * p;
  }

  /** mj_step with RK4: mj_checkPos, mj_checkVel, mj_forward, mj_checkAcc, then mj_RungeKutta's
   * stages and its final update (mj_advance's: velocities, positions with the stages' mean
   * velocity, time, and the last stage's acceleration as the solver's next warm start). */
  rungeKutta(mj, model, data) {
    const h = model.opt.timestep, t = data.time, nv = this.v0.length;
    const { V, F, dx, da, impulse } = this;
    mj.mj_checkPos(model, data);
    mj.mj_checkVel(model, data);
    mj.mj_forward(model, data);
    mj.mj_checkAcc(model, data);
    this.q0.set(data.qpos);
    V[0].set(data.qvel);
    F[0].set(data.qacc);
    let f = data.qfrc_constraint;
    for (let k = 0; k < nv; k++) impulse[k] = RK4_B[0] * f[k];
    for (let i = 1; i < 4; i++) {
      const a = RK4_A[i - 1], Vp = V[i - 1], Fp = F[i - 1], V0 = V[0];
      for (let k = 0; k < nv; k++) dx[k] = Vp[k] * a;
      const q = data.qpos;
      q.set(this.q0);
      mj.mj_integratePos(model, q, dx, h);
      const v = data.qvel;
      for (let k = 0; k < nv; k++) v[k] = V0[k] + (Fp[k] * a) * h;
      data.time = t + a * h;
      mj.mj_forwardSkip(model, data, 0, 1); // (mjSTAGE_NONE, skip the sensors, as MuJoCo's stages)
      V[i].set(v);
      F[i].set(data.qacc);
      f = data.qfrc_constraint;
      for (let k = 0; k < nv; k++) impulse[k] += RK4_B[i] * f[k];
    }
    dx.fill(0);
    da.fill(0);
    for (let j = 0; j < 4; j++) {
      const Vj = V[j], Fj = F[j], b = RK4_B[j];
      for (let k = 0; k < nv; k++) { dx[k] += Vj[k] * b; da[k] += Fj[k] * b; }
    }
    const q = data.qpos, v = data.qvel;
    q.set(this.q0);
    v.set(V[0]);
    for (let k = 0; k < nv; k++) v[k] += da[k] * h;
    mj.mj_integratePos(model, q, dx, h);
    data.time = t + h;
    data.qacc_warmstart.set(data.qacc);
    let p = 0;
    const V0 = V[0];
    for (let k = 0; k < nv; k++) p += impulse[k] * (V0[k] + v[k]);
    return -0.5 * h * p;
  }
}
