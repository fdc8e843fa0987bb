//! Index-1 formulation with Baumgarte stabilisation (STAR-CCM+ theory guide, eqs. 4932-4943).
//!
//! Newton-Euler bodies with generalised velocities u = (v, w), w the world angular velocity:
//! M du/dt = f_ext + J^T lambda (4937), f_ext = (M g, -w x I w) (gravity and the gyroscopic
//! torque), I = R J_body R^T.
//! The joint accelerations satisfy J du/dt = Q^ with (4942-4943)
//! Q^ = Q - 2 alpha J u - beta^2 Phi, Q = -(dJ/dt) u (the velocity-product bias; scleronomic
//! joints, Phi_t = 0). Substituting (4938) gives A lambda = b with A = J M^-1 J^T (4940) and
//! b = Q^ - J M^-1 f_ext. The text prints b = J M^-1 f_ext + Q (4941); that sign does not
//! satisfy (4935) with f_c = J^T lambda (4936), so we use the derived one.
//!
//! Integration (the text does not say): Heun's method (explicit trapezoidal RK2) on the Lie
//! group: a predictor u~ = u_0 + h a(q_0, u_0), q~ = q_0 (+) h u_0, then
//! u_1 = u_0 + h/2 (a(q_0, u_0) + a(q~, u~)), x_1 = x_0 + h/2 (v_0 + v~),
//! R_1 = exp(h/2 (w_0 + w~)^) R_0 (world angular velocities). Explicit and second order.
//! Why not semi-implicit Euler, the usual real-time choice: we tried it first, and its O(h^2)
//! local error injected so much drift during the chain's whip that no alpha, beta kept the
//! joints of nk-revolute at h = 0.01 below 1e-2 (best 9.6e-3 at alpha = 50, beta = 100, with
//! 30 to 99 % energy error). Heun keeps them at 3e-3 with modest gains.
//! Rotations are rotation matrices updated by the SO(3) exponential, which is orthogonal to
//! round-off; we still re-orthonormalise every step with one Newton-Schulz iteration
//! R <- R (3 I - R^T R) / 2, so round-off cannot accumulate over long runs.
//! Defaults alpha = beta = 10 /s: critically damped drift (Phi'' + 2 alpha Phi' + beta^2 Phi = 0)
//! with a time constant of 0.1 s; alpha h and beta h must stay well below 1 for the explicit
//! step. Measured on nk-revolute, h = 0.01, 10 s (max joint violation / max relative energy
//! error): alpha = beta = 0: 9.3e-3 / 6.9e-3; 10: 3.2e-3 / 5.5e-2; 20: 3.8e-3 / 6.3e-2;
//! 50: 4.1e-3 / 6.7e-2. The stabilisation holds the joints but does work on the system: the
//! energy error grows with it.
use crate::joints::{self, InverseMass, JointEval};
use crate::math::exp_so3;
use crate::model::{BodyState, Model};
use crate::sparse::JointSpace;
use crate::step::{Settings, StepError, StepInfo};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// Index-1 Baumgarte integrator: the body states and scratch space.
pub struct Baumgarte {
    states: Vec<BodyState>,
    next: Vec<BodyState>,
    evals: Vec<JointEval>,
    inv_mass: Vec<InverseMass>,
    lambda: Vec<f64>,
    force: Vec<DVec3>,
    torque: Vec<DVec3>,
    at_body: Vec<Vec<(usize, bool)>>,
    js: JointSpace,
    k1: Vec<(DVec3, DVec3)>,
    k2: Vec<(DVec3, DVec3)>,
}

impl Baumgarte {
    /// Set up from the initial body states.
    pub fn new(model: &Model, init: &[BodyState]) -> Result<Self, String> {
        let js = JointSpace::new(model).map_err(|e| e.to_string())?;
        let n = init.len();
        let nj = model.joints.len();
        Ok(Baumgarte {
            states: init.to_vec(),
            next: init.to_vec(),
            evals: vec![JointEval::default(); nj],
            inv_mass: vec![
                InverseMass {
                    inv_mass: 0.0,
                    inv_inertia: DMat3::ZERO
                };
                n
            ],
            lambda: vec![0.0; js.dim()],
            force: vec![DVec3::ZERO; n],
            torque: vec![DVec3::ZERO; n],
            at_body: joints::incidence(model),
            js,
            k1: vec![(DVec3::ZERO, DVec3::ZERO); n],
            k2: vec![(DVec3::ZERO, DVec3::ZERO); n],
        })
    }

    /// Write x, R, v, w of every body.
    pub fn body_states(&self, _model: &Model, out: &mut [BodyState]) {
        out.copy_from_slice(&self.states);
    }

    /// World accelerations (dv/dt, dw/dt) of every body at `states`, into `acc`
    /// (eqs. 4937-4943). Returns the largest joint residual |Phi| at `states`.
    fn accelerations(
        &mut self,
        model: &Model,
        settings: &Settings,
        states: &[BodyState],
        acc: &mut [(DVec3, DVec3)],
    ) -> Result<f64, StepError> {
        let nj = model.joints.len();
        if !states.iter().all(BodyState::is_sane) {
            return Err(StepError::NonFinite);
        }
        // external forces: gravity and the gyroscopic torque -w x I w
        for (i, b) in model.bodies.iter().enumerate() {
            let s = &states[i];
            let w = s.r * s.w;
            let iw = s.r * (b.inertia * s.w);
            self.force[i] = model.gravity * b.mass;
            self.torque[i] = -w.cross(iw);
            self.inv_mass[i] = InverseMass::new(b, &s.r);
        }
        let mut residual = 0.0;
        if nj > 0 {
            for j in 0..nj {
                self.evals[j] = joints::evaluate(model, j, states);
            }
            joints::assemble_and_factor(
                &self.evals,
                &self.evals,
                &self.inv_mass,
                &self.at_body,
                &mut self.js,
            )?;
            // b = Q^ - J M^-1 f_ext, Q^ = -bias - 2 alpha J u - beta^2 Phi
            for j in 0..nj {
                let e = &self.evals[j];
                let o = self.js.offset(j);
                for r in 0..e.rows {
                    let mut jminvf = dot_row(
                        &e.cb[r],
                        &self.inv_mass[e.b],
                        self.force[e.b],
                        self.torque[e.b],
                    );
                    if let Some(a) = e.a {
                        jminvf +=
                            dot_row(&e.ca[r], &self.inv_mass[a], self.force[a], self.torque[a]);
                    }
                    let ju = e.velocity(r, states, model);
                    self.lambda[o + r] = -e.bias[r]
                        - 2.0 * settings.alpha * ju
                        - settings.beta * settings.beta * e.phi[r]
                        - jminvf;
                    residual = f64::max(residual, e.phi[r].abs());
                }
            }
            self.js.solve(&mut self.lambda);
            // f_c = J^T lambda (4936); add_constraint_forces adds -scale C^T lambda
            joints::add_constraint_forces(
                &self.evals,
                &self.lambda,
                &self.js,
                -1.0,
                &mut self.force,
                &mut self.torque,
            );
        }
        for (i, a) in acc.iter_mut().enumerate() {
            *a = (
                self.force[i] * self.inv_mass[i].inv_mass,
                self.inv_mass[i].inv_inertia * self.torque[i],
            );
        }
        Ok(residual)
    }

    /// One step of Heun's method (explicit, second order) on the Lie group.
    pub fn step(&mut self, model: &Model, settings: &Settings) -> Result<StepInfo, StepError> {
        let h = settings.dt;
        let states = core::mem::take(&mut self.states);
        let mut stage = core::mem::take(&mut self.next);
        let mut k1 = core::mem::take(&mut self.k1);
        let mut k2 = core::mem::take(&mut self.k2);
        let result = (|| {
            let residual = self.accelerations(model, settings, &states, &mut k1)?;
            // predictor: Euler to the end of the step
            for ((y, s), k) in stage.iter_mut().zip(&states).zip(&k1) {
                let w = s.r * s.w;
                let r = exp_so3(w * h) * s.r;
                *y = BodyState {
                    x: s.x + s.v * h,
                    r,
                    v: s.v + k.0 * h,
                    w: r.transpose() * (w + k.1 * h),
                };
            }
            self.accelerations(model, settings, &stage, &mut k2)?;
            // corrector: the mean of the two slopes
            for (i, s) in states.iter().enumerate() {
                let w0 = s.r * s.w;
                let w1 = stage[i].r * stage[i].w;
                let v1 = stage[i].v;
                let mut r = exp_so3((w0 + w1) * (0.5 * h)) * s.r;
                // one Newton-Schulz step: R <- R (3 I - R^T R) / 2 removes round-off drift
                r = r * (DMat3::IDENTITY * 3.0 - r.transpose() * r) * 0.5;
                let w = w0 + (k1[i].1 + k2[i].1) * (0.5 * h);
                stage[i] = BodyState {
                    x: s.x + (s.v + v1) * (0.5 * h),
                    r,
                    v: s.v + (k1[i].0 + k2[i].0) * (0.5 * h),
                    w: r.transpose() * w,
                };
            }
            if !stage.iter().all(BodyState::is_sane) {
                return Err(StepError::NonFinite);
            }
            Ok(residual)
        })();
        self.k1 = k1;
        self.k2 = k2;
        match result {
            Ok(residual) => {
                self.states = stage;
                self.next = states;
                Ok(StepInfo {
                    iterations: 0,
                    residual,
                })
            }
            Err(e) => {
                self.states = states;
                self.next = stage;
                Err(e)
            }
        }
    }
}

/// c . M^-1 (f, tau) for one Jacobian row.
fn dot_row(c: &[f64; 6], w: &InverseMass, f: DVec3, tau: DVec3) -> f64 {
    let a = w.inv_inertia * tau;
    (c[0] * f.x + c[1] * f.y + c[2] * f.z) * w.inv_mass + c[3] * a.x + c[4] * a.y + c[5] * a.z
}
