//! Lie-group RATTLE / Stormer-Verlet (Terze, Mueller & Zlatar 2013), extended to joints.
//!
//! Per body: centre of mass x, linear momentum p = M v, rotation R and the matrix momentum
//! P = dR/dt D (eq. 4), D = diag(d) with I1 = d2 + d3, I2 = d3 + d1, I3 = d1 + d2 (eq. 2).
//! One step (eq. 9), with lambda the joint multipliers of the step:
//!
//! Force elements (`forces.rs`) enter as gravity does: their forces at the start of the step in
//! the first half kick, at the end in the second (as world forces and torques, the torque through
//! the same gradient as the joints' below); W and D by the trapezoidal rule over the step.
//!
//! ```text
//! p_1/2 = p_0 + h/2 (M g + f(lambda))                  x_1 = x_0 + h p_1/2 / M
//! P_1/2 = P_0 - h/2 F_0 - h/2 R_0 Lambda_0
//! R_1   = R_0 exp(xi^),  xi^ = what (9) puts in the exponential, see below
//!                                                      Phi(x_1, R_1) = 0 fixes lambda (Newton)
//! p_1   = p_1/2 + h/2 (M g + f(mu))
//! P_1   = P_1/2 - h/2 F_1 - h/2 R_1 Lambda_1           (8) at R_1 fixes Lambda_1, and
//!                                                      dPhi/dt(x_1, R_1, v_1, w_1) = 0 fixes mu
//! ```
//!
//! F is the matrix gradient of the joint potential lambda.Phi with respect to R. A joint force
//! f at the arm r = R s gives the world torque r x f; we use the gradient F = -1/2 R tau^
//! (tau = R^T (r x f), body components). Any other gradient with the same torque differs by
//! R Y with Y symmetric, and Lambda absorbs Y exactly, so the step does not depend on the choice.
//!
//! What enters the exponential (the one ambiguity, physics notes). R_0^T P_1/2 D^-1 is skew
//! only for one choice of the symmetric Lambda_0. We take that choice: Lambda_0 is the
//! multiplier for which R_0 + h P_1/2 D^-1 is itself the rotation R_0 exp(xi^) (the position
//! constraint R^T R = I at the end of the step, as in standard RATTLE). The Lambda_0 terms are
//! symmetric and drop out of the skew part, so F = exp(xi^) is the rotation with
//!
//! ```text
//! F D - D F^T = h (A - A^T),   A = R_0^T (P_0 - h/2 F_0)         P_1/2 = R_0 (F - I) D / h
//! ```
//!
//! solved by Newton in the Lie algebra ([`solve_rotation`], 2-3 iterations to round-off).
//! Why: this is the reading that keeps the invariants exact. The update is the discrete
//! Moser-Veselov map, so the spatial angular momentum is conserved exactly (free body: to
//! round-off; nk-spherical: l3 to the joint tolerance), R stays in SO(3) to round-off (it is
//! an exponential), and the method is symplectic and second order.
//! The draft's other wording, Lambda_0 from the differentiated (8) and the exponential of the
//! remaining skew part, was tried first: order 2 and SO(3) to round-off too, but spatial
//! angular momentum drifted at O(h^2) (free body 7.6e-6 over 200 s, nk-spherical l3 4e-2 over
//! 10 s at h = 0.01), so it was replaced. `tests/tests/rattle.rs` checks R^T R = I and
//! det R = 1 over 1e4 steps, order 2 against an RK4 reference, and the conservation.
//!
//! Lambda_1 and mu: with A = R_1^T (P_1/2 - h/2 F_1), (8) gives
//! Lambda_1 D^-1 + D^-1 Lambda_1 = 2/h (A D^-1 + D^-1 A^T), and then the body angular momentum
//! J w_1 = vec(A - A^T) is linear in mu: the velocity constraint is one linear solve
//! (h/2) C W C^T mu = C u~ with W the inverse mass, C the joint Jacobian at the end of the step.
//! The position stage is a Newton iteration lambda += 2/h^2 S^-1 Phi(x_1, R_1) until
//! max |Phi| < tol, from the last step's mu (the multiplier at t_n, as lambda is; the
//! last step's lambda, the one at t_n-1, led the thin-rod A02 into a folded root, see the end
//! of `try_step`), with S = C(q_1) W(q_0) C(q_0)^T (non-symmetric; it drops only the O(h^3)
//! dependence of the rotation solve on lambda); the first iteration's at the start,
//! C(q_0) W(q_0) C(q_0)^T: its end point, from the start, can fall on a singular
//! position (the N-four-bar's bars horizontal) where C(q_1) lost rank; S^-1 threw the windows
//! off along the self-stresses, into the nearby root with a window's bars mirrored about the
//! horizontal (the thick-rod A02: energy error 108 %, lambda 1e8, then a stop; issue #29).
//! Later iterations keep C(q_1): near a singular solution its folds are second order.
//! Both are solved with the linear-time joint-space solver of `sparse.rs`.
mod forces;
mod rotation;

use crate::compiled::Compiled;
use crate::joints::{self, InverseMass, JointEval};
use crate::math::{length, skew, skew_vec, solve_sylvester_diag};
pub use crate::model::d_from_inertia;
use crate::model::BodyState;
use crate::sparse::JointMatrix;
use crate::step::{effective_tol, newton_converged, Settings, StepError, StepInfo};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use forces::{element_forces, element_power};
use glam::{DMat3, DVec3};
use rotation::{body_w, torque_gradient};
pub use rotation::{solve_rotation, ROTATION_ITERATIONS};

/// The RATTLE state of one body.
#[derive(Clone, Copy, Debug)]
pub struct Rb {
    /// centre of mass
    pub x: DVec3,
    /// linear momentum M v
    pub p: DVec3,
    /// rotation
    pub r: DMat3,
    /// matrix momentum P = dR/dt D
    pub pm: DMat3,
}

impl Rb {
    /// x, R, v, w of the body (`b`: its model body).
    pub fn state(&self, b: &crate::model::Body) -> BodyState {
        BodyState {
            x: self.x,
            r: self.r,
            v: self.p / b.mass,
            w: body_w(b, &self.r, &self.pm),
        }
    }
}

/// The RATTLE state: the bodies and the multipliers that start the next step's position stage
/// (the last step's velocity-stage multipliers mu, see the end of `try_step`).
#[derive(Clone, Debug)]
pub struct State {
    /// per body: x, p, R, P (n x 1)
    pub bodies: Vec<Rb>,
    /// the start of the next position stage: the last step's mu (m x 1)
    pub lambda: Vec<f64>,
    /// time, work, dissipation and joint spring angles of the force elements
    pub forces: crate::forces::State,
}

impl State {
    /// Become a copy of `src`, reusing this state's storage (`simulation/substep.rs`).
    pub fn assign(&mut self, src: &State) {
        self.bodies.clone_from(&src.bodies);
        self.lambda.clone_from(&src.lambda);
        self.forces.assign(&src.forces);
    }

    /// From the initial body states: p = M v, P = R Omega^ D. Fails when a body's D (eq. 2)
    /// is not positive definite.
    pub fn new(c: &Compiled, init: &[BodyState]) -> Result<Self, String> {
        if c.d.iter().any(|d| d.min_element() <= 0.0) {
            return Err(
                "inertia: each principal moment must be less than the sum of the other two"
                    .to_string(),
            );
        }
        let bodies = c
            .model
            .bodies
            .iter()
            .zip(init)
            .zip(&c.d)
            .map(|((b, s), d)| Rb {
                x: s.x,
                p: s.v * b.mass,
                r: s.r,
                pm: s.r * skew(s.w) * DMat3::from_diagonal(*d),
            })
            .collect();
        Ok(State {
            bodies,
            lambda: vec![0.0; c.pattern.dim()],
            forces: crate::forces::State::start(&c.model, &c.contacts, init),
        })
    }

    /// Write x, R, v, w of every body.
    pub fn body_states(&self, c: &Compiled, out: &mut [BodyState]) {
        fill_scratch(c, &self.bodies, out);
    }

    /// max |R^T R - I| over the bodies.
    pub fn internal_violation(&self) -> f64 {
        self.bodies
            .iter()
            .map(|s| crate::math::orthonormality_error(&s.r))
            .fold(0.0, f64::max)
    }
}

/// Scratch space of a RATTLE step, allocated once.
pub struct Workspace {
    next: Vec<Rb>,
    half: Vec<(DVec3, DMat3)>, // p_1/2, P_1/2
    lambda_start: Vec<f64>,    // lambda at the start of the step, restored if it fails
    rhs: Vec<f64>,
    // the position stage's last Newton point and direction (the backtracking of `try_step`)
    lambda_base: Vec<f64>,
    dlambda: Vec<f64>,
    evals: Vec<JointEval>,
    evals1: Vec<JointEval>,
    inv_mass: Vec<InverseMass>,
    force: Vec<DVec3>,
    torque: Vec<DVec3>,
    js: JointMatrix,
    scratch: Vec<BodyState>,
    // the force elements: their forces and torques at the start of the step, the start's world
    // velocities, a probe state at the end of the step, the angles there
    ext: Vec<(DVec3, DVec3)>,
    vel0: Vec<(DVec3, DVec3)>,
    probe: Vec<BodyState>,
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
        let m = c.pattern.dim();
        let nj = c.frames.len();
        let rb = Rb {
            x: DVec3::ZERO,
            p: DVec3::ZERO,
            r: DMat3::IDENTITY,
            pm: DMat3::ZERO,
        };
        Workspace {
            next: vec![rb; n],
            half: vec![(DVec3::ZERO, DMat3::ZERO); n],
            lambda_start: vec![0.0; m],
            rhs: vec![0.0; m],
            lambda_base: vec![0.0; m],
            dlambda: vec![0.0; m],
            evals: vec![JointEval::default(); nj],
            evals1: vec![JointEval::default(); nj],
            inv_mass: vec![InverseMass::ZERO; n],
            force: vec![DVec3::ZERO; n],
            torque: vec![DVec3::ZERO; n],
            js: JointMatrix::new(&c.pattern),
            scratch: vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); n],
            ext: vec![(DVec3::ZERO, DVec3::ZERO); n],
            vel0: vec![(DVec3::ZERO, DVec3::ZERO); n],
            probe: vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); n],
            angles: vec![0.0; c.model.forces.len()],
        }
    }
}

/// x, R, v, w of the bodies `src` into `out`.
fn fill_scratch(c: &Compiled, src: &[Rb], out: &mut [BodyState]) {
    for ((o, s), b) in out.iter_mut().zip(src).zip(&c.model.bodies) {
        *o = s.state(b);
    }
}

/// One step of size `settings.dt`. On error the state, the multipliers included, is as before.
pub fn step(
    c: &Compiled,
    st: &mut State,
    ws: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    ws.lambda_start.copy_from_slice(&st.lambda);
    let result = try_step(c, st, ws, settings);
    if result.is_err() {
        st.lambda.copy_from_slice(&ws.lambda_start);
    }
    result
}

fn try_step(
    c: &Compiled,
    st: &mut State,
    ws: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    let h = settings.dt;
    let model = &c.model;
    let nj = model.joints.len();
    // Jacobians (the directions of the constraint forces) at the start of the step
    fill_scratch(c, &st.bodies, &mut ws.scratch);
    if !c.contacts.list.is_empty() || !c.contacts.colliders.list.is_empty() {
        let f = &mut st.forces;
        f.dissipated += c.contacts.sweep(&ws.scratch, h, &f.contact, &mut f.broad);
    }
    for j in 0..nj {
        joints::evaluate_into(&c.frames[j], &ws.scratch, st.forces.t, &mut ws.evals[j]);
    }
    for i in 0..model.bodies.len() {
        ws.inv_mass[i] = InverseMass::new(c, i, &st.bodies[i].r);
    }
    let has_forces = model.has_elements();
    let mut drive_work = 0.0;
    let t = st.forces.t;
    let mut power0 = crate::forces::Power::default();
    if has_forces {
        // the elements at the start of the step, for the first half kick (with gravity)
        let scratch = core::mem::take(&mut ws.scratch);
        power0 = element_forces(
            c,
            &scratch,
            (&st.forces.angles, &st.forces.contact, &st.forces.broad),
            t,
            ws,
        );
        for (v, s) in ws.vel0.iter_mut().zip(&scratch) {
            *v = (s.v, s.r * s.w);
        }
        ws.scratch = scratch;
    }
    // position stage: Newton on lambda with the tangent
    // dPhi(q_1)/dlambda ~ -h^2/2 C(q_1) W(q_0) C(q_0)^T (the forces act along C(q_0)^T; the
    // neglected part is the change of the rotation solve with lambda, O(h^3))
    // the joint residuals are differences of positions x + R s: the tolerance is held above
    // their round-off (step.rs, `effective_tol`)
    let scale = st
        .bodies
        .iter()
        .map(|b| b.x.abs().max_element())
        .chain(c.frames.iter().map(|f| {
            f.point_a
                .abs()
                .max_element()
                .max(f.point_b.abs().max_element())
        }))
        .fold(0.0f64, f64::max);
    let tol = effective_tol(settings.tol, scale);
    let mut iterations = 0;
    let mut residual;
    // Backtracking. Near a singular position of a closed loop (IFToMM A02's N-four-bar with every
    // bar horizontal, where the degrees of freedom jump from 1 to 41) the joint Jacobian loses
    // rank: the multipliers grow large, and the start of this one (the last step's mu) or a full
    // Newton step on lambda can ask a body to turn more than a radian, where the rotation update
    // has no solution, though the step has one. So when the rotation update fails, or the
    // residual grows tenfold, the start is halved, or the step on lambda
    // (lambda = base + 2/h^2 a S^-1 Phi, a = 1, 1/2, ..., 1/1024), before the step is given
    // up. Converging iterations never meet either condition, so they are unchanged.
    let mut base_residual = f64::INFINITY;
    let mut alpha = 1.0f64;
    loop {
        if let Err(e) = drift(c, st, ws, h) {
            if alpha <= 1.0 / 1024.0 {
                return Err(e);
            }
            alpha *= 0.5;
            if iterations == 0 {
                // the start (the last step's mu) already turns a body too far: halve it
                // (towards the free flight, whose rotation update always has a solution)
                st.lambda.iter_mut().for_each(|l| *l *= 0.5);
            } else {
                backtrack(st, ws, alpha * 2.0 / (h * h));
            }
            continue;
        }
        residual = 0.0f64;
        for (o, s) in ws.scratch.iter_mut().zip(&ws.next) {
            o.x = s.x;
            o.r = s.r;
        }
        for j in 0..nj {
            joints::evaluate_into(
                &c.frames[j],
                &ws.scratch,
                st.forces.t + h,
                &mut ws.evals1[j],
            );
            let e = &ws.evals1[j];
            let o = c.pattern.offset(j);
            for r in 0..e.rows {
                ws.rhs[o + r] = e.phi[r];
                residual = residual.max(e.phi[r].abs());
            }
        }
        if iterations > 0 && !(residual <= 10.0 * base_residual) && alpha > 1.0 / 1024.0 {
            alpha *= 0.5;
            backtrack(st, ws, alpha * 2.0 / (h * h));
            continue;
        }
        if newton_converged(residual, iterations, tol, settings)? {
            break;
        }
        // the first tangent at the start: C(q_0) W C(q_0)^T (module notes, issue #29)
        let left = if iterations == 0 {
            &ws.evals
        } else {
            &ws.evals1
        };
        joints::assemble_and_factor(left, &ws.evals, &ws.inv_mass, c, &mut ws.js)?;
        ws.js.solve(&c.pattern, &mut ws.rhs);
        ws.lambda_base.copy_from_slice(&st.lambda);
        ws.dlambda.copy_from_slice(&ws.rhs);
        base_residual = residual;
        alpha = 1.0;
        let s = 2.0 / (h * h);
        for (l, d) in st.lambda.iter_mut().zip(&ws.rhs) {
            *l += s * d;
        }
        iterations += 1;
    }
    // velocity stage: kick with gravity, then solve for mu
    for (i, b) in model.bodies.iter().enumerate() {
        let (ph, pmh) = ws.half[i];
        let nb = &mut ws.next[i];
        nb.p = ph + model.gravity * (b.mass * 0.5 * h);
        nb.pm = pmh; // gravity acts at the centre of mass: no R-gradient
    }
    if has_forces {
        // the elements at the end of the step: positions x_1, R_1 and, for the dampers, the
        // velocities extrapolated from the start and the half step, 2 u_1/2 - u_0 (O(h^2)), so
        // that the second half kick stays explicit and second order; springs and loads depend
        // on the positions only, and with them the step stays symplectic
        for i in 0..ws.next.len() {
            let (ph, pmh) = ws.half[i];
            let b = &model.bodies[i];
            let r1 = ws.next[i].r;
            let w_half = r1 * body_w(b, &r1, &pmh);
            ws.probe[i] = BodyState {
                x: ws.next[i].x,
                r: r1,
                v: ph * (2.0 / b.mass) - ws.vel0[i].0,
                w: r1.transpose() * (w_half * 2.0 - ws.vel0[i].1),
            };
        }
        ws.angles.copy_from_slice(&st.forces.angles);
        crate::forces::update_angles(model, &c.force_frames, &ws.probe, &mut ws.angles);
        let probe = core::mem::take(&mut ws.probe);
        let angles = core::mem::take(&mut ws.angles);
        element_forces(
            c,
            &probe,
            (&angles, &st.forces.contact, &st.forces.broad),
            t + h,
            ws,
        );
        ws.probe = probe;
        ws.angles = angles;
        for i in 0..ws.next.len() {
            let (f, tau) = ws.ext[i];
            let nb = &mut ws.next[i];
            nb.p += f * (0.5 * h);
            nb.pm -= torque_gradient(&nb.r, tau) * (0.5 * h);
        }
    }
    if nj > 0 {
        fill_scratch(c, &ws.next, &mut ws.scratch);
        for j in 0..nj {
            joints::evaluate_into(
                &c.frames[j],
                &ws.scratch,
                st.forces.t + h,
                &mut ws.evals1[j],
            );
        }
        for i in 0..model.bodies.len() {
            ws.inv_mass[i] = InverseMass::new(c, i, &ws.next[i].r);
        }
        joints::assemble_and_factor(&ws.evals1, &ws.evals1, &ws.inv_mass, c, &mut ws.js)?;
        for j in 0..nj {
            let o = c.pattern.offset(j);
            for r in 0..ws.evals1[j].rows {
                // C u~ with u~ from the unprojected momenta: w~ = J^-1 vec(A - A^T)
                // (with a drive's Phi_t: C u_1 + Phi_t = 0)
                ws.rhs[o + r] = (ws.evals1[j].velocity(r, &ws.scratch, model)
                    + ws.evals1[j].phi_t[r])
                    * (2.0 / h);
            }
        }
        ws.js.solve(&c.pattern, &mut ws.rhs);
        if !model.drives.is_empty() {
            // the drives' work: their forces -C^T lambda (first half kick) and -C^T mu (second)
            // have the powers lambda Phi_t(t_n) and mu Phi_t(t_n+1) (C u = -Phi_t), by the
            // trapezoidal rule over the step
            let mut power = 0.0;
            for (j, f) in c.frames.iter().enumerate() {
                let o = c.pattern.offset(j);
                for r in 0..f.rows {
                    if f.spec[r].is_driven() {
                        power += st.lambda[o + r] * ws.evals[j].phi_t[r]
                            + ws.rhs[o + r] * ws.evals1[j].phi_t[r];
                    }
                }
            }
            drive_work = 0.5 * h * power;
        }
        ws.force.iter_mut().for_each(|f| *f = DVec3::ZERO);
        ws.torque.iter_mut().for_each(|t| *t = DVec3::ZERO);
        joints::add_constraint_forces(
            &ws.evals1,
            &ws.rhs,
            &c.pattern,
            1.0,
            &mut ws.force,
            &mut ws.torque,
        );
    }
    // P_1 = P~ - h/2 F_1 - h/2 R_1 Lambda_1 with (8) at R_1
    for i in 0..ws.next.len() {
        let d = c.d[i];
        let nb = &mut ws.next[i];
        let (f, tau) = if nj > 0 {
            (ws.force[i], ws.torque[i])
        } else {
            (DVec3::ZERO, DVec3::ZERO)
        };
        nb.p += f * (0.5 * h);
        let grad = torque_gradient(&nb.r, tau);
        let pt = nb.pm - grad * (0.5 * h);
        let a = nb.r.transpose() * pt;
        let dinv = DMat3::from_diagonal(d.recip());
        let s = (a * dinv + dinv * a.transpose()) * (2.0 / h);
        let lam1 = solve_sylvester_diag(&s, d);
        nb.pm = pt - nb.r * lam1 * (0.5 * h);
    }
    if !ws.next.iter().all(|b| {
        crate::model::sane(&[
            b.x,
            b.p,
            b.r.x_axis,
            b.r.y_axis,
            b.r.z_axis,
            b.pm.x_axis,
            b.pm.y_axis,
            b.pm.z_axis,
        ])
    }) {
        return Err(StepError::NonFinite);
    }
    core::mem::swap(&mut st.bodies, &mut ws.next);
    if nj > 0 {
        // The next position stage starts from this step's mu, not its lambda. Both kicks at
        // t_n+1, the second half of this step (mu, along C(q_1)^T) and the first half of the
        // next (lambda_n+1, along the same C(q_1)^T), approximate the multiplier at t_n+1;
        // lambda_n is the one at t_n. Measured on the N-four-bar (thin rods, h = 0.02, the
        // 8.56 s it ran from lambda_n): |lambda_n+1 - mu_n| <= 3.4, |lambda_n+1 - lambda_n| up
        // to 85 at the singular passes; from mu_n Newton takes one iteration at 494 of the 500
        // steps (2 or 3 at the others), from lambda_n 3 to 6. Why it matters: a step that
        // ends 0.0018 rad from a singular position (every bar horizontal) has a second root
        // as close, on the branch where the first vertical lies flat and the windows fold
        // (the other bars up to 1.8e-3 rad off it); from lambda_n the first Newton step,
        // through the nearly singular C(q_0) W C(q_0)^T, landed in that root's basin (lambda
        // 27 -> 104 -> 80, energy -8.4 J, mu 2e5, the rotation update failing the step
        // after). The equations and the tolerance are unchanged: the same root to the
        // tolerance elsewhere, reached from a closer start.
        st.lambda.copy_from_slice(&ws.rhs);
    }
    if has_forces {
        // W and D by the trapezoidal rule over the step's two end states
        fill_scratch(c, &st.bodies, &mut ws.scratch);
        crate::forces::update_angles(model, &c.force_frames, &ws.scratch, &mut st.forces.angles);
        let scratch = core::mem::take(&mut ws.scratch);
        let power1 = element_power(
            c,
            &scratch,
            (&st.forces.angles, &st.forces.broad),
            t + h,
            ws,
        );
        if !c.contacts.list.is_empty() {
            st.forces.dissipated += crate::contact::continuous::advance(
                &c.contacts,
                &st.forces.broad,
                &scratch,
                &mut st.forces.contact,
            );
        }
        st.forces.dissipated +=
            crate::contact::continuous::advance_pairs(&mut st.forces.broad, &scratch);
        ws.scratch = scratch;
        st.forces.work += 0.5 * h * (power0.input + power1.input);
        st.forces.dissipated += 0.5 * h * (power0.dissipation + power1.dissipation);
    }
    st.forces.work += drive_work;
    st.forces.t += h;
    Ok(StepInfo {
        iterations,
        residual,
    })
}

/// The half kick with the current lambda and the drift to x_1, R_1 (into `next`).
fn drift(c: &Compiled, st: &State, ws: &mut Workspace, h: f64) -> Result<(), StepError> {
    let model = &c.model;
    let nj = model.joints.len();
    ws.force.iter_mut().for_each(|f| *f = DVec3::ZERO);
    ws.torque.iter_mut().for_each(|t| *t = DVec3::ZERO);
    if nj > 0 {
        joints::add_constraint_forces(
            &ws.evals,
            &st.lambda,
            &c.pattern,
            1.0,
            &mut ws.force,
            &mut ws.torque,
        );
    }
    if model.has_elements() {
        for ((f, tau), (ef, et)) in ws.force.iter_mut().zip(ws.torque.iter_mut()).zip(&ws.ext) {
            *f += *ef;
            *tau += *et;
        }
    }
    for (i, b) in model.bodies.iter().enumerate() {
        let s = &st.bodies[i];
        let d = c.d[i];
        let ph = s.p + (model.gravity * b.mass + ws.force[i]) * (0.5 * h);
        let grad = torque_gradient(&s.r, ws.torque[i]);
        // R_1 = R_0 F with F = exp(xi^) solving F D - D F^T = h (A - A^T), A = R_0^T (P_0 - h/2 F_0):
        // the skew part of (9) with Lambda_0 fixed by R_1^T R_1 = I (see the module notes)
        let a = s.r.transpose() * (s.pm - grad * (0.5 * h));
        let m = (a - a.transpose()) * h;
        let g = solve_rotation(&m, d).map_err(|residual| StepError::Rotation {
            body: i,
            residual,
            // the angle of the first-order rotation J^-1 vec(m): F D - D F^T = (J xi)^ + O(xi^2)
            turn: length(skew_vec(&m) / DVec3::new(d.y + d.z, d.z + d.x, d.x + d.y)),
        })?;
        let rg = s.r * g;
        let pmh = rg * DMat3::from_diagonal(d) * (1.0 / h);
        ws.half[i] = (ph, pmh);
        ws.next[i] = Rb {
            x: s.x + ph * (h / b.mass),
            p: ph,
            r: s.r + rg,
            pm: pmh,
        };
    }
    Ok(())
}

/// lambda = base + `s` dlambda: the position stage's Newton step, shortened (`try_step`).
fn backtrack(st: &mut State, ws: &Workspace, s: f64) {
    for ((l, b), d) in st.lambda.iter_mut().zip(&ws.lambda_base).zip(&ws.dlambda) {
        *l = b + s * d;
    }
}
