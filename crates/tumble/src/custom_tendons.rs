//! The JSON form of fixed tendons (`tendons.rs`) and of the elements on them:
//!
//! ```json
//! "tendons": [ { "name": "coupling", "terms": [ { "joint": 0, "coef": 0.5 },
//!                                               { "joint": 2, "slide": 0, "coef": -1 } ] } ]
//! { "type": "tendon_spring", "tendon": 0, "stiffness": 100, "rest_length": 0, "damping": 1 }
//! { "type": "tendon_motor", "tendon": 0, "force": 2, "time": F }
//! { "type": "tendon_limit", "tendon": 0, "lower": -0.5, "upper": 0.8, "stiffness": 0, "restitution": 0.5 }
//! { "type": "tendon_armature", "tendon": 0, "armature": 0.1 }
//! ```
//! A term without `slide` takes its joint's hinge angle (rad; a revolute, cylindrical or planar
//! joint's, or a universal joint's `"hinge": 0` about axis_a or `1` about axis_b: MuJoCo's two
//! hinges), one with `slide` that slide (m). L = sum coef q is measured from the start, as
//! joint springs' angles are; a tendon motor takes a `control` as a motor does. An armature A is
//! a rotor inertia on L, kinetic energy A (dL/dt)^2 / 2 (MuJoCo's joint armature on a one-term
//! tendon; the director only).
use crate::custom_controls::{controlled, JsonControl};
use crate::custom_time::JsonTime;
use crate::forces::tendons::{Tendon, TendonTerm};
use crate::forces::ForceElement;
use crate::model::LimitKind;
use crate::validate::ScenarioError;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A tendon: its optional name and its terms.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonTendon {
    terms: Vec<JsonTerm>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

/// One term of a tendon: a joint's hinge angle (no `slide`; `hinge` 1 for a universal joint's
/// second) or slide, and its coefficient.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct JsonTerm {
    joint: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hinge: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slide: Option<usize>,
    coef: f64,
}

impl JsonTendon {
    /// The tendon's optional name.
    pub(crate) fn name(&self) -> &Option<String> {
        &self.name
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FTendonSpring {
    tendon: usize,
    #[serde(default)]
    stiffness: f64,
    #[serde(default)]
    rest_length: f64,
    #[serde(default)]
    damping: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
}

/// A rotor inertia on a tendon's length (MuJoCo's armature).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FTendonArmature {
    tendon: usize,
    armature: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FTendonMotor {
    tendon: usize,
    force: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) time: Option<JsonTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) control: Option<JsonControl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FTendonLimit {
    tendon: usize,
    lower: f64,
    upper: f64,
    #[serde(default)]
    stiffness: f64,
    #[serde(default = "half")]
    restitution: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
}

fn half() -> f64 {
    0.5
}

/// A tendon element's JSON form, which `custom_forces.rs` tags.
pub(crate) enum TendonJson {
    Spring(FTendonSpring),
    Motor(FTendonMotor),
    Limit(FTendonLimit),
    Armature(FTendonArmature),
}

/// The tendons of the JSON form (their numbers checked in `forces::validate`); a term with both
/// `hinge` and `slide` is refused.
pub(crate) fn tendons_from(js: &[JsonTendon]) -> Result<Vec<Tendon>, ScenarioError> {
    let mut out = Vec::with_capacity(js.len());
    for (i, t) in js.iter().enumerate() {
        let mut terms = Vec::with_capacity(t.terms.len());
        for (j, x) in t.terms.iter().enumerate() {
            let (kind, index) = match (x.hinge, x.slide) {
                (Some(_), Some(_)) => {
                    return Err(ScenarioError(format!(
                        "tendons[{i}].terms[{j}]: a term takes a hinge's angle (\"hinge\") or a slide (\"slide\"), not both"
                    )))
                }
                (_, Some(k)) => (LimitKind::Slide, k),
                (h, None) => (LimitKind::Angle, h.unwrap_or(0)),
            };
            terms.push(TendonTerm {
                joint: x.joint,
                kind,
                index,
                coef: x.coef,
            });
        }
        out.push(Tendon { terms });
    }
    Ok(out)
}

/// The JSON form of `model`'s tendons, with their names.
pub(crate) fn tendons_json(model: &crate::model::Model) -> Vec<JsonTendon> {
    model
        .tendons
        .iter()
        .enumerate()
        .map(|(i, t)| JsonTendon {
            name: crate::model::Names::of(&model.names.tendons, i).map(String::from),
            terms: t
                .terms
                .iter()
                .map(|x| JsonTerm {
                    joint: x.joint,
                    hinge: (x.kind == LimitKind::Angle && x.index > 0).then_some(x.index),
                    slide: (x.kind == LimitKind::Slide).then_some(x.index),
                    coef: x.coef,
                })
                .collect(),
        })
        .collect()
}

/// A tendon element's JSON form (`custom_forces.rs` tags it), with its name and (a motor's)
/// control.
pub(crate) fn element_json(
    f: &ForceElement,
    name: Option<String>,
    control: Option<JsonControl>,
) -> TendonJson {
    match *f {
        ForceElement::TendonSpring {
            tendon,
            stiffness,
            rest_length,
            damping,
        } => TendonJson::Spring(FTendonSpring {
            name,
            tendon,
            stiffness,
            rest_length,
            damping,
        }),
        ForceElement::TendonMotor {
            tendon,
            force,
            time,
        } => TendonJson::Motor(FTendonMotor {
            name,
            tendon,
            force,
            time: control.map_or_else(|| JsonTime::from_fn(time), |_| None),
            control,
        }),
        ForceElement::TendonLimit {
            tendon,
            lower,
            upper,
            stiffness,
            restitution,
        } => TendonJson::Limit(FTendonLimit {
            name,
            tendon,
            lower,
            upper,
            stiffness,
            restitution,
        }),
        ForceElement::TendonArmature { tendon, armature } => {
            TendonJson::Armature(FTendonArmature {
                name,
                tendon,
                armature,
            })
        }
        _ => unreachable!("only tendon elements are written here"),
    }
}

/// A tendon limit of the JSON form.
pub(crate) fn limit_from(l: &FTendonLimit) -> ForceElement {
    ForceElement::TendonLimit {
        tendon: l.tendon,
        lower: l.lower,
        upper: l.upper,
        stiffness: l.stiffness,
        restitution: l.restitution,
    }
}

/// A tendon spring of the JSON form.
pub(crate) fn spring_from(s: &FTendonSpring) -> ForceElement {
    ForceElement::TendonSpring {
        tendon: s.tendon,
        stiffness: s.stiffness,
        rest_length: s.rest_length,
        damping: s.damping,
    }
}

/// A tendon armature of the JSON form.
pub(crate) fn armature_from(a: &FTendonArmature) -> ForceElement {
    ForceElement::TendonArmature {
        tendon: a.tendon,
        armature: a.armature,
    }
}

/// A tendon motor of the JSON form.
pub(crate) fn motor_from(m: &FTendonMotor) -> ForceElement {
    ForceElement::TendonMotor {
        tendon: m.tendon,
        force: m.force,
        time: controlled(m.time, m.control),
    }
}
