//! The JSON form of the force elements, loads, time functions and drives (the `forces` and
//! `drives` lists of a scenario file; `custom.rs` documents the format and reads the rest).
use crate::forces::ForceElement;
use crate::model::{Drive, DriveKind, LimitKind, Model};
use crate::timefn::TimeFn;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A drive (`model::Drive`): {"joint": 0, "type": "angle" | "slide", "time": F}.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonDrive {
    joint: usize,
    #[serde(rename = "type")]
    kind: JsonDriveKind,
    time: JsonTime,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum JsonDriveKind {
    Angle,
    Slide,
    Distance,
}

/// The JSON form of `model`'s drives, for the editor's export of a preset.
pub fn drives_json(model: &Model) -> Result<serde_json::Value, String> {
    let list: Vec<JsonDrive> = model
        .drives
        .iter()
        .map(|d| JsonDrive {
            joint: d.joint,
            kind: match d.kind {
                DriveKind::Angle => JsonDriveKind::Angle,
                DriveKind::Slide => JsonDriveKind::Slide,
                DriveKind::Distance => JsonDriveKind::Distance,
            },
            time: JsonTime::from_fn(d.time).unwrap_or(JsonTime::Constant { value: 1.0 }),
        })
        .collect();
    serde_json::to_value(list).map_err(|e| format!("drives: {e}"))
}

/// A force element or load (`forces.rs`), tagged by "type".
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum JsonForce {
    Spring {
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
    },
    JointSpring {
        joint: usize,
        #[serde(default)]
        stiffness: f64,
        #[serde(default)]
        rest_angle: f64,
        #[serde(default)]
        damping: f64,
    },
    SliderSpring {
        joint: usize,
        #[serde(default)]
        stiffness: f64,
        #[serde(default)]
        rest_slide: f64,
        #[serde(default)]
        damping: f64,
    },
    JointLimit {
        joint: usize,
        lower: f64,
        upper: f64,
        #[serde(default)]
        stiffness: f64,
        #[serde(default = "half")]
        restitution: f64,
    },
    SliderLimit {
        joint: usize,
        lower: f64,
        upper: f64,
        #[serde(default)]
        stiffness: f64,
        #[serde(default = "half")]
        restitution: f64,
    },
    Force {
        body: usize,
        #[serde(default)]
        point: [f64; 3],
        force: [f64; 3],
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time: Option<JsonTime>,
    },
    Torque {
        body: usize,
        torque: [f64; 3],
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time: Option<JsonTime>,
    },
    Motor {
        joint: usize,
        torque: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time: Option<JsonTime>,
    },
}

/// A function of time (`timefn.rs`), tagged by "kind".
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum JsonTime {
    Constant {
        #[serde(default = "one")]
        value: f64,
    },
    Linear {
        #[serde(default)]
        start: f64,
        rate: f64,
    },
    Sine {
        #[serde(default)]
        offset: f64,
        #[serde(default = "one")]
        amplitude: f64,
        frequency: f64,
        #[serde(default)]
        phase: f64,
    },
    Ramp {
        #[serde(default = "one")]
        value: f64,
        time: f64,
    },
    RampSpeed {
        rate: f64,
        time: f64,
    },
}

fn half() -> f64 {
    0.5
}

fn one() -> f64 {
    1.0
}

impl JsonTime {
    fn to_fn(self) -> TimeFn {
        match self {
            JsonTime::Constant { value } => TimeFn::Constant { value },
            JsonTime::Linear { start, rate } => TimeFn::Linear { start, rate },
            JsonTime::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            } => TimeFn::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            },
            JsonTime::Ramp { value, time } => TimeFn::Ramp { value, time },
            JsonTime::RampSpeed { rate, time } => TimeFn::RampSpeed { rate, time },
        }
    }
}

fn time_fn(t: Option<JsonTime>) -> TimeFn {
    t.map_or(TimeFn::default(), JsonTime::to_fn)
}

impl JsonTime {
    fn from_fn(f: TimeFn) -> Option<JsonTime> {
        Some(match f {
            TimeFn::Constant { value } if value == 1.0 => return None,
            TimeFn::Constant { value } => JsonTime::Constant { value },
            TimeFn::Linear { start, rate } => JsonTime::Linear { start, rate },
            TimeFn::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            } => JsonTime::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            },
            TimeFn::Ramp { value, time } => JsonTime::Ramp { value, time },
            TimeFn::RampSpeed { rate, time } => JsonTime::RampSpeed { rate, time },
        })
    }
}

/// The JSON form of `model`'s force elements (the `forces` list of a scenario file), for the
/// editor's export of a preset.
pub fn forces_json(model: &Model) -> Result<serde_json::Value, String> {
    let list: Vec<JsonForce> = model
        .forces
        .iter()
        .map(|f| match *f {
            ForceElement::Spring {
                a,
                point_a,
                b,
                point_b,
                stiffness,
                rest_length,
                damping,
            } => JsonForce::Spring {
                a,
                point_a: point_a.to_array(),
                b,
                point_b: point_b.to_array(),
                stiffness,
                rest_length,
                damping,
            },
            ForceElement::JointSpring {
                joint,
                stiffness,
                rest_angle,
                damping,
            } => JsonForce::JointSpring {
                joint,
                stiffness,
                rest_angle,
                damping,
            },
            ForceElement::SliderSpring {
                joint,
                stiffness,
                rest_slide,
                damping,
            } => JsonForce::SliderSpring {
                joint,
                stiffness,
                rest_slide,
                damping,
            },
            ForceElement::Limit {
                joint,
                kind,
                lower,
                upper,
                stiffness,
                restitution,
            } => match kind {
                LimitKind::Angle => JsonForce::JointLimit {
                    joint,
                    lower,
                    upper,
                    stiffness,
                    restitution,
                },
                LimitKind::Slide => JsonForce::SliderLimit {
                    joint,
                    lower,
                    upper,
                    stiffness,
                    restitution,
                },
            },
            ForceElement::Force {
                body,
                point,
                force,
                time,
            } => JsonForce::Force {
                body,
                point: point.to_array(),
                force: force.to_array(),
                time: JsonTime::from_fn(time),
            },
            ForceElement::Torque { body, torque, time } => JsonForce::Torque {
                body,
                torque: torque.to_array(),
                time: JsonTime::from_fn(time),
            },
            ForceElement::Motor {
                joint,
                torque,
                time,
            } => JsonForce::Motor {
                joint,
                torque,
                time: JsonTime::from_fn(time),
            },
        })
        .collect();
    serde_json::to_value(list).map_err(|e| format!("forces: {e}"))
}

/// The elements of the JSON form (numbers checked in `forces::validate`).
pub(crate) fn forces_from(js: &[JsonForce]) -> Vec<ForceElement> {
    js.iter()
        .map(|f| match *f {
            JsonForce::Spring {
                a,
                point_a,
                b,
                point_b,
                stiffness,
                rest_length,
                damping,
            } => ForceElement::Spring {
                a,
                point_a: DVec3::from_array(point_a),
                b,
                point_b: DVec3::from_array(point_b),
                stiffness,
                rest_length,
                damping,
            },
            JsonForce::JointSpring {
                joint,
                stiffness,
                rest_angle,
                damping,
            } => ForceElement::JointSpring {
                joint,
                stiffness,
                rest_angle,
                damping,
            },
            JsonForce::SliderSpring {
                joint,
                stiffness,
                rest_slide,
                damping,
            } => ForceElement::SliderSpring {
                joint,
                stiffness,
                rest_slide,
                damping,
            },
            JsonForce::JointLimit {
                joint,
                lower,
                upper,
                stiffness,
                restitution,
            } => ForceElement::Limit {
                joint,
                kind: LimitKind::Angle,
                lower,
                upper,
                stiffness,
                restitution,
            },
            JsonForce::SliderLimit {
                joint,
                lower,
                upper,
                stiffness,
                restitution,
            } => ForceElement::Limit {
                joint,
                kind: LimitKind::Slide,
                lower,
                upper,
                stiffness,
                restitution,
            },
            JsonForce::Force {
                body,
                point,
                force,
                time,
            } => ForceElement::Force {
                body,
                point: DVec3::from_array(point),
                force: DVec3::from_array(force),
                time: time_fn(time),
            },
            JsonForce::Torque { body, torque, time } => ForceElement::Torque {
                body,
                torque: DVec3::from_array(torque),
                time: time_fn(time),
            },
            JsonForce::Motor {
                joint,
                torque,
                time,
            } => ForceElement::Motor {
                joint,
                torque,
                time: time_fn(time),
            },
        })
        .collect()
}

/// The drives of the JSON form (checked in `validate::check_drives`).
pub(crate) fn drives_from(js: &[JsonDrive]) -> Vec<Drive> {
    js.iter()
        .map(|d| Drive {
            joint: d.joint,
            kind: match d.kind {
                JsonDriveKind::Angle => DriveKind::Angle,
                JsonDriveKind::Slide => DriveKind::Slide,
                JsonDriveKind::Distance => DriveKind::Distance,
            },
            time: d.time.to_fn(),
        })
        .collect()
}
