//! Contact in its continuous form, for the rotation-matrix methods (RATTLE, Baumgarte):
//! forces and torques at a state, the power the normal damping dissipates, and the friction
//! state's update at the end of a step.
//!
//! ```text
//! point-plane  d = r - n . (x + R s - p0),  ddot = -n . (v + w x R s)
//!              F n at x + R s (law.rs's continuous F), friction -k_t u at x + R s_c with u
//!              the stick spring's return map from the step's start to this state (so that
//!              the spring is a force of the positions, which the symplectic step needs: with
//!              u frozen over the step RATTLE's box on an incline crept at 0.3 mm/s)
//! sphere pair  d = r_a + r_b - l,  ddot = -e . (pdot_b - pdot_a),  e = (p_b - p_a) / l
//!              F e on b at p_b, -F e on a at p_a
//! point-line   the same between the point and its foot on the line (the nearest points at
//!              this state: moving the foot along the line changes neither l nor its rate)
//! point-face   d = off + r - n . w,  n = R_b m,  w = p_a - x_b,  ddot = -n . (pdot_a - v_b(p_a))
//!              F n on a at p_a, -F n on b there
//! pair friction the stick spring between the two bodies' points (`friction.rs`)
//! power        dD/dt = (F - F_e) ddot >= 0 (law.rs)
//! end of step  u_n+1 by the return map (mod.rs) from P (p_c(x_n+1, R_n+1) - p_c,n), the
//!              cap mu F_n+1; D += k_t ubar . Delta a (and what the cap releases)
//! ```
use super::compile::Probes;
use super::friction::rebase;
use super::friction::{return_map, unload, PairFriction, PlaneFriction};
use super::probe::{Geometry, Probe};
use super::step::StepState;
use crate::model::BodyState;
use glam::DVec3;

/// The stick spring's return map at the state `st` from the step's start (`slot`), with the
/// normal force `f` there: (u, the anchor's move).
fn stick_map(p: &Probe, slot: &PlaneFriction, st: &BodyState, n: DVec3, f: f64) -> (DVec3, DVec3) {
    let dp = st.x + st.r * slot.sc - slot.pc;
    let mu = if slot.sliding { p.mu_k } else { p.mu_s };
    let cap = (mu * f).max(p.kt * crate::math::length(slot.u));
    return_map(slot.u, dp - n * n.dot(dp), cap, p.kt)
}

/// The stick spring's displacement u at the state `st` (see [`stick_map`]).
fn stick(p: &Probe, slot: &PlaneFriction, st: &BodyState, n: DVec3, f: f64) -> DVec3 {
    stick_map(p, slot, st, n, f).0
}

fn velocity(s: &BodyState, arm: DVec3) -> DVec3 {
    s.v + (s.r * s.w).cross(arm)
}

/// A point-plane probe's arm R s, indentation d and its rate at the body's state `st`
/// (module notes).
fn plane_normal(st: &BodyState, sp: DVec3, r: f64, p0: DVec3, n: DVec3) -> (DVec3, f64, f64) {
    let arm = st.r * sp;
    (arm, r - n.dot(st.x + arm - p0), -n.dot(velocity(st, arm)))
}

/// Add the contacts' forces and torques at the states `s` (friction from `slots`) to `force`
/// and `torque`; returns the dissipated power (W), >= 0.
pub fn add_world(
    probes: &Probes,
    state: &StepState,
    s: &[BodyState],
    slots: &[PlaneFriction],
    force: &mut [DVec3],
    torque: &mut [DVec3],
) -> f64 {
    each_force(probes, state, s, slots, |body, arm, f, _| {
        force[body] += f;
        torque[body] += arm.cross(f);
    })
}

/// Each contact force at the states `s` (friction from `slots`): `visit(body, arm, f, at)`
/// for the force f on `body` acting through the point at `arm` from its centre, `at` being the
/// contact point (world) it is drawn at: a point-plane contact's normal force and its friction,
/// and a sphere pair's two forces, one on each sphere. Returns the dissipated power (W), >= 0.
pub fn each_force(
    probes: &Probes,
    state: &StepState,
    s: &[BodyState],
    slots: &[PlaneFriction],
    mut visit: impl FnMut(usize, DVec3, DVec3, DVec3),
) -> f64 {
    let mut power = 0.0;
    // (no slots: no contact state, the plane probes left out, as the MuJoCo evaluator's
    // reactions ask, tumble-wasm external.rs)
    for i in state.planes(probes.list.len().min(slots.len())) {
        let (p, slot) = (&probes.list[i], &slots[i]);
        // (the pairs' geometries are in `pairs`, below)
        if let Geometry::PointPlane {
            body,
            s: sp,
            r,
            p0,
            n,
        } = p.geometry
        {
            let st = &s[body];
            let (arm, d, ddot) = plane_normal(st, sp, r, p0, n);
            let (f, fe) = p.law.force(d, ddot);
            power += (f - fe) * ddot;
            let at = st.x + arm - n * (r - d);
            if f != 0.0 {
                visit(body, arm, n * f, at);
            }
            if p.kt > 0.0 && d > 0.0 {
                // the stick spring at this state: the return map from the step's start
                let u = stick(p, slot, st, n, f);
                if u != DVec3::ZERO {
                    visit(body, st.r * slot.sc, u * -p.kt, at);
                }
            }
        }
    }
    for (p, pslot) in state.pairs.iter().zip(&state.friction.slots) {
        match p.geometry {
            Geometry::PointPlane { .. } => {}
            Geometry::SpherePair { .. }
            | Geometry::PointLine { .. }
            | Geometry::Segments { .. } => {
                let Some((a, arm_a, ra, b, arm_b, rb)) = p.centres(s) else {
                    continue;
                };
                let e = s[b].x + arm_b - s[a].x - arm_a;
                let l = crate::math::length(e);
                if l == 0.0 {
                    continue;
                }
                let e = e / l;
                let ddot = -e.dot(velocity(&s[b], arm_b) - velocity(&s[a], arm_a));
                let (f, fe) = p.law.force(ra + rb - l, ddot);
                power += (f - fe) * ddot;
                if f != 0.0 {
                    // drawn where the two surfaces meet, halfway through the overlap
                    let at = s[a].x + arm_a + e * (0.5 * (ra + l - rb));
                    visit(b, arm_b, e * f, at);
                    visit(a, arm_a, -e * f, at);
                    pair_friction_at(p, pslot, s, (ra + rb - l, f), |k, arm, f| {
                        visit(k, arm, f, at)
                    });
                }
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
                // the point's speed against b's material point under it
                let ddot = -n.dot(velocity(&s[a], arm_a) - velocity(&s[b], w));
                let d = off + r - n.dot(w);
                let (f, fe) = p.law.force(d, ddot);
                power += (f - fe) * ddot;
                if f != 0.0 {
                    let at = s[a].x + arm_a - n * (r - 0.5 * d);
                    visit(a, arm_a, n * f, at);
                    visit(b, w, -n * f, at);
                    pair_friction_at(p, pslot, s, (d, f), |k, arm, f| visit(k, arm, f, at));
                }
            }
        }
    }
    power
}

/// The power (W, >= 0) the contacts' normal damping dissipates at the states `s`: what
/// [`add_world`] returns, without the forces (RATTLE's W and D at the step's end need only
/// this; the same sums in the same order, so the same bits).
pub fn power(probes: &Probes, state: &StepState, s: &[BodyState]) -> f64 {
    let mut power = 0.0;
    for i in state.planes(probes.list.len()) {
        let p = &probes.list[i];
        if let Geometry::PointPlane {
            body,
            s: sp,
            r,
            p0,
            n,
        } = p.geometry
        {
            let (_, d, ddot) = plane_normal(&s[body], sp, r, p0, n);
            let (f, fe) = p.law.force(d, ddot);
            power += (f - fe) * ddot;
        }
    }
    for p in &state.pairs {
        if !matches!(p.geometry, Geometry::PointPlane { .. }) {
            let (d, ddot) = pair_normal(p, s);
            let (f, fe) = p.law.force(d, ddot);
            power += (f - fe) * ddot;
        }
    }
    power
}

/// At the end of a step to the states `s`: the friction state's return map and the next
/// step's contact points; returns the energy the friction dissipated (J), >= 0. (A probe out
/// of reach of the step, `cull.rs`, holds no spring: only its contact point is moved.)
pub fn advance(
    probes: &Probes,
    state: &StepState,
    s: &[BodyState],
    slots: &mut [PlaneFriction],
) -> f64 {
    let mut dissipated = 0.0;
    let mut near = state.planes(probes.list.len()).peekable();
    for (i, (p, slot)) in probes.list.iter().zip(slots.iter_mut()).enumerate() {
        if near.next_if_eq(&i).is_none() {
            rebase(p, s, slot);
            continue;
        }
        if let Geometry::PointPlane {
            body,
            s: sp,
            r,
            p0,
            n,
        } = p.geometry
        {
            if p.kt > 0.0 {
                let st = &s[body];
                let arm = st.r * sp;
                let d = r - n.dot(st.x + arm - p0);
                let (f, _) = p.law.force(d, -n.dot(velocity(st, arm)));
                if d <= 0.0 {
                    dissipated += 0.5 * p.kt * slot.u.length_squared();
                    slot.u = DVec3::ZERO;
                    slot.sliding = false;
                } else {
                    let (u1, da) = stick_map(p, slot, st, n, f);
                    dissipated += p.kt * ((slot.u + u1) * 0.5).dot(da);
                    let mu = if slot.sliding { p.mu_k } else { p.mu_s };
                    let (lim, l1) = (mu * f / p.kt, crate::math::length(u1));
                    slot.u = if l1 > lim {
                        dissipated += 0.5 * p.kt * (l1 * l1 - lim * lim);
                        u1 * (lim / l1)
                    } else {
                        u1
                    };
                    slot.sliding = da != DVec3::ZERO;
                }
            }
            rebase(p, s, slot);
        }
    }
    dissipated
}

/// The pair's indentation d and its rate at the states `s` .
pub fn pair_normal(p: &Probe, s: &[BodyState]) -> (f64, f64) {
    let vel = |b: usize, arm: DVec3| s[b].v + (s[b].r * s[b].w).cross(arm);
    match p.geometry {
        Geometry::SpherePair { .. } | Geometry::PointLine { .. } | Geometry::Segments { .. } => {
            let Some((a, arm_a, ra, b, arm_b, rb)) = p.centres(s) else {
                return (0.0, 0.0);
            };
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

/// The stick spring of pair `p` at the states `s` from the step's start `slot`, with the
/// normal force `f` there: (u_n', the energy its unloading released, u, the anchor's move).
fn pair_stick_map(
    p: &Probe,
    slot: &PairFriction,
    s: &[BodyState],
    f: f64,
) -> (DVec3, f64, DVec3, DVec3) {
    let (a, b) = p.bodies();
    let delta = (s[b].x + s[b].r * slot.sb) - (s[a].x + s[a].r * slot.sa);
    let mu = if slot.sliding { p.mu_k } else { p.mu_s };
    let (un, released) = unload(slot.u, mu * f, p.kt);
    let (u, da) = return_map(un, delta - slot.n * slot.n.dot(delta), mu * f, p.kt);
    (un, released, u, da)
}

/// The friction of pair `p` at the states `s` (continuous form; `d` its indentation and `f`
/// its normal force there): `visit(body, arm, force)` for each of its two forces.
pub fn pair_friction_at(
    p: &Probe,
    slot: &PairFriction,
    s: &[BodyState],
    (d, f): (f64, f64),
    mut visit: impl FnMut(usize, DVec3, DVec3),
) {
    if p.kt == 0.0 || slot.n == DVec3::ZERO || d <= 0.0 {
        return;
    }
    let u = pair_stick_map(p, slot, s, f).2;
    if u != DVec3::ZERO {
        let (a, b) = p.bodies();
        visit(b, s[b].r * slot.sb, u * -p.kt);
        visit(a, s[a].r * slot.sa, u * p.kt);
    }
}

/// At the end of a step to the states `s` (RATTLE, Baumgarte): the pairs' return maps into
/// `state.friction.next`; returns the energy their friction dissipated (J), >= 0, with what the sweep
/// released.
pub fn advance_pairs(state: &mut StepState, s: &[BodyState]) -> f64 {
    let f = &mut state.friction;
    f.fresh = false;
    let mut dissipated = f.released;
    for ((p, slot), out) in state.pairs.iter().zip(&f.slots).zip(&mut f.next) {
        *out = *slot;
        if p.kt == 0.0 || slot.n == DVec3::ZERO {
            continue;
        }
        let (d, ddot) = pair_normal(p, s);
        if d <= 0.0 {
            dissipated += 0.5 * p.kt * slot.u.length_squared();
            out.u = DVec3::ZERO;
            out.sliding = false;
            continue;
        }
        let (f, _) = p.law.force(d, ddot);
        let (un, released, u1, da) = pair_stick_map(p, slot, s, f);
        dissipated += released + p.kt * ((un + u1) * 0.5).dot(da);
        out.u = u1;
        out.sliding = da != DVec3::ZERO;
    }
    dissipated
}
