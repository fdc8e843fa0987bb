//! The sub-stepping rule of the stops (joint limits, tendon limits, ropes; `limits.rs`): a stop
//! pressed in at a step's start or at the end of a sub-step must ring at most a quarter radian a
//! step, omega h <= 1/4 (omega^2 = k / m), and its damping take at most half the rate, else the
//! step is taken in sub-steps (`simulation/substep.rs`), as for contacts; unless it rests.
//!
//! ```text
//! resting   a pressed stop that the rule above would sub-step is let through whole when it is
//!           still: its depth's rate |d'| <= QUIET omega d (a ringing about the depth at rest
//!           of at most an eighth of that depth), and, for RATTLE and Baumgarte, whose stops
//!           are explicit kicks, omega h <= 1 and h c <= m (stable: Stormer-Verlet's bound is
//!           omega h < 2). At a (sub-)step's end the stop must also have been pressed at its
//!           start (an impact that begins and reaches its deepest point, d' = 0, within one
//!           step is still there), and a stop let through at the start and clear, or not
//!           still, at the end fails the step: the rebound from a deepest point turns through
//!           2 atan(omega h / 2) > 0.24 rad a step, and so leaves the stop or moves at
//!           |d'| >= tan(0.24) omega d > QUIET omega d.
//! ```
//! Why: MuJoCo's stops at rest are stiff (the import's stiffness at rest, `www/mujoco/`), and a
//! limb held on its stop, which rings at nothing, was sub-stepped as an impact is: 1.3 to 1.8
//! times the suite's models' time. The director holds a still stop in whole steps with its
//! balance exact at any omega h (its midpoint is A-stable); an impact is sub-stepped as before.
use super::frame::{point_velocity, rot, slide, Frame};
use super::limits::inertia;
use crate::model::{BodyState, ForceElement, LimitKind, Model};
use alloc::vec::Vec;
use glam::DVec3;

/// How still a pressed stop must be to be let through whole (module notes): |d'| <= QUIET omega d.
pub const QUIET: f64 = 0.125;

/// A stop at a checked state: clear of its range, pressed and resolved by the step, or
/// pressed and let through as resting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    /// not pressed
    #[default]
    Clear,
    /// pressed, omega h <= 1/4 and its damping within bounds
    Pressed,
    /// pressed, let through whole as resting
    Resting,
}

/// Each stop's mark at the state a step or sub-step starts from (`now`), the marks of the state
/// being checked (`next`, made `now` when its check passes: [`Marks::commit`]) and those of the
/// whole step's start (`start`, to go back to when the step is taken again in more sub-steps).
/// Made once, one mark per force element: nothing is allocated in a step.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    now: Vec<Mark>,
    next: Vec<Mark>,
    start: Vec<Mark>,
}

impl Marks {
    /// Marks for `n` force elements, all clear.
    pub fn new(n: usize) -> Marks {
        let v = alloc::vec![Mark::Clear; n];
        Marks {
            now: v.clone(),
            next: v.clone(),
            start: v,
        }
    }

    /// The checked state passed: it is the next (sub-)step's start.
    pub fn commit(&mut self) {
        core::mem::swap(&mut self.now, &mut self.next);
    }

    /// Keep the marks of the step's start.
    pub fn save(&mut self) {
        self.start.copy_from_slice(&self.now);
    }

    /// Back to the step's start (`save`).
    pub fn restore(&mut self) {
        self.now.copy_from_slice(&self.start);
    }
}

/// Whether the stops of `model` (its force `frames`, the joint angles `angles` of the states
/// `s`, as `forces::State::angles`) are resolved by steps of `h`: every stop pressed in rings at
/// most a quarter radian a step and its damping takes at most half the rate, or rests (module
/// notes; `implicit`: the director's discrete form, else an explicit kick). `end`: the state
/// ends a (sub-)step that started at `marks.now` (else it starts one); the state's marks go to
/// `marks.next`.
pub fn resolved(
    model: &Model,
    (frames, s, angles): (&[Frame], &[BodyState], &[f64]),
    (h, implicit, end): (f64, bool, bool),
    marks: &mut Marks,
) -> bool {
    for (k, (f, fr)) in model.forces.iter().zip(frames).enumerate() {
        let Some(law) = &fr.law else { continue };
        let Some((x, m, lower, upper)) = measure(model, f, (frames, s, angles), k) else {
            continue;
        };
        // the depth past the nearer bound, and the sign that turns x's rate into the depth's
        let (d, sign) = if x - upper > lower - x {
            (x - upper, 1.0)
        } else {
            (lower - x, -1.0)
        };
        let before = if end { marks.now[k] } else { Mark::Pressed };
        marks.next[k] = if d <= 0.0 {
            // let through as resting and now clear: the rebound from a deepest point
            if before == Mark::Resting {
                return false;
            }
            Mark::Clear
        } else {
            let (kd, c) = (law.slope(d), law.damping(d));
            if 16.0 * h * h * kd <= m && h * c <= 0.5 * m {
                Mark::Pressed
            } else {
                // resting: still, pressed at the (sub-)step's start too (an impact that began
                // and reached its deepest point within the step is not), and stable
                let ddot = sign * rate(model, f, frames, s, k);
                let still = ddot * ddot * m <= QUIET * QUIET * kd * d * d;
                let held = implicit || (h * h * kd <= m && h * c <= m);
                if !(still && held && before != Mark::Clear) {
                    return false;
                }
                Mark::Resting
            }
        };
    }
    true
}

/// Stop element `k` (`f`)'s coordinate x, the inertia it acts on and its range, at the states
/// `s`; None for other elements.
fn measure(
    model: &Model,
    f: &ForceElement,
    (frames, s, angles): (&[Frame], &[BodyState], &[f64]),
    k: usize,
) -> Option<(f64, f64, f64, f64)> {
    let fr = &frames[k];
    Some(match *f {
        ForceElement::Limit {
            joint,
            kind,
            lower,
            upper,
            ..
        } => {
            let x = match kind {
                LimitKind::Angle => angles[k],
                LimitKind::Slide => slide(fr, s),
            };
            (x, inertia(model, joint, kind), lower, upper)
        }
        ForceElement::TendonLimit {
            tendon,
            lower,
            upper,
            ..
        } => {
            let x = crate::forces::tendons::length(model, frames, s, angles, tendon);
            (x, fr.inertia, lower, upper)
        }
        ForceElement::Rope { length, .. } => (
            super::rope::span(f, s).1,
            fr.inertia,
            f64::NEG_INFINITY,
            length,
        ),
        _ => return None,
    })
}

/// The rate of stop element `k` (`f`)'s coordinate at the states `s` (only where a stop may
/// rest: a tendon's takes each hinge's Jacobian).
fn rate(model: &Model, f: &ForceElement, frames: &[Frame], s: &[BodyState], k: usize) -> f64 {
    let fr = &frames[k];
    match *f {
        ForceElement::Limit {
            kind: LimitKind::Angle,
            ..
        } => {
            let wa = fr.a.map_or(DVec3::ZERO, |a| s[a].r * s[a].w);
            (rot(s, fr.a) * fr.n_a).dot(s[fr.b].r * s[fr.b].w - wa)
        }
        ForceElement::Limit { .. } => super::continuous::slide_and_rate(fr, s).1,
        ForceElement::TendonLimit { .. } => super::tendon::rate(model, frames, s, k),
        ForceElement::Rope {
            a,
            point_a,
            b,
            point_b,
            ..
        } => {
            let (d, l) = super::rope::span(f, s);
            let v = point_velocity(s, Some(b), point_b) - point_velocity(s, a, point_a);
            if l > 0.0 {
                d.dot(v) / l
            } else {
                0.0
            }
        }
        _ => 0.0,
    }
}
