//! The condensed Newton solve of the director step ([`super::step`]): Newton on 3 unknowns per
//! body, the mean body angular velocity Omega (= -w of (23)), and the multipliers lambda.
//!
//! ```text
//! (23)  Q_n+1 = Q_n (I + h/2 Omega^)(I - h/2 Omega^)^-1 = Q_n R,   R = 2A - I,
//!       A = (I - h/2 Omega^)^-1;   x_n+1 = x_n + h (p0_n + p0_n+1) / 2M
//! (27)  p0_n+1 = p0_n - h (dV*/dq0 + dPhi*/dq0^T lambda)
//! (27)-(28)  P_n+1 = P_n R - h (F - Qbar Y) A,  Y symmetric from C(q_n+1) p_n+1 = C(q_n) p_n
//! Newton on:  Res = 2 J Omega - pi_n - pi_n+1 = 0,  pi = 2 vec(skew(Q^T P))   (3 per body)
//!             Phi(q_n+1) - Phi(q_0) = 0                                       ((25) summed)
//! tangent:    K = dRes/dOmega per body (3 x 3), and the joint-space Schur complement
//!             S_kl = -sum_b (h^2 / 2M) e0_k . g0_l - d_k . K^-1 c_l
//! contact, joint limits (their stiffness K_x, K_r per body, `contact/discrete.rs`):
//!             K += h^2 Q^T K_r Q, and the centre by Newton on its momentum,
//!             p0_n+1 <- p0_n+1 - (I + h^2 K_x / 2M)^-1 (p0_n+1 - p0_n + h dV*/dq0)
//! ```
//! For given Omega and lambda the rest of the step is linear and solved exactly; a converged
//! step is judged on the residual of (23)-(28) as written (`full.rs`, `body_residual`).
use super::algebra::{c_mul, g_mul, V9};
use super::{joint_row_into, mat, outer, rot_block, sides, Ctx};
use crate::compiled::{Row, RowSpec};
use crate::math::{skew, skew_vec};
use crate::model::Model;
use crate::sparse::B;
use crate::step::{newton_converged, Settings, StepError, StepInfo};
use glam::{DMat3, DVec3};

/// A Newton iteration keeps the tangent of the one before (K^-1, the row factors, the factored
/// Schur complement: a simplified Newton iteration, about half the cost of a full one) when
/// the residual is within this factor of the tolerance and the iteration before took a fresh
/// tangent. Near the solution the tangent hardly changes, and one simplified iteration cuts a
/// residual of a few tolerances below the tolerance: the cubic predictor leaves most steps of
/// the small chains there after one full iteration (nk-revolute: 1.2e-12 against 1e-12).
/// Farther away the simplified iteration contracts too little to pay (a 256-link chain after
/// one full iteration: 1.5e-10, and a simplified one only gains a factor of 15 there, the
/// tangent moving with the multipliers), and at most one simplified iteration follows a full
/// one, so no step takes more full iterations than before. The step is judged on the residual
/// as before, never on the tangent: the converged step solves the same equations to the same
/// tolerance.
const REUSE: f64 = 1e2;

impl Ctx<'_> {
    /// The condensed solve of [`super::step`] alone, without the tolerance floor and the
    /// fallback (for tests of its convergence).
    pub(super) fn step_condensed(
        &mut self,
        model: &Model,
        settings: &Settings,
    ) -> Result<StepInfo, StepError> {
        let c = self.c;
        let h = settings.dt;
        let nb = self.s.q.len();
        let nrows = c.rows.len();
        self.sweep(model, h);
        // predictor: Omega and lambda (means over a step) extrapolated from the last four steps
        // by a cubic, an error of O(h^4) instead of the O(h) of the last step's values (from the
        // last three by a quadratic until four steps of this h are known). On nk-revolute at
        // h = 0.01 the cubic leaves a residual of about 1e-6 where the quadratic left 5e-6, so
        // that one Newton iteration takes it to about the tolerance (1e-12) instead of 1e-11
        // (see `REUSE`). Only while the steps are in Newton's fast range (the last one took at
        // most 3 iterations, the last four had this h): at large steps (nk-spherical at h =
        // 0.1, 0.5 rad a step) extrapolation overshoots, and Newton needs more iterations and
        // more fallbacks (linear extrapolation there: 8.3 iterations a step and 23 fallbacks in
        // 300 steps, against 6.6 and 9 from the last values alone). Otherwise the last values.
        if self.s.same_h >= 4 && h == self.s.last_h && !self.s.slow {
            let [o1, o2, o3] = &self.s.om_prev;
            for b in 0..nb {
                self.w.om1[b] = 4.0 * (self.s.om[b] + o2[b]) - 6.0 * o1[b] - o3[b];
            }
            let [l1, l2, l3] = &self.s.lambda_prev;
            for k in 0..nrows {
                self.w.lambda1[k] = 4.0 * (self.s.lambda[k] + l2[k]) - 6.0 * l1[k] - l3[k];
            }
        } else if self.s.same_h >= 3 && h == self.s.last_h && !self.s.slow {
            let [o1, o2, _] = &self.s.om_prev;
            for b in 0..nb {
                self.w.om1[b] = 3.0 * (self.s.om[b] - o1[b]) + o2[b];
            }
            let [l1, l2, _] = &self.s.lambda_prev;
            for k in 0..nrows {
                self.w.lambda1[k] = 3.0 * (self.s.lambda[k] - l1[k]) + l2[k];
            }
        } else {
            self.w.lambda1.copy_from_slice(&self.s.lambda);
            self.w.om1.copy_from_slice(&self.s.om);
        }
        for b in 0..nb {
            self.w.pin[b] =
                -DVec3::from_array(g_mul(&rot_block(&self.s.q[b]), &rot_block(&self.s.p[b])));
        }
        let mut iterations = 0u32;
        let mut residual;
        let mut last_fresh = true;
        // stiff spring-dampers as rows of Newton (`springs.rs`)
        let nsp = if !model.has_elements() {
            0
        } else {
            self.spring_rows_select(model, h)
        };
        // a stiff element's force carries the round-off of the positions times F', and the
        // momentum residual h times that: the tolerance is held above it (`springs.rs`)
        let floor = self.spring_rows_floor(h).max(self.contact_floor(h));
        let settings = &Settings {
            tol: settings.tol.max(floor),
            ..*settings
        };
        loop {
            // directors at n+1 from Omega: the Cayley transform, (23) exactly
            for b in 0..nb {
                let a = self.w.om1[b] * (0.5 * h);
                let amat = (DMat3::IDENTITY + skew(a) + outer(a, a)) * (1.0 / (1.0 + a.dot(a)));
                let q1 = mat(&self.s.q[b]) * (amat * 2.0 - DMat3::IDENTITY);
                q1.write_cols_to_slice(&mut self.w.q1[b][3..12]);
                self.w.amat[b] = amat;
            }
            // the force elements at the iterate (a fixed point within Newton, `forces.rs`); on
            // the first iteration the centres are predicted by a drift, x_n + h p0_n / M
            if model.has_elements() {
                if iterations == 0 {
                    for b in 0..nb {
                        let m = model.bodies[b].mass;
                        for i in 0..3 {
                            self.w.q1[b][i] = self.s.q[b][i] + h * self.s.p[b][i] / m;
                        }
                    }
                }
                self.element_forces(h);
                if nsp > 0 {
                    self.spring_rows_force(h, iterations == 0);
                }
            }
            // centres at n+1, (23) and (27): the translational gradients are constant, so the
            // gradients of the last evaluation (or of `new`) give the translational forces; a
            // sliding joint's rows turn with body a, and take those of the last iterate (a lag
            // the iteration removes: the step is judged on the residual with the current ones)
            let stiff = self.stiff_elements();
            // contacts between bodies and no joint rows: the centres' Newton step on all bodies
            // at once (with joint rows the Schur complement below takes each body's centre
            // update as the body-by-body one, and stays so)
            let coupled = stiff && !self.w.couple.is_empty() && nrows == 0 && nsp == 0;
            if coupled {
                self.translate_coupled(model, h, iterations == 0); // (`coupled.rs`)
            }
            for b in 0..nb {
                if coupled {
                    let m = model.bodies[b].mass;
                    for i in 0..3 {
                        self.w.q1[b][i] =
                            self.s.q[b][i] + h * 0.5 * (self.s.p[b][i] + self.w.p1[b][i]) / m;
                    }
                    continue;
                }
                let f0 = self.force_translational(b, model);
                let m = model.bodies[b].mass;
                if stiff && self.w.stiff[b].x != DMat3::ZERO {
                    // Newton on the momentum, r(p1) = p1 - p_n + h f0(x1(p1)) with
                    // x1 = x_n + h (p_n + p1) / 2M and the contacts' stiffness K:
                    // p1 <- p1 - (I + h^2 K / 2M)^-1 r (the plain update below is its fixed
                    // point, which a stiff contact makes diverge). In the momentum, not the
                    // position: p1 from x1 would carry x1's round-off times 2M/h (1e-12 N s at
                    // h = 2e-4, and Newton stalled there)
                    let pn = DVec3::new(self.s.p[b][0], self.s.p[b][1], self.s.p[b][2]);
                    let p1 = if iterations == 0 {
                        pn // the drift's prediction above
                    } else {
                        DVec3::new(self.w.p1[b][0], self.w.p1[b][1], self.w.p1[b][2])
                    };
                    let r = p1 - pn + DVec3::from_array(f0) * h;
                    let a = DMat3::IDENTITY + self.w.stiff[b].x * (0.5 * h * h / m);
                    let p1 = p1 - a.inverse() * r;
                    self.w.p1[b][0..3].copy_from_slice(&p1.to_array());
                } else {
                    for i in 0..3 {
                        self.w.p1[b][i] = self.s.p[b][i] - h * f0[i];
                    }
                }
                for i in 0..3 {
                    self.w.q1[b][i] =
                        self.s.q[b][i] + h * 0.5 * (self.s.p[b][i] + self.w.p1[b][i]) / m;
                }
            }
            // joints at q_n+1: (25) summed over the steps, Phi(q_n+1) = Phi(q_0), so that the
            // residuals the tolerance accepts do not add up from step to step; gradients at
            // q_n+1 (Newton rows) and at the mean (forces, (42))
            residual = 0.0f64;
            for (
                k,
                &Row {
                    joint: j, row: r, ..
                },
            ) in c.rows.iter().enumerate()
            {
                let phi = joint_row_into(
                    c,
                    &self.w.q1,
                    j,
                    r,
                    &mut self.w.gnew[k],
                    self.s.forces.t + h,
                );
                self.w.rj[k] = phi - self.s.phi0[k];
                residual = residual.max(self.w.rj[k].abs());
            }
            if nsp > 0 {
                residual = residual.max(self.spring_rows_residual(h));
            }
            // gmean: the spherical rows' gradients are constant (set by `Workspace::new`), the
            // revolute rows' are those at the mean
            self.mean_gradients(model, h);
            // rotational momenta at n+1, (27)-(28), and the residual of the condensed
            // equations: the joint rows and Res = 2 J Omega - pi_n - pi_n+1
            for b in 0..nb {
                let f = self.force_rotational(b);
                self.w.frot[b] = DMat3::from_cols_array(&f);
                let p1 = self.rot_momenta(b, h, &f);
                p1.write_cols_to_slice(&mut self.w.p1[b][3..12]);
                let pi1 = 2.0 * skew_vec(&(mat(&self.w.q1[b]).transpose() * p1));
                self.w.resw[b] =
                    2.0 * model.bodies[b].inertia * self.w.om1[b] - self.w.pin[b] - pi1;
                // in the units of (23): Res / 2J is the error in Omega, times h in the directors
                let kin = self.w.resw[b] * c.inv_inertia[b] * (0.5 * h);
                residual = kin.abs().max_element().max(residual);
            }
            // once those are below the tolerance (or not finite), the step is judged on the
            // residual of (23)-(28) as written, so that a converged step is the paper's step
            if !(residual > settings.tol) {
                // the elements at the final iterate: a step is only accepted with them
                self.element_forces(h);
                for b in 0..nb {
                    let f0 = self.force_translational(b, model);
                    // the rotational forces of this final iterate: the elements' changed with
                    // the evaluation just made (a stale one let a contact step through with a
                    // 3e-7 J error); without elements they are those of the loop
                    let f = if model.has_elements() {
                        self.force_rotational(b)
                    } else {
                        self.w.frot[b].to_cols_array()
                    };
                    let r = self.body_residual(b, model, h, &f0, &f);
                    residual = r.iter().fold(residual, |m, x| m.max(x.abs()));
                }
            }
            if newton_converged(residual, iterations, settings.tol, settings)? {
                break;
            }
            // the tangent (K^-1, the row factors, the factored Schur complement) of the last
            // iteration is used again while Newton converges fast: see `REUSE`
            let fresh = iterations == 0 || !last_fresh || residual > REUSE * settings.tol;
            last_fresh = fresh;
            // per body: K = dRes/dOmega, inverted
            for b in 0..nb {
                if fresh {
                    let mut k = self.omega_tangent(b, model, h);
                    if stiff {
                        // the contacts' torques stiffen the rotation: dRes/dOmega gains
                        // h^2 Q^T K_r Q (a turn h dOmega moves an arm a by h dOmega x a)
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
            if nrows > 0 && fresh {
                // per row and side: y = K^-1 dRes/dlambda, d = dPhi/dOmega. Every joint
                // gradient's rotational part is a rank-one matrix G = u w^T (world u, body w),
                // and 2 vec(skew(a b^T)) = b x a, so
                // dRes/dlambda = 2h vec(skew(Q_n+1^T G A)) = h (A^T w) x (Q_n+1^T u) with G
                // at the mean, and d = 2h vec(skew(Qbar^T G A^T)) = h (A w) x (Qbar^T u) with
                // G at q_n+1
                for k in 0..nrows {
                    let Row { a, b: bb, .. } = c.rows[k];
                    let general = c.frames[c.rows[k].joint].spec[c.rows[k].row].is_general();
                    for (side, b) in sides(a, bb) {
                        let amat = self.w.amat[b];
                        if general {
                            // a sliding joint's row: its rotational gradient on side a is of
                            // rank two, so the general forms (the debug check below)
                            let (gm, gn) = (self.w.gmean[k][side], self.w.gnew[k][side]);
                            (self.w.cy[k][side], self.w.dk[k][side]) =
                                self.general_factors(b, &gm, &gn, h);
                            continue;
                        }
                        let ((un, wn), (um, wm)) = self.row_factors(model, k, side, h);
                        let c =
                            h * (amat.transpose() * wm).cross(mat(&self.w.q1[b]).transpose() * um);
                        let qbar = self.w.qna[b]; // Q_n A
                        let d = h * (amat * wn).cross(qbar.transpose() * un);
                        debug_assert!({
                            let g = mat(&self.w.gmean[k][side]);
                            let e = mat(&self.w.gnew[k][side]);
                            let c2 =
                                2.0 * h * skew_vec(&(mat(&self.w.q1[b]).transpose() * g * amat));
                            let d2 = 2.0 * h * skew_vec(&(qbar.transpose() * e * amat.transpose()));
                            (c - c2).length() <= 1e-12 * (1.0 + c2.length())
                                && (d - d2).length() <= 1e-12 * (1.0 + d2.length())
                        });
                        self.w.cy[k][side] = self.w.kinv[b] * c;
                        self.w.dk[k][side] = d;
                    }
                }
                // every block gets one contribution per body its two joints share: one, or two
                // for a diagonal block of a joint between two bodies (side a first); the first
                // is stored as 0 + value, the same bits as adding it to a cleared matrix
                for (jk, jt) in c.frames.iter().enumerate() {
                    let ok = c.pattern.offset(jk);
                    for (side, b) in sides(jt.a, jt.b) {
                        let t = -h * h * 0.5 / model.bodies[b].mass;
                        let kslot = c.slot[jk][side];
                        for (li, inc) in c.at_body[b].iter().enumerate() {
                            let jl = inc.joint;
                            let ol = c.pattern.offset(jl);
                            let lside = usize::from(inc.is_b);
                            let mut blk = [0.0; B * B];
                            let cy = &self.w.cy[ol..ol + c.frames[jl].rows];
                            for (row, d) in
                                blk.chunks_exact_mut(B).zip(&self.w.dk[ok..ok + jt.rows])
                            {
                                for (x, y) in row.iter_mut().zip(cy) {
                                    *x = -d[side].dot(y[lside]);
                                }
                            }
                            // t e0_k . g0_l: the translational gradients are +-e_r on the three
                            // position rows (35) and zero on the dot rows, so only the diagonal
                            // of the position rows is not zero; a sliding joint's rows have
                            // others, and take the general products
                            if jt.general || c.frames[jl].general {
                                for rk in 0..jt.rows {
                                    let e0 = &self.w.gnew[ok + rk][side];
                                    for rl in 0..c.frames[jl].rows {
                                        let g0 = &self.w.gmean[ol + rl][lside];
                                        blk[rk * B + rl] +=
                                            t * (e0[0] * g0[0] + e0[1] * g0[1] + e0[2] * g0[2]);
                                    }
                                }
                            } else {
                                for r in 0..3 {
                                    let (e0, g0) =
                                        (&self.w.gnew[ok + r][side], &self.w.gmean[ol + r][lside]);
                                    debug_assert!((0..c.frames[jl].rows).all(|rl| {
                                        let g = &self.w.gmean[ol + rl][lside];
                                        let dot = e0[0] * g[0] + e0[1] * g[1] + e0[2] * g[2];
                                        dot == if rl == r { e0[r] * g0[r] } else { 0.0 }
                                    }));
                                    blk[r * B + r] += t * e0[r] * g0[r];
                                }
                            }
                            // the first of the contributions to block (jk, jl) is body a's
                            // when joint jl acts on a too: a diagonal block of a joint between
                            // two bodies, or two joints between the same two bodies (a loop;
                            // `jl != jk` alone let body b's overwrite body a's there, and every
                            // step of such a system fell back to `step_full`)
                            let first = side == 0
                                || jt
                                    .a
                                    .is_none_or(|a| c.at_body[a].iter().all(|i| i.joint != jl));
                            self.w.js.add_block(c.block(b, kslot, li), &blk, first);
                        }
                    }
                }
                if !self.w.js.factor(&c.pattern) {
                    return Err(StepError::Singular);
                }
            }
            if nsp > 0 && fresh && !self.spring_rows_tangent(model, h) {
                return Err(StepError::Singular);
            }
            if nrows > 0 || nsp > 0 {
                // S dlambda = -rho + sum_b d . K^-1 Res,
                // S_kl = -sum_b (h^2 / 2M) e0_k . g0_l - d_k . y_l  (bodies shared by k and l)
                for k in 0..nrows {
                    let Row { a, b: bb, .. } = c.rows[k];
                    let mut rhs = -self.w.rj[k];
                    for (side, b) in sides(a, bb) {
                        rhs += self.w.dk[k][side].dot(self.w.kres[b]);
                    }
                    self.w.rj[k] = rhs;
                }
                if nsp > 0 {
                    // the spring rows as a border of the joint rows (`springs.rs`)
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
            for b in 0..nb {
                self.w.om1[b] -= self.w.kres[b]; // dOmega = -K^-1 (Res + dRes/dlambda dlambda)
            }
            iterations += 1;
        }
        self.accept(h, iterations > 3)?;
        core::mem::swap(&mut self.s.om, &mut self.w.om1);
        Ok(StepInfo {
            iterations,
            residual,
        })
    }

    /// The contacts' share of the tolerance floor, as `spring_rows_floor`'s for stiff springs:
    /// a contact's force carries the positions' round-off times its stiffness (the last step's,
    /// `contact/discrete.rs`, with the damping's c phi' / h), and the momentum residual h times
    /// that. Seen without it: a box sliding 5 m down an incline stalled at 1.7e-12.
    fn contact_floor(&self, h: f64) -> f64 {
        if !self.stiff_elements() {
            return 0.0;
        }
        let mut floor = 0.0f64;
        for (q, st) in self.s.q.iter().zip(&self.w.stiff) {
            let x = q[0].abs().max(q[1].abs()).max(q[2].abs()).max(1.0);
            let k =
                st.x.x_axis
                    .abs()
                    .max(st.x.y_axis.abs())
                    .max(st.x.z_axis.abs());
            floor = floor.max(4.0 * f64::EPSILON * h * k.element_sum() * x);
        }
        floor
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
            RowSpec::Perp(_) | RowSpec::Slide(..) | RowSpec::Dist(..) => {
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

    /// Rotational momenta at n+1 for the directors in `self.w.q1[b]`: (27) with gamma_0 (28),
    /// P_n+1 = P_n R - h (F - Qbar Y) A, R = 2A - I, Y symmetric from the six linear equations
    /// C(q_n+1) p_n+1 = C(q_n) p_n.
    ///
    /// Those equations are solved in closed form. With Q_n+1 = Q_n R and Qbar = Q_n A,
    /// Q_n+1^T Qbar = R^T A = A^T for orthonormal Q_n: with A = (I - a^)^-1, a = h Omega / 2,
    /// A^T = (I + a^)^-1, and polynomials in a^ commute, so
    /// R^T A = 2 A^T A - A = A^T A (2I - (I + a^)) = A^T A A^-1 = A^T. Hence
    /// C(q_n+1) (h Qbar Y A) = h Cvec(A^T Y A), Cvec(S) = [S11, S22, S33, 2 S23, 2 S13, 2 S12]
    /// (eq. 5). With S = A^T Y A read off C(q_n) p_n - C(q_n+1) P_free, Y = A^-T S A^-1 and
    /// h Qbar Y A = Qbar A^-T (h S), A^-T = I + a^: no 6 x 6 solve. Q_n is orthonormal to
    /// round-off only (the Cayley transform keeps it there), so the result is corrected once
    /// on its own residual; the step is judged on (23)-(28) as written all the same
    /// (`body_residual`).
    pub(super) fn rot_momenta(&self, b: usize, h: f64, f: &V9<f64>) -> DMat3 {
        let pn = mat(&self.s.p[b]);
        let amat = self.w.amat[b];
        let qbar = self.mean_rot(b); // (qn + q1) / 2 = Q_n A
        let free = pn * (amat * 2.0 - DMat3::IDENTITY) - DMat3::from_cols_array(f) * amat * h;
        let cn = c_mul(&rot_block(&self.s.q[b]), &rot_block(&self.s.p[b]));
        let q1 = rot_block(&self.w.q1[b]);
        // Qbar A^-T: the correction h Qbar Y A for a right-hand side y of the six equations
        let qa = qbar * (DMat3::IDENTITY + skew(self.w.om1[b] * (0.5 * h)));
        let correction = |p: &DMat3| {
            let c = c_mul(&q1, &p.to_cols_array());
            let y: [f64; 6] = core::array::from_fn(|i| cn[i] - c[i]);
            // h S, symmetric: the diagonal from y0..y2, the off-diagonal halves of y3..y5
            let hs = DMat3::from_cols_array(&[
                y[0],
                0.5 * y[5],
                0.5 * y[4],
                0.5 * y[5],
                y[1],
                0.5 * y[3],
                0.5 * y[4],
                0.5 * y[3],
                y[2],
            ]);
            qa * hs
        };
        // Q_n^T Q_n = I holds to round-off only, so the closed form leaves an error of that
        // relative size in the six equations; left alone it would add up from step to step
        // (C(q) p grows linearly). One more correction on the residual makes it second order.
        let p1 = free + correction(&free);
        p1 + correction(&p1)
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
