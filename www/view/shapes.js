// shapes.js: the collision shapes drawn as what they are (spheres round, capsules as a cylinder
// between two caps, boxes as boxes) in their bodies' frames, and the contact planes as wide thin
// slabs around the point under the camera's target. The shapes come from the module's
// contact_shapes (17 numbers a shape: body, kind 0 sphere / 1 capsule / 2 box / 3 mesh, three
// sizes in m, offset, axes column-major, in the body's frame; a mesh drawn as its triangles from
// shape_meshes, one instance of its own vertex array), contact_planes (point, normal) and
// shape_links (a hinge's point outside its body's shapes: a string to the body's centre). Drawn
// with the renderer's mesh program, instanced per mesh; per frame the instances of one run are
// written into one preallocated Float32Array: nothing is allocated.
import { cube, sphere, cylinder, meshVao, shapeMeshes } from './meshes.js';

const STRIDE = 18; // floats an instance: centre, three axes, size, colour
const PLANE_COLORS = [[0.33, 0.37, 0.42], [0.29, 0.32, 0.37]]; // a plane's tiles, alternating
const TILES = 15; // tiles a side: a plane is drawn as a TILES x TILES checkerboard fixed to the
// world (so that a body sliding on it, with the camera following, is seen to move)
const SLAB = 0.002; // a plane's drawn thickness (m), its top face just under the plane
const LINK_COLOR = [0.78, 0.8, 0.84];
const STOP_COLOR = [0.95, 0.55, 0.2]; // a joint limit's stops
const STOP_FLOATS = 11; // a limit's record (wasm limit_stops)

// the mean of the first n bodies' centres into out (3)
function centroid(poses, n, out) {
  out[0] = 0; out[1] = 0; out[2] = 0;
  for (let b = 0; b < n; b++) for (let k = 0; k < 3; k++) out[k] += poses[12 * b + k] / n;
}

export class ShapeLayer {
  /** `gl` and the palette `color(body)`. */
  constructor(gl, color) {
    this.gl = gl;
    this.color = color;
    this.buf = gl.createBuffer();
    this.data = new Float32Array(0);
    this.meshes = [sphere(), cylinder(), cube()].map((verts) => ({ vao: this.vao(verts), count: verts.length / 6 }));
    this.own = []; // the scene's mesh shapes: { shape, vao, count }
    this.set(null, null, null, null, null);
  }

  // a vertex array over `verts` with the instance attributes (locations 2-7) from this.buf
  vao(verts, buf) {
    const gl = this.gl, vao = meshVao(gl, verts, buf);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buf);
    for (let a = 0; a < 6; a++) {
      gl.enableVertexAttribArray(2 + a);
      gl.vertexAttribPointer(2 + a, 3, gl.FLOAT, false, 4 * STRIDE, 12 * a);
      gl.vertexAttribDivisor(2 + a, 1);
    }
    gl.bindVertexArray(null);
    return vao;
  }

  /** The shapes, planes, strings, joint stops and mesh triangles of a new scene (any may be
   * null or empty). */
  set(shapes, planes, links, stops, meshes) {
    this.shapes = shapes?.length ? shapes : null;
    this.stops = stops?.length ? stops : null;
    this.planes = planes?.length ? planes : null;
    this.wallTop = 0; // (walls drawn as high as the bodies reach: set by frame)
    this.links = links?.length ? links : null;
    // a string's radius: a tenth of the smallest shape's size
    this.linkRadius = Infinity;
    const ns = this.shapes ? this.shapes.length / 17 : 0, np = this.planes ? this.planes.length / 6 : 0;
    let spheres = 0, cylinders = 0, boxes = 0;
    this.shaped = new Set();
    for (let s = 0; s < ns; s++) {
      const kind = this.shapes[17 * s + 1];
      this.shaped.add(this.shapes[17 * s]);
      if (kind === 0) spheres += 1;
      else if (kind === 1) { spheres += 2; cylinders += 1; } else if (kind === 2) boxes += 1;
      this.linkRadius = Math.min(this.linkRadius, 0.1 * this.shapes[17 * s + 2]);
    }
    cylinders += this.links ? this.links.length / 4 : 0;
    // a stop: a short bar from the hinge towards where body b's centre stops
    const stopBars = this.stops ? 2 * this.stops.length / STOP_FLOATS : 0;
    cylinders += stopBars;
    // instances by mesh: spheres (and caps), then cylinders, then boxes and the planes' tiles
    this.counts = [spheres, cylinders, boxes + np * TILES * TILES];
    this.setMeshes(meshes);
    const need = STRIDE * (this.meshBase + this.own.length);
    this.tile = 1; // a tile's side (m), set by `frame` and `size`
    if (this.data.length < need) {
      this.data = new Float32Array(need);
      const gl = this.gl;
      gl.bindBuffer(gl.ARRAY_BUFFER, this.buf);
      gl.bufferData(gl.ARRAY_BUFFER, this.data.byteLength, gl.DYNAMIC_DRAW);
    }
  }

  // each mesh shape's vertex array (the last scene's deleted), its instance after all others
  setMeshes(flat) {
    const gl = this.gl;
    for (const m of this.own) { gl.deleteBuffer(m.verts); gl.deleteVertexArray(m.vao); }
    this.meshBase = this.counts[0] + this.counts[1] + this.counts[2];
    this.own = shapeMeshes(flat).map(({ shape, verts }) => {
      const buf = gl.createBuffer();
      return { shape, vao: this.vao(verts, buf), verts: buf, count: verts.length / 6 };
    });
    this.slot = new Map(this.own.map((m, i) => [m.shape, this.meshBase + i]));
  }

  /** Frame `camera` on free bodies over the planes: the bodies and the points of the first
   * plane under them, so that a falling ball is seen down to the ground; remember where the
   * target sits from the bodies' centre along the plane, for `track`. Returns true. */
  frame(camera, poses, sizes) {
    const n = sizes.length / 3, pl = this.planes;
    const m = this.mean ?? (this.mean = new Float64Array(3));
    centroid(poses, n, m);
    const h = (m[0] - pl[0]) * pl[3] + (m[1] - pl[1]) * pl[4] + (m[2] - pl[2]) * pl[5]; // height over the plane
    const t = [m[0] - 0.5 * h * pl[3], m[1] - 0.5 * h * pl[4], m[2] - 0.5 * h * pl[5]];
    let reach = 0.5 * Math.abs(h);
    for (let b = 0; b < n; b++) {
      const size = Math.hypot(sizes[3 * b], sizes[3 * b + 1], sizes[3 * b + 2]);
      // room around each body: a box resting on an incline is seen with the slope around it
      reach = Math.max(reach, Math.hypot(poses[12 * b] - t[0], poses[12 * b + 1] - t[1], poses[12 * b + 2] - t[2]) + 2 * size);
    }
    // walls (planes standing on the first, level one) are drawn as high as the bodies reach over
    // it at the start and a quarter more: low cushions round a billiard table, a pit's walls above its balls
    this.wallTop = 0;
    if (Math.abs(pl[5]) > 0.999) {
      for (let b = 0; b < n; b++) this.wallTop = Math.max(this.wallTop, poses[12 * b + 2] - pl[2] + 0.5 * Math.max(sizes[3 * b], sizes[3 * b + 1], sizes[3 * b + 2]));
      this.wallTop *= 1.25;
    }
    camera.scale = reach;
    // several bodies framed to their bounds and the points under them on the plane (billiard
    // balls on their table, a row of dominoes, a pit's balls over its floor): at most 1.2 times
    // the distance that fits them in the view's middle (billiard balls were 18-25 % of the view
    // at 3.4 times the reach), never closer than that
    const feet = new Float64Array(3 * n), lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]; // (once a load)
    for (let b = 0; b < n; b++) {
      const o = 12 * b, hb = (poses[o] - pl[0]) * pl[3] + (poses[o + 1] - pl[1]) * pl[4] + (poses[o + 2] - pl[2]) * pl[5];
      const r = 0.5 * Math.hypot(sizes[3 * b], sizes[3 * b + 1], sizes[3 * b + 2]);
      for (let k = 0; k < 3; k++) {
        feet[3 * b + k] = poses[o + k] - hb * pl[3 + k];
        lo[k] = Math.min(lo[k], poses[o + k] - r, feet[3 * b + k]);
        hi[k] = Math.max(hi[k], poses[o + k] + r, feet[3 * b + k]);
      }
    }
    for (let k = 0; k < 3; k++) t[k] = 0.5 * (lo[k] + hi[k]); // the middle of those bounds
    camera.target = t;
    const fit = camera.fitDistance(poses, sizes, feet);
    // (one body keeps the room its reach gives: a box sliding down an incline, seen with the slope)
    camera.dist = Math.max(fit, n > 1 ? Math.min(3.4 * reach, 1.2 * fit) : 3.4 * reach);
    this.size(camera.dist);
    this.offset = [t[0] - m[0], t[1] - m[1], t[2] - m[2]];
    return true;
  }

  /** The ground grid's height: on the first plane where it is level, else `z`. */
  groundZ(z) {
    const pl = this.planes;
    return Math.abs(pl[5]) > 0.999 ? pl[2] - 1e-3 : z;
  }

  /** Move the camera's target with the bodies along the first plane (not across it: a ball
   * bouncing straight up and down stays in a still view); while the camera keeps several bodies
   * framed (camera.js ease), it does that, and the target's offset from their centroid follows. */
  track(camera, poses, n, sizes, joints) {
    const m = this.mean ??= new Float64Array(3), pl = this.planes, o = this.offset ??= [0, 0, 0], t = camera.target;
    centroid(poses, n, m);
    if (camera.auto) {
      camera.ease(poses, sizes, joints, performance.now());
      for (let k = 0; k < 3; k++) o[k] = t[k] - m[k];
      return;
    }
    const nx = pl[3], ny = pl[4], nz = pl[5];
    // the target moves by the bodies' move minus its part along the normal
    const dx = m[0] + o[0] - t[0], dy = m[1] + o[1] - t[1], dz = m[2] + o[2] - t[2];
    const along = dx * nx + dy * ny + dz * nz;
    t[0] += dx - along * nx; t[1] += dy - along * ny; t[2] += dz - along * nz;
  }

  /** Whether body `b` has shapes (its box is then not drawn). */
  hides(b) {
    return this.shaped.has(b);
  }

  // write one instance at index k: centre c, axes given as three columns, size, colour
  put(k, cx, cy, cz, a, size0, size1, size2, col) {
    const d = this.data, o = STRIDE * k;
    d[o] = cx; d[o + 1] = cy; d[o + 2] = cz;
    for (let i = 0; i < 9; i++) d[o + 3 + i] = a[i];
    d[o + 12] = size0; d[o + 13] = size1; d[o + 14] = size2;
    d[o + 15] = col[0]; d[o + 16] = col[1]; d[o + 17] = col[2];
  }

  // a string from link `o`'s point to its body's centre as cylinder instance k; returns k + 1
  link(k, poses, o) {
    const L = this.links, p = 12 * L[o], ax = this.axes, px = L[o + 1], py = L[o + 2], pz = L[o + 3];
    const x0 = poses[p], y0 = poses[p + 1], z0 = poses[p + 2];
    const wx = poses[p + 3] * px + poses[p + 6] * py + poses[p + 9] * pz;
    const wy = poses[p + 4] * px + poses[p + 7] * py + poses[p + 10] * pz;
    const wz = poses[p + 5] * px + poses[p + 8] * py + poses[p + 11] * pz;
    const len = Math.sqrt(wx * wx + wy * wy + wz * wz) || 1;
    const ux = wx / len, uy = wy / len, uz = wz / len; // from the centre to the point
    const ex = Math.abs(ux) < 0.9 ? 1 : 0, ey = 1 - ex;
    let ax0 = uy * 0 - uz * ey, ay0 = uz * ex - ux * 0, az0 = ux * ey - uy * ex;
    const l = Math.sqrt(ax0 * ax0 + ay0 * ay0 + az0 * az0); ax0 /= l; ay0 /= l; az0 /= l;
    ax[0] = ax0; ax[1] = ay0; ax[2] = az0;
    ax[3] = uy * az0 - uz * ay0; ax[4] = uz * ax0 - ux * az0; ax[5] = ux * ay0 - uy * ax0;
    ax[6] = ux; ax[7] = uy; ax[8] = uz;
    const r = this.linkRadius;
    this.put(k, x0 + 0.5 * wx, y0 + 0.5 * wy, z0 + 0.5 * wz, ax, r, r, len, LINK_COLOR);
    return k + 1;
  }

  // stop q (lower, upper of each limit in turn) as cylinder instance k, or a hidden one when
  // it is not drawn; a stop on a joint between two bodies turns with body a (`poses`); returns
  // k + 1
  stop(k, q, poses) {
    const S = this.stops, o = STOP_FLOATS * (q >> 1), d = o + 4 + 3 * (q & 1), ax = this.axes, len = S[o + 10];
    let px = S[o + 1], py = S[o + 2], pz = S[o + 3], ux = S[d], uy = S[d + 1], uz = S[d + 2];
    const a = S[o];
    if (a >= 0) {
      // x_a + R_a p and R_a u (R column-major after the centre)
      // (scalars: nothing allocated in a frame)
      const P = poses, b = 12 * a, p0 = S[o + 1], p1 = S[o + 2], p2 = S[o + 3], u0 = S[d], u1 = S[d + 1], u2 = S[d + 2];
      px = P[b] + P[b + 3] * p0 + P[b + 6] * p1 + P[b + 9] * p2;
      py = P[b + 1] + P[b + 4] * p0 + P[b + 7] * p1 + P[b + 10] * p2;
      pz = P[b + 2] + P[b + 5] * p0 + P[b + 8] * p1 + P[b + 11] * p2;
      ux = P[b + 3] * u0 + P[b + 6] * u1 + P[b + 9] * u2;
      uy = P[b + 4] * u0 + P[b + 7] * u1 + P[b + 10] * u2;
      uz = P[b + 5] * u0 + P[b + 8] * u1 + P[b + 11] * u2;
    }
    if (!Number.isFinite(ux)) {
      this.put(k, px, py, pz, ax, 0, 0, 0, STOP_COLOR);
      return k + 1;
    }
    const ex = Math.abs(ux) < 0.9 ? 1 : 0, ey = 1 - ex;
    let ax0 = -uz * ey, ay0 = uz * ex, az0 = ux * ey - uy * ex;
    const l = Math.sqrt(ax0 * ax0 + ay0 * ay0 + az0 * az0); ax0 /= l; ay0 /= l; az0 /= l;
    ax[0] = ax0; ax[1] = ay0; ax[2] = az0;
    ax[3] = uy * az0 - uz * ay0; ax[4] = uz * ax0 - ux * az0; ax[5] = ux * ay0 - uy * ax0;
    ax[6] = ux; ax[7] = uy; ax[8] = uz;
    const bar = 1.6 * len, r = 0.03 * len; // from the hinge, past the centre (a rod's stop reaches 80 % of its length)
    this.put(k, px + 0.5 * bar * ux, py + 0.5 * bar * uy, pz + 0.5 * bar * uz, ax, r, r, bar, STOP_COLOR);
    return k + 1;
  }

  /** A scene with a stop on a hinge to the ground: the camera looks along the hinge's axis
   * (a little from above), so the swing and the stop's bar are seen face on, not edge on. The
   * axis: across the two stops' directions, or (one stop) across it and the way to the first
   * body's centre. */
  faceStop(camera, poses) {
    const S = this.stops;
    if (!S || S[0] >= 0) return;
    const lo = Number.isFinite(S[4]) ? 4 : 7, hi = lo === 4 && Number.isFinite(S[7]) ? 7 : -1;
    const p0 = S[1], p1 = S[2], p2 = S[3];
    const v0 = hi > 0 ? S[7] : poses[0] - p0, v1 = hi > 0 ? S[8] : poses[1] - p1, v2 = hi > 0 ? S[9] : poses[2] - p2;
    const ax = S[lo + 1] * v2 - S[lo + 2] * v1, ay = S[lo + 2] * v0 - S[lo] * v2, az = S[lo] * v1 - S[lo + 1] * v0;
    const level = Math.hypot(ax, ay);
    if (!(level > 0.9 * Math.hypot(ax, ay, az))) return; // (no axis, or one that is not level)
    camera.yaw = Math.atan2(ay, ax);
    camera.pitch = 0.2;
  }

  // one instanced draw of mesh `m` (an index in this.meshes, or a scene's own mesh) over
  // `count` instances from instance `first` on
  instances(m, first, count) {
    if (!count) return;
    const gl = this.gl, mesh = typeof m === 'number' ? this.meshes[m] : m;
    gl.bindVertexArray(mesh.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buf);
    for (let a = 0; a < 6; a++) gl.vertexAttribPointer(2 + a, 3, gl.FLOAT, false, 4 * STRIDE, 4 * STRIDE * first + 12 * a);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, mesh.count, count);
  }

  /** The planes' tiles for a view `dist` m from its target: a round number near a tenth of it. */
  size(dist) {
    const raw = 0.1 * dist, p = 10 ** Math.floor(Math.log10(raw)), m = raw / p;
    this.tile = (m < 2 ? 1 : m < 5 ? 2 : 5) * p;
  }

  // plane `o`'s tiles around the point under `target` as box instances from k; returns the next k
  plane(k, o, target) {
    const pl = this.planes, ax = this.axes, T = this.tile;
    const nx = pl[o + 3], ny = pl[o + 4], nz = pl[o + 5];
    // t1 = n x (x1 or x2, whichever is less along n), t2 = n x t1
    const ex = Math.abs(nx) < 0.9 ? 1 : 0, ey = 1 - ex;
    let t1x = -nz * ey, t1y = nz * ex, t1z = nx * ey - ny * ex;
    const l = Math.sqrt(t1x * t1x + t1y * t1y + t1z * t1z); t1x /= l; t1y /= l; t1z /= l;
    const t2x = ny * t1z - nz * t1y, t2y = nz * t1x - nx * t1z, t2z = nx * t1y - ny * t1x;
    ax[0] = t1x; ax[1] = t1y; ax[2] = t1z; ax[3] = t2x; ax[4] = t2y; ax[5] = t2z; ax[6] = nx; ax[7] = ny; ax[8] = nz;
    // the target in the plane's coordinates, snapped to the tiles: they stay where they are
    const rx = target[0] - pl[o], ry = target[1] - pl[o + 1], rz = target[2] - pl[o + 2];
    const i0 = Math.floor((rx * t1x + ry * t1y + rz * t1z) / T) - (TILES >> 1);
    const j0 = Math.floor((rx * t2x + ry * t2y + rz * t2z) / T) - (TILES >> 1);
    const down = 0.6 * SLAB; // the slab's top just under the plane
    if (this.wallTop > 0 && Math.abs(nz) < 0.1 && Math.abs(t1z) > 0.99) return this.wall(k, o, j0);
    for (let i = i0; i < i0 + TILES; i++) {
      for (let j = j0; j < j0 + TILES; j++) {
        const u = (i + 0.5) * T, v = (j + 0.5) * T;
        this.put(k++, pl[o] + u * t1x + v * t2x - down * nx, pl[o + 1] + u * t1y + v * t2y - down * ny,
          pl[o + 2] + u * t1z + v * t2z - down * nz, ax, T, T, SLAB, PLANE_COLORS[(i + j) & 1]);
      }
    }
    return k;
  }

  // a wall (plane `o` standing on the level first plane; its t1 vertical, t2 along the floor):
  // one row of tiles from the floor up to wallTop, the rest of its instances empty
  wall(k, o, j0) {
    const pl = this.planes, ax = this.axes, T = this.tile, floor = pl[2], H = this.wallTop;
    const u = (floor + 0.5 * H - pl[o + 2]) / ax[2], down = 0.6 * SLAB;
    for (let j = j0; j < j0 + TILES; j++) {
      const v = (j + 0.5) * T;
      this.put(k++, pl[o] + u * ax[0] + v * ax[3] - down * ax[6], pl[o + 1] + u * ax[1] + v * ax[4] - down * ax[7],
        pl[o + 2] + u * ax[2] + v * ax[5] - down * ax[8], ax, H / Math.abs(ax[2]), T, SLAB, PLANE_COLORS[j & 1]);
    }
    for (let i = 1; i < TILES; i++) for (let j = 0; j < TILES; j++) this.put(k++, 0, 0, 0, ax, 0, 0, 0, PLANE_COLORS[0]);
    return k;
  }

  /** Draw the shapes at `poses` (12 numbers a body), and the planes around `target` (world, m)
   * seen from `eye` when `planes` is set (the primary run only). The mesh program is in use
   * with its uniforms set. */
  draw(poses, planes, target, eye) {
    if (!this.shapes && !this.stops && !(planes && this.planes)) return;
    const gl = this.gl, sh = this.shapes, ax = this.axes ?? (this.axes = new Float64Array(9));
    let kSph = 0, kCyl = this.counts[0], kBox = this.counts[0] + this.counts[1];
    const ns = sh ? sh.length / 17 : 0;
    for (let s = 0; s < ns; s++) {
      const o = 17 * s, b = sh[o], kind = sh[o + 1], p = 12 * b;
      // world axes = R S (R the body's rotation, columns at p + 3.., S the shape's, at o + 8..)
      for (let c = 0; c < 3; c++) {
        for (let r = 0; r < 3; r++) {
          ax[3 * c + r] = poses[p + 3 + r] * sh[o + 8 + 3 * c] + poses[p + 6 + r] * sh[o + 9 + 3 * c] + poses[p + 9 + r] * sh[o + 10 + 3 * c];
        }
      }
      const ox = sh[o + 5], oy = sh[o + 6], oz = sh[o + 7];
      const cx = poses[p] + poses[p + 3] * ox + poses[p + 6] * oy + poses[p + 9] * oz;
      const cy = poses[p + 1] + poses[p + 4] * ox + poses[p + 7] * oy + poses[p + 10] * oz;
      const cz = poses[p + 2] + poses[p + 5] * ox + poses[p + 8] * oy + poses[p + 11] * oz;
      const col = this.color(b), r = sh[o + 2];
      if (kind === 0) {
        this.put(kSph++, cx, cy, cz, ax, r, r, r, col);
      } else if (kind === 1) {
        const hl = sh[o + 3];
        this.put(kCyl++, cx, cy, cz, ax, r, r, 2 * hl, col);
        this.put(kSph++, cx + hl * ax[6], cy + hl * ax[7], cz + hl * ax[8], ax, r, r, r, col);
        this.put(kSph++, cx - hl * ax[6], cy - hl * ax[7], cz - hl * ax[8], ax, r, r, r, col);
      } else if (kind === 2) {
        this.put(kBox++, cx, cy, cz, ax, 2 * sh[o + 2], 2 * sh[o + 3], 2 * sh[o + 4], col);
      } else {
        this.put(this.slot.get(s), cx, cy, cz, ax, 1, 1, 1, col);
      }
    }
    const nl = this.links ? this.links.length / 4 : 0;
    for (let l = 0; l < nl; l++) kCyl = this.link(kCyl, poses, 4 * l);
    const nst = this.stops ? this.stops.length / STOP_FLOATS : 0;
    for (let q = 0; q < 2 * nst; q++) kCyl = this.stop(kCyl, q, poses);
    let boxes = kBox - this.counts[0] - this.counts[1];
    if (planes && this.planes) {
      // a plane is seen from its free side only: from behind, it would hide what it bounds
      // (the walls of a box around the camera's target)
      const pl = this.planes;
      for (let q = 0; q < pl.length / 6; q++) {
        const o = 6 * q;
        const side = (eye[0] - pl[o]) * pl[o + 3] + (eye[1] - pl[o + 1]) * pl[o + 4] + (eye[2] - pl[o + 2]) * pl[o + 5];
        if (side > 0) kBox = this.plane(kBox, o, target);
      }
      boxes = kBox - this.counts[0] - this.counts[1];
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buf);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.data, 0, STRIDE * (this.own.length ? this.meshBase + this.own.length : kBox));
    this.instances(0, 0, this.counts[0]);
    this.instances(1, this.counts[0], this.counts[1]);
    this.instances(2, this.counts[0] + this.counts[1], boxes);
    for (let i = 0; i < this.own.length; i++) this.instances(this.own[i], this.meshBase + i, 1);
    gl.bindVertexArray(null);
  }
}
