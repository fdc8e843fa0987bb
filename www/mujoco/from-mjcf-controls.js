// from-mjcf-controls.js: MuJoCo's actuators with a control range as Tumble controls, for the
// import's actuator stage (actuatorForces, from-mjcf-actuators.js). No DOM.
//
// An actuator with fixed gain g, affine bias (b0, b1, b2) and gear exerts on its joint
//     tau = gear g ctrl + gear b0 + gear^2 b1 q + gear^2 b2 dq/dt.
// Where its control is limited (ctrlrange, as every actuator of the control suite's is), it is
// split into what does not depend on ctrl and what does:
// - the bias: a joint_spring or slider_spring of stiffness -gear^2 b1 about MuJoCo's
//   q = gear b0 / stiffness (measured from the start, as Tumble's coordinates are) and damping
//   -gear^2 b2: a position servo's kp and kv, a velocity servo's kv (its V in E, its losses in D);
// - the control: a motor (hinge), slider_motor (slide) or tendon_motor (a fixed tendon, its
//   bias a tendon_spring) of torque or force gear g at control 1,
//   with `control: { value: the start's ctrl, range: ctrlrange }`: MuJoCo's ctrl itself, which
//   the page's sliders, the command line's schedules and a link's control events set while the
//   run goes (Simulation.set_control); its work is in W.
// A pure motor's force range (forcerange) narrows the control's range to the controls whose
// force it does not clamp (g ctrl + b0 within it); on a servo the force range is ignored, named.
// A constant bias without a spring (b0 with b1 = 0) has no element: named and left out.

/** The spring-damper an actuator's bias becomes on its target (`kind` 'joint_spring' on a
 * hinge, 'slider_spring' on a slide with `along`, 'tendon' on a fixed tendon): stiffness, rest
 * (the angle, slide or tendon length at rest, from the start), damping. */
export function biasSpring({ kind, joint, along, tendon }, stiffness, rest, damping, key) {
  if (kind === 'tendon') return { type: 'tendon_spring', tendon, stiffness, rest_length: rest, damping, key };
  return kind === 'joint_spring'
    ? { type: 'joint_spring', joint, stiffness, rest_angle: rest, damping, key }
    : { type: 'slider_spring', joint, ...along, stiffness, rest_slide: rest, damping, key };
}

/** The motor an actuator's force becomes on its target (see biasSpring): `size` its torque or
 * force, `more` (name, control) with it. */
export function actuatorMotor({ kind, joint, along, tendon }, size, more, key) {
  if (kind === 'tendon') return { type: 'tendon_motor', ...more, tendon, force: size, key };
  return kind === 'joint_spring'
    ? { type: 'motor', ...more, joint, torque: size, key }
    : { type: 'slider_motor', ...more, joint, ...along, force: size, key };
}

/** A valid Tumble element name (1 to 64 letters, digits, spaces and _-.:/). */
const NAME = /^[A-Za-z0-9 _\-.:/]{1,64}$/;

/** The elements of controlled actuator `nm` (module notes): `a` its index; `info` what
 * actuatorForces has read: { model, flag, kind ('joint_spring' | 'slider_spring' | 'tendon'),
 * joint (the Tumble joint's place), along ({ slide } or {}), tendon (a tendon's place), sign, g,
 * gear, b0, stiffness, damping, ctrl, qStart (MuJoCo's q or tendon length at the start), keyOf,
 * notes }. Returns the elements. */
export function controlledActuator(nm, a, info) {
  const { model, flag, sign, g, gear, b0, stiffness, damping, ctrl, qStart, keyOf, notes } = info;
  const out = [];
  let [lo, hi] = [model.actuator_ctrlrange[2 * a], model.actuator_ctrlrange[2 * a + 1]];
  if (flag(model, 'actuator', a, 'forcelimited')) {
    const [flo, fhi] = [model.actuator_forcerange[2 * a], model.actuator_forcerange[2 * a + 1]];
    if (stiffness === 0 && damping === 0 && g > 0) {
      lo = Math.max(lo, (flo - b0) / g);
      hi = Math.min(hi, (fhi - b0) / g);
    } else {
      notes.push(`${nm}: its force range is ignored (Tumble's springs are not clamped)`);
    }
  }
  if (!(lo < hi)) throw new Error(`actuator '${nm}': its control range and force range leave no control (${lo} to ${hi})`);
  if (stiffness > 0 || damping > 0) {
    const rest = stiffness > 0 ? sign * ((gear * b0) / stiffness - qStart) : 0;
    out.push(biasSpring(info, stiffness, rest, damping, keyOf));
  } else if (b0 !== 0) {
    notes.push(`${nm}: its constant bias ${gear * b0} has no element (a spring would hold it): left out`);
  }
  const value = Math.min(Math.max(ctrl, lo), hi);
  const named = NAME.test(nm) && !/^f\d+$/.test(nm) ? { name: nm } : {};
  const control = { value, range: [lo, hi] };
  out.push(actuatorMotor(info, sign * gear * g, { ...named, control }, keyOf));
  return out;
}
