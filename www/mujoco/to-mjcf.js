// to-mjcf.js: a Tumble system (the JSON of docs/scenarios.md, parsed) as an MJCF document for
// MuJoCo: toMjcf(system, { integrator, timestep }) -> { xml, notes, drives }. No DOM.
//
// How the two map (each choice keeps the model exactly the same where MuJoCo has the element):
// - A body's MuJoCo frame is Tumble's body frame: the centre of mass and the principal axes, so
//   its <inertial> sits at the origin with diaginertia = Tumble's principal moments. Bodies are
//   named b0, b1, ... in Tumble's order and joints j0, j1, ... (j3r: the tree runs from Tumble's
//   body b to body a, so MuJoCo's parent is Tumble's b); the way back sorts by those names.
// - The joints of a spanning tree (breadth-first from the bodies jointed to the ground, as the
//   solver's own) become the kinematic tree, each body placed at its initial pose relative to
//   its parent so that every hinge and slide starts at qpos 0: revolute -> hinge, spherical ->
//   ball, prismatic -> slide (the child cannot turn), cylindrical -> slide + hinge on one axis,
//   universal -> hinge about axis_a then hinge about axis_b (with an offset: each at its own
//   body's point, the first at a's; the first turns with the parent,
//   the second with the child: the Cardan joint), planar -> two slides along a's slide axes then
//   a hinge about the normal (jN:slide, jN:slide1, jN:hinge), planar_slide -> the two slides,
//   translation -> three slides (the third along axis_a, jN:slide2),
//   fixed -> no joint (MuJoCo welds a jointless
//   body to its parent). A body with no tree joint to the ground gets a free joint.
// - Joints that close loops become equality constraints: spherical -> connect; revolute -> two
//   connects at the joint's point +- 0.5 m along its axis (six equations, one of them redundant:
//   the two points of each body stay together, which is a hinge about that line; MuJoCo's
//   constraint solver handles the redundancy, and closes both softly, as it closes every loop);
//   fixed -> weld; distance (a rod, never a tree joint) -> a spatial tendon between two sites held
//   at its start length by a tendon equality (tendon2 absent, polycoef 0: y - y0 = 0, y0 the
//   length at qpos0, the start). Other loop-closing joints have no equality in MuJoCo: refused.
// - The initial velocities go in a keyframe (qpos, qvel): hinge rates are the relative angular
//   velocity along the axis, slide rates the relative velocity of the joint point along it, a
//   ball's the relative angular velocity in the child's frame, a free joint's the centre's world
//   velocity and the body-frame angular velocity (Tumble's angular_velocity as it is).
// - Force elements: a spring between points -> a spatial tendon between two sites (stiffness,
//   springlength, damping), a rope -> one limited to its length; joint_spring and slider_spring -> the joint's stiffness, springref and
//   damping (on a tree joint); a constant motor -> a motor actuator with its control in the
//   keyframe; a motor with a control -> a motor of that gear with its ctrlrange, the control's
//   value in the keyframe (the run sets data.ctrl as the control changes). Loads, time-varying
//   motors and elements on loop-closing joints have no MuJoCo counterpart: each is named in
//   `notes` and left out.
// - Drives: an equality per drive (a joint equality on the driven hinge or slide, a tendon
//   equality on a driven rod in place of its own) whose constant term the run sets to f(t) each
//   step (to-mjcf-drives.js says why and how); returned in `drives` for the run. The spanning tree
//   takes driven joints first, so that their coordinate is a MuJoCo joint.
// - Shapes, planes, materials, collision filters and joint limits: to-mjcf-contact.js, which
//   says where MuJoCo's soft contact differs from Tumble's.
// - Gravity, the time step, the integrator; contacts on only where the system has shapes; the
//   energy flag on.
import { dot, sub, add, scale, cross, unit, mulv, tmulv, transpose, mulm, IDENTITY, quatOf } from './mjcf-math.js';
import { contactParts, limitAttrs, ropeAttrs } from './to-mjcf-contact.js';
import { driveParts } from './to-mjcf-drives.js';
import { fixedTendonLines, tendonElement } from './to-mjcf-tendons.js';
import { namesCustom } from './mjcf-names.js';

/** A number as MJCF text: the shortest that reads back to the same double. */
const num = (x) => (Object.is(x, -0) ? '0' : String(x));
const vec = (v) => v.map(num).join(' ');
const esc = (s) => String(s).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

/** The spanning tree of `system`'s joints for MuJoCo: per body its parent joint index or -1.
 * MuJoCo closes loops only with spherical, revolute (two connects) and fixed joints, so the
 * tree takes the other kinds first (a slider-crank's prismatic joint is a tree joint, its
 * crank pin closes the loop), then the rest in order (Kruskal's rule); it is then oriented from
 * the ground, breadth-first, bodies with no path to the ground from the first of them. */
function spanningTree(system) {
  const n = system.bodies.length;
  const joints = system.joints ?? [];
  const root = [...Array(n + 1).keys()]; // node n: the ground
  const find = (x) => { while (root[x] !== x) { root[x] = root[root[x]]; x = root[x]; } return x; };
  const closable = (t) => t === 'spherical' || t === 'revolute' || t === 'fixed';
  // a driven angle or slide needs its joint's coordinate: driven joints first
  const driven = new Set((system.drives ?? []).filter((d) => d.type !== 'distance').map((d) => d.joint));
  const order = joints.map((_, k) => k).sort((x, y) => driven.has(y) - driven.has(x) || closable(joints[x].type) - closable(joints[y].type) || x - y);
  const tree = new Set();
  for (const k of order) {
    if (joints[k].type === 'distance') continue; // a rod is never a tree joint: a tendon held at its length
    const u = find(joints[k].a ?? n), v = find(joints[k].b);
    if (u !== v) { root[u] = v; tree.add(k); }
  }
  const at = Array.from({ length: n + 1 }, () => []);
  for (const k of tree) { at[joints[k].a ?? n].push(k); at[joints[k].b].push(k); }
  const parent = new Array(n).fill(-1), seen = new Array(n + 1).fill(false);
  for (const start of [n, ...Array(n).keys()]) {
    if (seen[start]) continue;
    seen[start] = true;
    const queue = [start];
    while (queue.length) {
      const b = queue.shift();
      for (const k of at[b]) {
        const other = (joints[k].a ?? n) === b ? joints[k].b : joints[k].a ?? n;
        if (!seen[other]) { seen[other] = true; parent[other] = k; queue.push(other); }
      }
    }
  }
  return parent;
}

/** Defaults of the Tumble JSON (docs/scenarios.md) filled in. */
function normalise(system) {
  const bodies = system.bodies.map((b) => ({
    mass: b.mass, inertia: b.inertia, size: b.size ?? null,
    position: b.position ?? [0, 0, 0], rotation: b.rotation ?? IDENTITY,
    velocity: b.velocity ?? [0, 0, 0], angular_velocity: b.angular_velocity ?? [0, 0, 0],
  }));
  const joints = (system.joints ?? []).map((j) => ({
    ...j, a: j.a ?? null,
    axis_a: j.axis_a ?? (j.type === 'universal' ? [1, 0, 0] : [1, 0, 0]),
    axis_b: j.axis_b ?? (j.type === 'universal' ? [0, 1, 0] : [1, 0, 0]),
  }));
  return { gravity: system.gravity ?? [0, 0, -9.81], dt: system.dt ?? 0.01, duration: system.duration ?? 10, bodies, joints, forces: system.forces ?? [], drives: system.drives ?? [], tendons: system.tendons ?? [] };
}

/** The MJCF document of Tumble system `system` (parsed JSON): { xml, notes, drives }. In
 * stages: the spanning tree, its joints with the start's qpos and qvel, the drives' equalities,
 * the loop-closing joints' equalities, the force elements, the contact's geoms, then the nested
 * bodies and the document. */
export function toMjcf(system, { integrator = 'RK4', timestep = null, solver = '' } = {}) {
  const s = normalise(system);
  const n = s.bodies.length;
  const h = timestep ?? s.dt;
  // the system, its tree and the parts of the document, filled stage by stage
  const doc = {
    s, tree: kinematicTree(s), contact: null, lines: [], // the nested bodies' lines
    notes: [], qpos: [], qvel: [], ctrl: [],
    sites: Array.from({ length: n + 1 }, () => []), // per body, index n: the world
    jointDefs: Array.from({ length: n }, () => []), // MJCF <joint> lines per body
    jointName: new Map(), // Tumble joint -> { names (its MuJoCo joints), reversed }
    actuators: [], tendons: [], equalities: [],
    jointSprings: new Map(), // MuJoCo joint name -> { stiffness, ref, damping }
    tendonSprings: new Map(), // Tumble tendon -> { stiffness, rest, damping }
    tendonRanges: new Map(), // Tumble tendon -> its range attributes (tendon limits)
    tendonArmatures: new Map(), // Tumble tendon -> its armature (the sum of its armatures)
    jointRanges: new Map(), // MuJoCo joint name -> its range attributes (joint limits)
    h, softStops: 0, // the stops held at MuJoCo's stable stiffness (to-mjcf-contact.js stopRef)
  };
  // 1. the tree's joints, with the start's qpos and qvel
  for (let b = 0; b < n; b++) treeJoint(doc, b);
  // 2. the drives: equalities whose constant term the run moves (to-mjcf-drives.js)
  const driveInfo = driveParts(s.drives, s.joints, doc.jointName, h, integrator);
  doc.equalities.push(...driveInfo.equalities);
  doc.notes.push(...driveInfo.notes);
  // 3. the joints that close loops, as equalities
  s.joints.forEach((j, k) => { if (!doc.tree.isTree(j, k)) loopJoint(doc, j, k, driveInfo.rodDrives); });
  // 4. the force elements
  s.forces.forEach((f, i) => forceElement(doc, f, i));
  doc.tendons.push(...fixedTendonLines(doc, coordinatePattern)); // (to-mjcf-tendons.js)
  if (doc.softStops) doc.notes.push(`${doc.softStops} stop${doc.softStops > 1 ? 's' : ''} (joint, tendon or rope limits) ring${doc.softStops > 1 ? '' : 's'} faster than MuJoCo takes stably at this step: written at 1 / (2 h) = ${num(1 / (2 * h))} rad/s (MuJoCo's own bound, timeconst >= 2 h), softer than Tumble's`);
  // 5. contact, from the system as given (normalise keeps what MuJoCo gets; to-mjcf-contact.js)
  const loops = s.joints.filter((j, k) => !doc.tree.isTree(j, k));
  doc.contact = contactParts(system, n, h, loops);
  doc.notes.push(...doc.contact.notes);
  // 6. the bodies, nested, and the document
  for (const c of doc.tree.children[n]) bodyLines(doc, c, 2);
  return { xml: documentText(system, doc, h, integrator, solver), notes: doc.notes, drives: driveInfo.drives };
}

/** The kinematic tree of `s` (normalised): { parent (per body its tree joint or -1), parentBody
 * (body -> its parent body, -1: the world), children (per body, index n: the world's), isTree
 * (joint j, index k -> it is a tree joint, not one closing a loop) }. */
function kinematicTree(s) {
  const n = s.bodies.length;
  const parent = spanningTree(s);
  const parentBody = (b) => {
    const k = parent[b];
    if (k < 0) return -1;
    const j = s.joints[k];
    return j.a == null ? -1 : j.a === b ? j.b : j.a;
  };
  const children = Array.from({ length: n + 1 }, () => []); // index n: the world
  for (let b = 0; b < n; b++) children[parentBody(b) < 0 ? n : parentBody(b)].push(b);
  const isTree = (j, k) => parent[j.b] === k || (j.a != null && parent[j.a] === k);
  return { parent, parentBody, children, isTree };
}

/** Body b's tree joint as MJCF <joint> lines (none for a fixed joint, a free joint for a body
 * without one) with its start in qpos and qvel: every hinge and slide starts at 0, the rates
 * are the relative velocities along the axes (see the header). */
function treeJoint(doc, b) {
  const { s, tree, jointDefs, qpos, qvel } = doc;
  const k = tree.parent[b];
  const bp = tree.parentBody(b);
  const B = s.bodies[b];
  if (k < 0) {
    jointDefs[b].push(`<freejoint name="free${b}"/>`);
    qpos.push(...B.position, ...quatOf(B.rotation));
    qvel.push(...B.velocity, ...B.angular_velocity);
    return;
  }
  const worldOmega = (c) => (c < 0 ? [0, 0, 0] : mulv(s.bodies[c].rotation, s.bodies[c].angular_velocity));
  const pointVel = (c, p) => (c < 0 ? [0, 0, 0] : add(s.bodies[c].velocity, cross(worldOmega(c), sub(p, s.bodies[c].position))));
  const j = s.joints[k];
  const reversed = j.a === b; // the tree runs from Tumble's b to a: MuJoCo's child is a
  const name = `j${k}${reversed ? 'r' : ''}`;
  const point = reversed ? j.point_a : j.point_b; // in the child's (body) frame
  const axisC = unit(reversed ? j.axis_a : j.axis_b);
  const world = add(B.position, mulv(B.rotation, point));
  const axisW = mulv(B.rotation, axisC);
  const wRel = sub(worldOmega(b), worldOmega(bp));
  const vRel = sub(pointVel(b, world), pointVel(bp, world));
  const names = [];
  const hinge = (nm, ax, at = point) => { jointDefs[b].push(`<joint name="${nm}" type="hinge" pos="${vec(at)}" axis="${vec(ax)}"/>`); names.push(nm); };
  switch (j.type) {
    case 'revolute':
      hinge(name, axisC); qpos.push(0); qvel.push(dot(wRel, axisW)); break;
    case 'spherical':
      jointDefs[b].push(`<joint name="${name}" type="ball" pos="${vec(point)}"/>`); names.push(name);
      qpos.push(1, 0, 0, 0); qvel.push(...tmulv(B.rotation, wRel)); break;
    case 'prismatic':
      jointDefs[b].push(`<joint name="${name}" type="slide" pos="${vec(point)}" axis="${vec(axisC)}"/>`); names.push(name);
      qpos.push(0); qvel.push(dot(vRel, axisW)); break;
    case 'cylindrical':
      jointDefs[b].push(`<joint name="${name}:slide" type="slide" pos="${vec(point)}" axis="${vec(axisC)}"/>`); names.push(`${name}:slide`);
      hinge(`${name}:hinge`, axisC);
      qpos.push(0, 0); qvel.push(dot(vRel, axisW), dot(wRel, axisW)); break;
    case 'universal': {
      // the parent's cross axis first (it turns with the parent), then the child's
      const ap = unit(reversed ? j.axis_b : j.axis_a);
      const apW = bp < 0 ? ap : mulv(s.bodies[bp].rotation, ap);
      // with an offset (two hinges whose lines pass apart) the parent's hinge is at the
      // parent's joint point, in the child's frame
      const pp = reversed ? j.point_b : j.point_a;
      const ppW = bp < 0 ? pp : add(s.bodies[bp].position, mulv(s.bodies[bp].rotation, pp));
      hinge(`${name}:a`, tmulv(B.rotation, apW), j.offset ? tmulv(B.rotation, sub(ppW, B.position)) : point);
      hinge(`${name}:b`, axisC);
      qpos.push(0, 0); qvel.push(dot(wRel, apW), dot(wRel, axisW)); break;
    }
    case 'gimbal': {
      if (reversed) throw new Error(`joints[${k}]: a gimbal joint whose tree runs from its body b to a has no MuJoCo counterpart here (its hinges are written parent first): make a the body nearer the ground`);
      // MuJoCo's three hinges, the first about a's axis_a, the middle, the last about b's
      // axis_b, each as it lies at the start (qpos 0 there: the composition from the start's
      // pose is the same rotation, to-mjcf's rule for every joint); the rates solve
      // w_rel = q1' u1 + q2' u2 + q3' u3 (Cramer's rule: the axes are independent)
      const u1 = bp < 0 ? unit(j.axis_a) : mulv(s.bodies[bp].rotation, unit(j.axis_a));
      const u2 = mulv(B.rotation, unit(j.middle)), u3 = axisW;
      hinge(`${name}:a`, tmulv(B.rotation, u1));
      hinge(`${name}:m`, unit(j.middle));
      hinge(`${name}:b`, axisC);
      const det = (x, y, z) => dot(x, cross(y, z));
      const d = det(u1, u2, u3);
      qpos.push(0, 0, 0); qvel.push(det(wRel, u2, u3) / d, det(u1, wRel, u3) / d, det(u1, u2, wRel) / d); break;
    }
    case 'planar':
    case 'planar_slide':
    case 'translation': {
      if (reversed) throw new Error(`joints[${k}]: a ${j.type} joint whose tree runs from its body b to a has no MuJoCo counterpart (MuJoCo's slides move the child along its parent's axes): make a the body nearer the ground`);
      // MuJoCo composes a body's joints in order, the first nearest the parent: the slides
      // along the parent's (a's) axes first, then the hinge about the normal (planar); a
      // translation's third slide is along axis_a
      const along = j.type === 'translation' ? [...j.slides, j.axis_a] : j.slides;
      const slidesW = along.map((m) => (bp < 0 ? unit(m) : mulv(s.bodies[bp].rotation, unit(m))));
      slidesW.forEach((m, i) => {
        const nm = `${name}:slide${i ? i : ''}`;
        jointDefs[b].push(`<joint name="${nm}" type="slide" pos="${vec(point)}" axis="${vec(tmulv(B.rotation, m))}"/>`);
        names.push(nm);
      });
      qpos.push(...slidesW.map(() => 0));
      qvel.push(...slidesW.map((m) => dot(vRel, m))); // (the slides are perpendicular)
      if (j.type === 'planar') { hinge(`${name}:hinge`, axisC); qpos.push(0); qvel.push(dot(wRel, axisW)); }
      break;
    }
    case 'fixed': break;
    default: throw new Error(`joints[${k}]: type '${j.type}' has no MuJoCo counterpart`);
  }
  doc.jointName.set(k, { names, reversed });
}

/** MuJoCo's name pattern of a Tumble joint's coordinate: its angle, or its slide `slide` (0 to
 * 2: a planar joint's second is `jN:slide1`, a translation's third `jN:slide2`). */
export function coordinatePattern(angle, slide = 0) {
  if (angle) return /(^j\d+r?$|:hinge$)/;
  return slide ? new RegExp(`:slide${slide}$`) : /(^j\d+r?$|:slide$)/;
}

/** Joint j (index k) that closes a loop as MuJoCo equalities: spherical -> connect, revolute ->
 * two connects on its axis, fixed -> weld, distance -> a tendon held at its start length (by
 * the drive's equality instead for a driven rod, `rodDrives`). */
function loopJoint(doc, j, k, rodDrives) {
  const { s, equalities, sites, tendons } = doc;
  const n = s.bodies.length;
  const b1 = `b${j.b}`, b2 = j.a == null ? 'world' : `b${j.a}`;
  switch (j.type) {
    case 'spherical':
      equalities.push(`<connect name="j${k}" body1="${b1}" body2="${b2}" anchor="${vec(j.point_b)}"/>`); break;
    case 'revolute': {
      const u = scale(unit(j.axis_b), 0.5);
      equalities.push(`<connect name="j${k}" body1="${b1}" body2="${b2}" anchor="${vec(add(j.point_b, u))}"/>`);
      equalities.push(`<connect name="j${k}:2" body1="${b1}" body2="${b2}" anchor="${vec(sub(j.point_b, u))}"/>`);
      break;
    }
    case 'fixed': {
      // relpose: body2's frame in body1's (MuJoCo's weld: the start's relative pose)
      const ra = j.a == null ? IDENTITY : s.bodies[j.a].rotation, rb = s.bodies[j.b].rotation;
      const xa = j.a == null ? [0, 0, 0] : s.bodies[j.a].position;
      const rel = mulm(transpose(rb), ra);
      equalities.push(`<weld name="j${k}" body1="${b1}" body2="${b2}" relpose="${vec(tmulv(rb, sub(xa, s.bodies[j.b].position)))} ${vec(quatOf(rel))}"/>`);
      break;
    }
    case 'distance': {
      // a massless rod: a spatial tendon between its two points held at its start length by a
      // tendon equality (y - y0 = 0, y0 its length at qpos0: the start)
      const sa = `j${k}a`, sb = `j${k}b`;
      sites[j.a == null ? n : j.a].push(`<site name="${sa}" pos="${vec(j.point_a)}" size="0.01"/>`);
      sites[j.b].push(`<site name="${sb}" pos="${vec(j.point_b)}" size="0.01"/>`);
      tendons.push(`<spatial name="j${k}" width="0.005"><site site="${sa}"/><site site="${sb}"/></spatial>`);
      // (a driven rod: the drive's equality holds it, driveParts)
      if (!rodDrives.has(k)) equalities.push(`<tendon name="j${k}" tendon1="j${k}" polycoef="0 0 0 0 0"/>`);
      break;
    }
    default: throw new Error(`joints[${k}]: a ${j.type} joint that closes a loop has no MuJoCo equality constraint`);
  }
}

/** Force element f (index i) as MuJoCo has it: a spring -> a spatial tendon, joint and slider
 * springs -> the tree joint's stiffness, a motor -> an actuator with its control, limits -> the
 * joint's range; what MuJoCo has not is named in the notes and left out. */
function forceElement(doc, f, i) {
  const { s, notes, sites, tendons, jointName, actuators, ctrl } = doc;
  const n = s.bodies.length;
  const constant = !f.time || (f.time.kind === 'constant');
  const factor = f.time?.kind === 'constant' ? (f.time.value ?? 1) : 1;
  switch (f.type) {
    case 'spring':
    case 'rope': {
      const sa = `f${i}a`, sb = `f${i}b`;
      sites[f.a == null ? n : f.a].push(`<site name="${sa}" pos="${vec(f.point_a)}" size="0.01"/>`);
      sites[f.b].push(`<site name="${sb}" pos="${vec(f.point_b)}" size="0.01"/>`);
      const rope = f.type === 'rope' ? ropeAttrs(s, f, doc.h) : null;
      if (rope?.capped) doc.softStops++;
      const attrs = rope ? rope.attrs : `stiffness="${num(f.stiffness ?? 0)}" springlength="${num(f.rest_length ?? 0)}" damping="${num(f.damping ?? 0)}"`;
      tendons.push(`<spatial name="f${i}" ${attrs} width="0.005"><site site="${sa}"/><site site="${sb}"/></spatial>`);
      break;
    }
    case 'joint_spring':
    case 'slider_spring': {
      const info = jointName.get(f.joint);
      const want = coordinatePattern(f.type === 'joint_spring', f.slide);
      const target = info?.names.find((nm) => want.test(nm));
      if (!target) { notes.push(`forces[${i}] (${f.type} on joint ${f.joint}): that joint closes a loop (an equality constraint in MuJoCo), which has no spring: left out`); break; }
      const sign = info.reversed ? -1 : 1;
      const rest = f.type === 'joint_spring' ? f.rest_angle ?? 0 : f.rest_slide ?? 0;
      // several springs on one joint (its own and a servo's) add up: k1 (q - r1) + k2 (q - r2)
      // = (k1 + k2) (q - r), r their stiffness-weighted rest, and the dampings add
      // (the first on a joint as it is, its rest kept even at stiffness 0: a round trip's bits)
      const old = doc.jointSprings.get(target);
      const add = { stiffness: f.stiffness ?? 0, ref: sign * rest, damping: f.damping ?? 0 };
      const k = (old?.stiffness ?? 0) + add.stiffness;
      doc.jointSprings.set(target, !old ? add : {
        stiffness: k, damping: old.damping + add.damping,
        ref: k > 0 ? (old.stiffness * old.ref + add.stiffness * add.ref) / k : old.ref,
      });
      break;
    }
    case 'motor':
    case 'slider_motor': {
      const info = jointName.get(f.joint);
      const target = info?.names.find((nm) => coordinatePattern(f.type === 'motor', f.slide).test(nm));
      const amount = f.type === 'motor' ? f.torque ?? 0 : f.force ?? 0;
      if (!target) { notes.push(`forces[${i}] (${f.type} on joint ${f.joint}): that joint closes a loop in MuJoCo: left out`); break; }
      if (f.control) {
        // a control: MuJoCo's ctrl with its range, the element's torque or force its gear
        actuators.push(`<motor name="f${i}" joint="${target}" gear="${num((info.reversed ? -1 : 1) * amount)}" ctrllimited="true" ctrlrange="${vec(f.control.range)}"/>`);
        ctrl.push(f.control.value ?? 0);
        break;
      }
      if (!constant) notes.push(`forces[${i}] (${f.type}): its ${f.time.kind} function of time has no MuJoCo counterpart: the motor's control is the constant ${num(amount)} ${f.type === 'motor' ? 'N m' : 'N'}; set data.ctrl from your code for the rest`);
      actuators.push(`<motor name="f${i}" joint="${target}" gear="1" ctrllimited="false"/>`);
      ctrl.push((info.reversed ? -1 : 1) * amount * factor);
      break;
    }
    case 'joint_limit':
    case 'slider_limit': {
      const info = jointName.get(f.joint);
      const want = coordinatePattern(f.type === 'joint_limit', f.slide);
      const target = info?.names.find((nm) => want.test(nm));
      if (!target) { notes.push(`forces[${i}] (${f.type} on joint ${f.joint}): that joint closes a loop (an equality constraint in MuJoCo), which has no range: left out`); break; }
      const { attrs, capped } = limitAttrs(s, f, info.reversed ? -1 : 1, doc.h);
      doc.jointRanges.set(target, attrs);
      if (capped) doc.softStops++;
      break;
    }
    case 'tendon_spring':
    case 'tendon_limit':
    case 'tendon_armature':
    case 'tendon_motor':
      tendonElement(doc, f, i);
      break;
    default:
      notes.push(`forces[${i}] (${f.type}): a load on a body has no MJCF element (MuJoCo applies such loads at run time through data.xfrc_applied): left out`);
  }
}

/** Body b and its subtree as nested <body> lines into doc.lines, at nesting `depth`: placed
 * relative to its parent, its inertial, joints (with their springs and ranges), drawn box,
 * contact geoms and sites. */
function bodyLines(doc, b, depth) {
  const { s, tree, contact, lines } = doc;
  const pad = '  '.repeat(depth);
  const bp = tree.parentBody(b);
  const { x: xp, r: rp } = bp < 0 ? { x: [0, 0, 0], r: IDENTITY } : { x: s.bodies[bp].position, r: s.bodies[bp].rotation };
  const B = s.bodies[b];
  const pos = tmulv(rp, sub(B.position, xp));
  const rel = mulm(transpose(rp), B.rotation);
  lines.push(`${pad}<body name="b${b}" pos="${vec(pos)}" quat="${vec(quatOf(rel))}">`);
  lines.push(`${pad}  <inertial pos="0 0 0" mass="${num(B.mass)}" diaginertia="${vec(B.inertia)}"/>`);
  for (const jd of doc.jointDefs[b]) lines.push(`${pad}  ${withSpring(doc, jd)}`);
  if (B.size) lines.push(`${pad}  <geom type="box" size="${vec(B.size.map((x) => x / 2))}" contype="0" conaffinity="0" rgba="0.6 0.7 0.9 1"/>`);
  for (const g of contact.geoms[b]) lines.push(`${pad}  ${g}`);
  for (const st of doc.sites[b]) lines.push(`${pad}  ${st}`);
  for (const c of tree.children[b]) bodyLines(doc, c, depth + 1);
  lines.push(`${pad}</body>`);
}

/** A <joint> line with its spring's and range's attributes, where it has them. */
function withSpring(doc, jd) {
  const m = /name="([^"]+)"/.exec(jd);
  const sp = m && doc.jointSprings.get(m[1]);
  const range = m && doc.jointRanges.get(m[1]);
  let out = sp ? jd.replace('/>', ` stiffness="${num(sp.stiffness)}" springref="${num(sp.ref)}" damping="${num(sp.damping)}"/>`) : jd;
  if (range) out = out.replace('/>', ` ${range}/>`);
  return out;
}

/** The MJCF text: options, the world's geoms and sites, the bodies' lines, then the contact
 * exclusions, equalities, tendons, actuators, the Tumble names and the start's keyframe. */
function documentText(system, doc, h, integrator, solver = '') {
  const { s, contact, lines, equalities, tendons, actuators, qpos, qvel, ctrl } = doc;
  const n = s.bodies.length;
  const out = [
    '<mujoco model="tumble">',
    '  <!-- written by Tumble (www/mujoco/to-mjcf.js): bodies b0.. at their centres of mass along their principal axes, joints j0.. as in the Tumble system -->',
    '  <compiler angle="radian" inertiafromgeom="false" autolimits="true"/>',
    `  <option timestep="${num(h)}" gravity="${vec(s.gravity)}" integrator="${esc(integrator)}"${solver ? ` solver="${esc(solver)}"` : ''}>`,
    `    <flag contact="${contact.contact ? 'enable' : 'disable'}" energy="enable"${contact.flags}/>`,
    '  </option>',
    ...(contact.assets.length ? ['  <asset>', ...contact.assets.map((a) => `    ${a}`), '  </asset>'] : []),
    '  <worldbody>',
    ...contact.geoms[n].map((g) => `    ${g}`),
    ...doc.sites[n].map((st) => `    ${st}`),
    ...lines,
    '  </worldbody>',
    ...(contact.excludes.length ? ['  <contact>', ...contact.excludes.map((e) => `    ${e}`), '  </contact>'] : []),
    ...(equalities.length ? ['  <equality>', ...equalities.map((e) => `    ${e}`), '  </equality>'] : []),
    ...(tendons.length ? ['  <tendon>', ...tendons.map((e) => `    ${e}`), '  </tendon>'] : []),
    ...(actuators.length ? ['  <actuator>', ...actuators.map((e) => `    ${e}`), '  </actuator>'] : []),
    ...namesCustom(system, esc), // the bodies' and joints' Tumble names (mjcf-names.js)
    '  <keyframe>',
    `    <key name="start" qpos="${vec(qpos)}" qvel="${vec(qvel)}"${ctrl.length ? ` ctrl="${vec(ctrl)}"` : ''}/>`,
    '  </keyframe>',
    '</mujoco>',
    '',
  ];
  return out.join('\n');
}
