// meshes.js: the unit meshes the view draws instanced, 6 floats a vertex (position, normal):
// a cube (bodies' boxes, box shapes, planes as thin slabs), a sphere (sphere shapes, capsules'
// caps) and an open cylinder (capsules' sides). Built once.

/** A vertex array over the static mesh `verts` (attributes 0 and 1) in `buf`, left bound for
 * the caller to add its per-instance attributes. */
export function meshVao(gl, verts, buf = gl.createBuffer()) {
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, buf);
  gl.bufferData(gl.ARRAY_BUFFER, verts, gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
  gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
  return vao;
}

/** A unit cube centred at the origin: 36 vertices. */
export function cube() {
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

/** A sphere of radius 1 at the origin (`rings` x `sides` quads); on a unit sphere the normal is
 * the position. */
export function sphere(rings = 12, sides = 20) {
  const out = [];
  const at = (i, j) => {
    const th = Math.PI * i / rings, ph = 2 * Math.PI * j / sides;
    return [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
  };
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < sides; j++) {
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      for (const p of [a, b, c, a, c, d]) out.push(...p, ...p);
    }
  }
  return new Float32Array(out);
}

/** A cylinder of radius 1 along z from -0.5 to 0.5, without its ends (a capsule's caps close it). */
export function cylinder(sides = 20) {
  const out = [];
  for (let j = 0; j < sides; j++) {
    const p0 = 2 * Math.PI * j / sides, p1 = 2 * Math.PI * (j + 1) / sides;
    const [c0, s0, c1, s1] = [Math.cos(p0), Math.sin(p0), Math.cos(p1), Math.sin(p1)];
    const v = (c, s, z) => [c, s, z, c, s, 0];
    for (const p of [v(c0, s0, -0.5), v(c1, s1, -0.5), v(c1, s1, 0.5), v(c0, s0, -0.5), v(c1, s1, 0.5), v(c0, s0, 0.5)]) out.push(...p);
  }
  return new Float32Array(out);
}

/** The mesh shapes of a scene from the module's shape_meshes (per mesh: its shape's index, its
 * triangle count n, 9 n corner coordinates): [{ shape, verts }], each verts a flat-shaded
 * triangle list (a normal per face, from its corners' order). */
export function shapeMeshes(flat) {
  const out = [];
  for (let o = 0; o < (flat?.length ?? 0);) {
    const shape = flat[o], n = flat[o + 1];
    const verts = new Float32Array(18 * n);
    for (let t = 0; t < n; t++) {
      const c = o + 2 + 9 * t;
      const ux = flat[c + 3] - flat[c], uy = flat[c + 4] - flat[c + 1], uz = flat[c + 5] - flat[c + 2];
      const vx = flat[c + 6] - flat[c], vy = flat[c + 7] - flat[c + 1], vz = flat[c + 8] - flat[c + 2];
      let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const l = Math.hypot(nx, ny, nz) || 1; nx /= l; ny /= l; nz /= l;
      for (let k = 0; k < 3; k++) verts.set([flat[c + 3 * k], flat[c + 3 * k + 1], flat[c + 3 * k + 2], nx, ny, nz], 18 * t + 6 * k);
    }
    out.push({ shape, verts });
    o += 2 + 9 * n;
  }
  return out;
}
