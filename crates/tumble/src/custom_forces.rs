//! The JSON form of the force elements and loads (the `forces` list of a scenario file;
//! `custom.rs` documents the format and reads the rest; the drives are `custom_drives.rs`).
use crate::custom_controls::{controlled, JsonControl};
use crate::custom_tendons::{
    FTendonArmature, FTendonLimit, FTendonMotor, FTendonSpring, TendonJson,
};
use crate::custom_time::{time_fn, JsonTime};
use crate::forces::ForceElement;
use crate::json_path::{tagged, Tagged};
use crate::model::{LimitKind, Model, Names};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use glam::DVec3;
use serde::{Deserialize, Deserializer, Serialize};

/// A force element or load (`forces.rs`), tagged by "type" (read by `json_path::tagged`).
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum JsonForce {
    Spring(FSpring),
    JointSpring(FJointSpring),
    SliderSpring(FSliderSpring),
    JointLimit(FJointLimit),
    SliderLimit(FSliderLimit),
    Force(FForce),
    Torque(FTorque),
    Motor(FMotor),
    SliderMotor(FSliderMotor),
    TendonSpring(FTendonSpring),
    TendonMotor(FTendonMotor),
    TendonLimit(FTendonLimit),
    TendonArmature(FTendonArmature),
    Rope(crate::custom_rope::FRope),
}

/// The values of a force's "type".
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ForceType {
    Spring,
    JointSpring,
    SliderSpring,
    JointLimit,
    SliderLimit,
    Force,
    Torque,
    Motor,
    SliderMotor,
    TendonSpring,
    TendonMotor,
    TendonLimit,
    TendonArmature,
    Rope,
}

impl Tagged for JsonForce {
    const TAG: &'static str = "type";
    type Tag = ForceType;
    fn fields<'de, D: Deserializer<'de>>(tag: ForceType, d: D) -> Result<Self, D::Error> {
        Ok(match tag {
            ForceType::Spring => JsonForce::Spring(FSpring::deserialize(d)?),
            ForceType::JointSpring => JsonForce::JointSpring(FJointSpring::deserialize(d)?),
            ForceType::SliderSpring => JsonForce::SliderSpring(FSliderSpring::deserialize(d)?),
            ForceType::JointLimit => JsonForce::JointLimit(FJointLimit::deserialize(d)?),
            ForceType::SliderLimit => JsonForce::SliderLimit(FSliderLimit::deserialize(d)?),
            ForceType::Force => JsonForce::Force(FForce::deserialize(d)?),
            ForceType::Torque => JsonForce::Torque(FTorque::deserialize(d)?),
            ForceType::Motor => JsonForce::Motor(FMotor::deserialize(d)?),
            ForceType::SliderMotor => JsonForce::SliderMotor(FSliderMotor::deserialize(d)?),
            ForceType::TendonSpring => JsonForce::TendonSpring(FTendonSpring::deserialize(d)?),
            ForceType::TendonMotor => JsonForce::TendonMotor(FTendonMotor::deserialize(d)?),
            ForceType::TendonLimit => JsonForce::TendonLimit(FTendonLimit::deserialize(d)?),
            ForceType::TendonArmature => {
                JsonForce::TendonArmature(FTendonArmature::deserialize(d)?)
            }
            ForceType::Rope => JsonForce::Rope(crate::custom_rope::FRope::deserialize(d)?),
        })
    }
}

impl JsonForce {
    /// A motor's control and time function (`None` for the other elements).
    pub(crate) fn control_and_time(&self) -> Option<(Option<JsonControl>, &Option<JsonTime>)> {
        match self {
            JsonForce::Motor(m) => Some((m.control, &m.time)),
            JsonForce::SliderMotor(m) => Some((m.control, &m.time)),
            JsonForce::TendonMotor(m) => Some((m.control, &m.time)),
            _ => None,
        }
    }

    /// The element's optional name.
    pub(crate) fn name(&self) -> &Option<String> {
        match self {
            JsonForce::Spring(f) => &f.name,
            JsonForce::JointSpring(f) => &f.name,
            JsonForce::SliderSpring(f) => &f.name,
            JsonForce::JointLimit(f) => &f.name,
            JsonForce::SliderLimit(f) => &f.name,
            JsonForce::Force(f) => &f.name,
            JsonForce::Torque(f) => &f.name,
            JsonForce::Motor(f) => &f.name,
            JsonForce::SliderMotor(f) => &f.name,
            JsonForce::TendonSpring(f) => &f.name,
            JsonForce::TendonMotor(f) => &f.name,
            JsonForce::TendonLimit(f) => &f.name,
            JsonForce::TendonArmature(f) => &f.name,
            JsonForce::Rope(f) => &f.name,
        }
    }
}

impl<'de> Deserialize<'de> for JsonForce {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged(d)
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FSpring {
    #[serde(default)]
    a: Option<usize>,
    #[serde(default)]
    point_a: [f64; 3],
    b: usize,
    #[serde(default)]
    point_b: [f64; 3],
    #[serde(default)]
    stiffness: f64,
    #[serde(default)]
    rest_length: f64,
    #[serde(default)]
    damping: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FJointSpring {
    joint: usize,
    #[serde(default)]
    stiffness: f64,
    #[serde(default)]
    rest_angle: f64,
    #[serde(default)]
    damping: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FSliderSpring {
    joint: usize,
    #[serde(default, skip_serializing_if = "is_first")]
    slide: usize,
    #[serde(default)]
    stiffness: f64,
    #[serde(default)]
    rest_slide: f64,
    #[serde(default)]
    damping: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FJointLimit {
    joint: usize,
    lower: f64,
    upper: f64,
    #[serde(default)]
    stiffness: f64,
    #[serde(default = "half")]
    restitution: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FSliderLimit {
    joint: usize,
    #[serde(default, skip_serializing_if = "is_first")]
    slide: usize,
    lower: f64,
    upper: f64,
    #[serde(default)]
    stiffness: f64,
    #[serde(default = "half")]
    restitution: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FForce {
    body: usize,
    #[serde(default)]
    point: [f64; 3],
    force: [f64; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<JsonTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FTorque {
    body: usize,
    torque: [f64; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<JsonTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FMotor {
    joint: usize,
    torque: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<JsonTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    control: Option<JsonControl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FSliderMotor {
    joint: usize,
    #[serde(default, skip_serializing_if = "is_first")]
    slide: usize,
    force: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<JsonTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    control: Option<JsonControl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

fn half() -> f64 {
    0.5
}

/// A slide index of 0 (a prismatic or cylindrical joint's one slide) is left out of the JSON.
fn is_first(k: &usize) -> bool {
    *k == 0
}

/// The JSON form of `model`'s force elements (the `forces` list of a scenario file), for the
/// editor's export of a preset.
pub fn forces_json(model: &Model) -> Result<serde_json::Value, String> {
    let list: Vec<JsonForce> = model
        .forces
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let name = Names::of(&model.names.forces, i).map(String::from);
            let control = model
                .controls
                .iter()
                .find(|c| c.element == i)
                .map(|c| JsonControl {
                    value: f.time_fn().map_or(0.0, |t| t.at(0.0)),
                    range: [c.lower, c.upper],
                });
            element_json(f, name, control)
        })
        .collect();
    serde_json::to_value(list).map_err(|e| format!("forces: {e}"))
}

/// One force element's JSON form, with its name and (a motor's) control.
fn element_json(f: &ForceElement, name: Option<String>, control: Option<JsonControl>) -> JsonForce {
    match *f {
        ForceElement::Spring {
            a,
            point_a,
            b,
            point_b,
            stiffness,
            rest_length,
            damping,
        } => spring_json(
            name,
            (a, point_a, b, point_b),
            (stiffness, rest_length, damping),
        ),
        ForceElement::JointSpring {
            joint,
            stiffness,
            rest_angle,
            damping,
        } => JsonForce::JointSpring(FJointSpring {
            name,
            joint,
            stiffness,
            rest_angle,
            damping,
        }),
        ForceElement::SliderSpring {
            joint,
            slide,
            stiffness,
            rest_slide,
            damping,
        } => JsonForce::SliderSpring(FSliderSpring {
            name,
            joint,
            slide,
            stiffness,
            rest_slide,
            damping,
        }),
        ForceElement::Limit {
            joint,
            kind,
            slide,
            lower,
            upper,
            stiffness,
            restitution,
        } => limit_json(
            name,
            (joint, kind, slide),
            (lower, upper, stiffness, restitution),
        ),
        ForceElement::Force {
            body,
            point,
            force,
            time,
        } => JsonForce::Force(FForce {
            name,
            body,
            point: point.to_array(),
            force: force.to_array(),
            time: JsonTime::from_fn(time),
        }),
        ForceElement::Torque { body, torque, time } => JsonForce::Torque(FTorque {
            name,
            body,
            torque: torque.to_array(),
            time: JsonTime::from_fn(time),
        }),
        ForceElement::Motor { .. } | ForceElement::SliderMotor { .. } => {
            motor_json(f, name, control)
        }
        ForceElement::Rope {
            a,
            point_a,
            b,
            point_b,
            length,
            stiffness,
            restitution,
        } => JsonForce::Rope(crate::custom_rope::rope_json(
            name,
            (a, point_a, b, point_b),
            (length, stiffness, restitution),
        )),
        ForceElement::TendonSpring { .. }
        | ForceElement::TendonMotor { .. }
        | ForceElement::TendonLimit { .. }
        | ForceElement::TendonArmature { .. } => {
            tendon_json(crate::custom_tendons::element_json(f, name, control))
        }
    }
}

/// A tendon element's JSON form as a force element's.
fn tendon_json(t: TendonJson) -> JsonForce {
    match t {
        TendonJson::Spring(x) => JsonForce::TendonSpring(x),
        TendonJson::Motor(x) => JsonForce::TendonMotor(x),
        TendonJson::Limit(x) => JsonForce::TendonLimit(x),
        TendonJson::Armature(x) => JsonForce::TendonArmature(x),
    }
}

/// A motor's or slider motor's JSON form, with its name and control.
fn motor_json(f: &ForceElement, name: Option<String>, control: Option<JsonControl>) -> JsonForce {
    // a controlled motor's time function is its control's value
    let time_json = |time| control.map_or_else(|| JsonTime::from_fn(time), |_| None);
    match *f {
        ForceElement::Motor {
            joint,
            torque,
            time,
        } => JsonForce::Motor(FMotor {
            name,
            joint,
            torque,
            time: time_json(time),
            control,
        }),
        ForceElement::SliderMotor {
            joint,
            slide,
            force,
            time,
        } => JsonForce::SliderMotor(FSliderMotor {
            name,
            joint,
            slide,
            force,
            time: time_json(time),
            control,
        }),
        _ => unreachable!("only motors are written here"),
    }
}

/// A spring-damper's JSON form, with its name: its (a, point_a, b, point_b) and (stiffness,
/// rest_length, damping).
fn spring_json(
    name: Option<String>,
    (a, point_a, b, point_b): (Option<usize>, DVec3, usize, DVec3),
    (stiffness, rest_length, damping): (f64, f64, f64),
) -> JsonForce {
    JsonForce::Spring(FSpring {
        name,
        a,
        point_a: point_a.to_array(),
        b,
        point_b: point_b.to_array(),
        stiffness,
        rest_length,
        damping,
    })
}

/// A limit's JSON form (a joint limit or a slider limit), with its name: the limit's
/// (joint, kind, slide) and (lower, upper, stiffness, restitution).
fn limit_json(
    name: Option<String>,
    (joint, kind, slide): (usize, LimitKind, usize),
    (lower, upper, stiffness, restitution): (f64, f64, f64, f64),
) -> JsonForce {
    match kind {
        LimitKind::Angle => JsonForce::JointLimit(FJointLimit {
            name,
            joint,
            lower,
            upper,
            stiffness,
            restitution,
        }),
        LimitKind::Slide => JsonForce::SliderLimit(FSliderLimit {
            name,
            joint,
            slide,
            lower,
            upper,
            stiffness,
            restitution,
        }),
    }
}

/// The elements of the JSON form (numbers checked in `forces::validate`).
pub(crate) fn forces_from(js: &[JsonForce]) -> Vec<ForceElement> {
    js.iter().map(element_from).collect()
}

/// One element of the JSON form; its name is kept apart, in the model's names.
fn element_from(f: &JsonForce) -> ForceElement {
    match f {
        JsonForce::Spring(s) => ForceElement::Spring {
            a: s.a,
            point_a: DVec3::from_array(s.point_a),
            b: s.b,
            point_b: DVec3::from_array(s.point_b),
            stiffness: s.stiffness,
            rest_length: s.rest_length,
            damping: s.damping,
        },
        JsonForce::JointSpring(s) => ForceElement::JointSpring {
            joint: s.joint,
            stiffness: s.stiffness,
            rest_angle: s.rest_angle,
            damping: s.damping,
        },
        JsonForce::SliderSpring(s) => ForceElement::SliderSpring {
            joint: s.joint,
            slide: s.slide,
            stiffness: s.stiffness,
            rest_slide: s.rest_slide,
            damping: s.damping,
        },
        JsonForce::JointLimit(l) => ForceElement::Limit {
            joint: l.joint,
            kind: LimitKind::Angle,
            slide: 0,
            lower: l.lower,
            upper: l.upper,
            stiffness: l.stiffness,
            restitution: l.restitution,
        },
        JsonForce::SliderLimit(l) => ForceElement::Limit {
            joint: l.joint,
            kind: LimitKind::Slide,
            slide: l.slide,
            lower: l.lower,
            upper: l.upper,
            stiffness: l.stiffness,
            restitution: l.restitution,
        },
        JsonForce::Force(p) => ForceElement::Force {
            body: p.body,
            point: DVec3::from_array(p.point),
            force: DVec3::from_array(p.force),
            time: time_fn(p.time),
        },
        JsonForce::Torque(t) => ForceElement::Torque {
            body: t.body,
            torque: DVec3::from_array(t.torque),
            time: time_fn(t.time),
        },
        JsonForce::Motor(m) => ForceElement::Motor {
            joint: m.joint,
            torque: m.torque,
            time: controlled(m.time, m.control),
        },
        JsonForce::SliderMotor(m) => ForceElement::SliderMotor {
            joint: m.joint,
            slide: m.slide,
            force: m.force,
            time: controlled(m.time, m.control),
        },
        JsonForce::TendonSpring(s) => crate::custom_tendons::spring_from(s),
        JsonForce::TendonMotor(m) => crate::custom_tendons::motor_from(m),
        JsonForce::TendonLimit(l) => crate::custom_tendons::limit_from(l),
        JsonForce::TendonArmature(a) => crate::custom_tendons::armature_from(a),
        JsonForce::Rope(r) => crate::custom_rope::rope_from(r),
    }
}
