// mjcf-math.js: the small vector algebra the conversions to and from MJCF share (to-mjcf.js,
// from-mjcf.js): 3-vectors as arrays, 3 x 3 matrices as arrays of rows, and the quaternion of
// a rotation matrix as MJCF writes it.

export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a) => Math.sqrt(dot(a, a));
export const unit = (a) => scale(a, 1 / norm(a));
export const mulv = (m, v) => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
export const tmulv = (m, v) => [0, 1, 2].map((i) => m[0][i] * v[0] + m[1][i] * v[1] + m[2][i] * v[2]);
export const transpose = (m) => [0, 1, 2].map((i) => [m[0][i], m[1][i], m[2][i]]);
export const mulm = (a, b) => a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j]));
export const IDENTITY = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

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

/** The coefficient of restitution of MuJoCo's contacts and limits at damping ratio z (solref's
 * second number): a linear spring-damper whose force is kept from pulling, as MuJoCo's
 * constraint force is. An impact from x = 0 at unit speed into the spring (w = 1), integrated
 * (RK4, 8000 steps) until the force x + 2 z x' reaches zero: e is the speed there. (The
 * textbook exp(-pi z / sqrt(1 - z^2)), the speed where x is 0 again, lets the force pull at the
 * end: kept from pulling, z = 0.5 rebounds at 0.30, not 0.16, and z = 1 at exp(-2), not 0.)
 * MuJoCo's own runs rebound at this e to 1 % (tests/js/mjcf-contact.test.mjs). */
export function restitutionOfDampratio(z) {
  if (!(z >= 0)) throw new Error(`a damping ratio must be a number >= 0, not ${z}`);
  const n = 8000, h = (4 * Math.PI + 20 * z) / n;
  const f = (x, v) => -x - 2 * z * v;
  let x = 0, v = 1;
  for (let i = 0; i < n; i++) {
    const k1v = f(x, v), k2v = f(x + h / 2 * v, v + h / 2 * k1v);
    const k3v = f(x + h / 2 * (v + h / 2 * k1v), v + h / 2 * k2v), k4v = f(x + h * (v + h / 2 * k2v), v + h * k3v);
    const xn = x + h / 6 * (v + 2 * (v + h / 2 * k1v) + 2 * (v + h / 2 * k2v) + v + h * k3v);
    const vn = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    const F0 = x + 2 * z * v, F1 = xn + 2 * z * vn;
    if (i > 0 && F1 <= 0) return -(v + (F0 / (F0 - F1)) * (vn - v));
    x = xn; v = vn;
  }
  return 0;
}

const ratios = new Map();
/** The damping ratio whose restitution (restitutionOfDampratio) is e, 0 < e <= 1: bisection on
 * [0, 10] (e falls as z grows; 10 rebounds at 0.002), 0 at e = 1. */
export function dampratioOfRestitution(e) {
  if (!(e > 0 && e <= 1)) throw new Error(`a restitution must be in (0, 1], not ${e}`);
  if (e === 1) return 0;
  if (!ratios.has(e)) {
    let lo = 0, hi = 10;
    for (let i = 0; i < 50; i++) {
      const z = (lo + hi) / 2;
      if (restitutionOfDampratio(z) > e) lo = z; else hi = z;
    }
    ratios.set(e, (lo + hi) / 2);
  }
  return ratios.get(e);
}
