// from-mjcf-actuators.js: MuJoCo's actuators as Tumble force elements, for fromMjModel
// (from-mjcf.js). No DOM.
//
// An actuator on a joint with fixed gain g and an affine bias (b0, b1, b2), no activation
// dynamics and a control range (ctrllimited) is a control: from-mjcf-controls.js. One without
// a range (as a model Tumble wrote for a constant motor), its control held at the start's (the
// keyframe's ctrl), exerts on the joint the generalised force
//     tau = gear (g ctrl + b0) + gear^2 b1 q + gear^2 b2 dq/dt
// (the actuator's length is gear q, its velocity gear dq/dt; a force range clamps a constant
// force as MuJoCo does, and is ignored with a note on a servo). That is exactly:
// - a `motor` (MuJoCo's motor: b1 = b2 = 0) of torque gear g ctrl on a hinge (of a revolute,
//   cylindrical or planar joint), a `slider_motor` of that force on a slide (of a prismatic,
//   cylindrical, planar or planar_slide joint: the slide's index with it);
// - a `position` actuator (kp: g = kp, b1 = -kp; kv: b2 = -kv): a joint spring of stiffness
//   k = -gear^2 b1 = gear^2 kp and rest angle gear (g ctrl + b0) / k, MuJoCo's target ctrl / gear
//   (measured from the start, as Tumble's angles are), with damping -gear^2 b2 = gear^2 kv: a
//   `joint_spring` on a hinge, a `slider_spring` on a slide;
// - a `velocity` actuator (kv: g = kv, b2 = -kv): a damper -gear^2 kv dq/dt (a joint or slider
//   spring of stiffness 0) plus, when ctrl is not 0, the constant torque gear kv ctrl: a `motor`
//   on a hinge, a `slider_motor` on a slide (a damper about the speed ctrl / gear, exactly).
// On a fixed tendon Tumble kept (from-mjcf-tendons.js) the same with the tendon's length L for q:
// a tendon_spring for the bias, a tendon_motor for the force. An activation filter (filter,
// filterexact: MuJoCo's act follows ctrl with a time constant) is left out with a note: the
// force follows the control at once. Named and left out: other transmissions (site, body,
// spatial tendons), other activation dynamics (integrator, muscle), other gain and bias kinds,
// actuators on a ball or free joint, and actuation disabled in the model.
import { slideOf } from './from-mjcf-read.js';
import { actuatorMotor, biasSpring, controlledActuator } from './from-mjcf-controls.js';

/** The force elements of `model`'s actuators (module notes), each with `key` (its place among
 * the elements Tumble wrote, f0, f1, ...). `ctx`: { mujoco, model, key (the keyframe, -1: none),
 * notes, names, jointForces ([Tumble joint, 'joint_spring' | 'slider_spring', MuJoCo joint]),
 * where (Tumble joint -> its place), reversed (Tumble joint -> its tree runs from b to a),
 * flag, off, noActuation, qStart (MuJoCo joint -> its qpos at the start), data, tendonIndex
 * (MuJoCo tendon -> Tumble tendon), hingeTendons (MuJoCo hinge of a universal joint -> its
 * one-term Tumble tendon) }. */
export function actuatorForces(ctx) {
  const { mujoco, model, data, key, notes, names, jointForces, where, reversed, flag, off, noActuation, qStart, tendonIndex, hingeTendons } = ctx;
  const forces = [], controls = [];
  const hinge = mujoco.mjtJoint.mjJNT_HINGE.value, slide = mujoco.mjtJoint.mjJNT_SLIDE.value;
  const AFFINE = mujoco.mjtBias.mjBIAS_AFFINE.value, NONE = mujoco.mjtBias.mjBIAS_NONE.value;
  const onJointType = (a) => model.actuator_trntype[a] === mujoco.mjtTrn.mjTRN_JOINT.value;
  const TENDON = mujoco.mjtTrn.mjTRN_TENDON.value, FILTERS = [mujoco.mjtDyn.mjDYN_FILTER.value, mujoco.mjtDyn.mjDYN_FILTEREXACT.value];
  for (let a = 0; a < model.nu; a++) {
    const nm = names[a] || `actuator ${a}`;
    const keyOf = /^f\d+$/.test(nm) ? Number(nm.slice(1)) : Infinity;
    const onJoint = onJointType(a) && !hingeTendons?.has(model.actuator_trnid[2 * a]);
    const k = model.actuator_trnid[2 * a];
    // (a hinge of a universal joint is a one-term tendon: from-mjcf-tendons.js)
    const viaHinge = onJointType(a) && hingeTendons?.has(k);
    const onTendon = (model.actuator_trntype[a] === TENDON && tendonIndex?.has(k)) || viaHinge;
    const jt = onJoint ? model.jnt_type[k] : -1;
    const kind = onTendon ? 'tendon' : jt === hinge ? 'joint_spring' : 'slider_spring';
    const entry = onJoint ? jointForces.find(([, kd, kk]) => kk === k && kd === kind) : undefined;
    const t = entry?.[0] ?? -1, along = slideOf(entry?.[3] ?? 0);
    const gainFixed = model.actuator_gaintype[a] === mujoco.mjtGain.mjGAIN_FIXED.value;
    const biasType = model.actuator_biastype[a];
    const dyn = model.actuator_dyntype[a];
    const filtered = FILTERS.includes(dyn);
    if (!(onJoint || onTendon) || (onJoint && t < 0) || !gainFixed || (biasType !== NONE && biasType !== AFFINE) || (dyn !== mujoco.mjtDyn.mjDYN_NONE.value && !filtered)) {
      const why = !(onJoint || onTendon) ? (model.actuator_trntype[a] === TENDON ? 'its tendon is not a fixed tendon Tumble kept' : 'it acts through a site or body, not a joint or fixed tendon')
        : onJoint && t < 0 ? 'its joint is not a hinge or slide of a Tumble revolute, prismatic, cylindrical, planar, planar_slide or translation joint'
          : dyn !== mujoco.mjtDyn.mjDYN_NONE.value && !filtered ? 'its activation follows the control in time (integrator, muscle or other dynamics), which no Tumble element does'
            : 'its gain or bias is not MuJoCo\'s fixed gain with an affine bias';
      notes.push(`${nm}: an actuator Tumble has no element for (${why}): ignored`);
      continue;
    }
    if (filtered) notes.push(`${nm}: its activation filter (time constant ${model.actuator_dynprm[10 * a]} s) is left out: in Tumble (and in MuJoCo beside, run from Tumble's system) its force follows the control at once`);
    const target = onTendon ? { kind, tendon: viaHinge ? hingeTendons.get(k) : tendonIndex.get(k) } : { kind, joint: where[t], along };
    if (noActuation) { notes.push(`${nm}: actuation is disabled in the model: left out`); continue; }
    let ctrl = key >= 0 ? model.key_ctrl[key * model.nu + a] : 0;
    if (flag(model, 'actuator', a, 'ctrllimited') && !off('mjDSBL_CLAMPCTRL')) ctrl = Math.min(Math.max(ctrl, model.actuator_ctrlrange[2 * a]), model.actuator_ctrlrange[2 * a + 1]);
    const g = model.actuator_gainprm[10 * a], gear = model.actuator_gear[6 * a];
    const [b0, b1, b2] = biasType === AFFINE ? [0, 1, 2].map((i) => model.actuator_biasprm[10 * a + i]) : [0, 0, 0];
    const stiffness = -gear * gear * b1, damping = -gear * gear * b2;
    let force = g * ctrl + b0; // (the actuator's force at the start, but for the terms in q and dq/dt)
    if (flag(model, 'actuator', a, 'forcelimited')) {
      // a constant force is clamped as MuJoCo clamps it; one that varies with q or dq/dt is not
      if (stiffness === 0 && damping === 0) force = Math.min(Math.max(force, model.actuator_forcerange[2 * a]), model.actuator_forcerange[2 * a + 1]);
      else notes.push(`${nm}: its force range is ignored (Tumble's springs are not clamped)`);
    }
    const constant = gear * force;
    const sign = onTendon || !reversed(t) ? 1 : -1;
    const q0 = viaHinge ? qStart(k) : onTendon ? data.ten_length[k] : qStart(k);
    if (stiffness < 0 || damping < 0) { notes.push(`${nm}: its bias pushes away from its target (negative stiffness or damping): ignored`); continue; }
    if (flag(model, 'actuator', a, 'ctrllimited') && !off('mjDSBL_CLAMPCTRL') && g !== 0) {
      // a control range: drivable (from-mjcf-controls.js)
      forces.push(...controlledActuator(nm, a, { model, flag, ...target, sign, g, gear, b0, stiffness, damping, ctrl, qStart: q0, keyOf, notes }));
      controls.push(nm);
      continue;
    }
    if (stiffness > 0) {
      // a spring about MuJoCo's q = constant / stiffness, measured from the start
      const rest = sign * (constant / stiffness - q0);
      forces.push(biasSpring(target, stiffness, rest, damping, keyOf));
      if (!/^f\d+$/.test(nm)) notes.push(`${nm}: a position servo held at the start's control ${ctrl}: a ${kind.replace('_', ' ')} of stiffness ${stiffness} and damping ${damping} about ${constant / stiffness} (MuJoCo's qpos); a control that changes in time has no Tumble element`);
      continue;
    }
    if (damping > 0) forces.push(biasSpring(target, 0, 0, damping, keyOf));
    const servo = damping > 0 ? `a velocity servo held at the start's control ${ctrl}: a damper of ${damping}` : '';
    if (onTendon && (constant !== 0 || damping === 0)) {
      forces.push(actuatorMotor(target, constant, {}, keyOf));
      if (!/^f\d+$/.test(nm)) notes.push(`${nm}: a motor on a tendon whose control is held at the start's ${ctrl} (a constant force of ${constant} along the tendon); a control that changes in time has no Tumble element`);
    } else if (jt === hinge && (constant !== 0 || damping === 0)) {
      forces.push({ type: 'motor', joint: where[t], torque: sign * constant, key: keyOf });
      if (!/^f\d+$/.test(nm)) {
        notes.push(servo ? `${nm}: ${servo} and a constant torque of ${constant} N m (together, a damper about the speed ${ctrl / gear} rad/s, exactly); a control that changes in time has no Tumble element`
          : `${nm}: a motor whose control is held at the start's ${ctrl} (a constant torque of ${constant} N m); a control that changes in time has no Tumble element`);
      }
    } else if (jt === slide && (constant !== 0 || damping === 0)) {
      forces.push({ type: 'slider_motor', joint: where[t], ...along, force: sign * constant, key: keyOf });
      if (!/^f\d+$/.test(nm)) {
        notes.push(servo ? `${nm}: ${servo} and a constant force of ${constant} N (together, a damper about the speed ${ctrl / gear} m/s, exactly); a control that changes in time has no Tumble element`
          : `${nm}: a motor along a slide whose control is held at the start's ${ctrl} (a constant force of ${constant} N); a control that changes in time has no Tumble element`);
      }
    } else if (servo && !/^f\d+$/.test(nm)) {
      notes.push(`${nm}: ${servo} about the speed 0; a control that changes in time has no Tumble element`);
    }
  }
  if (controls.length) notes.push(`controls (${controls.length}): ${controls.map((c) => `'${c}'`).join(', ')}: drivable (MuJoCo's ctrl, within its ctrlrange, set while the run goes: from-mjcf-controls.js)`);
  return forces;
}

/** MuJoCo's joint equalities (joint1 only: q = qpos0 + a0, polycoef's constant term) on a
 * hinge or slide that holds at the start: a Tumble drive that holds the joint where it starts
 * (`time` constant 0; the export writes drives so, the run then moves a0). `ctx`: { mujoco,
 * model, data (at the start), eqs (the equalities), eqNames, notes, jointForces, where, jlabel }.
 * Throws for a joint equality Tumble cannot hold (two joints, a polynomial, not held at the
 * start, a ball or free joint). */
export function jointHolds(ctx) {
  const { mujoco, model, data, eqs, eqNames, notes, jointForces, where, jlabel } = ctx;
  const drives = [];
  for (const e of eqs) {
    const nm = eqNames[e] || `equality ${e}`;
    const k = model.eq_obj1id[e], jt = model.jnt_type[k];
    const kind = jt === mujoco.mjtJoint.mjJNT_HINGE.value ? 'joint_spring' : 'slider_spring';
    const t = jointForces.find(([, kd, kk]) => kk === k && kd === kind)?.[0] ?? -1;
    if (t >= 0 && kind === 'slider_spring' && (ctx.joints[t].type.startsWith('planar') || ctx.joints[t].type === 'translation')) {
      throw new Error(`joint '${nm}': holds a slide of ${jlabel(k)}'s planar or translation joint, which no Tumble drive does (Tumble drives the slide of a prismatic or cylindrical joint)`);
    }
    const poly = Array.from({ length: 5 }, (_, i) => model.eq_data[11 * e + i]);
    const adr = model.jnt_qposadr[k];
    const off = data.qpos[adr] - model.qpos0[adr] - poly[0];
    // (with joint2 absent MuJoCo's constraint is q - qpos0 = a0: the other coefficients do nothing)
    if (model.eq_obj2id[e] >= 0 || t < 0 || Math.abs(off) > 1e-9) {
      throw new Error(`joint '${nm}': only a joint equality on one hinge or slide (of a Tumble revolute, prismatic or cylindrical joint) that holds it where it starts (joint2 absent) has a Tumble element (a drive holding it)`);
    }
    if (Math.abs(data.qvel[model.jnt_dofadr[k]]) > 1e-12) {
      notes.push(`joint '${nm}': holds ${jlabel(k)}, which starts moving: left out (a Tumble drive needs the joint's start rate)`);
      continue;
    }
    drives.push({ joint: where[t], type: jt === mujoco.mjtJoint.mjJNT_HINGE.value ? 'angle' : 'slide', time: { kind: 'constant', value: 0 } });
    if (!/^d\d+$/.test(nm)) notes.push(`joint '${nm}': holds ${jlabel(k)} where it starts: a drive of constant 0`);
    else notes.push(`joint '${nm}': a drive Tumble wrote, its motion set by the run: it comes back holding its joint where it starts (a constant 0)`);
  }
  return drives;
}

/** A hinge's armature (MuJoCo's rotor inertia: `arm` added to the joint's diagonal of the mass
 * matrix only) folded into the body's inertia where that is exact: the hinge joins the body to
 * the world (so the body turns about the axis only, at the joint's rate, and no other joint's
 * rate is coupled to it) and the axis is a principal axis of the body (so the inertia stays
 * diagonal). Then a I a + arm is the joint's whole inertia in both. Anywhere else the rotor would
 * also turn with the joints above it in Tumble (MuJoCo's does not): a note. Where the moment
 * about the axis then exceeds the sum of the other two (no rigid body has such an inertia, and
 * Tumble refuses it), the other two are raised together until it does not: they never act on a
 * body that turns about the one axis only. Returns the note ('' when folded without raising), the
 * inertia (the body's principal moments) changed in place. */
export function foldArmature({ arm, onWorld, axisBody, inertia, what }) {
  const i = axisBody.findIndex((c) => Math.abs(Math.abs(c) - 1) < 1e-12);
  if (onWorld && i >= 0) {
    inertia[i] += arm;
    const [j, k] = [(i + 1) % 3, (i + 2) % 3];
    const short = inertia[i] - inertia[j] - inertia[k];
    if (!(short < 0)) {
      const d = 0.5 * short + 1e-9 * inertia[i];
      inertia[j] += d;
      inertia[k] += d;
      return `${what}: its armature ${arm} is in the body's inertia about the hinge; the body's other two moments are raised by ${d} to keep a rigid body's inertia (they do not act: the body turns about the hinge only)`;
    }
    return '';
  }
  return `${what}: its armature (rotor inertia) ${arm} is ignored (it adds to the body's inertia exactly only for a hinge to the world about a principal axis of its body; here ${onWorld ? 'the axis is not a principal axis' : 'other joints turn the body too'})`;
}
