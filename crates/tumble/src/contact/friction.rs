//! The friction state of the contacts, and the stick spring's rules: the plane contacts'
//! state ([`PlaneFriction`], one per plane probe, in `forces::State`), a pair's
//! ([`PairFriction`], carried from step to step as the broad phase finds the pair again:
//! `pair_friction.rs`), the return map and the unloading that bound the spring by mu F.
//!
//! ```text
//! spring       an elastic-plastic tangential spring anchored where the contact point stuck:
//!              u = the point's tangential displacement from its anchor, force -k_t u,
//!              |k_t u| <= mu F (mu_s while sticking, mu_k while sliding)
//! return map   u_trial = u_n + P Delta p_c; beyond the cap the anchor slides:
//!              u_n+1 = (mu F / k_t) u_trial / |u_trial|, Delta a = u_trial - u_n+1
//! unloading    u_n brought down to mu F / k_t when F falls: k_t (|u|^2 - |u'|^2) / 2 to D
//! ```
use super::probe::{Geometry, Probe};
use crate::model::BodyState;
use glam::DVec3;

/// A plane contact's friction state, what it remembers between steps (in `forces::State`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlaneFriction {
    /// the elastic tangential displacement u (world, perpendicular to the normal) (m)
    pub u: DVec3,
    /// the contact point in the body's frame for the next step, s + R^T (-r n)
    pub sc: DVec3,
    /// where that point is at the start of the next step (world)
    pub pc: DVec3,
    /// whether the contact slid in the last step (then mu_k holds, else mu_s)
    pub sliding: bool,
}

/// A pair's friction state: its stick spring and where it acts this step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairFriction {
    /// the elastic tangential displacement u (world, perpendicular to `n`) (m)
    pub u: DVec3,
    /// the contact point in a's frame
    pub sa: DVec3,
    /// the contact point in b's frame
    pub sb: DVec3,
    /// the normal at the step's start (zero: no friction this step)
    pub n: DVec3,
    /// whether it slid in the last step (then mu_k holds, else mu_s)
    pub sliding: bool,
}

/// The return map of the stick spring: from `un` and the contact point's tangential move
/// `dpt`, with the bound `cap` on k_t |u| (N): (u_n+1, the anchor's move Delta a).
pub fn return_map(un: DVec3, dpt: DVec3, cap: f64, kt: f64) -> (DVec3, DVec3) {
    let trial = un + dpt;
    let lim = cap / kt;
    let l = crate::math::length(trial);
    if !(kt > 0.0) || l <= lim {
        return (trial, DVec3::ZERO);
    }
    let u1 = trial * (lim / l);
    (u1, trial - u1)
}

/// u_n brought down to the bound `cap` on k_t |u| (N): (u_n', the energy released, J).
pub fn unload(u: DVec3, cap: f64, kt: f64) -> (DVec3, f64) {
    let (l, lim) = (crate::math::length(u), cap.max(0.0) / kt);
    if l <= lim {
        return (u, 0.0);
    }
    (u * (lim / l), 0.5 * kt * (l * l - lim * lim))
}

/// Set a point-plane probe's contact point for the next step from the states `s`: the body
/// point under the contact, s + R^T (-r n), and where it is (nothing for a pair).
pub fn rebase(p: &Probe, s: &[BodyState], slot: &mut PlaneFriction) {
    if let Geometry::PointPlane {
        body, s: sp, r, n, ..
    } = p.geometry
    {
        slot.sc = sp + s[body].r.transpose() * (n * -r);
        slot.pc = s[body].x + s[body].r * slot.sc;
    }
}
