//! The tangent of the director's condensed Newton solve (`condensed.rs`) and the Newton update:
//!
//! ```text
//! per body:   K = dRes/dOmega (3 x 3), Res = 2 J Omega - pi_n - pi_n+1;  with contacts and
//!             limits K += h^2 Q^T K_r Q
//! per row k and side (body b):  y_k = K^-1 dRes/dlambda_k,  d_k = dPhi_k/dOmega
//!             (both h (A^T w) x (Q^T u) forms of the rank-one gradients G = u w^T)
//! Schur:      S_kl = -sum_b (h^2 / 2M) e0_k . g0_l - d_k . y_l   (bodies shared by k and l)
//!             S dlambda = -rho + sum_b d . K^-1 Res
//! update:     dOmega = -K^-1 (Res + dRes/dlambda dlambda)
//! ```
//! (The cross-body term of dot rows between two bodies, which couples two bodies' Omega,
//! corrects this update in `cross.rs`.)
use super::{mat, sides, Ctx};
use crate::compiled::{Row, RowSpec};
use crate::math::{skew, skew_vec};
use crate::model::Model;
use crate::sparse::B;
use crate::step::StepError;
use glam::{DMat3, DVec3};

impl Ctx<'_> {
    /// Per body K = dRes/dOmega inverted into `kinv` (when `fresh`, else the last iteration's)
    /// and K^-1 Res into `kres`. With `stiff` elements the contacts' torques stiffen the
    /// rotation: dRes/dOmega gains h^2 Q^T K_r Q (a turn h dOmega moves an arm a by
    /// h dOmega x a).
    pub(super) fn body_tangents(
        &mut self,
        model: &Model,
        h: f64,
        fresh: bool,
        stiff: bool,
    ) -> Result<(), StepError> {
        for b in 0..self.s.q.len() {
            if fresh {
                let mut k = self.omega_tangent(b, model, h);
                if stiff {
                    let q = mat(&self.w.q1[b]);
                    k += q.transpose() * self.w.stiff[b].r * q * (h * h);
                }
                let det = k.determinant();
                if !(det.is_finite() && det.abs() > 1e-300) {
                    return Err(StepError::BodySingular {
                        body: b,
                        turn: crate::math::length(self.w.om1[b] * h),
                    });
                }
                self.w.kinv[b] = k.inverse();
                self.w.qna[b] = mat(&self.s.q[b]) * self.w.amat[b];
            }
            self.w.kres[b] = self.w.kinv[b] * self.w.resw[b];
        }
        Ok(())
    }

    /// Per row and side: y = K^-1 dRes/dlambda into `cy`, d = dPhi/dOmega into `dk`. Every
    /// joint gradient's rotational part is a rank-one matrix G = u w^T (world u, body w), and
    /// 2 vec(skew(a b^T)) = b x a, so dRes/dlambda = 2h vec(skew(Q_n+1^T G A)) =
    /// h (A^T w) x (Q_n+1^T u) with G at the mean, and d = 2h vec(skew(Qbar^T G A^T)) =
    /// h (A w) x (Qbar^T u) with G at q_n+1.
    pub(super) fn row_tangents(&mut self, model: &Model, h: f64) {
        let c = self.c;
        for k in 0..c.rows.len() {
            let Row { a, b: bb, .. } = c.rows[k];
            let general = c.frames[c.rows[k].joint].spec[c.rows[k].row].is_general();
            for (side, b) in sides(a, bb) {
                let amat = self.w.amat[b];
                if general {
                    // a sliding joint's row: its rotational gradient on side a is of
                    // rank two, so the general forms (the debug check below)
                    let (gm, gn) = (self.w.gmean[k][side], self.w.gnew[k][side]);
                    (self.w.cy[k][side], self.w.dk[k][side]) = self.general_factors(b, &gm, &gn, h);
                    continue;
                }
                let ((un, wn), (um, wm)) = self.row_factors(model, k, side, h);
                let c = h * (amat.transpose() * wm).cross(mat(&self.w.q1[b]).transpose() * um);
                let qbar = self.w.qna[b]; // Q_n A
                let d = h * (amat * wn).cross(qbar.transpose() * un);
                debug_assert!({
                    let g = mat(&self.w.gmean[k][side]);
                    let e = mat(&self.w.gnew[k][side]);
                    let c2 = 2.0 * h * skew_vec(&(mat(&self.w.q1[b]).transpose() * g * amat));
                    let d2 = 2.0 * h * skew_vec(&(qbar.transpose() * e * amat.transpose()));
                    (c - c2).length() <= 1e-12 * (1.0 + c2.length())
                        && (d - d2).length() <= 1e-12 * (1.0 + d2.length())
                });
                self.w.cy[k][side] = self.w.kinv[b] * c;
                self.w.dk[k][side] = d;
            }
        }
    }

    /// The joint-space Schur complement S_kl = -sum_b (h^2 / 2M) e0_k . g0_l - d_k . y_l into
    /// `js`, block by block. Every block gets one contribution per body its two joints share:
    /// one, or two for a diagonal block of a joint between two bodies (side a first); the first
    /// is stored as 0 + value, the same bits as adding it to a cleared matrix.
    pub(super) fn assemble_schur(&mut self, model: &Model, h: f64) {
        let c = self.c;
        for (jk, jt) in c.frames.iter().enumerate() {
            for (side, b) in sides(jt.a, jt.b) {
                let t = -h * h * 0.5 / model.bodies[b].mass;
                let kslot = c.slot[jk][side];
                for (li, inc) in c.at_body[b].iter().enumerate() {
                    let jl = inc.joint;
                    // the first of the contributions to block (jk, jl) is body a's
                    // when joint jl acts on a too: a diagonal block of a joint between
                    // two bodies, or two joints between the same two bodies (a loop;
                    // `jl != jk` alone let body b's overwrite body a's there, and every
                    // step of such a system fell back to `step_full`)
                    let first = side == 0
                        || jt
                            .a
                            .is_none_or(|a| c.at_body[a].iter().all(|i| i.joint != jl));
                    let term = SchurTerm {
                        rows: (c.pattern.offset(jk), c.pattern.offset(jl)),
                        sides: (side, usize::from(inc.is_b)),
                        t,
                        first,
                    };
                    let blk = self.w.js.block_mut(c.block(b, kslot, li));
                    let w = (
                        &self.w.dk[..],
                        &self.w.cy[..],
                        &self.w.gnew[..],
                        &self.w.gmean[..],
                    );
                    let general = jt.general || c.frames[jl].general;
                    // the common sizes as constants, so that the loops unroll
                    match (general, jt.rows, c.frames[jl].rows) {
                        (false, 5, 5) => term.write(blk, w, 5, 5, false),
                        (false, 3, 3) => term.write(blk, w, 3, 3, false),
                        (g, rk, rl) => term.write(blk, w, rk, rl, g),
                    }
                }
            }
        }
    }

    /// The multipliers' Newton increment from the factored Schur complement,
    /// S dlambda = -rho + sum_b d . K^-1 Res (with `nsp` spring rows as its border,
    /// `springs.rs`), added to lambda, and K^-1 dRes/dlambda dlambda added to `kres`.
    pub(super) fn solve_multipliers(&mut self, nsp: usize) {
        let c = self.c;
        let nrows = c.rows.len();
        for k in 0..nrows {
            let Row { a, b: bb, .. } = c.rows[k];
            let mut rhs = -self.w.rj[k];
            for (side, b) in sides(a, bb) {
                rhs += self.w.dk[k][side].dot(self.w.kres[b]);
            }
            self.w.rj[k] = rhs;
        }
        if nsp > 0 {
            self.spring_rows_solve();
        } else {
            self.w.js.solve(&c.pattern, &mut self.w.rj); // now delta lambda
        }
        for k in 0..nrows {
            self.w.lambda1[k] += self.w.rj[k];
            let Row { a, b: bb, .. } = c.rows[k];
            for (side, b) in sides(a, bb) {
                self.w.kres[b] += self.w.cy[k][side] * self.w.rj[k];
            }
        }
    }

    /// Joint row `k`'s rotational gradient on `side` (0: body a, 1: body b) as u w^T, at q_n+1
    /// and at the mean: the factors of `gnew` and `gmean` (see `joint_row`, `mean_gradients`).
    pub(super) fn row_factors(
        &self,
        model: &Model,
        k: usize,
        side: usize,
        h: f64,
    ) -> ((DVec3, DVec3), (DVec3, DVec3)) {
        let c = self.c;
        let Row {
            joint: j, row: r, ..
        } = c.rows[k];
        let jt = &model.joints[j];
        let f = &c.frames[j];
        let (na, e) = match f.spec[r] {
            RowSpec::Pos(r) => {
                // spherical rows: +-e_r s^T, the same at q_n+1 and at the mean
                let f = if side == 1 {
                    (DVec3::AXES[r], jt.point_b)
                } else {
                    (-DVec3::AXES[r], jt.point_a)
                };
                return (f, f);
            }
            RowSpec::Dot(na, e) => (na, e),
            RowSpec::Angle(rr, m, e, tf) => {
                // the dot row of v(t): v(t_n+1) at q_n+1, the mean of v at the mean
                let t = self.s.forces.t;
                let v1 = RowSpec::angle_vector(rr, m, &tf, t + h);
                let vbar = (RowSpec::angle_vector(rr, m, &tf, t) + v1) * 0.5;
                let mean = |b: usize| self.mean_rot(b);
                return if side == 1 {
                    match jt.a {
                        Some(a) => ((mat(&self.w.q1[a]) * v1, e), (mean(a) * vbar, e)),
                        None => ((v1, e), (vbar, e)),
                    }
                } else {
                    ((mat(&self.w.q1[jt.b]) * e, v1), (mean(jt.b) * e, vbar))
                };
            }
            RowSpec::Perp(_) | RowSpec::Slide(..) | RowSpec::Dist(..) | RowSpec::Offset(..) => {
                unreachable!("sliding and distance rows take the general forms")
            }
        };
        let mean = |b: usize| self.mean_rot(b);
        if side == 1 {
            // n e^T with n = Q_a n_a (or the fixed axis)
            match jt.a {
                Some(a) => ((mat(&self.w.q1[a]) * na, e), (mean(a) * na, e)),
                None => ((na, e), (na, e)),
            }
        } else {
            // (Q_b e) n_a^T
            ((mat(&self.w.q1[jt.b]) * e, na), (mean(jt.b) * e, na))
        }
    }

    /// K = dRes/dOmega for body `b`, Res = 2 J Omega - pi_n - pi_n+1, pi = 2 vec(skew(Q^T P)),
    /// at the current iterate (its rotational force `frot` from the residual evaluation). With
    /// orthonormal Q_n (to round-off) Y drops out of pi_n+1:
    /// pi_n+1 = R^T pi_n - 2h vec(skew(R^T Phi A)), Phi = Q_n^T F; with dA = h/2 A e^ A and
    /// dR^T = -h A^T e^ A^T its derivative along Omega_i gives column i below.
    pub(super) fn omega_tangent(&self, b: usize, model: &Model, h: f64) -> DMat3 {
        let (qn, q1) = (mat(&self.s.q[b]), mat(&self.w.q1[b]));
        let amat = self.w.amat[b];
        let at = amat.transpose();
        let fm = self.w.frot[b];
        let v = at * self.w.pin[b];
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
}

/// One body's contribution to the Schur block of joints k (rows from `rows.0`, on side
/// `sides.0` of the body) and l (from `rows.1`, on `sides.1`): -d_k . y_l + t e0_k . g0_l with
/// t = -h^2 / 2M, stored into the block as 0 + value when `first`, else added.
struct SchurTerm {
    rows: (usize, usize),
    sides: (usize, usize),
    t: f64,
    first: bool,
}

/// The workspace's d_k, y_l, e0_k and g0_l (`dk`, `cy`, `gnew`, `gmean`).
type SchurFactors<'a> = (
    &'a [[DVec3; 2]],
    &'a [[DVec3; 2]],
    &'a [[super::Grad; 2]],
    &'a [[super::Grad; 2]],
);

impl SchurTerm {
    /// Write the `nk` x `nl` term into `blk`. The translational gradients are +-e_r on the
    /// three position rows (35) and zero on the dot rows, so only the diagonal of the position
    /// rows has a t e0_k . g0_l that is not zero, and only its r-th product; a sliding joint's
    /// rows (`general`) have others, and take the whole products.
    #[inline(always)]
    fn write(
        &self,
        blk: &mut [f64; B * B],
        (dk, cy, gnew, gmean): SchurFactors,
        nk: usize,
        nl: usize,
        general: bool,
    ) {
        let ((ok, ol), (side, lside), t) = (self.rows, self.sides, self.t);
        let (cy, gmean) = (&cy[ol..ol + nl], &gmean[ol..ol + nl]);
        for rk in 0..nk {
            let d = dk[ok + rk][side];
            let e0 = &gnew[ok + rk][side];
            let mut row = [0.0; B];
            for (x, y) in row[..nl].iter_mut().zip(cy) {
                *x = -d.dot(y[lside]);
            }
            if general {
                for (x, g0) in row[..nl].iter_mut().zip(gmean) {
                    let g0 = &g0[lside];
                    *x += t * (e0[0] * g0[0] + e0[1] * g0[1] + e0[2] * g0[2]);
                }
            } else if rk < 3 {
                debug_assert!((0..nl).all(|rl| {
                    let g0 = &gmean[rl][lside];
                    let dot = e0[0] * g0[0] + e0[1] * g0[1] + e0[2] * g0[2];
                    dot == if rl == rk { e0[rk] * g0[rk] } else { 0.0 }
                }));
                row[rk] += t * e0[rk] * gmean[rk][lside][rk];
            }
            let out = &mut blk[rk * B..rk * B + nl];
            if self.first {
                for (x, v) in out.iter_mut().zip(&row) {
                    *x = 0.0 + v;
                }
            } else {
                for (x, v) in out.iter_mut().zip(&row) {
                    *x += v;
                }
            }
        }
    }
}
