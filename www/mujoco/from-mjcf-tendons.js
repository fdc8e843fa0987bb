// from-mjcf-tendons.js: MuJoCo's fixed tendons (<tendon><fixed>: L = sum coef q over joints)
// as Tumble tendons, for fromMjModel (from-mjcf.js). No DOM.
//
// - A fixed tendon whose joints are all hinges and slides Tumble kept as coordinates (of
//   revolute, prismatic, cylindrical, planar or planar_slide joints: cx.jointForces) -> a Tumble
//   tendon, each term the coordinate with MuJoCo's coef (negated where Tumble wrote the joint
//   reversed, jNr). Tumble's L is measured from the start, MuJoCo's from qpos = 0: a length
//   of MuJoCo's is Tumble's plus the tendon's length at the start (data.ten_length).
// - Its stiffness, springlength and damping -> a `tendon_spring` (a dead band's lower end the
//   rest length, named); its range (limited) -> a `tendon_limit`, bounds from the start,
//   stiffness and restitution from solreflimit and solimplimit's dmax on the tendon's inertia
//   1 / tendon_invweight0, as the joint limits take theirs (from-mjcf-contact.js, stopOf).
// - A tendon equality on it (tendon1 only: MuJoCo holds L = tendon_length0 + polycoef[0], a
//   soft constraint of time constant tc and damping ratio z, solref) -> a stiff `tendon_spring`
//   about that length: stiffness w^2 / tendon_invweight0 and damping 2 z w / tendon_invweight0,
//   w = 1 / (tc z), as MuJoCo's reference acceleration -b dL/dt - k (L - L0) per unit of the
//   tendon's inertia (solimp left out, named). Two tendons in one equality are refused.
// - Actuators on the tendon: from-mjcf-actuators.js, with `tendonTarget`.
// A tendon over a ball or free joint, or one Tumble did not keep, is named and left out with
// what acts on it.
import { flag, names } from './from-mjcf-read.js';
import { stopOf } from './from-mjcf-contact.js';

/** The fixed tendons Tumble can take: { tendons (the system's `tendons`), index (MuJoCo tendon
 * -> its place in them), forces (their springs and the equalities' stiff springs), start
 * (MuJoCo tendon -> its length at the start) }. `cx`: what fromMjModel has read (mujoco,
 * model, data, notes, jointForces, where, reversed, noSpring, noDamper, off, tendonHolds). */
export function fixedTendons(cx) {
  const { mujoco, model, data, notes, jointForces, where, reversed, noSpring, noDamper } = cx;
  const tendons = [], forces = [], index = new Map();
  const tnames = names(model, model.name_tendonadr, model.ntendon);
  const JOINT = mujoco.mjtWrap.mjWRAP_JOINT.value;
  for (let t = 0; t < model.ntendon; t++) {
    const adr = model.tendon_adr[t], num = model.tendon_num[t];
    if (!num || model.wrap_type[adr] !== JOINT) continue; // a spatial tendon (from-mjcf-springs.js)
    const nm = tnames[t] || `tendon ${t}`;
    const terms = [];
    let missing = '';
    for (let w = adr; w < adr + num; w++) {
      const k = model.wrap_objid[w];
      const kept = jointForces.find(([, , kk]) => kk === k);
      if (!kept) { missing = cx.jlabel(k); break; }
      const [tj, kind, , slide = 0] = kept;
      if (kind === 'universal_hinge' && reversed(tj)) { missing = cx.jlabel(k); break; }
      const coef = (reversed(tj) ? -1 : 1) * model.wrap_prm[w];
      terms.push(termOf(kind, where[tj], slide, coef));
    }
    if (missing) {
      notes.push(`tendon '${nm}': ${missing} is not a hinge or slide of a Tumble revolute, prismatic, cylindrical, planar, planar_slide or translation joint, so the tendon and what acts on it are left out`);
      continue;
    }
    index.set(t, tendons.length);
    tendons.push(/^[A-Za-z0-9 _\-.:/]{1,64}$/.test(nm) ? { name: nm, terms } : { terms });
    const stiffness = noSpring ? 0 : model.tendon_stiffness[t], damping = noDamper ? 0 : model.tendon_damping[t];
    if (flag(model, 'tendon', t, 'limited')) {
      const stop = rangeStop(cx, [model.tendon_range[2 * t], model.tendon_range[2 * t + 1]], data.ten_length[t], [model.tendon_solref_lim[2 * t], model.tendon_solref_lim[2 * t + 1], model.tendon_solimp_lim[5 * t + 1]], model.tendon_invweight0[t], `tendon '${nm}'`);
      if (stop) forces.push({ type: 'tendon_limit', tendon: index.get(t), ...stop });
    }
    if (model.tendon_frictionloss[t] > 0) notes.push(`tendon '${nm}': its dry friction (frictionloss) is ignored`);
    if (stiffness > 0 || damping > 0) {
      const [lo, hi] = [model.tendon_lengthspring[2 * t], model.tendon_lengthspring[2 * t + 1]];
      if (lo !== hi && stiffness > 0) notes.push(`tendon '${nm}': its dead band ${lo} to ${hi} becomes the rest length ${lo}`);
      forces.push({ type: 'tendon_spring', tendon: index.get(t), stiffness, rest_length: lo - data.ten_length[t], damping });
    }
  }
  for (const e of cx.tendonHolds ?? []) forces.push(...holdSpring(cx, e, index, tnames));
  if (tendons.length) notes.push(`fixed tendons (${tendons.length}): Tumble tendons over the joints' angles and slides, lengths measured from the start`);
  const hinges = universalHinges(cx, tendons, forces);
  return { tendons, forces, index, hinges };
}

/** A tendon term on a Tumble joint's coordinate (`kind` as in cx.jointForces, `index` its
 * slide's or a universal joint's hinge's). */
function termOf(kind, joint, index, coef) {
  if (kind === 'joint_spring') return { joint, coef };
  if (kind === 'universal_hinge') return index ? { joint, hinge: index, coef } : { joint, coef };
  return { joint, slide: index, coef };
}

/** The hinges of universal joints (two MuJoCo hinges that became one Tumble joint): each a
 * one-term tendon over its angle, added to `tendons` where the hinge has a spring, a damper or
 * an actuator, with its spring into `forces` (its rest from MuJoCo's springref, measured from
 * the start). Returns MuJoCo joint -> that tendon's place, for the actuators. */
function universalHinges(cx, tendons, forces) {
  const { model, data, notes, jointForces, where, reversed, noSpring, noDamper } = cx;
  const out = new Map();
  const acted = new Set();
  for (let a = 0; a < model.nu; a++) if (model.actuator_trntype[a] === cx.mujoco.mjtTrn.mjTRN_JOINT.value) acted.add(model.actuator_trnid[2 * a]);
  for (const [t, kind, k, hinge] of jointForces) {
    if (kind !== 'universal_hinge') continue;
    const stiffness = noSpring ? 0 : model.jnt_stiffness[k], damping = noDamper ? 0 : model.dof_damping[model.jnt_dofadr[k]];
    const limited = flag(model, 'jnt', k, 'limited');
    if (!(stiffness > 0 || damping > 0 || acted.has(k) || limited)) continue;
    if (reversed(t)) { notes.push(`${cx.jlabel(k)}: a hinge of a universal joint Tumble wrote reversed: its springs and actuators are left out`); continue; }
    out.set(k, tendons.length);
    const nm = cx.jointNames[k];
    tendons.push({ ...(/^[A-Za-z0-9 _\-.:/]{1,64}$/.test(nm) ? { name: nm } : {}), terms: [termOf(kind, where[t], hinge, 1)] });
    const adr = model.jnt_qposadr[k];
    if (stiffness > 0 || damping > 0) {
      forces.push({ type: 'tendon_spring', tendon: out.get(k), stiffness, rest_length: model.qpos_spring[adr] - data.qpos[adr], damping });
    }
    if (limited) {
      const stop = rangeStop(cx, [model.jnt_range[2 * k], model.jnt_range[2 * k + 1]], data.qpos[adr], [model.jnt_solref[2 * k], model.jnt_solref[2 * k + 1], model.jnt_solimp[5 * k + 1]], model.dof_invweight0[model.jnt_dofadr[k]], cx.jlabel(k));
      if (stop) forces.push({ type: 'tendon_limit', tendon: out.get(k), ...stop });
    }
  }
  if (out.size) notes.push(`universal and gimbal joints: ${out.size} of their hinges carry springs, dampers, ranges or actuators, each as a Tumble tendon over its angle alone (a range: a tendon_limit, as a joint limit)`);
  return out;
}

/** A MuJoCo range [lo, hi] of a coordinate or tendon at `q0` at the start as a tendon limit's
 * { lower, upper, stiffness, restitution } (bounds from the start; a start outside the range
 * moves the stop it is past to the start, as the joint limits do), or null (limits disabled, an
 * empty range: a note). [r0, r1, dmax]: its solreflimit and solimplimit's dmax; `inv` the inverse
 * inertia it acts on. */
function rangeStop(cx, [lo, hi], q0, [r0, r1, dmax], inv, what) {
  const { model, notes, off } = cx;
  if (off('mjDSBL_LIMIT') || off('mjDSBL_CONSTRAINT')) { notes.push(`${what}: limits are disabled in the model: its range is left out`); return null; }
  if (!(hi - lo > 0)) { notes.push(`${what}: its range [${lo}, ${hi}] is empty: left out`); return null; }
  let [lower, upper] = [lo - q0, hi - q0];
  if (lower > 0 || upper < 0) {
    notes.push(`${what}: it starts at ${q0}, outside its range [${lo}, ${hi}]: the stop it is past is moved to the start (Tumble's stops hold the start)`);
    [lower, upper] = [Math.min(lower, 0), Math.max(upper, 0)];
  }
  return { lower, upper, ...stopOf(model, r0, r1, dmax, inv, !off('mjDSBL_REFSAFE')) };
}

/** Tendon equality `e` on a fixed tendon as a stiff tendon spring (module notes). */
function holdSpring(cx, e, index, tnames) {
  const { model, data, notes, off } = cx;
  const t = model.eq_obj1id[e];
  const nm = names(model, model.name_eqadr, model.neq)[e] || `equality ${e}`;
  if (!index.has(t)) return []; // named with its tendon
  if (model.eq_obj2id[e] >= 0) throw new Error(`tendon '${nm}': an equality between two tendons has no Tumble element (Tumble holds one fixed tendon at a length)`);
  const poly = Array.from({ length: 5 }, (_, k) => model.eq_data[11 * e + k]);
  const refsafe = !off('mjDSBL_REFSAFE');
  let [tc, z] = [model.eq_solref[2 * e], model.eq_solref[2 * e + 1]];
  const inv = model.tendon_invweight0[t];
  if (!(tc > 0 && z > 0 && inv > 0)) throw new Error(`tendon '${nm}': only MuJoCo's standard solref (time constant, damping ratio, both above 0) on a tendon with inertia has a Tumble element (a stiff tendon spring)`);
  if (refsafe) tc = Math.max(tc, 2 * model.opt.timestep);
  const w = 1 / (tc * z);
  notes.push(`tendon '${nm}': MuJoCo's soft equality holding ${tnames[t] || `tendon ${t}`} at ${model.tendon_length0[t] + poly[0]} as a stiff tendon spring (natural frequency ${Number(w.toPrecision(4))} rad/s and damping ratio ${z} on the tendon's inertia 1 / tendon_invweight0, from solref); solimp is left out`);
  return [{ type: 'tendon_spring', tendon: index.get(t), stiffness: (w * w) / inv, rest_length: model.tendon_length0[t] + poly[0] - data.ten_length[t], damping: (2 * z * w) / inv }];
}
