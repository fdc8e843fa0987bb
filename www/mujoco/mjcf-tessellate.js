// mjcf-tessellate.js: MuJoCo's smooth geoms that Tumble has no shape for, as triangle meshes
// to draw (a visual shape touches nothing, so only its look matters): an ellipsoid as a
// latitude-longitude sphere scaled by its semi-axes, a cylinder as a prism of SIDES sides. In the
// geom's frame (MuJoCo's: a cylinder along z), triangles counter-clockwise seen from outside, as
// Tumble's mesh shapes take them. No DOM.

const SIDES = 24; // a cylinder's sides, and an ellipsoid's meridians
const RINGS = 12; // an ellipsoid's bands from pole to pole
const round = (x) => +x.toPrecision(7); // (7 digits, as the import writes MuJoCo's own meshes)

/** An ellipsoid of semi-axes [a, b, c] as { type: 'mesh', vertices, faces }. */
export function ellipsoidMesh([a, b, c]) {
  const vertices = [[0, 0, -c]];
  for (let i = 1; i < RINGS; i++) {
    const th = Math.PI * (i / RINGS - 0.5), z = c * Math.sin(th), w = Math.cos(th);
    for (let k = 0; k < SIDES; k++) {
      const ph = (2 * Math.PI * k) / SIDES;
      vertices.push([a * w * Math.cos(ph), b * w * Math.sin(ph), z].map(round));
    }
  }
  vertices.push([0, 0, c]);
  const top = vertices.length - 1, ring = (i, k) => 1 + (i - 1) * SIDES + (k % SIDES);
  const faces = [];
  for (let k = 0; k < SIDES; k++) {
    faces.push([0, ring(1, k + 1), ring(1, k)]);
    faces.push([top, ring(RINGS - 1, k), ring(RINGS - 1, k + 1)]);
    for (let i = 1; i < RINGS - 1; i++) {
      faces.push([ring(i, k), ring(i, k + 1), ring(i + 1, k + 1)]);
      faces.push([ring(i, k), ring(i + 1, k + 1), ring(i + 1, k)]);
    }
  }
  return { type: 'mesh', vertices, faces };
}

/** A cylinder of radius r and half-height h along z as { type: 'mesh', vertices, faces }. */
export function cylinderMesh(r, h) {
  const vertices = [[0, 0, -h], [0, 0, h]];
  for (let k = 0; k < SIDES; k++) {
    const ph = (2 * Math.PI * k) / SIDES, x = round(r * Math.cos(ph)), y = round(r * Math.sin(ph));
    vertices.push([x, y, -h], [x, y, h]);
  }
  const lo = (k) => 2 + 2 * (k % SIDES), hi = (k) => 3 + 2 * (k % SIDES);
  const faces = [];
  for (let k = 0; k < SIDES; k++) {
    faces.push([0, lo(k + 1), lo(k)], [1, hi(k), hi(k + 1)]);
    faces.push([lo(k), lo(k + 1), hi(k + 1)], [lo(k), hi(k + 1), hi(k)]);
  }
  return { type: 'mesh', vertices, faces };
}
