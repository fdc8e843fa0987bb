//! Box against box: each box's eight corners against the other's faces, and where their edges
//! cross, edge against edge.
//!
//! Corners: a corner's face is the one it was against in the last step while it stays over it,
//! else the nearest (`corner_face`, chosen at the step's start); a point over no face, by an
//! edge or a corner of the box, is left out, and a probe that goes while pressed in gives its
//! energy to D (`pairs.rs` `released`). A corner's law is linear, of its own box's face
//! (`material.rs` `corner_stiffness`, E* of both), damped on a quarter of the reduced mass.
//!
//! Edge against edge: the contact that the corners-against-faces probes cannot see (two blocks crossed like the bars of a "+", each edge pressing into
//! the other, no corner of either inside the other).
//!
//! ```text
//! separating axes   L: the 3 + 3 face normals and the 9 cross products u_i x v_j of the
//!                   boxes' axes (u of box A, v of box B); depth(L) = r_A(L) + r_B(L) - |L . d|,
//!                   r_A(L) = sum_k h_k |L . u_k|, d = c_A - c_B; the least depth's axis is
//!                   where the boxes meet (the separating-axis test)
//! the edge pair     where a cross product's depth is the least (no more than every face's),
//!                   L is turned to point from B to A; A's two edges along u_i on its face
//!                   that faces -L most, B's along v_j on its face that faces +L (both, so
//!                   that a beam lying across a block's top meets both of its upper edges,
//!                   the gap deciding which touch); their closest points p_A = a0 + s u_i,
//!                   p_B = b0 + t v_j solve
//!                   [1 -c; c -1] [s; t] = [-u_i . r; -v_j . r], c = u_i . v_j, r = a0 - b0
//! the probe         when both points lie within their edges (1 % inside their ends where L
//!                   is no better than a face's axis by 2 % of the thinner box's thinnest
//!                   half-size, so that a corner over a face is not probed twice: there the
//!                   face's corners carry the contact, the edges where they leave the face):
//!                   the point p_A of body A
//!                   against the plane through p_B with normal L, held in B's frame for the
//!                   step (m = R_B^T L, off = m . (R_B^T (p_B - x_B))): a `PointFace` probe,
//!                   whose gap L . (p_A - p_B) is bilinear in the two bodies' coordinates, so
//!                   the director's force is exact within the step
//! ```
//! Energy: the points and the normal are found anew at each step's start, while the bodies
//! move. Both are stationary there (the closest points minimise the distance, and the gap
//! along a unit normal turned by a small angle changes by the angle squared), so the gap a
//! new step starts from differs from the one the last step ended at by the square of the
//! step's motion: as with a capsule pair (`capsule.rs`), the balance's error through an edge
//! contact is first order in h (tests/tests/box_pairs.rs), and zero elsewhere. A probe keeps
//! its key (the two axes) from step to step, so it is the same contact, not one released and
//! another begun (`pairs.rs` `released`).
use super::collider::{Collider, Pair};
use super::law::Kind;
use super::material;
use super::point_box::{face, PointOnBox};
use super::probe::{Geometry, Probe};
use crate::model::BodyState;
use alloc::vec::Vec;
use glam::DVec3;

/// How many parts a box pair's corners take: part `1 + 8 side + corner` (side 0: a's corners
/// against b's faces, 1: b's against a's; bits 1, 2, 4 of `corner`: its sign along x1, x2, x3).
pub const CORNER_PARTS: u32 = 16;

/// The first part of an edge pair's probe, after the corners': part
/// `FIRST_EDGE_PART + 4 (3 i + j) + 2 a + b` for A's axis i and B's axis j, and which of the two
/// edges along them on the faces facing each other (a, b: `edges_along`).
pub const FIRST_EDGE_PART: u32 = 1 + CORNER_PARTS;

/// The pair function of two boxes: each box's corners against the other's faces, then edge
/// against edge where they cross; the pair's probes by their parts.
pub fn collide(pair: &Pair, out: &mut Vec<Probe>) {
    let (a, b, s) = (pair.a, pair.b, pair.s);
    let before = out.len();
    // each box's corners against the other's faces, a corner's stiffness that of its own box's
    // face (E* of both)
    for (side, (pt, bx)) in [(a, b), (b, a)].into_iter().enumerate() {
        let es = material::e_star_of(&a.surface, &b.surface);
        let k = material::corner_stiffness(es, pt.half);
        let law = pair.colliders.law_of(Kind::Linear, k, 0.25, a, b);
        let overlap = least_overlap(pt, bx, s);
        for c in 0..8u32 {
            let probe = PointOnBox {
                pt,
                sp: pt.s + pt.rot * corner(pt.half, c),
                r: 0.0,
                bx,
                s,
                margin: pair.margin,
                law,
                key: (pair.key, 1 + 8 * side as u32 + c),
            };
            let face_of = corner_face(pair.prev, &probe, overlap);
            out.extend(face(&probe, face_of));
        }
    }
    // and edge against edge, where they cross
    let corners = out.len() > before;
    edge_pairs(pair, corners, out);
    // a pair's probes by their parts
    out[before..].sort_unstable_by_key(|p| p.part);
}

/// Corner `i` (bits 1, 2, 4: the sign along x1, x2, x3) of a box of half-sizes `half`.
pub fn corner(half: DVec3, i: u32) -> DVec3 {
    let sgn = |bit: u32| if i & bit == 0 { -1.0 } else { 1.0 };
    DVec3::new(sgn(1) * half.x, sgn(2) * half.y, sgn(4) * half.z)
}

/// The face of box `bx` that box `pt` overlaps least through, at the states `s`: along
/// each of `bx`'s axes k, the interval of `pt`'s corners [lo, hi] (in `bx`'s frame) against
/// [-h_k, h_k]; through the + face `pt` reaches h_k - lo deep, through the - face hi + h_k;
/// the face of the least depth (negative: apart) is the one `pt` came through (the
/// separating-axis test on `bx`'s face normals). Why not the face `pt`'s centre faces: a
/// falling domino's centre faces the bottom of the next one while its top edge leans on that
/// one's broad face; the least overlap finds the broad face, and for two stacked boxes the
/// top face, as the centre does.
fn least_overlap(pt: &Collider, bx: &Collider, s: &[BodyState]) -> (usize, f64) {
    let (sa, h) = (&s[pt.body], bx.half.to_array());
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for c in 0..8u32 {
        let q = bx.local(s, sa.x + sa.r * (pt.s + pt.rot * corner(pt.half, c)));
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
/// extent (1 % grown, as in `point_box.rs` `face`) the corner lies over:
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
fn corner_face(prev: &[Probe], probe: &PointOnBox, overlap: (usize, f64)) -> (usize, f64) {
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

/// A box's centre, axes and half-sizes in the world at the states `s`.
fn frame(bx: &Collider, s: &[BodyState]) -> (DVec3, [DVec3; 3], [f64; 3]) {
    let st = &s[bx.body];
    let r = st.r * bx.rot;
    (
        st.x + st.r * bx.s,
        [r.x_axis, r.y_axis, r.z_axis],
        bx.half.to_array(),
    )
}

/// How far a box of axes `u` and half-sizes `h` reaches along the unit axis `l`.
fn reach(l: DVec3, u: &[DVec3; 3], h: &[f64; 3]) -> f64 {
    (0..3).map(|k| h[k] * l.dot(u[k]).abs()).sum()
}

/// The two edges of a box (centre `c`, axes `u`, half-sizes `h`) along its axis `i` on its
/// face that faces `dir` most (of the two other axes, the one more nearly along `dir`): their
/// midpoints, the one at -h then +h along the remaining axis. Both, not only the one
/// furthest along `dir`: a bar lying across a block's top meets both of its upper edges, and
/// which of them is further along `dir` turns with every tilt.
fn edges_along(c: DVec3, u: &[DVec3; 3], h: &[f64; 3], i: usize, dir: DVec3) -> [DVec3; 2] {
    let (k1, k2) = ((i + 1) % 3, (i + 2) % 3);
    let (major, minor) = if dir.dot(u[k1]).abs() >= dir.dot(u[k2]).abs() {
        (k1, k2)
    } else {
        (k2, k1)
    };
    let mid = c + dir.dot(u[major]).signum() * h[major] * u[major];
    let spread = h[minor] * u[minor];
    [mid - spread, mid + spread]
}

/// The two boxes of a pair in the world: centres, axes and half-sizes, d = c_A - c_B.
struct Frames {
    ca: DVec3,
    u: [DVec3; 3],
    ha: [f64; 3],
    cb: DVec3,
    v: [DVec3; 3],
    hb: [f64; 3],
    d: DVec3,
}

impl Frames {
    /// The depth along the unit axis `l`: r_A(l) + r_B(l) - |l . d|.
    fn depth(&self, l: DVec3) -> f64 {
        reach(l, &self.u, &self.ha) + reach(l, &self.v, &self.hb) - l.dot(self.d).abs()
    }
}

/// The separating axes of the two boxes: the least depth of the six face normals, the nine
/// cross products u_i x v_j with their depths (infinite for parallel edges), and the least
/// depth of all 15.
fn cross_axes(f: &Frames) -> (f64, [(f64, DVec3); 9], f64) {
    let face =
        f.u.iter()
            .chain(f.v.iter())
            .map(|&l| f.depth(l))
            .fold(f64::INFINITY, f64::min);
    // the cross products of least depth: every one within 1e-6 of the thinnest half-size
    // of the least depth of all 15 axes (a beam lying flat across a block meets it along
    // two of them, the same normal)
    let mut axes = [(0.0f64, DVec3::ZERO); 9];
    let mut least = face;
    for (i, ui) in f.u.iter().enumerate() {
        for (j, vj) in f.v.iter().enumerate() {
            let l = ui.cross(*vj);
            let len = l.length();
            // parallel edges: a face's normal is the axis
            axes[3 * i + j] = if len < 1e-6 {
                (f64::INFINITY, l)
            } else {
                (f.depth(l / len), l / len)
            };
            least = least.min(axes[3 * i + j].0);
        }
    }
    (face, axes, least)
}

/// The edge-against-edge probes of the pair's boxes at the states at the step's start, where
/// they meet (or are within the margin of meeting) edge to edge (module notes), into `out`;
/// `corners`: whether a corner of either is probed against the other's face (then edges lying
/// on a face are left to the corners).
fn edge_pairs(pair: &Pair, corners: bool, out: &mut Vec<Probe>) {
    let (a, b, s, margin) = (pair.a, pair.b, pair.s, pair.margin);
    let (ca, u, ha) = frame(a, s);
    let (cb, v, hb) = frame(b, s);
    let f = Frames {
        ca,
        u,
        ha,
        cb,
        v,
        hb,
        d: ca - cb,
    };
    let (face, axes, least) = cross_axes(&f);
    let thin = a.half.min_element().min(b.half.min_element());
    if least < -margin {
        return; // apart
    }
    let es = material::e_star_of(&a.surface, &b.surface);
    // one point of contact: the corners' stiffness (of the thinner box's face), damped on
    // the whole reduced mass
    let k = material::corner_stiffness(
        es,
        if a.half.min_element() < b.half.min_element() {
            a.half
        } else {
            b.half
        },
    );
    let law = pair.colliders.law_of(Kind::Linear, k, 1.0, a, b);
    for (n, &(e, l)) in axes.iter().enumerate() {
        if e > least + 1e-6 * thin {
            continue; // a face's axis or another cross product is where they meet
        }
        // Better than every face's axis by 2 % of the thinner box's thinnest half-size:
        // edges crossing. Else only where no corner of either box is over the other's face
        // (a beam lying across a narrow block, the cross product then a face's normal or
        // near it), and then where the edges cross strictly inside both (1 % from their
        // ends). Left to the corners: a face that a corner presses (probing its edges too
        // made the dominoes' balance 1.7e-4 J, and a cross product barely better than a
        // face's axis began probes 3 mm deep there).
        let inside = if e < face - 0.02 * thin {
            1.0
        } else if !corners {
            0.99
        } else {
            continue;
        };
        // L from B to A; A's two edges on its face towards -L, B's on its face towards +L
        let l = if l.dot(f.d) < 0.0 { -l } else { l };
        edge_probes(pair, &f, (n, l, inside, thin), law, out);
    }
}

/// The probes of the two edges of A along its axis i against the two of B along its axis j
/// (`n` = 3 i + j) with the normal `l` (from B to A), where both points lie within `inside`
/// of their edges' half-lengths and the gap is within the margin and at most a quarter of the
/// thinnest half-size `thin` deep.
fn edge_probes(
    pair: &Pair,
    f: &Frames,
    (n, l, inside, thin): (usize, DVec3, f64, f64),
    law: super::law::Law,
    out: &mut Vec<Probe>,
) {
    let (a, b, s, margin) = (pair.a, pair.b, pair.s, pair.margin);
    let (sta, stb) = (&s[a.body], &s[b.body]);
    let (i, j) = (n / 3, n % 3);
    let (u, v, ha, hb) = (&f.u, &f.v, &f.ha, &f.hb);
    let aa = edges_along(f.ca, u, ha, i, -l);
    let bb = edges_along(f.cb, v, hb, j, l);
    let m = stb.r.transpose() * l;
    for (ka, a0) in aa.iter().enumerate() {
        for (kb, b0) in bb.iter().enumerate() {
            // closest points of the two edges' lines
            let (c, r) = (u[i].dot(v[j]), *a0 - *b0);
            let (ur, vr) = (u[i].dot(r), v[j].dot(r));
            let det = 1.0 - c * c;
            let sa = (c * vr - ur) / det;
            let tb = (vr - c * ur) / det;
            if sa.abs() > inside * ha[i] || tb.abs() > inside * hb[j] {
                continue; // beyond an edge's end: a corner's contact
            }
            let (pa, pb) = (*a0 + sa * u[i], *b0 + tb * v[j]);
            let gap = l.dot(pa - pb);
            if gap > margin || -gap > 0.25 * thin {
                continue; // apart, or too deep to be an edge's contact (as `face`)
            }
            let off = m.dot(stb.r.transpose() * (pb - stb.x));
            let part = FIRST_EDGE_PART + 4 * n as u32 + 2 * ka as u32 + kb as u32;
            out.push(Probe::point_face(
                (a.body, sta.r.transpose() * (pa - sta.x), 0.0),
                (b.body, m, off),
                law,
                (pair.key, part),
            ));
        }
    }
}
