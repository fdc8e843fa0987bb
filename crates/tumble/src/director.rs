//! Energy-momentum director integrator (Nielsen & Krenk 2013, `papers/000_...`).
//!
//! Each body: q = [q0, q1, q2, q3] (centre of mass and the three directors, 12 numbers) and
//! the conjugate momenta p = [p0, p1, p2, p3]. With b(q, p) = G(q) p (eq. 8, the 3 x 9 block),
//! the kinetic energy (13) is T = p0.p0 / 2M + 1/2 b^T J^-1 b, and the body angular momentum is
//! J Omega = -b. The step (n -> n+1, bars are means, Delta increments), eqs. (23)-(28):
//!
//! ```text
//! w     = J^-1 (b(q_n, p_n) + b(q_n+1, p_n+1)) / 2                       mean of G(q) p
//! (23)  Delta q0 = h pbar0 / M            Delta q_r = h G(qbar)^T w    (= h Qbar Omega^)
//! (27)  Delta p0 = -h (dV*/dq0 + dPhi*/dq0^T lambda)
//!       Delta p_r = h G(pbar)^T w - h P (dPhi*/dq_r^T lambda) + h C(qbar)^T gamma_0
//!       P = I - C^T (C C^T)^-1 C,   C = C(qbar)  (eq. 5)
//! (28)  gamma_0 = -(C C^T)^-1 [C(qbar) G(pbar)^T + C(pbar) G(qbar)^T] w
//! (25)  dPhi*/dq Delta q = Phi(q_n+1) - Phi(q_n) = 0
//! ```
//!
//! (The paper writes the rotational terms with the 6 x 12 matrix diag(I, -G/2) and
//! J^-1 = diag(1/M, 4 J^-1); with b = G(q) p the factors cancel to the form above, and
//! G(q) p = -G(p) q turns its -G(pbar)^T J0^-1 mean(G(p) q) into + G(pbar)^T w.)
//! Gravity (39) is linear in q0, so its finite derivative is exact; the spherical joint (34)-(35)
//! has a constant gradient; the revolute joint (37) is bilinear, and its finite derivative is
//! the gradient at the mean configuration (41)-(42). The kinetic energy is bi-quadratic, so the
//! discrete gradients are exact: energy and the momentum components the joints allow are kept to
//! the Newton tolerance. The kinematic equation is a Cayley transform, so e(q) (eq. 3) stays at
//! round-off.
//!
//! Newton-Raphson. [`Director::step_full`] is Table 1 as written: u = (q_n+1, p_n+1) per body
//! and lambda, from u = u_n; each body's 24 x 24 tangent block is exact (forward-mode dual
//! numbers over the rotational residual), eliminated body by body, and the joint-space Schur
//! complement is solved by the linear-time tree solver of `sparse.rs`. [`Director::step`]
//! solves the same equations with Newton on fewer unknowns (3 per body, the mean body angular
//! velocity, and lambda): for given values of those, (23), the translational (27) and the
//! rotational (27)-(28) are linear in q_n+1, p_n+1 and are solved exactly; convergence is
//! judged on the residual of (23)-(28) as written. About 10 times faster; tested to take the
//! same steps. In both, as in (32)-(33), the tangent leaves out one term: for a revolute joint
//! between two bodies the gradient (42) of one body depends on the other body's mean directors
//! (a term of size h lambda); such chains converge fast but linearly. The joint rows
//! dPhi(q_n+1)/dq are exact.
use crate::math::{skew, skew_vec};
use crate::model::{BodyState, JointKind, Model};
use crate::sparse::JointSpace;
use crate::step::{Settings, StepError, StepInfo};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::ops::{Add, Div, Mul, Neg, Sub};
use glam::{DMat3, DVec3};

// ---------------------------------------------------------------------------------------------
// a scalar that is either f64 or a forward-mode dual number

/// Arithmetic shared by f64 and [`Dual`].
pub trait Scalar:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// A constant.
    fn c(x: f64) -> Self;
}

impl Scalar for f64 {
    fn c(x: f64) -> Self {
        x
    }
}

/// Value and one directional derivative.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Dual {
    /// value
    pub v: f64,
    /// derivative
    pub d: f64,
}

impl Add for Dual {
    type Output = Dual;
    fn add(self, o: Dual) -> Dual {
        Dual {
            v: self.v + o.v,
            d: self.d + o.d,
        }
    }
}
impl Sub for Dual {
    type Output = Dual;
    fn sub(self, o: Dual) -> Dual {
        Dual {
            v: self.v - o.v,
            d: self.d - o.d,
        }
    }
}
impl Mul for Dual {
    type Output = Dual;
    fn mul(self, o: Dual) -> Dual {
        Dual {
            v: self.v * o.v,
            d: self.d * o.v + self.v * o.d,
        }
    }
}
impl Div for Dual {
    type Output = Dual;
    fn div(self, o: Dual) -> Dual {
        Dual {
            v: self.v / o.v,
            d: (self.d * o.v - self.v * o.d) / (o.v * o.v),
        }
    }
}
impl Neg for Dual {
    type Output = Dual;
    fn neg(self) -> Dual {
        Dual {
            v: -self.v,
            d: -self.d,
        }
    }
}
impl Scalar for Dual {
    fn c(x: f64) -> Self {
        Dual { v: x, d: 0.0 }
    }
}

// ---------------------------------------------------------------------------------------------
// the director algebra on 9-vectors q_r = [q1, q2, q3] (3 x 3 blocks)

type V9<S> = [S; 9];

fn dot3<S: Scalar>(a: &[S], i: usize, b: &[S], j: usize) -> S {
    a[i] * b[j] + a[i + 1] * b[j + 1] + a[i + 2] * b[j + 2]
}

/// b = G(q) p (eq. 8): rows [0, -q3^T, q2^T], [q3^T, 0, -q1^T], [-q2^T, q1^T, 0].
fn g_mul<S: Scalar>(q: &V9<S>, p: &V9<S>) -> [S; 3] {
    [
        dot3(q, 3, p, 6) - dot3(q, 6, p, 3),
        dot3(q, 6, p, 0) - dot3(q, 0, p, 6),
        dot3(q, 0, p, 3) - dot3(q, 3, p, 0),
    ]
}

/// G(q)^T w.
fn gt_mul<S: Scalar>(q: &V9<S>, w: &[S; 3]) -> V9<S> {
    let mut out = [S::c(0.0); 9];
    for k in 0..3 {
        out[k] = q[6 + k] * w[1] - q[3 + k] * w[2];
        out[3 + k] = q[k] * w[2] - q[6 + k] * w[0];
        out[6 + k] = q[3 + k] * w[0] - q[k] * w[1];
    }
    out
}

/// C(q) p (eq. 5): [q1.p1, q2.p2, q3.p3, q3.p2 + q2.p3, q3.p1 + q1.p3, q2.p1 + q1.p2].
fn c_mul<S: Scalar>(q: &V9<S>, p: &V9<S>) -> [S; 6] {
    [
        dot3(q, 0, p, 0),
        dot3(q, 3, p, 3),
        dot3(q, 6, p, 6),
        dot3(q, 6, p, 3) + dot3(q, 3, p, 6),
        dot3(q, 6, p, 0) + dot3(q, 0, p, 6),
        dot3(q, 3, p, 0) + dot3(q, 0, p, 3),
    ]
}

/// C(q)^T y.
fn ct_mul<S: Scalar>(q: &V9<S>, y: &[S; 6]) -> V9<S> {
    let mut out = [S::c(0.0); 9];
    for k in 0..3 {
        out[k] = y[0] * q[k] + y[4] * q[6 + k] + y[5] * q[3 + k];
        out[3 + k] = y[1] * q[3 + k] + y[3] * q[6 + k] + y[5] * q[k];
        out[6 + k] = y[2] * q[6 + k] + y[3] * q[3 + k] + y[4] * q[k];
    }
    out
}

/// Solve (C C^T) y = r for C = C(q), by Gaussian elimination without pivoting (C C^T is
/// symmetric positive definite while the directors are independent).
fn cct_solve<S: Scalar>(q: &V9<S>, r: [S; 6]) -> [S; 6] {
    // the Gram matrix of the rows of C(q) in terms of d_ab = q_a . q_b
    let d = |a: usize, b: usize| dot3(q, 3 * a, q, 3 * b);
    let (d11, d22, d33, d12, d13, d23) = (d(0, 0), d(1, 1), d(2, 2), d(0, 1), d(0, 2), d(1, 2));
    let z = S::c(0.0);
    let mut m = [
        [d11, z, z, z, d13, d12],
        [z, d22, z, d23, z, d12],
        [z, z, d33, d23, d13, z],
        [z, d23, d23, d33 + d22, d12, d13],
        [d13, z, d13, d12, d33 + d11, d23],
        [d12, d12, z, d13, d23, d22 + d11],
    ];
    // Gaussian elimination without pivoting (SPD)
    let mut y = r;
    for k in 0..6 {
        for i in k + 1..6 {
            let f = m[i][k] / m[k][k];
            for j in k..6 {
                m[i][j] = m[i][j] - f * m[k][j];
            }
            y[i] = y[i] - f * y[k];
        }
    }
    for k in (0..6).rev() {
        let mut s = y[k];
        for j in k + 1..6 {
            s = s - m[k][j] * y[j];
        }
        y[k] = s / m[k][k];
    }
    y
}

/// The rotational residual of one body, (23) and (27)-(28): 9 kinematic then 9 dynamic rows.
/// `f` is the rotational part of dPhi*/dq^T lambda (fixed within the body's block).
#[allow(clippy::too_many_arguments)]
fn rot_residual<S: Scalar>(
    h: f64,
    jinv: [f64; 3],
    qn: &V9<f64>,
    pn: &V9<f64>,
    bn: [f64; 3],
    q1: &V9<S>,
    p1: &V9<S>,
    f: &V9<f64>,
) -> [S; 18] {
    let half = S::c(0.5);
    let hs = S::c(h);
    let mut qb = [S::c(0.0); 9];
    let mut pb = [S::c(0.0); 9];
    for i in 0..9 {
        qb[i] = (S::c(qn[i]) + q1[i]) * half;
        pb[i] = (S::c(pn[i]) + p1[i]) * half;
    }
    let b1 = g_mul(q1, p1);
    let w = [0, 1, 2].map(|k| (S::c(bn[k]) + b1[k]) * half * S::c(jinv[k]));
    let gq = gt_mul(&qb, &w);
    let gp = gt_mul(&pb, &w);
    let fs = f.map(S::c);
    let af = c_mul(&qb, &fs);
    let d1 = c_mul(&qb, &gp);
    let d2 = c_mul(&pb, &gq);
    let rhs = [0, 1, 2, 3, 4, 5].map(|k| af[k] - d1[k] - d2[k]);
    let y = cct_solve(&qb, rhs);
    let cty = ct_mul(&qb, &y);
    let mut r = [S::c(0.0); 18];
    for i in 0..9 {
        r[i] = q1[i] - S::c(qn[i]) - hs * gq[i];
        r[9 + i] = p1[i] - S::c(pn[i]) - hs * gp[i] + hs * fs[i] - hs * cty[i];
    }
    r
}

/// P g = g - C^T (C C^T)^-1 C g at the mean directors `qb`.
fn project(qb: &V9<f64>, g: &V9<f64>) -> V9<f64> {
    let y = cct_solve(qb, c_mul(qb, g));
    let cty = ct_mul(qb, &y);
    let mut out = *g;
    for i in 0..9 {
        out[i] -= cty[i];
    }
    out
}

// ---------------------------------------------------------------------------------------------

const N: usize = 24; // unknowns per body: q (12), p (12)

/// How one joint row acts on one body: the gradient dPhi/dq of that body (12 numbers).
type Grad = [f64; 12];

/// Director integrator: state (q, p per body, lambda) and scratch space allocated once.
pub struct Director {
    q: Vec<[f64; 12]>,
    p: Vec<[f64; 12]>,
    q1: Vec<[f64; 12]>,
    p1: Vec<[f64; 12]>,
    lambda: Vec<f64>,
    lambda1: Vec<f64>,
    jinv: Vec<[f64; 3]>,
    // per body: residual, factored tangent block, pivots
    r: Vec<[f64; N]>,
    k: Vec<[f64; N * N]>,
    piv: Vec<[usize; N]>,
    // per joint row and side (a, b): finite-derivative gradient at the mean (for the forces) and
    // the gradient at q_n+1 (for the Newton rows)
    gmean: Vec<[Grad; 2]>,
    gnew: Vec<[Grad; 2]>,
    // per joint row and side: K^-1 (dr/dlambda) (24 numbers)
    y: Vec<[[f64; N]; 2]>,
    rj: Vec<f64>,
    rows: Vec<(usize, usize, Option<usize>, usize)>, // (joint, row, body a, body b)
    js: JointSpace,
    at_body: Vec<Vec<(usize, bool)>>,
    internal: f64,
    // the condensed Newton solve (`step`): per body the mean body angular velocity Omega (the
    // last step's, the predictor), its iterate, the Cayley factor A = (I - h/2 Omega^)^-1,
    // the residual of (23)'s definition of w, K^-1 and K^-1 times that residual
    om: Vec<DVec3>,
    om1: Vec<DVec3>,
    // the predictor: Omega and lambda of the two steps before the last; how many of the last
    // steps (up to 3) had the step size `last_h`; whether the last step took more than 3
    // Newton iterations or the fallback
    om_prev: [Vec<DVec3>; 2],
    lambda_prev: [Vec<f64>; 2],
    same_h: u32,
    last_h: f64,
    slow: bool,
    amat: Vec<DMat3>,
    pin: Vec<DVec3>,
    resw: Vec<DVec3>,
    kinv: Vec<DMat3>,
    kres: Vec<DVec3>,
    // per joint row and side: K^-1 dRes/dlambda and dPhi/dOmega
    cy: Vec<[DVec3; 2]>,
    dk: Vec<[DVec3; 2]>,
    phi0: Vec<f64>,        // Phi at the initial configuration
    frot: Vec<DMat3>,      // per body: the rotational force F of the current iterate
    axes: Vec<[DVec3; 3]>, // per revolute joint: n_a normalised, e_1, e_2 (eq. 37)
    fallbacks: u64,
}

/// The directors (or their momenta) of a 12-vector as the columns of a matrix; takes the
/// last 9 numbers, so it also reads a gradient's rotational part.
fn mat(v: &[f64; 12]) -> DMat3 {
    DMat3::from_cols_slice(&v[3..12])
}

/// The bodies a joint row acts on, with the side: 0 for body a (none for a ground joint),
/// 1 for body b.
fn sides(a: Option<usize>, b: usize) -> impl Iterator<Item = (usize, usize)> {
    [(0usize, a), (1, Some(b))]
        .into_iter()
        .filter_map(|(side, body)| body.map(|x| (side, x)))
}

/// a b^T
fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

fn rot_block(v: &[f64; 12]) -> V9<f64> {
    let mut out = [0.0; 9];
    out.copy_from_slice(&v[3..12]);
    out
}

impl Director {
    /// Set up from the initial body states: p0 = M v, p_r = -1/2 G(q)^T J Omega, so that
    /// G(q) p_r = -J Omega and C(q) p_r = 0 (eq. 18).
    pub fn new(model: &Model, init: &[BodyState]) -> Result<Self, String> {
        let js = JointSpace::new(model).map_err(|e| e.to_string())?;
        let n = init.len();
        let mut q = vec![[0.0; 12]; n];
        let mut p = vec![[0.0; 12]; n];
        for (i, (s, b)) in init.iter().zip(&model.bodies).enumerate() {
            q[i][0..3].copy_from_slice(&s.x.to_array());
            q[i][3..12].copy_from_slice(&s.r.to_cols_array());
            p[i][0..3].copy_from_slice(&(s.v * b.mass).to_array());
            let jw = b.inertia * s.w;
            let pr = gt_mul(&rot_block(&q[i]), &[jw.x, jw.y, jw.z]);
            for k in 0..9 {
                p[i][3 + k] = -0.5 * pr[k];
            }
        }
        let mut rows = Vec::new();
        for (j, jt) in model.joints.iter().enumerate() {
            for r in 0..jt.kind.rows() {
                rows.push((j, r, jt.a, jt.b));
            }
        }
        let m = js.dim();
        let mut d = Director {
            q1: q.clone(),
            p1: p.clone(),
            q,
            p,
            lambda: vec![0.0; m],
            lambda1: vec![0.0; m],
            jinv: model
                .bodies
                .iter()
                .map(|b| b.inertia.recip().to_array())
                .collect(),
            r: vec![[0.0; N]; n],
            k: vec![[0.0; N * N]; n],
            piv: vec![[0; N]; n],
            gmean: vec![[[0.0; 12]; 2]; m],
            gnew: vec![[[0.0; 12]; 2]; m],
            y: vec![[[0.0; N]; 2]; m],
            rj: vec![0.0; m],
            rows,
            js,
            at_body: crate::joints::incidence(model),
            internal: 0.0,
            om: vec![DVec3::ZERO; n],
            om1: vec![DVec3::ZERO; n],
            om_prev: [vec![DVec3::ZERO; n], vec![DVec3::ZERO; n]],
            lambda_prev: [vec![0.0; m], vec![0.0; m]],
            same_h: 0,
            last_h: f64::NAN,
            slow: false,
            amat: vec![DMat3::IDENTITY; n],
            pin: vec![DVec3::ZERO; n],
            resw: vec![DVec3::ZERO; n],
            kinv: vec![DMat3::IDENTITY; n],
            kres: vec![DVec3::ZERO; n],
            cy: vec![[DVec3::ZERO; 2]; m],
            dk: vec![[DVec3::ZERO; 2]; m],
            phi0: vec![0.0; m],
            frot: vec![DMat3::ZERO; n],
            axes: model
                .joints
                .iter()
                .map(|jt| match jt.kind {
                    JointKind::Revolute { axis_a, axis_b } => {
                        let (e1, e2) = crate::joints::perpendicular_pair(axis_b);
                        [axis_a.normalize(), e1, e2]
                    }
                    JointKind::Spherical => [DVec3::ZERO; 3],
                })
                .collect(),
            fallbacks: 0,
        };
        for (b, s) in init.iter().enumerate() {
            d.om[b] = s.w;
        }
        for (k, &(j, r, _, _)) in d.rows.iter().enumerate() {
            let (phi, ga, gb) = Self::joint_row(model, &d.q, j, r);
            d.phi0[k] = phi;
            d.gnew[k] = [ga, gb];
            d.gmean[k] = [ga, gb];
        }
        d.internal = d.measure_internal();
        Ok(d)
    }

    /// x = q0, R = [q1 q2 q3], v = p0 / M, Omega = -J^-1 G(q) p_r.
    pub fn body_states(&self, model: &Model, out: &mut [BodyState]) {
        for (i, (o, b)) in out.iter_mut().zip(&model.bodies).enumerate() {
            let (q, p) = (&self.q[i], &self.p[i]);
            let bb = g_mul(&rot_block(q), &rot_block(p));
            *o = BodyState {
                x: DVec3::new(q[0], q[1], q[2]),
                r: DMat3::from_cols_slice(&q[3..12]),
                v: DVec3::new(p[0], p[1], p[2]) / b.mass,
                w: -DVec3::from_array(bb) / b.inertia,
            };
        }
    }

    /// max(|e(q)|, |C(q) p|) over the bodies (eqs. 3 and 18).
    pub fn internal_violation(&self) -> f64 {
        self.internal
    }

    fn measure_internal(&self) -> f64 {
        let mut m = 0.0f64;
        for (q, p) in self.q.iter().zip(&self.p) {
            let (qr, pr) = (rot_block(q), rot_block(p));
            let e = c_mul(&qr, &qr); // 2 e(q) + [1, 1, 1, 0, 0, 0]
            let e = [e[0] - 1.0, e[1] - 1.0, e[2] - 1.0, e[3], e[4], e[5]].map(|x| 0.5 * x);
            let cp = c_mul(&qr, &pr);
            for x in e.iter().chain(&cp) {
                m = m.max(x.abs());
            }
        }
        m
    }

    /// Joint `j` row `r` at configuration `q`: (Phi, gradient of side a, gradient of side b).
    fn joint_row(model: &Model, qs: &[[f64; 12]], j: usize, r: usize) -> (f64, Grad, Grad) {
        let jt = &model.joints[j];
        let (mut ga, mut gb) = ([0.0; 12], [0.0; 12]);
        let qb = &qs[jt.b];
        let point = |q: &[f64; 12], s: DVec3| -> DVec3 {
            DVec3::new(q[0], q[1], q[2]) + DMat3::from_cols_slice(&q[3..12]) * s
        };
        if r < 3 {
            // spherical rows (34)-(35): x_b + Q_b s_b - (x_a + Q_a s_a)
            let sb = jt.point_b.to_array();
            gb[r] = 1.0;
            for i in 0..3 {
                gb[3 + 3 * i + r] = sb[i];
            }
            let pa = match jt.a {
                Some(a) => {
                    let sa = jt.point_a.to_array();
                    ga[r] = -1.0;
                    for i in 0..3 {
                        ga[3 + 3 * i + r] = -sa[i];
                    }
                    point(&qs[a], jt.point_a)
                }
                None => jt.point_a,
            };
            return ((point(qb, jt.point_b) - pa)[r], ga, gb);
        }
        let JointKind::Revolute { axis_a, axis_b } = jt.kind else {
            unreachable!("spherical joints have 3 rows")
        };
        // revolute rows (37)-(38): n . (Q_b e_m), n = Q_a n_a (or the fixed global axis)
        let (e1, e2) = crate::joints::perpendicular_pair(axis_b);
        let e = if r == 3 { e1 } else { e2 }.to_array();
        let u = DMat3::from_cols_slice(&qb[3..12]) * DVec3::from_array(e);
        let na = axis_a.normalize();
        let n = match jt.a {
            Some(a) => {
                let nn = na.to_array();
                for i in 0..3 {
                    for k in 0..3 {
                        ga[3 + 3 * i + k] = nn[i] * u[k];
                    }
                }
                DMat3::from_cols_slice(&qs[a][3..12]) * na
            }
            None => na,
        };
        for i in 0..3 {
            for k in 0..3 {
                gb[3 + 3 * i + k] = e[i] * n[k];
            }
        }
        (n.dot(u), ga, gb)
    }

    /// One step of size `settings.dt` by Newton-Raphson on all unknowns, Table 1 as written:
    /// 24 per body and the multipliers, with the dual-number tangent of each body block. The
    /// joint rows are (25) summed over the steps, Phi(q_n+1) = Phi(q_0), as in
    /// [`Director::step`], so that both solve the same equations. The reference that `step` is
    /// tested against, and its fallback; slower by a factor of about 10.
    /// On error nothing changes.
    pub fn step_full(&mut self, model: &Model, settings: &Settings) -> Result<StepInfo, StepError> {
        let h = settings.dt;
        let nb = self.q.len();
        let nrows = self.rows.len();
        // Table 1: predictor u = u_n, lambda from the last step
        self.q1.copy_from_slice(&self.q);
        self.p1.copy_from_slice(&self.p);
        self.lambda1.copy_from_slice(&self.lambda);
        let mut iterations = 0u32;
        let mut residual;
        loop {
            // joint gradients: at the mean (forces, (42)) and at q_n+1 (Newton rows)
            for (k, &(j, r, _, _)) in self.rows.iter().enumerate() {
                let (phi1, ga1, gb1) = Self::joint_row(model, &self.q1, j, r);
                self.gnew[k] = [ga1, gb1];
                self.rj[k] = phi1 - self.phi0[k]; // (25) summed: Phi(q_n+1) - Phi(q_0)
                self.gmean[k] = [ga1, gb1];
            }
            self.mean_gradients(model);
            // body residuals with the current lambda
            residual = self.rj.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            for b in 0..nb {
                let (f0, f) = self.forces(b, model);
                let r = self.body_residual(b, model, h, &f0, &f);
                residual = r.iter().fold(residual, |m, x| m.max(x.abs()));
                self.r[b] = r;
            }
            if crate::step::newton_converged(residual, iterations, settings)? {
                break;
            }
            // tangent blocks, factored
            for b in 0..nb {
                self.tangent(b, model, h);
                if !crate::math::lu_factor(&mut self.k[b], N, &mut self.piv[b]) {
                    return Err(StepError::Singular);
                }
            }
            let mut rhs_b = core::mem::take(&mut self.r);
            for (b, rb) in rhs_b.iter_mut().enumerate() {
                crate::math::lu_back(&self.k[b], N, &self.piv[b], rb); // K^-1 r
            }
            if nrows > 0 {
                // Y = K^-1 dr/dlambda for each row and side; S = E Y; rhs = r_j - E K^-1 r
                self.js.clear();
                for k in 0..nrows {
                    let (_, _, a, bb) = self.rows[k];
                    for (side, body) in sides(a, bb) {
                        let g = self.gmean[k][side];
                        let mut col = [0.0; N];
                        let qb = self.mean_rot(body);
                        let mut gr = [0.0; 9];
                        gr.copy_from_slice(&g[3..12]);
                        let pg = project(&qb, &gr);
                        for i in 0..3 {
                            col[12 + i] = h * g[i];
                        }
                        for i in 0..9 {
                            col[15 + i] = h * pg[i];
                        }
                        crate::math::lu_back(&self.k[body], N, &self.piv[body], &mut col);
                        self.y[k][side] = col;
                    }
                }
                for k in 0..nrows {
                    let (jk, rk, _, _) = self.rows[k];
                    let mut rhs = self.rj[k];
                    let (_, _, a, bb) = self.rows[k];
                    for (side, body) in sides(a, bb) {
                        let e = &self.gnew[k][side];
                        rhs -= (0..12).map(|i| e[i] * rhs_b[body][i]).sum::<f64>();
                        // S_kl += E_k,body Y_l,body for every row l acting on this body
                        for &(jl, _) in &self.at_body[body] {
                            let ol = self.js.offset(jl);
                            for rl in 0..model.joints[jl].kind.rows() {
                                let l = ol + rl;
                                let (_, _, la, lb) = self.rows[l];
                                let lside = if lb == body { 1 } else { 0 };
                                debug_assert!(lside == 1 || la == Some(body));
                                let yv = &self.y[l][lside];
                                let v: f64 = (0..12).map(|i| e[i] * yv[i]).sum();
                                self.js.add(jk, rk, jl, rl, v);
                            }
                        }
                    }
                    self.rj[k] = rhs;
                }
                if !self.js.factor() {
                    self.r = rhs_b;
                    return Err(StepError::Singular);
                }
                self.js.solve(&mut self.rj); // now delta lambda
                for k in 0..nrows {
                    self.lambda1[k] += self.rj[k];
                    let (_, _, a, bb) = self.rows[k];
                    for (side, body) in sides(a, bb) {
                        for i in 0..N {
                            rhs_b[body][i] += self.y[k][side][i] * self.rj[k];
                        }
                    }
                }
            }
            // delta u = -K^-1 (r + B dlambda)
            for b in 0..nb {
                for i in 0..12 {
                    self.q1[b][i] -= rhs_b[b][i];
                    self.p1[b][i] -= rhs_b[b][12 + i];
                }
            }
            self.r = rhs_b;
            iterations += 1;
        }
        if !self.q1.iter().chain(&self.p1).all(|v| {
            v.iter()
                .all(|x| x.is_finite() && x.abs() <= crate::model::MAX_MAGNITUDE)
        }) {
            return Err(StepError::NonFinite);
        }
        self.remember(h, true);
        for b in 0..nb {
            // the step's mean body angular velocity J^-1 (pi_n + pi_n+1) / 2: the predictor of
            // the condensed solve
            let pi0 = -DVec3::from_array(g_mul(&rot_block(&self.q[b]), &rot_block(&self.p[b])));
            let pi1 = -DVec3::from_array(g_mul(&rot_block(&self.q1[b]), &rot_block(&self.p1[b])));
            self.om[b] = (pi0 + pi1) * 0.5 * DVec3::from_array(self.jinv[b]);
        }
        core::mem::swap(&mut self.q, &mut self.q1);
        core::mem::swap(&mut self.p, &mut self.p1);
        core::mem::swap(&mut self.lambda, &mut self.lambda1);
        self.internal = self.measure_internal();
        Ok(StepInfo {
            iterations,
            residual,
        })
    }

    /// One step of size `settings.dt`; on error nothing changes.
    ///
    /// Newton-Raphson on the condensed unknowns: per body the mean body angular velocity
    /// Omega (= -w of (23)), and the multipliers. For given Omega and lambda the rest of the
    /// step is linear and solved exactly: the kinematic equation (23) is the Cayley transform
    /// Q_n+1 = Q_n (I + h/2 Omega^)(I - h/2 Omega^)^-1; the translational (27) is explicit; the
    /// rotational (27) with gamma_0 of (28) is P_n+1 = P_n R - h (F - Qbar Y) A with the
    /// symmetric Y solved from C(q_n+1) p_n+1 = C(q_n) p_n, which is what (28) expresses (see
    /// docs/director.md). What remains for Newton: w = J^-1 mean(G(q) p) of (23), 3 equations
    /// per body, and the joint rows, (25) summed over the steps: Phi(q_n+1) = Phi(q_0), so that
    /// the residuals the tolerance accepts do not add up. Convergence is judged on the residual
    /// of (23), (27), (28) as written and on those joint rows; the per-body block is 3 x 3
    /// instead of 24 x 24. Its tangent is exact up to terms of the size of the directors'
    /// orthonormality error (round-off) and, for revolute joints between two bodies, the
    /// cross-body term of (42) that `step_full` leaves out too: convergence is quadratic except
    /// for such chains, where it is fast but linear.
    ///
    /// The tolerance is held above 4 eps max|u_n| (u_n all positions, directors and momenta):
    /// below the round-off of the largest terms it cannot be reached (a chain of 1024 links has
    /// momenta of 1e4). A step whose condensed solve does not converge is taken by `step_full`
    /// from the same start; the iterations reported are then those of both.
    pub fn step(&mut self, model: &Model, settings: &Settings) -> Result<StepInfo, StepError> {
        let scale = self
            .q
            .iter()
            .chain(&self.p)
            .flatten()
            .fold(0.0f64, |m, x| m.max(x.abs()));
        let settings = &Settings {
            tol: settings.tol.max(4.0 * f64::EPSILON * scale),
            ..*settings
        };
        let failed = match self.step_condensed(model, settings) {
            Ok(info) => return Ok(info),
            Err(StepError::NoConvergence { iterations, .. }) => iterations,
            Err(_) => 0,
        };
        // Far from the solution (a large step, a fast spin) Newton in Omega can run away
        // through the Cayley map, where Newton in the director coordinates, whose equations are
        // polynomial, still converges: the step is then taken by `step_full` from the same start.
        let info = match self.step_full(model, settings) {
            Ok(info) => info,
            Err(StepError::NoConvergence {
                iterations,
                residual,
            }) => {
                return Err(StepError::NoConvergence {
                    iterations: failed + iterations,
                    residual,
                })
            }
            Err(e) => return Err(e),
        };
        self.fallbacks += 1;
        Ok(StepInfo {
            iterations: failed + info.iterations,
            residual: info.residual,
        })
    }

    /// Keep the last step's Omega and lambda (still in `om`, `lambda`) for the predictor, before
    /// a step of size `h` replaces them.
    fn remember(&mut self, h: f64, slow: bool) {
        let [o1, o2] = &mut self.om_prev;
        core::mem::swap(o1, o2);
        o1.copy_from_slice(&self.om);
        let [l1, l2] = &mut self.lambda_prev;
        core::mem::swap(l1, l2);
        l1.copy_from_slice(&self.lambda);
        self.same_h = if h == self.last_h {
            (self.same_h + 1).min(3)
        } else {
            1
        };
        self.last_h = h;
        self.slow = slow;
    }

    /// Steps that `step` took by `step_full` because the condensed solve did not converge.
    pub fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// The condensed solve of [`Director::step`] alone, without the tolerance floor and the
    /// fallback (for tests of its convergence).
    pub fn step_condensed(
        &mut self,
        model: &Model,
        settings: &Settings,
    ) -> Result<StepInfo, StepError> {
        let h = settings.dt;
        let nb = self.q.len();
        let nrows = self.rows.len();
        // predictor: Omega and lambda (means over a step) extrapolated quadratically from the
        // last three steps, an error of O(h^3) instead of the O(h) of the last step's values.
        // Only while the steps are in Newton's fast range (the last one took at most 3
        // iterations, the last three had this h): at large steps (nk-spherical at h = 0.1,
        // 0.5 rad a step) extrapolation overshoots, and Newton needs more iterations and more
        // fallbacks (linear extrapolation there: 8.3 iterations a step and 23 fallbacks in 300
        // steps, against 6.6 and 9 from the last values alone). Otherwise the last values.
        if self.same_h >= 3 && h == self.last_h && !self.slow {
            let [o1, o2] = &self.om_prev;
            for b in 0..nb {
                self.om1[b] = 3.0 * (self.om[b] - o1[b]) + o2[b];
            }
            let [l1, l2] = &self.lambda_prev;
            for k in 0..nrows {
                self.lambda1[k] = 3.0 * (self.lambda[k] - l1[k]) + l2[k];
            }
        } else {
            self.lambda1.copy_from_slice(&self.lambda);
            self.om1.copy_from_slice(&self.om);
        }
        for b in 0..nb {
            self.pin[b] = -DVec3::from_array(g_mul(&rot_block(&self.q[b]), &rot_block(&self.p[b])));
        }
        let mut iterations = 0u32;
        let mut residual;
        loop {
            // directors at n+1 from Omega: the Cayley transform, (23) exactly
            for b in 0..nb {
                let a = self.om1[b] * (0.5 * h);
                let amat = (DMat3::IDENTITY + skew(a) + outer(a, a)) * (1.0 / (1.0 + a.dot(a)));
                let q1 = mat(&self.q[b]) * (amat * 2.0 - DMat3::IDENTITY);
                self.q1[b][3..12].copy_from_slice(&q1.to_cols_array());
                self.amat[b] = amat;
            }
            // centres at n+1, (23) and (27): the translational gradients are constant, so the
            // gradients of the last evaluation (or of `new`) give the translational forces
            for b in 0..nb {
                let f0 = self.force_translational(b, model);
                let m = model.bodies[b].mass;
                for i in 0..3 {
                    self.p1[b][i] = self.p[b][i] - h * f0[i];
                    self.q1[b][i] = self.q[b][i] + h * 0.5 * (self.p[b][i] + self.p1[b][i]) / m;
                }
            }
            // joints at q_n+1: (25) summed over the steps, Phi(q_n+1) = Phi(q_0), so that the
            // residuals the tolerance accepts do not add up from step to step; gradients at
            // q_n+1 (Newton rows) and at the mean (forces, (42))
            residual = 0.0f64;
            for (k, &(j, r, _, _)) in self.rows.iter().enumerate() {
                let (phi, ga, gb) = Self::joint_row(model, &self.q1, j, r);
                self.rj[k] = phi - self.phi0[k];
                residual = residual.max(self.rj[k].abs());
                self.gnew[k] = [ga, gb];
                self.gmean[k] = [ga, gb];
            }
            self.mean_gradients(model);
            // rotational momenta at n+1, (27)-(28), and the residual of the condensed
            // equations: the joint rows and Res = 2 J Omega - pi_n - pi_n+1
            for b in 0..nb {
                let f = self.force_rotational(b, model);
                self.frot[b] = DMat3::from_cols_array(&f);
                let p1 = self.rot_momenta(b, h, &f)?;
                self.p1[b][3..12].copy_from_slice(&p1.to_cols_array());
                let pi1 = 2.0 * skew_vec(&(mat(&self.q1[b]).transpose() * p1));
                self.resw[b] = 2.0 * model.bodies[b].inertia * self.om1[b] - self.pin[b] - pi1;
                // in the units of (23): Res / 2J is the error in Omega, times h in the directors
                let kin = self.resw[b] * DVec3::from_array(self.jinv[b]) * (0.5 * h);
                residual = kin.abs().max_element().max(residual);
            }
            // once those are below the tolerance (or not finite), the step is judged on the
            // residual of (23)-(28) as written, so that a converged step is the paper's step
            if !(residual > settings.tol) {
                for b in 0..nb {
                    let f0 = self.force_translational(b, model);
                    let f = self.frot[b].to_cols_array();
                    let r = self.body_residual(b, model, h, &f0, &f);
                    residual = r.iter().fold(residual, |m, x| m.max(x.abs()));
                }
            }
            if crate::step::newton_converged(residual, iterations, settings)? {
                break;
            }
            // per body: K = dRes/dOmega, inverted
            for b in 0..nb {
                let k = self.omega_tangent(b, model, h);
                let det = k.determinant();
                if !(det.is_finite() && det.abs() > 1e-300) {
                    return Err(StepError::Singular);
                }
                self.kinv[b] = k.inverse();
                self.kres[b] = self.kinv[b] * self.resw[b];
            }
            if nrows > 0 {
                // per row and side: y = K^-1 dRes/dlambda, d = dPhi/dOmega. Every joint
                // gradient's rotational part is a rank-one matrix G = u w^T (world u, body w),
                // and 2 vec(skew(a b^T)) = b x a, so
                // dRes/dlambda = 2h vec(skew(Q_n+1^T G A)) = h (A^T w) x (Q_n+1^T u) with G
                // at the mean, and d = 2h vec(skew(Qbar^T G A^T)) = h (A w) x (Qbar^T u) with
                // G at q_n+1
                for k in 0..nrows {
                    let (_, _, a, bb) = self.rows[k];
                    for (side, b) in sides(a, bb) {
                        let ((un, wn), (um, wm)) = self.row_factors(model, k, side);
                        let amat = self.amat[b];
                        let c =
                            h * (amat.transpose() * wm).cross(mat(&self.q1[b]).transpose() * um);
                        let qbar = mat(&self.q[b]) * amat;
                        let d = h * (amat * wn).cross(qbar.transpose() * un);
                        debug_assert!({
                            let g = mat(&self.gmean[k][side]);
                            let e = mat(&self.gnew[k][side]);
                            let c2 = 2.0 * h * skew_vec(&(mat(&self.q1[b]).transpose() * g * amat));
                            let d2 = 2.0 * h * skew_vec(&(qbar.transpose() * e * amat.transpose()));
                            (c - c2).length() <= 1e-12 * (1.0 + c2.length())
                                && (d - d2).length() <= 1e-12 * (1.0 + d2.length())
                        });
                        self.cy[k][side] = self.kinv[b] * c;
                        self.dk[k][side] = d;
                    }
                }
                // S dlambda = -rho + sum_b d . K^-1 Res,
                // S_kl = -sum_b (h^2 / 2M) e0_k . g0_l - d_k . y_l  (bodies shared by k and l)
                for k in 0..nrows {
                    let (_, _, a, bb) = self.rows[k];
                    let mut rhs = -self.rj[k];
                    for (side, b) in sides(a, bb) {
                        rhs += self.dk[k][side].dot(self.kres[b]);
                    }
                    self.rj[k] = rhs;
                }
                self.js.clear();
                for (jk, jt) in model.joints.iter().enumerate() {
                    let ok = self.js.offset(jk);
                    for (side, b) in sides(jt.a, jt.b) {
                        let t = -h * h * 0.5 / model.bodies[b].mass;
                        for &(jl, l_is_b) in &self.at_body[b] {
                            let ol = self.js.offset(jl);
                            let lside = usize::from(l_is_b);
                            let mut blk = [0.0; 25];
                            for rk in 0..jt.kind.rows() {
                                let d = self.dk[ok + rk][side];
                                for rl in 0..model.joints[jl].kind.rows() {
                                    blk[rk * 5 + rl] = -d.dot(self.cy[ol + rl][lside]);
                                }
                            }
                            // t e0_k . g0_l: the translational gradients are +-e_r on the three
                            // position rows of both joint kinds (35) and zero on the revolute
                            // axis rows, so only the diagonal of the position rows is not zero
                            for r in 0..3 {
                                let (e0, g0) =
                                    (&self.gnew[ok + r][side], &self.gmean[ol + r][lside]);
                                debug_assert!((0..model.joints[jl].kind.rows()).all(|rl| {
                                    let g = &self.gmean[ol + rl][lside];
                                    let dot = e0[0] * g[0] + e0[1] * g[1] + e0[2] * g[2];
                                    dot == if rl == r { e0[r] * g0[r] } else { 0.0 }
                                }));
                                blk[r * 5 + r] += t * e0[r] * g0[r];
                            }
                            self.js.add_block(jk, jl, &blk);
                        }
                    }
                }
                if !self.js.factor() {
                    return Err(StepError::Singular);
                }
                self.js.solve(&mut self.rj); // now delta lambda
                for k in 0..nrows {
                    self.lambda1[k] += self.rj[k];
                    let (_, _, a, bb) = self.rows[k];
                    for (side, b) in sides(a, bb) {
                        self.kres[b] += self.cy[k][side] * self.rj[k];
                    }
                }
            }
            for b in 0..nb {
                self.om1[b] -= self.kres[b]; // dOmega = -K^-1 (Res + dRes/dlambda dlambda)
            }
            iterations += 1;
        }
        if !self.q1.iter().chain(&self.p1).all(|v| {
            v.iter()
                .all(|x| x.is_finite() && x.abs() <= crate::model::MAX_MAGNITUDE)
        }) {
            return Err(StepError::NonFinite);
        }
        self.remember(h, iterations > 3);
        core::mem::swap(&mut self.q, &mut self.q1);
        core::mem::swap(&mut self.p, &mut self.p1);
        core::mem::swap(&mut self.lambda, &mut self.lambda1);
        core::mem::swap(&mut self.om, &mut self.om1);
        self.internal = self.measure_internal();
        Ok(StepInfo {
            iterations,
            residual,
        })
    }

    /// Joint row `k`'s rotational gradient on `side` (0: body a, 1: body b) as u w^T, at q_n+1
    /// and at the mean: the factors of `gnew` and `gmean` (see `joint_row`, `mean_gradients`).
    fn row_factors(
        &self,
        model: &Model,
        k: usize,
        side: usize,
    ) -> ((DVec3, DVec3), (DVec3, DVec3)) {
        let (j, r, _, _) = self.rows[k];
        let jt = &model.joints[j];
        if r < 3 {
            // spherical rows: +-e_r s^T, the same at q_n+1 and at the mean
            let f = if side == 1 {
                (DVec3::AXES[r], jt.point_b)
            } else {
                (-DVec3::AXES[r], jt.point_a)
            };
            return (f, f);
        }
        let [na, e1, e2] = self.axes[j];
        let e = if r == 3 { e1 } else { e2 };
        let mean = |b: usize| DMat3::from_cols_array(&self.mean_rot(b));
        if side == 1 {
            // n e^T with n = Q_a n_a (or the fixed axis)
            match jt.a {
                Some(a) => ((mat(&self.q1[a]) * na, e), (mean(a) * na, e)),
                None => ((na, e), (na, e)),
            }
        } else {
            // (Q_b e) n_a^T
            ((mat(&self.q1[jt.b]) * e, na), (mean(jt.b) * e, na))
        }
    }

    /// Rotational momenta at n+1 for the directors in `self.q1[b]`: (27) with gamma_0 (28),
    /// P_n+1 = P_n R - h (F - Qbar Y) A, R = 2A - I, Y symmetric from the six linear equations
    /// C(q_n+1) p_n+1 = C(q_n) p_n.
    fn rot_momenta(&self, b: usize, h: f64, f: &V9<f64>) -> Result<DMat3, StepError> {
        let (qn, pn, q1) = (mat(&self.q[b]), mat(&self.p[b]), mat(&self.q1[b]));
        let amat = self.amat[b];
        let qbar = (qn + q1) * 0.5;
        let free = pn * (amat * 2.0 - DMat3::IDENTITY) - DMat3::from_cols_array(f) * amat * h;
        let (q1a, fa) = (q1.to_cols_array(), free.to_cols_array());
        let cn = c_mul(&rot_block(&self.q[b]), &rot_block(&self.p[b]));
        let cf = c_mul(&q1a, &fa);
        let mut y = [0.0; 6];
        for i in 0..6 {
            y[i] = cn[i] - cf[i];
        }
        // column j: C(q_n+1) (h Qbar E_j A), E_j the symmetric unit matrices in the layout of
        // C^T y (eq. 5): (0,0), (1,1), (2,2), (1,2), (0,2), (0,1)
        const PAIRS: [(usize, usize); 6] = [(0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1)];
        let mut m = [0.0; 36];
        let at = amat.transpose(); // rows of A as columns
        for (j, &(r, c)) in PAIRS.iter().enumerate() {
            let mut e = outer(qbar.col(r), at.col(c));
            if r != c {
                e += outer(qbar.col(c), at.col(r));
            }
            let col = c_mul(&q1a, &(e * h).to_cols_array());
            for i in 0..6 {
                m[i * 6 + j] = col[i];
            }
        }
        if !crate::math::lu_solve_in_place(&mut m, 6, &mut y) {
            return Err(StepError::Singular);
        }
        let ym = DMat3::from_cols_array(&[y[0], y[5], y[4], y[5], y[1], y[3], y[4], y[3], y[2]]);
        Ok(free + qbar * ym * amat * h)
    }

    /// K = dRes/dOmega for body `b`, Res = 2 J Omega - pi_n - pi_n+1, pi = 2 vec(skew(Q^T P)),
    /// at the current iterate (its rotational force `frot` from the residual evaluation). With
    /// orthonormal Q_n (to round-off) Y drops out of pi_n+1:
    /// pi_n+1 = R^T pi_n - 2h vec(skew(R^T Phi A)), Phi = Q_n^T F; with dA = h/2 A e^ A and
    /// dR^T = -h A^T e^ A^T its derivative along Omega_i gives column i below.
    fn omega_tangent(&self, b: usize, model: &Model, h: f64) -> DMat3 {
        let (qn, q1) = (mat(&self.q[b]), mat(&self.q1[b]));
        let amat = self.amat[b];
        let at = amat.transpose();
        let fm = self.frot[b];
        let v = at * self.pin[b];
        let x = at * qn.transpose() * fm * amat;
        let z = q1.transpose() * fm * amat;
        let mut cols = [DVec3::ZERO; 3];
        for (i, col) in cols.iter_mut().enumerate() {
            let e = skew(DVec3::AXES[i]);
            let dpi = h * (at * v.cross(DVec3::AXES[i])) + 2.0 * h * h * skew_vec(&(at * e * x))
                - h * h * skew_vec(&(z * e * amat));
            *col = -dpi;
        }
        DMat3::from_cols(cols[0], cols[1], cols[2])
            + DMat3::from_diagonal(2.0 * model.bodies[b].inertia)
    }

    /// Mean directors of body `b` over the step.
    fn mean_rot(&self, b: usize) -> V9<f64> {
        let mut out = [0.0; 9];
        for i in 0..9 {
            out[i] = 0.5 * (self.q[b][3 + i] + self.q1[b][3 + i]);
        }
        out
    }

    /// Replace the revolute rows of `gmean` by the gradients at the mean configuration (42).
    fn mean_gradients(&mut self, model: &Model) {
        for (k, &(j, r, _, _)) in self.rows.iter().enumerate() {
            if r < 3 {
                continue; // spherical rows: constant gradient (35)
            }
            let jt = &model.joints[j];
            let [na, e1, e2] = self.axes[j];
            let e = if r == 3 { e1 } else { e2 }.to_array();
            let mb = self.mean_rot(jt.b);
            let ubar = DMat3::from_cols_slice(&mb) * DVec3::from_array(e);
            let nbar = match jt.a {
                Some(a) => DMat3::from_cols_slice(&self.mean_rot(a)) * na,
                None => na,
            };
            let (mut ga, mut gb) = ([0.0; 12], [0.0; 12]);
            let nn = na.to_array();
            for i in 0..3 {
                for c in 0..3 {
                    if jt.a.is_some() {
                        ga[3 + 3 * i + c] = nn[i] * ubar[c];
                    }
                    gb[3 + 3 * i + c] = e[i] * nbar[c];
                }
            }
            self.gmean[k] = [ga, gb];
        }
    }

    /// dV*/dq0 + dPhi*/dq^T lambda for body `b`: translational (3) and rotational (9) parts.
    fn forces(&self, b: usize, model: &Model) -> ([f64; 3], V9<f64>) {
        (
            self.force_translational(b, model),
            self.force_rotational(b, model),
        )
    }

    /// dV*/dq0 + dPhi*/dq0^T lambda for body `b`.
    fn force_translational(&self, b: usize, model: &Model) -> [f64; 3] {
        let m = model.bodies[b].mass;
        let g = model.gravity;
        let mut f0 = [-m * g.x, -m * g.y, -m * g.z];
        for &(j, is_b) in &self.at_body[b] {
            let o = self.js.offset(j);
            for k in o..o + model.joints[j].kind.rows() {
                let grad = &self.gmean[k][usize::from(is_b)];
                for i in 0..3 {
                    f0[i] += grad[i] * self.lambda1[k];
                }
            }
        }
        f0
    }

    /// dPhi*/dq_r^T lambda for body `b` (the directors' part, 9 numbers).
    fn force_rotational(&self, b: usize, model: &Model) -> V9<f64> {
        let mut f = [0.0; 9];
        for &(j, is_b) in &self.at_body[b] {
            let o = self.js.offset(j);
            for k in o..o + model.joints[j].kind.rows() {
                let grad = &self.gmean[k][usize::from(is_b)];
                for i in 0..9 {
                    f[i] += grad[3 + i] * self.lambda1[k];
                }
            }
        }
        f
    }

    fn body_residual(
        &self,
        b: usize,
        model: &Model,
        h: f64,
        f0: &[f64; 3],
        f: &V9<f64>,
    ) -> [f64; N] {
        let m = model.bodies[b].mass;
        let (q, p, q1, p1) = (&self.q[b], &self.p[b], &self.q1[b], &self.p1[b]);
        let mut r = [0.0; N];
        for i in 0..3 {
            r[i] = q1[i] - q[i] - h * 0.5 * (p[i] + p1[i]) / m;
            r[12 + i] = p1[i] - p[i] + h * f0[i];
        }
        let (qn, pn) = (rot_block(q), rot_block(p));
        let bn = g_mul(&qn, &pn);
        let rr = rot_residual::<f64>(
            h,
            self.jinv[b],
            &qn,
            &pn,
            bn,
            &rot_block(q1),
            &rot_block(p1),
            f,
        );
        for i in 0..9 {
            r[3 + i] = rr[i];
            r[15 + i] = rr[9 + i];
        }
        r
    }

    /// The exact 24 x 24 block dr/du of body `b` into `self.k[b]` (row-major).
    fn tangent(&mut self, b: usize, model: &Model, h: f64) {
        let m = model.bodies[b].mass;
        let kb = &mut self.k[b];
        kb.fill(0.0);
        for i in 0..3 {
            kb[i * N + i] = 1.0; // dr_q0 / dq0
            kb[i * N + 12 + i] = -0.5 * h / m; // dr_q0 / dp0
            kb[(12 + i) * N + 12 + i] = 1.0; // dr_p0 / dp0
        }
        let (qn, pn) = (rot_block(&self.q[b]), rot_block(&self.p[b]));
        let bn = g_mul(&qn, &pn);
        let f = self.force_rotational(b, model);
        let q1 = rot_block(&self.q1[b]).map(Dual::c);
        let p1 = rot_block(&self.p1[b]).map(Dual::c);
        let kb = &mut self.k[b];
        for c in 0..18 {
            let (mut qd, mut pd) = (q1, p1);
            if c < 9 {
                qd[c].d = 1.0;
            } else {
                pd[c - 9].d = 1.0;
            }
            let rr = rot_residual::<Dual>(h, self.jinv[b], &qn, &pn, bn, &qd, &pd, &f);
            let col = if c < 9 { 3 + c } else { 15 + (c - 9) };
            for i in 0..9 {
                kb[(3 + i) * N + col] = rr[i].d;
                kb[(15 + i) * N + col] = rr[9 + i].d;
            }
        }
    }
}
