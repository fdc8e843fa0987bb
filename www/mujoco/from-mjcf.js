// from-mjcf.js: MuJoCo models as Tumble systems. MJCF text is compiled by MuJoCo's own
// compiler (compileMjcf, from-mjcf-compile.js: so every default, class, fromto and
// inertia-from-geometry rule is MuJoCo's), and fromMjModel(mujoco, model) -> { system, notes,
// keyframes } reads the compiled model; it throws an Error naming the element when the model
// cannot be represented. No DOM.
//
// fromMjModel reads the compiled model at its first keyframe (or qpos0) after mj_forward, in
// stages, each in the file that gives its rules:
//   1. bodies (from-mjcf-bodies.js): which bodies are kept (a frame without mass or joint is
//      merged into its parent), the options that switch forces off, each body's inertial frame,
//      mass, inertia and velocities, and the size drawn;
//   2. joints (from-mjcf-joints.js): the tree's joints, then the equality constraints that close
//      loops or hold rods, then Tumble's order of them;
//   3. force elements: the drives holding a joint (joint equalities) and the actuators
//      (from-mjcf-actuators.js), joint springs and tendon springs (from-mjcf-springs.js), joint
//      ranges as stops (from-mjcf-contact.js);
//   4. contact (from-mjcf-contact.js): collision geoms as shapes and planes;
//   5. assembly: the elements' order and names (mjcf-names.js), the system, a last check that
//      every number is finite.
// Everything else is named in `notes` (ignored) or refused (Error); the notes come in the order
// of the stages.
import { names, flag } from './from-mjcf-read.js';
import { MAX_BODIES } from './from-mjcf-compile.js';
import { bodyTree, modelOptions, bodyStates, drawSizes } from './from-mjcf-bodies.js';
import { treeJoints, equalities, jointOrder } from './from-mjcf-joints.js';
import { jointSprings, tendonSprings } from './from-mjcf-springs.js';
import { fixedTendons } from './from-mjcf-tendons.js';
import { jointLimits, collision } from './from-mjcf-contact.js';
import { actuatorForces, jointHolds } from './from-mjcf-actuators.js';
import { nameElements, carriedNames, nameCoordinates } from './mjcf-names.js';

/** The Tumble system of compiled MuJoCo model `model` at its keyframe `keyframe` (an index or a
 * name; the first by default, qpos0 without one): { system, notes, keyframes (the keyframes'
 * names, 'key N' for an unnamed one: each a start to choose), options (the model's own
 * { integrator, solver }, as toMjcf takes them: what MuJoCo beside runs it with) }. Throws an
 * Error naming the element where the model cannot be represented. */
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
    // what the stages read and add to, step by step
    const cx = { mujoco, model, data, notes, key };
    cx.jointNames = names(model, model.name_jntadr, model.njnt);
    cx.eqNames = names(model, model.name_eqadr, model.neq);
    cx.jlabel = (k) => `joint '${cx.jointNames[k] || k}'`;
    // 1. bodies: which are kept, the options, their states and sizes
    Object.assign(cx, bodyTree(cx)); // bodyNames, label, merged, owner, kept, tumbleOrder, index
    if (model.nkey > 1) notes.push(`keyframes: '${keyframes[key]}' is the start (${model.nkey} to choose from)`);
    Object.assign(cx, modelOptions(cx)); // off, noGravity, noSpring, noDamper, noEquality, noActuation
    Object.assign(cx, bodyStates(cx)); // pos, rot (inertial frames), bodies
    drawSizes(cx);
    // 2. joints: the tree's, the equalities', their order
    Object.assign(cx, treeJoints(cx)); // joints, order, jointForces
    Object.assign(cx, equalities(cx)); // rods, holds; the loops' joints join cx.joints
    Object.assign(cx, jointOrder(cx)); // idx, where, reversed
    // 3. force elements
    const drives = jointHolds({ ...cx, eqs: cx.holds });
    const fixed = fixedTendons(cx); // tendons, forces, index
    cx.tendonIndex = fixed.index;
    cx.hingeTendons = fixed.hinges;
    const forces = [...jointSprings(cx), ...jointLimits(cx), ...tendonSprings(cx), ...fixed.forces, ...actuators(cx)];
    // 4. contact
    const contact = contacts(cx);
    if (model.nflex) notes.push(`flex (${model.nflex}): ignored`);
    if (model.nsensor) notes.push(`sensors (${model.nsensor}): ignored (they do not act on the motion)`);
    // 5. the system
    const system = assemble(cx, forces, drives, contact);
    if (fixed.tendons.length) system.tendons = fixed.tendons;
    return { system, notes, keyframes, options: ownOptions(model) };
  } finally {
    data.delete();
  }
}

/** The actuators: motors, position and velocity servos at the start's control
 * (from-mjcf-actuators.js). */
function actuators(cx) {
  const { model, data } = cx;
  return actuatorForces({ ...cx, names: names(model, model.name_actuatoradr, model.nu), flag,
    qStart: (k) => data.qpos[model.jnt_qposadr[k]] });
}

/** The collision geoms as shapes (set on cx.bodies) and planes: the `contact` section, or null
 * (from-mjcf-contact.js). Bodies joined by a joint, where bodies welded together by fixed joints
 * count as one (Tumble's rule, crates/tumble/src/contact/compile.rs joined_pairs, as MuJoCo's weld
 * bodies), never touch: told apart for MuJoCo's <exclude> and for shapes that could touch nothing. */
function contacts(cx) {
  const { joints, bodies } = cx;
  const weld = bodies.map((_, k) => k);
  const find = (k) => { while (weld[k] !== k) k = weld[k]; return k; };
  for (const j of joints) {
    if (j.type !== 'fixed' || j.a == null) continue;
    const [x, y] = [find(j.a), find(j.b)];
    weld[Math.max(x, y)] = Math.min(x, y);
  }
  const joinedPairs = new Set(joints.filter((j) => j.a != null).map((j) => `${Math.min(find(j.a), find(j.b))} ${Math.max(find(j.a), find(j.b))}`));
  const tumbleJoined = (a, b) => find(a) === find(b) || joinedPairs.has(`${Math.min(find(a), find(b))} ${Math.max(find(a), find(b))}`);
  const { shapes, contact } = collision({ ...cx, tumbleJoined });
  shapes.forEach((list, b) => { if (list) bodies[b].shapes = list; });
  return contact;
}

/** The system: force elements in their order (those Tumble wrote, f0, f1, ..., in theirs, the
 * joints' springs first), bodies and joints named, gravity and the step from the model's
 * options. Throws where a number is not finite. */
function assemble(cx, forces, drives, contact) {
  const { model, notes, bodies, joints, order, idx, kept, bodyNames, label, tumbleOrder, noGravity } = cx;
  forces.sort((x, y) => (x.key ?? -1) - (y.key ?? -1));
  for (const f of forces) delete f.key;
  // MuJoCo's names as Tumble's (mjcf-names.js); a model Tumble wrote (bodies b0..) carries
  // the Tumble names in <custom> texts, its joints by their j0.. names
  const sysJoints = idx.map((k) => joints[k]);
  const carried = carriedNames(model, names);
  // a Tumble-written joint's number (its name j3 or j3r), -1 for another
  const jointKey = (t) => Number(/^j(\d+)r?$/.exec(order[idx[t]].name)?.[1] ?? -1);
  const jointName = (t) => carried.joint.get(jointKey(t)) ?? '';
  nameElements(bodies, tumbleOrder ? bodies.map((_, b) => carried.body.get(b) ?? '') : kept.map((i) => bodyNames[i]), (b) => (tumbleOrder ? `body b${b}` : label(kept[b])), notes);
  nameElements(sysJoints, sysJoints.map((_, t) => (tumbleOrder ? jointName(t) : order[idx[t]].name)), (t) => `joint '${order[idx[t]].name}'`, notes);
  // the coordinates' names: MuJoCo's joints', or those Tumble wrote
  if (tumbleOrder) sysJoints.forEach((j, t) => { delete j.coordinates; if (carried.coordinates.has(jointKey(t))) j.coordinates = carried.coordinates.get(jointKey(t)); });
  nameCoordinates(sysJoints);
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
  return system;
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

/** The model's own integrator and constraint solver, by the names toMjcf writes (MuJoCo's
 * mjtIntegrator and mjtSolver; the solver '' for MuJoCo's default, Newton). */
export function ownOptions(model) {
  const integrator = ['Euler', 'RK4', 'implicit', 'implicitfast'][model.opt.integrator] ?? 'Euler';
  const solver = ['PGS', 'CG', ''][model.opt.solver] ?? '';
  return { integrator, solver };
}
