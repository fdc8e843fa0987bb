//! The JSON form of contact: a body's `shapes` and the scenario's `contact` section
//! (`custom.rs` reads the rest; `shapes.rs` says what each field means).
//!
//! ```json
//! "bodies": [{ ..., "shapes": [
//!     { "type": "sphere", "radius": 0.1 },
//!     { "type": "capsule", "radius": 0.05, "half_length": 0.3, "offset": [0, 0, 0],
//!       "rotation": [[1, 0, 0], [0, 1, 0], [0, 0, 1]] },
//!     { "type": "box", "half": [0.2, 0.1, 0.05], "group": 1, "mask": 1,
//!       "material": { "restitution": 0.5 } } ] }],
//! "contact": { "ground": true,
//!              "planes": [{ "point": [0, 0, 0], "normal": [0, 0, 1] }],
//!              "material": { "young": 1e7, "poisson": 0.45, "restitution": 0.8,
//!                            "friction": 0.5, "static_friction": 0.5, "pull": false },
//!              "collide_joined": false, "exclude": [[0, 2]] }
//! ```
//! A capsule's segment lies along its own z axis (`rotation` rows map the shape's axes to the
//! body's, as a body's `rotation` does). `"ground": true` adds the plane through the origin
//! whose normal points against gravity (+z without gravity). A shape's `material` fields
//! override the section's, which override the defaults (`Material::default`); a missing
//! `static_friction` equals `friction`. `group` and `mask` default to 1. `pull: true` lets the
//! normal force's damping pull at the end of an impact (the textbook spring-dashpot).
//! `exclude` lists pairs of bodies (indices) whose shapes never touch each other (MuJoCo's
//! `<exclude>`), whatever their filters. A mesh shape (`vertices`, `faces`): `custom_mesh.rs`.
//! `"visual": true` makes a shape one that is only drawn (MuJoCo's geoms that collide with
//! nothing): it touches nothing, so it takes no `group`, `mask` or `material`, and may lie
//! inside other shapes and planes.
use crate::shapes::{Contact, Material, Mesh, Plane, Shape, ShapeKind};
use crate::text::Num;
use crate::validate::ScenarioError;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};
use serde::{Deserialize, Serialize};

/// Fields of a material, each optional.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonMaterial {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    young: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    poisson: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    restitution: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    friction: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    static_friction: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pull: Option<bool>,
}

/// A shape on a body.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonShape {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    radius: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    half_length: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    half: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vertices: Option<Vec<[f64; 3]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    faces: Option<Vec<[u32; 3]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offset: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rotation: Option<[[f64; 3]; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    group: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mask: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    material: Option<JsonMaterial>,
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    visual: bool,
}

/// A plane of the world.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonPlane {
    point: [f64; 3],
    normal: [f64; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    material: Option<JsonMaterial>,
}

/// The `contact` section.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonContact {
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    ground: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    planes: Vec<JsonPlane>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    material: Option<JsonMaterial>,
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    collide_joined: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    exclude: Vec<[usize; 2]>,
}

fn err<T>(msg: String) -> Result<T, ScenarioError> {
    Err(ScenarioError(msg))
}

fn num(name: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<f64, ScenarioError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(v)
    } else {
        err(format!(
            "{name} must be between {} and {}{unit}, not {}",
            Num(lo),
            Num(hi),
            Num(v)
        ))
    }
}

fn vec3(name: &str, v: [f64; 3]) -> Result<DVec3, ScenarioError> {
    let v = DVec3::from_array(v);
    if v.is_finite() && v.abs().max_element() <= 1e9 {
        Ok(v)
    } else {
        err(format!(
            "{name} must hold finite numbers of magnitude at most 1e9, not {:?}",
            v.to_array()
        ))
    }
}

/// `js` over `base`, validated.
fn material(
    name: &str,
    js: Option<&JsonMaterial>,
    base: Material,
) -> Result<Material, ScenarioError> {
    let Some(js) = js else { return Ok(base) };
    let friction = js.friction.unwrap_or(base.friction);
    let m = Material {
        young: js.young.unwrap_or(base.young),
        poisson: js.poisson.unwrap_or(base.poisson),
        restitution: js.restitution.unwrap_or(base.restitution),
        friction,
        static_friction: js.static_friction.unwrap_or(if js.friction.is_some() {
            friction
        } else {
            base.static_friction
        }),
        pull: js.pull.unwrap_or(base.pull),
    };
    num(&format!("{name}.young"), m.young, 1e3, 1e13, " Pa")?;
    if !(m.poisson.is_finite() && (0.0..0.5).contains(&m.poisson)) {
        return err(format!(
            "{name}.poisson must be at least 0 and below 0.5, not {}",
            Num(m.poisson)
        ));
    }
    num(&format!("{name}.restitution"), m.restitution, 0.01, 1.0, "")?;
    num(&format!("{name}.friction"), m.friction, 0.0, 10.0, "")?;
    num(
        &format!("{name}.static_friction"),
        m.static_friction,
        0.0,
        10.0,
        "",
    )?;
    if m.static_friction < m.friction {
        return err(format!(
            "{name}.static_friction ({}) must be at least friction ({}): a contact that slides at mu_k must not stick at less",
            m.static_friction, m.friction
        ));
    }
    Ok(m)
}

/// The model's contact from the scenario's section and the bodies' shapes (one list per
/// body); `gravity` for the ground's normal. The section's material first, then the ground,
/// the planes and the shapes, each checked in the order of its list.
pub(crate) fn contact_from(
    js: &JsonContact,
    shapes: &[&[JsonShape]],
    gravity: DVec3,
) -> Result<crate::shapes::Contact, ScenarioError> {
    let base = material(
        "contact.material",
        js.material.as_ref(),
        Material::default(),
    )?;
    for (i, &[a, b]) in js.exclude.iter().enumerate() {
        if a == b || a >= shapes.len() || b >= shapes.len() {
            return err(format!(
                "contact.exclude[{i}] = [{a}, {b}]: a pair of two different bodies is needed (indices 0 to {})",
                shapes.len().saturating_sub(1)
            ));
        }
    }
    let mut out = Contact {
        collide_joined: js.collide_joined,
        exclude: js.exclude.clone(),
        ..Contact::default()
    };
    if js.ground {
        let g = crate::math::length(gravity);
        let normal = if g > 0.0 { -gravity / g } else { DVec3::Z };
        out.planes.push(Plane {
            point: DVec3::ZERO,
            normal,
            material: base,
        });
    }
    for (i, p) in js.planes.iter().enumerate() {
        out.planes
            .push(plane_from(&format!("contact.planes[{i}]"), p, base)?);
    }
    for (b, list) in shapes.iter().enumerate() {
        for (k, s) in list.iter().enumerate() {
            let (shape, mesh) = shape_from(&format!("bodies[{b}].shapes[{k}]"), b, s, base)?;
            let (list, meshes) = if s.visual {
                (&mut out.visuals, &mut out.visual_meshes)
            } else {
                (&mut out.shapes, &mut out.meshes)
            };
            if let Some(mesh) = mesh {
                meshes.push(Mesh {
                    shape: list.len(),
                    ..mesh
                });
            }
            list.push(shape);
        }
    }
    Ok(out)
}

/// A plane, `name` its place in the list: a non-zero normal, its point, its material over
/// `base`.
fn plane_from(name: &str, p: &JsonPlane, base: Material) -> Result<Plane, ScenarioError> {
    let n = vec3(&format!("{name}.normal"), p.normal)?;
    if crate::math::length(n) < 1e-9 {
        return err(format!("{name}.normal must be a non-zero vector"));
    }
    // a unit normal is kept as written (to the bit, so that an exported system runs as
    // the original); any other is made one
    let l2 = n.length_squared();
    let normal = if (l2 - 1.0).abs() <= 4.0 * f64::EPSILON {
        n
    } else {
        crate::math::normalize(n)
    };
    Ok(Plane {
        point: vec3(&format!("{name}.point"), p.point)?,
        normal,
        material: material(&format!("{name}.material"), p.material.as_ref(), base)?,
    })
}

/// A shape on body `b`, `name` its place: its kind and sizes, its pose on the body, its
/// material over `base`, its collision group and mask; for a mesh, its box and its triangles
/// (their `shape` index left for the caller).
fn shape_from(
    name: &str,
    b: usize,
    s: &JsonShape,
    base: Material,
) -> Result<(Shape, Option<Mesh>), ScenarioError> {
    let (kind, centre) = shape_kind(name, s)?;
    if s.visual && (s.group.is_some() || s.mask.is_some() || s.material.is_some()) {
        return err(format!("{name}: a visual shape is only drawn and touches nothing, so it takes no group, mask or material"));
    }
    let rotation = match s.rotation {
        Some(r) => {
            let r = DMat3::from_cols_array_2d(&r).transpose();
            if !r.is_finite()
                || crate::math::orthonormality_error(&r) > 1e-9
                || r.determinant() < 0.0
            {
                return err(format!("{name}.rotation must be a proper rotation matrix (R^T R = I to 1e-9, det R = +1)"));
            }
            r
        }
        None => DMat3::IDENTITY,
    };
    let offset = vec3(&format!("{name}.offset"), s.offset.unwrap_or([0.0; 3]))?;
    let mesh = match (centre, &s.vertices, &s.faces) {
        (Some(centre), Some(v), Some(f)) => Some(Mesh {
            shape: 0,
            offset,
            centre,
            vertices: crate::custom_mesh::points(v),
            faces: f.clone(),
        }),
        _ => None,
    };
    let shape = Shape {
        body: b,
        kind,
        // (a mesh's box is centred on its vertices' box)
        offset: offset + rotation * centre.unwrap_or(DVec3::ZERO),
        rotation,
        material: material(&format!("{name}.material"), s.material.as_ref(), base)?,
        group: s.group.unwrap_or(1),
        mask: s.mask.unwrap_or(1),
    };
    Ok((shape, mesh))
}

/// The shape's kind from its `type`, with the sizes that kind needs and none it does not take;
/// for a mesh, its bounding box and that box's centre in the mesh's frame.
fn shape_kind(name: &str, s: &JsonShape) -> Result<(ShapeKind, Option<DVec3>), ScenarioError> {
    let len = |field: &str, v: Option<f64>, lo: f64| -> Result<f64, ScenarioError> {
        match v {
            Some(v) => num(&format!("{name}.{field}"), v, lo, 1e6, " m"),
            None => err(format!("{name}: a {} needs its {field} (m)", s.kind)),
        }
    };
    let refuse = |field: &str, present: bool| -> Result<(), ScenarioError> {
        if present {
            err(format!("{name}: a {} takes no {field}", s.kind))
        } else {
            Ok(())
        }
    };
    if s.kind != "mesh" {
        refuse("vertices", s.vertices.is_some())?;
        refuse("faces", s.faces.is_some())?;
    }
    let kind = match s.kind.as_str() {
        "mesh" => {
            refuse("radius", s.radius.is_some())?;
            refuse("half_length", s.half_length.is_some())?;
            refuse("half", s.half.is_some())?;
            let (Some(v), Some(f)) = (&s.vertices, &s.faces) else {
                return err(format!(
                    "{name}: a mesh needs its \"vertices\": [[x, y, z], ...] (m) and \"faces\": [[i, j, k], ...]"
                ));
            };
            let (kind, centre) = crate::custom_mesh::mesh_box(name, v, f)?;
            return Ok((kind, Some(centre)));
        }
        "sphere" => {
            refuse("half_length", s.half_length.is_some())?;
            refuse("half", s.half.is_some())?;
            ShapeKind::Sphere {
                radius: len("radius", s.radius, 1e-6)?,
            }
        }
        "capsule" => {
            refuse("half", s.half.is_some())?;
            ShapeKind::Capsule {
                radius: len("radius", s.radius, 1e-6)?,
                half_length: len("half_length", s.half_length, 0.0)?,
            }
        }
        "box" => {
            refuse("radius", s.radius.is_some())?;
            refuse("half_length", s.half_length.is_some())?;
            let Some(h) = s.half else {
                return err(format!(
                    "{name}: a box needs its half sizes, \"half\": [x, y, z] (m)"
                ));
            };
            let half = vec3(&format!("{name}.half"), h)?;
            if half.min_element() < 1e-6 || half.max_element() > 1e6 {
                return err(format!(
                    "{name}.half must be between 1e-6 and 1e6 m, not {:?}",
                    h
                ));
            }
            ShapeKind::Box { half }
        }
        other => {
            return err(format!(
                "{name}.type must be sphere, capsule, box or mesh, not '{other}'"
            ))
        }
    };
    Ok((kind, None))
}

fn material_json(m: &Material) -> JsonMaterial {
    JsonMaterial {
        young: Some(m.young),
        poisson: Some(m.poisson),
        restitution: Some(m.restitution),
        friction: Some(m.friction),
        static_friction: Some(m.static_friction),
        pull: m.pull.then_some(true),
    }
}

/// The JSON form of `model`'s contact, for the editor's export of a preset: the `contact`
/// section (planes listed one by one, each material written out) and each body's shapes.
pub fn contact_json(
    model: &crate::model::Model,
) -> Result<(serde_json::Value, Vec<serde_json::Value>), String> {
    let ct = &model.contact;
    let section = JsonContact {
        ground: false,
        planes: ct
            .planes
            .iter()
            .map(|p| JsonPlane {
                point: p.point.to_array(),
                normal: p.normal.to_array(),
                material: Some(material_json(&p.material)),
            })
            .collect(),
        material: None,
        collide_joined: ct.collide_joined,
        exclude: ct.exclude.clone(),
    };
    let mut bodies = Vec::with_capacity(model.bodies.len());
    for b in 0..model.bodies.len() {
        let of = |s: &&Shape| s.body == b;
        let solid = ct.shapes.iter().enumerate().filter(|(_, s)| of(s));
        let solid = solid.map(|(i, s)| shape_json(s, ct.mesh(i), false));
        let drawn = ct.visuals.iter().enumerate().filter(|(_, s)| of(s));
        let drawn = drawn.map(|(i, s)| shape_json(s, ct.visual_mesh(i), true));
        let list: Vec<JsonShape> = solid.chain(drawn).collect();
        bodies.push(serde_json::to_value(list).map_err(|e| format!("shapes: {e}"))?);
    }
    Ok((
        serde_json::to_value(section).map_err(|e| format!("contact: {e}"))?,
        bodies,
    ))
}

/// The JSON form of shape `s` (`mesh` its triangles, where it is a mesh; `visual`: only drawn,
/// written without filter or material).
fn shape_json(s: &Shape, mesh: Option<&Mesh>, visual: bool) -> JsonShape {
    let (radius, half_length, half) = match s.kind {
        ShapeKind::Sphere { radius } => (Some(radius), None, None),
        ShapeKind::Capsule {
            radius,
            half_length,
        } => (Some(radius), Some(half_length), None),
        ShapeKind::Box { half } => (None, None, Some(half.to_array())),
    };
    let offset = mesh.map_or(s.offset, |m| m.offset);
    JsonShape {
        kind: String::from(if mesh.is_some() {
            "mesh"
        } else {
            s.kind.name()
        }),
        radius,
        half_length,
        half: if mesh.is_some() { None } else { half },
        vertices: mesh.map(|m| m.vertices.iter().map(|v| v.to_array()).collect()),
        faces: mesh.map(|m| m.faces.clone()),
        offset: (offset != DVec3::ZERO).then(|| offset.to_array()),
        rotation: (s.rotation != DMat3::IDENTITY)
            .then(|| s.rotation.transpose().to_cols_array_2d()),
        group: (!visual && s.group != 1).then_some(s.group),
        mask: (!visual && s.mask != 1).then_some(s.mask),
        material: (!visual).then(|| material_json(&s.material)),
        visual,
    }
}
