// from-mjcf-bodies.js: the import's first stages (fromMjModel, from-mjcf.js): which of a
// compiled MuJoCo model's bodies become Tumble bodies, the options that switch forces off, and
// each body's mass, inertia, pose and velocities. No DOM.
//
// - Bodies: a body with neither mass nor joint is only a frame (MuJoCo's way to place its
//   children): it is merged into its parent, and its children, sites and constraints belong to
//   that parent (MuJoCo orders parents before children). Bodies named b0.. (a model Tumble
//   wrote) keep Tumble's order; others MuJoCo's.
// - States: the inertial frames (xipos, ximat, body_mass, body_inertia) at the start (after
//   mj_forward), velocities from cvel; a box geom at the inertial frame gives the size drawn.
// Every stage takes `cx`, what fromMjModel has read so far ({ mujoco, model, data, notes, ... }),
// and returns what it adds; notes go to cx.notes in the order the stages run.
import { sub, add, cross, norm, tmulv } from './mjcf-math.js';
import { names, rows3, v3 } from './from-mjcf-read.js';

/** Which MuJoCo bodies become Tumble bodies: { bodyNames, label (MuJoCo body -> its name in a
 * message), merged (MuJoCo body -> it is a frame merged into its parent), owner (MuJoCo body ->
 * the MuJoCo body it moves as, 0: the ground), kept (the MuJoCo bodies kept, in MuJoCo's order),
 * tumbleOrder (bodies named b0..: Tumble's order), index (MuJoCo body -> Tumble body, -1) }. */
export function bodyTree(cx) {
  const { model, notes } = cx;
  const bodyNames = names(model, model.name_bodyadr, model.nbody);
  const label = (i) => (i === 0 ? 'the ground' : bodyNames[i] ? `body '${bodyNames[i]}'` : `body ${i}`);
  // a body with neither mass nor joint is only a frame: merged into its parent (MuJoCo orders
  // parents before children)
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
  return { bodyNames, label, merged, owner, kept, tumbleOrder, index };
}

/** What the model's options switch off, which then acts nowhere in Tumble's system either:
 * { off (a disable bit's name -> it is set), noGravity, noSpring, noDamper, noEquality,
 * noActuation }; the medium's forces are named. */
export function modelOptions(cx) {
  const { mujoco, model, notes } = cx;
  const off = (bit) => (model.opt.disableflags & mujoco.mjtDisableBit[bit].value) !== 0;
  const noGravity = off('mjDSBL_GRAVITY'), noSpring = off('mjDSBL_SPRING'), noDamper = off('mjDSBL_DAMPER');
  const noEquality = off('mjDSBL_EQUALITY') || off('mjDSBL_CONSTRAINT'), noActuation = off('mjDSBL_ACTUATION');
  if (noGravity) notes.push('gravity is disabled in the model: the system\'s gravity is 0');
  if (noSpring) notes.push('springs are disabled in the model: the joints\' and tendons\' stiffness is left out');
  if (noDamper) notes.push('dampers are disabled in the model: the joints\' and tendons\' damping is left out');
  if (model.opt.density > 0 || model.opt.viscosity > 0) notes.push(`the medium (density ${model.opt.density} kg/m^3, viscosity ${model.opt.viscosity} Pa s): its lift, drag and viscous forces are ignored`);
  return { off, noGravity, noSpring, noDamper, noEquality, noActuation };
}

/** The Tumble bodies: { pos, rot (every MuJoCo body's inertial frame, world), bodies (per
 * Tumble body: mass, inertia, position, rotation, velocity, angular_velocity) }. Reads
 * cx.kept, cx.index, cx.label. */
export function bodyStates(cx) {
  const { model, data, notes, kept, index, label } = cx;
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
  return { pos, rot, bodies };
}

/** The sizes drawn: a box geom at a body's inertial frame sets its `size` (the first such; those
 * geoms in cx.sizeGeoms, so that they are not drawn again as visual shapes). Not a geom Tumble's
 * export named as one of a body's shapes (b<body>s<shape>): that comes back as the shape. */
export function drawSizes(cx) {
  const { mujoco, model, data, owner, index, pos, bodies } = cx;
  cx.sizeGeoms = new Set();
  const geomNames = names(model, model.name_geomadr, model.ngeom);
  for (let g = 0; g < model.ngeom; g++) {
    const i = owner[model.geom_bodyid[g]];
    if (/^b\d+s\d+$/.test(geomNames[g] ?? '')) continue;
    if (i > 0 && model.geom_type[g] === mujoco.mjtGeom.mjGEOM_BOX.value && !bodies[index[i]].size) {
      const gp = v3(data.geom_xpos, 3 * g);
      if (norm(sub(gp, pos[i])) < 1e-9) {
        bodies[index[i]].size = v3(model.geom_size, 3 * g).map((x) => 2 * x);
        cx.sizeGeoms.add(g);
      }
    }
  }
}

/** A point `world` (world axes) in MuJoCo body i's inertial frame (i = 0: the world's). */
export const inFrame = (cx, i, world) => (i === 0 ? world : tmulv(cx.rot[i], sub(world, cx.pos[i])));
/** A direction `world` in MuJoCo body i's inertial frame. */
export const dirIn = (cx, i, world) => (i === 0 ? world : tmulv(cx.rot[i], world));
