// from-mjcf-read.js: reading a compiled MuJoCo model (MjModel, MjData) as the import's stages
// do: element names, the booleans the bindings hold behind accessors, and 3-vectors and 3 x 3
// matrices (rows) out of MuJoCo's flat arrays. No DOM.

/** The names of a compiled model's elements of one kind (`adr`: e.g. model.name_bodyadr). */
export function names(model, adr, count) {
  const bytes = model.names;
  const out = [];
  for (let i = 0; i < count; i++) {
    let e = adr[i];
    let s = '';
    while (e < bytes.length && bytes[e] !== 0) s += String.fromCharCode(bytes[e++]);
    out.push(s);
  }
  return out;
}

/** A boolean of one element through MuJoCo's named accessors (`model.jnt(k).limited`): the
 * bindings cannot hand out the boolean arrays (jnt_limited, eq_active0, ...) themselves. */
export function flag(model, kind, i, field) {
  const acc = model[kind](i);
  try {
    return Boolean(acc[field] ?? acc[`_${field}`]); // (the tendon accessor's fields begin with _)
  } finally {
    acc.delete?.();
  }
}

/** The 3 x 3 matrix (rows) at offset `o` of a flat row-major array (xmat, ximat, geom_xmat). */
export const rows3 = (a, o) => [[a[o], a[o + 1], a[o + 2]], [a[o + 3], a[o + 4], a[o + 5]], [a[o + 6], a[o + 7], a[o + 8]]];
/** The 3-vector at offset `o` of a flat array. */
export const v3 = (a, o) => [a[o], a[o + 1], a[o + 2]];

/** A slider element's `slide` field: none for the first (a prismatic or cylindrical joint's one
 * slide), { slide } for a planar joint's second. */
export const slideOf = (slide) => (slide ? { slide } : {});
