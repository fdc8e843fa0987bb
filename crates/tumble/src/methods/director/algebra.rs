//! The director algebra of one body on the 9-vectors q_r = [q1, q2, q3] (3 x 3 blocks), and the
//! forward-mode dual numbers that give `full.rs` its exact tangent:
//!
//! ```text
//! (8)   b = G(q) p:  G(q) rows [0, -q3^T, q2^T], [q3^T, 0, -q1^T], [-q2^T, q1^T, 0]
//! (5)   C(q) p = [q1.p1, q2.p2, q3.p3, q3.p2 + q2.p3, q3.p1 + q1.p3, q2.p1 + q1.p2]
//!       P = I - C^T (C C^T)^-1 C  (the projection on the internal constraints)
//! (23)  Delta q_r = h G(qbar)^T w,   w = J^-1 (b(q_n, p_n) + b(q_n+1, p_n+1)) / 2
//! (27)  Delta p_r = h G(pbar)^T w - h P (dPhi*/dq_r^T lambda) + h C(qbar)^T gamma_0
//! (28)  gamma_0 = -(C C^T)^-1 [C(qbar) G(pbar)^T + C(pbar) G(qbar)^T] w
//! ```
//! A dual number x + x' d (d^2 = 0) carries one directional derivative through the same code.
use core::ops::{Add, Div, Mul, Neg, Sub};

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

pub(super) type V9<S> = [S; 9];

pub(super) fn dot3<S: Scalar>(a: &[S], i: usize, b: &[S], j: usize) -> S {
    a[i] * b[j] + a[i + 1] * b[j + 1] + a[i + 2] * b[j + 2]
}

/// b = G(q) p (eq. 8): rows [0, -q3^T, q2^T], [q3^T, 0, -q1^T], [-q2^T, q1^T, 0].
pub(super) fn g_mul<S: Scalar>(q: &V9<S>, p: &V9<S>) -> [S; 3] {
    [
        dot3(q, 3, p, 6) - dot3(q, 6, p, 3),
        dot3(q, 6, p, 0) - dot3(q, 0, p, 6),
        dot3(q, 0, p, 3) - dot3(q, 3, p, 0),
    ]
}

/// G(q)^T w.
pub(super) fn gt_mul<S: Scalar>(q: &V9<S>, w: &[S; 3]) -> V9<S> {
    let mut out = [S::c(0.0); 9];
    for k in 0..3 {
        out[k] = q[6 + k] * w[1] - q[3 + k] * w[2];
        out[3 + k] = q[k] * w[2] - q[6 + k] * w[0];
        out[6 + k] = q[3 + k] * w[0] - q[k] * w[1];
    }
    out
}

/// C(q) p (eq. 5): [q1.p1, q2.p2, q3.p3, q3.p2 + q2.p3, q3.p1 + q1.p3, q2.p1 + q1.p2].
pub(super) fn c_mul<S: Scalar>(q: &V9<S>, p: &V9<S>) -> [S; 6] {
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
pub(super) fn ct_mul<S: Scalar>(q: &V9<S>, y: &[S; 6]) -> V9<S> {
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
pub(super) fn cct_solve<S: Scalar>(q: &V9<S>, r: [S; 6]) -> [S; 6] {
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
            let mk = m[k];
            for (x, v) in m[i][k..].iter_mut().zip(&mk[k..]) {
                *x = *x - f * *v;
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
pub(super) fn rot_residual<S: Scalar>(
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
pub(super) fn project(qb: &V9<f64>, g: &V9<f64>) -> V9<f64> {
    let y = cct_solve(qb, c_mul(qb, g));
    let cty = ct_mul(qb, &y);
    let mut out = *g;
    for i in 0..9 {
        out[i] -= cty[i];
    }
    out
}

// ---------------------------------------------------------------------------------------------
