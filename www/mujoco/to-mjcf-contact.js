// to-mjcf-contact.js: a Tumble system's contact (bodies' shapes, the world's planes, materials,
// collision filters) and joint limits as MJCF, for to-mjcf.js. No DOM.
//
// How they map, and where MuJoCo's model differs from Tumble's (crates/tumble/src/contact/):
// - Shapes -> geoms on the body (its frame is Tumble's body frame): sphere (size r), capsule
//   (size r, half-length, along the geom's z as Tumble's), box (half-sizes), with pos = offset
//   and quat = the shape's rotation. Planes -> plane geoms of the world (pos = point, zaxis =
//   normal); `ground: true` -> the plane through the origin against gravity.
// - group/mask -> contype/conaffinity: the same rule (A.group & B.mask or B.group & A.mask). A
//   visual shape (drawn only) -> a geom with contype and conaffinity 0.
//   Bodies joined by a joint do not touch in Tumble: MuJoCo leaves out a body and its parent
//   itself; a joint that closes a loop gets an <exclude>. collide_joined -> filterparent off.
// - The normal force. Tumble's is Hertz's (or a flat face's linear spring) with a damping
//   calibrated for the restitution e asked; MuJoCo's is a soft constraint whose reference
//   acceleration is a linear spring-damper on the penetration, the same for every mass:
//   a = (1 - d) a0 - b v - k r at impedance d. Written in MuJoCo's direct form solref = (-k, -b)
//   with solimp d = 0.99 everywhere (so 1 % of the free acceleration a0 leaks through):
//   k = w^2, b = 2 z w, z the damping ratio at which that spring-damper, its force kept from
//   pulling, rebounds at e (mjcf-math.js dampratioOfRestitution), and w = 1 / (2 h): the stiffest MuJoCo takes stably
//   (its own rule, timeconst >= 2 h, at z = 1). So MuJoCo's contacts are softer than Hertz's,
//   rebound at about the e asked, and have nothing to do with Tumble's E and nu. Every geom has
//   the same k, and MuJoCo takes a pair's direct solref element by element as the smaller (the
//   larger b): the smaller e of the pair, Tumble's own rule (measured: a pair written -2500 0 and
//   -2500 -100 meets at -2500 -100).
// - Friction: MuJoCo has one coefficient (the kinetic mu is written; a static one that differs
//   is named in notes), a pyramid-free elliptic cone of its own solver rather than Tumble's
//   stick spring, and takes the larger mu of a pair where Tumble takes the geometric mean (named
//   when the shapes' values differ). A frictionless pair gets condim 1.
// - Joint limits -> the joint's range (from the start, where every tree joint's qpos is 0, as
//   Tumble measures them), solreflimit = (-k, -b) with k = w^2 from the stop's stiffness over
//   the inertia Tumble calibrates it on (forces/limits.rs: body b about the axis through the
//   joint's point, its mass for a slide; 10 Hz by default) and b = 2 z w for its restitution,
//   w held at 1 / (2 h) as the contacts' (MuJoCo's own rule for its standard solref, timeconst
//   >= 2 h, which the direct form bypasses): a stiffer stop rang the suite's cheetah, imported
//   with stops at 125 rad/s and exported for Euler at h = 0.01 (b h = 2.5: Euler's damping
//   unstable), off its feet and 1.1 m backwards in 3 s, where the model itself stands still.
//   Such a stop is softer in MuJoCo than in Tumble (a note counts them). The same for ropes
//   and tendon limits. Their solimplimit is MuJoCo's least impedance, d = 1e-4, where the
//   contacts' is 0.99: MuJoCo's limit is then the stop's own spring-damper, kept from pulling,
//   at rest too (at d = 0.99 it let in 1 % of the load: 100 times as stiff at rest as the stop,
//   and the import, which takes MuJoCo's stiffness at rest, made it 100 times stiffer on the way
//   back).
import { dot, norm, scale, unit, quatOf, IDENTITY, dampratioOfRestitution } from './mjcf-math.js';

const num = (x) => (Object.is(x, -0) ? '0' : String(x));
const vec = (v) => v.map(num).join(' ');

/** Tumble's default material (crates/tumble/src/shapes.rs, Material::default). */
const DEFAULT_MATERIAL = { young: 1e7, poisson: 0.45, restitution: 0.8, friction: 0.5 };
/** The stop's default ringing frequency (forces/limits.rs DEFAULT_HZ). */
const LIMIT_HZ = 10;
/** MuJoCo's impedance, constant: the reference spring-damper is followed to 1 %. */
const SOLIMP = '0.99 0.99 0.001 0.5 2';
/** The limits' impedance, constant at MuJoCo's least (mjMINIMP): MuJoCo's law is then
 * a1 = (1 - d) a0 - b v - k r with d = 1e-4, Tumble's stop (a linear spring-damper kept from
 * pulling) both at rest and in an impact, and the import's stiffness at rest, k / (1 - dmax)
 * (from-mjcf-contact.js stopOf), gives back the stop's own to 1e-4 (header). */
const LIMIT_SOLIMP = '0.0001 0.0001 0.001 0.5 2';

/** MuJoCo's direct solref "-k -b" for a spring of angular frequency w rebounding at e. */
export const solref = (w, e) => `${num(-w * w)} ${num(-2 * dampratioOfRestitution(e) * w)}`;

/** A stop's solreflimit at step h: its frequency w held at 1 / (2 h) (see the header), and
 * whether it was. */
function stopRef(w, e, h) {
  const top = 1 / (2 * h);
  return { ref: solref(Math.min(w, top), e), capped: w > top };
}

/** One layer of material fields over `base` (custom_contact.rs `material`: a missing
 * static_friction follows this layer's friction if it has one, else the base's). */
function over(base, js) {
  if (!js) return base;
  const friction = js.friction ?? base.friction;
  return { young: js.young ?? base.young, poisson: js.poisson ?? base.poisson, restitution: js.restitution ?? base.restitution,
    friction, static_friction: js.static_friction ?? (js.friction != null ? friction : base.static_friction),
    pull: js.pull ?? base.pull ?? false };
}

/** A shape's or plane's material: its fields over the section's over the defaults. */
const material = (section, own) => over(over({ ...DEFAULT_MATERIAL, static_friction: DEFAULT_MATERIAL.friction }, section), own);

/** The geom attributes of a material at step h: friction, condim, solref, solimp. */
function materialAttrs(m, h) {
  const mu = m.friction;
  return `friction="${num(mu)} 0 0" condim="${mu > 0 ? 3 : 1}" solref="${solref(1 / (2 * h), m.restitution)}" solimp="${SOLIMP}"`;
}

/** The inertia a limit acts on (forces/limits.rs `inertia`): body b's about the joint's axis
 * through its point for an angle, its mass for a slide. */
function limitInertia(s, j, slide) {
  const B = s.bodies[j.b];
  if (slide) return B.mass;
  const n = unit(j.axis_b), r = j.point_b, along = dot(r, n);
  return B.inertia[0] * n[0] * n[0] + B.inertia[1] * n[1] * n[1] + B.inertia[2] * n[2] * n[2] + B.mass * (dot(r, r) - along * along);
}

/** The range attributes of a limit `f` on MuJoCo joint direction `sign` (-1 where the tree
 * runs from Tumble's b to a: the coordinate is mirrored) at step h: { attrs, capped }. */
export function limitAttrs(s, f, sign, h) {
  const j = s.joints[f.joint];
  const m = limitInertia(s, j, f.type === 'slider_limit');
  const w = f.stiffness > 0 ? Math.sqrt(f.stiffness / m) : 2 * Math.PI * LIMIT_HZ;
  const lo = sign > 0 ? f.lower : -f.upper, hi = sign > 0 ? f.upper : -f.lower;
  const { ref, capped } = stopRef(w, f.restitution ?? 0.5, h);
  return { attrs: `limited="true" range="${num(lo)} ${num(hi)}" solreflimit="${ref}" solimplimit="${LIMIT_SOLIMP}"`, capped };
}

/** A rope's (forces/rope.rs) attributes for its two-site <spatial> tendon: the range 0 to its
 * length and MuJoCo's solreflimit of the stop's frequency on the two bodies' reduced mass (10 Hz
 * by default) and its restitution. MuJoCo's tendon inertia (tendon_invweight0) counts the bodies'
 * turning too, so the two stops match where the rope's points are at the bodies' centres. */
export function ropeAttrs(s, f, h) {
  const mb = s.bodies[f.b].mass, m = f.a == null ? mb : (mb * s.bodies[f.a].mass) / (mb + s.bodies[f.a].mass);
  const w = f.stiffness > 0 ? Math.sqrt(f.stiffness / m) : 2 * Math.PI * LIMIT_HZ;
  const { ref, capped } = stopRef(w, f.restitution ?? 0.5, h);
  return { attrs: `limited="true" range="0 ${num(f.length)}" solreflimit="${ref}" solimplimit="${LIMIT_SOLIMP}"`, capped };
}

/** A tendon limit's attributes for its <fixed> tendon: the range and, for Tumble's default stop
 * (10 Hz on the tendon's inertia), MuJoCo's solreflimit of that frequency and restitution; a
 * stop of given stiffness keeps MuJoCo's default solreflimit (the tendon's inertia in MuJoCo,
 * tendon_invweight0, is known only once it compiles): { attrs, note }. */
export function tendonLimitAttrs(f, h) {
  const range = `limited="true" range="${num(f.lower)} ${num(f.upper)}"`;
  if (f.stiffness > 0) return { attrs: range, note: `tendon ${f.tendon}'s limit: its stiffness ${num(f.stiffness)} becomes MuJoCo's default solreflimit`, capped: false };
  const { ref, capped } = stopRef(2 * Math.PI * LIMIT_HZ, f.restitution ?? 0.5, h);
  return { attrs: `${range} solreflimit="${ref}" solimplimit="${LIMIT_SOLIMP}"`, note: '', capped };
}

/** The contact of `system` (as given) for MJCF at step h: geom lines per body (index n: the
 * world), the mesh assets' lines, the <exclude> lines, whether contact is on, the option flags, and notes. `loops`:
 * the joints that close loops ({ a, b } each, a null for the ground). */
export function contactParts(system, n, h, loops) {
  const section = system.contact ?? {};
  const geoms = Array.from({ length: n + 1 }, () => []);
  const notes = [];
  const materials = [];
  const assets = [];
  let count = 0, meshes = 0; // (collision shapes, and those of them meshes)
  (system.bodies ?? []).forEach((body, b) => {
    (body.shapes ?? []).forEach((sh, i) => {
      const pos = sh.offset ?? [0, 0, 0], rot = sh.rotation ?? IDENTITY, name = `b${b}s${i}`;
      let form;
      if (sh.type === 'mesh') {
        // (MuJoCo meets planes with the mesh's hull's corners, as Tumble does)
        assets.push(`<mesh name="${name}" vertex="${vec(sh.vertices.flat())}" face="${vec(sh.faces.flat())}"/>`);
        form = `type="mesh" mesh="${name}"`;
      } else form = `type="${sh.type}" size="${vec(sh.type === 'sphere' ? [sh.radius] : sh.type === 'capsule' ? [sh.radius, sh.half_length] : sh.half)}"`;
      const at = `name="${name}" ${form} pos="${vec(pos)}" quat="${vec(quatOf(rot))}"`;
      // a visual shape: a geom that collides with nothing (its mass is not counted: the body's
      // <inertial> is given)
      if (sh.visual) { geoms[b].push(`<geom ${at} contype="0" conaffinity="0" rgba="0.6 0.7 0.9 1"/>`); return; }
      const m = material(section.material, sh.material);
      materials.push(m);
      geoms[b].push(`<geom ${at} contype="${sh.group ?? 1}" conaffinity="${sh.mask ?? 1}" ${materialAttrs(m, h)} rgba="0.9 0.6 0.3 1"/>`);
      count++;
      if (sh.type === 'mesh') meshes++;
    });
  });
  if (count === 0) return { geoms, assets, excludes: [], contact: false, flags: '', notes };
  const planes = (section.planes ?? []).map((p) => ({ ...p }));
  if (section.ground) {
    const g = system.gravity ?? [0, 0, -9.81];
    planes.unshift({ point: [0, 0, 0], normal: norm(g) > 0 ? scale(g, -1) : [0, 0, 1] });
  }
  planes.forEach((p, i) => {
    const m = material(section.material, p.material);
    materials.push(m);
    geoms[n].push(`<geom name="plane${i}" type="plane" size="0 0 1" pos="${vec(p.point)}" zaxis="${vec(unit(p.normal))}" contype="1" conaffinity="1" ${materialAttrs(m, h)} rgba="0.8 0.8 0.8 1"/>`);
  });
  if (meshes) notes.push(`${meshes} mesh shape${meshes > 1 ? 's' : ''}: MuJoCo meets other shapes with a mesh's convex hull, where Tumble takes its bounding box (against planes both take the hull's corners)`);
  const distinct = (key) => new Set(materials.map((m) => m[key])).size > 1;
  if (distinct('friction')) notes.push('contact friction: the shapes\' coefficients differ, and MuJoCo takes the larger of a pair where Tumble takes their geometric mean');
  const statics = materials.filter((m) => m.static_friction !== m.friction);
  if (statics.length) notes.push(`static friction (mu_s ${num(statics[0].static_friction)} beside mu_k ${num(statics[0].friction)}): MuJoCo has one friction coefficient, the kinetic one is written`);
  if (materials.some((m) => m.pull)) notes.push('contact pull: MuJoCo\'s contact force never pulls, so a material with "pull" is written as one that pushes only (its damping calibrated for the same e)');
  const excludes = section.collide_joined ? [] : loops.filter((j) => j.a !== j.b).map((j) => `<exclude body1="b${j.b}" body2="${j.a == null ? 'world' : `b${j.a}`}"/>`);
  for (const [a, b] of section.exclude ?? []) excludes.push(`<exclude body1="b${a}" body2="b${b}"/>`);
  return { geoms, assets, excludes, contact: true, flags: section.collide_joined ? ' filterparent="disable"' : '', notes };
}
