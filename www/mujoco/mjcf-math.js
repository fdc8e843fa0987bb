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

/** The coefficient of restitution of a damped linear oscillator with damping ratio z: an impact
 * on a linear spring-damper ends after half a damped period, when the overlap is 0 again, and
 * the speed is then exp(-pi z / sqrt(1 - z^2)) of the impact's; an oscillator damped at or past
 * critical (z >= 1) does not come back out with any speed, e = 0. This is how MuJoCo's
 * dampratio (solref's second number) reads as a restitution (from-mjcf-contact.js). */
export function restitutionOfDampratio(z) {
  if (!(z >= 0)) throw new Error(`a damping ratio must be a number >= 0, not ${z}`);
  return z >= 1 ? 0 : Math.exp(-Math.PI * z / Math.sqrt(1 - z * z));
}

/** The damping ratio whose restitution is e (0 < e <= 1), the inverse of restitutionOfDampratio:
 * z = -ln e / sqrt(pi^2 + ln^2 e). */
export function dampratioOfRestitution(e) {
  if (!(e > 0 && e <= 1)) throw new Error(`a restitution must be in (0, 1], not ${e}`);
  const l = Math.log(e);
  return -l / Math.sqrt(Math.PI * Math.PI + l * l);
}
