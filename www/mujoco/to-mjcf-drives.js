// to-mjcf-drives.js: Tumble's drives (a joint coordinate or a rod's length prescribed in time,
// docs/scenarios.md) in MuJoCo's run. No DOM.
//
// The choice: an equality constraint whose constant term the run moves each step, not a stiff
// position actuator. MuJoCo's joint equality (joint1 only: q - q0 = a0, q0 = qpos0, 0 here since
// every tree joint starts at qpos 0) and tendon equality (tendon1 only: L - L0 = a0, L0 the rod's
// length at qpos0, its start) are the drive's own equation with a0 = f(t); the constraint solver
// carries them as it carries every loop, so they stay stable at any stiffness and the step a
// stiff position servo would need under RK4 (kp h^2 / m below about 8) does not depend on the
// driven inertia. A position actuator would also leave the coordinate wherever kp balances the
// load. a0 is model.eq_data[11 e] (writable: a live view of the model's memory, read at every
// mj_step; tests/js/mjcf-drives.test.mjs measures that it takes effect).
//
// What a0 is set to. MuJoCo's constraint asks for the reference acceleration
// aref = -b v - k d r, with r = q - a0 and v = dq/dt (the constraint's velocity has no term for a
// moving a0), k, b, d its stiffness, damping and impedance (data.efc_KBIP of its row). With
//     a0 = f + (b f' + f'') / (k d)
// aref = f'' - b (v - f') - k d (q - f): the prescribed acceleration with an error feedback, so
// the coordinate follows f with no lag. The impedance is made constant and near 1
// (solimp 0.9999 0.9999: MuJoCo's largest) so the constraint is near-hard. a0 stays fixed
// through a step; it is taken at the step's mean time of evaluation: t + h/2 for RK4 (stages at
// t, t + h/2 twice, t + h, weights 1 2 2 1), t for the Euler and implicit integrators (forces at
// the step's start). The time constant (solref, critically damped): 2h (MuJoCo's smallest safe
// one) for Euler and implicit; for RK4 max(20 h, 0.01 s): a target held through the step pushes
// the position by h^3 k d g'/12 within it (g the target's a0(t)), which the feedback repays with a
// velocity at the steps' ends short by (h^2/12) k d g'; with k d = 1/tc^2 that is 1/4800 of g' at
// 20 h (1/48 at 2 h, where the governor's node velocities, and so its drive's power b (v - f'),
// were off by 2 %).
// Measured (tests/js/mjcf-drives.test.mjs): a hinge spun up by ramp_speed 2 pi rad/s at h = 0.01
// follows f to 8.1e-5 rad under RK4 (0.0316 rad with a0 = f(t): the lag b f' / (k d) plus half a
// step), to 1.9e-3 rad under Euler; the driven presets in MuJoCo RK4 at their step to 6e-6 rad
// (slider-crank), 3.5e-4 m (crane), 1.4e-4 m (kapitza), 3e-7 rad (governor, at 5e-5 s).
//
// The drive's work, counted in W: the constraint force of its row times the row's velocity at
// each step's start, summed with the trapezoid rule (mujoco-run.js). Under RK4 the force at the
// start with the step's mid-step target is not the drive's (it rings within the step): the run
// takes it from a forward with the targets of the start's own time, and the velocity there
// corrected by the shortfall above (a0 with f' - (h^2/12)(k d f' + b f'' + f''') in place of f').
// The drive's error, shown on the page: |q(t) - q0 - f(t)| per drive (rad or m) at MuJoCo's
// state: the joint's qpos (times the sign of the tree's direction) or the rod's length minus
// Tumble's `length`, against Tumble's own f(t).

/** A time function of Tumble's JSON (`{kind, ...}`, defaults of docs/scenarios.md) as
 * { at(t), rate(t), accel(t), jerk(t) }: f, df/dt, d2f/dt2 by the formulas of
 * crates/tumble/src/timefn.rs, and d3f/dt3. */
export function timeFn(F = { kind: 'constant', value: 1 }) {
  const tau = 2 * Math.PI;
  switch (F.kind ?? 'constant') {
    case 'constant': {
      const v = F.value ?? 1;
      return { at: () => v, rate: () => 0, accel: () => 0, jerk: () => 0 };
    }
    case 'linear': {
      const s = F.start ?? 0, r = F.rate ?? 0;
      return { at: (t) => s + r * t, rate: () => r, accel: () => 0, jerk: () => 0 };
    }
    case 'sine': {
      const o = F.offset ?? 0, a = F.amplitude ?? 1, w = tau * (F.frequency ?? 0), p = F.phase ?? 0;
      return {
        at: (t) => o + a * Math.sin(w * t + p),
        rate: (t) => a * w * Math.cos(w * t + p),
        accel: (t) => -a * w * w * Math.sin(w * t + p),
        jerk: (t) => -a * w * w * w * Math.cos(w * t + p),
      };
    }
    case 'ramp': {
      const v = F.value ?? 1, T = F.time;
      return {
        at: (t) => { const x = Math.min(Math.max(t / T, 0), 1); return v * x * x * (3 - 2 * x); },
        rate: (t) => { const x = t / T; return x >= 0 && x < 1 ? (v * 6 * x * (1 - x)) / T : 0; },
        accel: (t) => { const x = t / T; return x >= 0 && x < 1 ? (v * (6 - 12 * x)) / (T * T) : 0; },
        jerk: (t) => { const x = t / T; return x >= 0 && x < 1 ? (-12 * v) / (T * T * T) : 0; },
      };
    }
    case 'ramp_speed': {
      const r = F.rate, T = F.time;
      return {
        at: (t) => { if (t >= T) return r * (t - 0.5 * T); const x = t / T; return r * T * x * x * x * (1 - 0.5 * x); },
        rate: (t) => { const x = Math.min(Math.max(t / T, 0), 1); return r * x * x * (3 - 2 * x); },
        accel: (t) => { const x = t / T; return x >= 0 && x < 1 ? (r * 6 * x * (1 - x)) / T : 0; },
        jerk: (t) => { const x = t / T; return x >= 0 && x < 1 ? (r * (6 - 12 * x)) / (T * T) : 0; },
      };
    }
    default: throw new Error(`time function kind '${F.kind}' is not one of Tumble's`);
  }
}

const num = (x) => (Object.is(x, -0) ? '0' : String(x));

/** The MJCF equalities of `drives` (Tumble's JSON) and what the run needs of them.
 * `jointName`: Tumble joint -> { names (MuJoCo joints), reversed } of the tree joints;
 * `rods`: Tumble joint -> the tendon of a distance joint (to-mjcf.js writes `j{k}`); `joints`:
 * the system's joints; `h` the time step. Returns { equalities (XML lines), drives: [{ name,
 * type, joint, sign, time, mjJoint | tendon, length }], rodDrives: Set of driven rods (their
 * own tendon equality becomes the drive's), notes }. */
export function driveParts(drives, joints, jointName, h, integrator) {
  const equalities = [], out = [], notes = [], rodDrives = new Set();
  const solver = `solref="${num(integrator === 'RK4' ? Math.max(20 * h, 0.01) : 2 * h)} 1" solimp="0.9999 0.9999 0.001 0.5 2"`;
  drives.forEach((d, i) => {
    const name = `d${i}`;
    if (d.type === 'distance') {
      const j = joints[d.joint];
      if (!j || j.type !== 'distance') { notes.push(`drives[${i}]: joint ${d.joint} is not a distance joint: left out`); return; }
      rodDrives.add(d.joint);
      equalities.push(`<tendon name="${name}" tendon1="j${d.joint}" polycoef="0 0 0 0 0" ${solver}/>`);
      out.push({ name, type: d.type, joint: d.joint, sign: 1, time: d.time, tendon: `j${d.joint}`, length: j.length });
      return;
    }
    const info = jointName.get(d.joint);
    const want = d.type === 'angle' ? /(^j\d+r?$|:hinge$)/ : /(^j\d+r?$|:slide$)/;
    const target = info?.names.find((nm) => want.test(nm));
    if (!target) {
      notes.push(`drives[${i}] (the ${d.type} of joint ${d.joint} prescribed in time): that joint closes a loop in MuJoCo (an equality constraint, with no coordinate to prescribe): left out, the joint moves freely`);
      return;
    }
    equalities.push(`<joint name="${name}" joint1="${target}" polycoef="0 0 0 0 0" ${solver}/>`);
    out.push({ name, type: d.type, joint: d.joint, sign: info.reversed ? -1 : 1, time: d.time, mjJoint: target });
  });
  return { equalities, drives: out, rodDrives, notes };
}

/** Tumble's drives moving in MuJoCo's run: `drives` as driveParts returned them, in `model`
 * (compiled from that MJCF). set(data) before each mj_step; measure(data) fills `error`
 * (|q - q0 - f(t)| per drive) and `worst` (the largest so far). */
export class MujocoDrives {
  constructor(mujoco, model, drives, integrator) {
    this.mj = mujoco;
    this.list = drives.map((d) => {
      const eq = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_EQUALITY.value, d.name);
      const f = timeFn(d.time);
      if (d.tendon) return { ...d, f, eq, tendon: mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_TENDON.value, d.tendon) };
      const jnt = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT.value, d.mjJoint);
      return { ...d, f, eq, qadr: model.jnt_qposadr[jnt] };
    });
    this.offset = integrator === 'RK4' ? 0.5 : 0; // the step's mean time of evaluation, in steps
    this.gains = null; // per drive [k d, b] of its constraint row (data.efc_KBIP), read after a forward
    this.error = new Float64Array(this.list.length);
    this.worst = new Float64Array(this.list.length);
    this.units = this.list.map((d) => (d.type === 'angle' ? 'rad' : 'm'));
  }

  /** The rows' k d and b, from data.efc_KBIP after an mj_forward (they depend on the time step). */
  readGains(model, data) {
    const eqType = this.mj.mjtConstraint.mjCNSTR_EQUALITY.value;
    const type = data.efc_type, id = data.efc_id, kbip = data.efc_KBIP;
    this.gains = this.list.map((d) => {
      for (let r = 0; r < data.nefc; r++) {
        if (type[r] === eqType && id[r] === d.eq) return [kbip[4 * r] * kbip[4 * r + 2], kbip[4 * r + 1]];
      }
      return null; // (an inactive row: a0 = f)
    });
  }

  /** a0 of every drive for the step from data.time (module notes), taken at `offset` steps on;
   * `measure`: for the drives' force at the state (RK4's node velocity, module notes). */
  set(model, data, offset = this.offset, measure = false) {
    if (!this.gains) return;
    const h = model.opt.timestep, t = data.time + offset * h, E = model.eq_data;
    for (let i = 0; i < this.list.length; i++) {
      const d = this.list[i], g = this.gains[i];
      const kd = g?.[0] ?? 0, b = g?.[1] ?? 0, f1 = d.f.rate(t);
      const v = measure && this.offset ? f1 - (h * h / 12) * (kd * f1 + b * d.f.accel(t) + d.f.jerk(t)) : f1;
      const ff = g ? (g[1] * v + d.f.accel(t)) / g[0] : 0;
      E[11 * d.eq] = d.sign * (d.f.at(t) + ff);
    }
  }

  /** The drives' power at data's state (after a forward with a0 of the state's own time, or an
   * Euler or implicit step, whose arrays are its start's): constraint force times the row's
   * velocity, summed over their rows. */
  power(data) {
    const eqType = this.mj.mjtConstraint.mjCNSTR_EQUALITY.value;
    let p = 0;
    for (const d of this.list) {
      for (let r = 0; r < data.nefc; r++) if (data.efc_type[r] === eqType && data.efc_id[r] === d.eq) p += data.efc_force[r] * data.efc_vel[r];
    }
    return p;
  }

  /** |q - q0 - f(t)| of each drive at data's state (after mj_forward: ten_length is current). */
  measure(data) {
    for (let i = 0; i < this.list.length; i++) {
      const d = this.list[i], f = d.f.at(data.time);
      const q = d.tendon != null ? data.ten_length[d.tendon] - d.length : d.sign * data.qpos[d.qadr];
      const e = Math.abs(q - f);
      this.error[i] = e;
      if (!(e <= this.worst[i])) this.worst[i] = e;
    }
  }
}
