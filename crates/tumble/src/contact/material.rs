//! The material rules of a contact, in one place: the effective modulus E* of two materials,
//! the Hertz and corner stiffnesses, Mindlin's tangential ratio, and how two materials combine
//! their restitution, pull and friction. The plane contacts (`compile.rs`) and the pairs
//! (`collider.rs`, `friction.rs`) take them from here.
//!
//! ```text
//! E*           1 / E* = (1 - nu_a^2) / E_a + (1 - nu_b^2) / E_b  (a material's compliance
//!              (1 - nu^2) / E, summed)
//! Hertz        K = (4/3) E* sqrt(R)        (R the radius, or r_a r_b / (r_a + r_b) for two)
//! corner       k = 2 E* sqrt(A / pi) / 4   (a flat punch of the largest face's area A, shared
//!                                          by the four corners that carry it)
//! damping      c = alpha sqrt(m k)         (alpha calibrated for the restitution: law.rs)
//! Mindlin      k_t / k_n = 2 (1 - nu) / (2 - nu), nu the mean of the two ratios; for Hertz
//!              k_n = (3/2) (K^2 m g)^(1/3), the slope at the indentation of the weight m g
//! restitution  the smaller of the two (the more lossy material decides, as a soft ball on a
//!              hard floor); the force pulls where either material pulls
//! friction     mu = sqrt(mu_a mu_b), kinetic and static alike
//! ```
use crate::shapes::Material;
use glam::DVec3;

/// What a contact takes of a shape's material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Surface {
    /// (1 - nu^2) / E (1/Pa)
    pub compliance: f64,
    /// its restitution
    pub e: f64,
    /// whether its contact force may pull (its material's `pull`)
    pub pull: bool,
    /// its kinetic friction coefficient
    pub friction: f64,
    /// its static friction coefficient
    pub static_friction: f64,
    /// Poisson's ratio
    pub poisson: f64,
}

impl Surface {
    /// The surface of material `m`.
    pub fn of(m: &Material) -> Surface {
        Surface {
            compliance: (1.0 - m.poisson * m.poisson) / m.young,
            e: m.restitution,
            pull: m.pull,
            friction: m.friction,
            static_friction: m.static_friction,
            poisson: m.poisson,
        }
    }
}

/// E* of two materials: 1 / E* = (1 - nu_a^2) / E_a + (1 - nu_b^2) / E_b.
pub fn e_star(a: &Material, b: &Material) -> f64 {
    e_star_of(&Surface::of(a), &Surface::of(b))
}

/// E* of two surfaces: 1 / (compliance_a + compliance_b).
pub fn e_star_of(a: &Surface, b: &Surface) -> f64 {
    1.0 / (a.compliance + b.compliance)
}

/// Hertz's K = (4/3) E* sqrt(R) of a sphere of radius `r` on a plane of E* `es`.
pub fn hertz(es: f64, r: f64) -> f64 {
    4.0 / 3.0 * es * crate::math::sqrt(r)
}

/// Hertz's K between two surfaces with the radius `r`, written (4/3) / (compliance_a +
/// compliance_b) sqrt(R): the pairs' rounding of [`hertz`] (the stored runs hold to it).
pub fn hertz_pair(a: &Surface, b: &Surface, r: f64) -> f64 {
    4.0 / 3.0 / (a.compliance + b.compliance) * crate::math::sqrt(r)
}

/// The stiffness of a box's corner against a plane (N/m): a flat face on a plane is a rigid
/// flat punch of the face's area A, of stiffness 2 E* sqrt(A / pi) (Johnson, Contact
/// Mechanics, 3.2), shared by the four corners that carry it; the largest face's area is taken.
pub fn corner_stiffness(es: f64, half: DVec3) -> f64 {
    let a = 4.0 * (half.x * half.y).max(half.y * half.z).max(half.z * half.x);
    2.0 * es * crate::math::sqrt(a / core::f64::consts::PI) / 4.0
}

/// The damping coefficient c = alpha sqrt(m k) of a law of stiffness `k` on the mass `m`.
pub fn damping(alpha: f64, m: f64, k: f64) -> f64 {
    alpha * crate::math::sqrt(m * k)
}

/// Mindlin's k_t / k_n = 2 (1 - nu) / (2 - nu), with the mean of the two ratios.
pub fn mindlin(a: &Surface, b: &Surface) -> f64 {
    let nu = 0.5 * (a.poisson + b.poisson);
    2.0 * (1.0 - nu) / (2.0 - nu)
}

/// The normal stiffness k_t is taken from for a Hertz law of `k` on the mass `m` under the
/// acceleration `weight` (>= 1 m/s^2): its slope (3/2) (k^2 m g)^(1/3) at the weight's
/// indentation, a constant per contact so that V_t stays a potential.
pub fn hertz_kn(k: f64, m: f64, weight: f64) -> f64 {
    1.5 * libm::cbrt(k * k * m * weight)
}

/// The pair's restitution (the smaller) and whether its force pulls (where either pulls).
pub fn restitution(a: &Surface, b: &Surface) -> (f64, bool) {
    (a.e.min(b.e), a.pull || b.pull)
}

/// The pair's kinetic and static friction coefficients: the geometric means.
pub fn friction(a: &Surface, b: &Surface) -> (f64, f64) {
    (
        crate::math::sqrt(a.friction * b.friction),
        crate::math::sqrt(a.static_friction * b.static_friction),
    )
}
