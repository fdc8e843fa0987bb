// from-mjcf-springs.js: the import's spring stages (fromMjModel, from-mjcf.js): a compiled
// MuJoCo model's joint stiffness and damping and its spatial tendons as Tumble force elements.
// No DOM.
//
// - A hinge's or slide's stiffness and damping -> a `joint_spring` or `slider_spring` on the
//   revolute, prismatic, cylindrical, planar or planar_slide joint it became, its rest angle or
//   slide measured from the start (qpos_spring - q at the start, negated for a joint Tumble wrote reversed, jNr);
//   the other joints' are named.
// - A spatial tendon between two sites with stiffness or damping -> a `spring` between the two
//   points (its dead band's lower end the rest length); one with a range (`limited`) -> a `rope`
//   of its upper end's length (the ball_in_cup's string), its stop from solreflimit and solimplimit as
//   the tendon limits'; tendons with pulleys or wrapping, or with neither stiffness, damping nor
//   range are named (fixed tendons: from-mjcf-tendons.js).
// Each stage takes `cx`, what fromMjModel has read so far, and returns force elements.
import { flag, names, slideOf, v3 } from './from-mjcf-read.js';
import { inFrame } from './from-mjcf-bodies.js';
import { stopOf } from './from-mjcf-contact.js';

/** The joint springs and dampers: a Tumble joint_spring or slider_spring only on a hinge or
 * slide that became a revolute, prismatic, cylindrical or planar joint (cx.jointForces); the others'
 * stiffness and damping are named. */
export function jointSprings(cx) {
  const { model, data, notes, jlabel, jointForces, where, reversed, noSpring, noDamper } = cx;
  const forces = [];
  for (let k = 0; k < model.njnt; k++) {
    if (jointForces.some(([, , kk]) => kk === k)) continue;
    const dofs = [6, 3, 1, 1][model.jnt_type[k]], d0 = model.jnt_dofadr[k];
    let c = 0;
    for (let d = d0; d < d0 + dofs; d++) c = Math.max(c, model.dof_damping[d]);
    if ((model.jnt_stiffness[k] > 0 && !noSpring) || (c > 0 && !noDamper)) notes.push(`${jlabel(k)}: its stiffness ${model.jnt_stiffness[k]} and damping ${c} are ignored (Tumble's joint springs act on the hinges and slides of revolute, prismatic, cylindrical, planar and planar_slide joints only)`);
  }
  for (const [t, kind, k, slide = 0] of jointForces) {
    if (kind === 'universal_hinge') continue; // its springs are tendon springs (from-mjcf-tendons.js)
    const kk = noSpring ? 0 : model.jnt_stiffness[k], c = noDamper ? 0 : model.dof_damping[model.jnt_dofadr[k]];
    if (!(kk > 0 || c > 0)) continue;
    const q = data.qpos[model.jnt_qposadr[k]];
    const sign = reversed(t) ? -1 : 1;
    const rest = sign * (model.qpos_spring[model.jnt_qposadr[k]] - q);
    forces.push(kind === 'joint_spring'
      ? { type: 'joint_spring', joint: where[t], stiffness: kk, rest_angle: rest, damping: c }
      : { type: 'slider_spring', joint: where[t], ...slideOf(slide), stiffness: kk, rest_slide: rest, damping: c });
  }
  return forces;
}

/** The spatial tendons between two sites as springs and, where limited, ropes, each with `key`
 * (its place among the elements Tumble wrote, f0, f1, ...: Infinity for others); cx.rods (the
 * tendons that became distance joints) are skipped. */
export function tendonSprings(cx) {
  const { mujoco, model, notes, rods, noSpring, noDamper } = cx;
  const forces = [];
  for (let t = 0; t < model.ntendon; t++) {
    if (rods.has(t)) continue; // a distance joint's (equalities, from-mjcf-joints.js)
    const adr = model.tendon_adr[t], num = model.tendon_num[t];
    const kinds = [];
    for (let w = adr; w < adr + num; w++) kinds.push(model.wrap_type[w]);
    const tname = names(model, model.name_tendonadr, model.ntendon)[t] || `tendon ${t}`;
    if (num && model.wrap_type[adr] === mujoco.mjtWrap.mjWRAP_JOINT.value) continue; // a fixed tendon: from-mjcf-tendons.js
    if (num !== 2 || !kinds.every((k) => k === mujoco.mjtWrap.mjWRAP_SITE.value)) {
      notes.push(`${tname}: a tendon with pulleys or wrapping has no Tumble element: ignored`);
      continue;
    }
    const key = /^f\d+$/.test(tname) ? Number(tname.slice(1)) : Infinity;
    const ends = siteEnds(cx, model.wrap_objid[adr], model.wrap_objid[adr + 1]);
    if (!ends) { notes.push(`${tname}: both its sites are on the world: it acts on nothing, left out`); continue; }
    const lo = model.tendon_lengthspring[2 * t], hi = model.tendon_lengthspring[2 * t + 1];
    const stiffness = noSpring ? 0 : model.tendon_stiffness[t], damping = noDamper ? 0 : model.tendon_damping[t];
    const rope = flag(model, 'tendon', t, 'limited') ? ropeOf(cx, t, tname, ends) : null;
    if (rope) forces.push({ ...rope, key });
    if (model.tendon_frictionloss[t] > 0) notes.push(`${tname}: its dry friction (frictionloss) is ignored`);
    for (const f of ['tendon_stiffnesspoly', 'tendon_dampingpoly']) if (model[f] && (model[f][2 * t] || model[f][2 * t + 1])) notes.push(`${tname}: its nonlinear ${f.slice(7)} is ignored`);
    if (!(stiffness > 0 || damping > 0)) {
      if (!rope) notes.push(`${tname}: a tendon with neither stiffness nor damping exerts no force of its own: left out`);
      continue;
    }
    if (lo !== hi) notes.push(`${tname}: its dead band ${lo} m to ${hi} m becomes the rest length ${lo} m`);
    forces.push({ type: 'spring', ...ends, stiffness, rest_length: lo, damping, key });
  }
  return forces;
}

/** The ends of a tendon between sites s1 and s2: { a, point_a, b, point_b } in Tumble's bodies
 * (a null for the ground, its point then global; a site on the world is made end a), or null
 * when both are on the world. */
function siteEnds(cx, s1, s2) {
  const { model, data, owner, index } = cx;
  let [i1, i2] = [owner[model.site_bodyid[s1]], owner[model.site_bodyid[s2]]];
  let w1 = v3(data.site_xpos, 3 * s1), w2 = v3(data.site_xpos, 3 * s2);
  if (i2 === 0) [i1, i2, w1, w2] = [i2, i1, w2, w1];
  if (i2 === 0) return null;
  return { a: i1 === 0 ? null : index[i1], point_a: i1 === 0 ? w1 : inFrame(cx, i1, w1), b: index[i2], point_b: inFrame(cx, i2, w2) };
}

/** A limited two-site spatial tendon `t` as a rope: its range's upper end the rope's length, the
 * stop's stiffness and restitution from solreflimit on the tendon's inertia (as the tendon
 * limits'), or null (limits disabled: a note). Its lower end is named where it is above 0 (a
 * rope holds a longest length only); a start beyond the upper end lengthens the rope to it. */
function ropeOf(cx, t, tname, ends) {
  const { model, data, notes, off } = cx;
  if (off('mjDSBL_LIMIT') || off('mjDSBL_CONSTRAINT')) { notes.push(`${tname}: limits are disabled in the model: its range is left out`); return null; }
  const lo = model.tendon_range[2 * t], hi = model.tendon_range[2 * t + 1], l0 = data.ten_length[t];
  if (lo > 0) notes.push(`${tname}: its range's lower end ${lo} m is left out (a Tumble rope holds a longest length only)`);
  let length = hi;
  if (!(l0 <= hi)) {
    notes.push(`${tname}: it starts ${Number(l0.toPrecision(6))} m long, beyond its range's ${hi} m: the rope is made that long (Tumble's ropes start slack or just taut)`);
    length = l0;
  }
  const stop = stopOf(model, model.tendon_solref_lim[2 * t], model.tendon_solref_lim[2 * t + 1], model.tendon_solimp_lim[5 * t + 1], model.tendon_invweight0[t], !off('mjDSBL_REFSAFE'));
  return { type: 'rope', ...ends, length, ...stop };
}
