//! The quantities every integrator reports each step (physics notes, "Invariants to report").
use crate::model::{BodyState, Model};
use glam::DVec3;

/// Energy, momentum and constraint residuals of one state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Invariants {
    /// simulated time (s)
    pub t: f64,
    /// kinetic energy T (eq. 6)
    pub kinetic: f64,
    /// potential energy V = -sum M g.x (eq. 39)
    pub potential: f64,
    /// angular momentum about the global origin (eq. 40)
    pub momentum: DVec3,
    /// internal constraint violation: max(|e(q)|, |C(q)p|) for the director method,
    /// max |R^T R - I| for the rotation-matrix methods
    pub internal_violation: f64,
    /// largest joint equation residual |Phi|
    pub joint_violation: f64,
    /// Newton iterations of the last step
    pub iterations: u32,
    /// final Newton residual of the last step
    pub residual: f64,
}

impl Invariants {
    /// Total energy E = T + V.
    pub fn energy(&self) -> f64 {
        self.kinetic + self.potential
    }
}

/// Kinetic energy T = sum 1/2 M v.v + 1/2 w.J w (eq. 6).
pub fn kinetic(model: &Model, states: &[BodyState]) -> f64 {
    model
        .bodies
        .iter()
        .zip(states)
        .map(|(b, s)| 0.5 * b.mass * s.v.length_squared() + 0.5 * s.w.dot(b.inertia * s.w))
        .sum()
}

/// Potential energy of gravity V = -sum M g.x (eq. 39).
pub fn potential(model: &Model, states: &[BodyState]) -> f64 {
    model
        .bodies
        .iter()
        .zip(states)
        .map(|(b, s)| -b.mass * model.gravity.dot(s.x))
        .sum()
}

/// Angular momentum about the origin, l = sum x x M v + R (J w) (eq. 40).
pub fn momentum(model: &Model, states: &[BodyState]) -> DVec3 {
    model
        .bodies
        .iter()
        .zip(states)
        .map(|(b, s)| s.x.cross(s.v * b.mass) + s.r * (b.inertia * s.w))
        .sum()
}

/// Largest absolute joint residual |Phi| over all joints.
pub fn joint_violation(model: &Model, states: &[BodyState]) -> f64 {
    (0..model.joints.len())
        .map(|j| {
            let e = crate::joints::evaluate(model, j, states);
            e.phi[..e.rows].iter().fold(0.0f64, |m, x| m.max(x.abs()))
        })
        .fold(0.0, f64::max)
}

/// Largest absolute joint velocity residual |d Phi/dt| over all joints.
pub fn joint_velocity_violation(model: &Model, states: &[BodyState]) -> f64 {
    (0..model.joints.len())
        .map(|j| {
            let e = crate::joints::evaluate(model, j, states);
            let mut m = 0.0f64;
            for r in 0..e.rows {
                m = m.max(e.velocity(r, states, model).abs());
            }
            m
        })
        .fold(0.0, f64::max)
}

/// Energy, momentum and joint residual of `states` at time `t` (the internal violation and
/// Newton figures are filled in by the caller).
pub fn measure(model: &Model, states: &[BodyState], t: f64) -> Invariants {
    Invariants {
        t,
        kinetic: kinetic(model, states),
        potential: potential(model, states),
        momentum: momentum(model, states),
        joint_violation: joint_violation(model, states),
        ..Default::default()
    }
}
