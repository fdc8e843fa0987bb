// from-mjcf-joints.js: the import's joint stages (fromMjModel, from-mjcf.js): a compiled MuJoCo
// model's joints and equality constraints as Tumble joints, and their order. No DOM.
//
// - Tree joints: joint anchors and axes are MuJoCo's own world ones (xanchor, xaxis) expressed
//   in the inertial frames; hinge -> revolute, ball -> spherical, slide -> prismatic, a slide and
//   a hinge on one axis -> cylindrical, free -> nothing, the other forms of several joints on one
//   body (planar, planar_slide, universal) as from-mjcf-compose.js says; a jointless body with
//   mass -> a fixed joint to its parent. A joint's armature,
//   dry friction and nonlinear damping or stiffness are named (a hinge's armature is folded into
//   the body's inertia where exact, from-mjcf-actuators.js).
// - Equalities: connect -> spherical (Tumble's two connects jN, jN:2 -> revolute), weld ->
//   fixed, between bodies or sites, when they hold at the start; a tendon equality on a
//   two-site spatial tendon held at its start length -> distance; a joint equality is a drive
//   holding its joint (from-mjcf-actuators.js). Others are refused.
// - Order: the joints Tumble wrote (j0.., jNr reversed) come back in Tumble's order and sense.
// Each stage takes `cx`, what fromMjModel has read so far. The joints are `joints` with `order`
// (per Tumble joint: { name, mj }, its name's sort key and MuJoCo joint) and `jointForces`
// ([Tumble joint, 'joint_spring' | 'slider_spring', MuJoCo joint, slide] per hinge and slide
// kept: the slide's index among the Tumble joint's slides, 0 but on a planar joint).
import { dot, sub, add, scale, cross, norm, unit, mulv, tmulv, transpose, mulm, IDENTITY, quatOf } from './mjcf-math.js';
import { flag, rows3, v3 } from './from-mjcf-read.js';
import { foldArmature } from './from-mjcf-actuators.js';
import { inFrame, dirIn } from './from-mjcf-bodies.js';
import { composeJoints, noComposition } from './from-mjcf-compose.js';

/** The joints of the kinematic tree, one Tumble joint per body that is not a frame (or none,
 * for a free body): { joints, order, jointForces } (see the header). */
export function treeJoints(cx) {
  const out = { joints: [], order: [], jointForces: [] };
  for (let i = 1; i < cx.model.nbody; i++) {
    if (cx.merged(i)) continue;
    bodyJoint(cx, out, i);
  }
  return out;
}

/** The Tumble joint of MuJoCo body i's joints to its parent, into `out`. */
function bodyJoint(cx, out, i) {
  const { mujoco, model, data, owner, index, label, jointNames, pos, notes } = cx;
  const { joints, order, jointForces } = out;
  const adr = model.body_jntadr[i], num = model.body_jntnum[i];
  const p = owner[model.body_parentid[i]];
  const list = [];
  for (let k = adr; k < adr + num; k++) list.push(k);
  const types = list.map((k) => model.jnt_type[k]);
  // MuJoCo's own world anchors and axes (the second of two hinges in a body turns the first's
  // axis: it is the parent's, not the body's, that the first keeps)
  const anchor = (k) => v3(data.xanchor, 3 * k);
  const axis = (k) => unit(v3(data.xaxis, 3 * k));
  dofNotes(cx, i, p, list, axis);
  const make = (type, k, extra = {}) => {
    const world = extra.at ?? anchor(k);
    const ax = extra.axes ?? (type === 'spherical' || type === 'fixed' ? null : [axis(k), axis(k)]);
    const j = { type, a: p === 0 ? null : index[p], point_a: inFrame(cx, p, world), b: index[i], point_b: inFrame(cx, i, extra.atB ?? world) };
    if (extra.offset) j.offset = extra.offset; // a universal joint's: b's point apart from a's
    if (ax) { j.axis_a = dirIn(cx, p, ax[0]); j.axis_b = dirIn(cx, i, ax[1]); }
    if (extra.slides) j.slides = extra.slides.map((d) => dirIn(cx, p, d));
    if (extra.middle) j.middle = dirIn(cx, i, extra.middle); // a gimbal's middle axis, in b's frame
    // a composite joint's coordinates, named by MuJoCo's joints (mjcf-names.js nameCoordinates)
    if (extra.coords) j.coordinates = extra.coords.map((c) => jointNames[c] ?? '');
    const nm = (jointNames[k] ?? '').split(':')[0];
    joints.push(j);
    order.push({ name: nm, mj: k });
    return joints.length - 1;
  };
  const jtype = mujoco.mjtJoint;
  if (num === 0) {
    make('fixed', -1, {});
    // a jointless body: welded to its parent at its own centre
    const j = joints[joints.length - 1];
    j.point_b = [0, 0, 0];
    j.point_a = inFrame(cx, p, pos[i]);
    order[order.length - 1] = { name: '', mj: -1 };
    notes.push(`${label(i)} has no joint: welded to ${label(p)} by a fixed joint`);
  } else if (num === 1 && types[0] === jtype.mjJNT_FREE.value) {
    // free: nothing
  } else if (num === 1 && types[0] === jtype.mjJNT_HINGE.value) {
    jointForces.push([make('revolute', list[0]), 'joint_spring', list[0]]);
  } else if (num === 1 && types[0] === jtype.mjJNT_BALL.value) {
    make('spherical', list[0]);
  } else if (num === 1 && types[0] === jtype.mjJNT_SLIDE.value) {
    jointForces.push([make('prismatic', list[0]), 'slider_spring', list[0]]);
  } else if (num === 2 && types.includes(jtype.mjJNT_SLIDE.value) && types.includes(jtype.mjJNT_HINGE.value)
    && norm(cross(sub(anchor(list[1]), anchor(list[0])), axis(list[0]))) < 1e-9 && Math.abs(Math.abs(dot(axis(list[0]), axis(list[1]))) - 1) < 1e-9) {
    // (a slide's anchor is where it was before it slid, the hinge's where it is: both on the axis)
    const ks = types[0] === jtype.mjJNT_SLIDE.value ? list[0] : list[1];
    const kh = ks === list[0] ? list[1] : list[0];
    const t = make('cylindrical', ks, { coords: [ks, kh] });
    jointForces.push([t, 'slider_spring', ks], [t, 'joint_spring', kh]);
  } else if (!composeJoints(cx, out, { i, list, types, make, anchor, axis })) {
    throw noComposition(cx, i, list);
  }
}

/** The notes on the joints `list` of MuJoCo body i (parent p) for what their degrees of freedom
 * carry that Tumble's joints have not: armature (a hinge's folded into the body's inertia where
 * exact), dry friction, nonlinear damping and stiffness. */
function dofNotes(cx, i, p, list, axis) {
  const { mujoco, model, index, bodies, jlabel, notes } = cx;
  const num = model.body_jntnum[i];
  for (const k of list) {
    const dofs = [6, 3, 1, 1][model.jnt_type[k]], d0 = model.jnt_dofadr[k];
    for (const [field, what] of [['dof_armature', 'armature (rotor inertia)'], ['dof_frictionloss', 'dry friction (frictionloss: Tumble has no dry joint friction)'], ['dof_dampingpoly', 'nonlinear damping (dampingpoly)']]) {
      let v = 0;
      const per = field === 'dof_dampingpoly' ? 2 : 1;
      for (let d = per * d0; d < per * (d0 + dofs); d++) v = Math.max(v, Math.abs(model[field]?.[d] ?? 0));
      // (a hinge's armature: into the body's inertia where exact, from-mjcf-actuators.js)
      const note = field === 'dof_armature' && v > 0 && model.jnt_type[k] === mujoco.mjtJoint.mjJNT_HINGE.value
        ? foldArmature({ arm: v, onWorld: p === 0 && num === 1, axisBody: dirIn(cx, i, axis(k)), inertia: bodies[index[i]].inertia, what: jlabel(k) })
        : `${jlabel(k)}: its ${what} is ignored`;
      if (v > 0 && note) notes.push(note);
    }
    if (model.jnt_stiffnesspoly && (model.jnt_stiffnesspoly[2 * k] || model.jnt_stiffnesspoly[2 * k + 1])) notes.push(`${jlabel(k)}: its nonlinear stiffness (stiffnesspoly) is ignored`);
  }
}

/** The equality constraints: loop-closing joints and rods appended to cx.joints and cx.order;
 * returns { rods (the
 * tendons held at their length: distance joints), holds (the joint equalities: drives holding a
 * joint, from-mjcf-actuators.js), tendonHolds (the equalities on fixed tendons,
 * from-mjcf-tendons.js) }. */
export function equalities(cx) {
  const { mujoco, model, notes, eqNames, noEquality } = cx;
  const eqt = mujoco.mjtEq;
  const rods = new Set();
  const holds = [], tendonHolds = [];
  for (let e = 0; e < model.neq; e++) {
    const type = model.eq_type[e];
    const kind = ['connect', 'weld', 'joint', 'tendon', 'flex', 'distance'][type] ?? 'kind of';
    const nm = eqNames[e] || `equality ${e}`;
    if (noEquality) { notes.push(`${kind} '${nm}': equality constraints are disabled in the model: ignored`); continue; }
    if (!flag(model, 'eq', e, 'active0')) { notes.push(`${kind} '${nm}' is inactive at the start: ignored`); continue; }
    if (type === eqt.mjEQ_TENDON.value) {
      // on a fixed tendon (of joints): a stiff tendon spring (from-mjcf-tendons.js)
      if (model.wrap_type[model.tendon_adr[model.eq_obj1id[e]]] === mujoco.mjtWrap.mjWRAP_JOINT.value) tendonHolds.push(e);
      else rods.add(rodJoint(cx, e, nm));
      continue;
    }
    if (type === eqt.mjEQ_JOINT.value) { holds.push(e); continue; }
    loopJoint(cx, e, kind, nm);
  }
  return { rods, holds, tendonHolds };
}

/** A tendon equality `e` (name `nm`): a tendon between two sites held at its start length
 * (tendon2 absent, all of polycoef 0) is a rod, Tumble's distance joint, into cx.joints; returns
 * the tendon. Anything else is refused. */
function rodJoint(cx, e, nm) {
  const { mujoco, model, data, owner, index, label } = cx;
  const t = model.eq_obj1id[e], adr = model.tendon_adr[t];
  const poly = Array.from({ length: 5 }, (_, k) => model.eq_data[11 * e + k]);
  const sites2 = model.tendon_num[t] === 2 && [0, 1].every((w) => model.wrap_type[adr + w] === mujoco.mjtWrap.mjWRAP_SITE.value);
  if (model.eq_obj2id[e] >= 0 || poly.some((c) => c !== 0) || !sites2) {
    throw new Error(`tendon '${nm}': only a tendon between two sites held at its start length (no tendon2, polycoef 0) has a Tumble joint (a distance joint)`);
  }
  const [s1, s2] = [model.wrap_objid[adr], model.wrap_objid[adr + 1]];
  let [i1, i2] = [owner[model.site_bodyid[s1]], owner[model.site_bodyid[s2]]];
  let [w1, w2] = [v3(data.site_xpos, 3 * s1), v3(data.site_xpos, 3 * s2)];
  if (i1 === i2) throw new Error(`tendon '${nm}' joins ${label(i1)} to itself`);
  if (norm(sub(w1, w2)) < 1e-9) throw new Error(`tendon '${nm}': its two sites coincide at the start, so a rod between them has no direction`);
  if (i2 === 0) { [i1, i2, w1, w2] = [i2, i1, w2, w1]; } // the world as Tumble's a
  cx.joints.push({ type: 'distance', a: i1 === 0 ? null : index[i1], point_a: inFrame(cx, i1, w1), b: index[i2], point_b: inFrame(cx, i2, w2), length: norm(sub(w2, w1)) });
  cx.order.push({ name: nm, mj: -1 });
  return t;
}

/** A body's frame (not its inertial frame), world: { x, r }. */
const frame = (cx, i) => ({ x: v3(cx.data.xpos, 3 * i), r: rows3(cx.data.xmat, 9 * i) });
/** A point given in MuJoCo body i's frame, world. */
const atBody = (cx, i, local) => add(frame(cx, i).x, mulv(frame(cx, i).r, local));

/** A connect or weld `e` (of kind `kind`, name `nm`) between bodies or sites as a Tumble joint
 * into cx.joints: connect -> spherical, Tumble's two connects jN, jN:2 -> revolute, weld -> fixed.
 * It must hold at the start; other kinds are refused. */
function loopJoint(cx, e, kind, nm) {
  const { mujoco, model, data, owner, index, label, eqNames, joints, order } = cx;
  const eqt = mujoco.mjtEq;
  const SITE = mujoco.mjtObj.mjOBJ_SITE.value, BODY = mujoco.mjtObj.mjOBJ_BODY.value;
  const type = model.eq_type[e], objtype = model.eq_objtype[e];
  if ((type !== eqt.mjEQ_CONNECT.value && type !== eqt.mjEQ_WELD.value) || (objtype !== BODY && objtype !== SITE)) {
    throw new Error(`${kind} '${nm}': this equality constraint has no Tumble joint (Tumble closes loops with connect and weld between bodies or sites)`);
  }
  if (/:2$/.test(nm) && type === eqt.mjEQ_CONNECT.value && eqNames.includes(nm.slice(0, -2))) return; // the second connect of a revolute loop Tumble wrote
  // the two bodies and the constrained points on each, world (MuJoCo's own: a connect's
  // anchor on body2 is the one its compiler stored, eq_data[3..5])
  const site = objtype === SITE;
  const o1 = model.eq_obj1id[e], o2 = model.eq_obj2id[e];
  let b1 = site ? model.site_bodyid[o1] : o1, b2 = site ? model.site_bodyid[o2] : o2;
  let w1 = site ? v3(data.site_xpos, 3 * o1) : atBody(cx, b1, v3(model.eq_data, 11 * e));
  let w2 = site ? v3(data.site_xpos, 3 * o2) : type === eqt.mjEQ_CONNECT.value ? atBody(cx, b2, v3(model.eq_data, 11 * e + 3)) : w1;
  [b1, b2] = [owner[b1], owner[b2]];
  if (b1 === b2) throw new Error(`${kind} '${nm}' joins ${label(b1)} to itself`);
  const gap = norm(sub(w1, w2));
  if (gap > 1e-6) throw new Error(`${kind} '${nm}': its two points are ${gap.toExponential(2)} m apart at the start; Tumble's joints hold from the start (to 1e-6 m)`);
  let swapped = false;
  if (b1 === 0) { [b1, b2, w1, w2] = [b2, b1, w2, w1]; swapped = true; } // the world as Tumble's a
  const j = { type: 'spherical', a: b2 === 0 ? null : index[b2], point_a: inFrame(cx, b2, w2), b: index[b1], point_b: inFrame(cx, b1, w1) };
  if (type === eqt.mjEQ_CONNECT.value) {
    const base = nm.split(':')[0];
    const pair = eqNames.indexOf(`${base}:2`);
    if (pair >= 0 && !site && model.eq_type[pair] === type && model.eq_obj1id[pair] === o1 && model.eq_obj2id[pair] === o2 && !swapped) {
      // two connects on a line (Tumble's revolute loop): a revolute joint about it, at their midpoint
      const u1 = atBody(cx, b1, v3(model.eq_data, 11 * pair)), u2 = atBody(cx, b2, v3(model.eq_data, 11 * pair + 3));
      const mid1 = scale(add(w1, u1), 0.5), mid2 = scale(add(w2, u2), 0.5), ax = unit(sub(w1, u1));
      Object.assign(j, { type: 'revolute', point_a: inFrame(cx, b2, mid2), point_b: inFrame(cx, b1, mid1), axis_a: dirIn(cx, b2, ax), axis_b: dirIn(cx, b1, ax) });
    }
    joints.push(j);
    order.push({ name: base, mj: -1 });
  } else {
    weldHolds(cx, e, nm, site, o1, o2);
    if (!site) Object.assign(j, { point_a: inFrame(cx, b2, cx.pos[b1]), point_b: [0, 0, 0] }); // at body1's centre
    j.type = 'fixed';
    joints.push(j);
    order.push({ name: nm, mj: -1 });
  }
}

/** Refuses weld `e` unless it holds the frames (body frames o1, o2, or the sites' frames) at the
 * relative pose they start in: Tumble's fixed joint holds the start's. */
function weldHolds(cx, e, nm, site, o1, o2) {
  const { model, data } = cx;
  let rel;
  if (site) {
    rel = mulm(transpose(rows3(data.site_xmat, 9 * o1)), rows3(data.site_xmat, 9 * o2));
  } else {
    const f1 = frame(cx, o1), f2 = frame(cx, o2);
    const dp = norm(sub(tmulv(f1.r, sub(f2.x, f1.x)), v3(model.eq_data, 11 * e + 3)));
    if (dp > 1e-6) throw new Error(`weld '${nm}': its relpose is ${dp.toExponential(2)} m from where the bodies are at the start; Tumble's fixed joint holds the start's relative pose`);
    const q = quatOf(mulm(transpose(f1.r), f2.r)), qr = [3, 4, 5, 6].map((k) => model.eq_data[11 * e + 3 + k]);
    rel = 1 - Math.abs(dot([q[1], q[2], q[3]], [qr[1], qr[2], qr[3]]) + q[0] * qr[0]) / Math.hypot(...qr) > 1e-12 ? null : IDENTITY;
  }
  const turn = rel === null ? Infinity : Math.acos(Math.min(1, (rel[0][0] + rel[1][1] + rel[2][2] - 1) / 2));
  if (turn > 1e-6) throw new Error(`weld '${nm}': ${site ? 'its sites\' frames differ' : 'its relpose turns the bodies'} from their start; Tumble's fixed joint holds the start's relative pose`);
}

/** Tumble's joint order, when Tumble wrote the names (j0.., all of them); a reversed tree joint
 * (jNr) is turned back in place. Returns { idx (output place -> joint), where (joint -> output
 * place), reversed (joint -> Tumble wrote it reversed) }. */
export function jointOrder({ joints, order }) {
  const keyed = order.every((o) => /^j\d+r?$/.test(o.name));
  const idx = joints.map((_, k) => k);
  if (keyed) {
    idx.sort((x, y) => parseInt(order[x].name.slice(1), 10) - parseInt(order[y].name.slice(1), 10));
    joints.forEach((j, k) => {
      if (!order[k].name.endsWith('r')) return;
      [j.a, j.b] = [j.b, j.a];
      [j.point_a, j.point_b] = [j.point_b, j.point_a];
      if (j.axis_a) [j.axis_a, j.axis_b] = [j.axis_b, j.axis_a];
    });
  }
  const where = new Array(joints.length);
  idx.forEach((k, pos) => { where[k] = pos; });
  return { idx, where, reversed: (t) => keyed && order[t].name.endsWith('r') };
}
