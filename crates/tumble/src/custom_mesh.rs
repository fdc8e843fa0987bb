//! A mesh shape in the JSON form, and the box it is collided as:
//!
//! ```json
//! { "type": "mesh", "vertices": [[0, 0, 0], [0.3, 0, 0], [0, 0.2, 0], [0, 0, 0.1]],
//!   "faces": [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], "offset": [0, 0, 0.5] }
//! ```
//! Vertices in the shape's frame (m; `offset` and `rotation` place that frame on the body, as
//! for every shape), faces as three vertex indices each (counter-clockwise seen from outside,
//! as MuJoCo's). The mesh is drawn as its triangles; against planes it meets them with its
//! convex hull's corners (`contact/hull.rs`, `contact/compile.rs`: point-plane gaps, exact in
//! the director), against other shapes as its bounding box in its own frame: a box with the
//! half extents of the vertices, centred on their box (MuJoCo's `geom_aabb`). Why the box
//! there and not the triangles: a mesh's faces and edges against a shape need a contact law per
//! face and edge that the papers do not give; the box keeps the director's exact balance (its
//! corners' gaps are bilinear), and an MJCF import says which geoms it made so.
use crate::shapes::ShapeKind;
use crate::validate::ScenarioError;
use alloc::format;
use alloc::vec::Vec;
use glam::DVec3;

/// Most vertices a mesh may have.
pub const MAX_VERTICES: usize = 100_000;
/// Most triangles a mesh may have.
pub const MAX_FACES: usize = 200_000;

/// The box a mesh is collided as, and the box's centre in the mesh's frame, from its
/// vertices and faces, checked: at least four vertices, each finite and within 1e6 m; at least
/// one face, each of three different vertices that exist; an extent of at least 2e-6 m along
/// each axis (a flat mesh has no box to collide).
pub(crate) fn mesh_box(
    name: &str,
    vertices: &[[f64; 3]],
    faces: &[[u32; 3]],
) -> Result<(ShapeKind, DVec3), ScenarioError> {
    let fail = |msg: alloc::string::String| Err(ScenarioError(msg));
    if vertices.len() < 4 || vertices.len() > MAX_VERTICES {
        return fail(format!(
            "{name}.vertices: a mesh needs 4 to {MAX_VERTICES} vertices, not {}",
            vertices.len()
        ));
    }
    if faces.is_empty() || faces.len() > MAX_FACES {
        return fail(format!(
            "{name}.faces: a mesh needs 1 to {MAX_FACES} triangles, not {}",
            faces.len()
        ));
    }
    let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for (i, &v) in vertices.iter().enumerate() {
        let p = DVec3::from_array(v);
        if !p.is_finite() || p.abs().max_element() > 1e6 {
            return fail(format!(
                "{name}.vertices[{i}] must hold finite numbers of magnitude at most 1e6 m, not {v:?}"
            ));
        }
        lo = lo.min(p);
        hi = hi.max(p);
    }
    for (i, f) in faces.iter().enumerate() {
        let n = vertices.len() as u32;
        if f.iter().any(|&k| k >= n) || f[0] == f[1] || f[1] == f[2] || f[0] == f[2] {
            return fail(format!(
                "{name}.faces[{i}] = {f:?}: a triangle needs three different vertex indices from 0 to {}",
                n - 1
            ));
        }
    }
    let half = 0.5 * (hi - lo);
    if half.min_element() < 1e-6 {
        return fail(format!(
            "{name}.vertices span {:?} m along x, y, z: a mesh is collided as its bounding box, which needs at least 2e-6 m along each",
            (2.0 * half).to_array()
        ));
    }
    Ok((ShapeKind::Box { half }, 0.5 * (lo + hi)))
}

/// The vertices as points.
pub(crate) fn points(vertices: &[[f64; 3]]) -> Vec<DVec3> {
    vertices.iter().map(|&v| DVec3::from_array(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TETRA: [[f64; 3]; 4] = [
        [0.0, 0.0, 0.0],
        [0.3, 0.0, 0.0],
        [0.0, 0.2, 0.0],
        [0.0, 0.0, 0.1],
    ];
    const FACES: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

    #[test]
    fn a_tetrahedron_is_its_bounding_box() {
        let (kind, centre) = mesh_box("m", &TETRA, &FACES).unwrap();
        assert_eq!(
            kind,
            ShapeKind::Box {
                half: DVec3::new(0.15, 0.1, 0.05)
            }
        );
        assert_eq!(centre, DVec3::new(0.15, 0.1, 0.05));
    }

    #[test]
    fn bad_meshes_are_refused_by_name() {
        let msg = |v: &[[f64; 3]], f: &[[u32; 3]]| mesh_box("s", v, f).unwrap_err().0;
        assert!(msg(&TETRA[..3], &FACES).contains("s.vertices: a mesh needs 4"));
        assert!(msg(&TETRA, &[]).contains("s.faces: a mesh needs 1"));
        assert!(msg(&TETRA, &[[0, 1, 4]]).contains("s.faces[0] = [0, 1, 4]"));
        assert!(msg(&TETRA, &[[0, 1, 1]]).contains("three different"));
        let mut nan = TETRA;
        nan[2][1] = f64::NAN;
        assert!(msg(&nan, &FACES).contains("s.vertices[2]"));
        let mut flat = TETRA;
        flat[3][2] = 0.0;
        assert!(msg(&flat, &FACES).contains("at least 2e-6 m along each"));
    }
}
