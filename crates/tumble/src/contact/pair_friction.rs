//! Friction between the shapes of two bodies: the plane contacts' stick spring (`mod.rs`) on
//! the pairs of the broad phase (sphere and capsule pairs, points against boxes' faces).
//!
//! ```text
//! contact   at the step's start (the broad phase's states): the point c and the normal n
//!           (sphere pair: n from a's point to b's, c = p_a + r_a n; point-face: n = R_b m,
//!           c = p_a - r n), and the material points of both bodies there,
//!           s_a = R_a^T (c - x_a), s_b = R_b^T (c - x_b), held for the step
//! slip      delta = Delta p_b(s_b) - Delta p_a(s_a) over the step: b's point against a's,
//!           linear in the director coordinates
//! spring    u_n' = u_n, brought down to mu F / k_t if longer (F the pair's normal force of
//!           the step; the contact unloads: k_t (|u_n|^2 - |u_n'|^2) / 2 goes to D), then
//!           u_trial = u_n' + P delta (P = I - n n^T) and the return map of `mod.rs` with the
//!           cap mu F; -k_t ubar on b's point, +k_t ubar on a's (ubar = (u_n' + u_n+1) / 2):
//!           work -k_t ubar . delta = -k_t ubar . (Delta u + Delta a), the change of V_t from
//!           u_n' plus a dissipation k_t ubar . Delta a >= 0 (ubar lies in the tangent plane:
//!           u_n does, below, and so does P delta). |k_t ubar| <= mu F: the friction force is
//!           bounded by mu times this step's normal force (the plane contacts' cap is
//!           max(mu F, k_t |u_n|) and lags the normal force by a step as it falls)
//! carried   a pair found again at the next step (the same two balls and part) keeps its u,
//!           turned into the new tangent plane with its length kept (V_t continuous across the
//!           steps); a pair not found again gives k_t |u|^2 / 2 to D (`Broad::released`); a
//!           sweep again from the same start (no step ended since) carries from the same springs
//! k_t       Mindlin's ratio of the normal stiffness (as a plane contact's): Hertz at the
//!           indentation of the reduced mass's weight, a box corner's linear k
//! ```
//! Equal and opposite forces: linear momentum is kept exactly. The two points coincide at the
//! step's start and part by the step's slip, so the pair of forces has a moment of second
//! order in the step (angular momentum is kept to that, not exactly as by the normal force).
//! The director takes the discrete form ([`discrete`]), whose balance is exact: E - E0 - W + D
//! at the Newton tolerance. RATTLE and Baumgarte take the spring at a state ([`at`]) and the
//! return map at the step's end ([`advance`]).
use super::broad::{Balls, Broad};
use super::friction::PairFriction;
use super::law::Kind;
use super::probe::{Geometry, Probe};
use crate::model::BodyState;
use glam::DVec3;

/// The pair's contact point and normal at the states `s` (module notes), if it has them.
fn contact(p: &Probe, s: &[BodyState]) -> Option<(DVec3, DVec3)> {
    match p.geometry {
        Geometry::SpherePair {
            a, sa, ra, b, sb, ..
        } => {
            let pa = s[a].x + s[a].r * sa;
            let e = s[b].x + s[b].r * sb - pa;
            let l = crate::math::length(e);
            (l > 0.0).then(|| (pa + e * (ra / l), e / l))
        }
        Geometry::PointFace { a, sa, r, b, m, .. } => {
            let n = s[b].r * m;
            Some((s[a].x + s[a].r * sa - n * r, n))
        }
        Geometry::PointPlane { .. } => None,
    }
}

impl Balls {
    /// After the sweep found and sorted the step's pairs at the states `s`: each pair's
    /// friction (coefficients and k_t from its balls), its contact for the step, and its u
    /// carried from `out.carried` (the last step's, module notes); the slots of the step's
    /// start into `out.slots`, `out.pending` and `out.next`.
    pub(super) fn carry(&self, s: &[BodyState], out: &mut Broad) {
        let Broad {
            pairs,
            slots,
            pending,
            next,
            carried,
            released,
            fresh,
            kt_memo,
            ..
        } = out;
        // (k and m are never zero: no pair meets this)
        *kt_memo = (0.0, 0.0, 0.0);
        *fresh = true;
        slots.clear();
        *released = 0.0;
        let mut k = 0;
        let weight = self.weight.max(1.0);
        for p in pairs.iter_mut() {
            let (a, b) = (&self.list[p.shapes[0]], &self.list[p.shapes[1]]);
            p.mu_k = crate::math::sqrt(a.friction * b.friction);
            p.mu_s = crate::math::sqrt(a.static_friction * b.static_friction);
            let nu = 0.5 * (a.poisson + b.poisson);
            let ratio = 2.0 * (1.0 - nu) / (2.0 - nu);
            let (ma, mb) = (self.mass[a.body], self.mass[b.body]);
            let m = ma * mb / (ma + mb);
            let kn = match p.law.kind {
                // the last pair's, where this one's k and m are the same (a pile of equal
                // balls: one cube root a step instead of one a pair)
                Kind::Hertz if (p.law.k, m) == (kt_memo.0, kt_memo.1) => kt_memo.2,
                Kind::Hertz => {
                    let kn = 1.5 * libm::cbrt(p.law.k * p.law.k * m * weight);
                    *kt_memo = (p.law.k, m, kn);
                    kn
                }
                Kind::Linear => p.law.k,
            };
            p.kt = if p.mu_s > 0.0 { ratio * kn } else { 0.0 };
            let mut slot = PairFriction::default();
            if p.kt > 0.0 {
                if let Some((c, n)) = contact(p, s) {
                    let (ia, ib) = p.bodies();
                    slot.n = n;
                    slot.sa = s[ia].r.transpose() * (c - s[ia].x);
                    slot.sb = s[ib].r.transpose() * (c - s[ib].x);
                }
            }
            let key = (p.shapes, p.part);
            while k < carried.len() && carried[k].0 < key {
                *released += 0.5 * carried[k].2 * carried[k].1.u.length_squared();
                k += 1;
            }
            if k < carried.len() && carried[k].0 == key {
                let (old, kt) = (carried[k].1, carried[k].2);
                let t = old.u - slot.n * slot.n.dot(old.u);
                let (lt, l) = (crate::math::length(t), crate::math::length(old.u));
                if lt > 0.0 && slot.n != DVec3::ZERO {
                    slot.u = t * (l / lt);
                    slot.sliding = old.sliding;
                } else {
                    *released += 0.5 * kt * l * l;
                }
                k += 1;
            }
            slots.push(slot);
        }
        for c in &carried[k..] {
            *released += 0.5 * c.2 * c.1.u.length_squared();
        }
        pending.clone_from(slots);
        next.clone_from(slots);
    }
}

impl Broad {
    /// Before the sweep replaces the pairs: keep the springs that hold something, with their
    /// pairs' keys and k_t (sorted by key, as the pairs are).
    pub(super) fn stash(&mut self) {
        if self.fresh {
            return;
        }
        self.carried.clear();
        for (p, slot) in self.pairs.iter().zip(&self.next) {
            if slot.u != DVec3::ZERO {
                self.carried.push(((p.shapes, p.part), *slot, p.kt));
            }
        }
    }

    /// Whether the director has contact forces of pairs to evaluate this step.
    pub fn busy(&self) -> bool {
        !self.pairs.is_empty() || self.released > 0.0
    }
}
