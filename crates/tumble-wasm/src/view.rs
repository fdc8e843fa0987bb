//! What the view draws besides the bodies, read from a scenario text: joint frames and the rails
//! of sliding joints, marks for driven and motorised joints, the kinds of point-to-point
//! elements (springs, dampers, rods), collision shapes, the strings of shaped bodies and the
//! contact planes. Each is a flat array of numbers with a fixed count per item (the doc comment
//! of each function gives the layout), so the page reads them without JSON.
use tumble::Scenario;
use wasm_bindgen::prelude::*;

/// The joints as the scenario defines them, 14 numbers each: body a (-1 for the ground),
/// point_a (3), axis_a (3), body b, point_b (3), axis_b (3); points and axes in the body's
/// frame (global for the ground); axes are zero for a spherical joint. For the view's joint
/// frames. Throws on a bad text.
#[wasm_bindgen]
pub fn joint_frames(text: &str) -> Result<Vec<f64>, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let mut out = Vec::with_capacity(14 * sc.model.joints.len());
    for j in &sc.model.joints {
        let (aa, ab) = j.kind.axes();
        out.push(j.a.map_or(-1.0, |a| a as f64));
        out.extend_from_slice(&j.point_a.to_array());
        out.extend_from_slice(&aa.to_array());
        out.push(j.b as f64);
        out.extend_from_slice(&j.point_b.to_array());
        out.extend_from_slice(&ab.to_array());
    }
    Ok(out)
}

/// The rails of the sliding joints (prismatic, cylindrical) of `text`, 7 numbers each: body a
/// (-1 for the ground), point_a (3) and axis_a (3) in a's frame (global for the ground), for the
/// view to draw along the axis. Throws on a bad text.
#[wasm_bindgen]
pub fn joint_rails(text: &str) -> Result<Vec<f64>, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let mut out = Vec::new();
    for j in &sc.model.joints {
        if matches!(
            j.kind,
            tumble::JointKind::Prismatic { .. } | tumble::JointKind::Cylindrical { .. }
        ) {
            out.push(j.a.map_or(-1.0, |a| a as f64));
            out.extend_from_slice(&j.point_a.to_array());
            out.extend_from_slice(&j.kind.axes().0.to_array());
        }
    }
    Ok(out)
}

/// The shapes of the scenario `text` for the view, the collision shapes and then the visual
/// ones (only drawn), 17 numbers each: body, kind (0 sphere, 1 capsule, 2 box, 3 a mesh's
/// bounding box, drawn as the mesh: `shape_meshes`), three sizes (sphere: radius, 0, 0;
/// capsule: radius, half-length along its z, 0; box and mesh: the box's half-sizes), the offset
/// in the body's frame (3) and the shape's axes in the body's frame (9, column-major). Units:
/// m. Throws on a bad text.
#[wasm_bindgen]
pub fn contact_shapes(text: &str) -> Result<Vec<f64>, JsError> {
    use tumble::shapes::ShapeKind;
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let c = &sc.model.contact;
    let mut out = Vec::with_capacity(17 * (c.shapes.len() + c.visuals.len()));
    let solid = c.shapes.iter().enumerate().map(|(i, s)| (s, c.mesh(i)));
    let drawn = c
        .visuals
        .iter()
        .enumerate()
        .map(|(i, s)| (s, c.visual_mesh(i)));
    for (sh, mesh) in solid.chain(drawn) {
        let (kind, size) = match sh.kind {
            ShapeKind::Sphere { radius } => (0.0, [radius, 0.0, 0.0]),
            ShapeKind::Capsule {
                radius,
                half_length,
            } => (1.0, [radius, half_length, 0.0]),
            ShapeKind::Box { half } => (2.0, half.to_array()),
        };
        out.push(sh.body as f64);
        out.push(if mesh.is_some() { 3.0 } else { kind });
        out.extend_from_slice(&size);
        out.extend_from_slice(&sh.offset.to_array());
        out.extend_from_slice(&sh.rotation.to_cols_array());
    }
    Ok(out)
}

/// The triangles of the mesh shapes of the scenario `text`, for the view: per mesh its shape's
/// index in `contact_shapes`, its number of triangles n, then 9 n numbers, each triangle's
/// three corners in the shape's axes from its box's centre (m). Throws on a bad text.
#[wasm_bindgen]
pub fn shape_meshes(text: &str) -> Result<Vec<f32>, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let c = &sc.model.contact;
    // (a visual shape's index in contact_shapes is after every collision shape's)
    let n = c.shapes.len();
    let meshes = c.meshes.iter().map(|m| (m, m.shape));
    let meshes = meshes.chain(c.visual_meshes.iter().map(|m| (m, n + m.shape)));
    let mut out = Vec::new();
    for (m, shape) in meshes {
        out.reserve(2 + 9 * m.faces.len());
        out.push(shape as f32);
        out.push(m.faces.len() as f32);
        for f in &m.faces {
            for &k in f {
                let p = m.vertices[k as usize] - m.centre;
                out.extend_from_slice(&p.as_vec3().to_array());
            }
        }
    }
    Ok(out)
}

/// The strings of shaped bodies, for the view: a joint whose point lies outside every shape of
/// its body (a Newton's cradle ball hung from a hinge above it) is drawn as a thin rod from that
/// point to the body's centre; 4 numbers each: the body, the point in its frame (m).
#[wasm_bindgen]
pub fn shape_links(text: &str) -> Result<Vec<f64>, JsError> {
    use tumble::shapes::ShapeKind;
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let m = &sc.model;
    let inside = |b: usize, p: glam::DVec3| {
        let all = m.contact.shapes.iter().chain(&m.contact.visuals);
        all.filter(|s| s.body == b).any(|s| {
            let q = s.rotation.transpose() * (p - s.offset);
            match s.kind {
                ShapeKind::Sphere { radius } => q.length() <= radius,
                ShapeKind::Capsule {
                    radius,
                    half_length,
                } => {
                    let z = q.z.clamp(-half_length, half_length);
                    (q - glam::DVec3::new(0.0, 0.0, z)).length() <= radius
                }
                ShapeKind::Box { half } => q.abs().cmple(half).all(),
            }
        })
    };
    let shaped = |b: usize| {
        let mut all = m.contact.shapes.iter().chain(&m.contact.visuals);
        all.any(|s| s.body == b)
    };
    let mut out = Vec::new();
    for j in &m.joints {
        for (b, p) in [(Some(j.b), j.point_b), (j.a, j.point_a)] {
            if let Some(b) = b.filter(|&b| shaped(b) && !inside(b, p)) {
                out.push(b as f64);
                out.extend_from_slice(&p.to_array());
            }
        }
    }
    Ok(out)
}

/// The stops of the angle limits on hinges, for the view: 11 numbers each, the body they turn
/// with (body a, -1 for the ground), the hinge's point and the directions (unit) from it in
/// which body b's centre lies at the lower and the upper stop, both in body a's frame (world
/// for the ground), and the distance of that centre from the hinge (m). A stop more than half
/// a turn from the start is not drawn (its direction is NaN).
#[wasm_bindgen]
pub fn limit_stops(text: &str) -> Result<Vec<f64>, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let m = &sc.model;
    let mut out = Vec::new();
    for f in &m.forces {
        let tumble::ForceElement::Limit {
            joint,
            kind: tumble::LimitKind::Angle,
            lower,
            upper,
            ..
        } = *f
        else {
            continue;
        };
        let j = &m.joints[joint];
        // in body a's frame at the start (the ground's: world)
        let (xa, ra) = j.a.map_or((glam::DVec3::ZERO, glam::DMat3::IDENTITY), |a| {
            (sc.initial[a].x, sc.initial[a].r)
        });
        let n = j.kind.axes().0.normalize();
        let r = ra.transpose() * (sc.initial[j.b].x - xa) - j.point_a;
        let u = r - n * n.dot(r);
        let len = u.length();
        if len < 1e-9 {
            continue;
        }
        out.push(j.a.map_or(-1.0, |a| a as f64));
        out.extend_from_slice(&j.point_a.to_array());
        for bound in [lower, upper] {
            let d = if bound.abs() <= core::f64::consts::PI {
                tumble::math::rotation(n, bound) * (u / len)
            } else {
                glam::DVec3::splat(f64::NAN)
            };
            out.extend_from_slice(&d.to_array());
        }
        out.push(len);
    }
    Ok(out)
}

/// The contact planes of the scenario `text` that any shape can touch, 6 numbers each (a point
/// on it, its outward unit normal), for the view.
#[wasm_bindgen]
pub fn contact_planes(text: &str) -> Result<Vec<f64>, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let c = &sc.model.contact;
    let mut out = Vec::new();
    if !c.shapes.is_empty() {
        for p in &c.planes {
            out.extend_from_slice(&p.point.to_array());
            out.extend_from_slice(&p.normal.to_array());
        }
    }
    Ok(out)
}

/// One mark per joint of `text` for the view: 1 driven (a drive on it), 2 turned by a motor, 3
/// both, 0 neither. Throws on a bad text.
#[wasm_bindgen]
pub fn joint_marks(text: &str) -> Result<Vec<u8>, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let m = &sc.model;
    Ok((0..m.joints.len())
        .map(|j| {
            let driven = m.drives.iter().any(|d| d.joint == j);
            let motor = m
                .forces
                .iter()
                .any(|f| matches!(f, tumble::ForceElement::Motor { joint, .. } if *joint == j));
            u8::from(driven) + 2 * u8::from(motor)
        })
        .collect())
}

/// One kind per point-to-point element of `text` (in the order of `write_springs`), for the
/// view: bit 0 a spring (stiffness above 0), bit 1 a damper (damping above 0), a rope bits 2 and
/// 4 (a line); then per distance joint bit 2 (a rod) and bit 3 (driven: drawn as a cylinder).
/// Throws on a bad text.
#[wasm_bindgen]
pub fn spring_kinds(text: &str) -> Result<Vec<u8>, JsError> {
    let sc = Scenario::parse(text).map_err(|e| JsError::new(&e.0))?;
    let m = &sc.model;
    let springs = m.forces.iter().filter_map(|f| match *f {
        tumble::ForceElement::Spring {
            stiffness, damping, ..
        } => Some(u8::from(stiffness > 0.0) + 2 * u8::from(damping > 0.0)),
        tumble::ForceElement::Rope { .. } => Some(4 + 16),
        _ => None,
    });
    let rods = (0..m.joints.len())
        .filter(|&j| matches!(m.joints[j].kind, tumble::JointKind::Distance { .. }))
        .map(|j| 4 + 8 * u8::from(m.drives.iter().any(|d| d.joint == j)));
    Ok(springs.chain(rods).collect())
}
