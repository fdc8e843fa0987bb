//! A point against a box: a sphere's centre, a capsule's end cap or its segment's nearest point
//! (`capsule_box.rs`), another box's corner (`box_box.rs`), with a radius r (0 for a corner).
//! Over a face, the point against that face's plane; beyond the faces, against the box's
//! nearest edge or corner (a ball rolling off a block's edge).
//!
//! ```text
//! point-face   the face the point faces (`facing`: the axis k of the largest |q_k| / (h_k + r),
//!              q the point in the box's frame); its outward normal is R_b m, its plane
//!              m . x = off in b's frame; gap n . (p_a - x_b) - off - r, bilinear in the two
//!              bodies' coordinates (`Geometry::PointFace`); taken while the point is over the
//!              face (within 1 % of its extent for a corner), within the margin and at most a
//!              quarter of the box's thinnest half-size deep
//! point-box    beyond the faces: c = clamp(q, -h, h) the box's nearest point; gap = |q - c| - r
//!              along n = (q - c) / |q - c|; the point against the plane through c with normal
//!              n, held in the box's body frame for the step (m = R_shape n,
//!              off = m . (s + R_shape c)): a `PointFace` too
//! ```
//! Energy: the nearest point and normal of point-box are found anew at each step's start; both
//! are stationary there, so the balance's error while such a contact lasts is first order in h
//! (tests/tests/box_pairs.rs). Across a face's border the gap is continuous (at the border the
//! nearest point is on the face's edge, and the distance is the face's gap), so a probe that
//! goes from a face to an edge is the same contact, its key kept (`pairs.rs` `released`).
use super::collider::{Collider, Pair};
use super::law::{Kind, Law};
use super::material;
use super::probe::Probe;
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// The pair function of a sphere (or a capsule's end cap) and a box: the sphere's centre, with
/// its radius and a Hertz law of that radius against a flat face, against the box.
pub fn collide(pair: &Pair, out: &mut Vec<Probe>) {
    let (a, b) = (pair.a, pair.b);
    let (sph, bx) = if a.is_box() { (b, a) } else { (a, b) };
    let k = material::hertz_pair(&a.surface, &b.surface, sph.r);
    let law = pair.colliders.law_of(Kind::Hertz, k, 1.0, a, b);
    out.extend(round_point(&PointOnBox {
        pt: sph,
        sp: sph.s,
        r: sph.r,
        bx,
        s: pair.s,
        margin: pair.margin,
        law,
        key: (pair.key, 0),
    }));
}

/// The probe of the point `probe.sp` (radius `probe.r`) of collider `probe.pt`'s body against
/// box `probe.bx`: the face it faces ([`face`]) or, beyond the faces, the box's nearest edge or
/// corner ([`edge_or_corner`]).
pub fn round_point(probe: &PointOnBox) -> Option<Probe> {
    let face_of = facing(probe.bx, probe.s, probe.world(), probe.r);
    face(probe, face_of).or_else(|| edge_or_corner(probe))
}

/// A body point probed against a box ([`face`], [`edge_or_corner`], `box_box.rs`): the point
/// `sp` (body frame of `pt`'s body) of radius `r`, the box `bx`, the states `s`, how near it
/// must be (`margin`), the law and the probe's key. Made by the caller on the stack, passed by
/// reference.
pub struct PointOnBox<'a> {
    /// the collider whose body carries the point
    pub pt: &'a Collider,
    /// the point in its body's frame
    pub sp: DVec3,
    /// its radius (m)
    pub r: f64,
    /// the box
    pub bx: &'a Collider,
    /// the states at the step's start
    pub s: &'a [BodyState],
    /// how far apart it may start (m)
    pub margin: f64,
    /// its law
    pub law: Law,
    /// its key: the pair's colliders and the part
    pub key: ([usize; 2], u32),
}

impl PointOnBox<'_> {
    /// The point in the world.
    pub fn world(&self) -> DVec3 {
        let sa = &self.s[self.pt.body];
        sa.x + sa.r * self.sp
    }

    /// The point in the box's own frame (`Collider::local`).
    pub fn local(&self) -> DVec3 {
        self.bx.local(self.s, self.world())
    }

    /// The point's probe against the plane of normal `m` and offset `off`, both in the box's
    /// body frame (`Geometry::PointFace`).
    pub fn point_face(&self, m: DVec3, off: f64) -> Probe {
        Probe::point_face(
            (self.pt.body, self.sp, self.r),
            (self.bx.body, m, off),
            self.law,
            self.key,
        )
    }
}

/// The face of box `bx` that the body point `c` (world) faces, scaled by `reach` around the
/// box: the axis k of the largest |c_k| / (h_k + reach), and its side. A box's corners all
/// go against the face its centre faces (two stacked boxes' corners sit on the edges of
/// each other's faces, where the face nearest each corner is ambiguous).
pub fn facing(bx: &Collider, s: &[BodyState], c: DVec3, reach: f64) -> (usize, f64) {
    let q = bx.local(s, c).to_array();
    let h = bx.half.to_array();
    let ratio = |j: usize| q[j].abs() / (h[j] + reach);
    let k = if ratio(0) >= ratio(1) && ratio(0) >= ratio(2) {
        0
    } else if ratio(1) >= ratio(2) {
        1
    } else {
        2
    };
    (k, if q[k] < 0.0 { -1.0 } else { 1.0 })
}

/// The probe of the point `probe.sp` (radius `probe.r`) of collider `probe.pt`'s body against
/// face `face` (axis, side) of box `probe.bx` at the states `probe.s`, if the point is
/// within `probe.margin` of the face grown by `r`, at most a quarter of the box's thinnest
/// half-size into it, and over it: within 1 % of the face's extent along its other axes (a
/// stacked box's corners sit on the edges). Its gap, n . (p - x_b) - off - r with
/// n = R_b m, is bilinear in the two bodies' coordinates (`Geometry::PointFace`).
pub fn face(probe: &PointOnBox, face: (usize, f64)) -> Option<Probe> {
    let (bx, r, margin) = (probe.bx, probe.r, probe.margin);
    let q = probe.local().to_array();
    let h = bx.half.to_array();
    let (k, side) = face;
    // not a point deep inside (more than a quarter of the box's thinnest half-size): that is
    // no contact through this face (a box that turned so that another face now faces the
    // point), and its force would launch the bodies apart
    // (a sphere's centre exactly over the face: beyond it, the edge's probe takes over
    // with the same gap at the border, [`edge_or_corner`])
    let over = if r > 0.0 { 1.0 } else { 1.01 };
    let depth = h[k] + r - side * q[k];
    if -depth > margin
        || depth > r + 0.25 * bx.half.min_element()
        || (0..3).any(|j| j != k && q[j].abs() > over * h[j])
    {
        return None;
    }
    let mut e = DVec3::ZERO;
    e[k] = side;
    let m = bx.rot * e;
    let off = m.dot(bx.s) + h[k];
    Some(probe.point_face(m, off))
}

/// The probe of the point `probe.sp` (body frame of `probe.pt`, radius `probe.r`) against
/// box `probe.bx`'s edge or corner nearest it, if the point is outside the box and within
/// `probe.margin` of touching (module notes); `None` inside, where a face carries it.
pub fn edge_or_corner(probe: &PointOnBox) -> Option<Probe> {
    let bx = probe.bx;
    let q = probe.local();
    let c = q.clamp(-bx.half, bx.half);
    let dist = (q - c).length();
    if dist <= 1e-12 * bx.half.max_element() || dist - probe.r > probe.margin {
        return None;
    }
    let m = bx.rot * ((q - c) / dist);
    let off = m.dot(bx.s + bx.rot * c);
    Some(probe.point_face(m, off))
}
