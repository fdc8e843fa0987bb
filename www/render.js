// render.js: draws the bodies (shaded boxes with their principal axes), the joints, a ground
// grid and the world axes with WebGL2, from the pose array the wasm module fills.
// World z is up. The orbit camera is driven by mouse and touch.

const MESH_VS = `#version 300 es
layout(location=0) in vec3 pos; layout(location=1) in vec3 nrm;
uniform mat4 uProj, uView, uModel; out vec3 vN;
void main() { vN = mat3(uModel) * nrm; gl_Position = uProj * uView * uModel * vec4(pos, 1.0); }`;
const MESH_FS = `#version 300 es
precision mediump float; in vec3 vN; uniform vec3 uColor; uniform float uAlpha; out vec4 o;
void main() { vec3 n = normalize(vN); float d = max(dot(n, normalize(vec3(0.45, -0.55, 0.7))), 0.0);
  float back = max(dot(n, normalize(vec3(-0.5, 0.6, -0.2))), 0.0);
  o = vec4(uColor * (0.32 + 0.62 * d + 0.12 * back), uAlpha); }`;
const LINE_VS = `#version 300 es
layout(location=0) in vec3 pos; layout(location=1) in vec3 col;
uniform mat4 uProj, uView; uniform float uPoint; out vec3 vC;
void main() { vC = col; gl_Position = uProj * uView * vec4(pos, 1.0); gl_PointSize = uPoint; }`;
const LINE_FS = `#version 300 es
precision mediump float; in vec3 vC; out vec4 o; void main() { o = vec4(vC, 1.0); }`;

function compile(gl, vs, fs) {
  const prog = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const sh = gl.createShader(type);
    gl.shaderSource(sh, src);
    gl.compileShader(sh);
    if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) {
      const numbered = src.split('\n').map((l, i) => `${i + 1}: ${l}`).join('\n');
      throw new Error(`shader compile error: ${gl.getShaderInfoLog(sh)}\n${numbered}`);
    }
    gl.attachShader(prog, sh);
  }
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(`shader link error: ${gl.getProgramInfoLog(prog)}`);
  const u = {};
  for (let i = 0; i < gl.getProgramParameter(prog, gl.ACTIVE_UNIFORMS); i++) {
    const name = gl.getActiveUniform(prog, i).name;
    u[name] = gl.getUniformLocation(prog, name);
  }
  return { prog, u };
}

// a unit cube centred at the origin: 36 vertices, position + normal
function cube() {
  const out = [];
  const faces = [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]];
  for (const [axis, s] of faces) {
    const a = (axis + 1) % 3, b = (axis + 2) % 3;
    const corner = (u, v) => { const p = [0, 0, 0]; p[axis] = 0.5 * s; p[a] = u * 0.5; p[b] = v * 0.5 * s; return p; };
    const n = [0, 0, 0]; n[axis] = s;
    for (const [u, v] of [[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]]) out.push(...corner(u, v), ...n);
  }
  return new Float32Array(out);
}

const mat = {
  perspective(out, fovy, aspect, near, far) {
    const f = 1 / Math.tan(fovy / 2);
    out.fill(0);
    out[0] = f / aspect; out[5] = f; out[10] = (far + near) / (near - far); out[11] = -1; out[14] = 2 * far * near / (near - far);
    return out;
  },
  lookAt(out, eye, target, up) {
    let zx = eye[0] - target[0], zy = eye[1] - target[1], zz = eye[2] - target[2];
    let l = Math.hypot(zx, zy, zz); zx /= l; zy /= l; zz /= l;
    let xx = up[1] * zz - up[2] * zy, xy = up[2] * zx - up[0] * zz, xz = up[0] * zy - up[1] * zx;
    l = Math.hypot(xx, xy, xz); xx /= l; xy /= l; xz /= l;
    const yx = zy * xz - zz * xy, yy = zz * xx - zx * xz, yz = zx * xy - zy * xx;
    out.set([xx, yx, zx, 0, xy, yy, zy, 0, xz, yz, zz, 0,
      -(xx * eye[0] + xy * eye[1] + xz * eye[2]), -(yx * eye[0] + yy * eye[1] + yz * eye[2]), -(zx * eye[0] + zy * eye[1] + zz * eye[2]), 1]);
    return out;
  },
};

const PALETTE = [[0.42, 0.75, 0.68], [0.49, 0.62, 0.86], [0.86, 0.66, 0.42], [0.72, 0.55, 0.82], [0.55, 0.78, 0.46], [0.85, 0.52, 0.52]];

/** Colour of body i: a cycling palette, so neighbours in a chain differ. */
export function bodyColor(i) {
  return PALETTE[i % PALETTE.length];
}

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error('This browser has no WebGL2, which the 3-D view needs.');
    this.gl = gl;
    this.mesh = compile(gl, MESH_VS, MESH_FS);
    this.line = compile(gl, LINE_VS, LINE_FS);
    this.cubeVao = gl.createVertexArray();
    gl.bindVertexArray(this.cubeVao);
    const vb = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, vb);
    gl.bufferData(gl.ARRAY_BUFFER, cube(), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    this.lineVao = gl.createVertexArray();
    gl.bindVertexArray(this.lineVao);
    this.lineBuf = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.lineBuf);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    gl.bindVertexArray(null);
    this.proj = new Float32Array(16); this.view = new Float32Array(16); this.model = new Float32Array(16);
    this.cam = { target: [0, 0, 0], dist: 10, yaw: -1.1, pitch: 0.35 };
    this.lines = new Float32Array(0);
    this.grid = [];
    this.attachControls();
  }

  // frame the camera on the scene: around the ground joints if there are any
  frame(poses, sizes, joints, grounded) {
    const n = sizes.length / 3;
    let reach = 0, c = [0, 0, 0];
    if (grounded) {
      for (let i = 0; i < n; i++) {
        const r = Math.hypot(poses[12 * i], poses[12 * i + 1], poses[12 * i + 2]) + 0.5 * Math.hypot(sizes[3 * i], sizes[3 * i + 1], sizes[3 * i + 2]);
        reach = Math.max(reach, r);
      }
      // a hanging system can swing out to its full length: frame that, not just the start pose
      let length = 0;
      for (let i = 0; i < n; i++) length += Math.max(sizes[3 * i], sizes[3 * i + 1], sizes[3 * i + 2]);
      reach = Math.max(reach, length);
      // hanging systems swing below the ground joint, a top stands above it
      let meanZ = 0;
      for (let i = 0; i < n; i++) meanZ += poses[12 * i + 2] / n;
      c = [0, 0, (meanZ > 0 ? 0.45 : -0.45) * reach];
    } else {
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c[k] += poses[12 * i + k] / n;
      for (let i = 0; i < n; i++) {
        const r = Math.hypot(poses[12 * i] - c[0], poses[12 * i + 1] - c[1], poses[12 * i + 2] - c[2]) + 0.6 * Math.hypot(sizes[3 * i], sizes[3 * i + 1], sizes[3 * i + 2]);
        reach = Math.max(reach, r);
      }
    }
    reach = Math.max(reach, 0.5);
    this.cam.target = c;
    this.cam.dist = (grounded && n > 1 ? 2.0 : 3.4) * reach;
    this.scale = reach;
    this.buildGrid(reach, grounded ? Math.min(c[2] - reach * 0.75, -0.3 * reach) : c[2] - reach * 0.9);
  }

  buildGrid(reach, z) {
    const g = [], step = Math.pow(10, Math.floor(Math.log10(reach / 2)));
    const half = Math.ceil(1.6 * reach / step) * step, col = [0.27, 0.31, 0.40];
    for (let v = -half; v <= half + 1e-9; v += step) {
      g.push(v, -half, z, ...col, v, half, z, ...col, -half, v, z, ...col, half, v, z, ...col);
    }
    const a = 0.35 * reach; // world axes at the origin
    g.push(0, 0, 0, 0.9, 0.3, 0.3, a, 0, 0, 0.9, 0.3, 0.3, 0, 0, 0, 0.3, 0.8, 0.3, 0, a, 0, 0.3, 0.8, 0.3, 0, 0, 0, 0.35, 0.5, 1, 0, 0, a, 0.35, 0.5, 1);
    this.grid = g;
  }

  /** Forget the trails (a new run). */
  clearTrails() {
    this.trail = null;
  }

  // trails of chosen points: the centres of up to TRAIL_BODIES bodies, evenly spread (the last
  // included), over the last TRAIL_LEN frames, kept in a ring
  recordTrails(poses) {
    const n = poses.length / 12, TRAIL_BODIES = 8, TRAIL_LEN = 400;
    if (!this.trail) {
      const k = Math.min(n, TRAIL_BODIES);
      const bodies = Array.from({ length: k }, (_, j) => Math.round(((j + 1) * n) / k) - 1);
      this.trail = { bodies, len: 0, head: 0, pts: new Float32Array(k * TRAIL_LEN * 3), cap: TRAIL_LEN };
    }
    const t = this.trail;
    t.bodies.forEach((b, j) => t.pts.set([poses[12 * b], poses[12 * b + 1], poses[12 * b + 2]], 3 * (j * t.cap + t.head)));
    t.head = (t.head + 1) % t.cap;
    t.len = Math.min(t.len + 1, t.cap);
  }

  trailLines(L, k) {
    const t = this.trail;
    if (!t || t.len < 2) return k;
    for (let j = 0; j < t.bodies.length; j++) {
      for (let i = 1; i < t.len; i++) {
        const a = (t.head - t.len + i - 1 + 2 * t.cap) % t.cap, b = (a + 1) % t.cap;
        const fade = 0.25 + 0.75 * i / t.len;
        for (const q of [a, b]) {
          const o = 3 * (j * t.cap + q);
          L[k++] = t.pts[o]; L[k++] = t.pts[o + 1]; L[k++] = t.pts[o + 2];
          L[k++] = 0.95 * fade; L[k++] = 0.8 * fade; L[k++] = 0.3 * fade;
        }
      }
    }
    return k;
  }

  /** Draw the primary run solid, then `ghosts` ([{ poses, color }], same bodies) translucent. */
  draw(poses, sizes, joints, ghosts = []) {
    const gl = this.gl, cv = this.canvas;
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const w = Math.max(1, Math.round(cv.clientWidth * dpr)), h = Math.max(1, Math.round(cv.clientHeight * dpr));
    if (cv.width !== w || cv.height !== h) { cv.width = w; cv.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(0.06, 0.08, 0.125, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    const c = this.cam, cp = Math.cos(c.pitch);
    const eye = [c.target[0] + c.dist * cp * Math.cos(c.yaw), c.target[1] + c.dist * cp * Math.sin(c.yaw), c.target[2] + c.dist * Math.sin(c.pitch)];
    mat.perspective(this.proj, 0.8, w / h, c.dist * 0.01, c.dist * 10);
    mat.lookAt(this.view, eye, c.target, [0, 0, 1]);
    gl.useProgram(this.mesh.prog);
    gl.uniformMatrix4fv(this.mesh.u.uProj, false, this.proj);
    gl.uniformMatrix4fv(this.mesh.u.uView, false, this.view);
    gl.bindVertexArray(this.cubeVao);
    gl.uniform1f(this.mesh.u.uAlpha, 1);
    this.boxes(poses, sizes, (i) => bodyColor(i));
    if (ghosts.length) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      gl.uniform1f(this.mesh.u.uAlpha, 0.35);
      for (const g of ghosts) this.boxes(g.poses, sizes, () => g.color);
      gl.depthMask(true);
      gl.disable(gl.BLEND);
    }
    this.lineOverlay(poses, sizes, joints);
  }

  boxes(poses, sizes, color) {
    const gl = this.gl, n = sizes.length / 3, m = this.model;
    for (let i = 0; i < n; i++) {
      const p = 12 * i;
      for (let col = 0; col < 3; col++) {
        const s = sizes[3 * i + col];
        m[4 * col] = poses[p + 3 + 3 * col] * s; m[4 * col + 1] = poses[p + 4 + 3 * col] * s; m[4 * col + 2] = poses[p + 5 + 3 * col] * s; m[4 * col + 3] = 0;
      }
      m[12] = poses[p]; m[13] = poses[p + 1]; m[14] = poses[p + 2]; m[15] = 1;
      gl.uniformMatrix4fv(this.mesh.u.uModel, false, m);
      gl.uniform3fv(this.mesh.u.uColor, color(i));
      gl.drawArrays(gl.TRIANGLES, 0, 36);
    }
  }

  lineOverlay(poses, sizes, joints) {
    const gl = this.gl, n = sizes.length / 3;
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    // lines: grid, then each body's principal axes (red x1, green x2, blue x3), then joints
    const trailVerts = this.trail ? 2 * this.trail.bodies.length * this.trail.cap : 0;
    const nl = this.grid.length / 6 + 6 * n + trailVerts;
    const need = 6 * (nl + joints.length / 3);
    if (this.lines.length < need) this.lines = new Float32Array(need);
    const L = this.lines;
    L.set(this.grid);
    let k = this.grid.length;
    const axc = [[1, 0.35, 0.3], [0.35, 0.9, 0.35], [0.4, 0.6, 1]];
    for (let i = 0; i < n; i++) {
      const p = 12 * i;
      for (let a = 0; a < 3; a++) {
        const len = 0.5 * sizes[3 * i + a] + 0.3 * Math.max(sizes[3 * i], sizes[3 * i + 1], sizes[3 * i + 2]);
        L[k++] = poses[p]; L[k++] = poses[p + 1]; L[k++] = poses[p + 2]; L[k++] = axc[a][0]; L[k++] = axc[a][1]; L[k++] = axc[a][2];
        L[k++] = poses[p] + len * poses[p + 3 + 3 * a]; L[k++] = poses[p + 1] + len * poses[p + 4 + 3 * a]; L[k++] = poses[p + 2] + len * poses[p + 5 + 3 * a];
        L[k++] = axc[a][0]; L[k++] = axc[a][1]; L[k++] = axc[a][2];
      }
    }
    k = this.trailLines(L, k);
    const lineVerts = k / 6;
    for (let j = 0; j < joints.length; j += 3) { L[k++] = joints[j]; L[k++] = joints[j + 1]; L[k++] = joints[j + 2]; L[k++] = 1; L[k++] = 0.85; L[k++] = 0.25; }
    gl.useProgram(this.line.prog);
    gl.uniformMatrix4fv(this.line.u.uProj, false, this.proj);
    gl.uniformMatrix4fv(this.line.u.uView, false, this.view);
    gl.uniform1f(this.line.u.uPoint, 7 * dpr);
    gl.bindVertexArray(this.lineVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.lineBuf);
    gl.bufferData(gl.ARRAY_BUFFER, L.subarray(0, k), gl.DYNAMIC_DRAW);
    gl.drawArrays(gl.LINES, 0, lineVerts);
    gl.disable(gl.DEPTH_TEST);
    gl.drawArrays(gl.POINTS, lineVerts, k / 6 - lineVerts);
    gl.bindVertexArray(null);
  }

  // orbit by drag, zoom by wheel; one-finger drag and two-finger pinch on touch screens
  attachControls() {
    const cv = this.canvas, c = this.cam, pts = new Map();
    let pinch = 0;
    cv.addEventListener('pointerdown', (e) => { cv.setPointerCapture(e.pointerId); pts.set(e.pointerId, [e.clientX, e.clientY]); });
    const end = (e) => { pts.delete(e.pointerId); pinch = 0; };
    cv.addEventListener('pointerup', end);
    cv.addEventListener('pointercancel', end);
    cv.addEventListener('pointermove', (e) => {
      const prev = pts.get(e.pointerId);
      if (!prev) return;
      pts.set(e.pointerId, [e.clientX, e.clientY]);
      if (pts.size === 1) {
        c.yaw -= (e.clientX - prev[0]) * 0.008;
        c.pitch = Math.max(-1.5, Math.min(1.5, c.pitch + (e.clientY - prev[1]) * 0.008));
      } else if (pts.size === 2) {
        const [a, b] = [...pts.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch) c.dist = Math.max(0.2, c.dist * pinch / d);
        pinch = d;
      }
    });
    cv.addEventListener('wheel', (e) => { e.preventDefault(); c.dist = Math.max(0.2, c.dist * Math.exp(e.deltaY * 0.001)); }, { passive: false });
  }
}
