//! The JSON form of the functions of time (`timefn.rs`) that scale loads and prescribe drives
//! (the `time` of a force element or drive; `custom.rs` documents the format).
use crate::json_path::{tagged, Tagged};
use crate::timefn::TimeFn;
use serde::{Deserialize, Deserializer, Serialize};

/// A function of time (`timefn.rs`), tagged by "kind" (read by `json_path::tagged`).
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum JsonTime {
    Constant(TConstant),
    Linear(TLinear),
    Sine(TSine),
    Ramp(TRamp),
    RampSpeed(TRampSpeed),
}

/// The values of a time function's "kind".
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TimeKind {
    Constant,
    Linear,
    Sine,
    Ramp,
    RampSpeed,
}

impl Tagged for JsonTime {
    const TAG: &'static str = "kind";
    type Tag = TimeKind;
    fn fields<'de, D: Deserializer<'de>>(tag: TimeKind, d: D) -> Result<Self, D::Error> {
        Ok(match tag {
            TimeKind::Constant => JsonTime::Constant(TConstant::deserialize(d)?),
            TimeKind::Linear => JsonTime::Linear(TLinear::deserialize(d)?),
            TimeKind::Sine => JsonTime::Sine(TSine::deserialize(d)?),
            TimeKind::Ramp => JsonTime::Ramp(TRamp::deserialize(d)?),
            TimeKind::RampSpeed => JsonTime::RampSpeed(TRampSpeed::deserialize(d)?),
        })
    }
}

impl<'de> Deserialize<'de> for JsonTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged(d)
    }
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TConstant {
    #[serde(default = "one")]
    pub(crate) value: f64,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TLinear {
    #[serde(default)]
    start: f64,
    rate: f64,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TSine {
    #[serde(default)]
    offset: f64,
    #[serde(default = "one")]
    amplitude: f64,
    frequency: f64,
    #[serde(default)]
    phase: f64,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TRamp {
    #[serde(default = "one")]
    value: f64,
    time: f64,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TRampSpeed {
    rate: f64,
    time: f64,
}

fn one() -> f64 {
    1.0
}

impl JsonTime {
    pub(crate) fn to_fn(self) -> TimeFn {
        match self {
            JsonTime::Constant(TConstant { value }) => TimeFn::Constant { value },
            JsonTime::Linear(TLinear { start, rate }) => TimeFn::Linear { start, rate },
            JsonTime::Sine(TSine {
                offset,
                amplitude,
                frequency,
                phase,
            }) => TimeFn::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            },
            JsonTime::Ramp(TRamp { value, time }) => TimeFn::Ramp { value, time },
            JsonTime::RampSpeed(TRampSpeed { rate, time }) => TimeFn::RampSpeed { rate, time },
        }
    }
}

pub(crate) fn time_fn(t: Option<JsonTime>) -> TimeFn {
    t.map_or(TimeFn::default(), JsonTime::to_fn)
}

impl JsonTime {
    pub(crate) fn from_fn(f: TimeFn) -> Option<JsonTime> {
        Some(match f {
            TimeFn::Constant { value: 1.0 } => return None,
            TimeFn::Constant { value } => JsonTime::Constant(TConstant { value }),
            TimeFn::Linear { start, rate } => JsonTime::Linear(TLinear { start, rate }),
            TimeFn::Sine {
                offset,
                amplitude,
                frequency,
                phase,
            } => JsonTime::Sine(TSine {
                offset,
                amplitude,
                frequency,
                phase,
            }),
            TimeFn::Ramp { value, time } => JsonTime::Ramp(TRamp { value, time }),
            TimeFn::RampSpeed { rate, time } => JsonTime::RampSpeed(TRampSpeed { rate, time }),
        })
    }
}
