//! The JSON form of a motor's control (MuJoCo's ctrl with its ctrlrange): `"control":
//! {"value": 0, "range": [-1, 1]}` on a motor, slider motor or tendon motor, and the checks of
//! the controls read from it.
use crate::custom_time::{time_fn, JsonTime};
use crate::validate::ScenarioError;
use alloc::format;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A motor's control (MuJoCo's ctrl): the motor's factor, `value` at the start, set between
/// steps within `range`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonControl {
    #[serde(default)]
    pub(crate) value: f64,
    pub(crate) range: [f64; 2],
}

/// A motor's time function: its control's value where it has a control (`controls_from`
/// refuses a motor with both), else its own.
pub(crate) fn controlled(
    time: Option<JsonTime>,
    control: Option<JsonControl>,
) -> crate::timefn::TimeFn {
    match control {
        Some(c) => crate::timefn::TimeFn::Constant { value: c.value },
        None => time_fn(time),
    }
}

/// The controls of the JSON form's motors (per element of the `forces` list, a motor's control
/// and time function, `JsonForce::control_and_time`), checked: a control's range is finite, lower below
/// upper, at most 1e12 in size, and holds its value; a controlled motor has no time function.
pub(crate) fn controls_from<'a>(
    motors: impl Iterator<Item = Option<(Option<JsonControl>, &'a Option<JsonTime>)>>,
) -> Result<Vec<crate::model::Control>, ScenarioError> {
    let mut out = Vec::new();
    for (i, f) in motors.enumerate() {
        let Some((control, time)) = f else {
            continue;
        };
        let Some(c) = control else { continue };
        let [lower, upper] = c.range;
        let name = format!("forces[{i}].control");
        if time.is_some() {
            return Err(ScenarioError(format!(
                "forces[{i}]: a motor with a control takes no time function (the control is its factor, set while it runs)"
            )));
        }
        if !(lower.is_finite()
            && upper.is_finite()
            && lower < upper
            && lower.abs().max(upper.abs()) <= 1e12)
        {
            return Err(ScenarioError(format!(
                "{name}.range must be two finite numbers, the first below the second, at most 1e12 in size, not [{}, {}]",
                crate::text::Num(lower),
                crate::text::Num(upper)
            )));
        }
        if !(c.value.is_finite() && (lower..=upper).contains(&c.value)) {
            return Err(ScenarioError(format!(
                "{name}.value must be within its range [{}, {}], not {}",
                crate::text::Num(lower),
                crate::text::Num(upper),
                crate::text::Num(c.value)
            )));
        }
        out.push(crate::model::Control {
            element: i,
            lower,
            upper,
        });
    }
    Ok(out)
}
