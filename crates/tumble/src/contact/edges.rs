//! Edge against edge between two boxes: the contact that the corners-against-faces probes of
//! `broad.rs` cannot see (two blocks crossed like the bars of a "+", each edge pressing into
//! the other, no corner of either inside the other).
//!
//! ```text
//! separating axes   L: the 3 + 3 face normals and the 9 cross products u_i x v_j of the
//!                   boxes' axes (u of box A, v of box B); depth(L) = r_A(L) + r_B(L) - |L . d|,
//!                   r_A(L) = sum_k h_k |L . u_k|, d = c_A - c_B; the least depth's axis is
//!                   where the boxes meet (the separating-axis test)
//! the edge pair     where a cross product's depth is the least (no more than every face's),
//!                   L is turned to point from B to A; A's two edges along u_i on its face
//!                   that faces -L most, B's along v_j on its face that faces +L (both, so
//!                   that a beam lying across a block's top meets both of its upper edges,
//!                   the gap deciding which touch); their closest points p_A = a0 + s u_i,
//!                   p_B = b0 + t v_j solve
//!                   [1 -c; c -1] [s; t] = [-u_i . r; -v_j . r], c = u_i . v_j, r = a0 - b0
//! the probe         when both points lie within their edges (1 % inside their ends where L
//!                   is no better than a face's axis by 2 % of the thinner box's thinnest
//!                   half-size, so that a corner over a face is not probed twice: there the
//!                   face's corners carry the contact, the edges where they leave the face):
//!                   the point p_A of body A
//!                   against the plane through p_B with normal L, held in B's frame for the
//!                   step (m = R_B^T L, off = m . (R_B^T (p_B - x_B))): a `PointFace` probe,
//!                   whose gap L . (p_A - p_B) is bilinear in the two bodies' coordinates, so
//!                   the director's force is exact within the step
//! ```
//! Energy: the points and the normal are found anew at each step's start, while the bodies
//! move. Both are stationary there (the closest points minimise the distance, and the gap
//! along a unit normal turned by a small angle changes by the angle squared), so the gap a
//! new step starts from differs from the one the last step ended at by the square of the
//! step's motion: as with a capsule pair (`segments.rs`), the balance's error through an edge
//! contact is first order in h (tests/tests/box_pairs.rs), and zero elsewhere. A probe keeps
//! its key (the two axes) from step to step, so it is the same contact, not one released and
//! another begun (`broad.rs` `released`).
use super::broad::{Ball, Balls};
use super::law::Kind;
use super::probe::Probe;
use crate::model::BodyState;
use glam::DVec3;

/// The first part number of an edge pair's probe (a box pair's corners take 1 to 16): part
/// `EDGE_PART + 4 (3 i + j) + 2 a + b` for A's axis i and B's axis j, and which of the two
/// edges along them on the faces facing each other (a, b: `edges_along`).
pub const EDGE_PART: u32 = 17;

/// A box's centre, axes and half-sizes in the world at the states `s`.
fn frame(bx: &Ball, s: &[BodyState]) -> (DVec3, [DVec3; 3], [f64; 3]) {
    let st = &s[bx.body];
    let r = st.r * bx.rot;
    (
        st.x + st.r * bx.s,
        [r.x_axis, r.y_axis, r.z_axis],
        bx.half.to_array(),
    )
}

/// How far a box of axes `u` and half-sizes `h` reaches along the unit axis `l`.
fn reach(l: DVec3, u: &[DVec3; 3], h: &[f64; 3]) -> f64 {
    (0..3).map(|k| h[k] * l.dot(u[k]).abs()).sum()
}

/// The two edges of a box (centre `c`, axes `u`, half-sizes `h`) along its axis `i` on its
/// face that faces `dir` most (of the two other axes, the one more nearly along `dir`): their
/// midpoints, the one at -h then +h along the remaining axis. Both, not only the one
/// furthest along `dir`: a bar lying across a block's top meets both of its upper edges, and
/// which of them is further along `dir` turns with every tilt.
fn edges_along(c: DVec3, u: &[DVec3; 3], h: &[f64; 3], i: usize, dir: DVec3) -> [DVec3; 2] {
    let (k1, k2) = ((i + 1) % 3, (i + 2) % 3);
    let (major, minor) = if dir.dot(u[k1]).abs() >= dir.dot(u[k2]).abs() {
        (k1, k2)
    } else {
        (k2, k1)
    };
    let mid = c + dir.dot(u[major]).signum() * h[major] * u[major];
    let spread = h[minor] * u[minor];
    [mid - spread, mid + spread]
}

impl Balls {
    /// The edge-against-edge probes of boxes `a` and `b` at the states `s`, where the boxes
    /// meet (or are within `margin` of meeting) edge to edge (module notes), with the pair key
    /// `key`, into `out`; `corners`: whether a corner of either is probed against the other's
    /// face (then edges lying on a face are left to the corners).
    pub(super) fn edge_pairs(
        &self,
        a: &Ball,
        b: &Ball,
        s: &[BodyState],
        (margin, corners): (f64, bool),
        key: [usize; 2],
        out: &mut alloc::vec::Vec<Probe>,
    ) {
        let (ca, u, ha) = frame(a, s);
        let (cb, v, hb) = frame(b, s);
        let d = ca - cb;
        let depth = |l: DVec3| reach(l, &u, &ha) + reach(l, &v, &hb) - l.dot(d).abs();
        let face = u
            .iter()
            .chain(v.iter())
            .map(|&l| depth(l))
            .fold(f64::INFINITY, f64::min);
        let thin = a.half.min_element().min(b.half.min_element());
        // the cross products of least depth: every one within 1e-6 of the thinnest half-size
        // of the least depth of all 15 axes (a beam lying flat across a block meets it along
        // two of them, the same normal)
        let mut axes = [(0.0f64, DVec3::ZERO); 9];
        let mut least = face;
        for (i, ui) in u.iter().enumerate() {
            for (j, vj) in v.iter().enumerate() {
                let l = ui.cross(*vj);
                let len = l.length();
                // parallel edges: a face's normal is the axis
                axes[3 * i + j] = if len < 1e-6 {
                    (f64::INFINITY, l)
                } else {
                    (depth(l / len), l / len)
                };
                least = least.min(axes[3 * i + j].0);
            }
        }
        if least < -margin {
            return; // apart
        }
        let (sta, stb) = (&s[a.body], &s[b.body]);
        let es = 1.0 / (a.compliance + b.compliance);
        // one point of contact: the corners' stiffness (of the thinner box's face), damped on
        // the whole reduced mass
        let k = super::material::corner_stiffness(
            es,
            if a.half.min_element() < b.half.min_element() {
                a.half
            } else {
                b.half
            },
        );
        let law = self.law_of(Kind::Linear, k, 1.0, a, b);
        for (n, &(e, l)) in axes.iter().enumerate() {
            if e > least + 1e-6 * thin {
                continue; // a face's axis or another cross product is where they meet
            }
            let (i, j) = (n / 3, n % 3);
            // Better than every face's axis by 2 % of the thinner box's thinnest half-size:
            // edges crossing. Else only where no corner of either box is over the other's face
            // (a beam lying across a narrow block, the cross product then a face's normal or
            // near it), and then where the edges cross strictly inside both (1 % from their
            // ends). Left to the corners: a face that a corner presses (probing its edges too
            // made the dominoes' balance 1.7e-4 J, and a cross product barely better than a
            // face's axis began probes 3 mm deep there).
            let inside = if e < face - 0.02 * thin {
                1.0
            } else if !corners {
                0.99
            } else {
                continue;
            };
            // L from B to A; A's two edges on its face towards -L, B's on its face towards +L
            let l = if l.dot(d) < 0.0 { -l } else { l };
            let aa = edges_along(ca, &u, &ha, i, -l);
            let bb = edges_along(cb, &v, &hb, j, l);
            let m = stb.r.transpose() * l;
            for (ka, a0) in aa.iter().enumerate() {
                for (kb, b0) in bb.iter().enumerate() {
                    // closest points of the two edges' lines
                    let (c, r) = (u[i].dot(v[j]), *a0 - *b0);
                    let (ur, vr) = (u[i].dot(r), v[j].dot(r));
                    let det = 1.0 - c * c;
                    let sa = (c * vr - ur) / det;
                    let tb = (vr - c * ur) / det;
                    if sa.abs() > inside * ha[i] || tb.abs() > inside * hb[j] {
                        continue; // beyond an edge's end: a corner's contact
                    }
                    let (pa, pb) = (*a0 + sa * u[i], *b0 + tb * v[j]);
                    let gap = l.dot(pa - pb);
                    if gap > margin || -gap > 0.25 * thin {
                        continue; // apart, or too deep to be an edge's contact (as `face`)
                    }
                    let off = m.dot(stb.r.transpose() * (pb - stb.x));
                    let part = EDGE_PART + 4 * n as u32 + 2 * ka as u32 + kb as u32;
                    out.push(Probe::point_face(
                        (a.body, sta.r.transpose() * (pa - sta.x), 0.0),
                        (b.body, m, off),
                        law,
                        (key, part),
                    ));
                }
            }
        }
    }
}
