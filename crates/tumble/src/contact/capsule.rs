//! Capsules against spheres and capsules: the pair becomes a sphere pair between two body
//! points, the closest points of the two segments (a sphere's: its centre) found at the
//! step's start (the pair table's function for a capsule taken whole against a sphere or a capsule).
//!
//! ```text
//! segments   a: p_a(t) = c_a + (2t - 1) L_a e_a,  b: p_b(u) = c_b + (2u - 1) L_b e_b,
//!            t, u in [0, 1] (a sphere: L = 0); (t, u) minimise |p_b(u) - p_a(t)|
//!            (Ericson, Real-Time Collision Detection, 5.1.9), at the step's start
//! gap        g = |p_b(u*) - p_a(t*)| - r_a - r_b, with (t*, u*) held for the step: the
//!            distance between two body points, s_a = s + R_s (0, 0, (2t* - 1) L_a) in a's
//!            frame (and b's alike), so `Geometry::SpherePair` carries it, with its exact
//!            discrete gradient (Delta l = (dbar / lbar) . Delta d) in the director
//! parallel   (sin^2 of the angle below 1e-12): t* the middle of the overlap of b's
//!            projection on a (a capsule lying along another is held at the middle of the
//!            overlap, not at an end, where its weight would tip it)
//! ```
//! Why the parameters are held for the step: the broad phase fixes a step's pairs at its
//! start (so that a step's forces are one function of the positions), and with (t*, u*) held
//! the gap is a distance between two material points, the same exact form as a spring's: the
//! director keeps E to its Newton tolerance within the step, and the forces, equal and
//! opposite along the line between the points, keep linear and angular momentum.
//! The limitation: the contact point does not slide along a segment within a step; it moves
//! between steps, when the next step's closest points are found. A contact whose point slides
//! along a segment while it is pressed (a capsule rolling over another, a sphere running
//! along a capsule) then finds at the next step's start a gap smaller by about delta^2 / (2 l)
//! (delta the point's slide over the step, l the distance of the two points), and its
//! potential is that much higher: an energy error of second order in the step, of one sign,
//! per step in contact. A head-on impact, or one whose closest points do not move along the
//! segments (a capsule dropped across another at their middles), has none.
use super::collider::{Collider, Pair};
use super::probe::Probe;
use super::sphere_sphere::sphere_pair;
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// The pair function of a capsule taken whole and a sphere or a capsule, from the states at the
/// step's start: a sphere pair between their closest points (module notes).
pub fn collide(pair: &Pair, out: &mut Vec<Probe>) {
    let (a, b, s) = (pair.a, pair.b, pair.s);
    let (pa, qa) = ends(a, s);
    let (pb, qb) = ends(b, s);
    let (t, u) = closest(pa, qa, pb, qb);
    out.push(sphere_pair(
        pair.colliders,
        a,
        segment_point(a, t),
        b,
        segment_point(b, u),
        pair.key,
    ));
}

/// The parameters (t, u) in [0, 1] of the closest points of the segments p1 q1 and p2 q2
/// (either may be a point), Ericson's ClosestPtSegmentSegment with the parallel case taken at
/// the middle of the overlap (module notes).
pub fn closest(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (f64, f64) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    if a == 0.0 && e == 0.0 {
        return (0.0, 0.0);
    }
    if a == 0.0 {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e == 0.0 {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut t = if denom > 1e-12 * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        // parallel: the middle of b's projection on a, clipped to a
        let (s0, s1) = (-c / a, (b - c) / a);
        0.5 * (s0.min(s1).clamp(0.0, 1.0) + s0.max(s1).clamp(0.0, 1.0))
    };
    let mut u = (b * t + f) / e;
    if u < 0.0 {
        u = 0.0;
        t = (-c / a).clamp(0.0, 1.0);
    } else if u > 1.0 {
        u = 1.0;
        t = ((b - c) / a).clamp(0.0, 1.0);
    }
    (t, u)
}

/// A collider's segment at the states `s`: its two ends (world; the same point for a sphere).
fn ends(shape: &Collider, s: &[BodyState]) -> (DVec3, DVec3) {
    let st = &s[shape.body];
    let c = st.x + st.r * shape.s;
    match shape.segment {
        Some(len) => {
            let e = st.r * (shape.rot * DVec3::new(0.0, 0.0, len));
            (c - e, c + e)
        }
        None => (c, c),
    }
}

/// The body point at parameter `t` of a collider's segment (a sphere's centre), in its body's frame.
pub fn segment_point(shape: &Collider, t: f64) -> DVec3 {
    match shape.segment {
        Some(len) => shape.s + shape.rot * DVec3::new(0.0, 0.0, (2.0 * t - 1.0) * len),
        None => shape.s,
    }
}
