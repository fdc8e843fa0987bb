//! Contact: the shapes of `shapes.rs` compiled into probes, and the forces they carry.
//!
//! ```text
//! point-plane   a body point p = x + R s (a sphere's centre, a capsule's two segment ends,
//!               a box's eight corners), radius r (0 for a corner), plane (p0, n):
//!               gap g = n . (p - p0) - r, linear in the director coordinates q
//! sphere pair   centres p_a, p_b, radii r_a, r_b:  g = |p_b - p_a| - r_a - r_b, a length like
//!               a spring's (Delta l = (dbar / lbar) . Delta d exactly)
//! capsule pair  a capsule against a sphere or a capsule: a sphere pair between the closest
//!               points of the two segments (a sphere's centre), found at the step's start and
//!               held as body points through the step (`segments.rs`: why, and what it misses)
//! point-face    a sphere's centre, a capsule's end cap or a box's corner against a box's face
//!               (`broad.rs`): g bilinear in the two bodies' coordinates
//! normal        F = max(0, F_e(d) + F_d) along n, d = -g (law.rs: Hertz or linear, with a
//!               damping calibrated to the restitution asked)
//! friction      an elastic-plastic tangential spring (a stick spring anchored where the
//!               contact point stuck): u = the contact point's tangential displacement from
//!               its anchor, force -k_t u, |k_t u| <= mu F (mu = mu_s while sticking, mu_k
//!               while sliding); when the trial u_n + P Delta p_c would exceed it, the anchor
//!               slides (a return map: u_n+1 = (mu F / k_t) u_trial / |u_trial|)
//!               V_t = k_t |u|^2 / 2 is potential energy; the anchor's slide dissipates
//!               k_t ubar . Delta a >= 0 (ubar the step's mean u, Delta a along u_trial)
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
//! Every pair of shape kinds is handled: sphere, capsule and box against a plane; spheres and
//! capsules against each other (sphere and capsule pairs); spheres, capsules' end caps and
//! boxes' corners against boxes' faces (point-face). The pairs of shapes on two bodies carry
//! the same stick spring between the two bodies' points at the contact (`pair_friction.rs`:
//! its u carried from step to step as the broad phase finds the pair again), with the
//! materials' combined mu (zero: frictionless, as the cradle's balls).
pub mod box_features;
pub mod broad;
pub mod continuous;
pub mod edges;
pub mod faces;
pub mod friction;
pub mod law;
pub mod material;
pub mod near;
pub mod pair_friction;
pub mod probe;
pub mod segments;

use crate::model::{BodyState, Model};
use crate::shapes::ShapeKind;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
pub use friction::{rebase, return_map, PairFriction, PlaneFriction};
use glam::DVec3;
pub use law::{Kind, Law};
use material::{combine, mindlin};
pub use material::{corner_stiffness, e_star};
pub use probe::{gap, Geometry, Probe};

/// Most probes accepted (point-plane probes and sphere pairs).
pub const MAX_PROBES: usize = 100_000;

/// The probes of a model, compiled once: the plane contacts, and the balls whose pairs the
/// broad phase finds each step (`broad.rs`).
#[derive(Clone, Debug, Default)]
pub struct Probes {
    /// the plane contacts (each with its slot in `forces::State`)
    pub list: Vec<Probe>,
    /// the spheres that may touch other spheres
    pub balls: broad::Balls,
}

/// Whether shapes with filters (group, mask) and (group2, mask2) may touch.
fn filtered(g1: u32, m1: u32, g2: u32, m2: u32) -> bool {
    g1 & m2 != 0 || g2 & m1 != 0
}

impl Probes {
    /// Compile `model`'s contact: every shape against every plane (the plane contacts), and
    /// the balls whose pairs the broad phase finds (every other body's shape that the filters
    /// let touch). Fails when there are too many plane contacts.
    pub fn new(model: &Model) -> Result<Probes, String> {
        let ct = &model.contact;
        let mut list = Vec::new();
        let mut cache = law::Alphas::default();
        let mut law = |kind: Kind, k: f64, m: f64, e: f64, pull: bool| Law {
            kind,
            k,
            c: cache.add(kind, e, pull) * crate::math::sqrt(m * k),
            pull,
        };
        let weight = crate::math::length(model.gravity).max(1.0);
        for (i, sh) in ct.shapes.iter().enumerate() {
            let m = model.bodies[sh.body].mass;
            for pl in &ct.planes {
                if !filtered(sh.group, sh.mask, 1, 1) {
                    continue;
                }
                let es = e_star(&sh.material, &pl.material);
                let (e, mu_k, mu_s) = combine(&sh.material, &pl.material);
                let pull = sh.material.pull || pl.material.pull;
                let ratio = mindlin(&sh.material, &pl.material);
                let mut push = |s: DVec3, r: f64, l: Law, kn: f64| {
                    list.push(Probe {
                        geometry: Geometry::PointPlane {
                            body: sh.body,
                            s,
                            r,
                            p0: pl.point,
                            n: pl.normal,
                        },
                        law: l,
                        mu_k,
                        mu_s,
                        kt: ratio * kn,
                        shapes: [i, usize::MAX],
                        part: 0,
                    })
                };
                // Hertz stiffness at the indentation under the body's own weight (module notes)
                let hertz_kn = |k: f64| 1.5 * libm::cbrt(k * k * m * weight);
                match sh.kind {
                    ShapeKind::Sphere { radius } => {
                        let k = 4.0 / 3.0 * es * crate::math::sqrt(radius);
                        push(
                            sh.offset,
                            radius,
                            law(Kind::Hertz, k, m, e, pull),
                            hertz_kn(k),
                        );
                    }
                    ShapeKind::Capsule {
                        radius,
                        half_length,
                    } => {
                        // the segment's nearest point to a plane is an end (both when parallel):
                        // two spheres at the ends, exact for the capsule's gap
                        let k = 4.0 / 3.0 * es * crate::math::sqrt(radius);
                        let l = law(Kind::Hertz, k, m, e, pull);
                        for sign in [-1.0, 1.0] {
                            let s =
                                sh.offset + sh.rotation * DVec3::new(0.0, 0.0, sign * half_length);
                            push(s, radius, l, hertz_kn(k));
                        }
                    }
                    ShapeKind::Box { half } => {
                        // a flat face on a plane: a rigid flat punch of the face's area A has
                        // stiffness 2 E* sqrt(A / pi) (Johnson, Contact Mechanics, 3.2), shared by
                        // the four corners that carry it; the largest face's area is taken
                        let a = 4.0 * (half.x * half.y).max(half.y * half.z).max(half.z * half.x);
                        // (each corner damped on a quarter of the mass: law.rs)
                        let k = 2.0 * es * crate::math::sqrt(a / core::f64::consts::PI) / 4.0;
                        let l = law(Kind::Linear, k, m / 4.0, e, pull);
                        for c in 0..8 {
                            let sx = if c & 1 == 0 { -1.0 } else { 1.0 };
                            let sy = if c & 2 == 0 { -1.0 } else { 1.0 };
                            let sz = if c & 4 == 0 { -1.0 } else { 1.0 };
                            let corner = DVec3::new(sx * half.x, sy * half.y, sz * half.z);
                            push(sh.offset + sh.rotation * corner, 0.0, l, k);
                        }
                    }
                }
            }
        }
        if list.len() > MAX_PROBES {
            return Err(format!(
                "contact: {} plane contacts (a box has eight, a capsule two); at most {MAX_PROBES} are accepted",
                list.len()
            ));
        }
        let mut balls = broad::Balls {
            mass: model.bodies.iter().map(|b| b.mass).collect(),
            weight,
            ..broad::Balls::default()
        };
        // a pair pulls where either material pulls, at the smaller e (broad.rs `law_of`)
        let any_pull = ct.shapes.iter().any(|sh| sh.material.pull);
        for sh in &ct.shapes {
            // a capsule by its two end caps (they touch boxes only)
            let (r, half, kinds, ends): (f64, DVec3, &[Kind], &[f64]) = match sh.kind {
                ShapeKind::Sphere { radius } => (radius, DVec3::ZERO, &[Kind::Hertz], &[0.0]),
                // a box by its bounding sphere; its corners' law is linear, a sphere's on it Hertz
                ShapeKind::Box { half } => {
                    (half.length(), half, &[Kind::Hertz, Kind::Linear], &[0.0])
                }
                ShapeKind::Capsule {
                    radius,
                    half_length,
                } => (
                    radius,
                    DVec3::ZERO,
                    &[Kind::Hertz],
                    &[-half_length, half_length],
                ),
            };
            let m = &sh.material;
            for &end in ends {
                let s = sh.offset + sh.rotation * DVec3::new(0.0, 0.0, end);
                balls.list.push(broad::Ball::of(sh, s, r, half, None));
            }
            for &kind in kinds {
                balls.alpha.add(kind, m.restitution, m.pull);
                if any_pull {
                    balls.alpha.add(kind, m.restitution, true);
                }
            }
        }
        // each capsule once more, taken whole, for its pairs with spheres and capsules
        // (`segments.rs`); after the others, so that their pairs' order is what it was
        for sh in &ct.shapes {
            if let ShapeKind::Capsule {
                radius,
                half_length,
            } = sh.kind
            {
                let whole = broad::Ball::of(sh, sh.offset, radius, DVec3::ZERO, Some(half_length));
                balls.list.push(whole);
            }
        }
        if balls.list.len() > 1 {
            balls.joined = model
                .joints
                .iter()
                .filter_map(|j| j.a.map(|a| (a.min(j.b), a.max(j.b))))
                .collect();
            balls.joined.sort_unstable();
            if ct.collide_joined {
                balls.joined.clear();
            }
        } else {
            balls.list.clear();
        }
        Ok(Probes { list, balls })
    }

    /// The slots at the initial states: no tangential displacement, sticking, the contact
    /// points under the plane contacts.
    pub fn slots(&self, init: &[BodyState]) -> Vec<PlaneFriction> {
        self.list
            .iter()
            .map(|p| {
                let mut slot = PlaneFriction::default();
                rebase(p, init, &mut slot);
                slot
            })
            .collect()
    }
}

/// The contacts' potential energy at `s` with friction state `slots` and the pairs of `broad`
/// (with theirs at the end of the last step) (J): sum of V(d) and k_t |u|^2 / 2.
pub fn potential(
    probes: &Probes,
    broad: &broad::Broad,
    s: &[BodyState],
    slots: &[PlaneFriction],
) -> f64 {
    let mut v = 0.0;
    // (the plane probes out of reach, `Probes::sweep`, add exact zeros: no dent, no spring)
    for i in broad.planes(probes.list.len().min(slots.len())) {
        let (p, slot) = (&probes.list[i], &slots[i]);
        v += p.law.potential(-gap(p, s)) + 0.5 * p.kt * slot.u.length_squared();
    }
    for (p, slot) in broad.pairs.iter().zip(&broad.next) {
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
    broad: &broad::Broad,
    model: &Model,
    s: &[BodyState],
    h: f64,
) -> bool {
    let mass = |b: usize| model.bodies[b].mass;
    let rings = |p: &Probe, d: f64, m: f64| {
        h * h * p.law.slope(d) > m / 16.0 || h * p.law.damping(d) > m / 2.0
    };
    for i in broad.planes(probes.list.len()) {
        let p = &probes.list[i];
        if let Geometry::PointPlane { body, .. } = p.geometry {
            let d = -gap(p, s);
            if d > 0.0 && rings(p, d, mass(body)) {
                return false;
            }
        }
    }
    for p in &broad.pairs {
        if let Geometry::PointFace { a, b, .. } = p.geometry {
            let (ma, mb) = (mass(a), mass(b));
            let d = -gap(p, s);
            if d > 0.0 && rings(p, d, ma * mb / (ma + mb)) {
                return false;
            }
        }
        if let Geometry::SpherePair {
            a,
            sa,
            ra,
            b,
            sb,
            rb,
        } = p.geometry
        {
            let (ma, mb) = (mass(a), mass(b));
            let d = -gap(p, s);
            if d > 0.0 && rings(p, d, ma * mb / (ma + mb)) {
                return false;
            }
            // the two points (a sphere's centre, a capsule's closest point, `segments.rs`)
            let (arm_a, arm_b) = (s[a].r * sa, s[b].r * sb);
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

/// Refuse a start where a shape lies deep inside a plane or another sphere: deeper than a
/// quarter of its radius (a box's corner: of its smallest half-size), which the contact force
/// would answer with a launch. The message names the shapes and the depth.
pub fn check_start(model: &Model, probes: &Probes, init: &[BodyState]) -> Result<(), String> {
    let shapes = &model.contact.shapes;
    let size = |i: usize| match shapes[i].kind {
        ShapeKind::Sphere { radius } | ShapeKind::Capsule { radius, .. } => radius,
        ShapeKind::Box { half } => half.min_element(),
    };
    for p in &probes.list {
        let depth = -gap(p, init);
        let i = p.shapes[0];
        if depth > 0.25 * size(i) {
            return Err(format!(
                "contact: shape {i} ({} on body {}) starts {} m deep in a plane, more than a quarter of its size ({} m): the contact would launch it; start it on or above the plane",
                shapes[i].kind.name(), shapes[i].body, crate::math::Num(depth), crate::math::Num(size(i))
            ));
        }
    }
    let mut near = broad::Broad::default();
    probes.balls.sweep(init, 0.0, &mut near); // (nothing released: no last step)
    for p in &near.pairs {
        if let Geometry::PointFace { a, b, r, .. } = p.geometry {
            // a sphere's centre (r > 0) or a box's corner (r = 0) in another body's box
            let depth = -gap(p, init);
            let size = if r > 0.0 {
                r
            } else {
                probes.balls.list[p.shapes[0]]
                    .half
                    .min_element()
                    .min(probes.balls.list[p.shapes[1]].half.min_element())
            };
            if depth > 0.25 * size {
                return Err(format!(
                    "contact: a {} of body {a} starts {} m inside the box of body {b}, more than a quarter of its size ({} m): the contact would throw them apart; start them apart or touching",
                    if r > 0.0 { "sphere or capsule" } else { "box's corner or edge" }, crate::math::Num(depth), crate::math::Num(size)
                ));
            }
        }
        if let Geometry::SpherePair { ra, rb, a, b, .. } = p.geometry {
            let depth = -gap(p, init);
            if depth > 0.25 * ra.min(rb) {
                let kind = |i: usize| match probes.balls.list[p.shapes[i]].segment {
                    Some(_) => "capsule",
                    None => "sphere",
                };
                let what = if kind(0) == kind(1) {
                    format!("{}s of bodies {a} and {b}", kind(0))
                } else {
                    format!("{} of body {a} and the {} of body {b}", kind(0), kind(1))
                };
                return Err(format!(
                    "contact: the {what} start {} m inside each other, more than a quarter of the smaller radius ({} m): the contact would throw them apart; start them apart or touching",
                    crate::math::Num(depth), crate::math::Num(ra.min(rb))
                ));
            }
        }
    }
    Ok(())
}
