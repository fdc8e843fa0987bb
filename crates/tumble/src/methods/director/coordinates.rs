//! The director's joint coordinates over a step, which the force elements (`forces.rs`) and the
//! tendons (`tendons.rs`) share: a hinge's angle and its discrete gradient (Gonzalez's 2-D one
//! for an atan2 angle, the 1-D mean value for a gimbal's middle angle), a slide and its gradient
//! at the mean (exact: it is quadratic), and the step they are taken over.
use super::stiffness::add_point;
use crate::forces::unwrap;
use glam::{DMat3, DVec3};

/// What one step's elements did: the work of the loads, the energy the dampers took out, and
/// the joint springs' angles at n+1 (written into the caller's slice).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepBudget {
    /// W_step (J)
    pub work: f64,
    /// D_step (J), >= 0
    pub dissipated: f64,
}

pub(super) fn pos(q: &[f64; 12]) -> DVec3 {
    DVec3::new(q[0], q[1], q[2])
}

pub(super) fn dirs(q: &[f64; 12]) -> DMat3 {
    DMat3::from_cols_slice(&q[3..12])
}

/// A force frame's hinge axis in the world, with `rot(b)` body b's directors (at a step's start
/// or its mean): axis_a turned by a's (by b's for a flipped frame), as is for the ground.
pub(super) fn frame_axis(fr: &crate::forces::Frame, rot: impl Fn(usize) -> DMat3) -> DVec3 {
    match (fr.flip, fr.a) {
        (true, _) => rot(fr.b) * fr.n_a,
        (false, Some(a)) => rot(a) * fr.n_a,
        (false, None) => fr.n_a,
    }
}

/// The point s of a body at q: q0 + Q s.
pub(super) fn point(q: &[f64; 12], s: DVec3) -> DVec3 {
    pos(q) + dirs(q) * s
}

/// The point of side `a` (a body, or the fixed global point).
pub(super) fn end(qs: &[[f64; 12]], a: Option<usize>, s: DVec3) -> DVec3 {
    match a {
        Some(a) => point(&qs[a], s),
        None => s,
    }
}

/// Add v_i to the directors' block: g_i += v.col(i).
pub(super) fn add_dirs(g: &mut [f64; 12], v: &DMat3) {
    let a = v.to_cols_array();
    for i in 0..9 {
        g[3 + i] += a[i];
    }
}

/// The step the elements take: from `qn` (time `t`) to the iterate `q1` (time t + h).
pub(super) struct Step<'a> {
    pub(super) qn: &'a [[f64; 12]],
    pub(super) q1: &'a [[f64; 12]],
    pub(super) t: f64,
    pub(super) h: f64,
}

impl Step<'_> {
    /// Body `b`'s mean directors over the step.
    pub(super) fn mean_dirs(&self, b: usize) -> DMat3 {
        (dirs(&self.qn[b]) + dirs(&self.q1[b])) * 0.5
    }

    /// A time function's mean over the step's two ends.
    pub(super) fn factor(&self, f: &crate::timefn::TimeFn) -> f64 {
        0.5 * (f.at(self.t) + f.at(self.t + self.h))
    }
}

/// A hinge's angle over the step: the angle at n+1 (unwrapped against th0) and Gonzalez's 2-D
/// discrete gradient (gx, gy) of theta(x, y) (module notes): Delta theta = gx Delta x + gy Delta y
/// exactly ((0, 0) where the mean (x, y) has no direction).
// (`!(r2 > 1e-300)`: a NaN radius leaves the gradient out, as a zero one)
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub(super) fn angle_dg(fr: &crate::forces::Frame, step: &Step, th0: f64) -> (f64, f64, f64) {
    let (qn, q1) = (step.qn, step.q1);
    let qa = |q: &[[f64; 12]]| fr.a.map_or(DMat3::IDENTITY, |a| dirs(&q[a]));
    let xy = |q: &[[f64; 12]]| {
        let (ra, rb) = (qa(q), dirs(&q[fr.b]));
        crate::forces::angle_xy(fr, &ra, &rb)
    };
    let (x0, y0) = xy(qn);
    let (x1, y1) = xy(q1);
    if fr.middle {
        return middle_dg(fr, x0, x1, th0);
    }
    let th1 = unwrap(x1, y1, th0);
    let dth = th1 - th0;
    let (xb, yb) = (0.5 * (x0 + x1), 0.5 * (y0 + y1));
    let r2 = xb * xb + yb * yb;
    if !(r2 > 1e-300) {
        return (th1, 0.0, 0.0);
    }
    let (mut gx, mut gy) = (-yb / r2, xb / r2);
    let (dx, dy) = (x1 - x0, y1 - y0);
    let dz2 = dx * dx + dy * dy;
    // Gonzalez's correction is O(|dz|^2) analytically, but its numerator carries the
    // angles' round-off (about 1e-16 rad), which it divides by |dz|: below a turn of
    // 1e-6 rad a step it is left out (its true size there, 1e-12 of the gradient,
    // is below that noise; a body resting against a joint limit stalled Newton)
    if dz2 > 1e-12 * r2 {
        let corr = (dth - gx * dx - gy * dy) / dz2;
        gx += corr * dx;
        gy += corr * dy;
    }
    (th1, gx, gy)
}

/// A gimbal's middle angle theta = asin(x) - s0 over the step (x bilinear: `forces/frame.rs`):
/// the angle at n+1 and the 1-D mean-value discrete gradient (Delta theta / Delta x, 0), so that
/// Delta theta = gx Delta x exactly; where |Delta x| < 1e-7 the derivative at the mean
/// 1 / sqrt(1 - xbar^2) instead (the quotient's round-off, eps / |Delta x|, would exceed the
/// difference, O(Delta x^2) of it).
fn middle_dg(fr: &crate::forces::Frame, x0: f64, x1: f64, th0: f64) -> (f64, f64, f64) {
    let th1 = libm::asin(x1.clamp(-1.0, 1.0)) - fr.s0;
    let dx = x1 - x0;
    let g = if dx.abs() > 1e-7 {
        (th1 - th0) / dx
    } else {
        let xb = 0.5 * (x0 + x1);
        1.0 / libm::sqrt((1.0 - xb * xb).max(1e-300))
    };
    (th1, g, 0.0)
}

/// Add fx grad x + fy grad y of a hinge's (x, y) at the mean configuration to `g`: on a's
/// directors r_a,i u and m_a,i u (u = Qbar_b e); on b's directors e_i (Qbar_a r_a) and
/// e_i (Qbar_a m_a).
pub(super) fn add_angle_grad(
    fr: &crate::forces::Frame,
    step: &Step,
    fx: f64,
    fy: f64,
    g: &mut [[f64; 12]],
) {
    let qa_bar = fr.a.map_or(DMat3::IDENTITY, |a| step.mean_dirs(a));
    let (on_b, on_a) = angle_grads(fr, &qa_bar, &step.mean_dirs(fr.b), fx, fy);
    add_dirs(&mut g[fr.b], &on_b);
    if let Some(a) = fr.a {
        add_dirs(&mut g[a], &on_a);
    }
}

/// fx grad x + fy grad y of a hinge's (x, y) (bilinear in the two bodies' directors) at the
/// directors `qa` (the ground's: the identity) and `qb`: its blocks on b's and on a's
/// directors (`add_angle_grad`).
pub(super) fn angle_grads(
    fr: &crate::forces::Frame,
    qa: &DMat3,
    qb: &DMat3,
    fx: f64,
    fy: f64,
) -> (DMat3, DMat3) {
    let e = fr.e_b;
    if fr.flip {
        // x = (Q_b r) . (Q_a e), y = -(Q_b m) . (Q_a e): on b's directors s_i (Q_a e), on
        // a's e_i (Q_b s), s = r fx - m fy
        let s = fr.r_a * fx - fr.m_a * fy;
        let u = *qa * e;
        let w = *qb * s;
        return (
            DMat3::from_cols(u * s.x, u * s.y, u * s.z),
            DMat3::from_cols(w * e.x, w * e.y, w * e.z),
        );
    }
    let s = fr.r_a * fx + fr.m_a * fy;
    let w = *qa * s; // world
    let u = *qb * e;
    (
        DMat3::from_cols(w * e.x, w * e.y, w * e.z),
        DMat3::from_cols(u * s.x, u * s.y, u * s.z),
    )
}

/// A slide at the step's two ends: x(q) = (Q_a n) . (x_b + Q_b s_b - x_a - Q_a s_a) - s0.
pub(super) fn slide_ends(fr: &crate::forces::Frame, step: &Step) -> (f64, f64) {
    let slide = |q: &[[f64; 12]]| {
        let mw = fr.a.map_or(fr.n_a, |a| dirs(&q[a]) * fr.n_a);
        mw.dot(point(&q[fr.b], fr.point_b) - end(q, fr.a, fr.point_a)) - fr.s0
    };
    (slide(step.qn), slide(step.q1))
}

/// Add f grad x(qbar) of a slide to `g`: x is quadratic, so its gradient at the mean
/// configuration is exact, Delta x = grad x(qbar) . Delta q.
pub(super) fn add_slide_grad(fr: &crate::forces::Frame, step: &Step, f: f64, g: &mut [[f64; 12]]) {
    let (qn, q1) = (step.qn, step.q1);
    let mean = |b: usize| -> [f64; 12] { core::array::from_fn(|i| 0.5 * (qn[b][i] + q1[b][i])) };
    let qb = mean(fr.b);
    let qa = fr.a.map(mean);
    let mw = qa.map_or(fr.n_a, |q| dirs(&q) * fr.n_a);
    let pa = qa.map_or(fr.point_a, |q| point(&q, fr.point_a));
    let d = point(&qb, fr.point_b) - pa;
    add_point(&mut g[fr.b], fr.point_b, mw * f);
    if let Some(a) = fr.a {
        // on a: -mw on x_a, n_i d - s_a,i mw on q_a,i
        add_point(&mut g[a], fr.point_a, -mw * f);
        let n = fr.n_a * f;
        add_dirs(&mut g[a], &DMat3::from_cols(d * n.x, d * n.y, d * n.z));
    }
}

/// The slope k / 2 + c phi'(d) / h of stops' discrete law at the coordinate `l` (the stiffness
/// Newton's tangent takes for them: here, `tendons.rs` and `angle_rows.rs`), zero where `l` is
/// within [lower, upper].
pub(super) fn stop_slope(law: &crate::contact::Law, l: f64, lower: f64, upper: f64, h: f64) -> f64 {
    let d = (l - upper).max(lower - l);
    if d <= 0.0 {
        return 0.0;
    }
    0.5 * law.stiffness(d) + law.c * law.damping_factor(d) / h
}
