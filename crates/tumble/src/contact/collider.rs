//! The colliders: the shapes that may touch another body's shapes, as the broad phase and the
//! pair functions see them. A sphere, a box (swept by its bounding sphere), a capsule twice: by
//! its two end caps (spheres that touch boxes only) and taken whole (its segment, for spheres,
//! capsules and boxes). Each has a kind (`ColliderKind`: the pair table's index, `pairs.rs`),
//! its body point and frame, its collision filter and its material (`material.rs`).
use super::law::{Alphas, Kind, Law};
use super::material::{self, Surface};
use super::probe::Probe;
use crate::model::BodyState;
use crate::shapes::{Shape, ShapeKind};
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// What a collider is, for the pair table (`pairs.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColliderKind {
    /// a sphere
    Sphere = 0,
    /// a capsule's end cap: a sphere that touches boxes only (against a face the segment's
    /// nearest point is an end, so the caps are the capsule's contact as against a plane)
    CapsuleEnd = 1,
    /// a capsule taken whole: its segment, for spheres, capsules and boxes
    Capsule = 2,
    /// a box
    Box = 3,
}

/// A shape that may touch other bodies' shapes: its body, centre in the body's frame, radius,
/// and what a pair needs of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collider {
    /// the body
    pub body: usize,
    /// the centre in the body's frame (m)
    pub s: DVec3,
    /// the radius (m); a box's bounding radius
    pub r: f64,
    /// a box's half-sizes (zero for the others)
    pub half: DVec3,
    /// the shape's axes in the body's frame (columns)
    pub rot: DMat3,
    /// a capsule's end cap ([`ColliderKind::CapsuleEnd`])
    pub cap: bool,
    /// a capsule as a whole: the half-length of its segment along `rot`'s z (its centre `s`,
    /// its radius `r`). None for the others
    pub segment: Option<f64>,
    /// collision filter
    pub group: u32,
    /// collision filter
    pub mask: u32,
    /// its material
    pub surface: Surface,
}

/// The colliders of a model and what pairing them needs, compiled once.
#[derive(Clone, Debug, Default)]
pub struct Colliders {
    /// the colliders
    pub list: Vec<Collider>,
    /// the pairs of bodies that do not touch, (min, max), sorted: joined by a joint (bodies
    /// welded together count as one), or excluded by the model (`compile.rs`)
    pub joined: Vec<(usize, usize)>,
    /// per law, restitution and pull used by a pair: its alpha
    pub alpha: Alphas,
    /// the bodies' masses
    pub mass: Vec<f64>,
    /// |gravity| (m/s^2): the pairs' Hertz k_t is taken at the indentation of their weight
    pub weight: f64,
}

impl Collider {
    /// The collider of shape `sh` centred at its body point `s`, radius `r`, a box's half-sizes
    /// `half` (zero otherwise), a capsule taken whole as a `segment` of that half-length (a
    /// capsule's collider without one is one of its end caps), with the shape's filter and
    /// material.
    pub fn of(sh: &Shape, s: DVec3, r: f64, half: DVec3, segment: Option<f64>) -> Collider {
        Collider {
            body: sh.body,
            s,
            r,
            half,
            rot: sh.rotation,
            cap: segment.is_none() && matches!(sh.kind, ShapeKind::Capsule { .. }),
            segment,
            group: sh.group,
            mask: sh.mask,
            surface: Surface::of(&sh.material),
        }
    }

    /// What it is.
    pub fn kind(&self) -> ColliderKind {
        if self.segment.is_some() {
            ColliderKind::Capsule
        } else if self.is_box() {
            ColliderKind::Box
        } else if self.cap {
            ColliderKind::CapsuleEnd
        } else {
            ColliderKind::Sphere
        }
    }

    /// Whether it is a box.
    pub fn is_box(&self) -> bool {
        self.half != DVec3::ZERO
    }

    /// How far it reaches from its centre `s`: its radius, and a capsule's half-length.
    pub fn reach(&self) -> f64 {
        match self.segment {
            Some(len) => self.r + len,
            None => self.r,
        }
    }

    /// Where the world point `p` is in this shape's own frame (a box's) at the states `s`.
    pub fn local(&self, s: &[BodyState], p: DVec3) -> DVec3 {
        let sb = &s[self.body];
        self.rot.transpose() * (sb.r.transpose() * (p - sb.x) - self.s)
    }
}

impl Colliders {
    /// The Hertz law of a pair of colliders' spheres: R = r_a r_b / (r_a + r_b), E* from both,
    /// the smaller restitution, the reduced mass.
    pub fn law(&self, a: &Collider, b: &Collider) -> Law {
        let r = a.r * b.r / (a.r + b.r);
        let k = material::hertz_pair(&a.surface, &b.surface, r);
        self.law_of(Kind::Hertz, k, 1.0, a, b)
    }

    /// A law of `kind` and stiffness `k` between colliders `a` and `b`: the smaller
    /// restitution, pulling where either material pulls, damped on the reduced mass's `share`
    /// (a box's corner carries a quarter of its face: law.rs).
    pub fn law_of(&self, kind: Kind, k: f64, share: f64, a: &Collider, b: &Collider) -> Law {
        let (ma, mb) = (self.mass[a.body], self.mass[b.body]);
        let m = share * ma * mb / (ma + mb);
        let (e, pull) = material::restitution(&a.surface, &b.surface);
        Law {
            kind,
            k,
            c: material::damping(self.alpha.get(kind, e, pull), m, k),
            pull,
        }
    }

    /// Whether colliders `a` and `b` may touch at all: other bodies; an end cap only against
    /// a box, a capsule taken whole not against an end cap; the filter; no joint.
    pub fn may_touch(&self, a: &Collider, b: &Collider) -> bool {
        let key = (a.body.min(b.body), a.body.max(b.body));
        let capsules = (a.segment.is_none() && b.segment.is_none()) || !(a.cap || b.cap);
        a.body != b.body
            && (!(a.cap || b.cap) || a.is_box() || b.is_box())
            && capsules
            && (a.group & b.mask != 0 || b.group & a.mask != 0)
            && self.joined.binary_search(&key).is_err()
    }
}

/// A candidate pair as the pair functions take it: the two colliders (a of the lower index),
/// the states at the step's start, how near it must be (`margin`: both colliders' motion over
/// the step), its key (the two colliders' indices) and the last step's pair probes (sorted by
/// key and part: a box's corner keeps the face it touched, `box_box.rs`).
pub struct Pair<'a> {
    /// all the colliders (their laws)
    pub colliders: &'a Colliders,
    /// the collider of the lower index
    pub a: &'a Collider,
    /// the other
    pub b: &'a Collider,
    /// the states at the step's start
    pub s: &'a [BodyState],
    /// how far apart a probe may start (m)
    pub margin: f64,
    /// the two colliders' indices
    pub key: [usize; 2],
    /// the last step's pair probes
    pub prev: &'a [Probe],
}
