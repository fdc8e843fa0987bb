//! The JSON form of a scenario, for custom systems, and the validation every scenario passes.
//!
//! ```json
//! { "gravity": [0, 0, -9.81], "dt": 0.01, "duration": 10,
//!   "bodies": [ { "mass": 12, "inertia": [9.25, 10, 1.25], "size": [1, 0.5, 3],
//!                 "position": [0, 0, -1.5], "rotation": [[1,0,0],[0,1,0],[0,0,1]],
//!                 "velocity": [0, 0, 0], "angular_velocity": [0, 0, 0] } ],
//!   "joints": [ { "type": "revolute", "a": null, "point_a": [0, 0, 0], "b": 0,
//!                 "point_b": [0, 0, 1.5], "axis_a": [1, 0, 0], "axis_b": [1, 0, 0] } ] }
//! ```
//! `rotation` rows map body axes to global axes; `angular_velocity` is in body components;
//! `a: null` (or absent) is the ground, with `point_a` and `axis_a` global. Optional:
//! gravity (default 0, 0, -9.81), dt (0.01), duration (10), size (a box with that inertia),
//! rotation (identity), velocity and angular_velocity (zero), axes, and
//! joint types beyond spherical and revolute: "prismatic" (b slides along axis_a through
//! point_a without turning; axis_b in b stays parallel), "cylindrical" (slides along and turns
//! about axis_a), "universal" (the points coincide, the cross axes axis_a in a and axis_b in b,
//! default x2, stay perpendicular; with `offset` d, m, b's point stays d from a's along
//! axis_a x axis_b: two hinges at offset points, MuJoCo's ankle), "fixed" (a weld: no axes, the start's relative pose is
//! kept), "distance" (a massless rod with ball ends: the points stay `length` m apart, by
//! default their distance at the start; no axes), "planar" (b's point stays in the plane
//! through point_a normal to axis_a, axis_b stays parallel to it: b slides in the plane and
//! turns about its normal; MuJoCo's slide, slide, hinge) and "planar_slide" (the same without
//! turning: two slides); these two take `slides`, two directions in the plane in a's frame
//! (default: a perpendicular pair), along which slider springs, limits and motors act
//! (`"slide": 0` or `1`), and "gimbal" (three hinges through the point, MuJoCo's hip: the
//! points coincide, b turns freely; its angles about axis_a, `middle` (in b's frame at the
//! start) and axis_b are coordinates for tendons). Axes default to x1 and are made unit
//! vectors. And
//! `forces`: a list of force elements and loads, each tagged by "type" (units: m, N, N m, s):
//!
//! ```json
//! { "type": "spring", "a": null, "point_a": [0, 0, 0], "b": 0, "point_b": [0, 0, 0.5],
//!   "stiffness": 100, "rest_length": 1, "damping": 0.5 }
//! { "type": "joint_spring", "joint": 0, "stiffness": 10, "rest_angle": 0, "damping": 0.2 }
//! { "type": "slider_spring", "joint": 1, "stiffness": 50, "rest_slide": 0, "damping": 1 }
//! { "type": "force", "body": 0, "point": [0, 0, 0], "force": [0, 0, 10], "time": F }
//! { "type": "torque", "body": 0, "torque": [0, 0, 1], "time": F }
//! { "type": "motor", "joint": 0, "torque": 0.033, "time": F }
//! { "type": "joint_limit", "joint": 0, "lower": -0.5, "upper": 1.2, "stiffness": 0, "restitution": 0.5 }
//! { "type": "slider_limit", "joint": 1, "lower": -0.1, "upper": 0.3 }
//! ```
//! (a limit's bounds in rad or m from the joint's start, lower <= 0 <= upper; stiffness 0, the
//! default, rings at 10 Hz on body b; restitution 0.5 by default: `forces/limits.rs`)
//! with an optional time function F (default: constant 1), tagged by "kind":
//! `{"kind": "constant", "value": 1}`, `{"kind": "linear", "start": 0, "rate": 1}`,
//! `{"kind": "sine", "offset": 0, "amplitude": 1, "frequency": 2, "phase": 0}` (Hz, rad),
//! `{"kind": "ramp", "value": 1, "time": 0.5}` (a smooth start from 0 to value over time s).
//! Spring and damper coefficients default to 0; a joint spring's angle is measured from the
//! initial configuration. `{"kind": "ramp_speed", "rate": 6.28, "time": 1}` starts at 0 and
//! its rate ramps smoothly to `rate` over `time` s (for drives).
//! `drives`: joint coordinates prescribed as functions of time, measured from the start (so
//! f(0) = 0, and f'(0) must match the initial velocities):
//! `{"joint": 0, "type": "angle", "time": F}` (rad, a revolute or cylindrical joint),
//! `{"joint": 3, "type": "slide", "time": F}` (m along the axis, prismatic or cylindrical),
//! `{"joint": 4, "type": "distance", "time": F}` (m, a distance joint: its length becomes
//! length + f(t), a distance driver).
//! Contact: a body's `shapes` and the scenario's `contact` section (`custom_contact.rs`).
//! Fixed tendons: `tendons`, lengths that are linear combinations of joint coordinates, with
//! `tendon_spring` and `tendon_motor` elements on them (`custom_tendons.rs`).
//! Names: each body, joint, force element and drive may carry a `"name"` (1 to 64 letters,
//! digits, spaces and `_-.:/`, unique within its list; `names.rs`), a label the exports and
//! `tumble run` write back.
pub use crate::custom_contact::contact_json;
use crate::custom_contact::{contact_from, JsonContact, JsonShape};
pub use crate::custom_drives::drives_json;
use crate::custom_drives::{drives_from, JsonDrive};
pub use crate::custom_forces::forces_json;
use crate::custom_forces::{forces_from, JsonForce};

/// The JSON form of `model`'s tendons (the `tendons` list of a scenario file), for the
/// editor's export.
pub fn tendons_json(model: &Model) -> Result<serde_json::Value, String> {
    serde_json::to_value(crate::custom_tendons::tendons_json(model))
        .map_err(|e| format!("tendons: {e}"))
}
use crate::model::box_for_inertia;
use crate::model::{twist_reference, Body, BodyState, Joint, JointKind, Model, Names};
use crate::names;
use crate::validate::{ScenarioError, MAX_LINKS};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};
use serde::{Deserialize, Serialize};

/// Longest JSON scenario accepted as typed (bytes).
pub const MAX_JSON: usize = 1 << 20;

/// Longest normalised JSON accepted (bytes): the form `parse` makes of a text of at most
/// [`MAX_JSON`] bytes, with every default written out, is longer than the text.
pub const MAX_NORMALISED: usize = 16 << 20;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct JsonScenario {
    #[serde(default = "default_gravity")]
    gravity: [f64; 3],
    #[serde(default = "default_dt")]
    dt: f64,
    #[serde(default = "default_duration")]
    duration: f64,
    bodies: Vec<JsonBody>,
    #[serde(default)]
    joints: Vec<JsonJoint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    forces: Vec<JsonForce>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    drives: Vec<JsonDrive>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tendons: Vec<crate::custom_tendons::JsonTendon>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    contact: Option<JsonContact>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct JsonBody {
    mass: f64,
    inertia: [f64; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<[f64; 3]>,
    #[serde(default)]
    position: [f64; 3],
    #[serde(default = "identity")]
    rotation: [[f64; 3]; 3],
    #[serde(default)]
    velocity: [f64; 3],
    #[serde(default)]
    angular_velocity: [f64; 3],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    shapes: Vec<JsonShape>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct JsonJoint {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    a: Option<usize>,
    #[serde(default)]
    point_a: [f64; 3],
    b: usize,
    #[serde(default)]
    point_b: [f64; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    axis_a: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    axis_b: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    length: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slides: Option<[[f64; 3]; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    middle: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offset: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    coordinates: Option<Vec<String>>,
}

fn default_gravity() -> [f64; 3] {
    [0.0, 0.0, -9.81]
}
fn default_dt() -> f64 {
    0.01
}
fn default_duration() -> f64 {
    10.0
}
fn identity() -> [[f64; 3]; 3] {
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
}

fn err<T>(msg: String) -> Result<T, ScenarioError> {
    Err(ScenarioError(msg))
}

fn vec3(name: &str, v: [f64; 3]) -> Result<DVec3, ScenarioError> {
    if v.iter().all(|x| x.is_finite() && x.abs() <= 1e9) {
        Ok(DVec3::from_array(v))
    } else {
        err(format!(
            "{name} must hold finite numbers of magnitude at most 1e9, not {v:?}"
        ))
    }
}

/// A custom system read from its JSON form: what [`parse`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomSystem {
    /// bodies, joints, gravity, forces, drives, contact, names
    pub model: Model,
    /// the initial state of every body
    pub initial: Vec<BodyState>,
    /// the default time step h (s)
    pub dt: f64,
    /// the default duration (s)
    pub duration: f64,
    /// the normalised JSON (defaults filled in); the system has no canonical text of its own
    pub json: String,
}

/// Parse and validate the JSON form: read the text, check the run settings, then the bodies,
/// the joints, the force elements, drives, contact and names, and the system as a whole.
pub fn parse(text: &str) -> Result<CustomSystem, ScenarioError> {
    let js = read(text)?;
    let gravity = check_run(&js)?;
    let (bodies, initial) = bodies_from(&js.bodies)?;
    let joints = joints_from(&js.joints, &initial)?;
    let mut names = names_from(&js)?;
    let given: Vec<_> = js.joints.iter().map(|j| j.coordinates.as_deref()).collect();
    names.coordinates = crate::coordinates::check_names(&joints, &given)?;
    let model = Model {
        bodies,
        joints,
        gravity,
        forces: forces_from(&js.forces),
        drives: drives_from(&js.drives),
        contact: contact_from(
            &js.contact.clone().unwrap_or_default(),
            &js.bodies
                .iter()
                .map(|b| b.shapes.as_slice())
                .collect::<Vec<_>>(),
            gravity,
        )?,
        names,
        controls: crate::custom_controls::controls_from(
            js.forces.iter().map(JsonForce::control_and_time),
        )?,
        tendons: crate::custom_tendons::tendons_from(&js.tendons)?,
    };
    crate::validate::check_consistent(&model, &initial)?;
    let json =
        serde_json::to_string(&js).map_err(|e| ScenarioError(format!("scenario JSON: {e}")))?;
    Ok(CustomSystem {
        model,
        initial,
        dt: js.dt,
        duration: js.duration,
        json,
    })
}

/// The text into the JSON types, at most [`MAX_JSON`] bytes as typed; a failure names the field
/// at fault (`json_path.rs`). The normalised form of an accepted text (defaults filled in: the
/// page runs and links that form) may be longer: a longer text is taken when it is exactly a
/// normalised form, up to [`MAX_NORMALISED`] bytes.
fn read(text: &str) -> Result<JsonScenario, ScenarioError> {
    let refuse = || {
        err(format!(
            "scenario JSON is {} bytes; at most {MAX_JSON} are accepted",
            text.len()
        ))
    };
    // (a normalised form has no line breaks or tabs: JSON strings escape them)
    if text.len() > MAX_NORMALISED || (text.len() > MAX_JSON && text.contains(['\n', '\r', '\t'])) {
        return refuse();
    }
    let js: JsonScenario = serde_json::from_str(text)
        .map_err(|e| ScenarioError(crate::json_path::message::<JsonScenario>(text, &e)))?;
    if text.len() > MAX_JSON && serde_json::to_string(&js).ok().as_deref() != Some(text) {
        return refuse();
    }
    Ok(js)
}

/// Gravity, time step, duration and the number of bodies in their ranges; the gravity vector.
fn check_run(js: &JsonScenario) -> Result<DVec3, ScenarioError> {
    let gravity = vec3("gravity", js.gravity)?;
    range("dt", js.dt, 1e-6, 1.0)?;
    range("duration", js.duration, 0.0, 1e6)?;
    if js.bodies.is_empty() || js.bodies.len() > MAX_LINKS {
        return err(format!(
            "bodies: between 1 and {MAX_LINKS} bodies are accepted, not {}",
            js.bodies.len()
        ));
    }
    Ok(gravity)
}

/// Each body and its initial state, checked in the order of the list.
fn bodies_from(list: &[JsonBody]) -> Result<(Vec<Body>, Vec<BodyState>), ScenarioError> {
    let mut bodies = Vec::with_capacity(list.len());
    let mut states = Vec::with_capacity(list.len());
    for (i, b) in list.iter().enumerate() {
        let (body, state) = body_from(i, b)?;
        bodies.push(body);
        states.push(state);
    }
    Ok((bodies, states))
}

/// `bodies[i]`: mass, inertia, size (by default the box of that inertia), a proper rotation,
/// position and velocities.
fn body_from(i: usize, b: &JsonBody) -> Result<(Body, BodyState), ScenarioError> {
    range(&format!("bodies[{i}].mass"), b.mass, 1e-9, 1e9)?;
    let inertia = vec3(&format!("bodies[{i}].inertia"), b.inertia)?;
    let size = match b.size {
        Some(s) => {
            let s = vec3(&format!("bodies[{i}].size"), s)?;
            if s.min_element() <= 0.0 {
                return err(format!(
                    "bodies[{i}].size must be positive, not {:?}",
                    s.to_array()
                ));
            }
            s
        }
        None => box_for_inertia(b.mass, inertia),
    };
    let r = DMat3::from_cols_array_2d(&b.rotation).transpose();
    if !r.is_finite() || crate::math::orthonormality_error(&r) > 1e-9 || r.determinant() < 0.0 {
        return err(format!(
            "bodies[{i}].rotation must be a proper rotation matrix (R^T R = I to 1e-9, det R = +1)"
        ));
    }
    let body = Body {
        mass: b.mass,
        inertia,
        size,
    };
    crate::validate::check_body(&format!("bodies[{i}]"), &body)?;
    let state = BodyState {
        x: vec3(&format!("bodies[{i}].position"), b.position)?,
        r,
        v: vec3(&format!("bodies[{i}].velocity"), b.velocity)?,
        w: vec3(&format!("bodies[{i}].angular_velocity"), b.angular_velocity)?,
    };
    Ok((body, state))
}

/// Each joint, checked in the order of the list against the bodies' initial states.
fn joints_from(list: &[JsonJoint], states: &[BodyState]) -> Result<Vec<Joint>, ScenarioError> {
    let mut joints = Vec::with_capacity(list.len());
    for (k, j) in list.iter().enumerate() {
        joints.push(joint_from(&format!("joints[{k}]"), j, states)?);
    }
    Ok(joints)
}

/// One joint, `name` its place in the list: bodies that exist and differ, a length only for a
/// distance joint, its kind, its two points.
fn joint_from(name: &str, j: &JsonJoint, states: &[BodyState]) -> Result<Joint, ScenarioError> {
    let n = states.len();
    if let Some((field, b)) = [("a", j.a), ("b", Some(j.b))]
        .into_iter()
        .find_map(|(f, b)| b.filter(|&b| b >= n).map(|b| (f, b)))
    {
        return err(format!(
            "{name}.{field}: {}, so body {b} does not exist",
            crate::text::numbered(n, "body", "bodies")
        ));
    }
    if j.a == Some(j.b) {
        return err(format!("{name} connects body {} to itself", j.b));
    }
    if j.slides.is_some() && !j.kind.starts_with("planar") && j.kind != "translation" {
        return err(format!(
            "{name}: only a planar, planar_slide or translation joint has slides; a {} joint takes none",
            j.kind
        ));
    }
    if j.offset.is_some() && j.kind != "universal" {
        return err(format!(
            "{name}: only a universal joint has an offset; a {} joint takes none",
            j.kind
        ));
    }
    if j.middle.is_some() && j.kind != "gimbal" {
        return err(format!(
            "{name}: only a gimbal joint has a middle axis; a {} joint takes none",
            j.kind
        ));
    }
    if j.length.is_some() && j.kind != "distance" {
        return err(format!(
            "{name}: only a distance joint has a length; a {} joint takes none",
            j.kind
        ));
    }
    Ok(Joint {
        kind: joint_kind(name, j, states)?,
        a: j.a,
        point_a: vec3(&format!("{name}.point_a"), j.point_a)?,
        b: j.b,
        point_b: vec3(&format!("{name}.point_b"), j.point_b)?,
    })
}

/// The joint's kind from its `type`, with its axes made unit vectors (x1 by default; a
/// universal joint's axis_b x2) and the twist references taken at the start.
fn joint_kind(name: &str, j: &JsonJoint, states: &[BodyState]) -> Result<JointKind, ScenarioError> {
    let axis = |key: &str, v: Option<[f64; 3]>| -> Result<DVec3, ScenarioError> {
        let a = vec3(&format!("{name}.{key}"), v.unwrap_or([1.0, 0.0, 0.0]))?;
        if a.length() < 1e-9 {
            return err(format!("{name}.{key} must be a non-zero vector"));
        }
        Ok(a.normalize())
    };
    let rot = |b: Option<usize>| b.map_or(DMat3::IDENTITY, |b| states[b].r);
    Ok(match j.kind.as_str() {
        "spherical" => JointKind::Spherical,
        "revolute" => JointKind::Revolute {
            axis_a: axis("axis_a", j.axis_a)?,
            axis_b: axis("axis_b", j.axis_b)?,
        },
        "prismatic" => {
            let (axis_a, axis_b) = (axis("axis_a", j.axis_a)?, axis("axis_b", j.axis_b)?);
            JointKind::Prismatic {
                axis_a,
                axis_b,
                twist_a: twist_reference(axis_a, axis_b, &rot(j.a), &rot(Some(j.b))),
            }
        }
        "cylindrical" => JointKind::Cylindrical {
            axis_a: axis("axis_a", j.axis_a)?,
            axis_b: axis("axis_b", j.axis_b)?,
        },
        "universal" => JointKind::Universal {
            axis_a: axis("axis_a", j.axis_a)?,
            axis_b: axis("axis_b", j.axis_b.or(Some([0.0, 1.0, 0.0])))?,
            offset: {
                let d = j.offset.unwrap_or(0.0);
                range(&format!("{name}.offset (m)"), d, -1e3, 1e3)?;
                d
            },
        },
        "planar" | "planar_slide" | "translation" => {
            let (axis_a, axis_b) = (axis("axis_a", j.axis_a)?, axis("axis_b", j.axis_b)?);
            let slides = planar_slides(name, axis_a, j.slides)?;
            let twist_a = || twist_reference(axis_a, axis_b, &rot(j.a), &rot(Some(j.b)));
            if j.kind == "translation" {
                JointKind::Translation {
                    axis_a,
                    axis_b,
                    twist_a: twist_a(),
                    slides,
                }
            } else if j.kind == "planar" {
                JointKind::Planar {
                    axis_a,
                    axis_b,
                    slides,
                }
            } else {
                JointKind::PlanarSlide {
                    axis_a,
                    axis_b,
                    twist_a: twist_a(),
                    slides,
                }
            }
        }
        "gimbal" => {
            let (axis_a, middle, axis_b) = (j.axis_a, j.middle, j.axis_b);
            crate::custom_gimbal::gimbal_kind(name, [axis_a, middle, axis_b], &rot(j.a), &rot(Some(j.b)))?
        }
        "fixed" => fixed_kind(name, j, &rot(j.a), &rot(Some(j.b)))?,
        "distance" => distance_kind(name, j, states)?,
        other => {
            return err(format!(
                "{name}.type must be spherical, revolute, prismatic, cylindrical, universal, gimbal, planar, planar_slide, translation, fixed or distance, not '{other}'"
            ))
        }
    })
}

/// A planar joint's two slide directions in a's frame (the unit `normal`'s perpendicular pair
/// by default): made unit, each perpendicular to the normal and to the other (to 1e-6).
fn planar_slides(
    name: &str,
    normal: DVec3,
    slides: Option<[[f64; 3]; 2]>,
) -> Result<[DVec3; 2], ScenarioError> {
    let Some(given) = slides else {
        let (m1, m2) = crate::math::perpendicular_pair(normal);
        return Ok([m1, m2]);
    };
    let mut out = [DVec3::ZERO; 2];
    for (k, v) in given.into_iter().enumerate() {
        let v = vec3(&format!("{name}.slides[{k}]"), v)?;
        if v.length() < 1e-9 {
            return err(format!("{name}.slides[{k}] must be a non-zero vector"));
        }
        out[k] = v.normalize();
        if out[k].dot(normal).abs() > 1e-6 {
            return err(format!(
                "{name}.slides[{k}] must be perpendicular to axis_a (the plane's normal): their cosine is {}",
                crate::text::Num(out[k].dot(normal))
            ));
        }
    }
    // perpendicular, so that a slide measured as a prismatic joint's (b's point projected on
    // its direction) is MuJoCo's coordinate along it (which for oblique slides it is not)
    if out[0].dot(out[1]).abs() > 1e-6 {
        return err(format!(
            "{name}.slides must be perpendicular to each other: their cosine is {}",
            crate::text::Num(out[0].dot(out[1]))
        ));
    }
    Ok(out)
}

/// A weld: no axes; b's x1 axis seen from a at the start (`ra`, `rb` the two rotations, the
/// ground's the identity) and the twist about it are kept.
fn fixed_kind(
    name: &str,
    j: &JsonJoint,
    ra: &DMat3,
    rb: &DMat3,
) -> Result<JointKind, ScenarioError> {
    if j.axis_a.is_some() || j.axis_b.is_some() {
        return err(format!(
            "{name}: a fixed joint keeps the start's relative orientation and takes no axes"
        ));
    }
    let axis_b = DVec3::X;
    let axis_a = crate::math::normalize(ra.transpose() * (*rb * axis_b));
    Ok(JointKind::Fixed {
        axis_a,
        axis_b,
        twist_a: twist_reference(axis_a, axis_b, ra, rb),
    })
}

/// A massless rod: no axes; its length given, or by default the points' distance at the start.
fn distance_kind(
    name: &str,
    j: &JsonJoint,
    states: &[BodyState],
) -> Result<JointKind, ScenarioError> {
    if j.axis_a.is_some() || j.axis_b.is_some() {
        return err(format!(
            "{name}: a distance joint keeps two points a distance apart and takes no axes"
        ));
    }
    let at = |b: Option<usize>, p: [f64; 3]| {
        let p = DVec3::from_array(p);
        b.map_or(p, |b| states[b].x + states[b].r * p)
    };
    let gap = at(Some(j.b), j.point_b) - at(j.a, j.point_a);
    let start = crate::math::length(gap);
    let length = j.length.unwrap_or(start);
    if !(length.is_finite() && (1e-9..=1e9).contains(&length)) {
        return err(match j.length {
            None if start.is_finite() => format!("{name}: a distance joint's two points coincide at the start (0 m apart), so the rod has no direction; give the points a distance"),
            _ => format!("{name}.length must be between 1e-9 and 1e9 m, not {}", crate::text::Num(length)),
        });
    }
    Ok(JointKind::Distance { length })
}

/// The optional names of the bodies, joints, forces, drives and tendons, checked list by list.
fn names_from(js: &JsonScenario) -> Result<Names, ScenarioError> {
    Ok(Names {
        bodies: names::check("bodies", &listed(&js.bodies, |b| &b.name))?,
        joints: names::check("joints", &listed(&js.joints, |j| &j.name))?,
        forces: names::check("forces", &listed(&js.forces, JsonForce::name))?,
        drives: names::check("drives", &listed(&js.drives, |d| d.name()))?,
        tendons: names::check("tendons", &listed(&js.tendons, |t| t.name()))?,
        coordinates: Vec::new(), // (checked against the joints' kinds: `parse`)
    })
}

/// Each element's optional name.
fn listed<'a, T>(
    list: &'a [T],
    name: impl Fn(&'a T) -> &'a Option<String>,
) -> Vec<Option<&'a str>> {
    list.iter().map(|e| name(e).as_deref()).collect()
}

fn range(name: &str, v: f64, lo: f64, hi: f64) -> Result<(), ScenarioError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        err(format!(
            "{name} must be between {} and {}, not {}",
            crate::text::Num(lo),
            crate::text::Num(hi),
            crate::text::Num(v)
        ))
    }
}
