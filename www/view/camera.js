// camera.js: the 3-D view's orbit camera: framing a scene, the rays through the view and
// picking a body under the pointer, where a world point is drawn, and the mouse and touch
// controls (drag to orbit, wheel or pinch to zoom; a press on a body goes to onGrab). The
// renderer (render.js) writes the camera's matrices each frame it draws, in place; everything
// here reads the camera of the last frame drawn. World z is up.

export const UP = [0, 0, 1];
export const FOVY = 0.8; // the camera's vertical field of view (rad)
const POSE = 12; // floats per body in the pose array
const NONE = new Float64Array(0);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };

export class Camera {
  constructor(canvas) {
    this.canvas = canvas;
    // orbit about `target` at distance `dist`, `yaw` about z and `pitch` above the xy plane (rad)
    this.target = [0, 0, 0];
    this.dist = 10;
    this.yaw = -1.1;
    this.pitch = 0.35;
    this.scale = 0; // the scene's reach (m), set by frame()
    this.eye = new Float64Array(3); // written by the renderer each frame, with the matrices
    this.proj = new Float32Array(16);
    this.view = new Float32Array(16);
    this.onGrab = null; // (event) -> true when a press grabs a body (no orbit then); see attachControls
    this.onDrag = null; // (event) -> 'orbit' when a held press should orbit from here on (a tap on a joint that moved on)
    this.onRelease = null;
    this.auto = false; // several bodies over a plane kept framed while they move (ease)
    this.canAuto = false;
    this.attachControls();
  }

  /** A new scene: several bodies over a plane (`plane`: the first contact plane, its point and
   * normal, 6 numbers, or null) are kept framed while they move (billiard balls spreading after
   * the break, a chain piling up on the floor), until the user zooms (wheel or pinch); Top, Side
   * and Fit keep them framed again. */
  autoOn(plane, n, poses, sizes, joints) {
    this.plane = plane;
    this.canAuto = this.auto = plane !== null && n > 1;
    this.easedAt = 0;
    this.easing = this.auto;
    this.hold = null; // the start's goal, when the start is framed wider (ease)
    if (this.auto) this.ease(poses, sizes, joints, 0);
  }

  /** Ease the target and distance towards the framing of the bodies' bounds, the points under
   * them on the plane and the joints, by the start's rule (shapes.js frame: 1.2 times the
   * distance that fits them in the view's middle, at most 3.4 times the scene's reach, never
   * closer than that fit): out within about 0.1 s when a body would leave the view, in over
   * about 0.5 s (in proportion) when they draw together, the target along within about 0.15 s; so the view follows
   * without jitter. `now`: the frame's time (ms). */
  ease(poses, sizes, joints, now) {
    const dt = this.easedAt ? Math.min(1, (now - this.easedAt) / 1000) : 0;
    this.easedAt = now;
    const n = sizes.length / 3, pl = this.plane, t = this.target;
    if (!this.feet || this.feet.length !== 3 * n) this.feet = new Float64Array(3 * n);
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity], feet = this.feet;
    for (let b = 0; b < n; b++) {
      const o = POSE * b, r = 0.5 * Math.hypot(sizes[3 * b], sizes[3 * b + 1], sizes[3 * b + 2]);
      const h = (poses[o] - pl[0]) * pl[3] + (poses[o + 1] - pl[1]) * pl[4] + (poses[o + 2] - pl[2]) * pl[5];
      for (let k = 0; k < 3; k++) {
        feet[3 * b + k] = poses[o + k] - h * pl[3 + k];
        lo[k] = Math.min(lo[k], poses[o + k] - r, feet[3 * b + k]);
        hi[k] = Math.max(hi[k], poses[o + k] + r, feet[3 * b + k]);
      }
    }
    for (let j = 0; j < joints.length; j++) { lo[j % 3] = Math.min(lo[j % 3], joints[j]); hi[j % 3] = Math.max(hi[j % 3], joints[j]); }
    if (!(hi[0] >= lo[0])) return;
    const was = [t[0], t[1], t[2]];
    for (let k = 0; k < 3; k++) t[k] = 0.5 * (lo[k] + hi[k]);
    const fit = Math.max(this.fitDistance(poses, sizes, joints), this.fitDistance(poses, NONE, feet));
    const goal = Math.max(fit, Math.min(3.4 * this.scale, 1.2 * fit));
    // a start framed wider than that (a hanging chain) is kept until the scene's extent shrinks
    // to 0.6 of the start's (the chain piled up), unless a body would leave the view
    this.hold ??= this.dist > 1.05 * goal ? goal : 0; // (at the start: autoOn)
    if (goal < 0.6 * this.hold) this.hold = 0;
    if (!(dt > 0) || (this.hold && goal <= this.dist)) { t[0] = was[0]; t[1] = was[1]; t[2] = was[2]; this.easing = !(dt > 0) && this.auto; return; }
    const kt = 1 - Math.exp(-dt / 0.15), kd = 1 - Math.exp(-dt / (goal > this.dist ? 0.1 : 0.5));
    const move = Math.hypot(t[0] - was[0], t[1] - was[1], t[2] - was[2]);
    this.easing = move > 1e-3 * this.dist || Math.abs(goal - this.dist) > 5e-3 * this.dist; // (not yet framed)
    for (let k = 0; k < 3; k++) t[k] = was[k] + kt * (t[k] - was[k]);
    this.dist *= Math.pow(goal / this.dist, kd); // (in proportion: a pile 30 times smaller than the start comes as fast)
  }

  // frame the camera on the scene (and return the height of the ground grid): around the
  // ground joints if there are any; `driven`: the
  // system has drives or loads, so a closed loop may move far from its start (the crane's
  // cylinder lifts its boom by 0.6 rad); `bound`: how far from the origin the bodies can swing
  // out through the joints from the ground (wasm reach; -1 when unknown)
  frame(poses, sizes, joints, grounded, driven = false, bound = -1) {
    const n = sizes.length / 3, nj = joints.length / 3;
    let reach = 0, c = [0, 0, 0], gridZ;
    const size = (i) => Math.hypot(sizes[3 * i], sizes[3 * i + 1], sizes[3 * i + 2]);
    if (grounded && nj > n) {
      // a closed loop (more joints than bodies: a four-bar, a chain hung between two points)
      // cannot swing out to its full length: frame the bodies and joints where they start
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c[k] += poses[12 * i + k] / (n + nj);
      for (let j = 0; j < nj; j++) for (let k = 0; k < 3; k++) c[k] += joints[3 * j + k] / (n + nj);
      for (let i = 0; i < n; i++) {
        reach = Math.max(reach, Math.hypot(poses[12 * i] - c[0], poses[12 * i + 1] - c[1], poses[12 * i + 2] - c[2]) + 0.6 * size(i));
      }
      for (let j = 0; j < nj; j++) reach = Math.max(reach, Math.hypot(joints[3 * j] - c[0], joints[3 * j + 1] - c[1], joints[3 * j + 2] - c[2]));
      gridZ = c[2] - reach * 0.9;
    } else if (grounded) {
      for (let i = 0; i < n; i++) {
        const r = Math.hypot(poses[12 * i], poses[12 * i + 1], poses[12 * i + 2]) + 0.5 * size(i);
        reach = Math.max(reach, r);
      }
      // a hanging system can swing out to its full length: frame that, not just the start pose
      // (the bound through the joints; without one, every body's length laid end to end, which
      // frames a governor's arms as if they hung in a row)
      let length = 0;
      for (let i = 0; i < n; i++) length += Math.max(sizes[3 * i], sizes[3 * i + 1], sizes[3 * i + 2]);
      reach = Math.max(reach, bound > 0 ? bound : length);
      // hanging systems swing below the ground joint, a top stands above it; several bodies
      // started above it (a double pendulum held up) fall through: frame the whole circle
      let meanZ = 0;
      for (let i = 0; i < n; i++) meanZ += poses[12 * i + 2] / n;
      c = [0, 0, (meanZ > 0 ? (n > 1 ? 0 : 0.45) : -0.45) * reach];
      gridZ = Math.min(c[2] - reach * 0.75, n > 1 ? -1.05 * reach : -0.3 * reach);
    } else {
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c[k] += poses[12 * i + k] / n;
      for (let i = 0; i < n; i++) {
        const r = Math.hypot(poses[12 * i] - c[0], poses[12 * i + 1] - c[1], poses[12 * i + 2] - c[2]) + 0.6 * size(i);
        reach = Math.max(reach, r);
      }
    }
    reach = Math.max(reach, 0.05); // small mechanisms (Andrews' squeezer, 0.1 m) fill the view too
    this.target = c;
    this.dist = (grounded && nj > n ? (driven ? 3.2 : 2.6) : grounded && n > 1 ? 2.0 : 3.4) * reach;
    // whatever the estimate, the bodies and joints where they start are in view (Kapitza's rod
    // stands on its carriage above the ground joint: the estimate cut off its top)
    this.dist = Math.max(this.dist, this.fitDistance(poses, sizes, joints));
    this.scale = reach;
    return grounded ? gridZ : c[2] - reach * 0.9;
  }

  /** Look at the bodies from above ('top'), from the side ('side': along x2, x1 across the view)
   * or from the direction the camera has ('fit'), framed to their bounds: the centre of the
   * bodies' boxes and the joints in the middle of the view, at the distance where they fill its
   * middle (fitDistance). A small scene on a large floor (billiard balls on their table, a chain's
   * pile) then fills the view. */
  look(which, poses, sizes, joints) {
    if (which === 'top') { this.yaw = -Math.PI / 2; this.pitch = 1.5; } // (not quite pi/2: the up vector stays defined)
    else if (which === 'side') { this.yaw = -Math.PI / 2; this.pitch = 0.05; }
    const n = sizes.length / 3, lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    const add = (p, r) => { for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k] - r); hi[k] = Math.max(hi[k], p[k] + r); } };
    for (let b = 0; b < n; b++) add(poses.subarray(POSE * b, POSE * b + 3), 0.5 * Math.hypot(sizes[3 * b], sizes[3 * b + 1], sizes[3 * b + 2]));
    for (let j = 0; j < joints.length; j += 3) add(joints.subarray(j, j + 3), 0);
    if (!(hi[0] >= lo[0])) return;
    this.target = [0, 1, 2].map((k) => 0.5 * (lo[k] + hi[k]));
    this.dist = Math.max(1e-3, this.fitDistance(poses, sizes, joints));
  }

  /** The joint markers' size (CSS px): 7 px, 4 px among more than 16 joints, and no wider than
   * the thinnest body is drawn at the target's distance, at least 2 px (a falling chain's links,
   * 1 cm thick, were buried under 4 px markers). Kept in `marker` for the tests. */
  markerSize(sizes, joints) {
    let thin = Infinity;
    for (let b = 0; b < sizes.length / 3; b++) thin = Math.min(thin, sizes[3 * b], sizes[3 * b + 1], sizes[3 * b + 2]);
    const perM = this.canvas.clientHeight / (2 * this.dist * Math.tan(FOVY / 2)); // CSS px a metre at the target
    this.marker = Math.max(2, Math.min(joints > 16 ? 4 : 7, thin > 0 ? thin * perM : Infinity));
    return this.marker;
  }

  /** The camera distance at which every box corner of `poses` and `sizes` and every joint point
   * is drawn within the middle FIT of the view's width and height, seen from the camera's
   * direction towards its target. */
  fitDistance(poses, sizes, joints) {
    const FIT = 0.85, c = this, cp = Math.cos(c.pitch);
    const back = [cp * Math.cos(c.yaw), cp * Math.sin(c.yaw), Math.sin(c.pitch)]; // from the target towards the eye
    const right = norm(cross([-back[0], -back[1], -back[2]], UP)), up = cross(right, [-back[0], -back[1], -back[2]]);
    const cv = this.canvas, aspect = cv.clientWidth > 0 && cv.clientHeight > 0 ? cv.clientWidth / cv.clientHeight : 1;
    const ty = FIT * Math.tan(FOVY / 2), tx = ty * aspect;
    let dist = 0;
    const fit = (x, y, z) => {
      const r = [x - c.target[0], y - c.target[1], z - c.target[2]];
      const dot = (v) => r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
      const toward = dot(back);
      dist = Math.max(dist, toward + Math.abs(dot(up)) / ty, toward + Math.abs(dot(right)) / tx);
    };
    for (let b = 0; b < sizes.length / 3; b++) {
      const o = POSE * b;
      for (let k = 0; k < 8; k++) {
        const q0 = (k & 1 ? 0.5 : -0.5) * sizes[3 * b], q1 = (k & 2 ? 0.5 : -0.5) * sizes[3 * b + 1], q2 = (k & 4 ? 0.5 : -0.5) * sizes[3 * b + 2];
        fit(poses[o] + poses[o + 3] * q0 + poses[o + 6] * q1 + poses[o + 9] * q2,
          poses[o + 1] + poses[o + 4] * q0 + poses[o + 7] * q1 + poses[o + 10] * q2,
          poses[o + 2] + poses[o + 5] * q0 + poses[o + 8] * q1 + poses[o + 11] * q2);
      }
    }
    for (let j = 0; j < joints.length; j += 3) fit(joints[j], joints[j + 1], joints[j + 2]);
    return dist;
  }

  /** The ray through the view at client point (x, y): { origin, dir } (world, dir a unit vector),
   * from the camera of the last frame drawn. */
  ray(x, y) {
    const cv = this.canvas, rect = cv.getBoundingClientRect(), c = this, e = this.eye;
    const nx = (2 * (x - rect.left)) / Math.max(1, rect.width) - 1, ny = 1 - (2 * (y - rect.top)) / Math.max(1, rect.height);
    const f = norm([c.target[0] - e[0], c.target[1] - e[1], c.target[2] - e[2]]);
    const r = norm(cross(f, UP)), u = cross(r, f), t = Math.tan(FOVY / 2), a = Math.max(1, rect.width) / Math.max(1, rect.height);
    const d = norm([0, 1, 2].map((i) => f[i] + nx * t * a * r[i] + ny * t * u[i]));
    return { origin: [e[0], e[1], e[2]], dir: d, forward: f };
  }

  /** The nearest body box under client point (x, y) for `poses` and `sizes`:
   * { body, point (body frame), hit (world), forward (the view direction) }, or null. */
  pick(x, y, poses, sizes) {
    const { origin: o, dir: d, forward } = this.ray(x, y);
    let best = null;
    for (let b = 0; b < sizes.length / 3; b++) {
      const p = POSE * b, rel = [o[0] - poses[p], o[1] - poses[p + 1], o[2] - poses[p + 2]];
      // the ray in the body's frame: R^T (o - x), R^T d (columns of R at p + 3, p + 6, p + 9)
      const col = (k, v) => poses[p + 3 + 3 * k] * v[0] + poses[p + 4 + 3 * k] * v[1] + poses[p + 5 + 3 * k] * v[2];
      const lo = [0, 1, 2].map((k) => col(k, rel)), ld = [0, 1, 2].map((k) => col(k, d));
      let t0 = -Infinity, t1 = Infinity;
      for (let k = 0; k < 3; k++) {
        const h = 0.5 * Math.max(sizes[3 * b + k], 0.02 * (this.scale || 1)); // thin boxes stay pickable
        if (Math.abs(ld[k]) < 1e-12) { if (Math.abs(lo[k]) > h) { t1 = -1; break; } continue; }
        const a = (-h - lo[k]) / ld[k], c = (h - lo[k]) / ld[k];
        t0 = Math.max(t0, Math.min(a, c)); t1 = Math.min(t1, Math.max(a, c));
      }
      if (t1 >= Math.max(t0, 0) && (!best || t0 < best.t)) {
        const t = Math.max(t0, 0);
        best = { body: b, t, point: [0, 1, 2].map((k) => lo[k] + t * ld[k]), hit: [0, 1, 2].map((k) => o[k] + t * d[k]), forward };
      }
    }
    return best;
  }

  /** The client point (pixels) where world point (x, y, z) is drawn, with the last frame's camera. */
  toScreen(x, y, z) {
    const V = this.view, P = this.proj, rect = this.canvas.getBoundingClientRect();
    const v = [0, 1, 2, 3].map((i) => V[i] * x + V[4 + i] * y + V[8 + i] * z + V[12 + i]);
    const c = [0, 1, 3].map((i) => P[i] * v[0] + P[4 + i] * v[1] + P[8 + i] * v[2] + P[12 + i] * v[3]);
    return [rect.left + (0.5 + 0.5 * c[0] / c[2]) * rect.width, rect.top + (0.5 - 0.5 * c[1] / c[2]) * rect.height];
  }

  /** Where the ray at client point (x, y) meets the plane through `point` facing along `normal`. */
  onPlane(x, y, point, normal) {
    const { origin: o, dir: d } = this.ray(x, y);
    const den = d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2];
    if (Math.abs(den) < 1e-9) return null;
    const t = ((point[0] - o[0]) * normal[0] + (point[1] - o[1]) * normal[1] + (point[2] - o[2]) * normal[2]) / den;
    return [0, 1, 2].map((k) => o[k] + t * d[k]);
  }

  // orbit by drag, zoom by wheel; one-finger drag and two-finger pinch on touch screens; a press
  // on a body grabs it (onGrab), unless a modifier key is held: then it orbits too
  attachControls() {
    const cv = this.canvas, c = this, pts = new Map();
    let pinch = 0, grabbing = null;
    cv.addEventListener('pointerdown', (e) => {
      cv.setPointerCapture(e.pointerId);
      if (!pts.size && grabbing === null && !(e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) && this.onGrab?.(e)) {
        grabbing = e.pointerId;
        return;
      }
      pts.set(e.pointerId, [e.clientX, e.clientY]);
    });
    const end = (e) => {
      if (e.pointerId === grabbing) { grabbing = null; this.onRelease?.(e); return; }
      pts.delete(e.pointerId); pinch = 0;
    };
    cv.addEventListener('pointerup', end);
    cv.addEventListener('pointercancel', end);
    cv.addEventListener('pointermove', (e) => {
      if (e.pointerId === grabbing) {
        // a press held for something else (a tap on a joint) that turned into a drag over empty
        // space: from here on it orbits
        if (this.onDrag?.(e) === 'orbit') { grabbing = null; pts.set(e.pointerId, [e.clientX, e.clientY]); }
        return;
      }
      const prev = pts.get(e.pointerId);
      if (!prev) return;
      pts.set(e.pointerId, [e.clientX, e.clientY]);
      if (pts.size === 1) {
        c.yaw -= (e.clientX - prev[0]) * 0.008;
        c.pitch = Math.max(-1.5, Math.min(1.5, c.pitch + (e.clientY - prev[1]) * 0.008));
      } else if (pts.size === 2) {
        const [a, b] = [...pts.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch) { c.dist = Math.max(0.2, c.dist * pinch / d); c.auto = false; }
        pinch = d;
      }
    });
    cv.addEventListener('wheel', (e) => { e.preventDefault(); c.dist = Math.max(0.2, c.dist * Math.exp(e.deltaY * 0.001)); c.auto = false; }, { passive: false });
  }
}
