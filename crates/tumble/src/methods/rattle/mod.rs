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
//! of `try_step` in `stages.rs`), with S = C(q_1) W(q_0) C(q_0)^T (non-symmetric; it drops
//! only the O(h^3) dependence of the rotation solve on lambda); the first iteration's at the
//! start,
//! C(q_0) W(q_0) C(q_0)^T: its end point, from the start, can fall on a singular
//! position (the N-four-bar's bars horizontal) where C(q_1) lost rank; S^-1 threw the windows
//! off along the self-stresses, into the nearby root with a window's bars mirrored about the
//! horizontal (the thick-rod A02: energy error 108 %, lambda 1e8, then a stop).
//! Later iterations keep C(q_1): near a singular solution its folds are second order.
//! Both are solved with the linear-time joint-space solver of `sparse/`.
//!
//! The files: `state.rs` the state and the scratch space; `stages.rs` the step as its stages
//! (the start's Jacobians and forces, the position stage, the end's forces, the velocity
//! stage, the rotational momenta); `rotation.rs` the rotation update; `forces.rs` the force
//! elements' and contacts' forces per body.
mod forces;
mod rotation;
mod stages;
mod state;

use crate::compiled::Compiled;
pub use crate::model::d_from_inertia;
use crate::step::{Settings, StepError, StepInfo};
pub use rotation::{solve_rotation, ROTATION_ITERATIONS};
pub use state::{Rb, State, Workspace};

/// One step of size `settings.dt`. On error the state, the multipliers included, is as before.
pub fn step(
    c: &Compiled,
    st: &mut State,
    ws: &mut Workspace,
    settings: &Settings,
) -> Result<StepInfo, StepError> {
    ws.lambda_start.copy_from_slice(&st.lambda);
    let result = stages::try_step(c, st, ws, settings);
    if result.is_err() {
        st.lambda.copy_from_slice(&ws.lambda_start);
    }
    result
}
