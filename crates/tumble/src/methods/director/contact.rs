//! Contact in the director method: discrete forces that keep the balance
//! E_n+1 - E_n = -D_step exactly (the gradient convention of `director/forces.rs`: the
//! generalised forces -g, E changes by -g . Delta q).
//!
//! ```text
//! point-plane  gap g = n . (q0 + sum_i s_i q_i - p0) - r is linear in q: Delta g = n . Delta p
//!              exactly; F from law.rs's discrete form, F_e = -Delta V / Delta g; the force
//!              F n on the point: g_gen = -F n on p (add_point), so -g_gen . Delta q = F Delta g
//!              = -Delta V - (F - F_e) Delta d with (F - F_e) Delta d >= 0
//! sphere pair  l = |p_b - p_a|, Delta l = (dbar / lbar) . Delta d exactly: F along dbar/lbar
//!              pushes b away from a, the same balance with g = l - r_a - r_b
//! point-face   g = n . w - off - r with n = Q_b m (b's face normal) and w = p_a - x_b, each
//!              linear in q, so g is bilinear and Delta g = nbar . Delta w + wbar . Delta n
//!              exactly (the means of the step's ends): F nbar on a's point, -F nbar on b's
//!              centre and -F m_i wbar on b's director q_i
//! point-segment l^2 = f = |w|^2 + c(s) with w = p_b - p_a, s = w . n (n = Q m, the axis),
//!              c = -s^2 inside the segment (|s| <= L), L^2 - 2 L |s| beyond (the nearer end's
//!              distance: `probe.rs`); w and n linear in q, s bilinear: Delta s = nbar . Delta w
//!              + wbar . Delta n, and Delta f = 2 wbar . Delta w + k Delta s exactly with k the
//!              difference quotient of c over [s_0, s_1] (-2 sbar inside), so Delta l =
//!              Delta f / (l_0 + l_1) = G_w . Delta w + G_n . Delta n, G_w = (2 wbar + k nbar) /
//!              (l_0 + l_1), G_n = k wbar / (l_0 + l_1): F G_w pushes b's point from a's,
//!              -F m_i G_n on the segment body's director q_i (a point passing an end within
//!              the step stays exact: c is one function of s)
//! segments    d^2 = F(ww, wa, wb, ab), the least of |w + t n_b - s n_a|^2 over the two
//!              segments (w = c_b - c_a between their centres, n_a = Q_a m_a, n_b = Q_b m_b),
//!              a function of the inner products alone: Gonzalez's discrete gradient in them,
//!              Delta d = G_w . Delta w + G_a . Delta n_a + G_b . Delta n_b exactly
//!              (`segments.rs`); F G_w pushes b's centre from a's, -F m_i G_a on a's director
//!              q_i, b's alike
//! pair friction the same between two bodies' points (`contact/friction.rs`)
//! friction     u_trial = u_n + P Delta p_c (P = I - n n^T, p_c = q0 + Q s_c, linear in q),
//!              return map to u_n+1 (mod.rs); force -k_t ubar on p_c (ubar = (u_n + u_n+1)/2):
//!              its work is -k_t ubar . (Delta u + Delta a) = -Delta V_t - k_t ubar . Delta a
//! ```
//! The cap on k_t |u| is mu F of this step, and at least k_t |u_n| so that ubar . Delta a >= 0
//! (a normal force that fell within the step cannot make the anchor's slide give energy
//! back); if u_n+1 then exceeds mu F / k_t it is brought down to it at the end of the step,
//! the released k_t (|u|^2 - |u'|^2) / 2 going to D. Out of contact at both ends there is no
//! friction force and u_n+1 = 0, k_t |u_n|^2 / 2 going to D.
use super::segments::discrete_gradient;
use super::stiffness::{add_point, add_stiffness, point, pos, Coupling, Stiffness};
use crate::contact::compile::Probes;
use crate::contact::friction::{return_map, unload, PairFriction, PlaneFriction};
use crate::contact::probe::{segment_c, segment_feet, segment_slope, Geometry, Probe};
use crate::contact::step::StepState;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// The step the director's contact forms take: from the coordinates `qn` to the iterate `q1`
/// (one per body), of length `h`.
pub struct Step<'a> {
    /// the coordinates at n
    pub qn: &'a [[f64; 12]],
    /// the iterate at n+1
    pub q1: &'a [[f64; 12]],
    /// the step (s)
    pub h: f64,
}

/// Where the forms add what they find: the generalised forces `g` and the stiffness `stiff`
/// (one per body), the couplings between bodies' centres `couple`.
pub struct Sinks<'a> {
    /// the generalised forces, gradient convention
    pub g: &'a mut [[f64; 12]],
    /// the stiffness per body
    pub stiff: &'a mut [Stiffness],
    /// the couplings between bodies
    pub couple: &'a mut Vec<Coupling>,
}

/// The contacts' generalised forces of the step `step` (from `qn` to the iterate `q1`) (added to `out.g`,
/// one per body): the plane contacts of `probes` and the step's pairs of `state` (their slots
/// at n+1 into `state.friction.pending`, and the energy the sweep released); the plane contacts' friction at n+1 into
/// `slots1` and their stiffness at the iterate added to `out.stiff`, and for the pairs also to
/// `out.couple` (both of which the caller clears, `director/mod.rs`); returns D_step (J), >= 0. The stiffness is that of the step's
/// discrete forces with respect to q_n+1: half the elastic stiffness (they act at the mean),
/// c phi'(d) / h of the damping, half k_t while the contact sticks, and nothing while it
/// slides. Newton takes it into its tangent (`director/condensed.rs`); the step is judged on
/// the residual, so the tangent need not be exact.
pub fn evaluate(
    probes: &Probes,
    state: &mut StepState,
    step: &Step,
    (slots, slots1): (&[PlaneFriction], &mut [PlaneFriction]),
    out: &mut Sinks,
) -> f64 {
    let mut dissipated = 0.0;
    let mut near = state.planes(probes.list.len()).peekable();
    for (i, ((p, slot), slot1)) in probes
        .list
        .iter()
        .zip(slots)
        .zip(slots1.iter_mut())
        .enumerate()
    {
        *slot1 = *slot;
        if near.next_if_eq(&i).is_none() {
            continue; // out of reach of the step: no force, no spring (`contact/cull.rs`)
        }
        plane(p, (slot, slot1), step, out, &mut dissipated);
    }
    drop(near);
    let StepState {
        pairs, friction, ..
    } = state;
    let (pslots, pending, released) = (&friction.slots, &mut friction.pending, friction.released);
    dissipated += released;
    for ((p, pslot), pout) in pairs.iter().zip(pslots.iter()).zip(pending.iter_mut()) {
        let normal = match p.geometry {
            Geometry::PointPlane { .. } => continue,
            Geometry::SpherePair { .. } => sphere_pair(p, step, out, &mut dissipated),
            Geometry::PointFace { .. } => point_face(p, step, out, &mut dissipated),
            Geometry::PointLine { .. } => point_line(p, step, out, &mut dissipated),
            Geometry::Segments { .. } => segments(p, step, out, &mut dissipated),
        };
        // friction: the stick spring between the two bodies' points
        dissipated += pair_friction(p, (pslot, pout), normal, step, out);
    }
    dissipated
}

/// A plane contact's normal force and friction over the step (module notes), its friction at
/// n+1 into `slot1`, what it dissipates added to `dissipated`.
fn plane(
    p: &Probe,
    (slot, out): (&PlaneFriction, &mut PlaneFriction),
    step: &Step,
    sinks: &mut Sinks,
    dissipated: &mut f64,
) {
    let Geometry::PointPlane { body, s, r, p0, n } = p.geometry else {
        return;
    };
    let (qn, q1, h) = (step.qn, step.q1, step.h);
    let (g, stiff) = (&mut *sinks.g, &mut *sinks.stiff);
    let (x0, x1) = (point(&qn[body], s), point(&q1[body], s));
    let (d0, d1) = (r - n.dot(x0 - p0), r - n.dot(x1 - p0));
    let (f, fe) = p.law.discrete(d0, d1, h);
    *dissipated += (f - fe) * (d1 - d0);
    if f != 0.0 {
        add_point(&mut g[body], s, n * -f);
        let k = 0.5 * p.law.stiffness(d1) + p.law.c * p.law.damping_factor(d1) / h;
        let arm = point(&q1[body], s) - pos(&q1[body]);
        add_stiffness(
            &mut stiff[body],
            k * DMat3::from_cols(n * n.x, n * n.y, n * n.z),
            arm,
        );
    }
    if p.kt == 0.0 {
        return;
    }
    // friction: the stick spring at the contact point s_c (mod.rs)
    let dp = point(&q1[body], slot.sc) - slot.pc;
    let dpt = dp - n * n.dot(dp);
    if d0 <= 0.0 && d1 <= 0.0 {
        // open at both ends: the spring lets go, its energy dissipated
        *dissipated += 0.5 * p.kt * slot.u.length_squared();
        out.u = DVec3::ZERO;
        out.sliding = false;
        return;
    }
    let mu = if slot.sliding { p.mu_k } else { p.mu_s };
    let cap = (mu * f).max(p.kt * crate::math::length(slot.u));
    let (u1, da) = return_map(slot.u, dpt, cap, p.kt);
    let ubar = (slot.u + u1) * 0.5;
    *dissipated += p.kt * ubar.dot(da);
    if ubar != DVec3::ZERO {
        add_point(&mut g[body], slot.sc, ubar * p.kt);
    }
    if da == DVec3::ZERO {
        let tangent = DMat3::IDENTITY - DMat3::from_cols(n * n.x, n * n.y, n * n.z);
        let arm = point(&q1[body], slot.sc) - pos(&q1[body]);
        add_stiffness(&mut stiff[body], tangent * (0.5 * p.kt), arm);
    }
    // the end of the step: within this step's own bound mu F (module notes)
    let lim = mu * f / p.kt;
    let l1 = crate::math::length(u1);
    out.u = if l1 > lim {
        *dissipated += 0.5 * p.kt * (l1 * l1 - lim * lim);
        u1 * (lim / l1)
    } else {
        u1
    };
    out.sliding = da != DVec3::ZERO;
}

/// A sphere pair's normal force over the step (module notes), what it dissipates added to
/// `dissipated`: (F, d0, d1).
fn sphere_pair(p: &Probe, step: &Step, sinks: &mut Sinks, dissipated: &mut f64) -> (f64, f64, f64) {
    let Geometry::SpherePair {
        a,
        sa,
        ra,
        b,
        sb,
        rb,
    } = p.geometry
    else {
        return (0.0, 0.0, 0.0);
    };
    let (qn, q1, h) = (step.qn, step.q1, step.h);
    let (g, stiff, couple) = (&mut *sinks.g, &mut *sinks.stiff, &mut *sinks.couple);
    let e0 = point(&qn[b], sb) - point(&qn[a], sa);
    let e1 = point(&q1[b], sb) - point(&q1[a], sa);
    let (l0, l1) = (crate::math::length(e0), crate::math::length(e1));
    let (d0, d1) = (ra + rb - l0, ra + rb - l1);
    let (f, fe) = p.law.discrete(d0, d1, h);
    *dissipated += (f - fe) * (d1 - d0);
    let lbar = 0.5 * (l0 + l1);
    if f != 0.0 && lbar > 0.0 {
        let dir = (e0 + e1) * (0.5 / lbar);
        add_point(&mut g[b], sb, dir * -f);
        add_point(&mut g[a], sa, dir * f);
        let k = 0.5 * p.law.stiffness(d1) + p.law.c * p.law.damping_factor(d1) / h;
        let kd = k * DMat3::from_cols(dir * dir.x, dir * dir.y, dir * dir.z);
        add_stiffness(&mut stiff[b], kd, point(&q1[b], sb) - pos(&q1[b]));
        add_stiffness(&mut stiff[a], kd, point(&q1[a], sa) - pos(&q1[a]));
        couple.push(Coupling { a, b, k: kd });
    }
    (f, d0, d1)
}

/// A point against a box's face: its normal force over the step (module notes), what it
/// dissipates added to `dissipated`: (F, d0, d1).
fn point_face(p: &Probe, step: &Step, sinks: &mut Sinks, dissipated: &mut f64) -> (f64, f64, f64) {
    let Geometry::PointFace {
        a,
        sa,
        r,
        b,
        m,
        off,
    } = p.geometry
    else {
        return (0.0, 0.0, 0.0);
    };
    let (qn, q1, h) = (step.qn, step.q1, step.h);
    let (g, stiff) = (&mut *sinks.g, &mut *sinks.stiff);
    // g = n . w - off - r, n = Q_b m and w = p_a - x_b both linear in q: Delta g =
    // nbar . Delta w + wbar . Delta n exactly (module notes)
    let normal = |q: &[f64; 12]| DMat3::from_cols_slice(&q[3..12]) * m;
    let (n0, n1) = (normal(&qn[b]), normal(&q1[b]));
    let w0 = point(&qn[a], sa) - pos(&qn[b]);
    let w1 = point(&q1[a], sa) - pos(&q1[b]);
    let (d0, d1) = (off + r - n0.dot(w0), off + r - n1.dot(w1));
    let (f, fe) = p.law.discrete(d0, d1, h);
    *dissipated += (f - fe) * (d1 - d0);
    if f != 0.0 {
        let (nbar, wbar) = ((n0 + n1) * 0.5, (w0 + w1) * 0.5);
        // f nbar on a's point, -f nbar on b's centre, and on b's directors the
        // turn of its face: -g . Delta q = f Delta g
        add_point(&mut g[a], sa, nbar * -f);
        let (nb, wb, mb) = (nbar.to_array(), wbar.to_array(), m.to_array());
        for k in 0..3 {
            g[b][k] += f * nb[k];
            for i in 0..3 {
                g[b][3 + 3 * i + k] -= f * mb[i] * wb[k];
            }
        }
        let k = 0.5 * p.law.stiffness(d1) + p.law.c * p.law.damping_factor(d1) / h;
        let kd = k * DMat3::from_cols(n1 * n1.x, n1 * n1.y, n1 * n1.z);
        add_stiffness(&mut stiff[a], kd, point(&q1[a], sa) - pos(&q1[a]));
        add_stiffness(&mut stiff[b], kd, w1);
    }
    (f, d0, d1)
}

/// A point against a capsule's line: its normal force over the step (module notes), what it
/// dissipates added to `dissipated`: (F, d0, d1).
fn point_line(p: &Probe, step: &Step, sinks: &mut Sinks, dissipated: &mut f64) -> (f64, f64, f64) {
    let Geometry::PointLine {
        a,
        sa,
        ra,
        b,
        sb,
        rb,
        m,
        half,
        line_b,
    } = p.geometry
    else {
        return (0.0, 0.0, 0.0);
    };
    let (qn, q1, h) = (step.qn, step.q1, step.h);
    let (g, stiff) = (&mut *sinks.g, &mut *sinks.stiff);
    let on = if line_b { b } else { a };
    let axis = |q: &[f64; 12]| DMat3::from_cols_slice(&q[3..12]) * m;
    let (n0, n1) = (axis(&qn[on]), axis(&q1[on]));
    let w0 = point(&qn[b], sb) - point(&qn[a], sa);
    let w1 = point(&q1[b], sb) - point(&q1[a], sa);
    let (s0, s1) = (w0.dot(n0), w1.dot(n1));
    let length =
        |w: DVec3, s: f64| crate::math::sqrt((w.length_squared() + segment_c(s, half)).max(0.0));
    let (l0, l1) = (length(w0, s0), length(w1, s1));
    let (d0, d1) = (ra + rb - l0, ra + rb - l1);
    let (f, fe) = p.law.discrete(d0, d1, h);
    *dissipated += (f - fe) * (d1 - d0);
    if f != 0.0 && l0 + l1 > 0.0 {
        let (wbar, nbar, k) = (
            (w0 + w1) * 0.5,
            (n0 + n1) * 0.5,
            segment_slope(s0, s1, half),
        );
        let gw = (wbar * 2.0 + nbar * k) / (l0 + l1);
        let gn = wbar * (k / (l0 + l1));
        add_point(&mut g[b], sb, gw * -f);
        add_point(&mut g[a], sa, gw * f);
        let (gn, mm) = (gn.to_array(), m.to_array());
        for i in 0..3 {
            for k in 0..3 {
                g[on][3 + 3 * i + k] -= f * mm[i] * gn[k];
            }
        }
        // the stiffness along the normal at the iterate, at the point and its foot (as a
        // point against a face: the normal turns with the line, so no coupling, `stiffness.rs`)
        if l1 == 0.0 {
            return (f, d0, d1); // (the point on the line: no normal to stiffen along)
        }
        let k = 0.5 * p.law.stiffness(d1) + p.law.c * p.law.damping_factor(d1) / h;
        let foot = n1 * s1.clamp(-half, half);
        let dir = (w1 - foot) / l1;
        let kd = k * DMat3::from_cols(dir * dir.x, dir * dir.y, dir * dir.z);
        let (foot_a, foot_b) = if line_b {
            (point(&q1[a], sa), point(&q1[b], sb) - foot)
        } else {
            (point(&q1[a], sa) + foot, point(&q1[b], sb))
        };
        add_stiffness(&mut stiff[a], kd, foot_a - pos(&q1[a]));
        add_stiffness(&mut stiff[b], kd, foot_b - pos(&q1[b]));
    }
    (f, d0, d1)
}

/// Two capsules' segments: the normal force over the step (module notes, `segments.rs`), what
/// it dissipates added to `dissipated`: (F, d0, d1).
fn segments(p: &Probe, step: &Step, sinks: &mut Sinks, dissipated: &mut f64) -> (f64, f64, f64) {
    let Geometry::Segments {
        a,
        sa,
        ra,
        ma,
        b,
        sb,
        rb,
        mb,
        ha,
        hb,
    } = p.geometry
    else {
        return (0.0, 0.0, 0.0);
    };
    let (qn, q1, h) = (step.qn, step.q1, step.h);
    let axis = |q: &[f64; 12], m: DVec3| DMat3::from_cols_slice(&q[3..12]) * m;
    let lines = |q: &[[f64; 12]]| {
        let w = point(&q[b], sb) - point(&q[a], sa);
        (w, axis(&q[a], ma), axis(&q[b], mb))
    };
    let ((w1, na1, nb1), e0) = (lines(q1), lines(qn));
    let scale = ha + hb + ra + rb; // (the pair's length, for the invariants' metric)
    let Some((l0, l1, gw, ga, gb)) = discrete_gradient(e0, (w1, na1, nb1), (ha, hb, scale)) else {
        return (0.0, 0.0, 0.0); // (the segments meeting at both ends: refused at the start)
    };
    let (d0, d1) = (ra + rb - l0, ra + rb - l1);
    let (f, fe) = p.law.discrete(d0, d1, h);
    *dissipated += (f - fe) * (d1 - d0);
    if f == 0.0 {
        return (f, d0, d1);
    }
    add_point(&mut sinks.g[b], sb, gw * -f);
    add_point(&mut sinks.g[a], sa, gw * f);
    for (body, m, gd) in [(a, ma, ga), (b, mb, gb)] {
        let (gd, mm) = (gd.to_array(), m.to_array());
        for i in 0..3 {
            for k in 0..3 {
                sinks.g[body][3 + 3 * i + k] -= f * mm[i] * gd[k];
            }
        }
    }
    // the stiffness along the normal at the iterate, at the segments' closest points
    let (ta, tb) = segment_feet(w1.dot(na1), w1.dot(nb1), na1.dot(nb1), ha, hb);
    let (fa, fb) = (point(&q1[a], sa) + na1 * ta, point(&q1[b], sb) + nb1 * tb);
    let (e, len) = (fb - fa, crate::math::length(fb - fa));
    if len == 0.0 {
        return (f, d0, d1);
    }
    let dir = e / len;
    let k = 0.5 * p.law.stiffness(d1) + p.law.c * p.law.damping_factor(d1) / h;
    let kd = k * DMat3::from_cols(dir * dir.x, dir * dir.y, dir * dir.z);
    add_stiffness(&mut sinks.stiff[a], kd, fa - pos(&q1[a]));
    add_stiffness(&mut sinks.stiff[b], kd, fb - pos(&q1[b]));
    (f, d0, d1)
}

/// After an accepted step at `q` (the new state): the next step's contact points.
pub fn rebase(probes: &Probes, q: &[[f64; 12]], slots: &mut [PlaneFriction]) {
    for (p, slot) in probes.list.iter().zip(slots) {
        if let Geometry::PointPlane { body, s, r, n, .. } = p.geometry {
            let rt = DMat3::from_cols_slice(&q[body][3..12]).transpose();
            slot.sc = s + rt * (n * -r);
            slot.pc = point(&q[body], slot.sc);
        }
    }
}

/// The director's friction of pair `p` over the step from `qn` to `q1`, its normal force of
/// the step `f` and indentations `d0`, `d1` ([`evaluate`]): its generalised forces into `g`,
/// its stiffness into `stiff` and `couple`, the slot at n+1 into `out`; returns what it
/// dissipated (J).
fn pair_friction(
    p: &Probe,
    (slot, out): (&PairFriction, &mut PairFriction),
    (f, d0, d1): (f64, f64, f64),
    step: &Step,
    sinks: &mut Sinks,
) -> f64 {
    let (qn, q1) = (step.qn, step.q1);
    let (g, stiff, couple) = (&mut *sinks.g, &mut *sinks.stiff, &mut *sinks.couple);
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
    let (a, b) = p.bodies();
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
