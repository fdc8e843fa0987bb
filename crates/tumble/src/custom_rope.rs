//! The JSON form of a rope (`forces/rope.rs`): the distance between two points held at most
//! `length` (m) by a one-sided stop, MuJoCo's limited spatial tendon between two sites.
//!
//! ```json
//! { "type": "rope", "a": 0, "point_a": [0, 0, -0.1], "b": 1, "point_b": [0, 0, 0],
//!   "length": 0.3, "stiffness": 0, "restitution": 0.5 }
//! ```
//! `a` left out: the ground, `point_a` then global; `stiffness` 0 (the default): the stop rings
//! at 10 Hz on the two bodies' reduced mass; `restitution` 0.5 by default, as the limits'.
use crate::forces::ForceElement;
use alloc::string::String;
use glam::DVec3;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FRope {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    a: Option<usize>,
    #[serde(default)]
    point_a: [f64; 3],
    b: usize,
    #[serde(default)]
    point_b: [f64; 3],
    length: f64,
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

/// A rope's JSON form, with its name: its (a, point_a, b, point_b) and (length, stiffness,
/// restitution).
pub(crate) fn rope_json(
    name: Option<String>,
    (a, point_a, b, point_b): (Option<usize>, DVec3, usize, DVec3),
    (length, stiffness, restitution): (f64, f64, f64),
) -> FRope {
    FRope {
        a,
        point_a: point_a.to_array(),
        b,
        point_b: point_b.to_array(),
        length,
        stiffness,
        restitution,
        name,
    }
}

/// The rope of a JSON form (numbers checked in `forces::validate`).
pub(crate) fn rope_from(r: &FRope) -> ForceElement {
    ForceElement::Rope {
        a: r.a,
        point_a: DVec3::from_array(r.point_a),
        b: r.b,
        point_b: DVec3::from_array(r.point_b),
        length: r.length,
        stiffness: r.stiffness,
        restitution: r.restitution,
    }
}
