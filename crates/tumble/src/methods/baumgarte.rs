//! Index-1 formulation with Baumgarte stabilisation (STAR-CCM+ theory guide, eqs. 4932-4943).
//!
//! Newton-Euler bodies with generalised velocities u = (v, w), w the world angular velocity:
//! M du/dt = f_ext + J^T lambda (4937), f_ext = (M g, -w x I w) (gravity and the gyroscopic
//! torque) plus the force elements' forces and torques at the state (`forces.rs`: springs,
//! dampers, loads, motors), I = R J_body R^T. The elements' work W and dissipation D are
//! integrated by the step's own trapezoidal rule, h/2 (P(stage 1) + P(stage 2)): the balance
//! E - E0 - W + D then shows the method's error, not a bookkeeping one.
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
use crate::compiled::Compiled;
use crate::joints::{self, InverseMass, JointEval};
use crate::math::{exp_so3, orthonormality_error};
use crate::model::BodyState;
use crate::sparse::JointMatrix;
use crate::step::{Settings, StepError, StepInfo};
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// The Baumgarte state: the body states themselves (n x 1).
#[derive(Clone, Debug)]
pub struct State {
    /// x, R, v, w of every body
    pub bodies: Vec<BodyState>,
    /// time, work, dissipation and joint spring angles of the force elements
    pub forces: crate::forces::State,
}

impl State {
    /// Become a copy of `src`, reusing this state's storage (`simulation/substep.rs`).
    pub fn assign(&mut self, src: &State) {
        self.bodies.clone_from(&src.bodies);
        self.forces.assign(&src.forces);
    }

    /// The initial state.
    pub fn new(c: &Compiled, init: &[BodyState]) -> Self {
        State {
            bodies: init.to_vec(),
            forces: crate::forces::State::start(&c.model, &c.contacts, init),
        }
    }

    /// max |R^T R - I| over the bodies.
    pub fn internal_violation(&self) -> f64 {
        self.bodies
            .iter()
            .map(|s| orthonormality_error(&s.r))
            .fold(0.0, f64::max)
    }
}

/// Scratch space of a Baumgarte step, allocated once.
pub struct Workspace {
    next: Vec<BodyState>,
    evals: Vec<JointEval>,
    inv_mass: Vec<InverseMass>,
    lambda: Vec<f64>,
    force: Vec<DVec3>,
    torque: Vec<DVec3>,
    /// per body: world angular velocity R w, and W_r tau (the inverse inertia times the
    /// torque before the joints' reactions): once per body, not per joint row and side
    omega: Vec<DVec3>,
    alpha: Vec<DVec3>,
    js: JointMatrix,
    k1: Vec<(DVec3, DVec3)>,
    k2: Vec<(DVec3, DVec3)>,
    angles: Vec<f64>,
}

impl Workspace {
    /// Room for one more force element (a pull added during the run).
    pub fn grow_elements(&mut self) {
        self.angles.push(0.0);
    }

    /// Scratch space for `c`.
    pub fn new(c: &Compiled) -> Self {
        let n = c.bodies();
        Workspace {
            next: vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); n],
            evals: vec![JointEval::default(); c.frames.len()],
            inv_mass: vec![InverseMass::ZERO; n],
            lambda: vec![0.0; c.pattern.dim()],
            force: vec![DVec3::ZERO; n],
            torque: vec![DVec3::ZERO; n],
            omega: vec![DVec3::ZERO; n],
            alpha: vec![DVec3::ZERO; n],
            js: JointMatrix::new(&c.pattern),
            k1: vec![(DVec3::ZERO, DVec3::ZERO); n],
            k2: vec![(DVec3::ZERO, DVec3::ZERO); n],
            angles: vec![0.0; crate::forces::angle_slots(&c.model)],
        }
    }

    /// The reaction every joint transmits at `states` (time `t`, joint springs' angles
    /// `angles`): the multipliers of the index-1 equations (4935-4941, without the Baumgarte
    /// terms), as the force on body b (N, world) and the torque on body b about the joint's point
    /// on b (N m, world), 6 numbers per joint into `out`. A joint's drives are part of it.
    /// Where a closed loop makes the reactions statically indeterminate, the redundant rows are
    /// held at zero (`mechanism.rs`) and the others carry the load: one of the possible splits.
    pub fn reactions(
        &mut self,
        c: &Compiled,
        states: &[BodyState],
        (angles, contact, t): (
            &[f64],
            (&[crate::contact::PlaneFriction], &crate::contact::StepState),
            f64,
        ),
        out: &mut [f64],
    ) -> Result<(), StepError> {
        let settings = Settings {
            dt: 0.01,
            tol: 1e-12,
            max_iter: 1,
            alpha: 0.0,
            beta: 0.0,
        };
        let mut acc = core::mem::take(&mut self.k1);
        let result = self.accelerations(c, &settings, states, (angles, contact, t), &mut acc);
        self.k1 = acc;
        result?;
        for (j, o) in out.chunks_exact_mut(6).enumerate().take(c.frames.len()) {
            let e = &self.evals[j];
            let off = c.pattern.offset(j);
            let (mut f, mut tau) = (DVec3::ZERO, DVec3::ZERO);
            for r in 0..e.rows {
                // f_c = J^T lambda (4936) on body b
                let cb = &e.cb[r];
                f += DVec3::new(cb[0], cb[1], cb[2]) * self.lambda[off + r];
                tau += DVec3::new(cb[3], cb[4], cb[5]) * self.lambda[off + r];
            }
            let s = &states[e.b];
            let arm = s.r * c.frames[j].point_b;
            o[..3].copy_from_slice(&f.to_array());
            o[3..].copy_from_slice(&(tau - arm.cross(f)).to_array());
        }
        Ok(())
    }

    /// World accelerations (dv/dt, dw/dt) of every body at `states`, into `acc`
    /// (eqs. 4937-4943), with the force elements (`forces.rs`) at time `t`, their joint
    /// springs' angles unwrapped against `angles`. Returns the largest joint residual |Phi| at
    /// `states` and the elements' powers.
    fn accelerations(
        &mut self,
        c: &Compiled,
        settings: &Settings,
        states: &[BodyState],
        (angles, (slots, pairs), t): (
            &[f64],
            (&[crate::contact::PlaneFriction], &crate::contact::StepState),
            f64,
        ),
        acc: &mut [(DVec3, DVec3)],
    ) -> Result<(f64, crate::forces::Power), StepError> {
        if !states.iter().all(BodyState::is_sane) {
            return Err(StepError::NonFinite);
        }
        let mut power = self.external_forces(c, states, (angles, (slots, pairs), t));
        let mut residual = 0.0;
        if !c.model.joints.is_empty() {
            residual = self.constraint_forces(c, settings, states, t, &mut power)?;
        }
        for (i, a) in acc.iter_mut().enumerate() {
            *a = (
                self.force[i] * self.inv_mass[i].inv_mass,
                self.inv_mass[i].inv_inertia * self.torque[i],
            );
        }
        Ok((residual, power))
    }

    /// The external forces and torques at `states` into `force`, `torque`: gravity, the
    /// gyroscopic torque -w x I w, the force elements (their joint springs' angles unwrapped
    /// against `angles`, time `t`) and the contacts; with every body's world angular velocity
    /// into `omega` and its inverse mass into `inv_mass`. Returns the elements' powers.
    fn external_forces(
        &mut self,
        c: &Compiled,
        states: &[BodyState],
        (angles, (slots, pairs), t): (
            &[f64],
            (&[crate::contact::PlaneFriction], &crate::contact::StepState),
            f64,
        ),
    ) -> crate::forces::Power {
        let model = &c.model;
        for (i, b) in model.bodies.iter().enumerate() {
            let s = &states[i];
            let w = s.r * s.w;
            let iw = s.r * (b.inertia * s.w);
            self.omega[i] = w;
            self.force[i] = model.gravity * b.mass;
            self.torque[i] = -w.cross(iw);
            self.inv_mass[i] = InverseMass::new(c, i, &s.r);
        }
        let mut power = crate::forces::Power::default();
        if !model.forces.is_empty() {
            self.angles.copy_from_slice(angles);
            crate::forces::update_angles(model, &c.force_frames, states, &mut self.angles);
            power = crate::forces::add_world(
                model,
                &c.force_frames,
                states,
                &self.angles,
                t,
                &mut self.force,
                &mut self.torque,
            );
        }
        if !c.contacts.list.is_empty() || !pairs.pairs.is_empty() {
            power.dissipation += crate::contact::continuous::add_world(
                &c.contacts,
                pairs,
                states,
                slots,
                &mut self.force,
                &mut self.torque,
            );
        }
        power
    }

    /// The joints' multipliers (eqs. 4937-4943): J M^-1 J^T lambda = b with
    /// b = Q^ - J M^-1 f_ext, Q^ = -bias - 2 alpha J u - beta^2 Phi, solved in joint space;
    /// their forces f_c = J^T lambda (4936) added to `force`, `torque`, the drives' power to
    /// `power`. Returns the largest joint residual |Phi| at `states`.
    fn constraint_forces(
        &mut self,
        c: &Compiled,
        settings: &Settings,
        states: &[BodyState],
        t: f64,
        power: &mut crate::forces::Power,
    ) -> Result<f64, StepError> {
        let model = &c.model;
        let nj = model.joints.len();
        let mut residual = 0.0;
        for j in 0..nj {
            joints::evaluate_into(&c.frames[j], states, t, &mut self.evals[j]);
        }
        joints::assemble_and_factor(&self.evals, &self.evals, &self.inv_mass, c, &mut self.js)?;
        for ((a, w), tau) in self.alpha.iter_mut().zip(&self.inv_mass).zip(&self.torque) {
            *a = w.inv_inertia * *tau;
        }
        // b = Q^ - J M^-1 f_ext, Q^ = -bias - 2 alpha J u - beta^2 Phi
        for j in 0..nj {
            let e = &self.evals[j];
            let o = c.pattern.offset(j);
            let at = |b: usize| (self.inv_mass[b].inv_mass, self.force[b], self.alpha[b]);
            for r in 0..e.rows {
                let mut jminvf = dot_row(&e.cb[r], at(e.b));
                if let Some(a) = e.a {
                    jminvf += dot_row(&e.ca[r], at(a));
                }
                // dPhi/dt = J u + Phi_t (Phi_t: drives, eq. 4942's Phi_t)
                let ju = e.velocity_with(r, states, &self.omega) + e.phi_t[r];
                self.lambda[o + r] = -e.bias[r]
                    - 2.0 * settings.alpha * ju
                    - settings.beta * settings.beta * e.phi[r]
                    - jminvf;
                residual = f64::max(residual, e.phi[r].abs());
            }
        }
        self.js.solve(&c.pattern, &mut self.lambda);
        if !model.drives.is_empty() {
            // the drives' power: their forces C^T lambda times the velocities
            for j in 0..nj {
                let (f, e) = (&c.frames[j], &self.evals[j]);
                let o = c.pattern.offset(j);
                for r in 0..e.rows {
                    if f.spec[r].is_driven() {
                        power.input += self.lambda[o + r] * e.velocity_with(r, states, &self.omega);
                    }
                }
            }
        }
        // f_c = J^T lambda (4936); add_constraint_forces adds -scale C^T lambda
        joints::add_constraint_forces(
            &self.evals,
            &self.lambda,
            &c.pattern,
            -1.0,
            &mut self.force,
            &mut self.torque,
        );
        Ok(residual)
    }
}

/// One step of Heun's method (explicit, second order) on the Lie group. On error the state is
/// unchanged.
pub fn step(
    c: &Compiled,
    state: &mut State,
    ws: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    let h = settings.dt;
    if !c.contacts.list.is_empty() || !c.contacts.colliders.list.is_empty() {
        let f = &mut state.forces;
        f.dissipated += c.contacts.sweep(&state.bodies, h, &f.contact, &mut f.broad);
    }
    let states = &state.bodies;
    let mut stage = core::mem::take(&mut ws.next);
    let mut k1 = core::mem::take(&mut ws.k1);
    let mut k2 = core::mem::take(&mut ws.k2);
    let (angles, slots, t) = (
        &state.forces.angles,
        (&state.forces.contact[..], &state.forces.broad),
        state.forces.t,
    );
    let result = (|| {
        let (residual, p1) = ws.accelerations(c, settings, states, (angles, slots, t), &mut k1)?;
        // predictor: Euler to the end of the step
        for ((y, s), k) in stage.iter_mut().zip(states).zip(&k1) {
            let w = s.r * s.w;
            let r = exp_so3(w * h) * s.r;
            *y = BodyState {
                x: s.x + s.v * h,
                r,
                v: s.v + k.0 * h,
                w: r.transpose() * (w + k.1 * h),
            };
        }
        let (_, p2) = ws.accelerations(c, settings, &stage, (angles, slots, t + h), &mut k2)?;
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
        // the elements' work and dissipation by the same trapezoidal rule as the step
        Ok((residual, p1, p2))
    })();
    ws.k1 = k1;
    ws.k2 = k2;
    match result {
        Ok((residual, p1, p2)) => {
            // the new states become the state; the old ones the next step's scratch
            core::mem::swap(&mut state.bodies, &mut stage);
            ws.next = stage;
            let f = &mut state.forces;
            if c.model.has_elements() || !c.model.drives.is_empty() {
                f.work += 0.5 * h * (p1.input + p2.input);
                f.dissipated += 0.5 * h * (p1.dissipation + p2.dissipation);
                crate::forces::update_angles(
                    &c.model,
                    &c.force_frames,
                    &state.bodies,
                    &mut f.angles,
                );
            }
            if !c.contacts.list.is_empty() {
                f.dissipated += crate::contact::continuous::advance(
                    &c.contacts,
                    &f.broad,
                    &state.bodies,
                    &mut f.contact,
                );
            }
            f.dissipated += crate::contact::continuous::advance_pairs(&mut f.broad, &state.bodies);
            f.t += h;
            Ok(StepInfo {
                iterations: 0,
                residual,
            })
        }
        Err(e) => {
            ws.next = stage;
            Err(e)
        }
    }
}

/// c . M^-1 (f, tau) for one Jacobian row, from the body's 1 / M, f and a = W_r tau.
fn dot_row(c: &[f64; 6], (inv_mass, f, a): (f64, DVec3, DVec3)) -> f64 {
    (c[0] * f.x + c[1] * f.y + c[2] * f.z) * inv_mass + c[3] * a.x + c[4] * a.y + c[5] * a.z
}
