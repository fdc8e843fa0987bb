//! The JSON form of the drives (the `drives` list of a scenario file; `custom.rs` documents the
//! format).
use crate::custom_time::{JsonTime, TConstant};
use crate::model::{Drive, DriveKind, Model, Names};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A drive (`model::Drive`): {"joint": 0, "type": "angle" | "slide", "time": F}.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonDrive {
    joint: usize,
    #[serde(rename = "type")]
    kind: JsonDriveKind,
    time: JsonTime,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum JsonDriveKind {
    Angle,
    Slide,
    Distance,
}

impl JsonDrive {
    /// The drive's optional name.
    pub(crate) fn name(&self) -> &Option<String> {
        &self.name
    }
}

/// The JSON form of `model`'s drives, for the editor's export of a preset.
pub fn drives_json(model: &Model) -> Result<serde_json::Value, String> {
    let list: Vec<JsonDrive> = model
        .drives
        .iter()
        .enumerate()
        .map(|(i, d)| JsonDrive {
            name: Names::of(&model.names.drives, i).map(String::from),
            joint: d.joint,
            kind: match d.kind {
                DriveKind::Angle => JsonDriveKind::Angle,
                DriveKind::Slide => JsonDriveKind::Slide,
                DriveKind::Distance => JsonDriveKind::Distance,
            },
            time: JsonTime::from_fn(d.time).unwrap_or(JsonTime::Constant(TConstant { value: 1.0 })),
        })
        .collect();
    serde_json::to_value(list).map_err(|e| format!("drives: {e}"))
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
