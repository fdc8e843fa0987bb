// from-mjcf.js: MuJoCo models as Tumble systems. MJCF text is compiled by MuJoCo's own
// compiler (compileMjcf: so every default, class, fromto and inertia-from-geometry rule is
// MuJoCo's), and fromMjModel(mujoco, model) -> { system, notes } reads the compiled model; it
// throws an Error naming the element when the model cannot be represented. loadMujoco(url)
// loads MuJoCo's module (@mujoco/mujoco's single-threaded build). No DOM.
//
// fromMjModel reads the compiled model at its first keyframe (or qpos0) after mj_forward: bodies
// are the inertial frames (xipos, ximat, body_mass, body_inertia), joint anchors and axes MuJoCo's
// own world ones (xanchor, xaxis) expressed in those frames; hinge -> revolute, ball -> spherical,
// slide -> prismatic, a slide and a hinge on one axis -> cylindrical, two perpendicular hinges at
// one point -> universal, free -> nothing; a jointless body with mass -> a fixed joint to its
// parent, one without mass (a frame) is merged into its parent; connect -> spherical (Tumble's two
// connects jN, jN:2 -> revolute), weld -> fixed, between bodies or sites, when they hold at the
// start; a tendon equality on a two-site spatial tendon held at its start length -> distance;
// velocities from cvel; joint ranges -> joint_limit / slider_limit and collision geoms -> shapes
// and planes (from-mjcf-contact.js, whose header gives the rules). Everything else is named in
// `notes` (ignored) or refused (Error). A model of several files (includes, meshes): gatherMjcf
// and compileMjcf(mujoco, xml, { main, files }) (from-mjcf-files.js); nan and inf in the text
// are refused naming the element and attribute.
import { dot, sub, add, scale, cross, norm, unit, mulv, tmulv, transpose, mulm, IDENTITY, quatOf } from './mjcf-math.js';
import { names, flag, jointLimits, collision } from './from-mjcf-contact.js';
import { nameElements, carriedNames } from './mjcf-names.js';
import { checkFinite, compileMjcfFiles } from './from-mjcf-files.js';
import { actuatorForces, jointHolds, foldArmature } from './from-mjcf-actuators.js';

/** Largest MJCF text converted (bytes) and most bodies (Tumble's own limit). */
export const MAX_XML_BYTES = 50 * 1024 * 1024;
export const MAX_BODIES = 4096;
/** Deepest nesting of <body> elements sent to MuJoCo's wasm build: its XML reader recurses per
 * level, and past about 125 levels (a chain of 128 links) the wasm build aborts, after which the
 * module cannot be used again. Native MuJoCo reads deeper files; the export writes them. */
export const MAX_WASM_DEPTH = 100;

/** The deepest nesting of <body> elements in MJCF text (a scan of the tags, comments skipped). */
export function bodyDepth(xml) {
  let depth = 0, most = 0;
  const tags = /<!--[\s\S]*?-->|<(\/?)body\b[^>]*?(\/?)>/g;
  for (let m; (m = tags.exec(xml));) {
    if (m[0].startsWith('<!--')) continue;
    if (m[1]) depth--;
    else if (!m[2]) most = Math.max(most, ++depth);
  }
  return most;
}

const rows3 = (a, o) => [[a[o], a[o + 1], a[o + 2]], [a[o + 3], a[o + 4], a[o + 5]], [a[o + 6], a[o + 7], a[o + 8]]];
const v3 = (a, o) => [a[o], a[o + 1], a[o + 2]];

/** Load @mujoco/mujoco's single-threaded build; `url`: where mujoco.js is (default: the npm
 * package's own file, for Node). */
export async function loadMujoco(url = null) {
  const mod = await import(url ?? '@mujoco/mujoco');
  return mod.default();
}

/** The number of <body> elements of MJCF text, comments left out. */
function countBodies(xml) {
  let n = 0, from = 0;
  for (;;) {
    const i = xml.indexOf('<', from);
    if (i < 0) return n;
    if (xml.startsWith('<!--', i)) {
      const e = xml.indexOf('-->', i + 4);
      if (e < 0) return n;
      from = e + 3;
      continue;
    }
    if (xml.startsWith('<body', i) && /[\s/>]/.test(xml[i + 5] ?? '')) n++;
    from = i + 1;
  }
}

/** Compile MJCF text with MuJoCo's compiler: the model, or an Error with MuJoCo's message.
 * `several`: { main, files } (gatherMjcf's map, from-mjcf-files.js) for a model of several
 * files, `xml` then the main file's text; the checks below cover every XML file of it. */
export function compileMjcf(mujoco, xml, several = null) {
  if (typeof xml !== 'string') throw new Error('the MuJoCo model is not text');
  if (xml.length > MAX_XML_BYTES) throw new Error(`the MuJoCo model is ${(xml.length / 1048576).toFixed(0)} MB, more than the ${MAX_XML_BYTES / 1048576} MB Tumble reads`);
  if (!xml.trim()) throw new Error('the MuJoCo model is empty');
  const texts = several ? [...several.files.values()].filter((v) => typeof v === 'string') : [xml];
  // more <body> elements than Tumble takes: refused before MuJoCo compiles them (which takes
  // seconds for thousands); a model that grows past the limit when compiled (<replicate>) is
  // refused by fromMjModel after compiling
  const bodies = texts.reduce((n, t) => n + countBodies(t), 0);
  if (bodies > MAX_BODIES) throw new Error(`the MuJoCo model has ${bodies} bodies; Tumble takes at most ${MAX_BODIES}`);
  const depth = Math.max(...texts.map(bodyDepth));
  if (depth > MAX_WASM_DEPTH) throw new Error(`its bodies are nested ${depth} deep; MuJoCo's wasm build reads at most about ${MAX_WASM_DEPTH} levels (it aborts past 125), so in the page a chain of more than ${MAX_WASM_DEPTH} links cannot run in MuJoCo (native MuJoCo reads the exported file)`);
  // nan and inf: refused by name (MuJoCo would compile them into a model of NaNs)
  if (!several) checkFinite(xml); // (gatherMjcf checked each file of several)
  if (several) return compileMjcfFiles(mujoco, several.main, several.files);
  try {
    return mujoco.MjModel.from_xml_string(xml);
  } catch (e) {
    const msg = typeof e === 'object' && e && 'message' in e ? e.message : mujoco.getExceptionMessage?.(e)?.join(': ') ?? String(e);
    // MuJoCo's message, on one line: "Loading error: XML parse error 14: ... Line number=1: ..."
    throw new Error(`MuJoCo's compiler rejected the model: ${String(msg).replace(/^MuJoCo Error: /, '').trim().split(/\s*\n\s*/).join(' ')}`);
  }
}

/** The Tumble system of compiled MuJoCo model `model` at its keyframe `keyframe` (an index or a
 * name; the first by default, qpos0 without one): { system, notes, keyframes (the keyframes'
 * names, 'key N' for an unnamed one: each a start to choose) }. Throws an Error naming the
 * element where the model cannot be represented. */
export function fromMjModel(mujoco, model, { keyframe = 0 } = {}) {
  const notes = [];
  const keyframes = names(model, model.name_keyadr, model.nkey).map((nm, k) => nm || `key ${k}`);
  const key = model.nkey ? keyIndex(keyframes, keyframe) : -1;
  const nb = model.nbody - 1;
  if (nb < 1) throw new Error('the MuJoCo model has no body besides the world');
  if (nb > MAX_BODIES) throw new Error(`the MuJoCo model has ${nb} bodies; Tumble takes at most ${MAX_BODIES}`);
  const data = new mujoco.MjData(model);
  try {
    if (key >= 0) mujoco.mj_resetDataKeyframe(model, data, key);
    mujoco.mj_forward(model, data);
    const bodyNames = names(model, model.name_bodyadr, model.nbody);
    const jointNames = names(model, model.name_jntadr, model.njnt);
    const eqNames = names(model, model.name_eqadr, model.neq);
    const label = (i) => (i === 0 ? 'the ground' : bodyNames[i] ? `body '${bodyNames[i]}'` : `body ${i}`);
    // a body with neither mass nor joint is only a frame (MuJoCo's way to place its children): it
    // is merged into its parent, and its children, sites and constraints belong to that parent
    // (MuJoCo orders parents before children)
    const merged = (i) => i > 0 && model.body_jntnum[i] === 0 && !(model.body_mass[i] > 0);
    const owner = new Int32Array(model.nbody); // MuJoCo body -> the MuJoCo body it moves as (0: the ground)
    const kept = [];
    for (let i = 1; i < model.nbody; i++) {
      owner[i] = merged(i) ? owner[model.body_parentid[i]] : i;
      if (model.body_mocapid[i] >= 0) notes.push(`${label(i)} is a mocap body: fixed where it starts (its motion through data.mocap_pos is ignored)`);
      if (merged(i)) notes.push(`${label(i)} has neither mass nor joint: merged into ${label(owner[i])} (a frame)`);
      else kept.push(i);
    }
    if (!kept.length) throw new Error('the MuJoCo model has no body with a mass besides the world');
    // Tumble's order: bodies named b0.. (a model Tumble wrote) keep theirs; others MuJoCo's
    const keptNames = kept.map((i) => bodyNames[i]);
    const tumbleOrder = keptNames.every((nm) => /^b\d+$/.test(nm)) && new Set(keptNames).size === kept.length
      && keptNames.every((nm) => Number(nm.slice(1)) < kept.length);
    const index = new Array(model.nbody).fill(-1); // MuJoCo body -> Tumble body
    kept.forEach((i, k) => { index[i] = tumbleOrder ? Number(bodyNames[i].slice(1)) : k; });
    const jlabel = (k) => `joint '${jointNames[k] || k}'`;
    if (model.nkey > 1) notes.push(`keyframes: '${keyframes[key]}' is the start (${model.nkey} to choose from)`);
    // what the model's options switch off acts nowhere in Tumble's system either
    const off = (bit) => (model.opt.disableflags & mujoco.mjtDisableBit[bit].value) !== 0;
    const noGravity = off('mjDSBL_GRAVITY'), noSpring = off('mjDSBL_SPRING'), noDamper = off('mjDSBL_DAMPER');
    const noEquality = off('mjDSBL_EQUALITY') || off('mjDSBL_CONSTRAINT'), noActuation = off('mjDSBL_ACTUATION');
    if (noGravity) notes.push('gravity is disabled in the model: the system\'s gravity is 0');
    if (noSpring) notes.push('springs are disabled in the model: the joints\' and tendons\' stiffness is left out');
    if (noDamper) notes.push('dampers are disabled in the model: the joints\' and tendons\' damping is left out');
    if (model.opt.density > 0 || model.opt.viscosity > 0) notes.push(`the medium (density ${model.opt.density} kg/m^3, viscosity ${model.opt.viscosity} Pa s): its lift, drag and viscous forces are ignored`);
    // the inertial frames' world poses and velocities
    const pos = [], rot = [];
    for (let i = 0; i < model.nbody; i++) { pos.push(v3(data.xipos, 3 * i)); rot.push(rows3(data.ximat, 9 * i)); }
    const bodies = new Array(kept.length);
    for (const i of kept) {
      const mass = model.body_mass[i];
      if (model.body_gravcomp[i] !== 0) notes.push(`${label(i)}: its gravity compensation (gravcomp ${model.body_gravcomp[i]}) is ignored`);
      if (!(mass > 0)) throw new Error(`${label(i)} has no mass (${mass} kg): Tumble needs a mass for every body; give it an inertial or a geom, or merge it into its parent`);
      // cvel: [angular; linear] in world axes, the linear part at the subtree's centre of mass
      // of the body's tree root (mj_objectVelocity's output array does not cross the bindings)
      const w = v3(data.cvel, 6 * i), v = v3(data.cvel, 6 * i + 3);
      const c = v3(data.subtree_com, 3 * model.body_rootid[i]);
      bodies[index[i]] = {
        mass, inertia: v3(model.body_inertia, 3 * i), position: pos[i], rotation: rot[i],
        velocity: add(v, cross(w, sub(pos[i], c))), angular_velocity: tmulv(rot[i], w),
      };
    }
    // drawing sizes: a box geom at the inertial frame
    for (let g = 0; g < model.ngeom; g++) {
      const i = owner[model.geom_bodyid[g]];
      if (i > 0 && model.geom_type[g] === mujoco.mjtGeom.mjGEOM_BOX.value && !bodies[index[i]].size) {
        const gp = v3(data.geom_xpos, 3 * g);
        if (norm(sub(gp, pos[i])) < 1e-9) bodies[index[i]].size = v3(model.geom_size, 3 * g).map((x) => 2 * x);
      }
    }
    const inFrame = (i, world) => (i === 0 ? world : tmulv(rot[i], sub(world, pos[i])));
    const dirIn = (i, world) => (i === 0 ? world : tmulv(rot[i], world));
    const joints = [];
    const order = []; // per Tumble joint its sort key (the joint's name index, if Tumble wrote it)
    const jtype = mujoco.mjtJoint;
    const jointForces = [];
    for (let i = 1; i < model.nbody; i++) {
      if (merged(i)) continue;
      const adr = model.body_jntadr[i], num = model.body_jntnum[i];
      const p = owner[model.body_parentid[i]];
      const list = [];
      for (let k = adr; k < adr + num; k++) list.push(k);
      const types = list.map((k) => model.jnt_type[k]);
      const xb = v3(data.xpos, 3 * i), rb = rows3(data.xmat, 9 * i);
      // MuJoCo's own world anchors and axes (the second of two hinges in a body turns the first's
      // axis: it is the parent's, not the body's, that the first keeps)
      const anchor = (k) => v3(data.xanchor, 3 * k);
      const axis = (k) => unit(v3(data.xaxis, 3 * k));
      for (const k of list) {
        const dofs = [6, 3, 1, 1][model.jnt_type[k]], d0 = model.jnt_dofadr[k];
        for (const [field, what] of [['dof_armature', 'armature (rotor inertia)'], ['dof_frictionloss', 'dry friction (frictionloss: Tumble has no dry joint friction)'], ['dof_dampingpoly', 'nonlinear damping (dampingpoly)']]) {
          let v = 0;
          const per = field === 'dof_dampingpoly' ? 2 : 1;
          for (let d = per * d0; d < per * (d0 + dofs); d++) v = Math.max(v, Math.abs(model[field]?.[d] ?? 0));
          // (a hinge's armature: into the body's inertia where exact, from-mjcf-actuators.js)
          const note = field === 'dof_armature' && v > 0 && model.jnt_type[k] === jtype.mjJNT_HINGE.value
            ? foldArmature({ arm: v, onWorld: p === 0 && num === 1, axisBody: dirIn(i, axis(k)), inertia: bodies[index[i]].inertia, what: jlabel(k) })
            : `${jlabel(k)}: its ${what} is ignored`;
          if (v > 0 && note) notes.push(note);
        }
        if (model.jnt_stiffnesspoly && (model.jnt_stiffnesspoly[2 * k] || model.jnt_stiffnesspoly[2 * k + 1])) notes.push(`${jlabel(k)}: its nonlinear stiffness (stiffnesspoly) is ignored`);
      }
      const make = (type, k, extra = {}) => {
        const world = anchor(k);
        const ax = extra.axes ?? (type === 'spherical' || type === 'fixed' ? null : [axis(k), axis(k)]);
        const j = { type, a: p === 0 ? null : index[p], point_a: inFrame(p, world), b: index[i], point_b: inFrame(i, world) };
        if (ax) { j.axis_a = dirIn(p, ax[0]); j.axis_b = dirIn(i, ax[1]); }
        const nm = (jointNames[k] ?? '').split(':')[0];
        joints.push(j);
        order.push({ name: nm, mj: k });
        return joints.length - 1;
      };
      const same = (k1, k2) => norm(sub(anchor(k1), anchor(k2))) < 1e-9;
      if (num === 0) {
        make('fixed', -1, {});
        // a jointless body: welded to its parent at its own centre
        const j = joints[joints.length - 1];
        j.point_b = [0, 0, 0];
        j.point_a = inFrame(p, pos[i]);
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
        const t = make('cylindrical', ks);
        jointForces.push([t, 'slider_spring', ks], [t, 'joint_spring', kh]);
      } else if (num === 2 && types.every((t) => t === jtype.mjJNT_HINGE.value) && same(list[0], list[1])
        && Math.abs(dot(axis(list[0]), axis(list[1]))) < 1e-9) {
        make('universal', list[0], { axes: [axis(list[0]), axis(list[1])] });
      } else {
        throw new Error(`${label(i)} has ${num} joints (${list.map((k) => ['free', 'ball', 'slide', 'hinge'][model.jnt_type[k]]).join(', ')}) that no Tumble joint matches; Tumble takes one hinge, ball or slide, a slide and a hinge on one axis (cylindrical), two crossed hinges at one point (universal), or none`);
      }
    }
    // equality constraints
    const eqt = mujoco.mjtEq;
    const SITE = mujoco.mjtObj.mjOBJ_SITE.value, BODY = mujoco.mjtObj.mjOBJ_BODY.value;
    const frame = (i) => ({ x: v3(data.xpos, 3 * i), r: rows3(data.xmat, 9 * i) }); // body frame
    const atBody = (i, local) => add(frame(i).x, mulv(frame(i).r, local));
    const rods = new Set(); // the tendons held at their length: distance joints
    const holds = []; // the joint equalities: drives holding a joint (from-mjcf-actuators.js)
    for (let e = 0; e < model.neq; e++) {
      const type = model.eq_type[e];
      const kind = ['connect', 'weld', 'joint', 'tendon', 'flex', 'distance'][type] ?? 'kind of';
      const nm = eqNames[e] || `equality ${e}`;
      if (noEquality) { notes.push(`${kind} '${nm}': equality constraints are disabled in the model: ignored`); continue; }
      if (!flag(model, 'eq', e, 'active0')) { notes.push(`${kind} '${nm}' is inactive at the start: ignored`); continue; }
      const objtype = model.eq_objtype[e];
      if (type === eqt.mjEQ_TENDON.value) {
        // a tendon held at its start length (tendon2 absent, all of polycoef 0), between two
        // sites: a rod, Tumble's distance joint
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
        joints.push({ type: 'distance', a: i1 === 0 ? null : index[i1], point_a: inFrame(i1, w1), b: index[i2], point_b: inFrame(i2, w2), length: norm(sub(w2, w1)) });
        order.push({ name: nm, mj: -1 });
        rods.add(t);
        continue;
      }
      if (type === eqt.mjEQ_JOINT.value) { holds.push(e); continue; }
      if ((type !== eqt.mjEQ_CONNECT.value && type !== eqt.mjEQ_WELD.value) || (objtype !== BODY && objtype !== SITE)) {
        throw new Error(`${kind} '${nm}': this equality constraint has no Tumble joint (Tumble closes loops with connect and weld between bodies or sites)`);
      }
      if (/:2$/.test(nm) && type === eqt.mjEQ_CONNECT.value && eqNames.includes(nm.slice(0, -2))) continue; // the second connect of a revolute loop Tumble wrote
      // the two bodies and the constrained points on each, world (MuJoCo's own: a connect's
      // anchor on body2 is the one its compiler stored, eq_data[3..5])
      const site = objtype === SITE;
      const o1 = model.eq_obj1id[e], o2 = model.eq_obj2id[e];
      let b1 = site ? model.site_bodyid[o1] : o1, b2 = site ? model.site_bodyid[o2] : o2;
      let w1 = site ? v3(data.site_xpos, 3 * o1) : atBody(b1, v3(model.eq_data, 11 * e));
      let w2 = site ? v3(data.site_xpos, 3 * o2) : type === eqt.mjEQ_CONNECT.value ? atBody(b2, v3(model.eq_data, 11 * e + 3)) : w1;
      [b1, b2] = [owner[b1], owner[b2]];
      if (b1 === b2) throw new Error(`${kind} '${nm}' joins ${label(b1)} to itself`);
      const gap = norm(sub(w1, w2));
      if (gap > 1e-6) throw new Error(`${kind} '${nm}': its two points are ${gap.toExponential(2)} m apart at the start; Tumble's joints hold from the start (to 1e-6 m)`);
      let swapped = false;
      if (b1 === 0) { [b1, b2, w1, w2] = [b2, b1, w2, w1]; swapped = true; } // the world as Tumble's a
      const j = { type: 'spherical', a: b2 === 0 ? null : index[b2], point_a: inFrame(b2, w2), b: index[b1], point_b: inFrame(b1, w1) };
      if (type === eqt.mjEQ_CONNECT.value) {
        const base = nm.split(':')[0];
        const pair = eqNames.indexOf(`${base}:2`);
        if (pair >= 0 && !site && model.eq_type[pair] === type && model.eq_obj1id[pair] === o1 && model.eq_obj2id[pair] === o2 && !swapped) {
          // two connects on a line (Tumble's revolute loop): a revolute joint about it, at their midpoint
          const u1 = atBody(b1, v3(model.eq_data, 11 * pair)), u2 = atBody(b2, v3(model.eq_data, 11 * pair + 3));
          const mid1 = scale(add(w1, u1), 0.5), mid2 = scale(add(w2, u2), 0.5), ax = unit(sub(w1, u1));
          Object.assign(j, { type: 'revolute', point_a: inFrame(b2, mid2), point_b: inFrame(b1, mid1), axis_a: dirIn(b2, ax), axis_b: dirIn(b1, ax) });
        }
        joints.push(j);
        order.push({ name: base, mj: -1 });
      } else {
        // a weld holds the frames (body frames, or the sites' frames) at a relative pose: Tumble's
        // fixed joint holds the start's, so they must be the same
        let rel;
        if (site) {
          rel = mulm(transpose(rows3(data.site_xmat, 9 * o1)), rows3(data.site_xmat, 9 * o2));
        } else {
          const f1 = frame(o1), f2 = frame(o2);
          const dp = norm(sub(tmulv(f1.r, sub(f2.x, f1.x)), v3(model.eq_data, 11 * e + 3)));
          if (dp > 1e-6) throw new Error(`weld '${nm}': its relpose is ${dp.toExponential(2)} m from where the bodies are at the start; Tumble's fixed joint holds the start's relative pose`);
          const q = quatOf(mulm(transpose(f1.r), f2.r)), qr = [3, 4, 5, 6].map((k) => model.eq_data[11 * e + 3 + k]);
          rel = 1 - Math.abs(dot([q[1], q[2], q[3]], [qr[1], qr[2], qr[3]]) + q[0] * qr[0]) / Math.hypot(...qr) > 1e-12 ? null : IDENTITY;
        }
        const turn = rel === null ? Infinity : Math.acos(Math.min(1, (rel[0][0] + rel[1][1] + rel[2][2] - 1) / 2));
        if (turn > 1e-6) throw new Error(`weld '${nm}': ${site ? 'its sites\' frames differ' : 'its relpose turns the bodies'} from their start; Tumble's fixed joint holds the start's relative pose`);
        if (!site) Object.assign(j, { point_a: inFrame(b2, pos[b1]), point_b: [0, 0, 0] }); // at body1's centre
        j.type = 'fixed';
        joints.push(j);
        order.push({ name: nm, mj: -1 });
      }
    }
    // Tumble's joint order, when Tumble wrote the names; a reversed tree joint (jNr) turned back
    const keyed = order.every((o) => /^j\d+r?$/.test(o.name));
    let idx = joints.map((_, k) => k);
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
    const forces = [];
    const drives = jointHolds({ mujoco, model, data, eqs: holds, eqNames, notes, jointForces, where, jlabel });
    // joint springs and dampers (a Tumble joint_spring or slider_spring only on a hinge or slide
    // that became a revolute, prismatic or cylindrical joint: the others' are named)
    for (let k = 0; k < model.njnt; k++) {
      if (jointForces.some(([, , kk]) => kk === k)) continue;
      const dofs = [6, 3, 1, 1][model.jnt_type[k]], d0 = model.jnt_dofadr[k];
      let c = 0;
      for (let d = d0; d < d0 + dofs; d++) c = Math.max(c, model.dof_damping[d]);
      if ((model.jnt_stiffness[k] > 0 && !noSpring) || (c > 0 && !noDamper)) notes.push(`${jlabel(k)}: its stiffness ${model.jnt_stiffness[k]} and damping ${c} are ignored (Tumble's joint springs act on revolute, prismatic and cylindrical joints only)`);
    }
    for (const [t, kind, k] of jointForces) {
      const kk = noSpring ? 0 : model.jnt_stiffness[k], c = noDamper ? 0 : model.dof_damping[model.jnt_dofadr[k]];
      if (!(kk > 0 || c > 0)) continue;
      const q = data.qpos[model.jnt_qposadr[k]];
      const sign = keyed && order[t].name.endsWith('r') ? -1 : 1;
      const rest = sign * (model.qpos_spring[model.jnt_qposadr[k]] - q);
      forces.push(kind === 'joint_spring'
        ? { type: 'joint_spring', joint: where[t], stiffness: kk, rest_angle: rest, damping: c }
        : { type: 'slider_spring', joint: where[t], stiffness: kk, rest_slide: rest, damping: c });
    }
    // joint ranges -> Tumble's stops (from-mjcf-contact.js)
    forces.push(...jointLimits({ mujoco, model, data, notes, jlabel, off, jointForces, where, reversed: (t) => keyed && order[t].name.endsWith('r') }));
    // tendons: spatial between two sites -> springs
    const siteBody = (sid) => owner[model.site_bodyid[sid]];
    for (let t = 0; t < model.ntendon; t++) {
      if (rods.has(t)) continue; // a distance joint's (above)
      const adr = model.tendon_adr[t], num = model.tendon_num[t];
      const kinds = [];
      for (let w = adr; w < adr + num; w++) kinds.push(model.wrap_type[w]);
      const tname = names(model, model.name_tendonadr, model.ntendon)[t] || `tendon ${t}`;
      if (num !== 2 || !kinds.every((k) => k === mujoco.mjtWrap.mjWRAP_SITE.value)) {
        notes.push(`${tname}: a tendon with pulleys or wrapping (or of joints) has no Tumble element: ignored`);
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
      const spring = { type: 'spring', a: i1 === 0 ? null : index[i1], point_a: inFrame(i1, w1), b: index[i2], point_b: inFrame(i2, w2), stiffness, rest_length: lo, damping };
      if (i2 === 0) Object.assign(spring, { a: index[i1], point_a: inFrame(i1, w1), b: null });
      if (spring.b == null) { const tmp = { ...spring }; Object.assign(spring, { a: null, point_a: w2, b: tmp.a, point_b: tmp.point_a }); }
      spring.key = /^f\d+$/.test(tname) ? Number(tname.slice(1)) : Infinity;
      forces.push(spring);
    }
    // actuators: motors, position and velocity servos at the start's control (from-mjcf-actuators.js)
    forces.push(...actuatorForces({ mujoco, model, key, notes, names: names(model, model.name_actuatoradr, model.nu), jointForces, where,
      reversed: (t) => keyed && order[t].name.endsWith('r'), flag, off, noActuation, qStart: (k) => data.qpos[model.jnt_qposadr[k]] }));
    // collision geoms -> shapes and planes (from-mjcf-contact.js)
    const joinedPairs = new Set(joints.filter((j) => j.a != null).map((j) => `${Math.min(j.a, j.b)} ${Math.max(j.a, j.b)}`));
    const tumbleJoined = (a, b) => joinedPairs.has(`${Math.min(a, b)} ${Math.max(a, b)}`);
    const { shapes, contact } = collision({ mujoco, model, data, notes, owner, index, rot, pos, label, tumbleJoined });
    shapes.forEach((list, b) => { if (list) bodies[b].shapes = list; });
    if (model.nflex) notes.push(`flex (${model.nflex}): ignored`);
    if (model.nsensor) notes.push(`sensors (${model.nsensor}): ignored (they do not act on the motion)`);
    // the elements Tumble wrote (f0, f1, ...) in their order, the joints' springs first
    forces.sort((x, y) => (x.key ?? -1) - (y.key ?? -1));
    for (const f of forces) delete f.key;
    // MuJoCo's names as Tumble's (mjcf-names.js); a model Tumble wrote (bodies b0..) carries
    // the Tumble names in <custom> texts, its joints by their j0.. names
    const sysJoints = idx.map((k) => joints[k]);
    const carried = carriedNames(model, names);
    const jointName = (t) => { const m = /^j(\d+)r?$/.exec(order[idx[t]].name); return m ? carried.joint.get(Number(m[1])) ?? '' : ''; };
    nameElements(bodies, tumbleOrder ? bodies.map((_, b) => carried.body.get(b) ?? '') : kept.map((i) => bodyNames[i]), (b) => (tumbleOrder ? `body b${b}` : label(kept[b])), notes);
    nameElements(sysJoints, sysJoints.map((_, t) => (tumbleOrder ? jointName(t) : order[idx[t]].name)), (t) => `joint '${order[idx[t]].name}'`, notes);
    const system = {
      gravity: noGravity ? [0, 0, 0] : Array.from(model.opt.gravity), dt: model.opt.timestep, duration: 10,
      bodies, joints: sysJoints,
      ...(forces.length ? { forces } : {}),
      ...(drives.length ? { drives } : {}),
      ...(contact ? { contact } : {}),
    };
    // a backstop for what the scan of the text cannot see (a number that overflows as MuJoCo
    // compiles it): JSON would write a non-finite number as null
    const bad = nonFinite(system);
    if (bad) throw new Error(`the converted system has a non-finite number at ${bad}: the MuJoCo model's numbers overflow or are not numbers`);
    return { system, notes, keyframes };
  } finally {
    data.delete();
  }
}

/** The index of keyframe `which` (an index, a name, or an index as text) among `keyframes`. */
function keyIndex(keyframes, which) {
  const k = typeof which === 'number' ? which : keyframes.indexOf(String(which)) >= 0 ? keyframes.indexOf(String(which)) : /^\d+$/.test(String(which)) ? Number(which) : -1;
  if (!(Number.isInteger(k) && k >= 0 && k < keyframes.length)) throw new Error(`the model has no keyframe '${which}' (it has ${keyframes.map((n) => `'${n}'`).join(', ')})`);
  return k;
}

/** The path of the first number of `v` that is not finite ('bodies[0].position[2]'), or ''. */
function nonFinite(v, path = '') {
  if (typeof v === 'number') return Number.isFinite(v) ? '' : path || '(the value)';
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const p = nonFinite(x, Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
      if (p) return p;
    }
  }
  return '';
}
