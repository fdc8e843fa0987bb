// from-mjcf-springs.js: the import's spring stages (fromMjModel, from-mjcf.js): a compiled
// MuJoCo model's joint stiffness and damping and its spatial tendons as Tumble force elements.
// No DOM.
//
// - A hinge's or slide's stiffness and damping -> a `joint_spring` or `slider_spring` on the
//   revolute, prismatic, cylindrical, planar or planar_slide joint it became, its rest angle or
//   slide measured from the start (qpos_spring - q at the start, negated for a joint Tumble wrote reversed, jNr);
//   the other joints' are named.
// - A spatial tendon between two sites with stiffness or damping -> a `spring` between the two
//   points (its dead band's lower end the rest length); tendons with pulleys or wrapping, or
//   with neither stiffness nor damping are named (fixed tendons: from-mjcf-tendons.js).
// Each stage takes `cx`, what fromMjModel has read so far, and returns force elements.
import { flag, names, v3 } from './from-mjcf-read.js';
import { inFrame } from './from-mjcf-bodies.js';

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

/** A slider element's `slide` field: none for the first (a prismatic or cylindrical joint's one
 * slide), { slide } for a planar joint's second. */
export const slideOf = (slide) => (slide ? { slide } : {});

/** The spatial tendons between two sites as springs, each with `key` (its place among the
 * elements Tumble wrote, f0, f1, ...: Infinity for others); cx.rods (the tendons that became
 * distance joints) are skipped. */
export function tendonSprings(cx) {
  const { mujoco, model, data, notes, owner, index, rods, noSpring, noDamper } = cx;
  const forces = [];
  const siteBody = (sid) => owner[model.site_bodyid[sid]];
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
    const [s1, s2] = [model.wrap_objid[adr], model.wrap_objid[adr + 1]];
    const [i1, i2] = [siteBody(s1), siteBody(s2)];
    const w1 = v3(data.site_xpos, 3 * s1), w2 = v3(data.site_xpos, 3 * s2);
    const lo = model.tendon_lengthspring[2 * t], hi = model.tendon_lengthspring[2 * t + 1];
    const stiffness = noSpring ? 0 : model.tendon_stiffness[t], damping = noDamper ? 0 : model.tendon_damping[t];
    if (flag(model, 'tendon', t, 'limited')) notes.push(`${tname}: its length limits are ignored`);
    if (model.tendon_frictionloss[t] > 0) notes.push(`${tname}: its dry friction (frictionloss) is ignored`);
    for (const f of ['tendon_stiffnesspoly', 'tendon_dampingpoly']) if (model[f] && (model[f][2 * t] || model[f][2 * t + 1])) notes.push(`${tname}: its nonlinear ${f.slice(7)} is ignored`);
    if (!(stiffness > 0 || damping > 0)) { notes.push(`${tname}: a tendon with neither stiffness nor damping exerts no force of its own: left out`); continue; }
    if (lo !== hi) notes.push(`${tname}: its dead band ${lo} m to ${hi} m becomes the rest length ${lo} m`);
    const spring = { type: 'spring', a: i1 === 0 ? null : index[i1], point_a: inFrame(cx, i1, w1), b: index[i2], point_b: inFrame(cx, i2, w2), stiffness, rest_length: lo, damping };
    if (i2 === 0) Object.assign(spring, { a: index[i1], point_a: inFrame(cx, i1, w1), b: null });
    if (spring.b == null) { const tmp = { ...spring }; Object.assign(spring, { a: null, point_a: w2, b: tmp.a, point_b: tmp.point_a }); }
    spring.key = /^f\d+$/.test(tname) ? Number(tname.slice(1)) : Infinity;
    forces.push(spring);
  }
  return forces;
}
