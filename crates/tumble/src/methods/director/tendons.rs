//! A fixed tendon's spring and motor in the director method (`tendons.rs` has the equations).
//!
//! Each coordinate q_i of L = sum c_i q_i has a discrete gradient G_i over the step with
//! Delta q_i = G_i . Delta q exactly: a hinge's angle Gonzalez's 2-D one through its bilinear
//! (x, y), a slide the gradient at the mean (it is quadratic). So Delta L = G . Delta q exactly
//! with G = sum c_i G_i, and the element's generalised force g = f G does f Delta L of work:
//!
//! ```text
//! spring   f = k (Lbar - L_r) + c Delta L / h:  f Delta L = Delta V + c Delta L^2 / h,
//!          D_step = c Delta L^2 / h >= 0
//! motor    f = -F, F the mean of force f(t) over the step:  W_step = F Delta L exactly
//! limit    f from the stops' discrete law on L (`forces/limits.rs`): f Delta L = Delta V + D_step
//! ```
//! The tangents of `condensed.rs` leave the element out (a fixed point within Newton, as the
//! joint springs are); the step is judged on the residual with it, so the balance is exact to
//! the Newton tolerance.
use super::coordinates::{add_angle_grad, add_slide_grad, angle_dg, slide_ends, Step, StepBudget};
use crate::compiled::Compiled;
use crate::forces::ForceElement;
use crate::model::LimitKind;

/// A tendon element's discrete generalised forces over `step` into `g`, its work or
/// dissipation into `out`; the hinges' angles at n from `angles`, those at n+1 into `angles1`
/// (both indexed by `tendons::slot`).
pub(super) fn tendon(
    c: &Compiled,
    k: usize,
    step: &Step,
    (angles, angles1): (&[f64], &mut [f64]),
    g: &mut [[f64; 12]],
    out: &mut StepBudget,
) {
    let Some((_, first, terms)) = crate::forces::tendons::parts(&c.model, k) else {
        return;
    };
    let el = &c.model.forces[k];
    // L at both ends, and each hinge's discrete gradient (at most MAX_TERMS: validated)
    let (mut l0, mut l1) = (0.0, 0.0);
    let mut dg = [(0.0, 0.0); crate::forces::tendons::MAX_TERMS];
    for (i, term) in terms.iter().enumerate() {
        let (q0, q1) = match term.kind {
            LimitKind::Angle => {
                let th0 = angles[first + i];
                let (th1, gx, gy) = angle_dg(&c.force_frames[first + i], step, th0);
                angles1[first + i] = th1;
                dg[i] = (gx, gy);
                (th0, th1)
            }
            LimitKind::Slide => slide_ends(&c.force_frames[first + i], step),
        };
        l0 += term.coef * q0;
        l1 += term.coef * q1;
    }
    let dl = l1 - l0;
    let f = match *el {
        ForceElement::TendonSpring {
            stiffness,
            rest_length,
            damping,
            ..
        } => {
            out.dissipated += damping * dl * dl / step.h;
            stiffness * (0.5 * (l0 + l1) - rest_length) + damping * dl / step.h
        }
        ForceElement::TendonMotor { force, time, .. } => {
            let push = force * step.factor(&time);
            out.work += push * dl;
            -push
        }
        // the stops' discrete law on L: f Delta L = Delta V + D_step (`forces/limits.rs`)
        ForceElement::TendonLimit { lower, upper, .. } => match &c.force_frames[k].law {
            Some(law) => {
                let (f, diss) = crate::forces::limits::discrete(law, l0, l1, lower, upper, step.h);
                out.dissipated += diss;
                f
            }
            None => 0.0,
        },
        _ => 0.0,
    };
    // g = f sum c_i G_i
    for (i, term) in terms.iter().enumerate() {
        let fr = &c.force_frames[first + i];
        let fi = f * term.coef;
        match term.kind {
            LimitKind::Angle => {
                let (gx, gy) = dg[i];
                add_angle_grad(fr, step, fi * gx, fi * gy, g);
            }
            LimitKind::Slide => add_slide_grad(fr, step, fi, g),
        }
    }
}
