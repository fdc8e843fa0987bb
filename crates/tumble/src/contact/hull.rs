//! A mesh's convex hull, for its contact with planes: its corners (the extreme points, the only
//! points of a convex body that can be its lowest against a plane) and its largest face.
//!
//! ```text
//! incremental hull: a tetrahedron of four extreme points, then each point outside a face by
//!   more than eps = 1e-9 x the mesh's extent replaces the faces it sees by the fan from it
//!   to their horizon (faces are triangles, wound outward)
//! corners: hull vertices whose faces' normals hold three independent directions (a point
//!   inside a flat face or along an edge, left from the order of insertion, is no corner)
//! largest face: the coplanar triangles grouped (normals within 1e-9, one plane), the group of
//!   the largest area, with the corners on it
//! ```
//! Cost: each point is tested against every face (O(points x faces), no conflict lists): a
//! 9902-vertex globe (19800 triangles, every vertex a corner) compiles in 0.3 s natively, the
//! largest mesh a 1 MiB system can hold (some 14000 vertices) in 0.9 s; once per run.
//! Why corners and not every vertex: a tessellated flat face has vertices inside it that would
//! each carry a share of the face's stiffness; its corners alone span the same face.
use alloc::vec::Vec;
use glam::DVec3;

/// A convex hull's corners and its largest face.
#[derive(Clone, Debug, PartialEq)]
pub struct Hull {
    /// the indices of the corners among the points
    pub corners: Vec<usize>,
    /// the largest face's area (m^2)
    pub face_area: f64,
    /// how many corners lie on the largest face
    pub face_corners: usize,
}

/// The convex hull of `points`, or None where they are flat (no tetrahedron of volume: the
/// caller takes the bounding box).
pub fn hull(points: &[DVec3]) -> Option<Hull> {
    let (lo, hi) = points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    );
    let eps = 1e-9 * (hi - lo).max_element();
    let mut faces = simplex(points, eps)?;
    for (i, &p) in points.iter().enumerate() {
        add_point(points, &mut faces, i, p, eps);
    }
    Some(summary(points, &faces))
}

/// A hull face: three point indices, wound outward, and its unit normal.
#[derive(Clone, Copy, Debug)]
struct Face {
    v: [usize; 3],
    n: DVec3,
}

impl Face {
    fn new(points: &[DVec3], v: [usize; 3]) -> Face {
        let [a, b, c] = v.map(|k| points[k]);
        let n = (b - a).cross(c - a);
        Face {
            v,
            n: n / crate::math::length(n),
        }
    }

    /// How far `p` lies outside the face's plane (m).
    fn outside(&self, points: &[DVec3], p: DVec3) -> f64 {
        self.n.dot(p - points[self.v[0]])
    }
}

/// A first tetrahedron of four extreme points, wound outward: the lowest x, the point farthest
/// from it, the farthest from their line and from their plane; None where the points are flat.
fn simplex(points: &[DVec3], eps: f64) -> Option<Vec<Face>> {
    let far = |score: &dyn Fn(DVec3) -> f64| {
        (0..points.len()).max_by(|&i, &j| score(points[i]).total_cmp(&score(points[j])))
    };
    let a = far(&|p| -p.x)?;
    let b = far(&|p| (p - points[a]).length_squared())?;
    let ab = points[b] - points[a];
    let c = far(&|p| ab.cross(p - points[a]).length_squared())?;
    let n = ab.cross(points[c] - points[a]);
    let d = far(&|p| n.dot(p - points[a]).abs())?;
    let nl = crate::math::length(n);
    if nl <= eps * crate::math::length(ab) || (n.dot(points[d] - points[a]) / nl).abs() <= eps {
        return None;
    }
    let mut out = Vec::with_capacity(4);
    let centre = 0.25 * (points[a] + points[b] + points[c] + points[d]);
    for v in [[a, b, c], [a, b, d], [a, c, d], [b, c, d]] {
        let f = Face::new(points, v);
        // wound outward: the centre lies inside
        out.push(if f.outside(points, centre) > 0.0 {
            Face::new(points, [v[0], v[2], v[1]])
        } else {
            f
        });
    }
    Some(out)
}

/// Point `i` (at `p`) added to the hull `faces`: where it lies outside some faces by more than
/// `eps`, those are replaced by the fan from it to their horizon.
fn add_point(points: &[DVec3], faces: &mut Vec<Face>, i: usize, p: DVec3, eps: f64) {
    let seen: Vec<bool> = faces.iter().map(|f| f.outside(points, p) > eps).collect();
    if !seen.contains(&true) {
        return;
    }
    // the horizon: edges of seen faces whose reverse is on no seen face
    let edges: Vec<(usize, usize)> = faces
        .iter()
        .zip(&seen)
        .filter(|(_, &s)| s)
        .flat_map(|(f, _)| [(f.v[0], f.v[1]), (f.v[1], f.v[2]), (f.v[2], f.v[0])])
        .collect();
    let horizon: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&(a, b)| !edges.contains(&(b, a)))
        .collect();
    let mut k = 0;
    faces.retain(|_| {
        k += 1;
        !seen[k - 1]
    });
    for (a, b) in horizon {
        faces.push(Face::new(points, [a, b, i]));
    }
}

/// The corners and the largest face of the hull `faces`.
fn summary(points: &[DVec3], faces: &[Face]) -> Hull {
    let same = |m: DVec3, n: DVec3| (m - n).length_squared() < 1e-18;
    // each vertex's distinct face normals; a corner has three independent ones
    let mut normals: Vec<Vec<DVec3>> = alloc::vec![Vec::new(); points.len()];
    for f in faces {
        for &v in &f.v {
            if !normals[v].iter().any(|&m| same(m, f.n)) {
                normals[v].push(f.n);
            }
        }
    }
    let independent = |ns: &[DVec3]| {
        ns.iter().enumerate().any(|(i, &a)| {
            ns[i + 1..].iter().enumerate().any(|(j, &b)| {
                ns[i + j + 2..]
                    .iter()
                    .any(|&c| a.cross(b).dot(c).abs() > 1e-9)
            })
        })
    };
    let corners: Vec<usize> = (0..points.len())
        .filter(|&v| independent(&normals[v]))
        .collect();
    // the largest face: coplanar triangles together (sorted by normal and offset, a plane's
    // triangles lie next to each other)
    let key = |f: &Face| [f.n.x, f.n.y, f.n.z, f.n.dot(points[f.v[0]])];
    let mut order: Vec<usize> = (0..faces.len()).collect();
    order.sort_by(|&a, &b| {
        let (ka, kb) = (key(&faces[a]), key(&faces[b]));
        (0..4)
            .map(|k| ka[k].total_cmp(&kb[k]))
            .find(|o| o.is_ne())
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let area = |f: &Face| {
        let [a, b, c] = f.v.map(|k| points[k]);
        0.5 * crate::math::length((b - a).cross(c - a))
    };
    let (mut face_area, mut best) = (0.0, (0, 0));
    let mut start = 0;
    while start < order.len() {
        let f0 = &faces[order[start]];
        let d0 = key(f0)[3];
        let mut end = start + 1;
        while end < order.len()
            && same(faces[order[end]].n, f0.n)
            && (key(&faces[order[end]])[3] - d0).abs() < 1e-12
        {
            end += 1;
        }
        let a: f64 = order[start..end].iter().map(|&k| area(&faces[k])).sum();
        if a > face_area {
            (face_area, best) = (a, (start, end));
        }
        start = end;
    }
    let on_face = |v: usize| {
        order[best.0..best.1]
            .iter()
            .any(|&k| faces[k].v.contains(&v))
    };
    let face_corners = corners.iter().filter(|&&v| on_face(v)).count();
    Hull {
        corners,
        face_area,
        face_corners,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(half: DVec3) -> Vec<DVec3> {
        (0..8)
            .map(|i| {
                let s = |k: u32| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
                DVec3::new(s(0) * half.x, s(1) * half.y, s(2) * half.z)
            })
            .collect()
    }

    #[test]
    fn a_box_is_its_eight_corners_and_its_largest_face() {
        let mut pts = cube(DVec3::new(0.3, 0.2, 0.1));
        // points inside, inside a face and along an edge are no corners
        pts.extend([
            DVec3::ZERO,
            DVec3::new(0.1, 0.05, 0.1),
            DVec3::new(0.0, 0.2, 0.1),
            DVec3::new(0.3, 0.2, 0.0),
        ]);
        let h = hull(&pts).unwrap();
        assert_eq!(h.corners, (0..8).collect::<Vec<_>>());
        assert!((h.face_area - 0.6 * 0.4).abs() < 1e-12, "{}", h.face_area);
        assert_eq!(h.face_corners, 4);
    }

    #[test]
    fn a_tessellated_face_counts_its_corners_only() {
        // the top of a 1 x 1 x 0.5 block as a 5 x 5 grid of points, all on the hull's plane
        let mut pts = cube(DVec3::new(0.5, 0.5, 0.25));
        for i in 0..5 {
            for j in 0..5 {
                pts.push(DVec3::new(
                    -0.5 + 0.25 * i as f64,
                    -0.5 + 0.25 * j as f64,
                    0.25,
                ));
            }
        }
        // taken first, the grid's points are extreme for a while
        pts.rotate_right(25);
        // (the grid's four corners are the block's too: each place once)
        let h = hull(&pts).unwrap();
        let mut c: Vec<DVec3> = h.corners.iter().map(|&k| pts[k]).collect();
        c.sort_by(|a, b| a.to_array().partial_cmp(&b.to_array()).unwrap());
        c.dedup();
        assert_eq!((c.len(), h.corners.len()), (8, 8), "{c:?}");
        assert!(c.iter().all(|p| p.abs() == DVec3::new(0.5, 0.5, 0.25)));
        assert!((h.face_area - 1.0).abs() < 1e-12);
    }

    #[test]
    fn random_clouds_lie_within_their_hulls() {
        // every point inside every face's plane (to eps), every corner a point no other
        // combination reaches: the one farthest along some face's outward normal
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in [5, 20, 200, 2000] {
            let pts: Vec<DVec3> = (0..n).map(|_| DVec3::new(rnd(), rnd(), rnd())).collect();
            let mut faces = simplex(&pts, 1e-9).unwrap();
            for (i, &p) in pts.iter().enumerate() {
                add_point(&pts, &mut faces, i, p, 1e-9);
            }
            for f in &faces {
                assert!(f.n.is_finite());
                assert!(pts.iter().all(|&p| f.outside(&pts, p) <= 1e-9));
            }
            let h = hull(&pts).unwrap();
            assert!(h.corners.len() >= 4 && h.corners.len() <= n);
            assert!(h.face_corners >= 3 && h.face_area > 0.0);
        }
    }

    #[test]
    fn a_wedge_and_a_flat_mesh() {
        let w = [
            DVec3::ZERO,
            DVec3::new(0.2, 0.0, 0.0),
            DVec3::new(0.0, 0.1, 0.0),
            DVec3::new(0.0, 0.0, 0.06),
            DVec3::new(0.2, 0.0, 0.06),
            DVec3::new(0.0, 0.1, 0.06),
        ];
        let h = hull(&w).unwrap();
        assert_eq!(h.corners.len(), 6);
        // the largest face: the slanted one, sqrt(0.2^2 + 0.1^2) x 0.06
        assert!((h.face_area - 0.06 * 0.05f64.sqrt()).abs() < 1e-12);
        assert_eq!(h.face_corners, 4);
        let flat = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)];
        assert_eq!(hull(&flat), None);
    }
}
