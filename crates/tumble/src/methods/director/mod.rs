//! Energy-momentum director integrator (Nielsen & Krenk, "Multibody motion in implicitly
//! constrained director format with links via explicit constraints", ECCOMAS Multibody
//! Dynamics 2013).
//!
//! Each body: q = [q0, q1, q2, q3] (centre of mass and the three directors, 12 numbers) and
//! the conjugate momenta p = [p0, p1, p2, p3]. With b(q, p) = G(q) p (eq. 8, the 3 x 9 block),
//! the kinetic energy (13) is T = p0.p0 / 2M + 1/2 b^T J^-1 b, and the body angular momentum is
//! J Omega = -b. The step (n -> n+1, bars are means, Delta increments), eqs. (23)-(28):
//!
//! ```text
//! w     = J^-1 (b(q_n, p_n) + b(q_n+1, p_n+1)) / 2                       mean of G(q) p
//! (23)  Delta q0 = h pbar0 / M            Delta q_r = h G(qbar)^T w    (= h Qbar Omega^)
//! (27)  Delta p0 = -h (dV*/dq0 + dPhi*/dq0^T lambda)
//!       Delta p_r = h G(pbar)^T w - h P (dPhi*/dq_r^T lambda) + h C(qbar)^T gamma_0
//!       P = I - C^T (C C^T)^-1 C,   C = C(qbar)  (eq. 5)
//! (28)  gamma_0 = -(C C^T)^-1 [C(qbar) G(pbar)^T + C(pbar) G(qbar)^T] w
//! (25)  dPhi*/dq Delta q = Phi(q_n+1) - Phi(q_n) = 0
//! ```
//!
//! (The paper writes the rotational terms with the 6 x 12 matrix diag(I, -G/2) and
//! J^-1 = diag(1/M, 4 J^-1); with b = G(q) p the factors cancel to the form above, and
//! G(q) p = -G(p) q turns its -G(pbar)^T J0^-1 mean(G(p) q) into + G(pbar)^T w.)
//! Gravity (39) is linear in q0, so its finite derivative is exact; the spherical joint (34)-(35)
//! has a constant gradient; the revolute joint (37) is bilinear, and its finite derivative is
//! the gradient at the mean configuration (41)-(42). The kinetic energy is bi-quadratic, so the
//! discrete gradients are exact: energy and the momentum components the joints allow are kept to
//! the Newton tolerance. The kinematic equation is a Cayley transform, so e(q) (eq. 3) stays at
//! round-off.
//!
//! Newton-Raphson. [`step_full`] is Table 1 as written: u = (q_n+1, p_n+1) per body
//! and lambda, from u = u_n; each body's 24 x 24 tangent block is exact (forward-mode dual
//! numbers over the rotational residual), eliminated body by body, and the joint-space Schur
//! complement is solved by the linear-time tree solver of `sparse/`. [`step`]
//! solves the same equations with Newton on fewer unknowns (3 per body, the mean body angular
//! velocity, and lambda): for given values of those, (23), the translational (27) and the
//! rotational (27)-(28) are linear in q_n+1, p_n+1 and are solved exactly; convergence is
//! judged on the residual of (23)-(28) as written. About 10 times faster; tested to take the
//! same steps. For a dot row (37) between two bodies the gradient (42) of one body depends on
//! the other body's mean directors (a term of size h lambda, lambda the row's multiplier):
//! [`step`]'s tangent carries that cross-body term (`cross.rs`), so its Newton converges
//! quadratically on chains and loops of hinges; `step_full`, as (32)-(33), leaves it out, and
//! so do both for sliding and distance rows (their gradients move with both bodies' positions
//! too). Where the dot rows carry no force (a chain moving in the plane of its hinges: their
//! multipliers are zero) the term is zero. The joint rows dPhi(q_n+1)/dq are exact.
//!
//! The files: this one has the state, the workspace and the forces; `rows.rs` the joint rows
//! (34)-(38) and `means.rs` their gradients at the mean configuration (41)-(42); `algebra.rs`
//! the director algebra of eqs. (5), (8), (23), (27)-(28) with the dual numbers of the exact
//! tangent; `condensed.rs` the condensed Newton solve ([`step`]) as its stages, `tangent.rs`
//! its tangent and Newton update and `cross.rs` the tangent's cross-body term; `full.rs`
//! Table 1 as written ([`step_full`]).
mod algebra;
mod angle_rows;
mod condensed;
mod contact;
mod coordinates;
mod coupled;
mod cross;
mod elements;
pub mod forces;
mod full;
mod means;
mod rows;
mod segments;
mod spring_rows;
mod springs;
mod stiffness;
mod tangent;
mod tendons;

use crate::compiled::{Compiled, Incident};
use crate::math::max_abs_cols;
use crate::model::{BodyState, Model};
use crate::step::{effective_tol, Settings, StepError, StepInfo};
use algebra::{c_mul, g_mul, gt_mul, V9};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};
use rows::{joint_row, Grad};

pub use algebra::{Dual, Scalar};

const N: usize = 24; // unknowns per body: q (12), p (12)

/// The director state: q, p per body, the multipliers, and what the predictor of the
/// condensed solve remembers of the last steps.
#[derive(Clone, Debug)]
pub struct State {
    /// per body: q = [q0, q1, q2, q3] (centre of mass, directors) (n x 12)
    pub q: Vec<[f64; 12]>,
    /// per body: p = [p0, p1, p2, p3] (n x 12)
    pub p: Vec<[f64; 12]>,
    /// the multipliers of the last step (m x 1)
    pub lambda: Vec<f64>,
    /// per body: the mean body angular velocity Omega of the last step (the predictor)
    om: Vec<DVec3>,
    /// Omega of the three steps before the last, lambda of the six
    om_prev: [Vec<DVec3>; 3],
    lambda_prev: [Vec<f64>; 6],
    /// how many of the last steps (up to 7) had the step size `last_h`
    same_h: u32,
    last_h: f64,
    /// whether the last step took more than 3 Newton iterations or the fallback
    slow: bool,
    /// per joint row: Phi at the initial configuration (m x 1)
    phi0: Vec<f64>,
    /// steps that `step` took by `step_full` because the condensed solve did not converge
    fallbacks: u64,
    /// time, work, dissipation and joint spring angles of the force elements
    pub forces: crate::forces::State,
}

impl State {
    /// Become a copy of `src`, reusing this state's storage (the sub-stepping's saved state,
    /// `simulation/substep.rs`: no allocation once the sizes are reached).
    pub fn assign(&mut self, src: &State) {
        self.q.clone_from(&src.q);
        self.p.clone_from(&src.p);
        self.lambda.clone_from(&src.lambda);
        self.om.clone_from(&src.om);
        for (o, so) in self.om_prev.iter_mut().zip(&src.om_prev) {
            o.clone_from(so);
        }
        for (l, sl) in self.lambda_prev.iter_mut().zip(&src.lambda_prev) {
            l.clone_from(sl);
        }
        (self.same_h, self.last_h, self.slow) = (src.same_h, src.last_h, src.slow);
        self.phi0.clone_from(&src.phi0);
        self.fallbacks = src.fallbacks;
        self.forces.assign(&src.forces);
    }

    /// Set up from the initial body states: p0 = M v, p_r = -1/2 G(q)^T J Omega, so that
    /// G(q) p_r = -J Omega and C(q) p_r = 0 (eq. 18).
    pub fn new(c: &Compiled, init: &[BodyState]) -> Result<Self, String> {
        let n = init.len();
        let m = c.pattern.dim();
        let mut q = vec![[0.0; 12]; n];
        let mut p = vec![[0.0; 12]; n];
        for (i, (s, b)) in init.iter().zip(&c.model.bodies).enumerate() {
            q[i][0..3].copy_from_slice(&s.x.to_array());
            q[i][3..12].copy_from_slice(&s.r.to_cols_array());
            p[i][0..3].copy_from_slice(&(s.v * b.mass).to_array());
            let jw = b.inertia * s.w;
            let pr = gt_mul(&rot_block(&q[i]), &[jw.x, jw.y, jw.z]);
            for k in 0..9 {
                p[i][3 + k] = -0.5 * pr[k];
            }
        }
        let phi0 = c
            .rows
            .iter()
            .map(|r| joint_row(c, &q, r.joint, r.row, 0.0).0)
            .collect();
        Ok(State {
            q,
            p,
            lambda: vec![0.0; m],
            om: init.iter().map(|s| s.w).collect(),
            om_prev: [
                vec![DVec3::ZERO; n],
                vec![DVec3::ZERO; n],
                vec![DVec3::ZERO; n],
            ],
            lambda_prev: core::array::from_fn(|_| vec![0.0; m]),
            same_h: 0,
            last_h: f64::NAN,
            slow: false,
            phi0,
            fallbacks: 0,
            forces: {
                let mut f = crate::forces::State::start(&c.model, &c.contacts, init);
                crate::forces::armature_rates(&c.model, &c.force_frames, init, &mut f.angles);
                f
            },
        })
    }

    /// Every body's state into `out` ([`State::body_state`] of each).
    pub fn body_states(&self, model: &Model, out: &mut [BodyState]) {
        for (i, o) in out.iter_mut().take(model.bodies.len()).enumerate() {
            *o = self.body_state(model, i);
        }
    }

    /// Body `i`'s state: x = q0, R = [q1 q2 q3], v = p0 / M, Omega = -J^-1 G(q) p_r.
    pub fn body_state(&self, model: &Model, i: usize) -> BodyState {
        let (q, p, b) = (&self.q[i], &self.p[i], &model.bodies[i]);
        let bb = g_mul(&rot_block(q), &rot_block(p));
        BodyState {
            x: DVec3::new(q[0], q[1], q[2]),
            r: DMat3::from_cols_slice(&q[3..12]),
            v: DVec3::new(p[0], p[1], p[2]) / b.mass,
            w: -DVec3::from_array(bb) / b.inertia,
        }
    }

    /// The poses, 12 numbers per body (x, then R column-major): q itself.
    pub fn write_poses(&self, out: &mut [f64]) {
        for (o, q) in out.chunks_exact_mut(12).zip(&self.q) {
            o.copy_from_slice(q);
        }
    }

    /// max(|e(q)|, |C(q) p|) over the bodies (eqs. 3 and 18).
    pub fn internal_violation(&self) -> f64 {
        let mut m = 0.0f64;
        for (q, p) in self.q.iter().zip(&self.p) {
            let (qr, pr) = (rot_block(q), rot_block(p));
            let e = c_mul(&qr, &qr); // 2 e(q) + [1, 1, 1, 0, 0, 0]
            let e = [e[0] - 1.0, e[1] - 1.0, e[2] - 1.0, e[3], e[4], e[5]].map(|x| 0.5 * x);
            let cp = c_mul(&qr, &pr);
            for x in e.iter().chain(&cp) {
                m = m.max(x.abs());
            }
        }
        m
    }

    /// Steps that [`step`] took by [`step_full`] because the condensed solve did not converge.
    pub fn fallbacks(&self) -> u64 {
        self.fallbacks
    }
}

/// Scratch space of a director step, allocated once.
pub struct Workspace {
    // the iterate: q, p at n+1 and the multipliers
    q1: Vec<[f64; 12]>,
    p1: Vec<[f64; 12]>,
    lambda1: Vec<f64>,
    // per body: residual, factored tangent block, pivots (`step_full`)
    r: Vec<[f64; N]>,
    k: Vec<[f64; N * N]>,
    piv: Vec<[usize; N]>,
    // per joint row and side (a, b): finite-derivative gradient at the mean (for the forces) and
    // the gradient at q_n+1 (for the Newton rows)
    gmean: Vec<[Grad; 2]>,
    gnew: Vec<[Grad; 2]>,
    // per joint row and side: K^-1 (dr/dlambda) (24 numbers)
    y: Vec<[[f64; N]; 2]>,
    rj: Vec<f64>,
    js: crate::sparse::JointMatrix,
    // the condensed Newton solve (`step`): per body the iterate of Omega, the Cayley factor
    // A = (I - h/2 Omega^)^-1, pi_n, the residual of (23)'s definition of w, K^-1 and K^-1
    // times that residual
    om1: Vec<DVec3>,
    amat: Vec<DMat3>,
    pin: Vec<DVec3>,
    resw: Vec<DVec3>,
    kinv: Vec<DMat3>,
    kres: Vec<DVec3>,
    // per joint row and side: K^-1 dRes/dlambda and dPhi/dOmega
    cy: Vec<[DVec3; 2]>,
    dk: Vec<[DVec3; 2]>,
    // the cross-body term of the tangent (`cross.rs`): per row its blocks X on sides a and b,
    // the rows that can have one and those that have one now, and per body the correction's dOmega, E dOmega and K^-1 of it
    cross: Vec<[DMat3; 2]>,
    cross_cand: Vec<usize>,
    cross_rows: Vec<usize>,
    xd: Vec<DVec3>,
    xe: Vec<DVec3>,
    xk: Vec<DVec3>,
    frot: Vec<DMat3>, // per body: the rotational force F of the current iterate
    qbar: Vec<DMat3>, // per body: the mean directors (Q_n + Q_n+1) / 2 of the current iterate
    qna: Vec<DMat3>,  // per body: Q_n A of the current iterate
    // the force elements (`forces.rs`): per body their generalised force g at the current
    // iterate, the joint springs' angles at n+1 and the step's work and dissipation
    fext: Vec<[f64; 12]>,
    angles1: Vec<f64>,
    // the contact probes' friction state at n+1 (`methods/director/contact.rs`)
    slots1: Vec<crate::contact::PlaneFriction>,
    // per body: the contacts' stiffness at the iterate, for Newton's tangent, and the pairs'
    // coupling of two bodies' centres (`coupled.rs`)
    stiff: Vec<stiffness::Stiffness>,
    couple: Vec<stiffness::Coupling>,
    // the coupled translational solve's vectors (conjugate gradients: x, r, z, p, q per body)
    // and the inverses of its diagonal blocks
    cg: [Vec<DVec3>; 5],
    cg_pre: Vec<DMat3>,
    // the body states at the start of the step, for the contacts' broad phase
    states: Vec<BodyState>,
    // the mean configuration (q_n + q_n+1) / 2 of the bodies of sliding joints' rows
    qm: Vec<[f64; 12]>,
    budget: forces::StepBudget,
    // stiff spring-dampers taken as Newton rows (`springs.rs`)
    springs: spring_rows::SpringRows,
}

impl Workspace {
    /// Room for one more force element (a pull added during the run to `c`).
    pub fn grow_elements(&mut self, c: &Compiled) {
        self.angles1.push(0.0);
        self.springs.reserve(&c.model, c.pattern.dim());
    }

    /// Scratch space for `c`.
    pub fn new(c: &Compiled) -> Self {
        let n = c.bodies();
        let m = c.pattern.dim();
        // the gradients' translational parts are constant (+-e_r, or zero); the condensed solve
        // reads them before its first joint evaluation of a step
        let q0 = vec![[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]; n];
        let grads: Vec<[Grad; 2]> = c
            .rows
            .iter()
            .map(|r| {
                let (_, ga, gb) = joint_row(c, &q0, r.joint, r.row, 0.0);
                [ga, gb]
            })
            .collect();
        Workspace {
            q1: vec![[0.0; 12]; n],
            p1: vec![[0.0; 12]; n],
            lambda1: vec![0.0; m],
            r: vec![[0.0; N]; n],
            k: vec![[0.0; N * N]; n],
            piv: vec![[0; N]; n],
            gmean: grads.clone(),
            gnew: grads,
            y: vec![[[0.0; N]; 2]; m],
            rj: vec![0.0; m],
            js: crate::sparse::JointMatrix::new(&c.pattern),
            om1: vec![DVec3::ZERO; n],
            amat: vec![DMat3::IDENTITY; n],
            pin: vec![DVec3::ZERO; n],
            resw: vec![DVec3::ZERO; n],
            kinv: vec![DMat3::IDENTITY; n],
            kres: vec![DVec3::ZERO; n],
            cy: vec![[DVec3::ZERO; 2]; m],
            dk: vec![[DVec3::ZERO; 2]; m],
            cross: vec![[DMat3::ZERO; 2]; m],
            cross_cand: rows::cross_candidates(c),
            cross_rows: Vec::with_capacity(m),
            xd: vec![DVec3::ZERO; n],
            xe: vec![DVec3::ZERO; n],
            xk: vec![DVec3::ZERO; n],
            frot: vec![DMat3::ZERO; n],
            qbar: vec![DMat3::IDENTITY; n],
            qna: vec![DMat3::IDENTITY; n],
            fext: vec![[0.0; 12]; n],
            qm: vec![[0.0; 12]; n],
            angles1: vec![0.0; crate::forces::angle_slots(&c.model)],
            slots1: vec![crate::contact::PlaneFriction::default(); c.contacts.list.len()],
            stiff: vec![stiffness::Stiffness::default(); n],
            // room for the broad phase's pairs (`broad.rs`: 6 a ball), each a normal force
            // and a stick spring
            couple: Vec::with_capacity({
                let nb = c.contacts.colliders.list.len();
                2 * (6 * nb).min(nb * nb.saturating_sub(1) / 2)
            }),
            cg: core::array::from_fn(|_| vec![DVec3::ZERO; n]),
            cg_pre: vec![DMat3::ZERO; n],
            states: vec![BodyState::at_rest(DVec3::ZERO, DMat3::IDENTITY); n],
            budget: forces::StepBudget::default(),
            springs: spring_rows::SpringRows::new(&c.model, m),
        }
    }
}

/// One step of size `settings.dt` (the condensed solve, `step_full` as its fallback); on error
/// nothing changes. See [`Ctx::step`].
pub fn step(
    c: &Compiled,
    s: &mut State,
    w: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    Ctx { c, s, w }.step(&c.model, settings)
}

/// One step by Newton on all unknowns, Table 1 as written (see `full.rs`); on error nothing
/// changes.
pub fn step_full(
    c: &Compiled,
    s: &mut State,
    w: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    Ctx { c, s, w }.step_full(&c.model, settings)
}

/// The condensed solve of [`step`] alone, without the tolerance floor and the fallback (for
/// tests of its convergence); on error nothing changes.
pub fn step_condensed(
    c: &Compiled,
    s: &mut State,
    w: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    Ctx { c, s, w }.step_condensed(&c.model, settings)
}

/// One step in progress: the compiled model, the state it advances and the scratch space.
struct Ctx<'a> {
    c: &'a Compiled,
    s: &'a mut State,
    w: &'a mut Workspace,
}

/// The directors (or their momenta) of a 12-vector as the columns of a matrix; takes the
/// last 9 numbers, so it also reads a gradient's rotational part.
pub(super) fn mat(v: &[f64; 12]) -> DMat3 {
    DMat3::from_cols_slice(&v[3..12])
}

/// The bodies a joint row acts on, with the side: 0 for body a (none for a ground joint),
/// 1 for body b.
pub(super) fn sides(a: Option<usize>, b: usize) -> impl Iterator<Item = (usize, usize)> {
    [(0usize, a), (1, Some(b))]
        .into_iter()
        .filter_map(|(side, body)| body.map(|x| (side, x)))
}

/// a b^T
pub(super) fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

pub(super) fn rot_block(v: &[f64; 12]) -> V9<f64> {
    let mut out = [0.0; 9];
    out.copy_from_slice(&v[3..12]);
    out
}

impl Ctx<'_> {
    /// One step of size `settings.dt`; on error nothing changes.
    ///
    /// Newton-Raphson on the condensed unknowns: per body the mean body angular velocity
    /// Omega (= -w of (23)), and the multipliers. For given Omega and lambda the rest of the
    /// step is linear and solved exactly: the kinematic equation (23) is the Cayley transform
    /// Q_n+1 = Q_n (I + h/2 Omega^)(I - h/2 Omega^)^-1; the translational (27) is explicit; the
    /// rotational (27) with gamma_0 of (28) is P_n+1 = P_n R - h (F - Qbar Y) A with the
    /// symmetric Y solved from C(q_n+1) p_n+1 = C(q_n) p_n, which is what (28) expresses (see
    /// docs/director.md). What remains for Newton: w = J^-1 mean(G(q) p) of (23), 3 equations
    /// per body, and the joint rows, (25) summed over the steps: Phi(q_n+1) = Phi(q_0), so that
    /// the residuals the tolerance accepts do not add up. Convergence is judged on the residual
    /// of (23), (27), (28) as written and on those joint rows; the per-body block is 3 x 3
    /// instead of 24 x 24. Its tangent is exact up to terms of the size of the directors'
    /// orthonormality error (round-off), with the cross-body term of (42) for dot rows between
    /// two bodies (`cross.rs`), and without that of sliding and distance rows between two
    /// bodies: convergence is quadratic except for those, where it is fast but linear.
    ///
    /// The tolerance is held above 4 eps max|u_n| (u_n all positions, directors and momenta):
    /// below the round-off of the largest terms it cannot be reached (a chain of 1024 links has
    /// momenta of 1e4). A step whose condensed solve does not converge is taken by `step_full`
    /// from the same start; the iterations reported are then those of both.
    fn step(&mut self, model: &Model, settings: &Settings) -> Result<StepInfo, StepError> {
        let scale = max_abs_cols(&self.s.q).max(max_abs_cols(&self.s.p));
        let settings = &Settings {
            tol: effective_tol(settings.tol, scale),
            ..*settings
        };
        let condensed = match self.step_condensed(model, settings) {
            Ok(info) => return Ok(info),
            Err(e) => e,
        };
        let failed = match condensed {
            StepError::NoConvergence { iterations, .. } => iterations,
            _ => 0,
        };
        // Far from the solution (a large step, a fast spin) Newton in Omega can run away
        // through the Cayley map, where Newton in the director coordinates, whose equations are
        // polynomial, still converges: the step is then taken by `step_full` from the same start.
        let info = match self.step_full(model, settings) {
            Ok(info) => info,
            Err(StepError::NoConvergence {
                iterations,
                residual,
                tol,
                falling,
            }) => {
                return Err(StepError::NoConvergence {
                    iterations: failed + iterations,
                    residual,
                    tol,
                    falling,
                })
            }
            // the fallback's tangent is singular: when a body turns a radian or more in the
            // step (a spin of 1e9 rad/s), that is the cause; otherwise (a stiff element far
            // from the solution) the condensed solve's failure says better what happened
            Err(e @ StepError::BodySingular { turn, .. }) if turn >= 1.0 => return Err(e),
            Err(_) => return Err(condensed),
        };
        self.s.fallbacks += 1;
        Ok(StepInfo {
            iterations: failed + info.iterations,
            residual: info.residual,
        })
    }

    /// End of a converged step (either solve): reject a non-finite or overflowing new state,
    /// keep the predictor history (`remember`), then take q_n+1, p_n+1 and lambda as the state.
    pub(super) fn accept(&mut self, h: f64, slow: bool) -> Result<(), StepError> {
        if !self.w.q1.iter().chain(&self.w.p1).all(|v| {
            v.iter()
                .all(|x| x.is_finite() && x.abs() <= crate::model::MAX_MAGNITUDE)
        }) {
            return Err(StepError::NonFinite);
        }
        self.remember(h, slow);
        if !self.c.model.drives.is_empty() {
            self.s.forces.work += self.drive_work(h);
        }
        if self.c.model.has_elements() {
            let f = &mut self.s.forces;
            f.work += self.w.budget.work;
            f.dissipated += self.w.budget.dissipated;
            f.angles.copy_from_slice(&self.w.angles1);
            f.accept_contact(&self.w.slots1);
        }
        self.s.forces.t += h;
        core::mem::swap(&mut self.s.q, &mut self.w.q1);
        core::mem::swap(&mut self.s.p, &mut self.w.p1);
        core::mem::swap(&mut self.s.lambda, &mut self.w.lambda1);
        if !self.c.contacts.list.is_empty() {
            contact::rebase(&self.c.contacts, &self.s.q, &mut self.s.forces.contact);
        }
        Ok(())
    }

    /// Keep the last step's Omega and lambda (still in `om`, `lambda`) for the predictor, before
    /// a step of size `h` replaces them.
    pub(super) fn remember(&mut self, h: f64, slow: bool) {
        self.s.om_prev.rotate_right(1);
        self.s.om_prev[0].copy_from_slice(&self.s.om);
        self.s.lambda_prev.rotate_right(1);
        self.s.lambda_prev[0].copy_from_slice(&self.s.lambda);
        self.s.same_h = if h == self.s.last_h {
            (self.s.same_h + 1).min(7)
        } else {
            1
        };
        self.s.last_h = h;
        self.s.slow = slow;
    }

    /// Mean directors of body `b` over the step (as of the last [`Ctx::mean_gradients`]).
    pub(super) fn mean_rot(&self, b: usize) -> DMat3 {
        self.w.qbar[b]
    }

    /// dV*/dq0 + dPhi*/dq^T lambda for body `b`: translational (3) and rotational (9) parts.
    pub(super) fn forces(&self, b: usize, model: &Model) -> ([f64; 3], V9<f64>) {
        (self.force_translational(b, model), self.force_rotational(b))
    }

    /// dV*/dq0 + dPhi*/dq0^T lambda for body `b`.
    pub(super) fn force_translational(&self, b: usize, model: &Model) -> [f64; 3] {
        let c = self.c;
        let m = model.bodies[b].mass;
        let g = model.gravity;
        let mut f0 = [-m * g.x, -m * g.y, -m * g.z];
        for &Incident { joint: j, is_b } in &c.at_body[b] {
            let o = c.pattern.offset(j);
            for k in o..o + c.frames[j].rows {
                let grad = &self.w.gmean[k][usize::from(is_b)];
                for i in 0..3 {
                    f0[i] += grad[i] * self.w.lambda1[k];
                }
            }
        }
        if model.has_elements() {
            for (f, x) in f0.iter_mut().zip(&self.w.fext[b]) {
                *f += x;
            }
        }
        f0
    }

    /// dPhi*/dq_r^T lambda for body `b` (the directors' part, 9 numbers).
    pub(super) fn force_rotational(&self, b: usize) -> V9<f64> {
        let c = self.c;
        let mut f = [0.0; 9];
        for &Incident { joint: j, is_b } in &c.at_body[b] {
            let o = c.pattern.offset(j);
            for k in o..o + c.frames[j].rows {
                let grad = &self.w.gmean[k][usize::from(is_b)];
                for i in 0..9 {
                    f[i] += grad[3 + i] * self.w.lambda1[k];
                }
            }
        }
        if c.model.has_elements() {
            for (f, x) in f.iter_mut().zip(&self.w.fext[b][3..]) {
                *f += x;
            }
        }
        f
    }
}
