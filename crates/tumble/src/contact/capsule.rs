//! Capsules against spheres and capsules: the closest points of the two segments (a sphere's:
//! its centre) found at the step's start decide the pair's probe for the step.
//!
//! ```text
//! segments   a: p_a(t) = c_a + (2t - 1) L_a e_a,  b: p_b(u) = c_b + (2u - 1) L_b e_b,
//!            t, u in [0, 1] (a sphere: L = 0); (t, u) minimise |p_b(u) - p_a(t)|
//!            (Ericson, Real-Time Collision Detection, 5.1.9), at the step's start
//! point-segment one closest point inside its segment (0 < t < 1), the other a sphere's centre
//!            or a segment's end; or both at ends (a sphere at a capsule's end, two capsules
//!            end to end: the end whose projection lies nearer the other's segment): the
//!            point against the segment, g = sqrt(|w|^2 + c(w . n)) - r_a - r_b (w from the
//!            segment's centre to the point, n its axis, c = -s^2 inside and L^2 - 2 L |s|
//!            beyond an end: the distance to the line or to the nearer end, one C^1
//!            function), exact as the point slides along the segment and past its end in the
//!            step (`Geometry::PointLine`: |w|^2 quadratic, s bilinear in the director
//!            coordinates, c's difference quotient exact, so its discrete gradient is exact)
//! line-line  both closest points inside their segments, the axes not within
//!            `CROSSING_SIN2` of parallel (two capsules crossing): the lines' distance,
//!            g = |w . (n_a x n_b)| / |n_a x n_b| - r_a - r_b, exact as both points slide
//!            (`Geometry::LineLine`: its square is a quotient of polynomials in the inner
//!            products of w, n_a, n_b; `methods/director/line_line.rs`)
//! held pair  otherwise (two spheres, or two capsules near parallel), the distance
//!            between the two closest points held as body points for the step,
//!            s_a = s + R_s (0, 0, (2t* - 1) L_a) in a's frame (and b's alike):
//!            `Geometry::SpherePair`, a spring's exact form (Delta l = (dbar / lbar) . Delta d)
//! parallel   (sin^2 of the angle below 1e-12): t* the middle of the overlap of b's
//!            projection on a (a capsule lying along another is held at the middle of the
//!            overlap, not at an end, where its weight would tip it)
//! ```
//! Why the pairs are fixed at the step's start: the broad phase fixes a step's pairs there (so
//! that a step's forces are one function of the positions). A sphere on a capsule (the ball in
//! a cup of capsules, a ball on a rail) is then exact however it runs along the segment: the
//! next step's start finds the same distance the step ended with, and the director keeps
//! E - E0 - W + D to its Newton tolerance (tests/capsule_pairs.rs: a ball running 0.3 m along
//! a capsule, 2.5e-12 J where the held point gave 1.8e-3 J; running on over the end cap and
//! off it, 2.1e-12 J where the line's distance beyond the end gave 2.5e-8 J). Two capsules
//! crossing are their lines' distance, exact alike (tests/capsule_pairs.rs: a sliding oblique
//! strike keeps E to 5.9e-13 of E0 where the held points gave 2.0e-5), but for a closest point
//! passing an end within the step: the lines' distance beyond the end is smaller than the
//! segments', which the next step's start takes (a loss of second order in the step). What
//! else is not exact is a change of the pair's kind between steps where the kinds' gaps
//! differ (an end giving way to another point of its capsule as the nearer). Two capsules
//! near parallel, whose closest points move by about 1/sin
//! of a turn, are held for the step, and the next step's start finds a gap smaller by about
//! delta^2 / (2 l) (delta the points' slide over the step, l their distance): an energy gain
//! of second order in the step per step in contact.
use super::collider::{Collider, Pair};
use super::probe::{Geometry, Probe};
use super::sphere_sphere::sphere_pair;
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// The pair function of a capsule taken whole and a sphere or a capsule, from the states at the
/// step's start: a point against the other's line where one closest point is a sphere's centre
/// or a segment's end and the other lies inside its segment, else a sphere pair between the
/// closest points (module notes).
pub fn collide(pair: &Pair, out: &mut Vec<Probe>) {
    let (a, b, s) = (pair.a, pair.b, pair.s);
    let (pa, qa) = ends(a, s);
    let (pb, qb) = ends(b, s);
    let (t, u) = closest(pa, qa, pb, qb);
    let inside = |shape: &Collider, t: f64| shape.segment.is_some() && t > 0.0 && t < 1.0;
    let (sa, sb) = (segment_point(a, t), segment_point(b, u));
    let mut probe = sphere_pair(pair.colliders, a, sa, b, sb, pair.key);
    let segment = match (inside(a, t), inside(b, u)) {
        (true, true) => {
            if let Some(geometry) = crossing(a, b, s) {
                probe.geometry = geometry;
            }
            None
        }
        (true, false) => Some(false),
        (false, true) => Some(true),
        // both at ends (or a sphere): the point nearer to entering the other's segment
        (false, false) => match (a.segment, b.segment) {
            (None, None) => None,
            (Some(_), None) => Some(false),
            (None, Some(_)) => Some(true),
            (Some(_), Some(_)) => Some(beyond(a, pb.lerp(qb, u), s) > beyond(b, pa.lerp(qa, t), s)),
        },
    };
    if let Some(line_b) = segment {
        // the segment's centre and axis stand for its point (the foot moves along it)
        let on = if line_b { b } else { a };
        let (sa, sb) = if line_b { (sa, on.s) } else { (on.s, sb) };
        probe.geometry = Geometry::PointLine {
            a: a.body,
            sa,
            ra: a.r,
            b: b.body,
            sb,
            rb: b.r,
            m: on.rot * DVec3::Z,
            half: on.segment.unwrap_or(0.0),
            line_b,
        };
    }
    out.push(probe);
}

/// How far beyond the nearer end of `shape`'s segment the world point `p` projects (m, at the
/// states `s`): the smaller, the nearer that point is to sliding onto the segment.
fn beyond(shape: &Collider, p: DVec3, s: &[BodyState]) -> f64 {
    let st = &s[shape.body];
    let (c, n) = (st.x + st.r * shape.s, st.r * (shape.rot * DVec3::Z));
    (p - c).dot(n).abs() - shape.segment.unwrap_or(0.0)
}

/// Below this sin^2 of the angle between two capsules' axes their lines' distance is not
/// taken (the pair is held at its closest points): the lines' closest points move by about
/// 1/sin of a turn, and a capsule lying along another is better held at their overlap's middle.
const CROSSING_SIN2: f64 = 1e-4;

/// Two capsules crossing, both closest points inside their segments at the step's start: the
/// lines' distance (`Geometry::LineLine`), unless the axes are within `CROSSING_SIN2` of parallel
/// or the lines meet (then the held pair: module notes).
fn crossing(a: &Collider, b: &Collider, s: &[BodyState]) -> Option<Geometry> {
    let (ma, mb) = (a.rot * DVec3::Z, b.rot * DVec3::Z);
    let (sta, stb) = (&s[a.body], &s[b.body]);
    let c = (sta.r * ma).cross(stb.r * mb);
    let p = (stb.x + stb.r * b.s - sta.x - sta.r * a.s).dot(c);
    (c.length_squared() > CROSSING_SIN2 && p != 0.0).then_some(Geometry::LineLine {
        a: a.body,
        sa: a.s,
        ra: a.r,
        ma,
        b: b.body,
        sb: b.s,
        rb: b.r,
        mb,
    })
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
