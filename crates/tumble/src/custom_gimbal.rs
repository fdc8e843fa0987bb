//! The JSON form of a gimbal joint (`"type": "gimbal"`, MuJoCo's three hinges through one
//! point: `custom.rs` documents it), checked.
use crate::model::JointKind;
use crate::validate::ScenarioError;
use alloc::format;
use glam::{DMat3, DVec3};

/// A gimbal joint's axes (unit): `middle` given, perpendicular (to 1e-6) to axis_a and axis_b
/// as they lie at the start (rotations `ra`, `rb`), and axis_a not along axis_b (the middle
/// angle below 89 degrees: its two outer angles are defined).
pub(crate) fn gimbal_kind(
    name: &str,
    [axis_a, middle, axis_b]: [Option<[f64; 3]>; 3],
    ra: &DMat3,
    rb: &DMat3,
) -> Result<JointKind, ScenarioError> {
    let unit = |key: &str, v: Option<[f64; 3]>| -> Result<DVec3, ScenarioError> {
        let Some(v) = v else {
            return err(format!("{name}.{key} is required for a gimbal joint"));
        };
        if !v.iter().all(|x| x.is_finite() && x.abs() <= 1e9) {
            return err(format!(
                "{name}.{key} must hold finite numbers of magnitude at most 1e9, not {v:?}"
            ));
        }
        let a = DVec3::from_array(v);
        if a.length() < 1e-9 {
            return err(format!("{name}.{key} must be a non-zero vector"));
        }
        Ok(a.normalize())
    };
    let (axis_a, middle, axis_b) = (
        unit("axis_a", axis_a)?,
        unit("middle", middle)?,
        unit("axis_b", axis_b)?,
    );
    let (u1, u2, u3) = (*ra * axis_a, *rb * middle, *rb * axis_b);
    for (key, u) in [("axis_a", u1), ("axis_b", u3)] {
        if u2.dot(u).abs() > 1e-6 {
            return err(format!(
                "{name}.middle must be perpendicular to {key} at the start: their cosine is {}",
                crate::text::Num(u2.dot(u))
            ));
        }
    }
    if u1.dot(u3).abs() > 0.9998 {
        return err(format!(
            "{name}: axis_a and axis_b lie along each other at the start (the middle angle 90 degrees, the gimbal's lock), where its outer angles are not defined"
        ));
    }
    Ok(JointKind::Gimbal {
        axis_a,
        middle,
        axis_b,
    })
}

fn err<T>(msg: alloc::string::String) -> Result<T, ScenarioError> {
    Err(ScenarioError(msg))
}
