//! RATTLE's rotation update: the rotation solved from the momentum (Terze et al. eq. 9, in
//! the Lie algebra), the matrix gradient of a torque, and the body angular velocity from R and P.
use crate::math::{exp_so3_minus_identity, length, skew, skew_vec};
use glam::{DMat3, DVec3};

/// The rotation F = exp(xi^) with F D - D F^T = `m` (m skew), returned as G = F - I so that
/// nothing O(h) is lost to cancellation against the identity (P_1/2 = R_0 G D / h).
/// Newton on the right perturbation F <- F exp(delta^), whose tangent is
/// delta -> vec(F delta^ D + D delta^ F^T); G is updated as G + F (exp(delta^) - I).
/// Starts from exp(J^-1 vec(m)^) (exact to first order, since F D - D F^T = (J xi)^ + O(xi^2)),
/// so F is a product of a few exponentials and stays in SO(3) to round-off.
/// Returns the residual reached as the error if [`ROTATION_ITERATIONS`] iterations do not bring
/// it to round-off (a step so large that the momentum has turned the body by about pi).
pub fn solve_rotation(m: &DMat3, d: DVec3) -> Result<DMat3, f64> {
    let dm = DMat3::from_diagonal(d);
    let target = 2.0 * skew_vec(m);
    let inertia = DVec3::new(d.y + d.z, d.z + d.x, d.x + d.y);
    let xi0 = target / inertia;
    let mut g = exp_so3_minus_identity(xi0);
    let mut res = f64::INFINITY;
    for _ in 0..ROTATION_ITERATIONS {
        let r = 2.0 * skew_vec(&(g * dm - dm * g.transpose())) - target;
        res = length(r);
        if !r.is_finite() {
            return Err(res);
        }
        if res <= 2.0 * f64::EPSILON * length(target) {
            return Ok(g);
        }
        let f = DMat3::IDENTITY + g;
        let cols = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| {
            let k = skew(e);
            2.0 * skew_vec(&(f * k * dm + dm * k * f.transpose()))
        });
        let jac = DMat3::from_cols(cols[0], cols[1], cols[2]);
        if jac.determinant().abs() < 1e-300 {
            return Err(res);
        }
        let delta = jac.inverse() * r;
        g += f * exp_so3_minus_identity(-delta);
        if length(delta) <= 2.0 * f64::EPSILON * length(xi0) {
            return Ok(g);
        }
    }
    Err(res)
}

/// Iteration limit of [`solve_rotation`].
pub const ROTATION_ITERATIONS: u32 = 30;

/// The matrix gradient F = -1/2 R tau^ whose torque is the world torque `tau`
/// (body torque R^T tau = vec(F^T R - R^T F)).
pub(super) fn torque_gradient(r: &DMat3, tau_world: DVec3) -> DMat3 {
    *r * skew(r.transpose() * tau_world) * -0.5
}

/// Body angular velocity from R and P: J w = vec(A - A^T), A = R^T P.
pub(super) fn body_w(b: &crate::model::Body, r: &DMat3, pm: &DMat3) -> DVec3 {
    let a = r.transpose() * *pm;
    2.0 * skew_vec(&a) / b.inertia
}
