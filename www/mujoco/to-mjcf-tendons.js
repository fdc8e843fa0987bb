// to-mjcf-tendons.js: Tumble's fixed tendons (L = sum coef q over joints' angles and slides)
// and the elements on them in MuJoCo's run, for toMjcf (to-mjcf.js). No DOM.
//
// - A tendon -> <fixed name="tK"> with one <joint joint="..." coef="..."/> per term, on the
//   tree joint's hinge or slide (a universal joint's `hinge` 0 and 1: jN:a and jN:b; a gimbal
//   joint's 0, 1, 2: jN:a, jN:m, jN:b; coef
//   negated on a joint written reversed, jNr); a term on a
//   joint that closes a loop has no MuJoCo joint: the tendon is left out, named.
// - Its tendon springs -> the tendon's stiffness, springlength and damping, several adding up
//   as joint springs do: k1 (L - r1) + k2 (L - r2) = (k1 + k2) (L - r). Every tree joint starts
//   at qpos 0, so MuJoCo's L at the start is 0, as Tumble's is: the rest lengths carry over.
// - A tendon limit -> the tendon's range (to-mjcf-contact.js, tendonLimitAttrs).
// - A tendon armature -> the tendon's armature (MuJoCo's rotor inertia on L, A dL/dt^2 / 2;
//   several add up).
// - A tendon motor -> a <motor tendon="tK">: with a control, gear its force and the control's
//   range; without, gear 1 and its constant force as the control.
import { tendonLimitAttrs } from './to-mjcf-contact.js';

const num = (x) => String(Number(x));

/** The one note for every tendon limit of given stiffness (MuJoCo's default solreflimit for
 * each): the humanoid's 16 had filled the status line with one note each. */
function stiffLimitNote(doc, f) {
  const list = (doc.stiffLimits ??= []);
  list.push([f.tendon, f.stiffness]);
  const ks = list.map(([, k]) => k), short = (x) => String(+x.toPrecision(3));
  const text = list.length === 1
    ? `tendon ${f.tendon}'s limit: its stiffness ${short(f.stiffness)} becomes MuJoCo's default solreflimit`
    : `${list.length} tendon limits (tendons ${list.map(([t]) => t).join(', ')}): their stiffness (${short(Math.min(...ks))} to ${short(Math.max(...ks))}) becomes MuJoCo's default solreflimit`;
  if (doc.stiffLimitAt === undefined) doc.stiffLimitAt = doc.notes.push(text) - 1;
  else doc.notes[doc.stiffLimitAt] = text;
}

/** A tendon element (`tendon_spring`, `tendon_limit`, `tendon_armature` or `tendon_motor`,
 * index i) into doc: its spring into doc.tendonSprings, its range into doc.tendonRanges, its
 * armature into doc.tendonArmatures, its motor into doc.actuators and doc.ctrl. */
export function tendonElement(doc, f, i) {
  const { notes, actuators, ctrl } = doc;
  if (f.type === 'tendon_limit') {
    const { attrs, note, capped } = tendonLimitAttrs(f, doc.h);
    doc.tendonRanges.set(f.tendon, attrs);
    if (capped) doc.softStops++;
    if (note) stiffLimitNote(doc, f);
    return;
  }
  if (f.type === 'tendon_armature') {
    doc.tendonArmatures.set(f.tendon, (doc.tendonArmatures.get(f.tendon) ?? 0) + (f.armature ?? 0));
    return;
  }
  if (f.type === 'tendon_spring') {
    const old = doc.tendonSprings.get(f.tendon);
    const add = { stiffness: f.stiffness ?? 0, rest: f.rest_length ?? 0, damping: f.damping ?? 0 };
    const k = (old?.stiffness ?? 0) + add.stiffness;
    doc.tendonSprings.set(f.tendon, !old ? add : {
      stiffness: k, damping: old.damping + add.damping,
      rest: k > 0 ? (old.stiffness * old.rest + add.stiffness * add.rest) / k : old.rest,
    });
    return;
  }
  const force = f.force ?? 0;
  if (f.control) {
    actuators.push(`<motor name="f${i}" tendon="t${f.tendon}" gear="${num(force)}" ctrllimited="true" ctrlrange="${f.control.range.map(num).join(' ')}"/>`);
    ctrl.push(f.control.value ?? 0);
    return;
  }
  const constant = !f.time || f.time.kind === 'constant';
  if (!constant) notes.push(`forces[${i}] (tendon_motor): its ${f.time.kind} function of time has no MuJoCo counterpart: the motor's control is the constant ${num(force)}; set data.ctrl from your code for the rest`);
  actuators.push(`<motor name="f${i}" tendon="t${f.tendon}" gear="1" ctrllimited="false"/>`);
  ctrl.push(force * (f.time?.kind === 'constant' ? (f.time.value ?? 1) : 1));
}

/** The system's tendons as <fixed> lines (module notes), with their springs from
 * doc.tendonSprings; the tendons left out are named in doc.notes. `coordinatePattern(angle,
 * slide)`: to-mjcf.js's test of a MuJoCo joint's name for a Tumble joint's coordinate. */
export function fixedTendonLines(doc, coordinatePattern) {
  const { s, jointName, notes } = doc;
  const out = [];
  (s.tendons ?? []).forEach((t, k) => {
    const joints = [];
    for (const term of t.terms) {
      const info = jointName.get(term.joint);
      // a universal joint's hinges are jN:a (the parent's) and jN:b (the child's)
      const type = s.joints[term.joint]?.type;
      const want = type === 'universal' ? (((term.hinge ?? 0) === 1) !== info?.reversed ? /:b$/ : /:a$/)
        : type === 'gimbal' ? [/:a$/, /:m$/, /:b$/][term.hinge ?? 0] : coordinatePattern(term.slide === undefined, term.slide ?? 0);
      const target = info?.names.find((nm) => want.test(nm));
      if (!target) { notes.push(`tendons[${k}]: joint ${term.joint} closes a loop (an equality constraint in MuJoCo), which has no coordinate: the tendon and what acts on it are left out`); return; }
      joints.push(`<joint joint="${target}" coef="${num((info.reversed ? -1 : 1) * term.coef)}"/>`);
    }
    const sp = doc.tendonSprings.get(k);
    const range = doc.tendonRanges.get(k), arm = doc.tendonArmatures.get(k);
    const attrs = (sp ? ` stiffness="${num(sp.stiffness)}" springlength="${num(sp.rest)}" damping="${num(sp.damping)}"` : '') + (range ? ` ${range}` : '') + (arm ? ` armature="${num(arm)}"` : '');
    out.push(`<fixed name="t${k}"${attrs}>${joints.join('')}</fixed>`);
  });
  return out;
}
