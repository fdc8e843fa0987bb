// from-mjcf-contact.js: what from-mjcf.js makes of a MuJoCo model's joint ranges and collision
// geoms. No DOM.
//
// Joint ranges -> Tumble's stops (`joint_limit` on a hinge that became a revolute or cylindrical
// joint, `slider_limit` on a slide that became a prismatic or cylindrical one):
//   - bounds: MuJoCo's range is of qpos itself (qpos0, the joint's `ref`, is where the model was
//     written); Tumble's lower/upper are measured from the start (its angle and slide are 0
//     there). The start is the first keyframe or qpos0, so lower = range0 - q_start and
//     upper = range1 - q_start (swapped and negated for a joint Tumble wrote reversed, jNr). A
//     joint that starts outside its range: the stop it is past is moved to the start (a note).
//   - stiffness and restitution from the joint's solreflimit (timeconst tc, dampratio z): a
//     MuJoCo constraint pulls back like a mass-spring-damper with natural frequency
//     w = 1 / (tc z) and damping ratio z (MuJoCo's docs, "solver parameters"), and its
//     impedance d (solimp) lets only (1 - d) of the load through to that spring:
//         a1 + d b v + d^2 K r = (1 - d) a0,   K = 1 / (dmax^2 tc^2 z^2),   b = 2 / (dmax tc),
//     a0 the acceleration without the limit, a1 with it, r the depth past the range; d grows
//     from solimp's d0 at r = 0 to dmax at r = width and stays there (the suite's joints:
//     0 -> 0.99 over 0.01 rad; MuJoCo's default 0.9 -> 0.95 over 0.001). Past width, free of
//     load (a0 = 0), it rings at w = sqrt(d^2 K) = 1 / (tc z) with damping ratio z; at rest under
//     a load (a1 = v = 0) it sinks r = (1 - dmax) a0 / w^2, as a spring of w^2 / (1 - dmax) per
//     unit inertia would. Tumble's stop is one linear spring: which of the two to match? The
//     static one (choice): what a user sees of a limit is where a leg rests on it (a walker's
//     knees, a figure's hips); with w^2 alone the suite's stops (dmax 0.99) were 100 times too
//     soft and an imported walker's knees went 22 degrees past their range in its fall where
//     MuJoCo's went 4. So k = m_eff w^2 / (1 - dmax), m_eff MuJoCo's own inertia of the joint at qpos0
//     (1 / dof_invweight0), with a damping calibrated to a restitution: the rebound of MuJoCo's
//     oscillator with its force kept from pulling, as MuJoCo's constraint force is
//     (restitutionOfDampratio, mjcf-math.js: exp(-2) = 0.135 at MuJoCo's default z = 1; at
//     least Tumble's least, 0.01): the rebound is MuJoCo's, the impact sqrt(1 - dmax) times as
//     long (the law within width, softer in MuJoCo, is not followed). MuJoCo's refsafe (on by
//     default) keeps tc >= 2 timesteps; so does this. A direct solref (negative: -stiffness,
//     -damping per unit inertia, MuJoCo's K and b divided by dmax^2 and dmax as above) gives
//     w^2 = stiffness, z = damping / (2 sqrt(stiffness)).
//
// Geoms that collide (contype or conaffinity not 0) -> shapes and planes (Tumble's `contact`):
//   - plane on the world -> a Tumble plane (a half-space: MuJoCo's planes push out along +z of
//     the geom's frame too); a plane on a moving body: left out (Tumble's planes are fixed).
//   - sphere, capsule (MuJoCo's along the geom's z, as Tumble's), box -> the same shape, in the
//     inertial frame of the Tumble body (MuJoCo's ximat; offset and rotation from geom_xpos and
//     geom_xmat). Cylinder -> its bounding box (flat ends stand as the cylinder's do; a rolling
//     wheel rolls on edges), ellipsoid -> its bounding box, mesh -> the box of MuJoCo's own
//     bounding box of it (geom_aabb); each with a note. Height fields and SDFs: left out, a note.
//     Geoms on the world other than planes (static terrain): left out, a note.
//   - material. MuJoCo makes a pair's parameters from its two geoms (mj_contactParam): the
//     higher priority geom's, or, at equal priority, the larger of the two friction coefficients,
//     solref mixed by solmix (weights solmix1 / (solmix1 + solmix2); the smaller of each number
//     when either solref is direct) and the larger condim. Tumble's pair takes the smaller of two
//     restitutions and the geometric mean of two frictions. So that each shape meets the planes
//     with MuJoCo's own pair values: a plane gets restitution 1 and its MuJoCo friction f_p, a
//     shape the restitution of its pair with the first plane it touches and friction mu^2 / f_p
//     (mu the pair's: the geometric mean sqrt(f_p mu^2 / f_p) is then mu exactly; mu = f_p, the
//     usual case, reads as itself; at most 10, Tumble's largest). Friction 0 for condim 1;
//     static = kinetic (MuJoCo has one). Restitution from the pair's solref dampratio z as for the
//     limits (0.01 for MuJoCo's default z = 1). A shape that touches no plane keeps its own geom's
//     values. Young's modulus is Tumble's default (MuJoCo's stiffness is a time constant, solimp
//     an impedance, neither a material's: a note). A sphere against another shape takes the
//     smaller of the two restitutions and the geometric mean of the frictions (as set for the
//     planes): a note.
//   - who touches whom. Every pair MuJoCo collides meets in Tumble: spheres, capsules and boxes
//     meet planes and each other. A sphere against a capsule's segment or a box's face, two
//     capsules crossing and a box's corner against a face are exact in the director
//     (contact/capsule.rs, point_box.rs, box_box.rs); a box's edge against a box's edge or a
//     capsule, and two capsules near parallel, are held for a step, so the director's balance
//     through those contacts is first order in h, not exact: a note counts such pairs. (Choice:
//     until this release those pairs were kept apart for the exact balance, and the stacker's
//     boxes fell through each other and its fingers through the boxes: a wrong picture with an
//     exact balance; now they stack and grasp, with the balance's error named.) Bits: bit 0 is
//     the planes' (Tumble's planes have group 1 and mask 1): a shape that MuJoCo lets touch a
//     plane has bit 0 in its group, and no shape has it in its mask, so bit 0 brings shapes to
//     planes only. Above it four regions of FILTER_BITS bits carry MuJoCo's contype and
//     conaffinity, one for sphere-sphere, one for each way a sphere and another shape meet and
//     one for two shapes neither a sphere (filterBits), so every pair meets by MuJoCo's own rule
//     (contype of one & conaffinity of the other). MuJoCo's filterparent (a body does not touch its parent)
//     is Tumble's rule for joined bodies (bodies welded by fixed joints counting as one, as
//     MuJoCo's weld bodies); <exclude> between the world and a body keeps that body's shapes off
//     the planes, between two bodies it is Tumble's contact.exclude.
import { sub, tmulv, mulm, transpose, mulv, add, restitutionOfDampratio } from './mjcf-math.js';
import { names, flag, rows3, v3 } from './from-mjcf-read.js';
import { slideOf } from './from-mjcf-read.js';
import { ellipsoidMesh, cylinderMesh } from './mjcf-tessellate.js';

const fmt = (x) => Number(x.toPrecision(4));
/** Tumble's range of restitution. */
const E_MIN = 0.01;

/** A solref (two numbers) as { w2, z }: the squared natural frequency per unit inertia and the
 * damping ratio (see the header), tc kept at >= 2 timesteps when refsafe is on. */
function soft(r0, r1, timestep, refsafe) {
  if (r0 > 0) {
    const tc = refsafe ? Math.max(r0, 2 * timestep) : r0;
    const z = Math.max(r1, 0);
    return { w2: z > 0 ? 1 / (tc * z) ** 2 : 0, z, direct: false };
  }
  const k = -r0, b = -r1;
  return { w2: k, z: k > 0 ? b / (2 * Math.sqrt(k)) : 1, direct: true };
}

/** MuJoCo's bounds on an impedance (mjMINIMP, mjMAXIMP). */
const IMP = [1e-4, 0.9999];

/** A stop's { stiffness, restitution } from MuJoCo's solreflimit (r0, r1) and solimplimit's dmax
 * on the inertia 1 / inv (the joint's dof_invweight0, a tendon's tendon_invweight0): the static
 * stiffness w^2 / (1 - dmax) per unit inertia and the rebound at z (the header); stiffness 0,
 * Tumble's default stop, where MuJoCo gives no inertia. */
export function stopOf(model, r0, r1, dmax, inv, refsafe) {
  const s = soft(r0, r1, model.opt.timestep, refsafe);
  const d = Math.min(IMP[1], Math.max(IMP[0], dmax));
  return { stiffness: inv > 0 && s.w2 > 0 ? s.w2 / (1 - d) / inv : 0, restitution: restitution(s.z) };
}

/** Tumble's restitution for damping ratio z: restitutionOfDampratio clamped to Tumble's least. */
const restitution = (z) => Math.min(1, Math.max(E_MIN, restitutionOfDampratio(z)));

/** The stops of the limited joints. `ctx`: { mujoco, model, data, notes, jlabel, off, jointForces
 * ([tumble joint, 'joint_spring' | 'slider_spring', MuJoCo joint] per hinge and slide kept),
 * where (Tumble joint -> its place in the output), reversed(t) (a joint Tumble wrote as jNr) }.
 * Returns the force elements. */
export function jointLimits(ctx) {
  const { mujoco, model, data, notes, jlabel, off, jointForces, where, reversed } = ctx;
  const out = [];
  const limited = [];
  for (let k = 0; k < model.njnt; k++) if (flag(model, 'jnt', k, 'limited')) limited.push(k);
  if (!limited.length) return out;
  if (off('mjDSBL_LIMIT') || off('mjDSBL_CONSTRAINT')) {
    notes.push(`joint limits are disabled in the model: the ranges of ${limited.length} joint${limited.length > 1 ? 's' : ''} are left out`);
    return out;
  }
  const refsafe = !off('mjDSBL_REFSAFE');
  let made = 0;
  for (const k of limited) {
    const kept = jointForces.find(([, , kk]) => kk === k);
    if (!kept) {
      notes.push(`${jlabel(k)}: its limits are ignored (Tumble's stops act on the hinges and slides of revolute, prismatic, cylindrical, planar, planar_slide and translation joints; this one is a ${['free', 'ball', 'slide', 'hinge'][model.jnt_type[k]]} joint that became another)`);
      continue;
    }
    const [t, kind, , slide = 0] = kept;
    if (kind === 'universal_hinge') continue; // a one-term tendon's limit (from-mjcf-tendons.js)
    const q = data.qpos[model.jnt_qposadr[k]];
    const lo = model.jnt_range[2 * k], hi = model.jnt_range[2 * k + 1];
    // MuJoCo's bounds are of qpos (0 at the joint's ref); Tumble's of the motion from the start
    let lower = lo - q, upper = hi - q;
    if (reversed(t)) [lower, upper] = [-upper, -lower];
    if (!(upper - lower > 0)) {
      notes.push(`${jlabel(k)}: its range [${lo}, ${hi}] is empty: its limits are left out`);
      continue;
    }
    if (lower > 0 || upper < 0) {
      notes.push(`${jlabel(k)}: it starts at ${fmt(q)}, outside its range [${fmt(lo)}, ${fmt(hi)}]: the stop it is past is moved to the start (Tumble's stops hold the start)`);
      lower = Math.min(lower, 0);
      upper = Math.max(upper, 0);
    }
    if (model.jnt_margin[k] !== 0) notes.push(`${jlabel(k)}: its limit margin ${model.jnt_margin[k]} is ignored`);
    const inv = model.dof_invweight0[model.jnt_dofadr[k]];
    const stop = stopOf(model, model.jnt_solref[2 * k], model.jnt_solref[2 * k + 1], model.jnt_solimp[5 * k + 1], inv, refsafe);
    out.push({ type: kind === 'joint_spring' ? 'joint_limit' : 'slider_limit', joint: where[t], ...slideOf(slide), lower, upper, ...stop });
    made++;
  }
  if (made) {
    notes.push(`joint limits (${made}): MuJoCo's soft limits as Tumble's stops, bounds from the start, stiffness MuJoCo's at rest under a load (solreflimit's spring on the joint's inertia 1 / dof_invweight0, over 1 - solimplimit's dmax), restitution the rebound of MuJoCo's law at its dampratio z (a linear spring-damper kept from pulling: exp(-2) = 0.135 at MuJoCo's default z = 1); MuJoCo's softer law within solimplimit's width is not followed`);
  }
  return out;
}

/** The collision shapes and planes, and the visual shapes. `ctx`: { mujoco, model, data, notes,
 * owner (MuJoCo body -> the body it moves as, 0: world), index (MuJoCo body -> Tumble body),
 * rot, pos (inertial frames, world), label, tumbleJoined(a, b) (Tumble bodies joined by a
 * joint) }. Returns { shapes (per Tumble body, a list or undefined), contact (the section, or
 * null) }. */
export function collision(ctx) {
  const cx = { ...ctx, ...geomRules(ctx) };
  const drawn = { faces: 0 }; // the meshes' triangles taken so far (collision shapes first)
  const { shapes, contact, live, dropped } = solids(cx, drawn);
  visuals(cx, shapes, new Set([...live, ...dropped]), drawn);
  return { shapes, contact };
}

/** The collision shapes and planes, in stages: the geoms that collide, their shapes and planes,
 * the shapes' materials and filter bits, the pairs MuJoCo collides that Tumble will not, the
 * notes. Returns { shapes, contact, live (the geoms made collision shapes), dropped (the collision
 * geoms left out, with a note) }. */
function solids(cx, drawn) {
  const { mujoco, model } = cx;
  const shapes = [];
  const none = { shapes, contact: null, live: new Set(), dropped: new Set() };
  const collides = [];
  for (let g = 0; g < model.ngeom; g++) if (model.geom_contype[g] || model.geom_conaffinity[g]) collides.push(g);
  if (!collides.length) return none;
  if ((model.opt.disableflags & (mujoco.mjtDisableBit.mjDSBL_CONTACT.value | mujoco.mjtDisableBit.mjDSBL_CONSTRAINT.value)) !== 0) {
    return none; // (nothing collides in MuJoCo either: its geoms are drawn, `visuals`)
  }
  const read = readGeoms(cx, collides, drawn);
  // (the collision geoms left out with a note: not drawn either)
  const shaped = new Set(read.body.map((s) => s.g));
  const dropped = new Set(collides.filter((g) => !shaped.has(g) && !read.planeGeoms.includes(g)));
  if (!read.body.length) {
    if (read.dropped.length) cx.notes.push(`collision geoms left out: ${read.dropped.join(', ')}`);
    return { ...none, dropped };
  }
  const fit = fitMaterials(cx, read);
  const pairs = heldPairs(cx, read.body);
  // a shape that can touch nothing (one that touches no plane and no shape on a body it is not
  // joined to or excluded from) is not a collision shape (it is drawn: `visuals`)
  const meets = (s, t) => (s.group & t.mask) !== 0 || (t.group & s.mask) !== 0;
  const apart = (s, t) => !cx.isExcluded(s, t) && (!pairs.filterParent || !cx.tumbleJoined(cx.index[s.b], cx.index[t.b]));
  const live = read.body.filter((s) => (s.shape.group & 1) || read.body.some((t) => t.b !== s.b && meets(s.shape, t.shape) && apart(s, t)));
  for (const s of live) (shapes[cx.index[s.b]] ??= []).push(s.shape);
  // the meshes' triangles are those of the live shapes only: the others are read again as visual
  // shapes (`visuals`), which counts theirs then
  drawn.faces = 0;
  for (const s of live) if (s.shape.type === 'mesh') drawn.faces += s.shape.faces.length;
  contactNotes(cx, collides, read, fit, pairs, live);
  const made = new Set(live.map((s) => s.g));
  if (!live.length) return { ...none, live: made, dropped };
  const contact = { planes: read.planes };
  if (cx.exclude.length) contact.exclude = cx.exclude;
  if (!pairs.filterParent) { contact.collide_joined = true; cx.notes.push('filterparent is disabled in the model: joined bodies\' spheres touch (collide_joined)'); }
  return { shapes, contact, live: made, dropped };
}

/** The geoms MuJoCo draws that are not collision shapes (its viewer shows groups 0 to 2 and
 * geoms not fully transparent; MuJoCo's visual-only geoms have contype and conaffinity 0, as the
 * finger's distal capsule) as Tumble's visual shapes on their bodies (`"visual": true`: drawn,
 * touching nothing), with what the collision shapes left of the meshes' triangles (`drawn`); not
 * the geoms `taken` (made collision shapes, or left out as such with a note), not
 * a box that sets its body's drawn size (`drawSizes`: the body is drawn as that box).
 * Those on the world are left out (Tumble draws only its planes there), with a note. */
function visuals(cx, shapes, taken, drawn) {
  const { model, owner, notes, index } = cx;
  const seen = [];
  for (let g = 0; g < model.ngeom; g++) {
    if (taken.has(g) || cx.sizeGeoms?.has(g) || model.geom_group[g] > 2 || alpha(model, g) === 0) continue;
    if (model.geom_type[g] === cx.G.PLANE) continue; // (a plane that collides nothing)
    seen.push(g);
  }
  if (!seen.length) return;
  const onWorld = seen.filter((g) => owner[model.geom_bodyid[g]] === 0);
  const read = readGeoms(cx, seen.filter((g) => owner[model.geom_bodyid[g]] !== 0), drawn, true);
  for (const s of read.body) {
    (shapes[index[s.b]] ??= []).push({ ...s.shape, visual: true });
  }
  // (each visual shape is drawn as MuJoCo draws it: no note, but where it is not)
  const boxed = read.approx.map(([, text]) => text);
  if (boxed.length) notes.push(`visual geoms (drawn only) Tumble has no shape for, drawn as boxes around them: ${boxed.join(', ')}`);
  if (read.dropped.length) notes.push(`visual geoms left out: ${read.dropped.join(', ')}`);
  if (onWorld.length) notes.push(`${onWorld.length} visual geom${onWorld.length > 1 ? 's' : ''} on the world (such as ${cx.glabel(onWorld[0])}) not drawn: Tumble draws only its planes there`);
}

/** The opacity MuJoCo draws geom g with: its material's where it has one and its own rgba is
 * MuJoCo's default (0.5 0.5 0.5 1), else its own. */
function alpha(model, g) {
  const own = model.geom_rgba.subarray(4 * g, 4 * g + 4);
  const mat = model.geom_matid[g];
  const plain = own[0] === 0.5 && own[1] === 0.5 && own[2] === 0.5 && own[3] === 1;
  return mat >= 0 && plain ? model.mat_rgba[4 * mat + 3] : own[3];
}

/** What the collision stages share: { G (MuJoCo's geom types by name), glabel (geom -> its name
 * in a message), typeName (geom type -> its name), pair (MuJoCo's parameters of a pair of geoms),
 * e, mu (a pair's restitution and friction), clamp10, isExcluded (two shapes by <exclude>),
 * filter (two geoms by MuJoCo's contype and conaffinity) }. */
function geomRules(ctx) {
  const { mujoco, model } = ctx;
  const G = {};
  for (const k of ['PLANE', 'HFIELD', 'SPHERE', 'CAPSULE', 'ELLIPSOID', 'CYLINDER', 'BOX', 'MESH', 'SDF']) G[k] = mujoco.mjtGeom[`mjGEOM_${k}`]?.value ?? -1;
  const geomNames = names(model, model.name_geomadr, model.ngeom);
  const glabel = (g) => (geomNames[g] ? `geom '${geomNames[g]}'` : `geom ${g}`);
  const typeName = (t) => (Object.entries(G).find(([, v]) => v === t)?.[0] ?? String(t)).toLowerCase();
  const refsafe = (model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_REFSAFE.value) === 0;
  const pair = (g1, g2) => pairParams(model, g1, g2);
  const e = (p) => restitution(soft(p.solref[0], p.solref[1], model.opt.timestep, refsafe).z);
  const mu = (p) => (p.condim === 1 ? 0 : Math.max(0, p.mu));
  const clamp10 = (x) => Math.min(10, x);
  const excluded = new Set();
  for (let x = 0; x < model.nexclude; x++) {
    const sig = model.exclude_signature[x];
    excluded.add(`${sig >>> 16} ${sig & 0xffff}`);
  }
  const has = (b1, b2) => excluded.has(`${b1} ${b2}`) || excluded.has(`${b2} ${b1}`);
  // (by the geoms' own bodies, and by the bodies they move with when a frame was merged)
  const isExcluded = (s1, s2) => has(s1.mb, s2.mb) || has(s1.b, s2.b);
  const filter = (g1, g2) => (model.geom_contype[g1] & model.geom_conaffinity[g2]) !== 0 || (model.geom_contype[g2] & model.geom_conaffinity[g1]) !== 0;
  // the <exclude> pairs of two bodies as Tumble's contact.exclude (Tumble bodies, each pair once;
  // with the world: the body's shapes kept off the planes instead, readGeoms)
  const pairs = new Set();
  for (const key of excluded) {
    const [b1, b2] = key.split(' ').map(Number).map((b) => ctx.index[ctx.owner[b]]);
    if (b1 >= 0 && b2 >= 0 && b1 !== b2) pairs.add(`${Math.min(b1, b2)} ${Math.max(b1, b2)}`);
  }
  const exclude = [...pairs].map((k) => k.split(' ').map(Number)).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { G, glabel, typeName, pair, e, mu, clamp10, isExcluded, filter, exclude };
}

/** MuJoCo's parameters of the pair of geoms g1, g2 (mj_contactParam; g2 < 0: g1's own):
 * { mu, solref, condim }. */
function pairParams(model, g1, g2) {
  const ref = (g) => [model.geom_solref[2 * g], model.geom_solref[2 * g + 1]];
  if (g2 < 0) return { mu: model.geom_friction[3 * g1], solref: ref(g1), condim: model.geom_condim[g1] };
  const condim = Math.max(model.geom_condim[g1], model.geom_condim[g2]);
  const p1 = model.geom_priority[g1], p2 = model.geom_priority[g2];
  if (p1 !== p2) {
    const g = p1 > p2 ? g1 : g2;
    return { mu: model.geom_friction[3 * g], solref: ref(g), condim: p1 > p2 ? model.geom_condim[g1] : model.geom_condim[g2] };
  }
  const m1 = model.geom_solmix[g1], m2 = model.geom_solmix[g2];
  const mix = m1 < 1e-15 && m2 < 1e-15 ? 0.5 : m1 < 1e-15 ? 0 : m2 < 1e-15 ? 1 : m1 / (m1 + m2);
  const r1 = ref(g1), r2 = ref(g2);
  const solref = r1[0] > 0 && r2[0] > 0 ? [0, 1].map((i) => mix * r1[i] + (1 - mix) * r2[i]) : [0, 1].map((i) => Math.min(r1[i], r2[i]));
  return { mu: Math.max(model.geom_friction[3 * g1], model.geom_friction[3 * g2]), solref, condim };
}

// Most triangles of a model's meshes drawn as such (the rest as their boxes): some 0.6 MB of
// system text at the most, within Tumble's 1 MiB
const MESH_FACES = 20000;

// the triangles of a smooth visual geom drawn as a mesh (mjcf-tessellate.js: an ellipsoid's; a
// cylinder's are fewer)
const SMOOTH_FACES = 528;

// mesh geom g's triangle count
const meshFaces = (model, g) => model.mesh_facenum[model.geom_dataid[g]];

/** Mesh geom g as a Tumble mesh shape (its vertices in the geom's frame, as MuJoCo's compiler
 * leaves them, to float32 precision, and its triangles), or null where it would take the model
 * past MESH_FACES (counted in `drawn`) or is flat (Tumble refuses a mesh without a box: the
 * caller takes MuJoCo's box, padded). */
function meshShape(model, g, drawn) {
  const m = model.geom_dataid[g], nf = model.mesh_facenum[m], nv = model.mesh_vertnum[m];
  const h = model.geom_aabb.subarray(6 * g + 3, 6 * g + 6);
  if (drawn.faces + nf > MESH_FACES || Math.min(...h) < 1e-6) return null;
  drawn.faces += nf;
  const v0 = model.mesh_vertadr[m], f0 = model.mesh_faceadr[m];
  const vertices = [], faces = [];
  for (let i = 0; i < nv; i++) vertices.push([0, 1, 2].map((k) => +model.mesh_vert[3 * (v0 + i) + k].toPrecision(7)));
  for (let i = 0; i < nf; i++) faces.push([0, 1, 2].map((k) => model.mesh_face[3 * (f0 + i) + k]));
  return { type: 'mesh', vertices, faces };
}

/** The geoms `collides` as planes and shapes (meshes' triangles counted in `drawn.faces`; for
 * `visual` shapes, cylinders and ellipsoids as meshes too, mjcf-tessellate.js): { planes (Tumble's), planeGeoms (their
 * geoms), body (per shape: { g, b (the MuJoCo body it moves with), mb (its own), shape }),
 * approx ([geom, note] of the boxes around other geoms), meshes ([geom, note] of the mesh
 * shapes), dropped (notes of the geoms left out),
 * wide (geoms using contype or conaffinity bits from FILTER_BITS up) }. */
function readGeoms(cx, collides, drawn, visual = false) {
  const { model, data, owner, rot, pos, label, G, glabel, typeName, clamp10 } = cx;
  const planes = [], planeGeoms = [];
  const approx = [], dropped = [], meshes = [];
  const body = []; // per shape: { g, b (the MuJoCo body it moves with), mb (its own), shape }
  let wide = 0;
  for (const g of collides) {
    const t = model.geom_type[g], b = owner[model.geom_bodyid[g]];
    const xg = v3(data.geom_xpos, 3 * g), rg = rows3(data.geom_xmat, 9 * g);
    const size = v3(model.geom_size, 3 * g);
    if (t === G.PLANE) {
      if (b !== 0) { dropped.push(`${glabel(g)} (a plane on ${label(b)}: Tumble's planes are fixed)`); continue; }
      const f = clamp10(model.geom_friction[3 * g]);
      planes.push({ point: xg, normal: [rg[0][2], rg[1][2], rg[2][2]], material: { restitution: 1, friction: f, static_friction: f } });
      planeGeoms.push(g);
      continue;
    }
    if (b === 0) { dropped.push(`${glabel(g)} (a ${typeName(t)} fixed to the world: Tumble's fixed geometry is planes)`); continue; }
    let shape;
    let centre = xg;
    if (t === G.SPHERE) shape = { type: 'sphere', radius: size[0] };
    else if (t === G.CAPSULE) shape = { type: 'capsule', radius: size[0], half_length: size[1] };
    else if (t === G.BOX) shape = { type: 'box', half: size };
    else if ((t === G.CYLINDER || t === G.ELLIPSOID) && visual && drawn.faces + SMOOTH_FACES <= MESH_FACES) {
      // (only drawn: as its triangles; a collision shape is its box, below)
      shape = t === G.CYLINDER ? cylinderMesh(size[0], size[1]) : ellipsoidMesh(size);
      drawn.faces += shape.faces.length;
    } else if (t === G.CYLINDER || t === G.ELLIPSOID) {
      shape = { type: 'box', half: t === G.CYLINDER ? [size[0], size[0], size[1]] : size };
      approx.push([g, `${glabel(g)} (a ${typeName(t)}: its bounding box)`]);
    } else if (t === G.MESH) {
      shape = meshShape(model, g, drawn);
      if (shape) meshes.push([g, `${glabel(g)} (drawn as its ${shape.faces.length} triangles)`]);
      else {
        // MuJoCo's box of the mesh in the geom's frame: centre and half sizes
        const a = Array.from(model.geom_aabb.subarray(6 * g, 6 * g + 6));
        shape = { type: 'box', half: a.slice(3, 6).map((h) => Math.max(h, 1e-6)) };
        centre = add(xg, mulv(rg, a.slice(0, 3)));
        approx.push([g, `${glabel(g)} (a mesh: MuJoCo's bounding box of it, ${meshFaces(model, g) > MESH_FACES - drawn.faces ? `drawn as a box too: the model's meshes have more than ${MESH_FACES} triangles` : 'drawn as a box too: it is flat'})`]);
      }
    } else {
      dropped.push(`${glabel(g)} (a ${typeName(t)}: no Tumble shape)`);
      continue;
    }
    shape.offset = tmulv(rot[b], sub(centre, pos[b]));
    shape.rotation = mulm(transpose(rot[b]), rg);
    if ((model.geom_contype[g] | model.geom_conaffinity[g]) >>> FILTER_BITS) wide++;
    body.push({ g, b, mb: model.geom_bodyid[g], shape });
  }
  return { planes, planeGeoms, approx, meshes, dropped, body, wide };
}

/** Each shape's material and filter bits (see the header), set on the shapes of `read.body`:
 * { mixed (shapes that touch some planes and not others), frictionless (shapes whose pair with
 * a frictionless plane has friction) }. */
function fitMaterials(cx, read) {
  const { model, pair, e, mu, clamp10, isExcluded, filter } = cx;
  const { planes, planeGeoms, body } = read;
  let mixed = 0, frictionless = 0;
  for (const s of body) {
    // (a body welded to the world, as the manipulator's slot, is the world's in MuJoCo, whose
    // geoms never meet each other: its shapes meet no plane, and may meet moving bodies)
    const welded = model.body_weldid[s.mb] === 0;
    const touching = welded ? [] : planeGeoms.filter((p) => filter(s.g, p) && !isExcluded(s, { mb: 0, b: 0 }));
    if (touching.length && touching.length < planeGeoms.length) mixed++;
    const ground = touching.length ? 1 : 0;
    // the pair with the first plane it touches, or its own (see the header)
    const p = pair(s.g, ground ? touching[0] : -1);
    const fp = ground ? planes[planeGeoms.indexOf(touching[0])].material.friction : 0;
    const f = ground ? (fp > 0 ? clamp10(mu(p) ** 2 / fp) : 0) : clamp10(mu(p));
    s.shape.material = { restitution: e(p), friction: f, static_friction: f };
    if (ground && fp === 0 && mu(p) > 0) frictionless++;
    Object.assign(s.shape, filterBits(s.shape.type, ground, model.geom_contype[s.g], model.geom_conaffinity[s.g]));
  }
  return { mixed, frictionless };
}

/** The bits of MuJoCo's contype and conaffinity each region of Tumble's filter carries (four
 * regions and the planes' bit in 32 bits). */
export const FILTER_BITS = 7;

/** A shape's Tumble filter (see the header): { group, mask } from its type ('sphere', 'capsule'
 * or 'box'), whether it touches the planes (`ground`, 0 or 1) and MuJoCo's `contype` and
 * `conaffinity` (their low FILTER_BITS bits). Four regions above the planes' bit 0: S a
 * sphere's contype in its group and conaffinity in its mask, so spheres meet spheres; X a
 * sphere's contype in its group and another shape's conaffinity in its mask; Y another shape's
 * contype in its group and a sphere's conaffinity in its mask; C the contype of a shape not a
 * sphere in its group and its conaffinity in its mask. Every pair then meets by MuJoCo's own
 * rule (contype of one & conaffinity of the other, either way round): a sphere and another
 * shape through X and Y, two others through C (a sphere has no C, the others no S). */
export function filterBits(type, ground, contype, conaffinity) {
  const low = (1 << FILTER_BITS) - 1;
  const [ct, ca] = [contype & low, conaffinity & low];
  const S = 1, X = 1 + FILTER_BITS, Y = 1 + 2 * FILTER_BITS, C = 1 + 3 * FILTER_BITS;
  if (type === 'sphere') return { group: (ground | (ct << S) | (ct << X)) >>> 0, mask: ((ca << S) | (ca << Y)) >>> 0 };
  return { group: (ground | (ct << Y) | (ct << C)) >>> 0, mask: ((ca << X) | (ca << C)) >>> 0 };
}

/** The pairs of shapes `body` MuJoCo collides (different bodies, not parent and child) whose
 * edge contacts Tumble holds for a step: { held (pairs of a box and a box or a capsule),
 * example (the first, in words), filterParent (MuJoCo's filterparent is on) }. */
function heldPairs(cx, body) {
  const { mujoco, model, owner, index, glabel, typeName, isExcluded, filter } = cx;
  const parentOf = (b) => owner[model.body_parentid[b]];
  const filterParent = (model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_FILTERPARENT.value) === 0;
  let held = 0, example = '';
  for (let x = 0; x < body.length; x++) {
    for (let y = x + 1; y < body.length; y++) {
      const s1 = body[x], s2 = body[y];
      if (s1.b === s2.b || !filter(s1.g, s2.g)) continue;
      if (filterParent && (parentOf(s1.b) === s2.b || parentOf(s2.b) === s1.b)) continue;
      // (a box's edges against a box or a capsule: see the header)
      const types = [s1.shape.type, s2.shape.type];
      const edges = (types.includes('box') || types.includes('mesh')) && !types.includes('sphere');
      if (isExcluded(s1, s2)) continue; // (as contact.exclude in Tumble too)
      if (edges) {
        held++;
        if (!example) example = `${glabel(s1.g)} and ${glabel(s2.g)}, ${typeName(model.geom_type[s1.g])} and ${typeName(model.geom_type[s2.g])}`;
      }
    }
  }
  return { held, example, filterParent };
}

/** The notes on the contact: what became shapes and planes, boxed, left out, held, mixed. */
function contactNotes(cx, collides, read, fit, pairs, live) {
  const { model, notes, glabel } = cx;
  const { planes, planeGeoms, approx, meshes, dropped, wide } = read;
  const { mixed, frictionless } = fit;
  const { held, example } = pairs;
  if (live.length) notes.push(`contact: ${live.length} collision geom${live.length > 1 ? 's' : ''} as shapes and ${planes.length} plane${planes.length === 1 ? '' : 's'}; ${planes.length ? 'each shape meets the planes with MuJoCo\'s pair friction and' : 'each shape has its geom\'s friction and'} a restitution, the rebound of MuJoCo's law at the pair's solref dampratio z (a linear spring-damper kept from pulling: 0.135 at MuJoCo's default z = 1); Young's modulus is Tumble's default (MuJoCo's solref time constant and solimp have no counterpart)`);
  const boxed = approx.filter(([g]) => live.some((x) => x.g === g)).map(([, text]) => text);
  const meshed = meshes.filter(([g]) => live.some((x) => x.g === g)).map(([, text]) => text);
  if (meshed.length) notes.push(`mesh geoms as Tumble meshes, meeting planes with their convex hull's corners (as MuJoCo) and other shapes as their bounding boxes (MuJoCo: the hull): ${meshed.join(', ')}`);
  if (boxed.length) notes.push(`collision geoms Tumble has no shape for, as boxes around them: ${boxed.join(', ')}`);
  if (dropped.length) notes.push(`collision geoms left out: ${dropped.join(', ')}`);
  if (held) notes.push(`${held} geom pair${held > 1 ? 's' : ''} of a box and a box or a capsule (such as ${example}): where ${held > 1 ? 'they meet' : 'it meets'} at a box's edge, Tumble holds the contact point for a step, so the director's balance through that contact is first order in the step, not exact (a box's corner against a face is exact: docs/contact.md)`);
  if (mixed) notes.push(`${mixed} shape${mixed > 1 ? 's' : ''} touch some of the planes in MuJoCo and not others: in Tumble they touch every plane`);
  if (wide) notes.push(`${wide} geom${wide > 1 ? 's use' : ' uses'} contype or conaffinity bits from ${FILTER_BITS} up, which Tumble's filter has no room for (it keeps ${FILTER_BITS} bits for each way two shapes meet): they are dropped`);
  if (frictionless) notes.push(`${frictionless} shape${frictionless > 1 ? 's' : ''} whose MuJoCo pair with a frictionless plane has friction: frictionless in Tumble (a pair's friction is the geometric mean)`);
  if (planes.length > 1 && new Set(planeGeoms.map((g) => [model.geom_friction[3 * g], model.geom_solref[2 * g], model.geom_solref[2 * g + 1], model.geom_priority[g], model.geom_solmix[g]].join())).size > 1) notes.push('the planes differ in friction, solref, priority or solmix: each shape meets every plane with its pair values of the first plane it touches');
  if (live.some((s) => s.shape.type === 'sphere') && live.length > 1) notes.push('a sphere against another shape: the smaller of the two shapes\' restitutions and the geometric mean of their frictions (each set for its pair with the planes), not MuJoCo\'s pair values');
  for (const g of collides) if (model.geom_margin[g] !== 0 || model.geom_gap[g] !== 0) { notes.push(`${glabel(g)}: its margin and gap are ignored`); }
}
