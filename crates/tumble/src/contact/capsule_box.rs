//! A capsule's segment against a box: the contact its end caps cannot see (a rod lying across a
//! narrow block or tilted over its edge like a seesaw).
//!
//! ```text
//! capsule-box  sd(t) = the signed distance of the segment's point p(t) from the box (convex
//!              in t: a convex set's signed distance is convex), its least found by golden
//!              section on [0, 1]; where it is least along a stretch (a rod lying flat), the
//!              middle of that stretch; the capsule there is a sphere of its radius against
//!              the box's face or its edge or corner (`point_box.rs`). Left to the end caps
//!              where the stretch reaches an end of the segment (a capsule lying on a face,
//!              both caps on it, rests on them as before).
//! ```
//! Energy: the nearest point is found anew at each step's start while the bodies move; it is
//! stationary there, so the gap a step starts from differs from the one the last ended at by
//! the square of the step's motion: as for a capsule pair (`capsule.rs`) and an edge pair
//! (`box_box.rs`), the balance's error while such a contact lasts is first order in h
//! (tests/tests/box_pairs.rs).
use super::capsule::segment_point;
use super::collider::{Collider, Pair};
use super::law::Kind;
use super::material;
use super::point_box::{round_point, PointOnBox};
use super::probe::Probe;
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// The pair function of a capsule taken whole and a box, at the states at the step's start:
/// the segment's point nearest the box as a sphere of the capsule's radius against the box's
/// face, or beyond the faces its edge or corner; none where the end caps carry the contact.
pub fn collide(pair: &Pair, out: &mut Vec<Probe>) {
    let (a, b, s) = (pair.a, pair.b, pair.s);
    let (cap, bx) = if a.is_box() { (b, a) } else { (a, b) };
    let Some(t) = nearest_on_segment(cap, bx, s) else {
        return;
    };
    let sp = segment_point(cap, t);
    let k = material::hertz_pair(&cap.surface, &bx.surface, cap.r);
    let law = pair.colliders.law_of(Kind::Hertz, k, 1.0, cap, bx);
    out.extend(round_point(&PointOnBox {
        pt: cap,
        sp,
        r: cap.r,
        bx,
        s,
        margin: pair.margin,
        law,
        key: (pair.key, 0),
    }));
}

/// The signed distance of the box-frame point `q` from a box of half-sizes `h`: the distance
/// outside, minus the depth below the nearest face inside.
fn signed(q: DVec3, h: DVec3) -> f64 {
    let d = q.abs() - h;
    d.max(DVec3::ZERO).length() + d.max_element().min(0.0)
}

/// The segment parameter t in [0, 1] of a capsule `cap` (taken whole) whose point comes
/// nearest box `bx` at the states `s` (the middle of the stretch where it is nearest), or
/// `None` where that stretch reaches an end of the segment (the end caps carry it).
pub fn nearest_on_segment(cap: &Collider, bx: &Collider, s: &[BodyState]) -> Option<f64> {
    let len = cap.segment?;
    let st = &s[cap.body];
    let c = st.x + st.r * cap.s;
    let e = st.r * (cap.rot * DVec3::new(0.0, 0.0, len));
    let sd = |t: f64| signed(bx.local(s, c + (2.0 * t - 1.0) * e), bx.half);
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
