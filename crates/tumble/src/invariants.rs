//! The quantities every integrator reports each step (physics notes, "Invariants to report").
use crate::model::{BodyState, ForceElement, JointKind, Model};
use glam::DVec3;

/// Energy, momentum and constraint residuals of one state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Invariants {
    /// simulated time (s)
    pub t: f64,
    /// kinetic energy T (eq. 6)
    pub kinetic: f64,
    /// potential energy V = -sum M g.x (eq. 39) plus the springs' k (l - L)^2 / 2
    pub potential: f64,
    /// W: work put in by loads and motors since the start (J)
    pub work: f64,
    /// D: energy dissipated by dampers since the start (J), never decreasing
    pub dissipated: f64,
    /// the energy balance E - E(0) - W + D (J): zero for the exact motion
    pub balance: f64,
    /// the elastic energy of the contacts and the joints' stops (J), a part of `potential`
    pub contact: f64,
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

    /// The energy scale against which the balance is judged (J): the largest of |E0|, |E|, T
    /// and |W|, at least 1 J. Not D: a run that blows up through an explicit damper counts its
    /// own D up with it (the suite's quadruped with RATTLE at 5 ms: D = 4.3e4 J, E0 = 988 J).
    pub fn energy_scale(&self) -> f64 {
        let e = self.energy();
        let e0 = e - self.work + self.dissipated - self.balance;
        e0.abs()
            .max(e.abs())
            .max(self.kinetic)
            .max(self.work.abs())
            .max(1.0)
    }

    /// Whether the balance has come apart: |E - E0 - W + D| beyond the whole energy scale. Every
    /// preset at its suitable step stays below over 20 s (`tests/tests/presets.rs`); a run past
    /// it is not to be trusted (the page's notice, the command line's warning).
    pub fn balance_broken(&self) -> bool {
        self.balance.abs() > self.energy_scale()
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

/// Which components l1, l2, l3 of the angular momentum about the origin the model conserves.
///
/// dl/dt is the sum of the external torques about the origin: gravity, sum x_i x M_i g, and the
/// reactions of the joints to the ground (joints between two bodies act equally and oppositely
/// at one point and cancel). Component k is conserved for every motion exactly when
/// - gravity has no torque about e_k for any position: g x e_k = 0 (g along e_k, or no gravity);
/// - every ground joint's reaction force F at its ground point p has none, e_k . (p x F) =
///   F . (e_k x p) = 0 for all F: e_k x p = 0 (p on the x_k axis);
/// - a distance joint (driven or not) pulls along the line through its points, so on the ground
///   it acts as a ball joint at its ground point;
/// - a ground revolute joint's reaction moment, any M perpendicular to its (fixed) axis n, has
///   none: e_k parallel to n;
/// - a spring to the ground reacts at its ground point (as a ball joint there); a joint spring
///   or motor on a ground joint reacts on the ground about the joint's axis (so with the
///   joint's own rule nothing is left); forces and torques on bodies change l.
///
/// Directions are compared to a relative 1e-12 (the presets build them exactly).
pub fn conserved_momentum(model: &Model) -> [bool; 3] {
    let parallel = |a: DVec3, b: DVec3| a.cross(b).length() <= 1e-12 * a.length() * b.length();
    let mut out = [true; 3];
    for (k, c) in out.iter_mut().enumerate() {
        let e = DVec3::AXES[k];
        *c = parallel(model.gravity, e)
            && model.joints.iter().filter(|j| j.a.is_none()).all(|j| {
                parallel(j.point_a, e)
                    && match j.kind {
                        // a rod's force acts along the line through its ground point
                        JointKind::Spherical | JointKind::Gimbal { .. } | JointKind::Distance { .. } => {
                            true
                        }
                        JointKind::Revolute { axis_a, .. } => parallel(axis_a, e),
                        // sliding, universal and fixed joints to the ground: reaction moments
                        // about more than one axis, or forces off the origin along a line
                        _ => false,
                    }
            })
            && model.forces.iter().all(|f| match *f {
                // a spring to the ground reacts at its ground point like a ball joint there;
                // one between two bodies acts equally and oppositely along their line
                ForceElement::Spring {
                    a: None, point_a, ..
                }
                | ForceElement::Rope {
                    a: None, point_a, ..
                } => parallel(point_a, e),
                ForceElement::Spring { .. } | ForceElement::Rope { .. } => true,
                // a torque about a joint's axis reacts on the ground when the joint is grounded
                ForceElement::JointSpring { joint, .. }
                | ForceElement::Limit { joint, .. }
                | ForceElement::Motor { joint, .. }
                | ForceElement::SliderMotor { joint, .. }
                | ForceElement::SliderSpring { joint, .. } => model.joints[joint].a.is_some(),
                // a tendon's force acts on each of its coordinates' joints, as a joint spring
                ForceElement::TendonSpring { tendon, .. }
                | ForceElement::TendonMotor { tendon, .. }
                | ForceElement::TendonLimit { tendon, .. }
                | ForceElement::TendonArmature { tendon, .. } => model.tendons[tendon]
                    .terms
                    .iter()
                    .all(|x| model.joints[x.joint].a.is_some()),
                // an external load changes the momentum
                ForceElement::Force { .. } | ForceElement::Torque { .. } => false,
            })
            // a drive on a grounded joint pushes or turns against the ground (the governor's
            // spindle, Kapitza's carriage); one between two bodies acts equally on both, and a
            // distance drive's force is the rod's, along the line through its ground point
            && model.drives.iter().all(|d| {
                model.joints[d.joint].a.is_some() || d.kind == crate::model::DriveKind::Distance
            })
            // contact with a plane pushes and rubs against the ground anywhere on it; contact
            // between bodies (spheres: along the line of their centres, frictionless) acts
            // equally and oppositely on both
            && (model.contact.shapes.is_empty() || model.contact.planes.is_empty());
    }
    out
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

/// Largest absolute joint residual |Phi| over the compiled joints at time `t` (their drives
/// included), without allocating.
pub fn joint_violation_compiled(
    c: &crate::compiled::Compiled,
    states: &[BodyState],
    t: f64,
) -> f64 {
    let mut e = crate::joints::JointEval::default();
    let mut m = 0.0f64;
    for f in &c.frames {
        crate::joints::evaluate_into(f, states, t, &mut e);
        m = e.phi[..e.rows].iter().fold(m, |m, x| m.max(x.abs()));
    }
    m
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
        joint_violation: joint_violation(model, states),
        ..measure_without_joints(model, states, t)
    }
}

/// [`measure`] without the joint residual (a simulation measures it with its compiled joints).
pub fn measure_without_joints(model: &Model, states: &[BodyState], t: f64) -> Invariants {
    Invariants {
        t,
        kinetic: kinetic(model, states),
        potential: potential(model, states),
        momentum: momentum(model, states),
        ..Default::default()
    }
}
