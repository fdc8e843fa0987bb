//! A point against a box's faces: which face of a box a sphere's centre, a capsule's point or
//! another box's corner goes against (`facing`, `least_overlap`, `corner_face`), and that
//! face's probe (`face`), whose gap n . (p_a - x_b) - off - r with n = R_b m is bilinear in
//! the two bodies' coordinates (`Geometry::PointFace`). The broad phase (`broad.rs`) calls
//! these for the pairs it finds, each point as a [`BoxProbe`]; beyond the faces, edges and
//! corners take over (`edges.rs`, `box_features.rs`).
use super::broad::{Ball, Balls};
use super::law::Law;
use super::probe::{Geometry, Probe};
use crate::model::BodyState;
use glam::DVec3;

/// A body point probed against a box (`face`, `corner_face`, `box_features.rs` `point_box`,
/// `broad.rs` `round_point`): the point `sp` (body frame of `pt`'s body) of radius `r`, the box `bx`, the
/// states `s`, how near it must be (`margin`), the law and the probe's key. Made by the caller
/// on the stack, passed by reference.
pub(super) struct BoxProbe<'a> {
    pub pt: &'a Ball,
    pub sp: DVec3,
    pub r: f64,
    pub bx: &'a Ball,
    pub s: &'a [BodyState],
    pub margin: f64,
    pub law: Law,
    pub key: ([usize; 2], u32),
}

impl BoxProbe<'_> {
    /// The point in the world.
    pub fn world(&self) -> DVec3 {
        let sa = &self.s[self.pt.body];
        sa.x + sa.r * self.sp
    }

    /// The point in the box's own frame (`Balls::local`).
    pub fn local(&self) -> DVec3 {
        Balls::local(self.bx, self.s, self.world())
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

impl Balls {
    /// Where the world point `p` is in box `bx`'s own frame at the states `s`.
    pub(super) fn local(bx: &Ball, s: &[BodyState], p: DVec3) -> DVec3 {
        let sb = &s[bx.body];
        bx.rot.transpose() * (sb.r.transpose() * (p - sb.x) - bx.s)
    }

    /// The face of box `bx` that the body point `c` (world) faces, scaled by `reach` around the
    /// box: the axis k of the largest |c_k| / (h_k + reach), and its side. A box's corners all
    /// go against the face its centre faces (two stacked boxes' corners sit on the edges of
    /// each other's faces, where the face nearest each corner is ambiguous).
    pub(super) fn facing(bx: &Ball, s: &[BodyState], c: DVec3, reach: f64) -> (usize, f64) {
        let q = Self::local(bx, s, c).to_array();
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

    /// The face of box `bx` that box `pt` overlaps least through, at the states `s`: along
    /// each of `bx`'s axes k, the interval of `pt`'s corners [lo, hi] (in `bx`'s frame) against
    /// [-h_k, h_k]; through the + face `pt` reaches h_k - lo deep, through the - face hi + h_k;
    /// the face of the least depth (negative: apart) is the one `pt` came through (the
    /// separating-axis test on `bx`'s face normals). Why not the face `pt`'s centre faces: a
    /// falling domino's centre faces the bottom of the next one while its top edge leans on that
    /// one's broad face; the least overlap finds the broad face, and for two stacked boxes the
    /// top face, as the centre does.
    pub(super) fn least_overlap(pt: &Ball, bx: &Ball, s: &[BodyState]) -> (usize, f64) {
        let (sa, h) = (&s[pt.body], bx.half.to_array());
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for corner in 0..8u32 {
            let q = Self::local(
                bx,
                s,
                sa.x + sa.r * (pt.s + pt.rot * Self::corner(pt.half, corner)),
            );
            for k in 0..3 {
                lo[k] = lo[k].min(q[k]);
                hi[k] = hi[k].max(q[k]);
            }
        }
        let mut best = (0, 1.0, f64::INFINITY);
        for k in 0..3 {
            for (side, depth) in [(1.0, h[k] - lo[k]), (-1.0, hi[k] + h[k])] {
                if depth < best.2 {
                    best = (k, side, depth);
                }
            }
        }
        (best.0, best.1)
    }

    /// The face of box `probe.bx` that the corner `probe.sp` of box `probe.pt` goes against. Of the faces whose
    /// extent (1 % grown, as in `face`) the corner lies over:
    /// - the face it was probed against in the last step (a contact stays on its face until it
    ///   leaves the face's extent or lets go, a step's margin away: a domino's edge leaning on
    ///   the next one's broad face stays there while both turn);
    /// - else the nearest, on the side of the box the corner is on: the face it is least deep
    ///   behind, or, outside, the one it is beyond; within 1 % of the thinnest half-size of
    ///   that, the face of least overlap `overlap` (`least_overlap`) where it is one of them (a
    ///   stacked box's corners sit on the edges of the face below, where the faces are equally
    ///   near).
    ///
    /// Why not least overlap alone: a domino lying on the floor has the next one's edge on its
    /// broad face near its end; along its length the next one overlaps it less than through its
    /// broad face, and that end face would push the corner through the box.
    pub(super) fn corner_face(
        prev: &[Probe],
        probe: &BoxProbe,
        overlap: (usize, f64),
    ) -> (usize, f64) {
        let (bx, key) = (probe.bx, probe.key);
        let q = probe.local().to_array();
        let h = bx.half.to_array();
        let over = |k: usize| (0..3).all(|j| j == k || q[j].abs() <= 1.01 * h[j]);
        if let Ok(i) = prev.binary_search_by_key(&key, |p| (p.shapes, p.part)) {
            if let Geometry::PointFace { m, .. } = prev[i].geometry {
                let e = (bx.rot.transpose() * m).to_array();
                let k = (0..3).fold(0, |k, j| if e[j].abs() > e[k].abs() { j } else { k });
                if over(k) {
                    return (k, e[k].signum());
                }
            }
        }
        // the gap through the nearer face along each axis the corner lies over
        let gap = |k: usize| q[k].abs() - h[k];
        let Some(best) = (0..3)
            .filter(|&k| over(k))
            .max_by(|&a, &b| gap(a).total_cmp(&gap(b)))
        else {
            return overlap;
        };
        let tie = 0.01 * bx.half.min_element();
        let (k, side) = overlap;
        if over(k) && side * q[k] >= 0.0 && gap(k) >= gap(best) - tie {
            return overlap;
        }
        (best, if q[best] < 0.0 { -1.0 } else { 1.0 })
    }

    /// Corner `i` (bits 1, 2, 4: the sign along x1, x2, x3) of a box of half-sizes `half`.
    pub(super) fn corner(half: DVec3, i: u32) -> DVec3 {
        let sgn = |bit: u32| if i & bit == 0 { -1.0 } else { 1.0 };
        DVec3::new(sgn(1) * half.x, sgn(2) * half.y, sgn(4) * half.z)
    }

    /// The probe of the point `probe.sp` (radius `probe.r`) of ball `probe.pt`'s body against
    /// face `face` (axis, side) of box `probe.bx` at the states `probe.s`, if the point is
    /// within `probe.margin` of the face grown by `r`, at most a quarter of the box's thinnest
    /// half-size into it, and over it: within 1 % of the face's extent along its other axes (a
    /// stacked box's corners sit on the edges). Its gap, n . (p - x_b) - off - r with
    /// n = R_b m, is bilinear in the two bodies' coordinates (`Geometry::PointFace`).
    pub(super) fn face(probe: &BoxProbe, face: (usize, f64)) -> Option<Probe> {
        let (bx, r, margin) = (probe.bx, probe.r, probe.margin);
        let q = probe.local().to_array();
        let h = bx.half.to_array();
        let (k, side) = face;
        // not a point deep inside (more than a quarter of the box's thinnest half-size): that is
        // no contact through this face (a box that turned so that another face now faces the
        // point), and its force would launch the bodies apart
        // (a sphere's centre exactly over the face: beyond it, the edge's probe takes over
        // with the same gap at the border, `box_features.rs`)
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
}
