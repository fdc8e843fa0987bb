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
//! armature (w_n + w_n+1) / 2 = Delta L / h,  f = A (w_n+1 - w_n) / h = 2A (Delta L - h w_n) / h^2:
//!          f Delta L = A (w_n+1^2 - w_n^2) / 2 = Delta T_A,  T_A = A w^2 / 2 beside the bodies' T
//! ```
//! An armature (MuJoCo's rotor inertia A on a joint coordinate, here on a tendon's length) keeps
//! its rate w as state (in the elements' `angles`, `forces::State`): the midpoint rule for a
//! coordinate of its own, tied to the bodies through Delta L = G . Delta q, which is what makes its
//! kinetic energy's change the work f Delta L exactly (w_n+1 from dL/dt at q_n+1 would not be);
//! the rotor turns about a relative coordinate, so the momenta stay as they were. Its slope
//! dF/dL_n+1 = 2A / h^2 is in the tangent as a pressed stop's is ([`limit_stiffness`]).
//! The tangents of `condensed.rs` leave the springs and motors out (a fixed point within Newton,
//! as the joint springs below their bound are); a limit pressed in is in them
//! ([`limit_stiffness`]); the step is judged on the residual with every element, so the
//! balance is exact to the Newton tolerance.
use super::coordinates::{
    add_angle_grad, add_slide_grad, angle_dg, dirs, slide_ends, Step, StepBudget,
};
use crate::compiled::Compiled;
use crate::forces::ForceElement;
use crate::model::LimitKind;
use glam::{DMat3, DVec3};

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
        // a rotor inertia A on L: w_n+1 = 2 Delta L / h - w_n (the midpoint rule's), and
        // f = A (w_n+1 - w_n) / h, so f Delta L = A (w_n+1^2 - w_n^2) / 2 exactly (module notes)
        ForceElement::TendonArmature { armature, .. } => {
            let w0 = angles[k];
            angles1[k] = 2.0 * dl / step.h - w0;
            armature * (angles1[k] - w0) / step.h
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

/// Add the tendon limits' and armatures' stiffness at the iterate `q1` (the hinges' angles at
/// n+1 in `angles1`, as [`tendon`] left them) to `stiff`, for Newton's tangent (`condensed.rs`),
/// as `forces::limit_stiffness` does for the joint limits: a stop pressed in has the stiffness
/// kd = k / 2 + c / h of its discrete law on L (an armature 2A / h^2), and each coordinate q_i
/// of L = sum c_i q_i takes c_i^2 kd about its hinge's axis (on both bodies) or along its
/// slide. The terms' couplings c_i c_j kd are left out: exact for a tendon of one coordinate (a universal joint's or
/// gimbal's hinge with a range, the import's form), an approximation for more; the tangent only
/// steers Newton. Without it such a stop was a fixed point within Newton: a humanoid-like
/// figure's hip stops at MuJoCo's static stiffness (`benches/models/figure.xml`, omega h = 2.5)
/// took 1330 iterations a step over its first 3 s (217 with the old, softer stops), where its
/// joint limits, in the tangent, took none more.
pub(super) fn limit_stiffness(
    c: &Compiled,
    (qn, q1): (&[[f64; 12]], &[[f64; 12]]),
    (angles1, h): (&[f64], f64),
    rows: &[usize],
    stiff: &mut [super::stiffness::Stiffness],
) {
    let step = Step { qn, q1, t: 0.0, h };
    for (k, el) in c.model.forces.iter().enumerate() {
        let Some((_, first, terms)) = crate::forces::tendons::parts(&c.model, k) else {
            continue;
        };
        if rows.contains(&k) {
            continue; // a Newton row (`angle_rows.rs`)
        }
        let kd = match (el, &c.force_frames[k].law) {
            (&ForceElement::TendonArmature { armature, .. }, _) => 2.0 * armature / (h * h),
            (&ForceElement::TendonLimit { lower, upper, .. }, Some(law)) => {
                let l1: f64 = terms
                    .iter()
                    .enumerate()
                    .map(|(i, term)| {
                        term.coef
                            * match term.kind {
                                LimitKind::Angle => angles1[first + i],
                                LimitKind::Slide => slide_ends(&c.force_frames[first + i], &step).1,
                            }
                    })
                    .sum();
                super::coordinates::stop_slope(law, l1, lower, upper, h)
            }
            _ => continue,
        };
        if kd <= 0.0 {
            continue;
        }
        for (i, term) in terms.iter().enumerate() {
            let fr = &c.force_frames[first + i];
            let n = axis(c, fr, &step, term.kind, term.joint);
            let nn = DMat3::from_cols(n * n.x, n * n.y, n * n.z) * (kd * term.coef * term.coef);
            for body in [Some(fr.b), fr.a].into_iter().flatten() {
                match term.kind {
                    LimitKind::Angle => stiff[body].r += nn,
                    LimitKind::Slide => stiff[body].x += nn,
                }
            }
        }
    }
}

/// The direction (world, mean over the step) w with d(coordinate) = w . (omega_b - omega_a) for
/// a turn omega of b against a (an angle), or the unit direction of b's slide. A hinge's axis
/// (a's, or b's for a flipped frame); a universal joint keeps its two axes perpendicular, so each
/// is its own. A gimbal's three axes a1 = R_a u1, a2 (the middle, normal to the others) and
/// a3 = R_b u3 are not: omega = a1 theta1' + a2 theta2' + a3 theta3', so theta_i' = v_i . omega
/// with v_i the dual basis (v1 = a2 x a3 / det, v3 = a1 x a2 / det, det = a1 . (a2 x a3);
/// |v1| = |v3| = 1 / cos(theta2)): a stop on a gimbal's outer angle acts 1 / cos^2(theta2) as
/// stiffly on the body as on the angle. The middle angle asin(s a1 . a3) turns about
/// s (a3 x a1) / cos(theta2), a unit vector (`forces/frame.rs`, `middle_frame`).
fn axis(
    c: &Compiled,
    fr: &crate::forces::Frame,
    step: &Step,
    kind: LimitKind,
    joint: usize,
) -> DVec3 {
    let rot = |b: Option<usize>| b.map_or(DMat3::IDENTITY, |b| step.mean_dirs(b));
    if kind == LimitKind::Slide {
        return unit(fr.a.map_or(fr.n_a, |a| dirs(&step.q1[a]) * fr.n_a));
    }
    if let crate::model::JointKind::Gimbal { axis_a, axis_b, .. } = c.model.joints[joint].kind {
        let (a1, a3) = (rot(fr.a) * axis_a, rot(Some(fr.b)) * axis_b);
        let (a1, a3) = (unit(a1), unit(a3));
        let a2 = unit(a3.cross(a1));
        let det = a1.dot(a2.cross(a3));
        // (v1 and v3 do not depend on a2's sign; the middle's, a unit vector, is the one below)
        // near the lock (cos theta2 < 1e-3) the dual basis is not taken: the hinge's own axis
        if !fr.middle && det.abs() > 1e-3 {
            return if fr.flip {
                a1.cross(a2) / det
            } else {
                a2.cross(a3) / det
            };
        }
    }
    unit(match () {
        _ if fr.middle => (rot(Some(fr.b)) * fr.e_b).cross(rot(fr.a) * fr.r_a),
        _ if fr.flip => rot(Some(fr.b)) * fr.n_a,
        _ => rot(fr.a) * fr.n_a,
    })
}

/// `n` over its length (zero stays zero).
fn unit(n: DVec3) -> DVec3 {
    let len = n.length();
    if len > 0.0 {
        n / len
    } else {
        DVec3::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body on a gimbal to the ground (hinges about x, the middle z, y in the body), a tendon
    /// over each hinge, turned R = R_x(0.4) R_z(theta2) R_y(-0.7): the direction `axis` gives
    /// each hinge against the derivative of its angle (`forces::frame::hinge_angle`) for a
    /// turn of the body about each world axis, by central differences; the middle angle at 0.9
    /// rad (1 / cos = 1.6) and near the lock at 1.55 rad (1 / cos = 48).
    #[test]
    fn a_gimbals_axes_are_its_angles_gradients() {
        let text = r#"{"bodies":[{"mass":1,"inertia":[0.2,0.2,0.3]}],
            "joints":[{"type":"gimbal","a":null,"b":0,"axis_a":[1,0,0],"middle":[0,0,1],"axis_b":[0,1,0]}],
            "tendons":[{"terms":[{"joint":0,"coef":1}]},{"terms":[{"joint":0,"hinge":1,"coef":1}]},
                       {"terms":[{"joint":0,"hinge":2,"coef":1}]}]}"#;
        let sc = crate::Scenario::parse(text).unwrap_or_else(|e| panic!("{e}"));
        let c = Compiled::new(&sc.model).unwrap_or_else(|e| panic!("{e}"));
        let q = |r: DMat3| -> [[f64; 12]; 1] {
            let mut q = [0.0; 12];
            q[3..12].copy_from_slice(&r.to_cols_array());
            [q]
        };
        for theta2 in [0.9, 1.55] {
            let r = DMat3::from_rotation_x(0.4)
                * DMat3::from_rotation_z(theta2)
                * DMat3::from_rotation_y(-0.7);
            let qs = q(r);
            let step = Step {
                qn: &qs,
                q1: &qs,
                t: 0.0,
                h: 0.01,
            };
            for i in 0..3 {
                let first = crate::forces::tendons::slot(&c.model, i, 0);
                let fr = &c.force_frames[first];
                let v = axis(&c, fr, &step, LimitKind::Angle, 0);
                let angle =
                    |r: DMat3| crate::forces::frame::hinge_angle(fr, &DMat3::IDENTITY, &r, 0.0);
                for k in 0..3 {
                    let e = DVec3::AXES[k];
                    let eps = 1e-6;
                    let turn = |s: f64| DMat3::from_axis_angle(e, s * eps) * r;
                    let d = (angle(turn(1.0)) - angle(turn(-1.0))) / (2.0 * eps);
                    let scale = 1.0 / libm::cos(theta2);
                    assert!(
                        (d - v.dot(e)).abs() < 1e-6 * scale * scale,
                        "theta2 {theta2}, hinge {i}, world axis {k}: {d} against {}",
                        v.dot(e)
                    );
                }
            }
        }
    }
}
