//! Force elements and applied loads, and the energy budget they keep.
//!
//! ```text
//! spring-damper  d = p_b - p_a (p = x + R s),  l = |d|,  n = d / l,  ldot = n . (pdot_b - pdot_a)
//!                F = k (l - L) + c ldot,  force -F n on b at p_b, +F n on a at p_a
//!                V = k (l - L)^2 / 2,     dissipation c ldot^2
//! joint spring   on a revolute joint: theta, the angle of b relative to a about the axis
//!   (torsional)  n = R_a n_a, measured from the initial configuration (theta = 0 there):
//!                x = (R_a r_a) . (R_b e),  y = (R_a m_a) . (R_b e),  theta = atan2(y, x)
//!                (e perpendicular to axis_b in b, r_a = R_a0^T R_b0 e, m_a = n_a x r_a),
//!                unwrapped step by step; torque -(k (theta - theta_r) + c thetadot) n on b,
//!                the opposite on a; V = k (theta - theta_r)^2 / 2, dissipation c thetadot^2
//! force          F(t) = force f(t) (global) at the body point s: power F . pdot
//! torque         T(t) = torque f(t) (global) on the body: power T . w
//! motor          tau(t) = torque f(t) about a revolute joint's axis n: tau n on b, -tau n on
//!                a; power tau n . (w_b - w_a)
//! limit          a joint's angle or slide held between two stops (`forces/limits.rs`)
//! budget         E = T + V (V: gravity and springs), W = work of loads and motors,
//!                D = energy dissipated by dampers; E(t) - E(0) - W(t) + D(t) = 0
//! ```
//!
//! This module holds the model side (the elements, their validation, the frames compiled once)
//! and the potential of the springs; `world.rs` the continuous forms above for the
//! rotation-matrix methods (RATTLE, Baumgarte: forces and torques at a state, the powers whose
//! time integral they report as W and D); `limits.rs` the joint limits. The director method's discrete forms, which keep the balance to
//! the Newton tolerance, are in `director/forces.rs`.
pub mod limits;
mod world;

use crate::math::{length, perpendicular_pair};
pub use crate::model::ForceElement;
use crate::model::{BodyState, JointKind, LimitKind, Model};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};
pub use world::{add_world, stop_on_b, Power, Stop};

/// Largest stiffness (N/m or N m/rad) and damping (N s/m or N m s/rad) accepted.
pub const MAX_COEFFICIENT: f64 = 1e12;

/// What the elements need of a joint, compiled once: the bodies and, for a joint spring, the
/// vectors of the angle (see the module notes). Unused fields are zero.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frame {
    /// body a (`None`: ground)
    pub a: Option<usize>,
    /// body b
    pub b: usize,
    /// the axis in a's frame (global for the ground)
    pub n_a: DVec3,
    /// the angle's reference vector in a's frame (global for the ground)
    pub r_a: DVec3,
    /// n_a x r_a
    pub m_a: DVec3,
    /// the vector perpendicular to axis_b in b's frame
    pub e_b: DVec3,
    /// a slider spring: the joint's points (a's global for the ground) and the slide at the
    /// start, n . (p_b - p_a) with n = R_a n_a
    pub point_a: DVec3,
    /// b's point
    pub point_b: DVec3,
    /// the slide at the start (m)
    pub s0: f64,
    /// a joint limit's stops (`forces/limits.rs`)
    pub law: Option<crate::contact::Law>,
}

/// The frames of `model`'s elements, with the angles of joint springs measured from `init`
/// (from the identity orientation when `init` is `None`).
pub fn frames(model: &Model, init: Option<&[BodyState]>) -> Vec<Frame> {
    model
        .forces
        .iter()
        .map(|f| {
            let mut frame = frame(model, f, init);
            if let ForceElement::Limit {
                joint,
                kind,
                stiffness,
                restitution,
                ..
            } = *f
            {
                frame.law = Some(crate::forces::limits::law(
                    model,
                    joint,
                    kind,
                    stiffness,
                    restitution,
                ));
            }
            frame
        })
        .collect()
}

/// Element `f`'s frame (see [`frames`]).
fn frame(model: &Model, f: &ForceElement, init: Option<&[BodyState]>) -> Frame {
    match *f {
        ForceElement::JointSpring { joint, .. }
        | ForceElement::Motor { joint, .. }
        | ForceElement::Limit {
            joint,
            kind: LimitKind::Angle,
            ..
        } => {
            let j = &model.joints[joint];
            let (axis_a, axis_b) = match j.kind {
                JointKind::Revolute { axis_a, axis_b }
                | JointKind::Cylindrical { axis_a, axis_b } => (axis_a, axis_b),
                _ => (DVec3::X, DVec3::X), // rejected by `validate`
            };
            let n_a = crate::math::normalize(axis_a);
            let e_b = perpendicular_pair(axis_b).0;
            let rot = |b: Option<usize>| match (b, init) {
                (Some(b), Some(s)) => s[b].r,
                _ => DMat3::IDENTITY,
            };
            let (ra, rb) = (rot(j.a), rot(Some(j.b)));
            // r_a: body b's e at the start, seen from a, made exactly perpendicular to n_a
            let r = ra.transpose() * (rb * e_b);
            let r_a = crate::math::normalize(r - n_a * n_a.dot(r));
            Frame {
                a: j.a,
                b: j.b,
                n_a,
                r_a,
                m_a: n_a.cross(r_a),
                e_b,
                ..Frame::default()
            }
        }
        ForceElement::SliderSpring { joint, .. }
        | ForceElement::Limit {
            joint,
            kind: LimitKind::Slide,
            ..
        } => {
            let j = &model.joints[joint];
            let n_a = crate::math::normalize(j.kind.axes().0);
            let s0 = match init {
                Some(s) => {
                    let ra = j.a.map_or(DMat3::IDENTITY, |a| s[a].r);
                    (ra * n_a).dot(point(s, j.b, j.point_b) - end(s, j.a, j.point_a))
                }
                None => 0.0,
            };
            Frame {
                a: j.a,
                b: j.b,
                n_a,
                point_a: j.point_a,
                point_b: j.point_b,
                s0,
                ..Frame::default()
            }
        }
        _ => Frame::default(),
    }
}

/// Check every element of `model` at the initial states: indices, finite non-negative
/// coefficients, revolute joints for joint springs and motors, a spring whose points do not
/// coincide when its rest length is not zero. The message names the element and the field.
pub fn validate(model: &Model, init: &[BodyState]) -> Result<(), String> {
    let n = model.bodies.len();
    let coefficient = |name: &str, field: &str, v: f64| {
        if v.is_finite() && (0.0..=MAX_COEFFICIENT).contains(&v) {
            Ok(())
        } else {
            Err(format!(
                "{name}.{field} must be between 0 and {MAX_COEFFICIENT:e}, not {}",
                crate::math::Num(v)
            ))
        }
    };
    let body = |name: &str, field: &str, b: usize| {
        if b < n {
            Ok(())
        } else {
            Err(format!(
                "{name}.{field}: {}, so body {b} does not exist",
                crate::math::numbered(n, "body", "bodies")
            ))
        }
    };
    let finite = |name: &str, field: &str, v: DVec3, max: f64| {
        if v.is_finite() && v.abs().max_element() <= max {
            Ok(())
        } else {
            Err(format!(
                "{name}.{field} must hold finite numbers of magnitude at most {max:e}, not {:?}",
                v.to_array()
            ))
        }
    };
    let revolute = |name: &str, joint: usize| {
        match model.joints.get(joint) {
        Some(j) if matches!(j.kind, JointKind::Revolute { .. } | JointKind::Cylindrical { .. }) => {
            Ok(())
        }
        Some(j) => Err(format!(
            "{name}.joint: joints[{joint}] is a {} joint; joint springs and motors act about the axis of a revolute or cylindrical joint",
            j.kind.name()
        )),
        None => Err(format!(
            "{name}.joint: {}, so joints[{joint}] does not exist",
            crate::math::numbered(model.joints.len(), "joint", "joints")
        )),
    }
    };
    for (i, f) in model.forces.iter().enumerate() {
        let name = format!("forces[{i}]");
        let name = name.as_str();
        match *f {
            ForceElement::Spring {
                a,
                point_a,
                b,
                point_b,
                stiffness,
                rest_length,
                damping,
            } => {
                body(name, "b", b)?;
                if let Some(a) = a {
                    body(name, "a", a)?;
                    if a == b {
                        return Err(format!("{name} connects body {b} to itself"));
                    }
                }
                finite(name, "point_a", point_a, 1e9)?;
                finite(name, "point_b", point_b, 1e9)?;
                coefficient(name, "stiffness", stiffness)?;
                coefficient(name, "damping", damping)?;
                if !(rest_length.is_finite() && (0.0..=1e9).contains(&rest_length)) {
                    return Err(format!(
                        "{name}.rest_length must be between 0 and 1e9 m, not {}",
                        crate::math::Num(rest_length)
                    ));
                }
                let l = length(point(init, b, point_b) - end(init, a, point_a));
                if rest_length > 0.0 && l < 1e-9 {
                    return Err(format!(
                        "{name}: its two points coincide at the start (0 m apart) while its rest length is {rest_length} m, so the direction of its force is undefined; move a point or set rest_length to 0"
                    ));
                }
            }
            ForceElement::JointSpring {
                joint,
                stiffness,
                rest_angle,
                damping,
            } => {
                revolute(name, joint)?;
                coefficient(name, "stiffness", stiffness)?;
                coefficient(name, "damping", damping)?;
                if !(rest_angle.is_finite() && rest_angle.abs() <= 1e6) {
                    return Err(format!(
                        "{name}.rest_angle must be finite and at most 1e6 rad in size, not {rest_angle}"
                    ));
                }
            }
            ForceElement::SliderSpring {
                joint,
                stiffness,
                rest_slide,
                damping,
            } => {
                match model.joints.get(joint) {
                    Some(j) if matches!(j.kind, JointKind::Prismatic { .. } | JointKind::Cylindrical { .. }) => {}
                    Some(j) => {
                        return Err(format!(
                            "{name}.joint: joints[{joint}] is a {} joint; a slider spring acts along a prismatic or cylindrical joint",
                            j.kind.name()
                        ))
                    }
                    None => {
                        return Err(format!(
                            "{name}.joint: {}, so joints[{joint}] does not exist",
                            crate::math::numbered(model.joints.len(), "joint", "joints")
                        ))
                    }
                }
                coefficient(name, "stiffness", stiffness)?;
                coefficient(name, "damping", damping)?;
                if !(rest_slide.is_finite() && rest_slide.abs() <= 1e9) {
                    return Err(format!("{name}.rest_slide must be finite and at most 1e9 m in size, not {rest_slide}"));
                }
            }
            ForceElement::Limit {
                joint,
                kind,
                lower,
                upper,
                stiffness,
                restitution,
            } => crate::forces::limits::validate(
                model,
                name,
                joint,
                kind,
                lower,
                upper,
                stiffness,
                restitution,
            )?,
            ForceElement::Force {
                body: b,
                point: s,
                force,
                time,
            } => {
                body(name, "body", b)?;
                finite(name, "point", s, 1e9)?;
                finite(name, "force", force, MAX_COEFFICIENT)?;
                time.validate(&format!("{name}.time"))?;
            }
            ForceElement::Torque {
                body: b,
                torque,
                time,
            } => {
                body(name, "body", b)?;
                finite(name, "torque", torque, MAX_COEFFICIENT)?;
                time.validate(&format!("{name}.time"))?;
            }
            ForceElement::Motor {
                joint,
                torque,
                time,
            } => {
                revolute(name, joint)?;
                if !(torque.is_finite() && torque.abs() <= MAX_COEFFICIENT) {
                    return Err(format!(
                        "{name}.torque must be finite and at most {MAX_COEFFICIENT:e} N m in size, not {torque}"
                    ));
                }
                time.validate(&format!("{name}.time"))?;
            }
        }
    }
    Ok(())
}

pub(crate) fn point(s: &[BodyState], b: usize, p: DVec3) -> DVec3 {
    s[b].x + s[b].r * p
}

pub(crate) fn end(s: &[BodyState], a: Option<usize>, p: DVec3) -> DVec3 {
    match a {
        Some(a) => point(s, a, p),
        None => p,
    }
}

pub(crate) fn point_velocity(s: &[BodyState], a: Option<usize>, p: DVec3) -> DVec3 {
    match a {
        Some(a) => s[a].v + (s[a].r * s[a].w).cross(s[a].r * p),
        None => DVec3::ZERO,
    }
}

/// What the run has put in and taken out, and what the joint springs' angles are: the part of
/// a method's state that the elements own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    /// simulated time (s), advanced with every step
    pub t: f64,
    /// W: work of the loads and motors so far (J)
    pub work: f64,
    /// D: energy dissipated by the dampers so far (J), >= 0 and never decreasing
    pub dissipated: f64,
    /// per element: the unwrapped angle of a joint spring (rad), zero for other elements
    pub angles: Vec<f64>,
    /// per plane contact: the friction state (`contact/`)
    pub contact: Vec<crate::contact::PlaneFriction>,
    /// the sphere pairs that may touch in the next step (`contact/broad.rs`)
    pub broad: crate::contact::StepState,
}

impl State {
    /// Become a copy of `src`, reusing this state's storage (`simulation/substep.rs`).
    pub fn assign(&mut self, src: &State) {
        (self.t, self.work, self.dissipated) = (src.t, src.work, src.dissipated);
        self.angles.clone_from(&src.angles);
        self.contact.clone_from(&src.contact);
        self.broad.assign(&src.broad);
    }

    /// After the director's step is accepted: the contacts' friction state at its end
    /// (`slots1`, and the pairs' `pending`) becomes the state.
    pub fn accept_contact(&mut self, slots1: &[crate::contact::PlaneFriction]) {
        self.contact.copy_from_slice(slots1);
        let f = &mut self.broad.friction;
        f.next.copy_from_slice(&f.pending);
        f.fresh = false;
    }

    /// At the start of a run: nothing done, the angles zero (they are measured from the
    /// initial configuration), no contact slot.
    pub fn new(model: &Model) -> State {
        State {
            angles: vec![0.0; model.forces.len()],
            ..Default::default()
        }
    }

    /// At the start of a run of `model` from the states `init`: as [`State::new`], with the
    /// slots of the contact probes `probes`.
    pub fn start(model: &Model, probes: &crate::contact::Probes, init: &[BodyState]) -> State {
        let mut s = State {
            contact: probes.slots(init),
            ..State::new(model)
        };
        // the pairs touching at the start (their energy is part of E0)
        s.broad.sweep_pairs(&probes.colliders, init, 0.0); // (nothing released: no last step)
                                                           // and the plane probes touching (their storage made here: the saved copy of a step,
                                                           // `simulation/substep.rs`, is made from this state and must not grow later)
        s.broad.cull.find(probes, init, 0.0, &s.contact);
        s
    }
}

/// (cos, sin) of a joint spring's angle, unnormalised: (x, y) of the module notes.
pub fn angle_xy(f: &Frame, ra: &DMat3, rb: &DMat3) -> (f64, f64) {
    let u = *rb * f.e_b;
    ((*ra * f.r_a).dot(u), (*ra * f.m_a).dot(u))
}

/// The angle of (x, y) nearest to `previous` (unwrapped: continuous across +-pi).
pub fn unwrap(x: f64, y: f64, previous: f64) -> f64 {
    let tau = 2.0 * core::f64::consts::PI;
    let raw = libm::atan2(y, x);
    let turns = libm::round((previous - raw) / tau);
    raw + turns * tau
}

/// The rotation of body `b`, or the identity for the ground.
pub(crate) fn rot(s: &[BodyState], b: Option<usize>) -> DMat3 {
    match b {
        Some(b) => s[b].r,
        None => DMat3::IDENTITY,
    }
}

/// The joint springs' angles at `s`, each unwrapped against `angles` (in place).
pub fn update_angles(model: &Model, frames: &[Frame], s: &[BodyState], angles: &mut [f64]) {
    for ((f, fr), angle) in model.forces.iter().zip(frames).zip(angles.iter_mut()) {
        if matches!(
            f,
            ForceElement::JointSpring { .. }
                | ForceElement::Limit {
                    kind: LimitKind::Angle,
                    ..
                }
        ) {
            let (x, y) = angle_xy(fr, &rot(s, fr.a), &rot(s, Some(fr.b)));
            *angle = unwrap(x, y, *angle);
        }
    }
}

/// The springs' and stops' potential energy at `s` (J), the joint springs' angles from `angles`
/// (those of the same state, see [`update_angles`]): (all of it, the stops' part).
pub fn potential(model: &Model, frames: &[Frame], s: &[BodyState], angles: &[f64]) -> (f64, f64) {
    let mut v = 0.0;
    let mut stops = 0.0;
    for ((f, fr), angle) in model.forces.iter().zip(frames).zip(angles) {
        match *f {
            ForceElement::Spring {
                a,
                point_a,
                b,
                point_b,
                stiffness,
                rest_length,
                ..
            } => {
                let l = length(point(s, b, point_b) - end(s, a, point_a));
                v += 0.5 * stiffness * (l - rest_length) * (l - rest_length);
            }
            ForceElement::JointSpring {
                stiffness,
                rest_angle,
                ..
            } => v += 0.5 * stiffness * (angle - rest_angle) * (angle - rest_angle),
            ForceElement::SliderSpring {
                stiffness,
                rest_slide,
                ..
            } => {
                let x = slide(fr, s) - rest_slide;
                v += 0.5 * stiffness * x * x;
            }
            ForceElement::Limit {
                kind, lower, upper, ..
            } => {
                let x = match kind {
                    LimitKind::Angle => *angle,
                    LimitKind::Slide => slide(fr, s),
                };
                if let Some(law) = &fr.law {
                    stops += crate::forces::limits::potential(law, x, lower, upper);
                }
            }
            _ => {}
        }
    }
    (v + stops, stops)
}

/// A slider spring's slide at the states `s`, from the start: n . (p_b - p_a) - s0, n = R_a n_a.
pub fn slide(fr: &Frame, s: &[BodyState]) -> f64 {
    let ra = fr.a.map_or(DMat3::IDENTITY, |a| s[a].r);
    (ra * fr.n_a).dot(point(s, fr.b, fr.point_b) - end(s, fr.a, fr.point_a)) - fr.s0
}
