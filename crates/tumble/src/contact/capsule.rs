//! Capsules against spheres and capsules: each pair is one function of the two bodies' positions
//! wherever its closest points lie, so the director's balance is exact as they slide along the
//! segments, past their ends and round the end caps.
//!
//! ```text
//! point-segment a sphere's centre against a capsule's segment: g = sqrt(|w|^2 + c(w . n))
//!            - r_a - r_b (w from the segment's centre to the point, n its axis, c = -s^2
//!            inside and L^2 - 2 L |s| beyond an end: the distance to the line or to the
//!            nearer end, one C^1 function; `Geometry::PointLine`: |w|^2 quadratic, s bilinear
//!            in the director coordinates, c's difference quotient exact)
//! segments   two capsules: g = d - r_a - r_b, d^2 = F the least of |w + t n_b - s n_a|^2
//!            over the two segments (Ericson, Real-Time Collision Detection, 5.1.9), a
//!            function of the inner products w . w, w . n_a, w . n_b, n_a . n_b alone, with
//!            Gonzalez's discrete gradient in them (`Geometry::Segments`,
//!            `methods/director/segments.rs`): exact whether they cross, meet end to end,
//!            lie side by side or pass from one to another within the step
//! parallel   (1 - (n_a . n_b)^2 below 1e-12): the closest points are not unique; s is taken
//!            at the middle of the overlap of b's projection on a (F is the same)
//! ```
//! Measured (tests/capsule_pairs.rs): a ball running 0.3 m along a capsule keeps
//! E - E0 - W + D to 2.5e-12 J (the held contact point gave 1.8e-3 J), running on over the end
//! cap and off it 2.1e-12 J (the line's distance beyond the end gave 2.5e-8 J); a sliding
//! oblique strike of two capsules keeps E to the Newton tolerance. Where the closest points are
//! not unique (two capsules parallel) F is continuous but not differentiable: the balance stays
//! exact (Gonzalez's form is exact for any F), the step's accuracy is first order there.
use super::collider::{Collider, Pair};
use super::probe::{segment_feet, Geometry, Probe};
use super::sphere_sphere::sphere_pair;
use alloc::vec::Vec;
use glam::DVec3;

/// The pair function of a capsule taken whole and a sphere or a capsule: a sphere's centre
/// against the capsule's segment, two capsules' segments (module notes); two spheres (not
/// sent here) a sphere pair.
pub fn collide(pair: &Pair, out: &mut Vec<Probe>) {
    let (a, b) = (pair.a, pair.b);
    let mut probe = sphere_pair(pair.colliders, a, a.s, b, b.s, pair.key);
    probe.geometry = match (a.segment, b.segment) {
        (Some(ha), Some(hb)) => {
            if let Some((ta, tb)) = side_by_side(pair, ha, hb) {
                // held at the closest points for the step (module notes)
                let at = |c: &Collider, t: f64| c.s + c.rot * DVec3::new(0.0, 0.0, t);
                out.push(sphere_pair(
                    pair.colliders,
                    a,
                    at(a, ta),
                    b,
                    at(b, tb),
                    pair.key,
                ));
                return;
            }
            segments(a, b, ha, hb)
        }
        (Some(half), None) | (None, Some(half)) => {
            let (on, line_b) = if a.segment.is_some() {
                (a, false)
            } else {
                (b, true)
            };
            Geometry::PointLine {
                a: a.body,
                sa: a.s,
                ra: a.r,
                b: b.body,
                sb: b.s,
                rb: b.r,
                m: on.rot * DVec3::Z,
                half,
                line_b,
            }
        }
        (None, None) => probe.geometry,
    };
    out.push(probe);
}

/// Below this sin^2 of the angle between two capsules' axes, with both closest points inside
/// their segments, the pair is held at its closest points for the step (module notes).
const SIDE_BY_SIDE_SIN2: f64 = 1e-4;

/// Below this sin^2 (1e-4 rad) the pair is held whatever its closest points: two capsules lying
/// side by side with their closest points at the ends of their overlap, whose minimiser jumps
/// from one end of the overlap to the other as the tilt changes sign (F not differentiable), where
/// the segments' form stalled Newton (the falling chain's pile: 45 iterations a step against
/// 13, up to 1571; at 1e-8 13.7, up to 79, and half the balance error of holding them at 1e-4).
const PARALLEL_SIN2: f64 = 1e-8;

/// Two capsules lying side by side at the step's start (both closest points inside their
/// segments and the axes within `SIDE_BY_SIDE_SIN2` of parallel, or the axes within
/// `PARALLEL_SIN2`): the closest points' parameters (m from the centres along the axes), else
/// None.
fn side_by_side(pair: &Pair, ha: f64, hb: f64) -> Option<(f64, f64)> {
    let (a, b, s) = (pair.a, pair.b, pair.s);
    let (sta, stb) = (&s[a.body], &s[b.body]);
    let (na, nb) = (sta.r * (a.rot * DVec3::Z), stb.r * (b.rot * DVec3::Z));
    let w = stb.x + stb.r * b.s - sta.x - sta.r * a.s;
    let ab = na.dot(nb);
    let (ta, tb) = segment_feet(w.dot(na), w.dot(nb), ab, ha, hb);
    let (inside, sin2) = (ta.abs() < ha && tb.abs() < hb, 1.0 - ab * ab);
    ((inside && sin2 < SIDE_BY_SIDE_SIN2) || sin2 < PARALLEL_SIN2).then_some((ta, tb))
}

/// Two capsules' segments (`Geometry::Segments`).
fn segments(a: &Collider, b: &Collider, ha: f64, hb: f64) -> Geometry {
    Geometry::Segments {
        a: a.body,
        sa: a.s,
        ra: a.r,
        ma: a.rot * DVec3::Z,
        b: b.body,
        sb: b.s,
        rb: b.r,
        mb: b.rot * DVec3::Z,
        ha,
        hb,
    }
}

/// The body point at parameter `t` of a collider's segment (a sphere's centre), in its body's frame.
pub fn segment_point(shape: &Collider, t: f64) -> DVec3 {
    match shape.segment {
        Some(len) => shape.s + shape.rot * DVec3::new(0.0, 0.0, (2.0 * t - 1.0) * len),
        None => shape.s,
    }
}
