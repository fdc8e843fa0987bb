//! Sphere against sphere: the pair function of two spheres, and the sphere pair probe it
//! makes (which a capsule pair makes too, between its segments' closest points: `capsule.rs`).
//!
//! ```text
//! sphere pair  centres p_a, p_b (body points), radii r_a, r_b:  g = |p_b - p_a| - r_a - r_b,
//!              a length like a spring's (Delta l = (dbar / lbar) . Delta d exactly), with the
//!              Hertz law of R = r_a r_b / (r_a + r_b) (`Colliders::law`)
//! ```
use super::collider::{Collider, Colliders, Pair};
use super::probe::{Geometry, Probe};
use alloc::vec::Vec;
use glam::DVec3;

/// The pair function of two spheres: their centres' sphere pair.
pub fn collide(pair: &Pair, out: &mut Vec<Probe>) {
    let (a, b) = (pair.a, pair.b);
    out.push(sphere_pair(pair.colliders, a, a.s, b, b.s, pair.key));
}

/// The sphere pair of colliders `a` and `b` between their body points `sa` and `sb` (a
/// sphere's centre, a capsule's closest point: `capsule.rs`), with the pair's law, keyed `key`.
pub fn sphere_pair(
    colliders: &Colliders,
    a: &Collider,
    sa: DVec3,
    b: &Collider,
    sb: DVec3,
    key: [usize; 2],
) -> Probe {
    Probe {
        geometry: Geometry::SpherePair {
            a: a.body,
            sa,
            ra: a.r,
            b: b.body,
            sb,
            rb: b.r,
        },
        law: colliders.law(a, b),
        mu_k: 0.0,
        mu_s: 0.0,
        kt: 0.0,
        shapes: key,
        part: 0,
    }
}
