// render.js: draws the bodies (shaded boxes with their principal axes), the joints, a ground
// grid and the world axes with WebGL2, from the pose array the wasm module fills, and the
// point-to-point springs as coils between the end points the module writes (write_springs).
// World z is up. The camera (camera.js) is framed here on each new scene; its matrices each frame.
import { Camera, UP, FOVY } from './camera.js';
import { cube, meshVao } from './meshes.js';
import { ShapeLayer } from './shapes.js';
import { ARROW_FLOATS, arrowLines } from './arrows.js';

// Bodies are instanced: one draw call per run (the primary, then each ghost) over a unit cube,
// with per-instance attributes read straight from the pose layout (centre, then the three
// columns of the rotation, 12 floats a body) plus the body's size and palette colour. The
// principal axes are one instanced line draw over the same attributes. Per frame the poses of
// every run go into one preallocated Float32Array and one bufferSubData; nothing is allocated.
const INSTANCE_ATTRIBS = `
layout(location=2) in vec3 iPos; layout(location=3) in vec3 iC0; layout(location=4) in vec3 iC1;
layout(location=5) in vec3 iC2; layout(location=6) in vec3 iSize;`;
const MESH_VS = `#version 300 es
layout(location=0) in vec3 pos; layout(location=1) in vec3 nrm;${INSTANCE_ATTRIBS}
layout(location=7) in vec3 iColor;
uniform mat4 uProj, uView; uniform vec4 uTint; out vec3 vN; out vec3 vC;
void main() { mat3 r = mat3(iC0, iC1, iC2); vN = r * (nrm * iSize); vC = uTint.a > 0.0 ? uTint.rgb : iColor;
  gl_Position = uProj * uView * vec4(iPos + r * (pos * iSize), 1.0); }`;
const MESH_FS = `#version 300 es
precision mediump float; in vec3 vN; in vec3 vC; uniform float uAlpha; out vec4 o;
void main() { vec3 n = normalize(vN); float d = max(dot(n, normalize(vec3(0.45, -0.55, 0.7))), 0.0);
  float back = max(dot(n, normalize(vec3(-0.5, 0.6, -0.2))), 0.0);
  o = vec4(vC * (0.32 + 0.62 * d + 0.12 * back), uAlpha); }`;
// a body's principal axes: segment a runs from the centre along rotation column a, over half
// the box's extent along it plus 0.3 of its largest extent (so the axes reach out of the box)
const AXIS_VS = `#version 300 es
layout(location=0) in vec3 tip; layout(location=1) in vec3 col;${INSTANCE_ATTRIBS}
uniform mat4 uProj, uView; out vec3 vC;
void main() { vec3 len = 0.5 * iSize + 0.3 * max(iSize.x, max(iSize.y, iSize.z)); vC = col;
  gl_Position = uProj * uView * vec4(iPos + mat3(iC0, iC1, iC2) * (tip * len), 1.0); }`;
const LINE_VS = `#version 300 es
layout(location=0) in vec3 pos; layout(location=1) in vec3 col;
uniform mat4 uProj, uView; uniform float uPoint; out vec3 vC;
void main() { vC = min(col, vec3(1.0)); gl_Position = uProj * uView * vec4(pos, 1.0);
  gl_PointSize = col.r > 1.5 ? uPoint * 13.0 / 7.0 : uPoint; }`; // a colour of 2: the charted joint's white frame, larger
const LINE_FS = `#version 300 es
precision mediump float; in vec3 vC; out vec4 o; void main() { o = vec4(vC, 1.0); }`;
// the axes' segments: (tip, colour) per vertex, red x1, green x2, blue x3
const AXIS_VERTS = new Float32Array([
  0, 0, 0, 1, 0.35, 0.3, 1, 0, 0, 1, 0.35, 0.3,
  0, 0, 0, 0.35, 0.9, 0.35, 0, 1, 0, 0.35, 0.9, 0.35,
  0, 0, 0, 0.4, 0.6, 1, 0, 0, 1, 0.4, 0.6, 1,
]);
const POSE = 12; // floats per body in the pose array
// a spring's coil: a helix of COIL_TURNS turns (COIL_SEGS segments a turn) over the middle
// COIL_SPAN of the spring, straight leads to its end points; the turns keep their number, so
// they spread apart as the spring stretches and crowd as it shortens
const COIL_TURNS = 9, COIL_SEGS = 12, COIL_SPAN = 0.8;
const COIL_LINES = COIL_TURNS * COIL_SEGS + 2; // segments per spring
/** Floats a spring takes in the line buffer (2 vertices a segment, position and colour). */
export const COIL_FLOATS = 12 * COIL_LINES;
const COIL_COLOR = [0.86, 0.89, 0.95]; // steel: light against the dark background, unlike any body
// a damper (a spring-damper with damping): a dashpot, its cylinder drawn as DASH_SIDES lines
// along it and a ring of DASH_SIDES segments at each end over the middle of the element, inside
// the coil when it has a spring too, a rod from end b into it and a lead from end a
const DASH_SIDES = 10, DASH_FROM = 0.28, DASH_TO = 0.62;
const DASH_LINES = 3 * DASH_SIDES + 2;
export const DASH_FLOATS = 12 * DASH_LINES;
const DASH_COLOR = [0.95, 0.72, 0.3]; // amber, apart from the steel coil and the bodies
const ROD_COLOR = [0.85, 0.87, 0.9], ROPE_COLOR = [0.85, 0.7, 0.45]; // a distance joint's rod: light steel; a rope (forces/rope.rs): tan
const DRIVEN_COLOR = [1, 0.35, 0.85]; // a distance driver's cylinder: magenta, as driven joints' marks
const PULL_COLOR = [1, 0.35, 0.85]; // the pointer's pull: magenta, unlike the bodies and the coils
const NO_GHOSTS = Object.freeze([]);

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

// The camera's matrices, written in place. Only objects and integers are passed between
// functions each frame: a fractional number passed to a function the engine did not inline is
// allocated (boxed), and that is garbage every frame.

const mat = {
  // perspective of vertical field `fovy` for a w x h view, near and far planes at 0.01 and 10 `dist`
  perspective(out, fovy, w, h, cam) {
    const f = 1 / Math.tan(fovy / 2), near = cam.dist * 0.01, far = cam.dist * 10;
    out.fill(0);
    out[0] = f / (w / h); out[5] = f; out[10] = (far + near) / (near - far); out[11] = -1; out[14] = 2 * far * near / (near - far);
    return out;
  },
  // written element by element and with sqrt rather than Math.hypot: no allocation per frame
  lookAt(out, eye, target, up) {
    let zx = eye[0] - target[0], zy = eye[1] - target[1], zz = eye[2] - target[2];
    let l = Math.sqrt(zx * zx + zy * zy + zz * zz); zx /= l; zy /= l; zz /= l;
    let xx = up[1] * zz - up[2] * zy, xy = up[2] * zx - up[0] * zz, xz = up[0] * zy - up[1] * zx;
    l = Math.sqrt(xx * xx + xy * xy + xz * xz); xx /= l; xy /= l; xz /= l;
    const yx = zy * xz - zz * xy, yy = zz * xx - zx * xz, yz = zx * xy - zy * xx;
    out[0] = xx; out[1] = yx; out[2] = zx; out[3] = 0;
    out[4] = xy; out[5] = yy; out[6] = zy; out[7] = 0;
    out[8] = xz; out[9] = yz; out[10] = zz; out[11] = 0;
    out[12] = -(xx * eye[0] + xy * eye[1] + xz * eye[2]);
    out[13] = -(yx * eye[0] + yy * eye[1] + yz * eye[2]);
    out[14] = -(zx * eye[0] + zy * eye[1] + zz * eye[2]);
    out[15] = 1;
    return out;
  },
};

const PALETTE = [[0.42, 0.75, 0.68], [0.49, 0.62, 0.86], [0.86, 0.66, 0.42], [0.72, 0.55, 0.82], [0.55, 0.78, 0.46], [0.85, 0.52, 0.52]];

/** Colour of body i: a cycling palette, so neighbours in a chain differ. */
export function bodyColor(i) {
  return PALETTE[i % PALETTE.length];
}

// dst[at .. at + count) = src[0 .. count) as 32-bit floats, without making a view
function copyInto(dst, at, src, count) {
  if (src.length === count) dst.set(src, at);
  else for (let i = 0; i < count; i++) dst[at + i] = src[i];
}

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error('This browser has no WebGL2, which the 3-D view needs.');
    this.gl = gl;
    this.mesh = compile(gl, MESH_VS, MESH_FS);
    this.axis = compile(gl, AXIS_VS, LINE_FS);
    this.line = compile(gl, LINE_VS, LINE_FS);
    // per-instance buffers: the poses of every run drawn (slot 0 the primary, then the ghosts),
    // the sizes and the palette colours; grown with the number of bodies and runs
    this.poseBuf = gl.createBuffer();
    this.sizeBuf = gl.createBuffer();
    this.colorBuf = gl.createBuffer();
    this.poseData = new Float32Array(0);
    this.sizeData = new Float32Array(0);
    this.colorCap = 0;
    this.sizesOf = null; // the sizes array the GPU holds, and for how many bodies
    this.sizeCount = -1;
    this.boxSizeBuf = gl.createBuffer(); // the boxes' sizes: zero for a body drawn by its shapes
    this.cubeVao = this.instancedVao(cube(), true, this.boxSizeBuf);
    this.shapes = new ShapeLayer(gl, bodyColor); // collision shapes and contact planes
    this.axisVao = this.instancedVao(AXIS_VERTS, false);
    // lines and points: the grid and world axes, then the trails, then the joints
    this.lineVao = gl.createVertexArray();
    gl.bindVertexArray(this.lineVao);
    this.lineBuf = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.lineBuf);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    gl.bindVertexArray(null);
    this.lines = new Float32Array(0);
    this.gridLen = 0; // floats of grid at the start of `lines`
    this.linesValid = 0; // floats at the start of `lines` the GPU holds as they are: the grid, then the trails until they change
    this.trailEnd = 0; // end of the trails in `lines`, when valid
    this.jointFrames = null; // "joint axes": 14 numbers a joint (jointFrame below), or null
    // "contact forces": `count` forces in `data` (6 numbers each), one `weight` drawn `unit` m
    this.arrows = { on: false, data: null, count: 0, weight: 1, unit: 0.2, drawn: 0, cut: 0, max: 0 };
    this.coilVerts = 0; // line vertices of the springs' coils in the last frame (a hook for the tests)
    this.camera = new Camera(canvas); // the orbit camera, its controls, rays and picking
    this.proj = this.camera.proj; this.view = this.camera.view; // (written each frame, in place)
    this.tint = new Float32Array(4); // a ghost's colour, alpha 1; alpha 0 for the palette
    this.rails = null; // the sliding joints' rails: 7 numbers each (a, point_a, axis_a; joint_rails), or null
    this.jointMarks = null; // per joint: 1 driven, 2 motor, 3 both (joint_marks), or null
    this.chartedJoint = -1; // the joint whose reaction the page charts: its marker is framed in white
    this.pull = null; // the pointer's pull ({ body, point (body frame), target (world) }): drawn as a line
    this.grid = new Float32Array(0);
    this.trail = null;
  }

  // a vertex array over a static mesh (position or tip, normal or colour: 6 floats a vertex)
  // and the per-instance attributes: pose (locations 2-5), size (6) and, for boxes, colour (7)
  instancedVao(verts, withColor, sizeBuf = this.sizeBuf) {
    const gl = this.gl, vao = meshVao(gl, verts);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.poseBuf);
    for (let a = 0; a < 4; a++) {
      gl.enableVertexAttribArray(2 + a);
      gl.vertexAttribPointer(2 + a, 3, gl.FLOAT, false, 4 * POSE, 12 * a);
      gl.vertexAttribDivisor(2 + a, 1);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, sizeBuf);
    gl.enableVertexAttribArray(6); gl.vertexAttribPointer(6, 3, gl.FLOAT, false, 12, 0); gl.vertexAttribDivisor(6, 1);
    if (withColor) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colorBuf);
      gl.enableVertexAttribArray(7); gl.vertexAttribPointer(7, 3, gl.FLOAT, false, 12, 0); gl.vertexAttribDivisor(7, 1);
    }
    gl.bindVertexArray(null);
    return vao;
  }


  /** The collision shapes (17 numbers each), contact planes (6 each), strings (4 each) and
   * joint stops (11 each) of a new scene, or null. */
  setShapes(shapes, planes, links, stops, meshes) {
    this.shapes.set(shapes, planes, links, stops, meshes);
    this.sizesOf = null; // the boxes' sizes follow which bodies have shapes
  }

  /** Frame the camera on a new scene (Camera.frame says how) and lay the ground grid under it. */
  frame(poses, sizes, joints, grounded, driven = false, bound = -1) {
    this.shapes.faceStop(this.camera, poses); // (a joint limit's swing seen face on)
    let gridZ = this.camera.frame(poses, sizes, joints, grounded, driven, bound);
    this.follow = !grounded && this.shapes.planes !== null && this.shapes.frame(this.camera, poses, sizes);
    if (this.follow) gridZ = this.shapes.groundZ(gridZ);
    else this.shapes.size(this.camera.dist);
    this.scale = this.camera.scale;
    this.camera.autoOn(this.shapes.planes, sizes.length / 3, poses, sizes, joints); // (kept framed as they move)
    this.buildGrid(this.scale, gridZ);
  }

  buildGrid(reach, z) {
    const g = [], step = Math.pow(10, Math.floor(Math.log10(reach / 2)));
    const half = Math.ceil(1.6 * reach / step) * step, col = [0.27, 0.31, 0.40];
    // a scene with contact planes has its ground: no grid lines through it (the world axes stay)
    for (let v = -half; v <= half + 1e-9 && !this.shapes.planes; v += step) {
      g.push(v, -half, z, ...col, v, half, z, ...col, -half, v, z, ...col, half, v, z, ...col);
    }
    const a = 0.35 * reach; // world axes at the origin
    g.push(0, 0, 0, 0.9, 0.3, 0.3, a, 0, 0, 0.9, 0.3, 0.3, 0, 0, 0, 0.3, 0.8, 0.3, 0, a, 0, 0.3, 0.8, 0.3, 0, 0, 0, 0.35, 0.5, 1, 0, 0, a, 0.35, 0.5, 1);
    this.grid = new Float32Array(g);
    this.linesValid = 0; // the grid goes to the GPU with the next frame
  }

  /** Forget the trails (a new run). */
  clearTrails() {
    this.trail = null;
    this.linesValid = Math.min(this.linesValid, this.gridLen);
  }

  // trails of chosen points: the centres of up to TRAIL_BODIES bodies, evenly spread (the last
  // included), over the last TRAIL_LEN frames, kept in a ring
  recordTrails(poses) {
    const n = poses.length / POSE, TRAIL_BODIES = 8, TRAIL_LEN = 400;
    if (!this.trail) {
      const k = Math.min(n, TRAIL_BODIES);
      const bodies = new Int32Array(k);
      for (let j = 0; j < k; j++) bodies[j] = Math.round(((j + 1) * n) / k) - 1;
      this.trail = { bodies, len: 0, head: 0, pts: new Float32Array(k * TRAIL_LEN * 3), cap: TRAIL_LEN };
    }
    const t = this.trail;
    for (let j = 0; j < t.bodies.length; j++) {
      const p = POSE * t.bodies[j], o = 3 * (j * t.cap + t.head);
      t.pts[o] = poses[p]; t.pts[o + 1] = poses[p + 1]; t.pts[o + 2] = poses[p + 2];
    }
    t.head = (t.head + 1) % t.cap;
    t.len = Math.min(t.len + 1, t.cap);
    this.linesValid = Math.min(this.linesValid, this.gridLen);
  }

  // write the trails' segments into L from k (fading towards the oldest); returns the end
  trailLines(L, k) {
    const t = this.trail;
    if (!t || t.len < 2) return k;
    for (let j = 0; j < t.bodies.length; j++) {
      for (let i = 1; i < t.len; i++) {
        const a = (t.head - t.len + i - 1 + 2 * t.cap) % t.cap, b = (a + 1) % t.cap;
        const fade = 0.25 + 0.75 * i / t.len;
        for (let e = 0; e < 2; e++) {
          const o = 3 * (j * t.cap + (e ? b : a));
          L[k++] = t.pts[o]; L[k++] = t.pts[o + 1]; L[k++] = t.pts[o + 2];
          L[k++] = 0.95 * fade; L[k++] = 0.8 * fade; L[k++] = 0.3 * fade;
        }
      }
    }
    return k;
  }

  /** Draw the primary run solid, then `ghosts` ([{ poses, color }], same bodies) translucent;
   * the primary's springs (6 numbers each: end a, end b) as coils. */
  draw(poses, sizes, joints, ghosts = NO_GHOSTS, springs = NO_GHOSTS) {
    const gl = this.gl, cv = this.canvas, n = sizes.length / 3;
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const w = Math.max(1, Math.round(cv.clientWidth * dpr)), h = Math.max(1, Math.round(cv.clientHeight * dpr));
    if (cv.width !== w || cv.height !== h) { cv.width = w; cv.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(0.06, 0.08, 0.125, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    const c = this.camera, cp = Math.cos(c.pitch), eye = c.eye;
    if (this.follow || c.auto) this.shapes.track(c, poses, n, sizes, joints); // free bodies on a plane: the camera goes along
    eye[0] = c.target[0] + c.dist * cp * Math.cos(c.yaw);
    eye[1] = c.target[1] + c.dist * cp * Math.sin(c.yaw);
    eye[2] = c.target[2] + c.dist * Math.sin(c.pitch);
    mat.perspective(this.proj, FOVY, w, h, c);
    mat.lookAt(this.view, eye, c.target, UP);
    this.upload(poses, sizes, ghosts, n);
    const u = this.mesh.u;
    gl.useProgram(this.mesh.prog);
    gl.uniformMatrix4fv(u.uProj, false, this.proj);
    gl.uniformMatrix4fv(u.uView, false, this.view);
    gl.bindVertexArray(this.cubeVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.poseBuf);
    gl.uniform1f(u.uAlpha, 1);
    const tint = this.tint;
    tint[3] = 0; // the palette, per body
    gl.uniform4fv(u.uTint, tint);
    this.boxes(0, n);
    this.shapes.draw(poses, true, c.target, eye);
    if (ghosts.length) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      gl.uniform1f(u.uAlpha, 0.35);
      for (let i = 0; i < ghosts.length; i++) {
        const col = ghosts[i].color; // copied, not passed as numbers: those would be boxed
        tint[0] = col[0]; tint[1] = col[1]; tint[2] = col[2]; tint[3] = 1;
        gl.uniform4fv(u.uTint, tint);
        gl.bindVertexArray(this.cubeVao);
        gl.bindBuffer(gl.ARRAY_BUFFER, this.poseBuf);
        this.boxes(i + 1, n);
        this.shapes.draw(ghosts[i].poses, false, c.target, eye);
      }
      gl.depthMask(true);
      gl.disable(gl.BLEND);
    }
    this.lineOverlay(joints, n, poses, sizes, springs);
  }

  // copy the poses of every run into one Float32Array and send it in one call; the sizes and
  // the palette only when they change
  upload(poses, sizes, ghosts, n) {
    const gl = this.gl, per = POSE * n, need = per * (1 + ghosts.length);
    if (this.poseData.length < need) {
      this.poseData = new Float32Array(need);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.poseBuf);
      gl.bufferData(gl.ARRAY_BUFFER, this.poseData.byteLength, gl.DYNAMIC_DRAW);
    }
    const P = this.poseData;
    copyInto(P, 0, poses, per);
    for (let i = 0; i < ghosts.length; i++) copyInto(P, per * (i + 1), ghosts[i].poses, per);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.poseBuf);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, P, 0, need);
    if (sizes !== this.sizesOf || n !== this.sizeCount) { // a run's sizes never change
      if (this.sizeData.length < 3 * n) this.sizeData = new Float32Array(3 * n);
      copyInto(this.sizeData, 0, sizes, 3 * n);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.sizeBuf);
      gl.bufferData(gl.ARRAY_BUFFER, this.sizeData, gl.STATIC_DRAW);
      // a body drawn by its collision shapes has no box (its principal axes stay)
      for (let b = 0; b < n; b++) if (this.shapes.hides(b)) this.sizeData.fill(0, 3 * b, 3 * b + 3);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.boxSizeBuf);
      gl.bufferData(gl.ARRAY_BUFFER, this.sizeData, gl.STATIC_DRAW);
      this.sizesOf = sizes;
      this.sizeCount = n;
    }
    if (this.colorCap < n) {
      const cols = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) cols.set(bodyColor(i), 3 * i);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colorBuf);
      gl.bufferData(gl.ARRAY_BUFFER, cols, gl.STATIC_DRAW);
      this.colorCap = n;
    }
  }

  // one instanced draw of `count` boxes whose poses are in slot `slot` of the pose buffer (the
  // cube's vertex array and the pose buffer are bound; the axes' vertex array keeps slot 0)
  boxes(slot, count) {
    const gl = this.gl, base = 4 * POSE * count * slot;
    for (let a = 0; a < 4; a++) gl.vertexAttribPointer(2 + a, 3, gl.FLOAT, false, 4 * POSE, base + 12 * a);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, 36, count);
  }

  // the grid with the world axes, the trails, the joint frames and the springs' coils (one draw
  // of lines), the principal axes of every body (one instanced draw of lines), the joints (one
  // draw of points, on top)
  lineOverlay(joints, n, poses, sizes, springs) {
    const gl = this.gl;
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const trailFloats = this.trail ? 12 * this.trail.bodies.length * this.trail.cap : 0;
    const F = this.jointFrames, nf = F && F.length === 14 * (joints.length / 3) ? F.length / 14 : 0;
    const ns = springs.length / 6;
    const R = this.rails, nr = R ? R.length / 7 : 0;
    const A = this.arrows; // the contact forces, when the checkbox asks for them (arrows.js)
    const na = A.on ? A.count : 0;
    const need = this.grid.length + trailFloats + 48 * nf + (COIL_FLOATS + DASH_FLOATS) * ns + 12 + 12 * nr + ARROW_FLOATS * na + 2 * joints.length + 6;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.lineBuf);
    if (this.lines.length < need) {
      this.lines = new Float32Array(need);
      gl.bufferData(gl.ARRAY_BUFFER, this.lines.byteLength, gl.DYNAMIC_DRAW);
      this.linesValid = 0;
    }
    const L = this.lines, from = this.linesValid;
    if (from === 0) { L.set(this.grid); this.gridLen = this.grid.length; }
    if (from <= this.gridLen) this.trailEnd = this.trailLines(L, this.gridLen);
    let k = this.trailEnd;
    for (let j = 0; j < nf; j++) k = this.jointFrame(L, k, F, 14 * j, poses, sizes);
    for (let j = 0; j < nr; j++) k = this.rail(L, k, R, 7 * j, poses);
    // each element's kind (bits: 0 spring, 1 damper, 2 rod, 3 driven, 4 rope; wasm spring_kinds)
    const K = this.springKinds && this.springKinds.length === ns ? this.springKinds : null;
    let coils = 0;
    this.dashVerts = 0;
    this.rodVerts = 0;
    for (let j = 0; j < ns; j++) {
      const kind = K ? K[j] : 1;
      if (kind & 4) { const k0 = k; k = this.rod(L, k, springs, 6 * j, kind & 8, kind & 16 ? ROPE_COLOR : ROD_COLOR); this.rodVerts += (k - k0) / 6; continue; }
      if (kind & 1 || !(kind & 2)) { const k0 = k; k = this.coil(L, k, springs, 6 * j); coils += k - k0; }
      if (kind & 2) { const k0 = k; k = this.dashpot(L, k, springs, 6 * j); this.dashVerts += (k - k0) / 6; }
    }
    this.coilVerts = coils / 6;
    const g = this.pull;
    if (g && g.body < n) {
      // from the grabbed point, x + R s, to the pointer's target
      const o = POSE * g.body, P = poses, q = g.point;
      for (let i = 0; i < 3; i++) L[k + i] = P[o + i] + P[o + 3 + i] * q[0] + P[o + 6 + i] * q[1] + P[o + 9 + i] * q[2];
      L[k + 3] = PULL_COLOR[0]; L[k + 4] = PULL_COLOR[1]; L[k + 5] = PULL_COLOR[2];
      L[k + 6] = g.target[0]; L[k + 7] = g.target[1]; L[k + 8] = g.target[2];
      L[k + 9] = PULL_COLOR[0]; L[k + 10] = PULL_COLOR[1]; L[k + 11] = PULL_COLOR[2];
      k += 12;
    }
    const framesEnd = k;
    if (na) k = arrowLines(L, k, A.data, na, A.weight, A.unit, A); // drawn on top, as the joints
    const arrowsEnd = k;
    // the charted joint: a larger white point under its marker, a frame around it (drawn
    // first, in the same draw as the markers: colour 2 tells the shader to draw it larger)
    const cj = this.chartedJoint;
    if (cj >= 0 && 3 * cj < joints.length) {
      L[k++] = joints[3 * cj]; L[k++] = joints[3 * cj + 1]; L[k++] = joints[3 * cj + 2];
      L[k++] = 2; L[k++] = 2; L[k++] = 2;
    }
    // the joints as points: yellow, a driven joint magenta, one turned by a motor cyan
    const M = this.jointMarks && this.jointMarks.length === joints.length / 3 ? this.jointMarks : null;
    for (let j = 0; j < joints.length; j += 3) {
      const mark = M ? M[j / 3] : 0;
      L[k++] = joints[j]; L[k++] = joints[j + 1]; L[k++] = joints[j + 2];
      if (mark & 1) { L[k++] = 1; L[k++] = 0.35; L[k++] = 0.85; } else if (mark & 2) { L[k++] = 0.3; L[k++] = 0.9; L[k++] = 1; } else { L[k++] = 1; L[k++] = 0.85; L[k++] = 0.25; }
    }
    gl.bufferSubData(gl.ARRAY_BUFFER, 4 * from, L, from, k - from);
    this.linesValid = this.trailEnd; // the joints move: sent again every frame
    const lineVerts = framesEnd / 6; // the grid, trails and joint frames are lines, the joints points
    gl.useProgram(this.line.prog);
    gl.uniformMatrix4fv(this.line.u.uProj, false, this.proj);
    gl.uniformMatrix4fv(this.line.u.uView, false, this.view);
    gl.uniform1f(this.line.u.uPoint, this.camera.markerSize(sizes, joints.length / 3) * dpr); // (no wider than the thinnest body)
    gl.bindVertexArray(this.lineVao);
    gl.drawArrays(gl.LINES, 0, lineVerts);
    gl.useProgram(this.axis.prog);
    gl.uniformMatrix4fv(this.axis.u.uProj, false, this.proj);
    gl.uniformMatrix4fv(this.axis.u.uView, false, this.view);
    gl.bindVertexArray(this.axisVao);
    gl.drawArraysInstanced(gl.LINES, 0, 6, n);
    gl.useProgram(this.line.prog);
    gl.bindVertexArray(this.lineVao);
    gl.disable(gl.DEPTH_TEST);
    if (arrowsEnd > framesEnd) gl.drawArrays(gl.LINES, lineVerts, arrowsEnd / 6 - lineVerts);
    gl.drawArrays(gl.POINTS, arrowsEnd / 6, k / 6 - arrowsEnd / 6);
    gl.bindVertexArray(null);
  }

  // "joint axes": joint k as its scenario defines it (jointFrames, 14 numbers a joint:
  // a, point_a, axis_a, b, point_b, axis_b; see joint_frames in the wasm module): from each
  // body's centre (or the ground's origin) a grey arm to its joint point, and there the revolute
  // axis of each side, cyan for a, magenta for b (a wrong point shows as arms that do not meet,
  // a wrong axis as two lines that are not parallel). 8 vertices, written into L from k.
  jointFrame(L, k, F, o, P, S) {
    const b = F[o + 7], len = 0.35 * Math.max(S[3 * b], S[3 * b + 1], S[3 * b + 2]);
    for (let side = 0; side < 2; side++) {
      const at = o + 7 * side, body = F[at];
      let cx = 0, cy = 0, cz = 0, px = F[at + 1], py = F[at + 2], pz = F[at + 3], ax = F[at + 4], ay = F[at + 5], az = F[at + 6];
      if (body >= 0) { // body frame to global: x + R p, R column-major after x in the pose
        const q = 12 * body;
        cx = P[q]; cy = P[q + 1]; cz = P[q + 2];
        const x = px, y = py, z = pz;
        px = cx + P[q + 3] * x + P[q + 6] * y + P[q + 9] * z;
        py = cy + P[q + 4] * x + P[q + 7] * y + P[q + 10] * z;
        pz = cz + P[q + 5] * x + P[q + 8] * y + P[q + 11] * z;
        const u = ax, v = ay, w = az;
        ax = P[q + 3] * u + P[q + 6] * v + P[q + 9] * w;
        ay = P[q + 4] * u + P[q + 7] * v + P[q + 10] * w;
        az = P[q + 5] * u + P[q + 8] * v + P[q + 11] * w;
      } else { cx = px; cy = py; cz = pz; } // the ground: no arm
      const r = side ? 1 : 0.2, g = side ? 0.35 : 0.85, bl = side ? 0.9 : 1;
      L[k++] = cx; L[k++] = cy; L[k++] = cz; L[k++] = 0.75; L[k++] = 0.78; L[k++] = 0.82;
      L[k++] = px; L[k++] = py; L[k++] = pz; L[k++] = 0.75; L[k++] = 0.78; L[k++] = 0.82;
      const s = len * (side ? 1 : 0.8); // a's line a little shorter: both show where they overlap
      L[k++] = px - s * ax; L[k++] = py - s * ay; L[k++] = pz - s * az; L[k++] = r; L[k++] = g; L[k++] = bl;
      L[k++] = px + s * ax; L[k++] = py + s * ay; L[k++] = pz + s * az; L[k++] = r; L[k++] = g; L[k++] = bl;
    }
    return k;
  }

  // a sliding joint's rail: the line along its axis through a's point (R[o]: body a, -1 the
  // ground; then the point and the axis in a's frame), as long as the scene; scalars only
  rail(L, k, R, o, P) {
    const body = R[o];
    let px = R[o + 1], py = R[o + 2], pz = R[o + 3], ax = R[o + 4], ay = R[o + 5], az = R[o + 6];
    if (body >= 0) {
      const q = 12 * body, x = px, y = py, z = pz, u = ax, v = ay, w = az;
      px = P[q] + P[q + 3] * x + P[q + 6] * y + P[q + 9] * z;
      py = P[q + 1] + P[q + 4] * x + P[q + 7] * y + P[q + 10] * z;
      pz = P[q + 2] + P[q + 5] * x + P[q + 8] * y + P[q + 11] * z;
      ax = P[q + 3] * u + P[q + 6] * v + P[q + 9] * w;
      ay = P[q + 4] * u + P[q + 7] * v + P[q + 10] * w;
      az = P[q + 5] * u + P[q + 8] * v + P[q + 11] * w;
    }
    const s = (this.scale || 1) / (Math.hypot(ax, ay, az) || 1);
    L[k++] = px - s * ax; L[k++] = py - s * ay; L[k++] = pz - s * az; L[k++] = 0.62; L[k++] = 0.66; L[k++] = 0.74;
    L[k++] = px + s * ax; L[k++] = py + s * ay; L[k++] = pz + s * az; L[k++] = 0.62; L[k++] = 0.66; L[k++] = 0.74;
    return k;
  }

  // the frame of an element from (S[o], S[o+1], S[o+2]) to (S[o+3], ..): its length, the unit
  // vector u along it and p, q across it (u x e, e the world axis least along u; then u x p),
  // into the preallocated this.axes as [len, u, p, q] (no allocation per frame)
  across(S, o) {
    const A = (this.axes ??= new Float64Array(10));
    let ux = S[o + 3] - S[o], uy = S[o + 4] - S[o + 1], uz = S[o + 5] - S[o + 2];
    const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
    if (len > 1e-12) { ux /= len; uy /= len; uz /= len; } else { ux = 0; uy = 0; uz = 1; }
    let px, py, pz;
    if (Math.abs(ux) < 0.9) { px = 0; py = uz; pz = -uy; } else { px = -uz; py = 0; pz = ux; }
    const pl = Math.sqrt(px * px + py * py + pz * pz);
    px /= pl; py /= pl; pz /= pl;
    A[0] = len; A[1] = ux; A[2] = uy; A[3] = uz; A[4] = px; A[5] = py; A[6] = pz;
    A[7] = uy * pz - uz * py; A[8] = uz * px - ux * pz; A[9] = ux * py - uy * px;
    return A;
  }

  // a spring from (S[o], S[o+1], S[o+2]) to (S[o+3], S[o+4], S[o+5]) as a coil of radius
  // 0.04 of the scene's reach: COIL_LINES segments written into L from k; returns the end.
  // Scalars only: no allocation per frame.
  coil(L, k, S, o) {
    const ax = S[o], ay = S[o + 1], az = S[o + 2];
    const A = this.across(S, o), len = A[0], ux = A[1], uy = A[2], uz = A[3], px = A[4], py = A[5], pz = A[6], qx = A[7], qy = A[8], qz = A[9];
    const rad = 0.04 * (this.scale || 1), lead = 0.5 * (1 - COIL_SPAN) * len, m = COIL_TURNS * COIL_SEGS;
    const r = COIL_COLOR[0], g = COIL_COLOR[1], b = COIL_COLOR[2];
    // vertex i of the coil (0..m): along the spring from the first lead's end, round the helix
    let x0 = ax, y0 = ay, z0 = az; // the previous vertex, from end a
    for (let i = 0; i <= m + 1; i++) {
      let x, y, z;
      if (i <= m) {
        const s = lead + COIL_SPAN * len * (i / m), phi = (2 * Math.PI * i) / COIL_SEGS;
        // the radius opens over the first and last half turn, so the leads meet the coil
        const w = Math.min(1, Math.min(i, m - i) / (0.5 * COIL_SEGS)), c = rad * w * Math.cos(phi), d = rad * w * Math.sin(phi);
        x = ax + s * ux + c * px + d * qx; y = ay + s * uy + c * py + d * qy; z = az + s * uz + c * pz + d * qz;
      } else { x = S[o + 3]; y = S[o + 4]; z = S[o + 5]; }
      L[k++] = x0; L[k++] = y0; L[k++] = z0; L[k++] = r; L[k++] = g; L[k++] = b;
      L[k++] = x; L[k++] = y; L[k++] = z; L[k++] = r; L[k++] = g; L[k++] = b;
      x0 = x; y0 = y; z0 = z;
    }
    return k;
  }

  // a distance joint from (S[o], ..) to (S[o+3], ..): a rod, the straight line between its
  // points; a driven one (a distance driver, like a hydraulic cylinder) with a magenta cylinder
  // over it, the colour of driven joints. Scalars only: no allocation per frame.
  rod(L, k, S, o, driven, color) {
    const r = color[0], g = color[1], b = color[2];
    for (let e = 0; e < 2; e++) {
      L[k++] = S[o + 3 * e]; L[k++] = S[o + 3 * e + 1]; L[k++] = S[o + 3 * e + 2]; L[k++] = r; L[k++] = g; L[k++] = b;
    }
    return driven ? this.dashpot(L, k, S, o, DRIVEN_COLOR) : k;
  }

  // a damper from (S[o], ..) to (S[o+3], ..) as a dashpot (DASH_LINES segments into L from k):
  // its cylinder of radius 0.6 of the coil's over DASH_FROM..DASH_TO of the length, a lead from
  // end a to it and a rod from end b to its middle. Scalars only: no allocation per frame.
  dashpot(L, k, S, o, color = DASH_COLOR) {
    const ax = S[o], ay = S[o + 1], az = S[o + 2], bx = S[o + 3], by = S[o + 4], bz = S[o + 5];
    const A = this.across(S, o), len = A[0], ux = A[1], uy = A[2], uz = A[3], px = A[4], py = A[5], pz = A[6], qx = A[7], qy = A[8], qz = A[9];
    const rad = 0.6 * 0.04 * (this.scale || 1), s0 = DASH_FROM * len, s1 = DASH_TO * len;
    const r = color[0], g = color[1], b = color[2];
    // segment m of the dashpot, as its two end points (x0..z1), written with the colour; plain
    // assignments in one loop, no closure (a closure, or fractional numbers passed to a call,
    // would allocate per frame)
    const sm = 0.5 * (s0 + s1);
    for (let m = 0; m < DASH_LINES; m++) {
      let x0, y0, z0, x1, y1, z1;
      if (m < 3 * DASH_SIDES) {
        const i = (m / 3) | 0, part = m - 3 * i;
        const p0 = (2 * Math.PI * i) / DASH_SIDES, p1 = (2 * Math.PI * (i + 1)) / DASH_SIDES;
        const c0 = rad * Math.cos(p0), d0 = rad * Math.sin(p0);
        const c1 = part === 0 ? c0 : rad * Math.cos(p1), d1 = part === 0 ? d0 : rad * Math.sin(p1);
        // part 0: a line along the cylinder; 1 and 2: a segment of the ring at s0 and at s1
        const sa = part === 2 ? s1 : s0, sb = part === 1 ? s0 : s1;
        x0 = ax + sa * ux + c0 * px + d0 * qx; y0 = ay + sa * uy + c0 * py + d0 * qy; z0 = az + sa * uz + c0 * pz + d0 * qz;
        x1 = ax + sb * ux + c1 * px + d1 * qx; y1 = ay + sb * uy + c1 * py + d1 * qy; z1 = az + sb * uz + c1 * pz + d1 * qz;
      } else if (m === 3 * DASH_SIDES) { // the lead from end a
        x0 = ax; y0 = ay; z0 = az; x1 = ax + s0 * ux; y1 = ay + s0 * uy; z1 = az + s0 * uz;
      } else { // the piston rod from end b
        x0 = bx; y0 = by; z0 = bz; x1 = ax + sm * ux; y1 = ay + sm * uy; z1 = az + sm * uz;
      }
      L[k++] = x0; L[k++] = y0; L[k++] = z0; L[k++] = r; L[k++] = g; L[k++] = b;
      L[k++] = x1; L[k++] = y1; L[k++] = z1; L[k++] = r; L[k++] = g; L[k++] = b;
    }
    return k;
  }
}
