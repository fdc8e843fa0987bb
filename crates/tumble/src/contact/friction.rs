//! The friction state of the contacts, and the stick spring's rules: the plane contacts'
//! state ([`PlaneFriction`], one per plane probe, in `forces::State`), a pair's
//! ([`PairFriction`], carried from step to step as the broad phase finds the pair again:
//! the pairs' below), the return map and the unloading that bound the spring by mu F.
//!
//! ```text
//! spring       an elastic-plastic tangential spring anchored where the contact point stuck:
//!              u = the point's tangential displacement from its anchor, force -k_t u,
//!              |k_t u| <= mu F (mu_s while sticking, mu_k while sliding)
//! return map   u_trial = u_n + P Delta p_c; beyond the cap the anchor slides:
//!              u_n+1 = (mu F / k_t) u_trial / |u_trial|, Delta a = u_trial - u_n+1
//! unloading    u_n brought down to mu F / k_t when F falls: k_t (|u|^2 - |u'|^2) / 2 to D
//! ```
//!
//! Pairs. Friction between the shapes of two bodies: the plane contacts' stick spring on the pairs
//! of the pair table (sphere and capsule pairs, points against boxes' faces).
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
//!           u_trial = u_n' + P delta (P = I - n n^T) and the return map above with the
//!           cap mu F; -k_t ubar on b's point, +k_t ubar on a's (ubar = (u_n' + u_n+1) / 2):
//!           work -k_t ubar . delta = -k_t ubar . (Delta u + Delta a), the change of V_t from
//!           u_n' plus a dissipation k_t ubar . Delta a >= 0 (ubar lies in the tangent plane:
//!           u_n does, below, and so does P delta). |k_t ubar| <= mu F: the friction force is
//!           bounded by mu times this step's normal force (the plane contacts' cap is
//!           max(mu F, k_t |u_n|) and lags the normal force by a step as it falls)
//! carried   a pair found again at the next step (the same two colliders and part) keeps its u,
//!           turned into the new tangent plane with its length kept (V_t continuous across the
//!           steps); a pair not found again gives k_t |u|^2 / 2 to D (`PairFrictions::released`); a
//!           sweep again from the same start (no step ended since) carries from the same springs
//! k_t       Mindlin's ratio of the normal stiffness (as a plane contact's): Hertz at the
//!           indentation of the reduced mass's weight, a box corner's linear k
//! ```
//! Equal and opposite forces: linear momentum is kept exactly. The two points coincide at the
//! step's start and part by the step's slip, so the pair of forces has a moment of second
//! order in the step (angular momentum is kept to that, not exactly as by the normal force).
//! The director takes the discrete form (`methods/director/contact.rs`), whose balance is exact: E - E0 - W + D
//! at the Newton tolerance. RATTLE and Baumgarte take the spring at a state (`continuous.rs`) and the
//! return map at the step's end (`continuous.rs` `advance_pairs`).
use super::collider::Colliders;
use super::law::Kind;
use super::material;
use super::probe::{Geometry, Probe};
use crate::model::BodyState;
use alloc::vec::Vec;
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
// (`!(kt > 0.0)`: a k_t that is zero or NaN holds no spring)
#[allow(clippy::neg_cmp_op_on_partial_ord)]
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

/// The friction state of the step's pairs (in `forces::State`, through `StepState`): per pair
/// its spring at the step's start, at the end of the director's current iterate and at the end
/// of the last step taken, and what carrying them from the last step's pairs needs.
#[derive(Debug, Default, PartialEq)]
pub struct PairFrictions {
    /// per pair: its friction at the step's start
    pub slots: Vec<PairFriction>,
    /// per pair: at the end of the director's current iterate
    pub pending: Vec<PairFriction>,
    /// per pair: at the end of the last step taken (its V_t is the pair's friction energy)
    pub next: Vec<PairFriction>,
    /// scratch: the last step's springs that hold something, by key, with their k_t
    carried: Vec<(([usize; 2], u32), PairFriction, f64)>,
    /// the energy of the springs of last step's pairs not found again, released to D (J)
    pub released: f64,
    /// whether no step has ended since the last sweep (a sweep again from the same start, as
    /// the director's fallback to its full solve does, keeps `carried` and `released`)
    pub fresh: bool,
    /// scratch of `carry`: the last Hertz pair's k and reduced mass, and its k_n
    kt_memo: (f64, f64, f64),
}

impl Clone for PairFrictions {
    /// A copy with the room `self` has (`StepState`'s clone).
    fn clone(&self) -> Self {
        let mut f = PairFrictions::default();
        for (v, w) in [
            (&mut f.slots, &self.slots),
            (&mut f.pending, &self.pending),
            (&mut f.next, &self.next),
        ] {
            v.reserve(w.capacity());
        }
        f.assign(self);
        f
    }
}

impl PairFrictions {
    /// Become a copy of `src` as a restored state needs it (the springs at the start and at
    /// the end of the last step, the energy released, `fresh`), reusing this one's storage.
    pub fn assign(&mut self, src: &PairFrictions) {
        self.slots.clone_from(&src.slots);
        self.next.clone_from(&src.next);
        self.released = src.released;
        self.fresh = src.fresh;
    }

    /// Room for `room` pairs, so that a step allocates nothing.
    pub fn reserve(&mut self, room: usize) {
        for v in [&mut self.slots, &mut self.pending, &mut self.next] {
            v.reserve(room);
        }
        self.carried.reserve(room);
    }

    /// Before the sweep replaces the pairs: keep the springs that hold something, with their
    /// pairs' keys and k_t (sorted by key, as the pairs are).
    pub fn stash(&mut self, pairs: &[Probe]) {
        if self.fresh {
            return;
        }
        self.carried.clear();
        for (p, slot) in pairs.iter().zip(&self.next) {
            if slot.u != DVec3::ZERO {
                self.carried.push(((p.shapes, p.part), *slot, p.kt));
            }
        }
    }

    /// After the pair table made the step's `pairs` at the states `s`: each pair's friction
    /// (coefficients and k_t from its colliders' materials), its contact for the step, and its u
    /// carried from the last step's (`carried`, module notes); the springs of the step's start
    /// into `slots`, `pending` and `next`.
    pub fn carry(&mut self, colliders: &Colliders, pairs: &mut [Probe], s: &[BodyState]) {
        let PairFrictions {
            slots,
            pending,
            next,
            carried,
            released,
            fresh,
            kt_memo,
        } = self;
        // (k and m are never zero: no pair meets this)
        *kt_memo = (0.0, 0.0, 0.0);
        *fresh = true;
        slots.clear();
        *released = 0.0;
        let mut k = 0;
        let weight = colliders.weight.max(1.0);
        for p in pairs.iter_mut() {
            let (a, b) = (&colliders.list[p.shapes[0]], &colliders.list[p.shapes[1]]);
            (p.mu_k, p.mu_s) = material::friction(&a.surface, &b.surface);
            let ratio = material::mindlin(&a.surface, &b.surface);
            let (ma, mb) = (colliders.mass[a.body], colliders.mass[b.body]);
            let m = ma * mb / (ma + mb);
            let kn = match p.law.kind {
                // the last pair's, where this one's k and m are the same (a pile of equal
                // balls: one cube root a step instead of one a pair)
                Kind::Hertz if (p.law.k, m) == (kt_memo.0, kt_memo.1) => kt_memo.2,
                Kind::Hertz => {
                    let kn = material::hertz_kn(p.law.k, m, weight);
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

/// The pair's contact point and normal at the states `s` (module notes), if it has them.
fn contact(p: &Probe, s: &[BodyState]) -> Option<(DVec3, DVec3)> {
    match p.geometry {
        Geometry::SpherePair { .. } | Geometry::PointLine { .. } | Geometry::Segments { .. } => {
            let (a, arm_a, ra, b, arm_b, _) = p.centres(s)?;
            let pa = s[a].x + arm_a;
            let e = s[b].x + arm_b - pa;
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
