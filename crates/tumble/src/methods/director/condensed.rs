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
//! contact, joint limits (their stiffness K_x, K_r per body, `director/stiffness.rs`):
//!             K += h^2 Q^T K_r Q, and the centre by Newton on its momentum,
//!             p0_n+1 <- p0_n+1 - (I + h^2 K_x / 2M)^-1 (p0_n+1 - p0_n + h dV*/dq0)
//! ```
//! For given Omega and lambda the rest of the step is linear and solved exactly; a converged
//! step is judged on the residual of (23)-(28) as written (`full.rs`, `body_residual`).
//!
//! The step reads as its stages: [`Ctx::predict`] (Omega, lambda from the last steps), then per
//! Newton iteration [`Ctx::cayley_directors`] (23), [`Ctx::iterate_elements`], [`Ctx::centres`]
//! (23), (27), [`Ctx::joint_residuals`] (25), [`Ctx::rotational_residual`] (27)-(28), and, once
//! those are within the tolerance, [`Ctx::final_residual`] (23)-(28) as written; then the
//! tangent and the Newton update (`tangent.rs`: K^-1 per body, the Schur complement, the
//! multipliers' increment).
use super::algebra::{c_mul, g_mul, V9};
use super::rows::joint_row_into;
use super::{mat, outer, rot_block, Ctx};
use crate::math::{skew, skew_vec};
use crate::model::Model;
use crate::step::{newton_converged, Settings, StepError, StepInfo, Trend};
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

/// The extrapolation of degree 3, 4, 5 through equally spaced values, newest first:
/// (-1)^i C(d + 1, i + 1) (`Ctx::extrapolate_multipliers`).
const EXTRAPOLATE: [[f64; 6]; 3] = [
    [4.0, -6.0, 4.0, -1.0, 0.0, 0.0],
    [5.0, -10.0, 10.0, -5.0, 1.0, 0.0],
    [6.0, -15.0, 20.0, -15.0, 6.0, -1.0],
];

impl Ctx<'_> {
    /// The condensed solve of [`super::step`] alone, without the tolerance floor and the
    /// fallback (for tests of its convergence).
    // `!(residual > tol)` on purpose: a residual that is not finite is judged too
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    pub(super) fn step_condensed(
        &mut self,
        model: &Model,
        settings: &Settings,
    ) -> Result<StepInfo, StepError> {
        let h = settings.dt;
        let nrows = self.c.rows.len();
        self.sweep(model, h);
        self.momenta_n(); // pi_n: before the predictor, whose correction of Omega takes it
        self.predict(model, h);
        let mut iterations = 0u32;
        let mut trend = Trend::default();
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
            let first = iterations == 0;
            self.cayley_directors(h);
            if model.has_elements() {
                self.iterate_elements(model, h, first, nsp);
            }
            let stiff = self.stiff_elements();
            self.centres(model, h, first, stiff, nsp);
            residual = self.joint_residuals(h, nsp);
            // gmean: the spherical rows' gradients are constant (set by `Workspace::new`), the
            // revolute rows' are those at the mean
            self.mean_gradients(model, h);
            residual = self.rotational_residual(model, h, residual);
            // once those are below the tolerance (or not finite), the step is judged on the
            // residual of (23)-(28) as written, so that a converged step is the paper's step
            if !(residual > settings.tol) {
                residual = self.final_residual(model, h, residual);
            }
            if newton_converged(residual, iterations, settings.tol, settings, &mut trend)? {
                break;
            }
            // the tangent (K^-1, the row factors, the factored Schur complement) of the last
            // iteration is used again while Newton converges fast: see `REUSE`
            let fresh = iterations == 0 || !last_fresh || residual > REUSE * settings.tol;
            last_fresh = fresh;
            self.body_tangents(model, h, fresh, stiff)?;
            if nrows > 0 && fresh {
                self.row_tangents(model, h);
                self.cross_tangents(h, nsp > 0);
                self.assemble_schur(model, h);
                if !self.w.js.factor(&self.c.pattern) {
                    return Err(StepError::Singular);
                }
            }
            if nsp > 0 && fresh && !self.spring_rows_tangent(model, h) {
                return Err(StepError::Singular);
            }
            if nrows > 0 || nsp > 0 {
                self.solve_multipliers(nsp);
                self.cross_correct(h, settings.tol);
            }
            for b in 0..self.s.q.len() {
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

    /// The predictor: Omega and lambda (means over a step) extrapolated from the last steps,
    /// errors of O(h^4) and more instead of the O(h) of the last step's values. Only while the
    /// steps are in Newton's fast range (the last one took at most 3 iterations, the last ones
    /// had this h): at large steps (nk-spherical at h = 0.1, 0.5 rad a step) extrapolation
    /// overshoots, and Newton needs more iterations and more fallbacks (linear extrapolation
    /// there: 8.3 iterations a step and 23 fallbacks in 300 steps, against 6.6 and 9 from the
    /// last values alone). Otherwise the last values.
    ///
    /// Omega by the cubic through the last four means (a quadratic through three until four
    /// are known). With joint rows, and neither force elements nor drives, once five steps of
    /// this h are known: lambda by the degree that predicted the last step best
    /// (`extrapolate_multipliers`), then Omega corrected from the rotational momentum balance
    /// (`balance_omega`); otherwise lambda by the cubic (the quadratic) too. On nk-revolute at
    /// h = 0.01 the cubics leave a residual of about 7e-6, on the 16-, 64- and 256-link chains
    /// 1.0e-6, 4.7e-6 and 1.8e-5 (median of the max-norm over 1000 steps), and one Newton
    /// iteration takes 1e-6 to about the tolerance (1e-12, see `REUSE`); the corrected
    /// predictor leaves 8e-6, 5e-8, 4e-7 and 6e-6 (see `balance_omega`), and the iterations a
    /// step go 1.77 -> 1.70, 1.50 -> 1.03, 2.00 -> 1.42, 2.00 -> 2.04 (256 links: the first
    /// iteration leaves 5e-11 instead of 2e-10, so the second is a simplified one).
    fn predict(&mut self, model: &Model, h: f64) {
        let nb = self.s.q.len();
        let nrows = self.c.rows.len();
        let smooth = h == self.s.last_h && !self.s.slow;
        // the correction of Omega (`balance_omega`) with joint rows, and neither force
        // elements (their forces at the iterate are not known before the loop) nor drives
        // (kapitza: the same iterations a step, and a drive's work, lambda times the drive's
        // increment, carries the multipliers' error where Newton stops: its balance 3.5e-14 ->
        // 9.6e-12 of the energy with the correction)
        let balance = nrows > 0 && !model.has_elements() && model.drives.is_empty();
        if smooth && self.s.same_h >= 4 {
            let [o1, o2, o3] = &self.s.om_prev;
            for b in 0..nb {
                self.w.om1[b] = 4.0 * (self.s.om[b] + o2[b]) - 6.0 * o1[b] - o3[b];
            }
            if balance && self.s.same_h >= 5 {
                // with the correction the multipliers' error is the one that counts
                self.extrapolate_multipliers();
                self.balance_omega(model, h);
            } else {
                let [l1, l2, l3, ..] = &self.s.lambda_prev;
                for k in 0..nrows {
                    self.w.lambda1[k] = 4.0 * (self.s.lambda[k] + l2[k]) - 6.0 * l1[k] - l3[k];
                }
            }
        } else if self.s.same_h >= 3 && smooth {
            let [o1, o2, _] = &self.s.om_prev;
            for b in 0..nb {
                self.w.om1[b] = 3.0 * (self.s.om[b] - o1[b]) + o2[b];
            }
            let [l1, l2, ..] = &self.s.lambda_prev;
            for k in 0..nrows {
                self.w.lambda1[k] = 3.0 * (self.s.lambda[k] - l1[k]) + l2[k];
            }
        } else {
            self.w.lambda1.copy_from_slice(&self.s.lambda);
            self.w.om1.copy_from_slice(&self.s.om);
        }
    }

    /// The multipliers extrapolated by a polynomial of degree 3, 4 or 5 through the last 4, 5
    /// or 6 steps' values, the degree the one that would have predicted the last step's
    /// multipliers best (max-norm over the rows; the degrees that have the steps for it).
    /// The long chains' multipliers are smooth and take the high degrees, nk-revolute's swing
    /// fast and take the cubic. Measured with an earlier form of Omega's extrapolation, iterations
    /// a step with a fixed cubic / quintic / this choice: 16 links 1.20 / 1.01 / 1.03,
    /// nk-revolute 1.75 / 1.79 / 1.70. With a fixed quartic nk-revolute's 1000 s run (its
    /// predictor's residual doubled) ended at 1.15e-10 of the energy, over the bound of
    /// `tests/tests/study.rs` (1e-10; main 6.8e-11); with this choice 2.0e-12 (a chaotic
    /// system: where its random walk of stopping errors ends moved tenfold between variants).
    fn extrapolate_multipliers(&mut self) {
        let l = &self.s.lambda_prev;
        let hist = [&self.s.lambda, &l[0], &l[1], &l[2], &l[3], &l[4], &l[5]];
        // newest first; extrapolating through values y_0, y_1, .. y_d: sum (-1)^i C(d+1, i+1) y_i
        let ex = |d: usize, from: usize, k: usize| -> f64 {
            EXTRAPOLATE[d - 3][..=d]
                .iter()
                .zip(&hist[from..])
                .map(|(c, y)| c * y[k])
                .sum()
        };
        let (mut best, mut degree) = (f64::INFINITY, 3);
        for d in 3..=5 {
            if self.s.same_h as usize >= d + 2 {
                let err = (0..self.c.rows.len())
                    .map(|k| (ex(d, 1, k) - hist[0][k]).abs())
                    .fold(0.0, f64::max);
                if err < best {
                    (best, degree) = (err, d);
                }
            }
        }
        for k in 0..self.c.rows.len() {
            self.w.lambda1[k] = ex(degree, 0, k);
        }
    }

    /// The predictor's correction of Omega from the rotational momentum balance: with the
    /// predicted multipliers held, one fixed-point step of Res = 2 J Omega - pi_n - pi_n+1 = 0
    /// per body, Omega <- (pi_n + pi_n+1(Omega, lambda)) / 2J. pi_n+1 moves with Omega only
    /// through terms of order h (the gyroscopic h (J Omega)^, the forces' turn with the mean
    /// directors), so this takes the extrapolated Omega's error down by about that factor and
    /// leaves Omega as accurate as the multipliers, which extrapolate better (they are the
    /// accelerations: their error reaches Omega times h). One residual evaluation without the
    /// centres, the joint rows and the constraint's part of (27)-(28); a second gains nothing
    /// (the joint rows' residual is then what is left). A body spinning fast for its step
    /// keeps the extrapolation: the step contracts by h |Omega| J_max / 2 J_min at most, held
    /// to 1/2 (a fast top would otherwise be thrown off). The centres are not updated here (the
    /// torques do not take them, but for sliding and distance rows' mean gradients, which take
    /// those of the last step: a lag that only weakens the correction, never the solution).
    /// Nothing here is judged: the step is Newton's from this start, on the same residual.
    fn balance_omega(&mut self, model: &Model, h: f64) {
        self.cayley_directors(h);
        self.mean_gradients(model, h);
        for (b, body) in model.bodies.iter().enumerate() {
            let j = body.inertia;
            if h * self.w.om1[b].length() * j.max_element() > j.min_element() {
                continue;
            }
            // pi_n+1 from the free part of (27) alone: the constraint's correction
            // h Qbar A^-T S (`rot_momenta`) adds Q_n+1^T Qbar A^-T h S = h S, symmetric, to
            // Q_n+1^T P_n+1, so nothing to its skew part (to round-off)
            let amat = self.w.amat[b];
            let f = DMat3::from_cols_array(&self.force_rotational(b));
            let free = mat(&self.s.p[b]) * (amat * 2.0 - DMat3::IDENTITY) - f * amat * h;
            let pi1 = 2.0 * skew_vec(&(mat(&self.w.q1[b]).transpose() * free));
            let res = 2.0 * j * self.w.om1[b] - self.w.pin[b] - pi1;
            self.w.om1[b] -= res * self.c.inv_inertia[b] * 0.5;
        }
    }

    /// pi_n = 2 vec(skew(Q_n^T P_n)) per body, as -G(q_n) p_n: the start's term of Res.
    fn momenta_n(&mut self) {
        for b in 0..self.s.q.len() {
            self.w.pin[b] =
                -DVec3::from_array(g_mul(&rot_block(&self.s.q[b]), &rot_block(&self.s.p[b])));
        }
    }

    /// The directors at n+1 from Omega: the Cayley transform, (23) exactly,
    /// Q_n+1 = Q_n (2A - I), A = (I - h/2 Omega^)^-1; keeps A per body.
    fn cayley_directors(&mut self, h: f64) {
        for b in 0..self.s.q.len() {
            let a = self.w.om1[b] * (0.5 * h);
            let amat = (DMat3::IDENTITY + skew(a) + outer(a, a)) * (1.0 / (1.0 + a.dot(a)));
            let q1 = mat(&self.s.q[b]) * (amat * 2.0 - DMat3::IDENTITY);
            q1.write_cols_to_slice(&mut self.w.q1[b][3..12]);
            self.w.amat[b] = amat;
        }
    }

    /// The force elements at the iterate (a fixed point within Newton, `forces.rs`), and the
    /// spring rows' forces; on the `first` iteration the centres are predicted by a drift,
    /// x_n + h p0_n / M.
    fn iterate_elements(&mut self, model: &Model, h: f64, first: bool, nsp: usize) {
        if first {
            for b in 0..self.s.q.len() {
                let m = model.bodies[b].mass;
                for i in 0..3 {
                    self.w.q1[b][i] = self.s.q[b][i] + h * self.s.p[b][i] / m;
                }
            }
        }
        self.element_forces(h);
        if nsp > 0 {
            self.spring_rows_force(h, first);
        }
    }

    /// The centres at n+1, (23) and (27): the translational gradients are constant, so the
    /// gradients of the last evaluation (or of `new`) give the translational forces; a
    /// sliding joint's rows turn with body a, and take those of the last iterate (a lag
    /// the iteration removes: the step is judged on the residual with the current ones).
    /// With contacts between bodies and no joint rows (nor spring rows), the centres' Newton
    /// step on all bodies at once (`coupled.rs`); with joint rows the Schur complement takes
    /// each body's centre update as the body-by-body one, and stays so.
    fn centres(&mut self, model: &Model, h: f64, first: bool, stiff: bool, nsp: usize) {
        let coupled = stiff && !self.w.couple.is_empty() && self.c.rows.is_empty() && nsp == 0;
        if coupled {
            self.translate_coupled(model, h, first);
        }
        for b in 0..self.s.q.len() {
            let m = model.bodies[b].mass;
            if !coupled {
                self.centre_momentum(model, b, h, first, stiff);
            }
            for i in 0..3 {
                self.w.q1[b][i] = self.s.q[b][i] + h * 0.5 * (self.s.p[b][i] + self.w.p1[b][i]) / m;
            }
        }
    }

    /// Body `b`'s momentum p0_n+1 from (27): p0_n - h f0, or with the contacts' stiffness K
    /// Newton on the momentum, r(p1) = p1 - p_n + h f0(x1(p1)) with x1 = x_n + h (p_n + p1) / 2M:
    /// p1 <- p1 - (I + h^2 K / 2M)^-1 r (the plain update is its fixed point, which a stiff
    /// contact makes diverge). In the momentum, not the position: p1 from x1 would carry x1's
    /// round-off times 2M/h (1e-12 N s at h = 2e-4, and Newton stalled there).
    fn centre_momentum(&mut self, model: &Model, b: usize, h: f64, first: bool, stiff: bool) {
        let f0 = self.force_translational(b, model);
        let m = model.bodies[b].mass;
        if stiff && self.w.stiff[b].x != DMat3::ZERO {
            let pn = DVec3::new(self.s.p[b][0], self.s.p[b][1], self.s.p[b][2]);
            let p1 = if first {
                pn // the drift's prediction of `iterate_elements`
            } else {
                DVec3::new(self.w.p1[b][0], self.w.p1[b][1], self.w.p1[b][2])
            };
            let r = p1 - pn + DVec3::from_array(f0) * h;
            let a = DMat3::IDENTITY + self.w.stiff[b].x * (0.5 * h * h / m);
            let p1 = p1 - a.inverse() * r;
            self.w.p1[b][0..3].copy_from_slice(&p1.to_array());
        } else {
            for (i, f) in f0.iter().enumerate() {
                self.w.p1[b][i] = self.s.p[b][i] - h * f;
            }
        }
    }

    /// The joint rows at q_n+1: (25) summed over the steps, Phi(q_n+1) - Phi(q_0) into `rj`,
    /// so that the residuals the tolerance accepts do not add up from step to step; their
    /// gradients at q_n+1 (Newton rows) into `gnew`. Returns the largest |row|, the spring
    /// rows' residual included.
    fn joint_residuals(&mut self, h: f64, nsp: usize) -> f64 {
        let c = self.c;
        let mut residual = 0.0f64;
        for (k, row) in c.rows.iter().enumerate() {
            let t = self.s.forces.t + h;
            let phi = joint_row_into(c, &self.w.q1, row.joint, row.row, &mut self.w.gnew[k], t);
            self.w.rj[k] = phi - self.s.phi0[k];
            residual = residual.max(self.w.rj[k].abs());
        }
        if nsp > 0 {
            residual = residual.max(self.spring_rows_residual(h));
        }
        residual
    }

    /// The rotational momenta at n+1, (27)-(28) (`rot_momenta`), and the residual of the
    /// condensed equations Res = 2 J Omega - pi_n - pi_n+1 per body, in the units of (23):
    /// Res / 2J is the error in Omega, times h in the directors. Returns the largest of those
    /// and `residual`.
    fn rotational_residual(&mut self, model: &Model, h: f64, mut residual: f64) -> f64 {
        let c = self.c;
        for b in 0..self.s.q.len() {
            let f = self.force_rotational(b);
            self.w.frot[b] = DMat3::from_cols_array(&f);
            let p1 = self.rot_momenta(b, h, &f);
            p1.write_cols_to_slice(&mut self.w.p1[b][3..12]);
            let pi1 = 2.0 * skew_vec(&(mat(&self.w.q1[b]).transpose() * p1));
            self.w.resw[b] = 2.0 * model.bodies[b].inertia * self.w.om1[b] - self.w.pin[b] - pi1;
            let kin = self.w.resw[b] * c.inv_inertia[b] * (0.5 * h);
            residual = kin.abs().max_element().max(residual);
        }
        residual
    }

    /// The residual of (23)-(28) as written (`full.rs`, `body_residual`) with the elements at
    /// the final iterate (a step is only accepted with them); returns its largest entry and
    /// `residual`.
    fn final_residual(&mut self, model: &Model, h: f64, mut residual: f64) -> f64 {
        self.element_forces(h);
        for b in 0..self.s.q.len() {
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
        residual
    }

    /// The contacts' share of the tolerance floor, as `spring_rows_floor`'s for stiff springs:
    /// a contact's force carries the positions' round-off times its stiffness (the last step's,
    /// `director/contact.rs`, with the damping's c phi' / h), and the momentum residual h times
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
            let f = 4.0 * f64::EPSILON * h * k.element_sum() * x;
            // (a stiffness that is not finite would accept any residual: left out, so that
            // Newton is judged on the tolerance and fails with a message where it cannot meet it)
            if f.is_finite() {
                floor = floor.max(f);
            }
        }
        floor
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
}
