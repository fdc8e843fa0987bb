//! The contact of a model compiled once: every shape against every plane as plane probes
//! (a sphere's centre, a capsule's two segment ends, a box's eight corners, a mesh's hull's
//! corners: `hull.rs`), and the colliders
//! whose pairs the broad phase finds each step (`collider.rs`), with the laws' damping
//! calibrated (law.rs) and the materials combined (`material.rs`).
use super::collider::{Collider, Colliders};
use super::friction::{rebase, PlaneFriction};
use super::law::{Alphas, Kind, Law};
use super::material::{self, Surface};
use super::probe::{Geometry, Probe};
use crate::model::{BodyState, Model};
use crate::shapes::{Plane, Shape, ShapeKind};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use glam::DVec3;

/// Most probes accepted (point-plane probes and sphere pairs).
pub const MAX_PROBES: usize = 100_000;

/// The probes of a model, compiled once: the plane contacts, and the colliders whose pairs the
/// broad phase finds each step (`step.rs`).
#[derive(Clone, Debug, Default)]
pub struct Probes {
    /// the plane contacts (each with its friction state in `forces::State`)
    pub list: Vec<Probe>,
    /// the shapes that may touch other bodies' shapes
    pub colliders: Colliders,
}

/// Whether shapes with filters (group, mask) and (group2, mask2) may touch.
fn filtered(g1: u32, m1: u32, g2: u32, m2: u32) -> bool {
    g1 & m2 != 0 || g2 & m1 != 0
}

impl Probes {
    /// Compile `model`'s contact: every shape against every plane (the plane contacts), and
    /// the colliders whose pairs the broad phase finds (every other body's shape that the
    /// filters let touch). Fails when there are too many plane contacts.
    pub fn new(model: &Model) -> Result<Probes, String> {
        let ct = &model.contact;
        let mut list = Vec::new();
        let mut cache = Alphas::default();
        let weight = crate::math::length(model.gravity).max(1.0);
        for (i, sh) in ct.shapes.iter().enumerate() {
            if !filtered(sh.group, sh.mask, 1, 1) || ct.planes.is_empty() {
                continue;
            }
            let corners = ct.mesh(i).and_then(Corners::of);
            for pl in &ct.planes {
                let m = model.bodies[sh.body].mass;
                let shape = (i, sh, m, corners.as_ref());
                plane_probes(shape, pl, weight, &mut cache, &mut list);
            }
        }
        if list.len() > MAX_PROBES {
            return Err(format!(
                "contact: {} plane contacts (a box has eight, a capsule two); at most {MAX_PROBES} are accepted",
                list.len()
            ));
        }
        Ok(Probes {
            list,
            colliders: colliders(model, weight),
        })
    }

    /// The plane contacts' friction at the initial states: no tangential displacement,
    /// sticking, the contact points under the plane contacts.
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

/// A mesh's hull's corners in its body's frame, and its largest face (`hull.rs`).
struct Corners {
    /// the mesh's origin in the body's frame (m)
    origin: DVec3,
    /// the corners in the mesh's frame (m)
    points: Vec<DVec3>,
    face_area: f64,
    face_corners: usize,
}

impl Corners {
    /// Those of `mesh`, or None where it is flat (its box's corners are taken).
    fn of(mesh: &crate::shapes::Mesh) -> Option<Corners> {
        let h = super::hull::hull(&mesh.vertices)?;
        Some(Corners {
            origin: mesh.offset,
            points: h.corners.iter().map(|&k| mesh.vertices[k]).collect(),
            face_area: h.face_area,
            face_corners: h.face_corners,
        })
    }
}

/// The plane probes of shape `i` (`sh`, on a body of mass `m`; `mesh` its hull's corners, for a
/// mesh) against plane `pl` into `list`: a sphere's centre, a capsule's two ends, a box's eight
/// corners, a mesh's hull's corners; `cache` the calibrated alphas, `weight` |gravity| (at
/// least 1).
fn plane_probes(
    (i, sh, m, mesh): (usize, &Shape, f64, Option<&Corners>),
    pl: &Plane,
    weight: f64,
    cache: &mut Alphas,
    list: &mut Vec<Probe>,
) {
    let (sa, sb) = (Surface::of(&sh.material), Surface::of(&pl.material));
    let es = material::e_star_of(&sa, &sb);
    let (e, pull) = material::restitution(&sa, &sb);
    let (mu_k, mu_s) = material::friction(&sa, &sb);
    let ratio = material::mindlin(&sa, &sb);
    let mut law = |kind: Kind, k: f64, m: f64| Law {
        kind,
        k,
        c: material::damping(cache.add(kind, e, pull), m, k),
        pull,
    };
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
    // Hertz stiffness at the indentation under the body's own weight (`material.rs`)
    let hertz_kn = |k: f64| material::hertz_kn(k, m, weight);
    if let Some(c) = mesh {
        // each corner as a box's: the largest face's flat punch shared by its corners, each
        // damped on that share of the mass (so that a mesh box is the box exactly; a face of
        // another count of corners lands stiffer or softer in proportion: docs/contact.md)
        let n = c.face_corners as f64;
        let k = 2.0 * es * crate::math::sqrt(c.face_area / core::f64::consts::PI) / n;
        let l = law(Kind::Linear, k, m / n);
        for &p in &c.points {
            push(c.origin + sh.rotation * p, 0.0, l, k);
        }
        return;
    }
    match sh.kind {
        ShapeKind::Sphere { radius } => {
            let k = material::hertz(es, radius);
            push(sh.offset, radius, law(Kind::Hertz, k, m), hertz_kn(k));
        }
        ShapeKind::Capsule {
            radius,
            half_length,
        } => {
            // the segment's nearest point to a plane is an end (both when parallel): two
            // spheres at the ends, exact for the capsule's gap
            let k = material::hertz(es, radius);
            let l = law(Kind::Hertz, k, m);
            for sign in [-1.0, 1.0] {
                let s = sh.offset + sh.rotation * DVec3::new(0.0, 0.0, sign * half_length);
                push(s, radius, l, hertz_kn(k));
            }
        }
        ShapeKind::Box { half } => {
            // a flat face on a plane: the corners share a flat punch's stiffness (`material.rs`),
            // each corner damped on a quarter of the mass (law.rs)
            let k = material::corner_stiffness(es, half);
            let l = law(Kind::Linear, k, m / 4.0);
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

/// The colliders of `model` (`weight`: |gravity|, at least 1): each shape (a capsule by its two
/// end caps, then each capsule once more taken whole), the alphas their pairs' laws use, the
/// pairs of bodies a joint joins; none with fewer than two.
fn colliders(model: &Model, weight: f64) -> Colliders {
    let ct = &model.contact;
    let mut out = Colliders {
        mass: model.bodies.iter().map(|b| b.mass).collect(),
        weight,
        ..Colliders::default()
    };
    // a pair pulls where either material pulls, at the smaller e (`Colliders::law_of`)
    let any_pull = ct.shapes.iter().any(|sh| sh.material.pull);
    for sh in &ct.shapes {
        // a capsule by its two end caps (they touch boxes only)
        let (r, half, kinds, ends): (f64, DVec3, &[Kind], &[f64]) = match sh.kind {
            ShapeKind::Sphere { radius } => (radius, DVec3::ZERO, &[Kind::Hertz], &[0.0]),
            // a box by its bounding sphere; its corners' law is linear, a sphere's on it Hertz
            ShapeKind::Box { half } => (half.length(), half, &[Kind::Hertz, Kind::Linear], &[0.0]),
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
            out.list.push(Collider::of(sh, s, r, half, None));
        }
        for &kind in kinds {
            out.alpha.add(kind, m.restitution, m.pull);
            if any_pull {
                out.alpha.add(kind, m.restitution, true);
            }
        }
    }
    // each capsule once more, taken whole, for its pairs with spheres, capsules and boxes
    // (`capsule.rs`, `capsule_box.rs`); after the others, so that their pairs' order is what
    // it was
    for sh in &ct.shapes {
        if let ShapeKind::Capsule {
            radius,
            half_length,
        } = sh.kind
        {
            let whole = Collider::of(sh, sh.offset, radius, DVec3::ZERO, Some(half_length));
            out.list.push(whole);
        }
    }
    if out.list.len() > 1 {
        if !ct.collide_joined {
            out.joined = joined_pairs(model);
        }
        // and the pairs the model excludes
        out.joined
            .extend(ct.exclude.iter().map(|&[a, b]| (a.min(b), a.max(b))));
        out.joined.sort_unstable();
        out.joined.dedup();
    } else {
        out.list.clear();
    }
    out
}

/// The pairs of bodies that do not touch, (min, max), sorted: bodies joined by a joint, where
/// bodies welded together by fixed joints count as one (MuJoCo's weld bodies: its parent-child
/// filter compares them, so a body below a jointless one does not touch the jointless one's
/// parent, as the humanoid_CMU's thigh and pelvis about its hip body), and bodies welded
/// together. Built once, at compile time.
fn joined_pairs(model: &Model) -> Vec<(usize, usize)> {
    let n = model.bodies.len();
    // the weld groups: union-find over the fixed joints between two bodies
    let mut root: Vec<usize> = (0..n).collect();
    fn find(root: &mut [usize], mut k: usize) -> usize {
        while root[k] != k {
            root[k] = root[root[k]];
            k = root[k];
        }
        k
    }
    for j in &model.joints {
        if let (crate::model::JointKind::Fixed { .. }, Some(a)) = (&j.kind, j.a) {
            let (ra, rb) = (find(&mut root, a), find(&mut root, j.b));
            root[ra.max(rb)] = ra.min(rb);
        }
    }
    let group: Vec<usize> = (0..n).map(|k| find(&mut root, k)).collect();
    let group = &group;
    let members = |g: usize| (0..n).filter(move |&k| group[k] == g);
    let mut out = Vec::new();
    let mut link = |x: usize, y: usize| {
        if x != y {
            out.push((x.min(y), x.max(y)));
        }
    };
    let mut size = alloc::vec![0usize; n];
    group.iter().for_each(|&g| size[g] += 1);
    for j in &model.joints {
        let Some(a) = j.a else { continue };
        if size[group[a]] == 1 && size[group[j.b]] == 1 {
            link(a, j.b); // (no weld on either side: the joint's own pair)
            continue;
        }
        for x in members(group[a]) {
            for y in members(group[j.b]) {
                link(x, y);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
