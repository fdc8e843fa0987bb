//! Contact: the shapes of `shapes.rs` compiled into probes, and the forces they carry. A
//! pipeline, run once per step from the states at its start, then read by the step's forms:
//!
//! ```text
//! compile.rs      once: every shape against every plane as plane probes; the colliders
//! cull.rs         plane probes within reach of the step (the others are exact zeros)
//! broad.rs        broad phase: candidate pairs of colliders, by sweep and prune
//! pairs.rs        pair table: TABLE[kind a][kind b], one function per pair family, turns a
//!                 candidate into probes: sphere_sphere.rs, capsule.rs (capsule-sphere,
//!                 capsule-capsule), point_box.rs (a sphere or an end cap against a box's face,
//!                 edge or corner), capsule_box.rs, box_box.rs (corners on faces, edge on edge)
//! probe.rs        what a probe measures (its gap) with its law and friction coefficients
//! law.rs          the normal law and its restitution calibration; material.rs how materials
//!                 combine (E*, stiffness, mu, restitution)
//! friction.rs     the stick spring's state and rules, carried from step to step
//! continuous.rs   the forms at a state, for RATTLE and Baumgarte
//! methods/director/contact.rs   the discrete forms over a step, for the director
//! ```
//!
//! ```text
//! point-plane   a body point p = x + R s (a sphere's centre, a capsule's two segment ends,
//!               a box's eight corners), radius r (0 for a corner), plane (p0, n):
//!               gap g = n . (p - p0) - r, linear in the director coordinates q
//! sphere pair   centres p_a, p_b, radii r_a, r_b:  g = |p_b - p_a| - r_a - r_b, a length like
//!               a spring's (Delta l = (dbar / lbar) . Delta d exactly)
//! capsule pair  a capsule against a sphere or a capsule, by the closest points of the two
//!               segments at the step's start: a point inside one segment against the other's
//!               sphere centre or end, the point against the line (g = sqrt(|w|^2 - (w . n)^2)
//!               - r_a - r_b, exact); else a sphere pair between the closest points held as
//!               body points through the step (`capsule.rs`: why, and what it misses)
//! point-face    a sphere's centre, a capsule's end cap or a box's corner against a box's face
//!               (`point_box.rs`, `box_box.rs`): g bilinear in the two bodies' coordinates
//! normal        F = max(0, F_e(d) + F_d) along n, d = -g (law.rs: Hertz or linear, with a
//!               damping calibrated to the restitution asked)
//! friction      an elastic-plastic tangential spring (a stick spring anchored where the
//!               contact point stuck): u = the contact point's tangential displacement from
//!               its anchor, force -k_t u, |k_t u| <= mu F (mu = mu_s while sticking, mu_k
//!               while sliding); when the trial u_n + P Delta p_c would exceed it, the anchor
//!               slides (a return map: u_n+1 = (mu F / k_t) u_trial / |u_trial|)
//!               V_t = k_t |u|^2 / 2 is potential energy; the anchor's slide dissipates
//!               k_t ubar . Delta a >= 0 (ubar the step's mean u, Delta a along u_trial)
//! forms         continuous (RATTLE, Baumgarte): forces at a state, the power dissipated;
//!               discrete (director): forces over a step whose work is exactly -Delta V - D
//! ```
//! Why a stick spring: it holds a body on an incline below the friction angle with no creep
//! at all (a regularised Coulomb law creeps at a speed set by its regularisation), and it is
//! a potential plus a dissipation, so the director's balance stays exact. The contact point
//! moves over the body as it rolls: each step takes the body point under the contact at the
//! step's start, s_c = s + R_n^T (-r n), and carries u across steps, so V_t is continuous.
//! The tangential stiffness: Mindlin's ratio k_t / k_n = 2 (1 - nu) / (2 - nu) times the normal
//! stiffness (for Hertz, at the indentation of the body's weight: a constant k_t per probe,
//! so that V_t is a potential).
//!
//! Every pair of shape kinds is handled: sphere, capsule and box against a plane; every pair of
//! colliders through the pair table. The pairs of shapes on two bodies carry the same stick
//! spring between the two bodies' points at the contact (`friction.rs`: its u carried from step
//! to step as the broad phase finds the pair again), with the materials' combined mu (zero:
//! frictionless, as the cradle's balls).
pub mod box_box;
pub mod broad;
pub mod capsule;
pub mod capsule_box;
pub mod collider;
pub mod compile;
pub mod continuous;
pub mod cull;
pub mod friction;
pub mod hull;
pub mod law;
pub mod material;
pub mod pairs;
pub mod point_box;
pub mod probe;
pub mod sphere_sphere;
pub mod start;
pub mod step;

use crate::model::{BodyState, Model};
pub use collider::{Collider, ColliderKind, Colliders};
pub use compile::{Probes, MAX_PROBES};
pub use friction::{rebase, return_map, PairFriction, PlaneFriction};
pub use law::{Kind, Law};
pub use material::{corner_stiffness, e_star};
pub use probe::{gap, Geometry, Probe};
pub use start::check_start;
pub use step::StepState;

/// The contacts' potential energy at `s` with friction state `slots` and the pairs of `state`
/// (with theirs at the end of the last step) (J): sum of V(d) and k_t |u|^2 / 2.
pub fn potential(
    probes: &Probes,
    state: &StepState,
    s: &[BodyState],
    slots: &[PlaneFriction],
) -> f64 {
    let mut v = 0.0;
    // (the plane probes out of reach, `cull.rs`, add exact zeros: no dent, no spring)
    for i in state.planes(probes.list.len().min(slots.len())) {
        let (p, slot) = (&probes.list[i], &slots[i]);
        v += p.law.potential(-gap(p, s)) + 0.5 * p.kt * slot.u.length_squared();
    }
    for (p, slot) in state.pairs.iter().zip(&state.friction.next) {
        v += p.law.potential(-gap(p, s)) + 0.5 * p.kt * slot.u.length_squared();
    }
    v
}

/// Whether a step of `h` resolves the contacts at the states `s` (the sub-stepping's rule,
/// `simulation/substep.rs`): every touching contact rings at most a quarter radian a step,
/// omega h <= 1/4 with omega^2 = F_e'(d) / m (m the body's mass; a sphere pair's reduced mass)
/// and its damping takes at most half its speed a step (h dF/d(ddot) <= m / 2), and no
/// sphere pair within reach closes by more than half the smaller radius a step (so none
/// passes through another between two steps).
pub fn resolved(
    probes: &Probes,
    state: &StepState,
    model: &Model,
    s: &[BodyState],
    h: f64,
) -> bool {
    let mass = |b: usize| model.bodies[b].mass;
    let rings = |p: &Probe, d: f64, m: f64| {
        h * h * p.law.slope(d) > m / 16.0 || h * p.law.damping(d) > m / 2.0
    };
    for i in state.planes(probes.list.len()) {
        let p = &probes.list[i];
        if let Geometry::PointPlane { body, .. } = p.geometry {
            let d = -gap(p, s);
            if d > 0.0 && rings(p, d, mass(body)) {
                return false;
            }
        }
    }
    for p in &state.pairs {
        if let Geometry::PointFace { a, b, .. } = p.geometry {
            let (ma, mb) = (mass(a), mass(b));
            let d = -gap(p, s);
            if d > 0.0 && rings(p, d, ma * mb / (ma + mb)) {
                return false;
            }
        }
        if let Some((a, arm_a, ra, b, arm_b, rb)) = p.centres(s) {
            let (ma, mb) = (mass(a), mass(b));
            let d = -gap(p, s);
            if d > 0.0 && rings(p, d, ma * mb / (ma + mb)) {
                return false;
            }
            // the two points (a sphere's centre, a capsule's closest point, `capsule.rs`)
            let e = s[b].x + arm_b - s[a].x - arm_a;
            let dv =
                s[b].v + (s[b].r * s[b].w).cross(arm_b) - s[a].v - (s[a].r * s[a].w).cross(arm_a);
            let closing = -e.dot(dv) / crate::math::length(e).max(f64::MIN_POSITIVE);
            if closing * h > 0.5 * ra.min(rb) && -d < closing * h {
                return false;
            }
        }
    }
    true
}
