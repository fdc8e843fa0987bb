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
//! slider motor   F(t) = force f(t) along a joint's slide x (as the slider spring's): F mw on
//!                b's point, -F mw on a at that place; power F xdot
//! limit          a joint's angle or slide held between two stops (`forces/limits.rs`)
//! rope           the distance between two points held at most its length by a stop
//!                (`forces/rope.rs`)
//! tendon         a spring or motor on a fixed tendon's length L = sum c_i q_i (`tendons.rs`,
//!                `forces/tendon.rs`): generalised force c_i F on each coordinate
//! budget         E = T + V (V: gravity and springs), W = work of loads and motors,
//!                D = energy dissipated by dampers; E(t) - E(0) - W(t) + D(t) = 0
//! ```
//!
//! This module holds the elements' state through a run and the potential of the springs;
//! `frame.rs` what the elements need of a joint, compiled once, and the kinematics their forms
//! share; `validate.rs` their checks; `continuous.rs` the continuous forms above for the
//! rotation-matrix methods (RATTLE, Baumgarte: forces and torques at a state, the powers whose
//! time integral they report as W and D); `limits.rs` the joint limits. The director method's
//! discrete forms, which keep the balance to the Newton tolerance, are in
//! `methods/director/forces.rs`.
mod continuous;
pub mod frame;
pub mod limits;
pub mod resolve;
pub mod rope;
mod tendon;
pub mod tendons;
mod validate;

use crate::math::length;
pub use crate::model::ForceElement;
use crate::model::{BodyState, LimitKind, Model};
use alloc::vec;
use alloc::vec::Vec;
pub use continuous::{stop_on_b, Power, Stop};
pub use frame::{angle_xy, end, point, point_velocity, rot, slide, unwrap, Frame};
pub use validate::{validate, MAX_COEFFICIENT};

/// The frames of `model`'s elements, with the angles of joint springs measured from `init`
/// (from the identity orientation when `init` is `None`), then those of the tendons' terms
/// (`tendons::slot`).
pub fn frames(model: &Model, init: Option<&[BodyState]>) -> Vec<Frame> {
    let mut out: Vec<Frame> = model
        .forces
        .iter()
        .map(|f| {
            let mut frame = frame::frame(model, f, init);
            if let ForceElement::Limit {
                joint,
                kind,
                stiffness,
                restitution,
                ..
            } = *f
            {
                frame.law = Some(limits::law(model, joint, kind, stiffness, restitution));
            }
            if let ForceElement::Rope { a, b, .. } = *f {
                frame.inertia = rope::inertia(model, a, b);
                frame.law = rope::law(model, f);
            }
            frame
        })
        .collect();
    out.extend(crate::forces::tendons::term_frames(model, init));
    // a tendon limit's stops, on the tendon's inertia (its terms' frames are made above)
    for k in 0..model.forces.len() {
        if let ForceElement::TendonLimit {
            tendon,
            stiffness,
            restitution,
            ..
        } = model.forces[k]
        {
            let m = crate::forces::tendons::inertia(model, tendon, &out, init);
            out[k].inertia = m;
            out[k].law = Some(limits::law_on(m, stiffness, restitution));
        }
    }
    out
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
    /// per element: the unwrapped angle of a joint spring (rad), the rate dL/dt of a tendon
    /// armature's length (the director's w_n, [`armature_rates`]), zero for other elements; then
    /// per tendon term (`tendons::slot`): a hinge's unwrapped angle
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
            angles: vec![0.0; angle_slots(model)],
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

/// Add the elements' forces and torques (world) at the states `s`, time `t` to `force` and
/// `torque` (one per body), for RATTLE and Baumgarte: the continuous forms (`continuous.rs`),
/// then the tendons' (`tendon.rs`); `angles` are the joint springs' and the tendons' hinges'
/// angles at `s`. Returns the powers.
pub fn add_world(
    model: &Model,
    frames: &[Frame],
    s: &[BodyState],
    angles: &[f64],
    t: f64,
    force: &mut [glam::DVec3],
    torque: &mut [glam::DVec3],
) -> Power {
    let mut p = continuous::add_world(model, frames, s, angles, t, force, torque);
    if !model.tendons.is_empty() {
        for k in 0..model.forces.len() {
            tendon::tendon_world(model, frames, (s, angles, t), k, (force, torque), &mut p);
        }
    }
    p
}

/// The tendon armatures' rates dL/dt at the states `s` into their slots of `angles` (a run's
/// start: the director carries them from there, `methods/director/tendons.rs`).
pub fn armature_rates(model: &Model, frames: &[Frame], s: &[BodyState], angles: &mut [f64]) {
    for (k, f) in model.forces.iter().enumerate() {
        if matches!(f, ForceElement::TendonArmature { .. }) {
            angles[k] = tendon::rate(model, frames, s, k);
        }
    }
}

/// The tendon armatures' kinetic energy A w^2 / 2 (J), their rates w from `angles`
/// ([`State::angles`]).
pub fn armature_energy(model: &Model, angles: &[f64]) -> f64 {
    let mut t = 0.0;
    for (f, w) in model.forces.iter().zip(angles) {
        if let ForceElement::TendonArmature { armature, .. } = *f {
            t += 0.5 * armature * w * w;
        }
    }
    t
}

/// The tendon armatures' kinetic energy A (dL/dt)^2 / 2 (J) with dL/dt at the states `s` (for
/// states another engine made: MuJoCo's, `tumble-wasm`'s evaluator).
pub fn armature_energy_at(model: &Model, frames: &[Frame], s: &[BodyState]) -> f64 {
    let mut t = 0.0;
    for (k, f) in model.forces.iter().enumerate() {
        if let ForceElement::TendonArmature { armature, .. } = *f {
            let w = tendon::rate(model, frames, s, k);
            t += 0.5 * armature * w * w;
        }
    }
    t
}

/// How many angles the force state holds: one per element, one per tendon term.
pub fn angle_slots(model: &Model) -> usize {
    model.forces.len() + crate::forces::tendons::term_count(model)
}

/// The joint springs' and the tendons' hinges' angles at `s`, each unwrapped against `angles`
/// (in place).
pub fn update_angles(model: &Model, frames: &[Frame], s: &[BodyState], angles: &mut [f64]) {
    let nf = model.forces.len();
    let terms = model.tendons.iter().flat_map(|t| t.terms.iter());
    for (j, term) in terms.enumerate() {
        if term.kind == LimitKind::Angle {
            let fr = &frames[nf + j];
            angles[nf + j] =
                frame::hinge_angle(fr, &rot(s, fr.a), &rot(s, Some(fr.b)), angles[nf + j]);
        }
    }
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
            ForceElement::TendonSpring {
                tendon,
                stiffness,
                rest_length,
                ..
            } => {
                let x =
                    crate::forces::tendons::length(model, frames, s, angles, tendon) - rest_length;
                v += 0.5 * stiffness * x * x;
            }
            ForceElement::TendonLimit {
                tendon,
                lower,
                upper,
                ..
            } => {
                if let Some(law) = &fr.law {
                    let x = crate::forces::tendons::length(model, frames, s, angles, tendon);
                    stops += limits::potential(law, x, lower, upper);
                }
            }
            ForceElement::Limit {
                kind, lower, upper, ..
            } => {
                let x = match kind {
                    LimitKind::Angle => *angle,
                    LimitKind::Slide => slide(fr, s),
                };
                if let Some(law) = &fr.law {
                    stops += limits::potential(law, x, lower, upper);
                }
            }
            ForceElement::Rope { .. } => {
                if let Some(law) = &fr.law {
                    stops += rope::potential(f, law, s);
                }
            }
            _ => {}
        }
    }
    (v + stops, stops)
}
