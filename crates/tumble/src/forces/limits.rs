//! Joint limits: a joint's angle or slide x (measured from the start, as the joint springs'
//! and slider springs' of `forces.rs`) held between `lower` and `upper` by two one-sided stops.
//!
//! ```text
//! overshoot   d_up = x - upper,  d_low = lower - x   (> 0 past a stop)
//! each stop   F = max(0, k d + c ddot), V = k d^2 / 2 (contact/law.rs, the linear law), with
//!             c calibrated for the restitution asked and the inertia of body b about the
//!             joint's axis through the joint's point (its mass for a slide): exact for a body
//!             on a fixed axis, an approximation in a chain
//! generalised force along x   f = F_up - F_low   (dV/dx for the elastic parts)
//! director    F from the law's discrete form over the step (x0 -> x1): f Delta x =
//!             Delta V + D_step exactly, so the energy balance holds to the tolerance, as for
//!             the joint springs (x is the same angle or slide, with the same discrete gradient)
//! RATTLE, Baumgarte   the continuous form, dissipation rate (F - F_e) ddot >= 0 per stop
//! ```
//! Steps: a stop pressed in at a step's start or at the end of a sub-step must ring at most a
//! quarter radian a step, omega h <= 1/4 (omega^2 = k / I), and its damping take at most half
//! the rate (`resolve.rs`; else the step is taken in sub-steps, `simulation/substep.rs`), the rule
//! of contacts: a rotor on a stop 1000 times too stiff for h = 0.01 s rebounds at e to 0.4 %
//! (director) in 32 sub-steps (tests/limits.rs). The stop-pendulum's own stop (10 Hz) at its
//! 5 ms step (omega h = 0.31) takes its impacts in two sub-steps.
//! A stop at rest is let through whole (`resolve.rs`).
//!
//! The default stiffness makes the stop ring at 10 Hz on body b (k = I (2 pi 10)^2): stiff
//! enough to stop a pendulum within a few degrees, soft enough for the page's steps (RATTLE's
//! explicit kick needs omega h < 2: h < 0.03 s).
use crate::contact::{Kind, Law};
use crate::model::{LimitKind, Model};

/// The frequency (Hz) at which a stop of the default stiffness rings on body b.
pub const DEFAULT_HZ: f64 = 10.0;

/// The inertia a limit of joint `joint` acts on: body b's moment about the axis through the
/// joint's point (kg m^2) for an angle, its mass (kg) for a slide.
pub fn inertia(model: &Model, joint: usize, kind: LimitKind) -> f64 {
    let j = &model.joints[joint];
    let body = &model.bodies[j.b];
    match kind {
        LimitKind::Slide => body.mass,
        LimitKind::Angle => {
            let n = crate::math::normalize(j.kind.axes().1);
            let r = j.point_b;
            let along = r.dot(n);
            (body.inertia * n * n).element_sum() + body.mass * (r.length_squared() - along * along)
        }
    }
}

/// The stops' law: the linear contact law with stiffness `stiffness` (the default when 0) and
/// restitution `e`, on the inertia of [`inertia`].
pub fn law(model: &Model, joint: usize, kind: LimitKind, stiffness: f64, e: f64) -> Law {
    law_on(inertia(model, joint, kind), stiffness, e)
}

/// The stops' law on the inertia `m` (a tendon limit's, `tendons::inertia`): as [`law`].
pub fn law_on(m: f64, stiffness: f64, e: f64) -> Law {
    let w = 2.0 * core::f64::consts::PI * DEFAULT_HZ;
    let k = if stiffness > 0.0 {
        stiffness
    } else {
        m * w * w
    };
    Law::new(Kind::Linear, k, m, e)
}

/// The stops' potential at x (J).
pub fn potential(law: &Law, x: f64, lower: f64, upper: f64) -> f64 {
    law.potential(x - upper) + law.potential(lower - x)
}

/// The continuous form at x with rate `rate`: (f = dV/dx plus damping, the dissipated power).
pub fn force(law: &Law, x: f64, rate: f64, lower: f64, upper: f64) -> (f64, f64) {
    let (fu, eu) = law.force(x - upper, rate);
    let (fl, el) = law.force(lower - x, -rate);
    (fu - fl, (fu - eu) * rate - (fl - el) * rate)
}

/// The director's discrete form of a step from x0 to x1: (f, D_step), f Delta x = Delta V + D_step.
pub fn discrete(law: &Law, x0: f64, x1: f64, lower: f64, upper: f64, h: f64) -> (f64, f64) {
    let (fu, eu) = law.discrete(x0 - upper, x1 - upper, h);
    let (fl, el) = law.discrete(lower - x0, lower - x1, h);
    let dx = x1 - x0;
    (fu - fl, (fu - eu) * dx - (fl - el) * dx)
}
