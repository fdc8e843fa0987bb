// from-mjcf-compose.js: several MuJoCo joints on one body as one Tumble joint, for the import's
// joint stage (bodyJoint, from-mjcf-joints.js). No DOM.
//
// MuJoCo composes a body's joints in order, the first nearest the parent. The forms Tumble
// takes, each with the coordinates MuJoCo names (a slide, an angle) kept as the Tumble joint's
// own, so that each one's range, stiffness, damping and actuators land on it:
// - slide, slide, hinge (the hinge's axis normal to both slides: a planar root, MuJoCo's
//   hopper, walker, cheetah, swimmer) -> `planar` at the hinge's anchor, normal the hinge's
//   axis, slides 0 and 1 the two slides' axes: the slides translate the body before the hinge
//   turns it, so their directions stay the parent's, as Tumble's slides are a's;
// - slide, slide (point masses) -> `planar_slide`, normal the slides' cross product;
// - slide, slide, slide (mutually perpendicular) -> `translation`, the third along its axis_a;
// (the slides perpendicular, as the suite's are: Tumble's slide is b's point projected on its
// direction, MuJoCo's coordinate only where the slides are perpendicular);
// - two perpendicular hinges whose axis lines meet (a fin's roll and pitch, 5 mm apart along
//   the first axis) -> `universal` at the point where they meet: every point of the body there
//   stays put under both turns; lines that pass apart (the humanoid's ankles, 4 cm) ->
//   `universal` with that `offset`, its points the feet of the lines' common normal.
// Anything else is refused with the body's joints named and the forms Tumble takes.
import { dot, sub, add, scale, cross, norm, unit } from './mjcf-math.js';

/** The forms' names in the refusal message. */
const TAKES = 'Tumble takes one hinge, ball or slide; a slide and a hinge on one axis (cylindrical); two perpendicular hinges (universal, with an offset where their lines pass apart); three mutually perpendicular hinges through one point (gimbal); two perpendicular slides (planar_slide); three mutually perpendicular slides (translation); two perpendicular slides and then a hinge normal to both (planar); or none';

/** MuJoCo body `i`'s joints `list` (two or more; `types` their MuJoCo types) as one Tumble joint
 * through `make(type, k, extra)` (from-mjcf-joints.js), with their coordinates into
 * out.jointForces; `anchor(k)`, `axis(k)`: MuJoCo's world anchor and unit axis of joint k.
 * Returns false when no Tumble joint matches. */
export function composeJoints(cx, out, { i, list, types, make, anchor, axis }) {
  const { HINGE, SLIDE } = jointTypes(cx.mujoco);
  const perpendicular = (k1, k2) => Math.abs(dot(axis(k1), axis(k2))) < 1e-9;
  const slides = list.filter((k, n) => types[n] === SLIDE);
  // (perpendicular slides: Tumble measures a slide as b's point projected on its direction,
  // which for oblique slides is not MuJoCo's coordinate)
  const twoSlides = slides.length === 2 && perpendicular(slides[0], slides[1]);
  if (list.length === 3 && types[0] === SLIDE && types[1] === SLIDE && types[2] === HINGE && twoSlides
    && perpendicular(slides[0], list[2]) && perpendicular(slides[1], list[2])) {
    const kh = list[2], n = axis(kh);
    const t = make('planar', kh, { axes: [n, n], slides: slides.map(axis), coords: [slides[0], slides[1], kh] });
    out.jointForces.push([t, 'slider_spring', slides[0], 0], [t, 'slider_spring', slides[1], 1], [t, 'joint_spring', kh]);
    return true;
  }
  if (list.length === 3 && slides.length === 3 && perpendicular(slides[0], slides[1])
    && perpendicular(slides[0], slides[2]) && perpendicular(slides[1], slides[2])) {
    const n = axis(slides[2]);
    const t = make('translation', slides[2], { axes: [n, n], slides: slides.slice(0, 2).map(axis), coords: slides });
    out.jointForces.push(...slides.map((k, s) => [t, 'slider_spring', k, s]));
    return true;
  }
  if (list.length === 2 && twoSlides) {
    const n = unit(cross(axis(slides[0]), axis(slides[1])));
    const t = make('planar_slide', slides[1], { axes: [n, n], slides: slides.map(axis), coords: slides });
    out.jointForces.push([t, 'slider_spring', slides[0], 0], [t, 'slider_spring', slides[1], 1]);
    return true;
  }
  if (list.length === 2 && types.every((t) => t === HINGE) && perpendicular(list[0], list[1])) {
    // a universal joint at the feet of the lines' common normal: where they meet, one point
    // (a fin's: every point of the body there stays put under both turns); where they pass
    // apart (the humanoid's ankles), a's point on the first line, b's on the second, offset
    // along u1 x u2
    const [u1, u2] = [axis(list[0]), axis(list[1])];
    const [f1, f2] = feet(anchor(list[0]), u1, anchor(list[1]), u2);
    const gap = norm(sub(f2, f1)), meet = gap < 1e-9;
    const offset = meet ? 0 : dot(sub(f2, f1), cross(u1, u2));
    const t = make('universal', list[0], { axes: [u1, u2], at: f1, atB: meet ? f1 : f2, offset, coords: list });
    // its two hinges' angles: tendon terms (from-mjcf-tendons.js)
    out.jointForces.push([t, 'universal_hinge', list[0], 0], [t, 'universal_hinge', list[1], 1]);
    if (!meet) {
      cx.notes.push(`${cx.label(i)}: its two hinges pass ${fmtMm(gap)} apart: a universal joint with that offset`);
    } else if (norm(sub(f1, anchor(list[0]))) > 1e-9 || norm(sub(f1, anchor(list[1]))) > 1e-9) {
      cx.notes.push(`${cx.label(i)}: its two hinges meet ${fmtMm(norm(sub(f1, anchor(list[0]))))} from the first's anchor: a universal joint there`);
    }
    return true;
  }
  if (list.length === 3 && types.every((t) => t === HINGE) && gimbalAxes(cx, list)
    && [1, 2].every((n) => norm(sub(anchor(list[n]), anchor(list[0]))) < 1e-9)) {
    // three hinges through one point, mutually perpendicular at qpos0 (the humanoid's hips):
    // a gimbal joint, its three angles tendon terms (`hinge` 0, 1, 2)
    const t = make('gimbal', list[0], { axes: [axis(list[0]), axis(list[2])], middle: axis(list[1]), coords: list });
    out.jointForces.push(...list.map((k, n) => [t, 'universal_hinge', k, n]));
    return true;
  }
  return false;
}

/** Whether hinges `list` are mutually perpendicular in their body's frame at qpos0 (MuJoCo's
 * jnt_axis), as a gimbal joint's three hinges are at its zero. */
function gimbalAxes(cx, list) {
  const ax = list.map((k) => unit(Array.from(cx.model.jnt_axis.slice(3 * k, 3 * k + 3))));
  return [[0, 1], [1, 2], [0, 2]].every(([x, y]) => Math.abs(dot(ax[x], ax[y])) < 1e-9);
}

/** The refusal for MuJoCo body i's joints `list` that no Tumble joint matches. */
export function noComposition(cx, i, list) {
  const { model, label, jointNames } = cx;
  const named = list.map((k) => `${['free', 'ball', 'slide', 'hinge'][model.jnt_type[k]]}${jointNames[k] ? ` '${jointNames[k]}'` : ''}`);
  return new Error(`${label(i)} has ${list.length} joints (${named.join(', ')}) that no Tumble joint matches; ${TAKES}`);
}

/** MuJoCo's joint type values. */
function jointTypes(mujoco) {
  return { HINGE: mujoco.mjtJoint.mjJNT_HINGE.value, SLIDE: mujoco.mjtJoint.mjJNT_SLIDE.value };
}

/** The feet of the common normal of the lines p1 + s u1 and p2 + t u2 (unit, perpendicular):
 * the points of each nearest the other. */
function feet(p1, u1, p2, u2) {
  const w = sub(p1, p2), b = dot(u1, u2), d = dot(u1, w), e = dot(u2, w);
  const den = 1 - b * b;
  const s = (b * e - d) / den, t = (e - b * d) / den;
  return [add(p1, scale(u1, s)), add(p2, scale(u2, t))];
}

/** A length in millimetres for a note. */
function fmtMm(m) {
  return `${+(m * 1000).toPrecision(3)} mm`;
}
