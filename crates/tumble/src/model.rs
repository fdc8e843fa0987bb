//! The model (what does not change during a run) and the common body state.
use crate::timefn::TimeFn;
use alloc::string::String;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

pub use crate::joint_kind::JointKind;
pub use crate::math::{box_for_inertia, box_inertia, d_from_inertia, twist_reference};

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
    /// A rope (MuJoCo's limited spatial tendon between two sites): the distance between two
    /// points held at most `length` by a one-sided stop (`forces/rope.rs`); slack, no force.
    Rope {
        /// first body, `None` for the ground
        a: Option<usize>,
        /// point in body a's frame (global if ground) (m)
        point_a: DVec3,
        /// second body
        b: usize,
        /// point in body b's frame (m)
        point_b: DVec3,
        /// the longest distance (m), > 0
        length: f64,
        /// the stop's stiffness (N/m); 0: it rings at 10 Hz on the two bodies' reduced mass
        stiffness: f64,
        /// the coefficient of restitution of a jerk on the taut rope
        restitution: f64,
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
    /// Linear spring and damper on a prismatic or cylindrical joint's slide (b's point along
    /// a's axis, measured from the start).
    SliderSpring {
        /// the joint (prismatic, cylindrical, planar or planar slide)
        joint: usize,
        /// which of the joint's slides ([`JointKind::slide_axis`]): 0, or 1 on a planar joint
        slide: usize,
        /// stiffness (N/m), >= 0
        stiffness: f64,
        /// the slide at rest (m), relative to the start
        rest_slide: f64,
        /// damping (N s/m), >= 0
        damping: f64,
    },
    /// A joint limit: the joint's angle (revolute, cylindrical) or slide (prismatic,
    /// cylindrical), measured from the start, is held between `lower` and `upper` by a stop
    /// that pushes back with the contact law of a flat contact (`forces/limits.rs`).
    Limit {
        /// the joint
        joint: usize,
        /// which coordinate: the angle (rad) or the slide (m)
        kind: LimitKind,
        /// a slide limit's slide ([`JointKind::slide_axis`]); 0 for an angle limit
        slide: usize,
        /// the lower bound (rad or m), <= 0 (the joint starts within its range)
        lower: f64,
        /// the upper bound (rad or m), >= 0
        upper: f64,
        /// the stop's stiffness (N m/rad or N/m); 0: a stop that rings at 10 Hz on body b
        stiffness: f64,
        /// the coefficient of restitution of an impact on the stop
        restitution: f64,
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
    /// A linear motor: a force along a joint's slide (MuJoCo's motor on a slide joint), on
    /// body b's joint point, and the opposite on body a at the same place.
    SliderMotor {
        /// the joint (prismatic, cylindrical, planar or planar slide)
        joint: usize,
        /// which of its slides, as for [`ForceElement::SliderSpring`]
        slide: usize,
        /// the force at f = 1 (N), along the slide
        force: f64,
        /// the factor f(t)
        time: TimeFn,
    },
    /// A spring and damper on a fixed tendon's length L = sum c_i q_i (`tendons.rs`).
    TendonSpring {
        /// the tendon ([`Model::tendons`])
        tendon: usize,
        /// stiffness (N/m or N m/rad: per unit of L), >= 0
        stiffness: f64,
        /// L at rest, relative to the start (L is measured from the start, as the angles are)
        rest_length: f64,
        /// damping, >= 0
        damping: f64,
    },
    /// Stops on a fixed tendon's length L, from the start (`forces/limits.rs` on L).
    TendonLimit {
        /// the tendon ([`Model::tendons`])
        tendon: usize,
        /// the lower bound, <= 0
        lower: f64,
        /// the upper bound, >= 0
        upper: f64,
        /// the stop's stiffness; 0: it rings at 10 Hz on the tendon's inertia
        stiffness: f64,
        /// the coefficient of restitution of an impact on the stop
        restitution: f64,
    },
    /// A generalised force F along a fixed tendon's length: c_i F on each coordinate q_i.
    TendonMotor {
        /// the tendon ([`Model::tendons`])
        tendon: usize,
        /// the force at f = 1 (N or N m: per unit of L)
        force: f64,
        /// the factor f(t)
        time: TimeFn,
    },
    /// A rotor inertia on a fixed tendon's length L (MuJoCo's armature): kinetic energy
    /// A (dL/dt)^2 / 2 beside the bodies' own; its rate is part of the state
    /// (`methods/director/tendons.rs` has the discrete form; the director only).
    TendonArmature {
        /// the tendon ([`Model::tendons`])
        tendon: usize,
        /// A (kg m^2 per rad^2 of L for angles, kg per m^2 for slides: per unit of L squared)
        armature: f64,
    },
}

impl ForceElement {
    /// Whether the element is a stop (a joint or tendon limit, a rope): its energy is the
    /// stops' part of V (`forces::potential`).
    pub fn is_stop(&self) -> bool {
        matches!(
            self,
            ForceElement::Limit { .. }
                | ForceElement::TendonLimit { .. }
                | ForceElement::Rope { .. }
        )
    }

    /// The time function of a load or motor (`None` for the springs and limits).
    pub fn time_fn(&self) -> Option<TimeFn> {
        match *self {
            ForceElement::Force { time, .. }
            | ForceElement::Torque { time, .. }
            | ForceElement::Motor { time, .. }
            | ForceElement::SliderMotor { time, .. }
            | ForceElement::TendonMotor { time, .. } => Some(time),
            _ => None,
        }
    }
}

/// A fixed tendon (`forces/tendons.rs`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tendon {
    /// its coordinates and their coefficients
    pub terms: Vec<TendonTerm>,
}

/// One coordinate of a tendon with its coefficient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TendonTerm {
    /// the joint
    pub joint: usize,
    /// a hinge's angle or a slide, and which (universal: 0, 1; gimbal: 0, 1, 2)
    pub kind: LimitKind,
    /// (see `kind`)
    pub index: usize,
    /// the coefficient c_i
    pub coef: f64,
}

/// Which coordinate of its joint a [`ForceElement::Limit`] bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// the angle of b relative to a about the axis (revolute, cylindrical), rad
    Angle,
    /// the slide of b's point along a's axis (prismatic, cylindrical), m
    Slide,
}

/// Everything that stays fixed during a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    /// Rigid bodies.
    pub bodies: Vec<Body>,
    /// Joints (external constraints).
    pub joints: Vec<Joint>,
    /// Gravitational acceleration vector g (m/s^2); V = -sum M g.x (eq. 39).
    pub gravity: DVec3,
    /// Force elements and applied loads (springs, dampers, forces, torques, motors).
    pub forces: Vec<ForceElement>,
    /// Drives: joint coordinates prescribed as functions of time.
    pub drives: Vec<Drive>,
    /// Collision shapes, planes and materials (empty: nothing touches anything).
    pub contact: crate::shapes::Contact,
    /// The elements' names (labels only: the motion does not depend on them).
    pub names: Names,
    /// The controls: motors whose factor is an input set between steps (MuJoCo's ctrl).
    pub controls: Vec<Control>,
    /// Fixed tendons: lengths that are linear combinations of joint coordinates
    /// (`tendons.rs`), on which tendon springs and tendon motors act.
    pub tendons: Vec<Tendon>,
}

/// A control: a motor's factor (its constant time function) set between steps within [lower,
/// upper] (`Simulation::set_control`): MuJoCo's ctrl with its ctrlrange, the motor its gear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Control {
    /// the force element (a `Motor`, `SliderMotor` or `TendonMotor` with a constant time function)
    pub element: usize,
    /// the lowest value
    pub lower: f64,
    /// the highest value
    pub upper: f64,
}

/// The names of a model's elements, one list per kind of element in the model's order: empty
/// when none of that kind is named, else as long as its list with "" for an unnamed element
/// (the JSON form's optional `name`; checked by `names::check`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// the bodies' names
    pub bodies: Vec<String>,
    /// the joints' names
    pub joints: Vec<String>,
    /// the force elements' names
    pub forces: Vec<String>,
    /// the drives' names
    pub drives: Vec<String>,
    /// the tendons' names
    pub tendons: Vec<String>,
    /// per joint, its coordinates' names (`joints[i].coordinates`: MuJoCo's joints composed into
    /// it), empty for a joint without them; empty when no joint has them
    pub coordinates: Vec<Vec<String>>,
}

impl Names {
    /// The name of element `i` of list `list` (`Names::bodies` etc.), if it has one.
    pub fn of(list: &[String], i: usize) -> Option<&str> {
        list.get(i).map(String::as_str).filter(|s| !s.is_empty())
    }

    /// Whether no element is named.
    pub fn is_empty(&self) -> bool {
        [
            &self.bodies,
            &self.joints,
            &self.forces,
            &self.drives,
            &self.tendons,
        ]
        .iter()
        .all(|l| l.iter().all(String::is_empty))
            && self.coordinates.iter().all(Vec::is_empty)
    }
}

/// Which coordinate of its joint a drive prescribes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriveKind {
    /// the angle of b relative to a about the axis (revolute, cylindrical), rad, 0 at the start
    Angle,
    /// the slide of b's point along a's axis (prismatic, cylindrical), m, 0 at the start
    Slide,
    /// the distance between a distance joint's points, m: length + f(t) (its own row made
    /// time-dependent, so it adds no equation)
    Distance,
}

/// A drive (a rheonomic constraint Phi(q, t) = 0): the coordinate of joint `joint` follows
/// `time` (measured from the start, so f(0) must be 0; the equations are in `compiled.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drive {
    /// the joint
    pub joint: usize,
    /// the coordinate
    pub kind: DriveKind,
    /// the prescribed coordinate f(t)
    pub time: TimeFn,
}

impl Model {
    /// Whether anything but gravity and the joints acts: force elements or contacts.
    pub fn has_elements(&self) -> bool {
        !self.forces.is_empty() || !self.contact.is_empty()
    }

    /// Total number of joint equations m.
    pub fn constraint_rows(&self) -> usize {
        (0..self.joints.len()).map(|j| self.joint_rows(j)).sum()
    }

    /// The equations of joint `j`: its kind's and one per drive on it (a distance drive
    /// drives the distance joint's own row and adds none).
    pub fn joint_rows(&self, j: usize) -> usize {
        self.joints[j].kind.rows()
            + self
                .drives
                .iter()
                .filter(|d| d.joint == j && d.kind != DriveKind::Distance)
                .count()
    }

    /// Whether row `r` of joint `j` is a drive's: rows beyond the joint's own, and a driven
    /// distance joint's row.
    pub fn is_drive_row(&self, j: usize, r: usize) -> bool {
        r >= self.joints[j].kind.rows()
            || self
                .drives
                .iter()
                .any(|d| d.joint == j && d.kind == DriveKind::Distance)
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
