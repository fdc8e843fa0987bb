//! One RATTLE step (`mod.rs`, eq. 9) as its stages:
//!
//! ```text
//! start       C(q_0), W(q_0), the elements' forces at the start              [`start`]
//! position    p_1/2, P_1/2, x_1, R_1 from lambda ([`drift`]); Newton on lambda until
//!             Phi(x_1, R_1) = 0, lambda += 2/h^2 S^-1 Phi                     [`position_stage`]
//! kick        p_1 = p_1/2 + h/2 (M g + f_1)  (gravity, the elements at the end) [`end_kick`]
//! velocity    (h/2) C W C^T mu = C u~ at q_1, the constraint forces of mu    [`velocity_stage`]
//! momenta     P_1 = P~ - h/2 F_1 - h/2 R_1 Lambda_1, (8) at R_1              [`end_momenta`]
//! budget      W and D of the elements by the trapezoidal rule                 [`budget`]
//! ```
use super::forces::{element_forces, element_power};
use super::rotation::{body_w, solve_rotation, torque_gradient};
use super::state::{fill_scratch, Rb, State, Workspace};
use crate::compiled::Compiled;
use crate::joints::{self, InverseMass};
use crate::math::{length, skew_vec, solve_sylvester_diag};
use crate::model::BodyState;
use crate::step::{effective_tol, newton_converged, Settings, StepError, StepInfo, Trend};
use glam::{DMat3, DVec3};

/// One step of size `settings.dt`; on error the caller (`mod.rs`, `step`) restores lambda.
pub(super) fn try_step(
    c: &Compiled,
    st: &mut State,
    ws: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    let h = settings.dt;
    let nj = c.model.joints.len();
    let power0 = start(c, st, ws, h);
    let (iterations, residual) = position_stage(c, st, ws, settings)?;
    end_kick(c, st, ws, h);
    let drive_work = if nj > 0 {
        velocity_stage(c, st, ws, h)?
    } else {
        0.0
    };
    end_momenta(c, ws, h);
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
    if c.model.has_elements() {
        budget(c, st, ws, h, power0);
    }
    st.forces.work += drive_work;
    st.forces.t += h;
    Ok(StepInfo {
        iterations,
        residual,
    })
}

/// The start of the step: the contacts' sweep, the joints' Jacobians (the directions of the
/// constraint forces) C(q_0) and the inverse masses W(q_0), and the force elements at the
/// start for the first half kick (with gravity), with the start's world velocities. Returns
/// the elements' powers at the start (zero without elements).
fn start(c: &Compiled, st: &mut State, ws: &mut Workspace, h: f64) -> crate::forces::Power {
    let model = &c.model;
    fill_scratch(c, &st.bodies, &mut ws.scratch);
    if !c.contacts.list.is_empty() || !c.contacts.colliders.list.is_empty() {
        let f = &mut st.forces;
        f.dissipated += c.contacts.sweep(&ws.scratch, h, &f.contact, &mut f.broad);
    }
    for j in 0..model.joints.len() {
        joints::evaluate_into(&c.frames[j], &ws.scratch, st.forces.t, &mut ws.evals[j]);
    }
    for i in 0..model.bodies.len() {
        ws.inv_mass[i] = InverseMass::new(c, i, &st.bodies[i].r);
    }
    let mut power0 = crate::forces::Power::default();
    if model.has_elements() {
        let scratch = core::mem::take(&mut ws.scratch);
        power0 = element_forces(
            c,
            &scratch,
            (&st.forces.angles, &st.forces.contact, &st.forces.broad),
            st.forces.t,
            ws,
        );
        for (v, s) in ws.vel0.iter_mut().zip(&scratch) {
            *v = (s.v, s.r * s.w);
        }
        ws.scratch = scratch;
    }
    power0
}

/// The position stage: Newton on lambda with the tangent
/// dPhi(q_1)/dlambda ~ -h^2/2 C(q_1) W(q_0) C(q_0)^T (the forces act along C(q_0)^T; the
/// neglected part is the change of the rotation solve with lambda, O(h^3)), the first
/// iteration's C(q_0) W C(q_0)^T (module notes). The joint residuals are differences of
/// positions x + R s: the tolerance is held above their round-off (step.rs, `effective_tol`).
/// Returns the iterations and the last residual; x_1, R_1 and the half-step momenta are in
/// `ws.next`, `ws.half`.
///
/// Backtracking. Near a singular position of a closed loop (IFToMM A02's N-four-bar with every
/// bar horizontal, where the degrees of freedom jump from 1 to 41) the joint Jacobian loses
/// rank: the multipliers grow large, and the start of this one (the last step's mu) or a full
/// Newton step on lambda can ask a body to turn more than a radian, where the rotation update
/// has no solution, though the step has one. So when the rotation update fails, or the
/// residual grows tenfold, the start is halved, or the step on lambda
/// (lambda = base + 2/h^2 a S^-1 Phi, a = 1, 1/2, ..., 1/1024), before the step is given
/// up. Converging iterations never meet either condition, so they are unchanged.
// `!(residual <= 10 base)` on purpose: a residual that is not finite backtracks too
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn position_stage(
    c: &Compiled,
    st: &mut State,
    ws: &mut Workspace,
    settings: &Settings,
) -> Result<(u32, f64), StepError> {
    let h = settings.dt;
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
    let mut trend = Trend::default();
    let mut residual;
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
        residual = position_residual(c, st, ws, h);
        if iterations > 0 && !(residual <= 10.0 * base_residual) && alpha > 1.0 / 1024.0 {
            alpha *= 0.5;
            backtrack(st, ws, alpha * 2.0 / (h * h));
            continue;
        }
        if newton_converged(residual, iterations, tol, settings, &mut trend)? {
            break;
        }
        // the first tangent at the start: C(q_0) W C(q_0)^T (module notes)
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
    Ok((iterations, residual))
}

/// The joints at the drift's x_1, R_1: Phi(x_1, R_1) into `ws.rhs` and their Jacobians into
/// `ws.evals1`; returns max |Phi|.
fn position_residual(c: &Compiled, st: &State, ws: &mut Workspace, h: f64) -> f64 {
    let mut residual = 0.0f64;
    for (o, s) in ws.scratch.iter_mut().zip(&ws.next) {
        o.x = s.x;
        o.r = s.r;
    }
    for j in 0..c.model.joints.len() {
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
    residual
}

/// The second half kick without the joints: p_1 = p_1/2 + h/2 (M g + f_1), P = P_1/2 - h/2 F_1
/// (gravity acts at the centre of mass: no R-gradient). The elements at the end of the step:
/// positions x_1, R_1 and, for the dampers, the velocities extrapolated from the start and the
/// half step, 2 u_1/2 - u_0 (O(h^2)), so that the second half kick stays explicit and second
/// order; springs and loads depend on the positions only, and with them the step stays
/// symplectic.
fn end_kick(c: &Compiled, st: &State, ws: &mut Workspace, h: f64) {
    let model = &c.model;
    for (i, b) in model.bodies.iter().enumerate() {
        let (ph, pmh) = ws.half[i];
        let nb = &mut ws.next[i];
        nb.p = ph + model.gravity * (b.mass * 0.5 * h);
        nb.pm = pmh;
    }
    if !model.has_elements() {
        return;
    }
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
        st.forces.t + h,
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

/// The velocity stage: (h/2) C W C^T mu = C u~ at q_1 (C, W at the end of the step, u~ from
/// the unprojected momenta: w~ = J^-1 vec(A - A^T); with a drive's Phi_t, C u_1 + Phi_t = 0),
/// mu into `ws.rhs` and its constraint forces and torques into `ws.force`, `ws.torque`.
/// Returns the drives' work over the step.
fn velocity_stage(c: &Compiled, st: &State, ws: &mut Workspace, h: f64) -> Result<f64, StepError> {
    let model = &c.model;
    fill_scratch(c, &ws.next, &mut ws.scratch);
    for j in 0..model.joints.len() {
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
    for j in 0..model.joints.len() {
        let o = c.pattern.offset(j);
        for r in 0..ws.evals1[j].rows {
            ws.rhs[o + r] =
                (ws.evals1[j].velocity(r, &ws.scratch, model) + ws.evals1[j].phi_t[r]) * (2.0 / h);
        }
    }
    ws.js.solve(&c.pattern, &mut ws.rhs);
    let drive_work = if model.drives.is_empty() {
        0.0
    } else {
        drive_work(c, st, ws, h)
    };
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
    Ok(drive_work)
}

/// The drives' work: their forces -C^T lambda (first half kick) and -C^T mu (second) have the
/// powers lambda Phi_t(t_n) and mu Phi_t(t_n+1) (C u = -Phi_t), by the trapezoidal rule over
/// the step.
fn drive_work(c: &Compiled, st: &State, ws: &Workspace, h: f64) -> f64 {
    let mut power = 0.0;
    for (j, f) in c.frames.iter().enumerate() {
        let o = c.pattern.offset(j);
        for r in 0..f.rows {
            if f.spec[r].is_driven() {
                power +=
                    st.lambda[o + r] * ws.evals[j].phi_t[r] + ws.rhs[o + r] * ws.evals1[j].phi_t[r];
            }
        }
    }
    0.5 * h * power
}

/// The end momenta: p_1 += h/2 f(mu), and P_1 = P~ - h/2 F_1 - h/2 R_1 Lambda_1 with (8) at
/// R_1: with A = R_1^T P~, Lambda_1 D^-1 + D^-1 Lambda_1 = 2/h (A D^-1 + D^-1 A^T).
fn end_momenta(c: &Compiled, ws: &mut Workspace, h: f64) {
    let nj = c.model.joints.len();
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
}

/// The elements' work W and dissipation D by the trapezoidal rule over the step's two end
/// states (`power0` at the start), the joint springs' angles and the contacts' friction state
/// advanced to the end (the new state is in `st.bodies`, the time still t_n).
fn budget(c: &Compiled, st: &mut State, ws: &mut Workspace, h: f64, power0: crate::forces::Power) {
    let t = st.forces.t;
    fill_scratch(c, &st.bodies, &mut ws.scratch);
    crate::forces::update_angles(
        &c.model,
        &c.force_frames,
        &ws.scratch,
        &mut st.forces.angles,
    );
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
