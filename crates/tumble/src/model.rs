//! The model (what does not change during a run) and the common body state.
use alloc::vec::Vec;
use crate::timefn::TimeFn;
use glam::{DMat3, DVec3};

/// A rigid body: mass and principal moments of inertia about its centre of mass.
/// Body axes are the principal axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// Mass M (kg), > 0.
    pub mass: f64,
    /// Principal moments (J1, J2, J3) about the centre of mass, along body axes x1, x2, x3.
    /// Each > 0 and each at most the sum of the other two (strictly, so that the
    /// RATTLE matrix D of Terze et al. eq. (2) is positive definite).
    pub inertia: DVec3,
    /// Box side lengths used for drawing only.
    pub size: DVec3,
}

/// Joint type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// Spherical joint (Nielsen & Krenk eq. 34): the two points coincide. 3 equations.
    Spherical,
    /// Revolute joint (eq. 37): the points coincide and the axis `axis_a` (in body a's frame,
    /// or global if a is ground) stays parallel to `axis_b` (in body b's frame). 5 equations.
    Revolute {
        /// Unit axis in body a's frame (global when a is the ground).
        axis_a: DVec3,
        /// Unit axis in body b's frame.
        axis_b: DVec3,
    },
}

impl JointKind {
    /// Number of scalar constraint equations.
    pub fn rows(&self) -> usize {
        match self {
            JointKind::Spherical => 3,
            JointKind::Revolute { .. } => 5,
        }
    }
}

/// A joint between body `a` (or the fixed ground when `a` is `None`) and body `b`.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Joint type.
    pub kind: JointKind,
    /// First body, `None` for the ground.
    pub a: Option<usize>,
    /// Joint point in body a's frame (relative to its centre of mass), or global if ground.
    pub point_a: DVec3,
    /// Second body.
    pub b: usize,
    /// Joint point in body b's frame (relative to its centre of mass).
    pub point_b: DVec3,
}

/// A force element or an applied load (their forces: `forces.rs`; units m, N, N m, s).
#[derive(Clone, Debug, PartialEq)]
pub enum ForceElement {
    /// Linear spring and damper along the line between two points.
    Spring {
        /// first body, `None` for the ground
        a: Option<usize>,
        /// point in body a's frame (global if ground) (m)
        point_a: DVec3,
        /// second body
        b: usize,
        /// point in body b's frame (m)
        point_b: DVec3,
        /// stiffness k (N/m), >= 0
        stiffness: f64,
        /// rest length L (m), >= 0 (zero: a zero-length pull)
        rest_length: f64,
        /// damping c (N s/m), >= 0
        damping: f64,
    },
    /// Torsional spring and damper on a revolute joint.
    JointSpring {
        /// the joint (revolute)
        joint: usize,
        /// stiffness (N m/rad), >= 0
        stiffness: f64,
        /// rest angle (rad), relative to the initial configuration
        rest_angle: f64,
        /// damping (N m s/rad), >= 0
        damping: f64,
    },
    /// A force at a body point, global direction, scaled by a function of time.
    Force {
        /// the body
        body: usize,
        /// point in the body's frame (m)
        point: DVec3,
        /// the force at f = 1 (N, global)
        force: DVec3,
        /// the factor f(t)
        time: TimeFn,
    },
    /// A torque on a body, global direction, scaled by a function of time.
    Torque {
        /// the body
        body: usize,
        /// the torque at f = 1 (N m, global)
        torque: DVec3,
        /// the factor f(t)
        time: TimeFn,
    },
    /// A motor torque about a revolute joint's axis, on body b (and the opposite on body a).
    Motor {
        /// the joint (revolute)
        joint: usize,
        /// the torque at f = 1 (N m)
        torque: f64,
        /// the factor f(t)
        time: TimeFn,
    },
}

/// Everything that stays fixed during a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Rigid bodies.
    pub bodies: Vec<Body>,
    /// Joints (external constraints).
    pub joints: Vec<Joint>,
    /// Gravitational acceleration vector g (m/s^2); V = -sum M g.x (eq. 39).
    pub gravity: DVec3,
    /// Force elements and applied loads (springs, dampers, forces, torques, motors).
    pub forces: Vec<ForceElement>,
}

impl Model {
    /// Total number of joint equations m.
    pub fn constraint_rows(&self) -> usize {
        self.joints.iter().map(|j| j.kind.rows()).sum()
    }
}

/// The kinematic state of one body, shared by all integrators for input and output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyState {
    /// Centre of mass, global.
    pub x: DVec3,
    /// Rotation: maps body axes to global axes (columns are the directors q1, q2, q3).
    pub r: DMat3,
    /// Velocity of the centre of mass, global.
    pub v: DVec3,
    /// Angular velocity in body components (Omega of eq. 6).
    pub w: DVec3,
}

/// Largest magnitude a state component may reach: beyond it energies and momenta would
/// overflow, so a step that gets there is reported as non-finite.
pub const MAX_MAGNITUDE: f64 = 1e100;

/// Every component finite and at most [`MAX_MAGNITUDE`] in size.
pub fn sane(values: &[DVec3]) -> bool {
    values
        .iter()
        .all(|v| v.is_finite() && v.abs().max_element() <= MAX_MAGNITUDE)
}

impl BodyState {
    /// All components finite and below [`MAX_MAGNITUDE`].
    pub fn is_sane(&self) -> bool {
        sane(&[
            self.x,
            self.v,
            self.w,
            self.r.x_axis,
            self.r.y_axis,
            self.r.z_axis,
        ])
    }

    /// At rest at `x` with rotation `r`.
    pub fn at_rest(x: DVec3, r: DMat3) -> Self {
        BodyState {
            x,
            r,
            v: DVec3::ZERO,
            w: DVec3::ZERO,
        }
    }
}

/// A box of mass `m` and sides `s`: its principal moments about the centre of mass.
pub fn box_inertia(m: f64, s: DVec3) -> DVec3 {
    let s2 = s * s;
    DVec3::new(s2.y + s2.z, s2.z + s2.x, s2.x + s2.y) * (m / 12.0)
}

/// The box (sides) of mass `m` with principal moments `j`.
pub fn box_for_inertia(m: f64, j: DVec3) -> DVec3 {
    let f = 6.0 / m;
    DVec3::new(
        crate::math::sqrt(f * (j.y + j.z - j.x)),
        crate::math::sqrt(f * (j.z + j.x - j.y)),
        crate::math::sqrt(f * (j.x + j.y - j.z)),
    )
}

/// RATTLE's D = diag(d) from the principal moments (Terze et al. eq. 2): d1 = (J2 + J3 - J1)/2
/// etc., so that J1 = d2 + d3, J2 = d3 + d1, J3 = d1 + d2.
pub fn d_from_inertia(j: DVec3) -> DVec3 {
    DVec3::new(j.y + j.z - j.x, j.z + j.x - j.y, j.x + j.y - j.z) * 0.5
}
