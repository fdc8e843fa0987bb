// mjcf.js: Tumble systems as MuJoCo models and back (issue 21). No DOM: the page, its workers and
// Node (scripts/mjcf2tumble.mjs, the tests) share it.
//
//   toMjcf(system, { integrator, timestep }) -> { xml, notes }
//     a Tumble system (the JSON of docs/scenarios.md, parsed) as an MJCF document
//   fromMjModel(mujoco, model) -> { system, notes }
//     a model compiled by MuJoCo's own compiler (so every default, class, fromto and
//     inertia-from-geometry rule is MuJoCo's) as a Tumble system; throws an Error naming the
//     element when the model cannot be represented
//   loadMujoco(url) -> the MuJoCo module (@mujoco/mujoco's single-threaded build)
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
//   universal -> hinge about axis_a then hinge about axis_b (the first turns with the parent,
//   the second with the child: the Cardan joint), fixed -> no joint (MuJoCo welds a jointless
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
//   springlength, damping); joint_spring and slider_spring -> the joint's stiffness, springref and
//   damping (on a tree joint); a constant motor -> a motor actuator with its control in the
//   keyframe. Drives, loads, time-varying motors and elements on loop-closing joints have no
//   MuJoCo counterpart: each is named in `notes` and left out.
// - Gravity, the time step, the integrator; contacts off (Tumble has none); the energy flag on.
//
// The way back reads the compiled model at its first keyframe (or qpos0) after mj_forward: bodies
// are the inertial frames (xipos, ximat, body_mass, body_inertia), joint anchors and axes MuJoCo's
// own world ones (xanchor, xaxis) expressed in those frames; hinge -> revolute, ball -> spherical,
// slide -> prismatic, a slide and a hinge on one axis -> cylindrical, two perpendicular hinges at
// one point -> universal, free -> nothing; a jointless body with mass -> a fixed joint to its
// parent, one without mass (a frame) is merged into its parent; connect -> spherical (Tumble's two
// connects jN, jN:2 -> revolute), weld -> fixed, between bodies or sites, when they hold at the
// start; a tendon equality on a two-site spatial tendon held at its start length -> distance;
// velocities from cvel. Everything else is named in `notes` (ignored) or refused (Error).

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

// ---- small vector algebra (3-vectors as arrays, 3 x 3 matrices as arrays of rows) ----
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => Math.sqrt(dot(a, a));
const unit = (a) => scale(a, 1 / norm(a));
const mulv = (m, v) => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
const tmulv = (m, v) => [0, 1, 2].map((i) => m[0][i] * v[0] + m[1][i] * v[1] + m[2][i] * v[2]);
const transpose = (m) => [0, 1, 2].map((i) => [m[0][i], m[1][i], m[2][i]]);
const mulm = (a, b) => a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j]));
const IDENTITY = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

/** The unit quaternion (w, x, y, z) of rotation matrix m (rows), Shepperd's method. */
export function quatOf(m) {
  const t = m[0][0] + m[1][1] + m[2][2];
  let q;
  if (t > 0) {
    const s = 2 * Math.sqrt(1 + t);
    q = [s / 4, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s];
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const s = 2 * Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
    q = [(m[2][1] - m[1][2]) / s, s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s];
  } else if (m[1][1] > m[2][2]) {
    const s = 2 * Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]);
    q = [(m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]);
    q = [(m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4];
  }
  const n = Math.hypot(...q);
  return q.map((x) => x / n);
}

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
  const order = joints.map((_, k) => k).sort((x, y) => closable(joints[x].type) - closable(joints[y].type) || x - y);
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
  return { gravity: system.gravity ?? [0, 0, -9.81], dt: system.dt ?? 0.01, duration: system.duration ?? 10, bodies, joints, forces: system.forces ?? [], drives: system.drives ?? [] };
}

/** The MJCF document of Tumble system `system` (parsed JSON): { xml, notes }. */
export function toMjcf(system, { integrator = 'RK4', timestep = null } = {}) {
  const s = normalise(system);
  const notes = [];
  const parent = spanningTree(s);
  const n = s.bodies.length;
  const children = Array.from({ length: n + 1 }, () => []); // index n: the world
  const parentBody = (b) => {
    const k = parent[b];
    if (k < 0) return -1;
    const j = s.joints[k];
    return j.a == null ? -1 : j.a === b ? j.b : j.a;
  };
  for (let b = 0; b < n; b++) children[parentBody(b) < 0 ? n : parentBody(b)].push(b);
  const pose = (b) => (b < 0 ? { x: [0, 0, 0], r: IDENTITY } : { x: s.bodies[b].position, r: s.bodies[b].rotation });
  const worldOmega = (b) => (b < 0 ? [0, 0, 0] : mulv(s.bodies[b].rotation, s.bodies[b].angular_velocity));
  const pointVel = (b, p) => (b < 0 ? [0, 0, 0] : add(s.bodies[b].velocity, cross(worldOmega(b), sub(p, s.bodies[b].position))));
  const qpos = [], qvel = [], ctrl = [];
  const sites = Array.from({ length: n + 1 }, () => []);
  const jointDefs = Array.from({ length: n }, () => []); // MJCF <joint> lines per body
  const jointName = new Map(); // Tumble joint -> MuJoCo joint names (for springs and motors)
  const actuators = [], tendons = [], equalities = [];
  const jointSprings = new Map(); // MuJoCo joint name -> { stiffness, ref, damping }
  // the tree joints
  for (let b = 0; b < n; b++) {
    const k = parent[b];
    const bp = parentBody(b);
    const { x: xp, r: rp } = pose(bp);
    const B = s.bodies[b];
    if (k < 0) {
      jointDefs[b].push(`<freejoint name="free${b}"/>`);
      qpos.push(...B.position, ...quatOf(B.rotation));
      qvel.push(...B.velocity, ...B.angular_velocity);
      continue;
    }
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
    const hinge = (nm, ax) => { jointDefs[b].push(`<joint name="${nm}" type="hinge" pos="${vec(point)}" axis="${vec(ax)}"/>`); names.push(nm); };
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
        hinge(`${name}:a`, tmulv(B.rotation, apW));
        hinge(`${name}:b`, axisC);
        qpos.push(0, 0); qvel.push(dot(wRel, apW), dot(wRel, axisW)); break;
      }
      case 'fixed': break;
      default: throw new Error(`joints[${k}]: type '${j.type}' has no MuJoCo counterpart`);
    }
    jointName.set(k, { names, reversed });
  }
  // the joints that close loops
  s.joints.forEach((j, k) => {
    if (parent[j.b] === k || (j.a != null && parent[j.a] === k)) return;
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
        equalities.push(`<tendon name="j${k}" tendon1="j${k}" polycoef="0 0 0 0 0"/>`);
        break;
      }
      default: throw new Error(`joints[${k}]: a ${j.type} joint that closes a loop has no MuJoCo equality constraint`);
    }
  });
  // force elements
  s.forces.forEach((f, i) => {
    const constant = !f.time || (f.time.kind === 'constant');
    const factor = f.time?.kind === 'constant' ? (f.time.value ?? 1) : 1;
    switch (f.type) {
      case 'spring': {
        const sa = `f${i}a`, sb = `f${i}b`;
        sites[f.a == null ? n : f.a].push(`<site name="${sa}" pos="${vec(f.point_a)}" size="0.01"/>`);
        sites[f.b].push(`<site name="${sb}" pos="${vec(f.point_b)}" size="0.01"/>`);
        tendons.push(`<spatial name="f${i}" stiffness="${num(f.stiffness ?? 0)}" springlength="${num(f.rest_length ?? 0)}" damping="${num(f.damping ?? 0)}" width="0.005"><site site="${sa}"/><site site="${sb}"/></spatial>`);
        break;
      }
      case 'joint_spring':
      case 'slider_spring': {
        const info = jointName.get(f.joint);
        const want = f.type === 'joint_spring' ? /(^j\d+r?$|:hinge$)/ : /(^j\d+r?$|:slide$)/;
        const target = info?.names.find((nm) => want.test(nm));
        if (!target) { notes.push(`forces[${i}] (${f.type} on joint ${f.joint}): that joint closes a loop (an equality constraint in MuJoCo), which has no spring: left out`); break; }
        const sign = info.reversed ? -1 : 1;
        const rest = f.type === 'joint_spring' ? f.rest_angle ?? 0 : f.rest_slide ?? 0;
        jointSprings.set(target, { stiffness: f.stiffness ?? 0, ref: sign * rest, damping: f.damping ?? 0 });
        break;
      }
      case 'motor': {
        const info = jointName.get(f.joint);
        const target = info?.names.find((nm) => /(^j\d+r?$|:hinge$)/.test(nm));
        if (!target) { notes.push(`forces[${i}] (motor on joint ${f.joint}): that joint closes a loop in MuJoCo: left out`); break; }
        if (!constant) notes.push(`forces[${i}] (motor): its ${f.time.kind} function of time has no MuJoCo counterpart: the motor's control is the constant ${num(f.torque)} N m; set data.ctrl from your code for the rest`);
        actuators.push(`<motor name="f${i}" joint="${target}" gear="1" ctrllimited="false"/>`);
        ctrl.push((info.reversed ? -1 : 1) * (f.torque ?? 0) * factor);
        break;
      }
      default:
        notes.push(`forces[${i}] (${f.type}): a load on a body has no MJCF element (MuJoCo applies such loads at run time through data.xfrc_applied): left out`);
    }
  });
  s.drives.forEach((d, i) => notes.push(`drives[${i}] (the ${d.type} of joint ${d.joint} prescribed in time): MuJoCo has no time-dependent constraint: left out, ${d.type === 'distance' ? 'the rod keeps its start length' : 'the joint moves freely'}`));
  // the bodies, nested
  const lines = [];
  const body = (b, depth) => {
    const pad = '  '.repeat(depth);
    const bp = parentBody(b);
    const { x: xp, r: rp } = pose(bp);
    const B = s.bodies[b];
    const pos = tmulv(rp, sub(B.position, xp));
    const rel = mulm(transpose(rp), B.rotation);
    lines.push(`${pad}<body name="b${b}" pos="${vec(pos)}" quat="${vec(quatOf(rel))}">`);
    lines.push(`${pad}  <inertial pos="0 0 0" mass="${num(B.mass)}" diaginertia="${vec(B.inertia)}"/>`);
    for (const jd of jointDefs[b]) lines.push(`${pad}  ${withSpring(jd)}`);
    if (B.size) lines.push(`${pad}  <geom type="box" size="${vec(B.size.map((x) => x / 2))}" contype="0" conaffinity="0" rgba="0.6 0.7 0.9 1"/>`);
    for (const st of sites[b]) lines.push(`${pad}  ${st}`);
    for (const c of children[b]) body(c, depth + 1);
    lines.push(`${pad}</body>`);
  };
  const withSpring = (jd) => {
    const m = /name="([^"]+)"/.exec(jd);
    const sp = m && jointSprings.get(m[1]);
    return sp ? jd.replace('/>', ` stiffness="${num(sp.stiffness)}" springref="${num(sp.ref)}" damping="${num(sp.damping)}"/>`) : jd;
  };
  for (const c of children[n]) body(c, 2);
  {
    const h = timestep ?? s.dt;
    const out = [
      '<mujoco model="tumble">',
      '  <!-- written by Tumble (www/mjcf.js): bodies b0.. at their centres of mass along their principal axes, joints j0.. as in the Tumble system -->',
      '  <compiler angle="radian" inertiafromgeom="false" autolimits="true"/>',
      `  <option timestep="${num(h)}" gravity="${vec(s.gravity)}" integrator="${esc(integrator)}">`,
      '    <flag contact="disable" energy="enable"/>',
      '  </option>',
      '  <worldbody>',
      ...sites[n].map((st) => `    ${st}`),
      ...lines,
      '  </worldbody>',
      ...(equalities.length ? ['  <equality>', ...equalities.map((e) => `    ${e}`), '  </equality>'] : []),
      ...(tendons.length ? ['  <tendon>', ...tendons.map((e) => `    ${e}`), '  </tendon>'] : []),
      ...(actuators.length ? ['  <actuator>', ...actuators.map((e) => `    ${e}`), '  </actuator>'] : []),
      '  <keyframe>',
      `    <key name="start" qpos="${vec(qpos)}" qvel="${vec(qvel)}"${ctrl.length ? ` ctrl="${vec(ctrl)}"` : ''}/>`,
      '  </keyframe>',
      '</mujoco>',
      '',
    ];
    return { xml: out.join('\n'), notes };
  }
}

// ---- the way back ----

/** The names of a compiled model's elements of one kind (`adr`: e.g. model.name_bodyadr). */
function names(model, adr, count) {
  const bytes = model.names;
  const out = [];
  for (let i = 0; i < count; i++) {
    let e = adr[i];
    let s = '';
    while (e < bytes.length && bytes[e] !== 0) s += String.fromCharCode(bytes[e++]);
    out.push(s);
  }
  return out;
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

/** A boolean of one element through MuJoCo's named accessors (`model.jnt(k).limited`): the
 * bindings cannot hand out the boolean arrays (jnt_limited, eq_active0, ...) themselves. */
function flag(model, kind, i, field) {
  const acc = model[kind](i);
  try {
    return Boolean(acc[field] ?? acc[`_${field}`]); // (the tendon accessor's fields begin with _)
  } finally {
    acc.delete?.();
  }
}

/** Compile MJCF text with MuJoCo's compiler: the model, or an Error with MuJoCo's message. */
export function compileMjcf(mujoco, xml) {
  if (typeof xml !== 'string') throw new Error('the MuJoCo model is not text');
  if (xml.length > MAX_XML_BYTES) throw new Error(`the MuJoCo model is ${(xml.length / 1048576).toFixed(0)} MB, more than the ${MAX_XML_BYTES / 1048576} MB Tumble reads`);
  if (!xml.trim()) throw new Error('the MuJoCo model is empty');
  // more <body> elements than Tumble takes: refused before MuJoCo compiles them (which takes
  // seconds for thousands); a model that grows past the limit when compiled (<replicate>,
  // <include>) is refused by fromMjModel after compiling
  const bodies = countBodies(xml);
  if (bodies > MAX_BODIES) throw new Error(`the MuJoCo model has ${bodies} bodies; Tumble takes at most ${MAX_BODIES}`);
  const depth = bodyDepth(xml);
  if (depth > MAX_WASM_DEPTH) throw new Error(`its bodies are nested ${depth} deep; MuJoCo's wasm build reads at most about ${MAX_WASM_DEPTH} levels (it aborts past 125), so in the page a chain of more than ${MAX_WASM_DEPTH} links cannot run in MuJoCo (native MuJoCo reads the exported file)`);
  try {
    return mujoco.MjModel.from_xml_string(xml);
  } catch (e) {
    const msg = typeof e === 'object' && e && 'message' in e ? e.message : mujoco.getExceptionMessage?.(e)?.join(': ') ?? String(e);
    // MuJoCo's message, on one line: "Loading error: XML parse error 14: ... Line number=1: ..."
    throw new Error(`MuJoCo's compiler rejected the model: ${String(msg).replace(/^MuJoCo Error: /, '').trim().split(/\s*\n\s*/).join(' ')}`);
  }
}

/** The Tumble system of compiled MuJoCo model `model` at its first keyframe (or qpos0):
 * { system, notes }. Throws an Error naming the element where the model cannot be represented. */
export function fromMjModel(mujoco, model) {
  const notes = [];
  const nb = model.nbody - 1;
  if (nb < 1) throw new Error('the MuJoCo model has no body besides the world');
  if (nb > MAX_BODIES) throw new Error(`the MuJoCo model has ${nb} bodies; Tumble takes at most ${MAX_BODIES}`);
  const data = new mujoco.MjData(model);
  try {
    if (model.nkey > 0) mujoco.mj_resetDataKeyframe(model, data, 0);
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
    if (model.nkey > 1) notes.push(`keyframes: the first is the start; the other ${model.nkey - 1} are ignored`);
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
        // (the bool arrays, jnt_limited among them, do not cross the bindings: the accessor's does)
        if (flag(model, 'jnt', k, 'limited')) notes.push(`${jlabel(k)}: its limits are ignored (Tumble has no joint limits)`);
        const dofs = [6, 3, 1, 1][model.jnt_type[k]], d0 = model.jnt_dofadr[k];
        for (const [field, what] of [['dof_armature', 'armature (rotor inertia)'], ['dof_frictionloss', 'dry friction (frictionloss)'], ['dof_dampingpoly', 'nonlinear damping (dampingpoly)']]) {
          let v = 0;
          const per = field === 'dof_dampingpoly' ? 2 : 1;
          for (let d = per * d0; d < per * (d0 + dofs); d++) v = Math.max(v, Math.abs(model[field]?.[d] ?? 0));
          if (v > 0) notes.push(`${jlabel(k)}: its ${what} is ignored`);
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
    // actuators: a motor on a hinge with a control in the keyframe -> a constant motor torque
    const actNames = names(model, model.name_actuatoradr, model.nu);
    for (let a = 0; a < model.nu; a++) {
      const nm = actNames[a] || `actuator ${a}`;
      const onJoint = model.actuator_trntype[a] === mujoco.mjtTrn.mjTRN_JOINT.value;
      const k = model.actuator_trnid[2 * a];
      const motor = onJoint && model.actuator_gaintype[a] === mujoco.mjtGain.mjGAIN_FIXED.value && model.actuator_biastype[a] === mujoco.mjtBias.mjBIAS_NONE.value
        && model.actuator_dyntype[a] === mujoco.mjtDyn.mjDYN_NONE.value && model.jnt_type[k] === jtype.mjJNT_HINGE.value;
      // the Tumble joint of the hinge: a revolute one, or the turn of a cylindrical one
      const t = jointForces.find(([, kind, kk]) => kk === k && kind === 'joint_spring')?.[0] ?? -1;
      if (!motor || t < 0) { notes.push(`${nm}: an actuator other than a motor on a hinge (of a revolute or cylindrical joint) has no Tumble element: ignored`); continue; }
      if (noActuation) { notes.push(`${nm}: actuation is disabled in the model: left out`); continue; }
      // its force at the start's control, clamped as MuJoCo clamps it, held constant
      let ctrl = model.nkey > 0 ? model.key_ctrl[a] : 0;
      if (flag(model, 'actuator', a, 'ctrllimited') && !off('mjDSBL_CLAMPCTRL')) ctrl = Math.min(Math.max(ctrl, model.actuator_ctrlrange[2 * a]), model.actuator_ctrlrange[2 * a + 1]);
      let force = model.actuator_gainprm[10 * a] * ctrl;
      if (flag(model, 'actuator', a, 'forcelimited')) force = Math.min(Math.max(force, model.actuator_forcerange[2 * a]), model.actuator_forcerange[2 * a + 1]);
      if (!/^f\d+$/.test(nm)) notes.push(`${nm}: a motor whose control is held at the start's ${ctrl} (a constant torque of ${model.actuator_gear[6 * a] * force} N m); a control that changes in time has no Tumble element`);
      const torque = model.actuator_gear[6 * a] * force;
      const sign = keyed && order[t].name.endsWith('r') ? -1 : 1;
      forces.push({ type: 'motor', joint: where[t], torque: sign * torque, key: /^f\d+$/.test(nm) ? Number(nm.slice(1)) : Infinity });
    }
    // what is ignored
    let colliding = 0;
    for (let g = 0; g < model.ngeom; g++) if (model.geom_contype[g] || model.geom_conaffinity[g]) colliding++;
    const contactsOff = (model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT.value) !== 0;
    if (colliding && !contactsOff) notes.push(`contacts and collision geometry (${colliding} geom${colliding > 1 ? 's' : ''} that collide): ignored, Tumble has no contacts`);
    if (model.nflex) notes.push(`flex (${model.nflex}): ignored`);
    if (model.nsensor) notes.push(`sensors (${model.nsensor}): ignored (they do not act on the motion)`);
    // the elements Tumble wrote (f0, f1, ...) in their order, the joints' springs first
    forces.sort((x, y) => (x.key ?? -1) - (y.key ?? -1));
    for (const f of forces) delete f.key;
    const system = {
      gravity: noGravity ? [0, 0, 0] : Array.from(model.opt.gravity), dt: model.opt.timestep, duration: 10,
      bodies, joints: idx.map((k) => joints[k]),
      ...(forces.length ? { forces } : {}),
    };
    return { system, notes };
  } finally {
    data.delete();
  }
}
