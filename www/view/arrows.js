// arrows.js: contact forces drawn as arrows (the "contact forces" checkbox), as line segments
// in the renderer's line overlay: a shaft from the contact point along the force on the body,
// and a two-stroke head. Length: a force of one body weight (the heaviest body's m |g|, the
// run's `weight`) is drawn `unit` m long, proportionally below it and logarithmically above
// (unit (1 + ln(F / W))), so a ball at rest and the impact that is a hundred times its weight
// both fit in the view; the legend beside the checkbox says so. With more than MAX_ARROWS
// contacts only the largest forces are drawn, and the readout says how many and from what force.

// With many contacts (a pile of balls) an arrow for each buries the bodies: at most MAX_ARROWS
// are drawn, the largest forces. The cut is found without sorting or allocating: the forces go
// into half-octave bins below the largest (bin b holds F in (Fmax 2^(-(b+1)/2), Fmax 2^(-b/2)]),
// and the cut is the lowest bin edge above which at most MAX_ARROWS forces lie (where the first
// bin alone holds more, the first MAX_ARROWS of it are drawn).
/** The most arrows drawn at once. */
export const MAX_ARROWS = 60;
const BINS = 40;
const bins = new Int32Array(BINS);

// the smallest force (N) drawn of the `count` in `data`
// (and the largest, into shown.max)
function arrowCut(data, count, shown) {
  let max = 0;
  for (let i = 0; i < count; i++) max = Math.max(max, Math.hypot(data[6 * i + 3], data[6 * i + 4], data[6 * i + 5]));
  shown.max = max;
  if (count <= MAX_ARROWS || !(max > 0)) return 0;
  bins.fill(0);
  for (let i = 0; i < count; i++) {
    const f = Math.hypot(data[6 * i + 3], data[6 * i + 4], data[6 * i + 5]);
    if (f > 0) bins[Math.min(BINS - 1, Math.floor(-2 * Math.log2(f / max)))]++;
  }
  let b = 0, sum = bins[0];
  while (b + 1 < BINS && sum + bins[b + 1] <= MAX_ARROWS) sum += bins[++b];
  return max * 2 ** (-(b + 1) / 2);
}

/** Floats a drawn arrow takes in the line buffer: 3 segments of 2 vertices of (x, y, z, r, g, b). */
export const ARROW_FLOATS = 36;
const COLOR = [1, 0.55, 0.1]; // orange, against the dark view and the blue and grey bodies

/** The drawn length (m) of a force of magnitude f (N), `weight` (N) drawn `unit` m long. */
export function arrowLength(f, weight, unit) {
  const x = f / weight;
  return unit * (x <= 1 ? x : 1 + Math.log(x));
}

/** Write the arrows of the `count` forces in `data` (6 numbers each: point in m, force in N)
 * into L from float k, at most MAX_ARROWS of them, the largest; returns the next free float and
 * says in `shown` how many were drawn (`drawn`), the smallest force drawn (`cut`, N; 0: all)
 * and the largest (`max`, N). */
export function arrowLines(L, k, data, count, weight, unit, shown) {
  const cut = arrowCut(data, count, shown);
  let drawn = 0;
  for (let i = 0; i < count && drawn < MAX_ARROWS; i++) {
    const o = 6 * i;
    const px = data[o], py = data[o + 1], pz = data[o + 2];
    let fx = data[o + 3], fy = data[o + 4], fz = data[o + 5];
    const f = Math.hypot(fx, fy, fz);
    if (!(f > 0) || f < cut) continue;
    drawn++;
    const len = arrowLength(f, weight, unit);
    fx /= f; fy /= f; fz /= f;
    const tx = px + fx * len, ty = py + fy * len, tz = pz + fz * len;
    // the head's side direction, across the force: f x e2, or f x e1 where f is near e2
    let sx = -fz, sy = 0, sz = fx;
    if (Math.hypot(sx, sz) < 0.3) { sx = 0; sy = fz; sz = -fy; }
    const sl = Math.hypot(sx, sy, sz), head = 0.25 * len;
    sx *= head / sl; sy *= head / sl; sz *= head / sl;
    const bx = tx - fx * head, by = ty - fy * head, bz = tz - fz * head;
    k = segment(L, k, px, py, pz, tx, ty, tz);
    k = segment(L, k, tx, ty, tz, bx + 0.5 * sx, by + 0.5 * sy, bz + 0.5 * sz);
    k = segment(L, k, tx, ty, tz, bx - 0.5 * sx, by - 0.5 * sy, bz - 0.5 * sz);
  }
  shown.drawn = drawn;
  shown.cut = cut;
  return k;
}

function segment(L, k, ax, ay, az, bx, by, bz) {
  L[k] = ax; L[k + 1] = ay; L[k + 2] = az; L[k + 3] = COLOR[0]; L[k + 4] = COLOR[1]; L[k + 5] = COLOR[2];
  L[k + 6] = bx; L[k + 7] = by; L[k + 8] = bz; L[k + 9] = COLOR[0]; L[k + 10] = COLOR[1]; L[k + 11] = COLOR[2];
  return k + 12;
}
