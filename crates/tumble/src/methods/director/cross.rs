//! The cross-body term of the condensed Newton tangent (`tangent.rs`): a dot row (37)-(38)
//! between two bodies (revolute, universal and fixed joints, angle drives) has, at the mean
//! configuration, a gradient on one body that turns with the other body's mean directors (42),
//! so the rotational residual of each body depends on the other's Omega through the row's
//! force lambda G:
//!
//! ```text
//! row k, side s (body s, the other body o):  G = u w^T,  u = Qbar_o v,  Qbar_o = Q_n,o A_o
//!             (side a: v = e, w = n_a;  side b: v = n_a, w = e;  an angle drive: vbar for n_a)
//! dQbar_o v = h/2 Qbar_o (dOmega_o x A_o v)                      (dA = h/2 A dOmega^ A)
//! X_k,s = dRes_s/dOmega_o = -(lambda_k h^2 / 2) (A_s^T w)^ Q_n+1,s^T Qbar_o (A_o v)^
//! exact tangent   [K + E   C] [dOmega ]   [Res]
//!                 [D       0] [dlambda] = -[rho],   E = sum_k X_k,s (body s, body o)
//! ```
//! E couples bodies across joints, so the body-by-body elimination (K^-1 per body, the
//! joint-space Schur complement) no longer gives the solution in one pass: with M the tangent
//! without E (factored as before), the solve starts from x_0 = M^-1 (-r) and adds corrections
//! M delta_j = -E delta_j-1 (delta_-1 = x_0), the defect of the exact system after x_j being
//! E delta_j-1 alone; each costs the products with X, K^-1 per body and one solve with the
//! factored Schur complement, no new factorisation. The corrections shrink by the ratio of E to
//! M (h^2 lambda / J, about 0.1 on a 64-link chain with side load), and stop once they are
//! below what Newton's quadratic term leaves anyway. Where every such row carries no force
//! (a chain moving in the plane of its hinges: those multipliers are zero) E is zero and
//! nothing is done: the same iterations, the same bits as without it.
use super::{mat, Ctx};
use crate::compiled::{Row, RowSpec};
use crate::math::skew;
use glam::{DMat3, DVec3};

/// At most this many corrections a Newton iteration (they stop earlier once small, or when
/// they stop shrinking: E as large as M, where the plain tangent's step is kept).
const MAX_CORRECTIONS: usize = 8;

impl Ctx<'_> {
    /// X_k,s per dot row between two bodies (`cross_cand`) and side, at the current iterate
    /// (its lambda, Omega and mean directors); the rows with a non-zero term into
    /// `cross_rows`. None when `springs` (the spring rows' bordered solve takes the plain
    /// tangent).
    pub(super) fn cross_tangents(&mut self, h: f64, springs: bool) {
        let c = self.c;
        self.w.cross_rows.clear();
        if springs {
            return;
        }
        let t = self.s.forces.t;
        for i in 0..self.w.cross_cand.len() {
            let k = self.w.cross_cand[i];
            let lambda = self.w.lambda1[k];
            if lambda == 0.0 {
                continue;
            }
            let Row { joint, row, a, b } = c.rows[k];
            let a = a.unwrap_or(0); // candidates join two bodies
            let (na, e) = match c.frames[joint].spec[row] {
                RowSpec::Dot(na, e) => (na, e),
                RowSpec::Angle(rr, m, e, tf) => {
                    let v0 = RowSpec::angle_vector(rr, m, &tf, t);
                    ((v0 + RowSpec::angle_vector(rr, m, &tf, t + h)) * 0.5, e)
                }
                _ => continue,
            };
            let f = -0.5 * lambda * h * h;
            // side a (s = a, o = b): v = e, w = n_a; side b (s = b, o = a): v = n_a, w = e
            self.w.cross[k] = [
                f * self.cross_block(a, b, e, na),
                f * self.cross_block(b, a, na, e),
            ];
            self.w.cross_rows.push(k);
        }
    }

    /// (A_s^T w)^ Q_n+1,s^T Qbar_o (A_o v)^ for body `s`, the other body `o`.
    fn cross_block(&self, s: usize, o: usize, v: DVec3, w: DVec3) -> DMat3 {
        let (as_, ao) = (self.w.amat[s], self.w.amat[o]);
        let m = mat(&self.w.q1[s]).transpose() * self.mean_rot(o);
        skew(as_.transpose() * w) * m * skew(ao * v)
    }

    /// The corrections of the Newton step for E (see the top of this file), after
    /// `solve_multipliers` left the step of the tangent without E: -`kres` its dOmega, added to
    /// `lambda1` its dlambda. The corrections stop below (h max|dOmega|)^2, what Newton's
    /// quadratic term leaves of this step anyway, or a hundredth of the tolerance `tol`.
    pub(super) fn cross_correct(&mut self, h: f64, tol: f64) {
        if self.w.cross_rows.is_empty() {
            return;
        }
        let c = self.c;
        let nb = self.s.q.len();
        let mut size = 0.0f64;
        for b in 0..nb {
            self.w.xd[b] = -self.w.kres[b];
            size = size.max(self.w.xd[b].abs().max_element() * h);
        }
        let stop = (0.01 * tol).max(size * size);
        let mut last = f64::INFINITY;
        for _ in 0..MAX_CORRECTIONS {
            // the defect E delta, then K^-1 of it per body
            self.w.xe.fill(DVec3::ZERO);
            for &k in &self.w.cross_rows {
                let (a, b) = (c.rows[k].a.unwrap_or(0), c.rows[k].b);
                let [xa, xb] = self.w.cross[k];
                self.w.xe[a] += xa * self.w.xd[b];
                self.w.xe[b] += xb * self.w.xd[a];
            }
            for b in 0..nb {
                self.w.xk[b] = self.w.kinv[b] * self.w.xe[b];
            }
            // the multipliers' share: S dlambda = sum_b d . K^-1 (E delta)
            for k in 0..c.rows.len() {
                let Row { a, b, .. } = c.rows[k];
                let mut rhs = self.w.dk[k][1].dot(self.w.xk[b]);
                if let Some(a) = a {
                    rhs += self.w.dk[k][0].dot(self.w.xk[a]);
                }
                self.w.rj[k] = rhs;
            }
            self.w.js.solve(&c.pattern, &mut self.w.rj);
            for k in 0..c.rows.len() {
                let Row { a, b, .. } = c.rows[k];
                self.w.xk[b] += self.w.cy[k][1] * self.w.rj[k];
                if let Some(a) = a {
                    self.w.xk[a] += self.w.cy[k][0] * self.w.rj[k];
                }
            }
            let size = self
                .w
                .xk
                .iter()
                .fold(0.0f64, |m, x| m.max(x.abs().max_element()))
                * h;
            if !(size <= 0.5 * last) {
                break; // not shrinking (or not finite): keep the step as it is
            }
            for k in 0..c.rows.len() {
                self.w.lambda1[k] += self.w.rj[k];
            }
            for b in 0..nb {
                self.w.kres[b] += self.w.xk[b];
                self.w.xd[b] = -self.w.xk[b];
            }
            if size <= stop {
                break;
            }
            last = size;
        }
    }
}
