//! The material rules of a contact, in one place: the effective modulus E* of two materials,
//! the stiffness of a box's corner, Mindlin's tangential ratio, and how two materials combine
//! their restitution and friction.
//!
//! ```text
//! E*           1 / E* = (1 - nu_a^2) / E_a + (1 - nu_b^2) / E_b
//! Hertz        K = (4/3) E* sqrt(R)        (R the radius, or r_a r_b / (r_a + r_b) for two)
//! corner       k = 2 E* sqrt(A / pi) / 4   (a flat punch of the largest face's area A, shared
//!                                          by the four corners that carry it)
//! Mindlin      k_t / k_n = 2 (1 - nu) / (2 - nu), nu the mean of the two ratios
//! restitution  the smaller of the two (the more lossy material decides)
//! friction     mu = sqrt(mu_a mu_b), kinetic and static alike
//! ```
use crate::shapes::Material;
use glam::DVec3;

/// E* of two materials: 1 / E* = (1 - nu_a^2) / E_a + (1 - nu_b^2) / E_b.
pub fn e_star(a: &Material, b: &Material) -> f64 {
    1.0 / ((1.0 - a.poisson * a.poisson) / a.young + (1.0 - b.poisson * b.poisson) / b.young)
}

/// The stiffness of a box's corner against a plane (N/m): a flat face on a plane is a rigid
/// flat punch of the face's area A, of stiffness 2 E* sqrt(A / pi) (Johnson, Contact
/// Mechanics, 3.2), shared by the four corners that carry it; the largest face's area is taken.
pub fn corner_stiffness(es: f64, half: DVec3) -> f64 {
    let a = 4.0 * (half.x * half.y).max(half.y * half.z).max(half.z * half.x);
    2.0 * es * crate::math::sqrt(a / core::f64::consts::PI) / 4.0
}

/// Mindlin's k_t / k_n = 2 (1 - nu) / (2 - nu), with the mean of the two ratios.
pub fn mindlin(a: &Material, b: &Material) -> f64 {
    let nu = 0.5 * (a.poisson + b.poisson);
    2.0 * (1.0 - nu) / (2.0 - nu)
}

/// The pair's restitution and friction: the smaller restitution (the more lossy material
/// decides, as a soft ball on a hard floor), the geometric mean of the friction coefficients.
pub fn combine(a: &Material, b: &Material) -> (f64, f64, f64) {
    (
        a.restitution.min(b.restitution),
        crate::math::sqrt(a.friction * b.friction),
        crate::math::sqrt(a.static_friction * b.static_friction),
    )
}
