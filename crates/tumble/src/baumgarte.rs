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
//! Integration (the text does not say): semi-implicit (symplectic) Euler,
//! u_1 = u_0 + h du/dt(q_0, u_0), x_1 = x_0 + h v_1, R_1 = R_0 exp(h R_0^T w_1): explicit,
//! first order, the usual choice of real-time engines, and it keeps the classic
//! method's behaviour visible (energy error O(h), drift held by alpha and beta).
//! Rotations are rotation matrices updated by the SO(3) exponential, which is orthogonal to
//! round-off; we still re-orthonormalise every step with one Newton-Schulz iteration
//! R <- R (3 I - R^T R) / 2, so round-off cannot accumulate over long runs.
//! Defaults alpha = beta = 10 /s (critically damped drift, time constant 0.1 s).
use crate::joints::{self, InverseMass, JointEval};
use crate::math::exp_so3;
use crate::model::{BodyState, Model};
use crate::simulation::{Settings, StepError, StepInfo};
use crate::sparse::JointSpace;
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
        })
    }

    /// Write x, R, v, w of every body.
    pub fn body_states(&self, _model: &Model, out: &mut [BodyState]) {
        out.copy_from_slice(&self.states);
    }

    /// One semi-implicit Euler step.
    pub fn step(&mut self, model: &Model, settings: &Settings) -> Result<StepInfo, StepError> {
        let h = settings.dt;
        let nj = model.joints.len();
        // external forces: gravity and the gyroscopic torque -w x I w
        for (i, b) in model.bodies.iter().enumerate() {
            let s = &self.states[i];
            let w = s.r * s.w;
            let iw = s.r * (b.inertia * s.w);
            self.force[i] = model.gravity * b.mass;
            self.torque[i] = -w.cross(iw);
            self.inv_mass[i] = InverseMass::new(b, &s.r);
        }
        let mut residual = 0.0;
        if nj > 0 {
            for j in 0..nj {
                self.evals[j] = joints::evaluate(model, j, &self.states);
            }
            joints::assemble(&self.evals, &self.inv_mass, &self.at_body, &mut self.js);
            if !self.js.factor() {
                return Err(StepError::Singular);
            }
            // b = Q^ - J M^-1 f_ext, Q^ = -bias - 2 alpha J u - beta^2 Phi
            for j in 0..nj {
                let e = &self.evals[j];
                let o = self.js.offset(j);
                for r in 0..e.rows {
                    let jminvf = {
                        let mut s = dot_row(
                            &e.cb[r],
                            &self.inv_mass[e.b],
                            self.force[e.b],
                            self.torque[e.b],
                        );
                        if let Some(a) = e.a {
                            s +=
                                dot_row(&e.ca[r], &self.inv_mass[a], self.force[a], self.torque[a]);
                        }
                        s
                    };
                    let ju = e.velocity(r, &self.states, model);
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
        for (i, b) in model.bodies.iter().enumerate() {
            let s = &self.states[i];
            let v = s.v + self.force[i] * (h / b.mass);
            let w_world = s.r * s.w + self.inv_mass[i].inv_inertia * self.torque[i] * h;
            let w = s.r.transpose() * w_world;
            let mut r = s.r * exp_so3(w * h);
            r = r * (DMat3::IDENTITY * 3.0 - r.transpose() * r) * 0.5;
            self.next[i] = BodyState {
                x: s.x + v * h,
                r,
                v,
                w,
            };
        }
        if !self
            .next
            .iter()
            .all(|s| s.x.is_finite() && s.v.is_finite() && s.w.is_finite() && s.r.is_finite())
        {
            return Err(StepError::NonFinite);
        }
        core::mem::swap(&mut self.states, &mut self.next);
        Ok(StepInfo {
            iterations: 0,
            residual,
        })
    }
}

/// c . M^-1 (f, tau) for one Jacobian row.
fn dot_row(c: &[f64; 6], w: &InverseMass, f: DVec3, tau: DVec3) -> f64 {
    let a = w.inv_inertia * tau;
    (c[0] * f.x + c[1] * f.y + c[2] * f.z) * w.inv_mass + c[3] * a.x + c[4] * a.y + c[5] * a.z
}
