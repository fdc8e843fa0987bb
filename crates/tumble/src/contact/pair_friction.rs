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
use super::discrete::{add_point, Coupling, Stiffness};
use super::{return_map, Geometry, Kind, Probe};
use crate::model::BodyState;
use glam::{DMat3, DVec3};

/// A pair's friction state: its stick spring and where it acts this step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairSlot {
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

/// The two bodies of a pair.
fn bodies(p: &Probe) -> (usize, usize) {
    match p.geometry {
        Geometry::SpherePair { a, b, .. } | Geometry::PointFace { a, b, .. } => (a, b),
        Geometry::PointPlane { body, .. } => (body, body),
    }
}

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

/// The pair's indentation d and its rate at the states `s` (continuous form, `world.rs`).
pub fn normal(p: &Probe, s: &[BodyState]) -> (f64, f64) {
    let vel = |b: usize, arm: DVec3| s[b].v + (s[b].r * s[b].w).cross(arm);
    match p.geometry {
        Geometry::SpherePair {
            a,
            sa,
            ra,
            b,
            sb,
            rb,
        } => {
            let (arm_a, arm_b) = (s[a].r * sa, s[b].r * sb);
            let e = s[b].x + arm_b - s[a].x - arm_a;
            let l = crate::math::length(e);
            let ddot = if l > 0.0 {
                -(e / l).dot(vel(b, arm_b) - vel(a, arm_a))
            } else {
                0.0
            };
            (ra + rb - l, ddot)
        }
        Geometry::PointFace {
            a,
            sa,
            r,
            b,
            m,
            off,
        } => {
            let n = s[b].r * m;
            let arm_a = s[a].r * sa;
            let w = s[a].x + arm_a - s[b].x;
            (off + r - n.dot(w), -n.dot(vel(a, arm_a) - vel(b, w)))
        }
        Geometry::PointPlane { .. } => (0.0, 0.0),
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
            let mut slot = PairSlot::default();
            if p.kt > 0.0 {
                if let Some((c, n)) = contact(p, s) {
                    let (ia, ib) = bodies(p);
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

/// The body point `s` at the director coordinates `q`.
fn point(q: &[f64; 12], s: DVec3) -> DVec3 {
    DVec3::new(q[0], q[1], q[2]) + DMat3::from_cols_slice(&q[3..12]) * s
}

/// The director's friction of pair `p` over the step from `qn` to `q1`, its normal force of
/// the step `f` and indentations `d0`, `d1` (`discrete.rs`): its generalised forces into `g`,
/// its stiffness into `stiff` and `couple`, the slot at n+1 into `out`; returns what it
/// dissipated (J).
#[allow(clippy::too_many_arguments)]
pub fn discrete(
    p: &Probe,
    slot: &PairSlot,
    out: &mut PairSlot,
    (f, d0, d1): (f64, f64, f64),
    qn: &[[f64; 12]],
    q1: &[[f64; 12]],
    g: &mut [[f64; 12]],
    (stiff, couple): (&mut [Stiffness], &mut alloc::vec::Vec<Coupling>),
) -> f64 {
    *out = *slot;
    if p.kt == 0.0 || slot.n == DVec3::ZERO {
        return 0.0;
    }
    if d0 <= 0.0 && d1 <= 0.0 {
        // open at both ends: the spring lets go, its energy dissipated
        out.u = DVec3::ZERO;
        out.sliding = false;
        return 0.5 * p.kt * slot.u.length_squared();
    }
    let (a, b) = bodies(p);
    let n = slot.n;
    let delta = (point(&q1[b], slot.sb) - point(&qn[b], slot.sb))
        - (point(&q1[a], slot.sa) - point(&qn[a], slot.sa));
    let mu = if slot.sliding { p.mu_k } else { p.mu_s };
    let (un, mut dissipated) = unload(slot.u, mu * f, p.kt);
    let (u1, da) = return_map(un, delta - n * n.dot(delta), mu * f, p.kt);
    let ubar = (un + u1) * 0.5;
    dissipated += p.kt * ubar.dot(da);
    if ubar != DVec3::ZERO {
        add_point(&mut g[b], slot.sb, ubar * p.kt);
        add_point(&mut g[a], slot.sa, ubar * -p.kt);
    }
    if da == DVec3::ZERO {
        let tangent =
            (DMat3::IDENTITY - DMat3::from_cols(n * n.x, n * n.y, n * n.z)) * (0.5 * p.kt);
        for (body, sp) in [(a, slot.sa), (b, slot.sb)] {
            let arm = point(&q1[body], sp) - point(&q1[body], DVec3::ZERO);
            let ax = crate::math::skew(arm);
            stiff[body].x += tangent;
            stiff[body].r += ax.transpose() * tangent * ax;
        }
        if let Geometry::SpherePair { .. } = p.geometry {
            couple.push(Coupling { a, b, k: tangent }); // (not a point-face pair: `Coupling`)
        }
    }
    out.u = u1;
    out.sliding = da != DVec3::ZERO;
    dissipated
}

/// u_n brought down to the bound `cap` on k_t |u| (N): (u_n', the energy released, J).
fn unload(u: DVec3, cap: f64, kt: f64) -> (DVec3, f64) {
    let (l, lim) = (crate::math::length(u), cap.max(0.0) / kt);
    if l <= lim {
        return (u, 0.0);
    }
    (u * (lim / l), 0.5 * kt * (l * l - lim * lim))
}

/// The stick spring of pair `p` at the states `s` from the step's start `slot`, with the
/// normal force `f` there: (u_n', the energy its unloading released, u, the anchor's move).
fn stick_map(p: &Probe, slot: &PairSlot, s: &[BodyState], f: f64) -> (DVec3, f64, DVec3, DVec3) {
    let (a, b) = bodies(p);
    let delta = (s[b].x + s[b].r * slot.sb) - (s[a].x + s[a].r * slot.sa);
    let mu = if slot.sliding { p.mu_k } else { p.mu_s };
    let (un, released) = unload(slot.u, mu * f, p.kt);
    let (u, da) = return_map(un, delta - slot.n * slot.n.dot(delta), mu * f, p.kt);
    (un, released, u, da)
}

/// The friction of pair `p` at the states `s` (continuous form; `d` its indentation and `f`
/// its normal force there): `visit(body, arm, force)` for each of its two forces.
pub fn at(
    p: &Probe,
    slot: &PairSlot,
    s: &[BodyState],
    (d, f): (f64, f64),
    mut visit: impl FnMut(usize, DVec3, DVec3),
) {
    if p.kt == 0.0 || slot.n == DVec3::ZERO || d <= 0.0 {
        return;
    }
    let u = stick_map(p, slot, s, f).2;
    if u != DVec3::ZERO {
        let (a, b) = bodies(p);
        visit(b, s[b].r * slot.sb, u * -p.kt);
        visit(a, s[a].r * slot.sa, u * p.kt);
    }
}

/// At the end of a step to the states `s` (RATTLE, Baumgarte): the pairs' return maps into
/// `broad.next`; returns the energy their friction dissipated (J), >= 0, with what the sweep
/// released.
pub fn advance(broad: &mut Broad, s: &[BodyState]) -> f64 {
    broad.fresh = false;
    let mut dissipated = broad.released;
    for ((p, slot), out) in broad.pairs.iter().zip(&broad.slots).zip(&mut broad.next) {
        *out = *slot;
        if p.kt == 0.0 || slot.n == DVec3::ZERO {
            continue;
        }
        let (d, ddot) = normal(p, s);
        if d <= 0.0 {
            dissipated += 0.5 * p.kt * slot.u.length_squared();
            out.u = DVec3::ZERO;
            out.sliding = false;
            continue;
        }
        let (f, _) = p.law.force(d, ddot);
        let (un, released, u1, da) = stick_map(p, slot, s, f);
        dissipated += released + p.kt * ((un + u1) * 0.5).dot(da);
        out.u = u1;
        out.sliding = da != DVec3::ZERO;
    }
    dissipated
}
