//! What the director's discrete forces share (its force elements, `forces.rs`, and its
//! contacts, `contact.rs`): the gradient of a force at a body point in the director
//! coordinates (`add_point`), and the stiffness Newton's tangent takes from contacts and joint
//! limits (`Stiffness` per body, `Coupling` between two bodies' centres).
//!
//! ```text
//! point      p(q) = q0 + sum_i s_i q_i (linear in q), the body point s at the coordinates q
//! gradient   of f . p(q): f on q0, s_i f on q_i
//! stiffness  a force of stiffness K (world) at the arm a: K on the centre, [a]^T K [a] on the
//!            rotation
//! ```
use glam::{DMat3, DVec3};

pub fn pos(q: &[f64; 12]) -> DVec3 {
    DVec3::new(q[0], q[1], q[2])
}

/// The body point `s` at the director coordinates `q`: q0 + Q s.
pub fn point(q: &[f64; 12], s: DVec3) -> DVec3 {
    pos(q) + DMat3::from_cols_slice(&q[3..12]) * s
}

/// Add the gradient of f . p(q) for the body point s: f on q0, s_i f on q_i (also the
/// director's force elements', `director/forces.rs`).
pub fn add_point(g: &mut [f64; 12], s: DVec3, f: DVec3) {
    let (f, s) = (f.to_array(), s.to_array());
    for k in 0..3 {
        g[k] += f[k];
        for i in 0..3 {
            g[3 + 3 * i + k] += s[i] * f[k];
        }
    }
}

/// Per body: the contacts' stiffness seen by Newton, d(force)/d(position) of the body's centre
/// (`x`, world) and d(torque)/d(rotation) (`r`, world, sum of [a]^T K [a] over the arms a).
#[derive(Clone, Copy, Debug)]
pub struct Stiffness {
    /// translational (N/m)
    pub x: DMat3,
    /// rotational (N m/rad)
    pub r: DMat3,
}

impl Default for Stiffness {
    /// None (glam's `DMat3::default()` is the identity, not zero).
    fn default() -> Self {
        Stiffness {
            x: DMat3::ZERO,
            r: DMat3::ZERO,
        }
    }
}

/// The stiffness two bodies' centres see from a contact between them (a sphere pair and its
/// stick spring): d(force on a)/d(position of b) = -k, the same k (world, N/m, symmetric) that
/// enters both bodies' [`Stiffness::x`]. Newton's tangent takes it so that a pile's centres
/// converge as one system (`director/coupled.rs`), not body by body.
/// Not a point against a box's face: its normal turns with the box, which a coupling of the
/// centres does not see (with it the dominoes' balance over 3 s grew from 1.7e-9 to 2.0e-8 J,
/// whatever the solve's accuracy), so those pairs stay in the bodies' own blocks only.
#[derive(Clone, Copy, Debug)]
pub struct Coupling {
    /// one body
    pub a: usize,
    /// the other body
    pub b: usize,
    /// the stiffness of the pair (N/m)
    pub k: DMat3,
}

/// Add the stiffness `k` (world, N/m) of a force at the arm `a` to `st`.
pub fn add_stiffness(st: &mut Stiffness, k: DMat3, a: DVec3) {
    let ax = crate::math::skew(a);
    st.x += k;
    st.r += ax.transpose() * k * ax;
}
