//! The force elements in the director method: discrete forms that keep the energy balance
//! E_n+1 - E_n = W_step - D_step to the Newton tolerance, at any step size.
//!
//! Why they are exact. The step's kinetic and gravity terms are exact discrete gradients and
//! the joint forces do no work (Phi(q_n+1) = Phi(q_n)), so E_n+1 - E_n = -sum_b g_b . Delta q_b
//! for the generalised forces -g_b that the elements add to (27) (g in the gradient convention
//! of dV*/dq; the projection P of (27) changes nothing here, since C(qbar) Delta q = 0 for the
//! Cayley increments). Each element's g is chosen so that g . Delta q is exactly what it must be:
//!
//! ```text
//! spring-damper  d = p_b - p_a, p = q0 + sum_i s_i q_i (linear in q), l = |d|
//!                Delta l = (dbar / lbar) . Delta d exactly (Delta l^2 = 2 dbar . Delta d
//!                = 2 lbar Delta l), so with F = k (lbar - L) + c Delta l / h
//!                (k (lbar - L) = Delta V / Delta l for V = k (l - L)^2 / 2, Gonzalez 1996)
//!                g = F dbar / lbar on p_b (-F on p_a):  g . Delta q = Delta V + c Delta l^2 / h
//!                D_step = c Delta l^2 / h >= 0 for any h
//! joint spring   x = (Q_a r_a) . (Q_b e), y = (Q_a m_a) . (Q_b e) are bilinear in the directors
//!                of a and b, so Delta x = grad x(qbar) . Delta q exactly (eq. 41-42's rule);
//!                theta = atan2(y, x) is not, and takes the 2-D discrete gradient of Gonzalez
//!                gbar = grad theta(zbar) + (Delta theta - grad theta(zbar) . Delta z) Delta z / |Delta z|^2
//!                in z = (x, y): Delta theta = gbar . Delta z exactly. With
//!                F = k (thetabar - theta_r) + c Delta theta / h, g = F (gbar_x grad x + gbar_y grad y):
//!                g . Delta q = Delta V + c Delta theta^2 / h
//! slider spring  x = (Q_a n) . (p_b - p_a) - s0, quadratic: Delta x = grad x(qbar) . Delta q
//!                exactly, so with F = k (xbar - x_r) + c Delta x / h, g = F grad x(qbar):
//!                g . Delta q = Delta V + c Delta x^2 / h
//! limit          the angle's or slide's generalised force f from the stops' discrete law
//!                (`forces/limits.rs`): f Delta x = Delta V + D_step, with the same gradients as above
//! rope           the spring-damper's form with F from the stop's discrete law on l
//!                (`forces/rope.rs`): F Delta l = Delta V + D_step
//! force          f = force (f(t_n) + f(t_n+1)) / 2 at the point p: g = -f on q0 and -s_i f on
//!                q_i; W_step = f . Delta p (exactly -g . Delta q)
//! torque         tau (mean of f as above): g_i = qbar_i x tau'' on the directors with
//!                tau'' = (tr(M) I - M)^-1 tau, M = Qbar Qbar^T, so that the torque of the forces
//!                -g_i is sum_i qbar_i x (-g_i) = (tr(M) I - M) tau'' = tau exactly (a free body's
//!                angular momentum then grows by exactly h tau a step); W_step = -g . Delta q
//! motor          the torque tau nbar on b and -tau nbar on a, nbar = Qbar_a n_a (the fixed
//!                axis for the ground); W_step = -g . Delta q. The angular impulse is h tau
//!                exactly (a rotor's omega is the sum of its impulses); W_step is then
//!                tau Delta theta only to O(h^3) (2 tau tan(Delta theta / 2) on a fixed
//!                axis), where the angle's discrete gradient (as the joint spring's) would
//!                make W_step = tau Delta theta exact and the impulse
//!                h tau (Delta theta / 2) / tan(Delta theta / 2) instead: one of the two is
//!                exact, and the impulse was chosen (tried: a hip's W off tau theta by 4e-5
//!                at h = 2.5 ms; the other way, the rotor test (tests/tests/controls.rs) off by
//!                6e-7 in omega or W against T)
//! slider motor   the force F (mean of f as above) along a slide x (as the slider spring's):
//!                g = -F grad x(qbar), W_step = F Delta x = -g . Delta q exactly
//! tendon         L = sum c_i q_i of the hinges' angles and slides above: Delta L =
//!                (sum c_i G_i) . Delta q exactly with each coordinate's discrete gradient G_i,
//!                so a spring's or motor's force F along L acts as F sum c_i G_i
//!                (`tendons.rs`)
//! ```
//! Every g is a combination of gradients of rotation- and translation-invariant functions (the
//! spring, the joint spring) or an external load, so the elements between bodies keep the
//! momentum components the joints keep. With springs only, energy is conserved to the
//! tolerance; with dampers only, E never increases.
//!
//! The Newton tangents of `condensed.rs` and `full.rs` leave the elements' stiffness out: the
//! elements' forces are evaluated at each iterate (a fixed-point iteration within Newton), and
//! the step is judged on the residual of (23)-(28) with them, so a converged step is exact to
//! the tolerance. Its contraction is about h^2 k / M per iteration for a spring of stiffness k on
//! a body of mass M (h c / M for a damper): fast for the elements of the presets. A stiff
//! spring-damper is instead a row of the condensed Newton solve, its force the unknown
//! (`springs.rs`); `full.rs`, the fallback, keeps the fixed point.
pub use super::coordinates::StepBudget;
use super::coordinates::{
    add_angle_grad, add_dirs, add_slide_grad, angle_dg, dirs, end, point, slide_ends, Step,
};
use super::stiffness::add_point;
use crate::compiled::Compiled;
use crate::forces::ForceElement;
use crate::model::LimitKind;
use glam::{DMat3, DVec3};

/// g . Delta q over one body.
fn dot(g: &[f64; 12], q0: &[f64; 12], q1: &[f64; 12]) -> f64 {
    (0..12).map(|i| g[i] * (q1[i] - q0[i])).sum()
}

/// The directors' gradient of a torque `tau` on a body with mean directors `qbar`: the
/// columns qbar_i x tau'' with (tr(M) I - M) tau'' = tau, M = Qbar Qbar^T (module notes).
fn torque_grad(qbar: &DMat3, tau: DVec3) -> DMat3 {
    let m = *qbar * qbar.transpose();
    let tr = m.x_axis.x + m.y_axis.y + m.z_axis.z;
    let a = DMat3::from_diagonal(DVec3::splat(tr)) - m;
    let t2 = a.inverse() * tau;
    DMat3::from_cols(
        qbar.x_axis.cross(t2),
        qbar.y_axis.cross(t2),
        qbar.z_axis.cross(t2),
    )
}

/// Add the joint limits' stiffness at the iterate `q1` (angles `angles1` at n+1) to `stiff`,
/// for Newton's tangent (`condensed.rs`): a stop pressed in has the stiffness k / 2 + c / h of
/// its discrete law about the joint's axis (an angle) or along it (a slide), on both bodies.
/// Without it Newton takes a stop as a fixed point, whose residual creeps to the tolerance
/// (a pendulum bouncing between stops drifted 1.2e-10 of its energy in 5 s).
pub fn limit_stiffness(
    c: &Compiled,
    (qn, q1): (&[[f64; 12]], &[[f64; 12]]),
    (angles1, h): (&[f64], f64),
    rows: &[usize],
    stiff: &mut [super::stiffness::Stiffness],
) {
    let mean_dirs = |b: usize| (dirs(&qn[b]) + dirs(&q1[b])) * 0.5;
    for (k, el) in c.model.forces.iter().enumerate() {
        if rows.contains(&k) {
            continue; // a Newton row (`angle_rows.rs`)
        }
        let fr = &c.force_frames[k];
        let Some(law) = &fr.law else { continue };
        if let ForceElement::Rope { .. } = el {
            rope_stiffness(el, law, q1, h, stiff);
            continue;
        }
        let ForceElement::Limit {
            kind, lower, upper, ..
        } = *el
        else {
            continue;
        };
        let x = match kind {
            LimitKind::Angle => angles1[k],
            LimitKind::Slide => {
                let mw = fr.a.map_or(fr.n_a, |a| dirs(&q1[a]) * fr.n_a);
                mw.dot(point(&q1[fr.b], fr.point_b) - end(q1, fr.a, fr.point_a)) - fr.s0
            }
        };
        let kd = super::coordinates::stop_slope(law, x, lower, upper, h);
        if kd <= 0.0 {
            continue;
        }
        let n = fr.a.map_or(fr.n_a, |a| mean_dirs(a) * fr.n_a);
        let nn = DMat3::from_cols(n * n.x, n * n.y, n * n.z) * kd;
        for body in [Some(fr.b), fr.a].into_iter().flatten() {
            match kind {
                LimitKind::Angle => stiff[body].r += nn,
                LimitKind::Slide => stiff[body].x += nn,
            }
        }
    }
}

/// Add the stiff joint and slider springs' stiffness k / 2 + c / h (their discrete law's, with
/// respect to the angle or slide at n+1) about the joint's axis or along its slide to `stiff`,
/// on both bodies, for Newton's tangent (`condensed.rs`), as [`limit_stiffness`] does for
/// stops. Only where it is stiff for the step, h^2 (k / 2 + c / h) / I > 1 with I the
/// smallest principal inertia (a slide: the mass) of the lighter body, where the elements'
/// fixed point stops contracting: a finger's damper on a hinge of 1e-6 kg m^2 (MuJoCo's
/// manipulator: c = 0.5 N m s, h c / I = 500) made it diverge (Newton's residual 9e4 after 30
/// iterations), where the presets' springs (below the bound) keep their Newton path and bits. A gimbal's middle
/// hinge, whose angle is an arcsine, is left to the fixed point. (A joint spring below the bound
/// whose fixed point diverges, and one on the blocks whose block-Jacobi rate is high, is a Newton
/// row instead, in `rows`: `angle_rows.rs`.)
pub fn spring_stiffness(
    c: &Compiled,
    (qn, q1): (&[[f64; 12]], &[[f64; 12]]),
    h: f64,
    rows: &[usize],
    stiff: &mut [super::stiffness::Stiffness],
) {
    let mean_dirs = |b: usize| (dirs(&qn[b]) + dirs(&q1[b])) * 0.5;
    let bodies = &c.model.bodies;
    for (k, el) in c.model.forces.iter().enumerate() {
        let (kd, angle) = match *el {
            ForceElement::JointSpring {
                stiffness, damping, ..
            } => (0.5 * stiffness + damping / h, true),
            ForceElement::SliderSpring {
                stiffness, damping, ..
            } => (0.5 * stiffness + damping / h, false),
            _ => continue,
        };
        let fr = &c.force_frames[k];
        if fr.middle || kd == 0.0 || rows.contains(&k) {
            continue;
        }
        let least = |b: usize| {
            if angle {
                bodies[b].inertia.min_element()
            } else {
                bodies[b].mass
            }
        };
        let light = fr.a.map_or(least(fr.b), |a| least(a).min(least(fr.b)));
        if h * h * kd <= light {
            continue;
        }
        let n = super::coordinates::frame_axis(fr, mean_dirs);
        let nn = DMat3::from_cols(n * n.x, n * n.y, n * n.z) * kd;
        for body in [Some(fr.b), fr.a].into_iter().flatten() {
            if angle {
                stiff[body].r += nn;
            } else {
                stiff[body].x += nn;
            }
        }
    }
}

/// A taut rope's stiffness k / 2 + c / h along its line at the iterate `q1`, on both bodies'
/// positions (its lever arms left out: the tangent only steers Newton, `limit_stiffness`).
fn rope_stiffness(
    el: &ForceElement,
    law: &crate::contact::Law,
    q1: &[[f64; 12]],
    h: f64,
    stiff: &mut [super::stiffness::Stiffness],
) {
    let &ForceElement::Rope {
        a,
        point_a,
        b,
        point_b,
        length,
        ..
    } = el
    else {
        return;
    };
    let dv = point(&q1[b], point_b) - end(q1, a, point_a);
    let l = crate::math::length(dv);
    if l <= length {
        return;
    }
    let d = l - length;
    let n = dv / l;
    let kd = 0.5 * law.stiffness(d) + law.c * law.damping_factor(d) / h;
    let nn = DMat3::from_cols(n * n.x, n * n.y, n * n.z) * kd;
    for body in [Some(b), a].into_iter().flatten() {
        stiff[body].x += nn;
    }
}

/// A joint spring's or angle limit's generalised force along theta over the step (theta0 ->
/// theta1): the step's dV/dtheta plus damping, and what it dissipates.
fn angle_force(
    el: &ForceElement,
    fr: &crate::forces::Frame,
    th0: f64,
    th1: f64,
    h: f64,
) -> (f64, f64) {
    let dth = th1 - th0;
    match *el {
        ForceElement::JointSpring {
            stiffness,
            rest_angle,
            damping,
            ..
        } => (
            stiffness * (0.5 * (th0 + th1) - rest_angle) + damping * dth / h,
            damping * dth * dth / h,
        ),
        ForceElement::Limit { lower, upper, .. } => match &fr.law {
            Some(law) => crate::forces::limits::discrete(law, th0, th1, lower, upper, h),
            None => (0.0, 0.0),
        },
        _ => (0.0, 0.0),
    }
}

/// A slider spring's or slide limit's generalised force along the slide (x0 -> x1), as
/// [`angle_force`].
fn slide_force(
    el: &ForceElement,
    fr: &crate::forces::Frame,
    x0: f64,
    x1: f64,
    h: f64,
) -> (f64, f64) {
    let dx = x1 - x0;
    match *el {
        ForceElement::SliderSpring {
            stiffness,
            rest_slide,
            damping,
            ..
        } => (
            stiffness * (0.5 * (x0 + x1) - rest_slide) + damping * dx / h,
            damping * dx * dx / h,
        ),
        ForceElement::Limit { lower, upper, .. } => match &fr.law {
            Some(law) => crate::forces::limits::discrete(law, x0, x1, lower, upper, h),
            None => (0.0, 0.0),
        },
        _ => (0.0, 0.0),
    }
}

/// The elements' generalised forces g (gradient convention, added to dV*/dq) of the step from
/// `qn` (time `t`) to the iterate `q1` (time t + h), into `g` (cleared first, one per body);
/// `angles` are the joint springs' angles at n, `angles1` receives those at n+1. Returns the
/// step's work and dissipation, exact for these g (module notes).
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    c: &Compiled,
    qn: &[[f64; 12]],
    q1: &[[f64; 12]],
    angles: &[f64],
    angles1: &mut [f64],
    t: f64,
    h: f64,
    g: &mut [[f64; 12]],
) -> StepBudget {
    let model = &c.model;
    for x in g.iter_mut() {
        *x = [0.0; 12];
    }
    let mut out = StepBudget::default();
    let step = Step { qn, q1, t, h };
    for (k, el) in model.forces.iter().enumerate() {
        let fr = &c.force_frames[k];
        match *el {
            ForceElement::Spring { .. } => spring(el, &step, g, &mut out),
            ForceElement::Rope { .. } => rope(el, fr, &step, g, &mut out),
            ForceElement::JointSpring { .. }
            | ForceElement::Limit {
                kind: LimitKind::Angle,
                ..
            } => angle(el, fr, &step, (angles[k], &mut angles1[k]), g, &mut out),
            ForceElement::SliderSpring { .. }
            | ForceElement::SliderMotor { .. }
            | ForceElement::Limit {
                kind: LimitKind::Slide,
                ..
            } => slide(el, fr, &step, g, &mut out),
            ForceElement::TendonSpring { .. }
            | ForceElement::TendonMotor { .. }
            | ForceElement::TendonLimit { .. }
            | ForceElement::TendonArmature { .. } => {
                super::tendons::tendon(c, k, &step, (angles, &mut *angles1), g, &mut out)
            }
            _ => load(el, fr, &step, g, &mut out),
        }
    }
    out
}

/// A spring-damper's discrete gradient (module notes).
fn spring(el: &ForceElement, step: &Step, g: &mut [[f64; 12]], out: &mut StepBudget) {
    let ForceElement::Spring {
        a,
        point_a,
        b,
        point_b,
        stiffness,
        rest_length,
        damping,
    } = *el
    else {
        return;
    };
    let h = step.h;
    let ends = (a, point_a, b, point_b);
    let (dsum, l0, l1) = span(step, ends);
    let lbar = 0.5 * (l0 + l1);
    let dl = l1 - l0;
    out.dissipated += damping * dl * dl / h;
    if lbar == 0.0 {
        return; // both ends at zero length: no direction, and Delta l = 0
    }
    let f = stiffness * (lbar - rest_length) + damping * dl / h;
    pull(g, ends, dsum * (0.5 * f / lbar));
}

/// The ends of a line between two body points (a spring's, a rope's), `(a, point_a, b,
/// point_b)`.
type Ends = (Option<usize>, DVec3, usize, DVec3);

/// A line's d0 + d1 (d = p_b - p_a at n and at the iterate) and its lengths l0, l1.
fn span(step: &Step, (a, point_a, b, point_b): Ends) -> (DVec3, f64, f64) {
    let (qn, q1) = (step.qn, step.q1);
    let d0 = point(&qn[b], point_b) - end(qn, a, point_a);
    let d1 = point(&q1[b], point_b) - end(q1, a, point_a);
    (d0 + d1, crate::math::length(d0), crate::math::length(d1))
}

/// The generalised force `n` on b's point and -n on a's, into `g`.
fn pull(g: &mut [[f64; 12]], (a, point_a, b, point_b): Ends, n: DVec3) {
    add_point(&mut g[b], point_b, n);
    if let Some(a) = a {
        add_point(&mut g[a], point_a, -n);
    }
}

/// A rope's discrete gradient (`forces/rope.rs`): the spring-damper's direction dbar / lbar,
/// with F from the stop law's discrete form over the step, F Delta l = Delta V + D_step.
fn rope(
    el: &ForceElement,
    fr: &crate::forces::Frame,
    step: &Step,
    g: &mut [[f64; 12]],
    out: &mut StepBudget,
) {
    let (
        &ForceElement::Rope {
            a,
            point_a,
            b,
            point_b,
            length,
            ..
        },
        Some(law),
    ) = (el, &fr.law)
    else {
        return;
    };
    let ends = (a, point_a, b, point_b);
    let (dsum, l0, l1) = span(step, ends);
    let (f, fe) = law.discrete(l0 - length, l1 - length, step.h);
    if f == 0.0 && fe == 0.0 {
        return; // slack at both ends
    }
    out.dissipated += (f - fe) * (l1 - l0);
    pull(g, ends, dsum * (0.5 * f / (0.5 * (l0 + l1))));
}

/// A joint spring's or angle limit's discrete gradient (module notes): the angle th0 at n,
/// the one at n+1 into `angle1`.
fn angle(
    el: &ForceElement,
    fr: &crate::forces::Frame,
    step: &Step,
    (th0, angle1): (f64, &mut f64),
    g: &mut [[f64; 12]],
    out: &mut StepBudget,
) {
    let (th1, gx, gy) = angle_dg(fr, step, th0);
    *angle1 = th1;
    // f: the step's dV/dtheta plus damping, and what it dissipates
    let (f, diss) = angle_force(el, fr, th0, th1, step.h);
    out.dissipated += diss;
    add_angle_grad(fr, step, f * gx, f * gy, g);
}

/// A slider spring's or slide limit's discrete gradient (module notes).
fn slide(
    el: &ForceElement,
    fr: &crate::forces::Frame,
    step: &Step,
    g: &mut [[f64; 12]],
    out: &mut StepBudget,
) {
    let (x0, x1) = slide_ends(fr, step);
    let (f, diss) = match *el {
        // a slider motor: the force F (the mean of f(t) over the step) along the slide,
        // g = -F grad x(qbar), W_step = F Delta x exactly
        ForceElement::SliderMotor { force, time, .. } => {
            let push = force * step.factor(&time);
            out.work += push * (x1 - x0);
            (-push, 0.0)
        }
        _ => slide_force(el, fr, x0, x1, step.h),
    };
    out.dissipated += diss;
    add_slide_grad(fr, step, f, g);
}

/// A force's, a torque's or a motor's generalised forces and work over the step (module notes).
fn load(
    el: &ForceElement,
    fr: &crate::forces::Frame,
    step: &Step,
    g: &mut [[f64; 12]],
    out: &mut StepBudget,
) {
    let (qn, q1) = (step.qn, step.q1);
    let mean_dirs = |b: usize| step.mean_dirs(b);
    let factor = |f: &crate::timefn::TimeFn| step.factor(f);
    match *el {
        ForceElement::Force {
            body,
            point: s,
            force,
            time,
        } => {
            let f = force * factor(&time);
            add_point(&mut g[body], s, -f);
            out.work += f.dot(point(&q1[body], s) - point(&qn[body], s));
        }
        ForceElement::Torque { body, torque, time } => {
            let gr = torque_grad(&mean_dirs(body), torque * factor(&time));
            let mut gb = [0.0; 12];
            add_dirs(&mut gb, &gr);
            out.work -= dot(&gb, &qn[body], &q1[body]);
            add_dirs(&mut g[body], &gr);
        }
        ForceElement::Motor { torque, time, .. } => {
            let n = fr.a.map_or(fr.n_a, |a| mean_dirs(a) * fr.n_a);
            let tau = n * (torque * factor(&time));
            for (body, sign) in [(Some(fr.b), 1.0), (fr.a, -1.0)] {
                if let Some(body) = body {
                    let gr = torque_grad(&mean_dirs(body), tau * sign);
                    let mut gb = [0.0; 12];
                    add_dirs(&mut gb, &gr);
                    out.work -= dot(&gb, &qn[body], &q1[body]);
                    add_dirs(&mut g[body], &gr);
                }
            }
        }
        _ => {}
    }
}
