//! A sphere against a box's edges and corners, and a capsule's segment against a box: the
//! contacts that a sphere's centre over a face (`broad.rs` `face`) and a capsule's end caps
//! cannot see (a ball rolling off a block's edge, a rod lying across a narrow block or tilted
//! over its edge like a seesaw).
//!
//! ```text
//! point-box    q the point in the box's frame, c = clamp(q, -h, h) the box's nearest point;
//!              outside the box (q != c): gap = |q - c| - r along n = (q - c) / |q - c|; the
//!              probe is the point against the plane through c with normal n, held in the
//!              box's body frame for the step (m = R_shape n, off = m . (s + R_shape c)): a
//!              `PointFace`, whose gap is bilinear in the two bodies' coordinates
//! capsule-box  sd(t) = the signed distance of the segment's point p(t) from the box (convex
//!              in t: a convex set's signed distance is convex), its least found by golden
//!              section on [0, 1]; where it is least along a stretch (a rod lying flat), the
//!              middle of that stretch; the capsule there is a sphere of its radius against
//!              the box's face (`face`) or its edge or corner (point-box). Left to the end caps
//!              where the stretch reaches an end of the segment (a capsule lying on a face,
//!              both caps on it, rests on them as before).
//! ```
//! Energy: the nearest point and normal are found anew at each step's start while the bodies
//! move; both are stationary there, so the gap a step starts from differs from the one the
//! last ended at by the square of the step's motion: as for a capsule pair (`segments.rs`) and
//! an edge pair (`edges.rs`), the balance's error while such a contact lasts is first order in
//! h (tests/tests/box_pairs.rs). Across a face's border the gap is continuous (at the border
//! the nearest point is on the face's edge, and the distance is the face's gap), so a probe
//! that goes from a face to an edge is the same contact, its key kept (`broad.rs` `released`).
use super::broad::{Ball, Balls};
use super::faces::BoxProbe;
use super::probe::Probe;
use crate::model::BodyState;
use glam::DVec3;

/// The signed distance of the box-frame point `q` from a box of half-sizes `h`: the distance
/// outside, minus the depth below the nearest face inside.
fn signed(q: DVec3, h: DVec3) -> f64 {
    let d = q.abs() - h;
    d.max(DVec3::ZERO).length() + d.max_element().min(0.0)
}

impl Balls {
    /// The probe of the point `probe.sp` (body frame of `probe.pt`, radius `probe.r`) against
    /// box `probe.bx`'s edge or corner nearest it, if the point is outside the box and within
    /// `probe.margin` of touching (module notes); `None` inside, where a face carries it.
    pub(super) fn point_box(probe: &BoxProbe) -> Option<Probe> {
        let bx = probe.bx;
        let q = probe.local();
        let c = q.clamp(-bx.half, bx.half);
        let dist = (q - c).length();
        if dist <= 1e-12 * bx.half.max_element() || dist - probe.r > probe.margin {
            return None;
        }
        let m = bx.rot * ((q - c) / dist);
        let off = m.dot(bx.s + bx.rot * c);
        Some(probe.point_face(m, off))
    }

    /// The segment parameter t in [0, 1] of a capsule `cap` (taken whole) whose point comes
    /// nearest box `bx` at the states `s` (the middle of the stretch where it is nearest), or
    /// `None` where that stretch reaches an end of the segment (the end caps carry it).
    pub(super) fn nearest_on_segment(cap: &Ball, bx: &Ball, s: &[BodyState]) -> Option<f64> {
        let len = cap.segment?;
        let st = &s[cap.body];
        let c = st.x + st.r * cap.s;
        let e = st.r * (cap.rot * DVec3::new(0.0, 0.0, len));
        let sd = |t: f64| signed(Self::local(bx, s, c + (2.0 * t - 1.0) * e), bx.half);
        // golden section on the convex sd
        let g = 0.5 * (libm::sqrt(5.0) - 1.0);
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        let (mut f1, mut f2) = (sd(x1), sd(x2));
        for _ in 0..60 {
            if f1 <= f2 {
                hi = x2;
                (x2, f2) = (x1, f1);
                x1 = hi - g * (hi - lo);
                f1 = sd(x1);
            } else {
                lo = x1;
                (x1, f1) = (x2, f2);
                x2 = lo + g * (hi - lo);
                f2 = sd(x2);
            }
        }
        let t = 0.5 * (lo + hi);
        // the stretch within 1e-9 of the least (a level set of a convex function: an interval),
        // its ends by bisection
        let level = sd(t) + 1e-9 * (len + bx.half.max_element());
        let edge = |inside: f64, outside: f64| {
            if sd(outside) <= level {
                return outside;
            }
            let (mut a, mut b) = (inside, outside);
            for _ in 0..50 {
                let mid = 0.5 * (a + b);
                if sd(mid) <= level {
                    a = mid;
                } else {
                    b = mid;
                }
            }
            a
        };
        let (t0, t1) = (edge(t, 0.0), edge(t, 1.0));
        if t0 <= 0.0 || t1 >= 1.0 {
            return None;
        }
        Some(0.5 * (t0 + t1))
    }
}
