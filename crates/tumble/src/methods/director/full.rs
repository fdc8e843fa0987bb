//! The director step by Newton-Raphson on all unknowns, Table 1 of Nielsen & Krenk as written:
//! u = (q_n+1, p_n+1) per body (24 numbers) and lambda, from u = u_n.
//!
//! ```text
//! r_q0 = q0_n+1 - q0_n - h (p0_n + p0_n+1) / 2M                                  (23)
//! r_p0 = p0_n+1 - p0_n + h (dV*/dq0 + dPhi*/dq0^T lambda)                       (27)
//! r_qr, r_pr: the rotational residual of (23), (27)-(28) (`algebra.rs`, `rot_residual`)
//! r_j  = Phi(q_n+1) - Phi(q_0)                                      (25) summed over the steps
//! Newton: [K_b  B_b; E_b  0] [du_b; dlambda] = -[r_b; r_j],  K_b = dr_b/du_b (24 x 24, exact by
//!         dual numbers), B_b = dr_b/dlambda = h [0; g0; 0; P g_r], E_b = dPhi(q_n+1)/dq_b
//!         eliminated body by body: S dlambda = r_j - sum_b E_b K_b^-1 r_b,  S = sum_b E_b K_b^-1 B_b
//! ```
//! As in (32)-(33) the tangent leaves out the dependence of a revolute gradient (42) on the other
//! body's mean directors (a term of size h lambda).
use super::algebra::{g_mul, project, rot_residual, Dual, Scalar, V9};
use super::{joint_row, rot_block, sides, Ctx, N};
use crate::compiled::Row;
use crate::math::{lu_back, lu_factor};
use crate::model::Model;
use crate::step::{newton_converged, Settings, StepError, StepInfo, Trend};
use glam::DVec3;

impl Ctx<'_> {
    /// One step of size `settings.dt` by Newton-Raphson on all unknowns, Table 1 as written:
    /// 24 per body and the multipliers, with the dual-number tangent of each body block. The
    /// joint rows are (25) summed over the steps, Phi(q_n+1) = Phi(q_0), as in
    /// [`super::step`], so that both solve the same equations. The reference that `step` is
    /// tested against, and its fallback; slower by a factor of about 10.
    /// On error nothing changes.
    ///
    /// The stages of an iteration: the residuals ([`Ctx::full_residual`]), the body blocks
    /// factored ([`Ctx::factor_bodies`]), K^-1 r, the rows' columns K^-1 B
    /// ([`Ctx::full_columns`]), the Schur complement ([`Ctx::full_schur`]), its solve for
    /// dlambda and the update delta u = -K^-1 (r + B dlambda).
    pub(super) fn step_full(
        &mut self,
        model: &Model,
        settings: &Settings,
    ) -> Result<StepInfo, StepError> {
        let c = self.c;
        let h = settings.dt;
        let nb = self.s.q.len();
        let nrows = c.rows.len();
        self.sweep(model, h);
        // Table 1: predictor u = u_n, lambda from the last step
        self.w.q1.copy_from_slice(&self.s.q);
        self.w.p1.copy_from_slice(&self.s.p);
        self.w.lambda1.copy_from_slice(&self.s.lambda);
        let mut iterations = 0u32;
        let mut trend = Trend::default();
        let mut residual;
        loop {
            residual = self.full_residual(model, h);
            if newton_converged(residual, iterations, settings.tol, settings, &mut trend)? {
                break;
            }
            self.factor_bodies(model, h)?;
            let mut rhs_b = core::mem::take(&mut self.w.r);
            for (b, rb) in rhs_b.iter_mut().enumerate() {
                lu_back(&self.w.k[b], N, &self.w.piv[b], rb); // K^-1 r
            }
            if nrows > 0 {
                self.full_columns(h);
                self.full_schur(&rhs_b);
                if !self.w.js.factor(&c.pattern) {
                    self.w.r = rhs_b;
                    return Err(StepError::Singular);
                }
                self.w.js.solve(&c.pattern, &mut self.w.rj); // now delta lambda
                for k in 0..nrows {
                    self.w.lambda1[k] += self.w.rj[k];
                    let Row { a, b: bb, .. } = c.rows[k];
                    for (side, body) in sides(a, bb) {
                        for (x, y) in rhs_b[body].iter_mut().zip(&self.w.y[k][side]) {
                            *x += y * self.w.rj[k];
                        }
                    }
                }
            }
            // delta u = -K^-1 (r + B dlambda)
            for ((q1, p1), du) in self.w.q1.iter_mut().zip(&mut self.w.p1).zip(&rhs_b) {
                for (x, d) in q1.iter_mut().zip(&du[..12]) {
                    *x -= d;
                }
                for (x, d) in p1.iter_mut().zip(&du[12..]) {
                    *x -= d;
                }
            }
            self.w.r = rhs_b;
            iterations += 1;
        }
        // the step's mean body angular velocity J^-1 (pi_n + pi_n+1) / 2, the predictor of the
        // condensed solve: into the workspace, taken after `accept` has kept the old one
        for b in 0..nb {
            let pi0 = -DVec3::from_array(g_mul(&rot_block(&self.s.q[b]), &rot_block(&self.s.p[b])));
            let pi1 =
                -DVec3::from_array(g_mul(&rot_block(&self.w.q1[b]), &rot_block(&self.w.p1[b])));
            self.w.om1[b] = (pi0 + pi1) * 0.5 * c.inv_inertia[b];
        }
        self.accept(h, true)?;
        core::mem::swap(&mut self.s.om, &mut self.w.om1);
        Ok(StepInfo {
            iterations,
            residual,
        })
    }

    /// The residuals of Table 1 at the iterate: the joint rows r_j = Phi(q_n+1) - Phi(q_0) ((25)
    /// summed) into `rj` with their gradients at q_n+1 (Newton rows) into `gnew` and at the mean
    /// (forces, (42)) into `gmean`, the force elements, and the body residuals with the current
    /// lambda into `r`. Returns the largest entry.
    fn full_residual(&mut self, model: &Model, h: f64) -> f64 {
        let c = self.c;
        for (
            k,
            &Row {
                joint: j, row: r, ..
            },
        ) in c.rows.iter().enumerate()
        {
            let (phi1, ga1, gb1) = joint_row(c, &self.w.q1, j, r, self.s.forces.t + h);
            self.w.gnew[k] = [ga1, gb1];
            self.w.rj[k] = phi1 - self.s.phi0[k]; // (25) summed: Phi(q_n+1) - Phi(q_0)
            self.w.gmean[k] = [ga1, gb1];
        }
        self.mean_gradients(model, h);
        self.element_forces(h);
        let mut residual = self.w.rj.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        for b in 0..self.s.q.len() {
            let (f0, f) = self.forces(b, model);
            let r = self.body_residual(b, model, h, &f0, &f);
            residual = r.iter().fold(residual, |m, x| m.max(x.abs()));
            self.w.r[b] = r;
        }
        residual
    }

    /// The body blocks K_b = dr_b/du_b (exact by dual numbers), LU-factored in place.
    fn factor_bodies(&mut self, model: &Model, h: f64) -> Result<(), StepError> {
        for b in 0..self.s.q.len() {
            self.tangent(b, model, h);
            if !lu_factor(&mut self.w.k[b], N, &mut self.w.piv[b]) {
                return Err(StepError::BodySingular {
                    body: b,
                    turn: crate::math::length(self.s.om[b] * h),
                });
            }
        }
        Ok(())
    }

    /// Y = K^-1 dr/dlambda for each row and side into `y`: B_b = h [0; g0; 0; P g_r] with the
    /// gradient at the mean and P the projection of (27) at the mean directors.
    fn full_columns(&mut self, h: f64) {
        let c = self.c;
        for k in 0..c.rows.len() {
            let Row { a, b: bb, .. } = c.rows[k];
            for (side, body) in sides(a, bb) {
                let g = self.w.gmean[k][side];
                let mut col = [0.0; N];
                let qb = self.mean_rot(body).to_cols_array();
                let mut gr = [0.0; 9];
                gr.copy_from_slice(&g[3..12]);
                let pg = project(&qb, &gr);
                for i in 0..3 {
                    col[12 + i] = h * g[i];
                }
                for i in 0..9 {
                    col[15 + i] = h * pg[i];
                }
                lu_back(&self.w.k[body], N, &self.w.piv[body], &mut col);
                self.w.y[k][side] = col;
            }
        }
    }

    /// The Schur complement S = sum_b E_b Y_b into `js` (cleared first) and its right-hand side
    /// r_j - sum_b E_b K_b^-1 r_b into `rj` (`rhs_b`: K^-1 r per body).
    fn full_schur(&mut self, rhs_b: &[[f64; N]]) {
        let c = self.c;
        self.w.js.clear();
        for k in 0..c.rows.len() {
            let Row {
                joint: jk,
                row: rk,
                a,
                b: bb,
            } = c.rows[k];
            let mut rhs = self.w.rj[k];
            for (side, body) in sides(a, bb) {
                let e = &self.w.gnew[k][side];
                rhs -= (0..12).map(|i| e[i] * rhs_b[body][i]).sum::<f64>();
                // S_kl += E_k,body Y_l,body for every row l acting on this body
                let kslot = c.slot[jk][side];
                for (li, inc) in c.at_body[body].iter().enumerate() {
                    let (jl, blk) = (inc.joint, c.block(body, kslot, li));
                    let ol = c.pattern.offset(jl);
                    for rl in 0..c.frames[jl].rows {
                        let l = ol + rl;
                        let Row { a: la, b: lb, .. } = c.rows[l];
                        let lside = if lb == body { 1 } else { 0 };
                        debug_assert!(lside == 1 || la == Some(body));
                        let yv = &self.w.y[l][lside];
                        let v: f64 = (0..12).map(|i| e[i] * yv[i]).sum();
                        self.w.js.add(blk, rk, rl, v);
                    }
                }
            }
            self.w.rj[k] = rhs;
        }
    }

    pub(super) fn body_residual(
        &self,
        b: usize,
        model: &Model,
        h: f64,
        f0: &[f64; 3],
        f: &V9<f64>,
    ) -> [f64; N] {
        let c = self.c;
        let m = model.bodies[b].mass;
        let (q, p, q1, p1) = (&self.s.q[b], &self.s.p[b], &self.w.q1[b], &self.w.p1[b]);
        let mut r = [0.0; N];
        for i in 0..3 {
            r[i] = q1[i] - q[i] - h * 0.5 * (p[i] + p1[i]) / m;
            r[12 + i] = p1[i] - p[i] + h * f0[i];
        }
        let (qn, pn) = (rot_block(q), rot_block(p));
        let bn = g_mul(&qn, &pn);
        let rr = rot_residual::<f64>(
            h,
            c.inv_inertia[b].to_array(),
            &qn,
            &pn,
            bn,
            &rot_block(q1),
            &rot_block(p1),
            f,
        );
        r[3..12].copy_from_slice(&rr[..9]);
        r[15..24].copy_from_slice(&rr[9..18]);
        r
    }

    /// The exact 24 x 24 block dr/du of body `b` into `self.w.k[b]` (row-major).
    pub(super) fn tangent(&mut self, b: usize, model: &Model, h: f64) {
        let c = self.c;
        let m = model.bodies[b].mass;
        let kb = &mut self.w.k[b];
        kb.fill(0.0);
        for i in 0..3 {
            kb[i * N + i] = 1.0; // dr_q0 / dq0
            kb[i * N + 12 + i] = -0.5 * h / m; // dr_q0 / dp0
            kb[(12 + i) * N + 12 + i] = 1.0; // dr_p0 / dp0
        }
        let (qn, pn) = (rot_block(&self.s.q[b]), rot_block(&self.s.p[b]));
        let bn = g_mul(&qn, &pn);
        let f = self.force_rotational(b);
        let q1 = rot_block(&self.w.q1[b]).map(Dual::c);
        let p1 = rot_block(&self.w.p1[b]).map(Dual::c);
        let kb = &mut self.w.k[b];
        for u in 0..18 {
            let (mut qd, mut pd) = (q1, p1);
            if u < 9 {
                qd[u].d = 1.0;
            } else {
                pd[u - 9].d = 1.0;
            }
            let rr =
                rot_residual::<Dual>(h, c.inv_inertia[b].to_array(), &qn, &pn, bn, &qd, &pd, &f);
            let col = if u < 9 { 3 + u } else { 15 + (u - 9) };
            for i in 0..9 {
                kb[(3 + i) * N + col] = rr[i].d;
                kb[(15 + i) * N + col] = rr[9 + i].d;
            }
        }
    }
}
