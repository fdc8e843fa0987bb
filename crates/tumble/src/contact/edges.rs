//! Edge against edge between two boxes: the contact that the corners-against-faces probes of
//! `broad.rs` cannot see (two blocks crossed like the bars of a "+", each edge pressing into
//! the other, no corner of either inside the other).
//!
//! ```text
//! separating axes   L: the 3 + 3 face normals and the 9 cross products u_i x v_j of the
//!                   boxes' axes (u of box A, v of box B); depth(L) = r_A(L) + r_B(L) - |L . d|,
//!                   r_A(L) = sum_k h_k |L . u_k|, d = c_A - c_B; the least depth's axis is
//!                   where the boxes meet (the separating-axis test)
//! the edge pair     where a cross product's depth is the least (by 2 % of the thinner box's
//!                   thinnest half-size below every face's: faces are preferred, their
//!                   corners carry them), L is turned to point from B to A; A's edge along
//!                   u_i is the one furthest along -L, B's along v_j the one furthest along
//!                   +L; their closest points p_A = a0 + s u_i, p_B = b0 + t v_j solve
//!                   [1 -c; c -1] [s; t] = [-u_i . r; -v_j . r], c = u_i . v_j, r = a0 - b0
//! the probe         when both points lie within their edges: the point p_A of body A
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
use super::{Kind, Probe};
use crate::model::BodyState;
use glam::DVec3;

/// The first part number of an edge pair's probe (a box pair's corners take 1 to 16): part
/// `EDGE_PART + 3 i + j` for A's axis i and B's axis j.
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

impl Balls {
    /// The edge-against-edge probe of boxes `a` and `b` at the states `s`, if the boxes meet
    /// (or are within `margin` of meeting) edge to edge (module notes), with the pair key
    /// `key`.
    pub(super) fn edge_pair(
        &self,
        a: &Ball,
        b: &Ball,
        s: &[BodyState],
        margin: f64,
        key: [usize; 2],
    ) -> Option<Probe> {
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
        // the cross product of least depth
        let mut best: Option<(f64, usize, usize, DVec3)> = None;
        for (i, ui) in u.iter().enumerate() {
            for (j, vj) in v.iter().enumerate() {
                let l = ui.cross(*vj);
                let len = l.length();
                if len < 1e-6 {
                    continue; // parallel edges: a face's normal is the axis
                }
                let l = l / len;
                let e = depth(l);
                if best.is_none_or(|x| e < x.0) {
                    best = Some((e, i, j, l));
                }
            }
        }
        let (e, i, j, l) = best?;
        if e < -margin || e > face - 0.02 * thin {
            return None; // apart, or a face's axis: the corners carry it
        }
        // L from B to A; A's edge furthest along -L, B's along +L
        let l = if l.dot(d) < 0.0 { -l } else { l };
        let side = |x: f64| if x < 0.0 { -1.0 } else { 1.0 };
        let mut a0 = ca;
        let mut b0 = cb;
        for k in 0..3 {
            if k != i {
                a0 -= side(l.dot(u[k])) * ha[k] * u[k];
            }
            if k != j {
                b0 += side(l.dot(v[k])) * hb[k] * v[k];
            }
        }
        // closest points of the two edges' lines
        let (c, r) = (u[i].dot(v[j]), a0 - b0);
        let (ur, vr) = (u[i].dot(r), v[j].dot(r));
        let det = 1.0 - c * c;
        let sa = (c * vr - ur) / det;
        let tb = (vr - c * ur) / det;
        if sa.abs() > ha[i] || tb.abs() > hb[j] {
            return None; // the closest points are beyond an edge's end: a corner's contact
        }
        let (pa, pb) = (a0 + sa * u[i], b0 + tb * v[j]);
        let gap = l.dot(pa - pb);
        if gap > margin || -gap > 0.25 * thin {
            return None; // apart, or too deep to be an edge's contact (as `face`)
        }
        let (sta, stb) = (&s[a.body], &s[b.body]);
        let m = stb.r.transpose() * l;
        let es = 1.0 / (a.compliance + b.compliance);
        // one point of contact: the corners' stiffness (of the thinner box's face), damped on
        // the whole reduced mass
        let k = super::corner_stiffness(
            es,
            if a.half.min_element() < b.half.min_element() {
                a.half
            } else {
                b.half
            },
        );
        let off = m.dot(stb.r.transpose() * (pb - stb.x));
        Some(Probe::point_face(
            (a.body, sta.r.transpose() * (pa - sta.x), 0.0),
            (b.body, m, off),
            self.law_of(Kind::Linear, k, 1.0, a, b),
            (key, EDGE_PART + 3 * i as u32 + j as u32),
        ))
    }
}
