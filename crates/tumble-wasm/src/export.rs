//! The editor's JSON export: any scenario (preset or custom) as JSON in the format `custom.rs`
//! parses, laid out for reading (the top level one key a line, each body and joint on one line,
//! keys in the documented order, numbers in their shortest exact form).
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use tumble::{JointKind, Scenario};

/// The JSON of a scenario's model, initial state, dt and duration, in the documented order.
/// A custom scenario is laid out from its normalised JSON (every number keeps its bits, axes
/// are not renormalised); a preset from its model and initial state.
pub fn export(sc: &Scenario) -> Result<String, String> {
    let value = match &sc.json {
        Some(text) => serde_json::from_str(text).map_err(|e| e.to_string())?,
        None => preset_value(sc),
    };
    let text = layout(&value);
    if text.len() > tumble::custom::MAX_JSON {
        return Err(format!(
            "this scenario is {} bytes as JSON; the editor and links take at most {} (a chain of at most about 2500 links)",
            text.len(),
            tumble::custom::MAX_JSON
        ));
    }
    Ok(text)
}

fn v3(v: glam::DVec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn preset_value(sc: &Scenario) -> Value {
    let bodies: Vec<Value> = sc
        .model
        .bodies
        .iter()
        .zip(&sc.initial)
        .map(|(b, s)| {
            // rows of R: R maps body axes to global axes
            let rows = s.r.transpose();
            json!({
                "mass": b.mass, "inertia": v3(b.inertia), "size": v3(b.size),
                "position": v3(s.x),
                "rotation": [v3(rows.x_axis), v3(rows.y_axis), v3(rows.z_axis)],
                "velocity": v3(s.v), "angular_velocity": v3(s.w),
            })
        })
        .collect();
    let joints: Vec<Value> = sc
        .model
        .joints
        .iter()
        .map(|j| {
            let mut m = json!({
                "type": j.kind.name(),
                "a": j.a, "point_a": v3(j.point_a), "b": j.b, "point_b": v3(j.point_b),
            });
            // a fixed joint keeps the start's relative orientation: no axes to give; a distance
            // joint has its length (written, so that the run has the preset's bits)
            if let JointKind::Distance { length } = j.kind {
                m["length"] = json!(length);
            } else if !matches!(j.kind, JointKind::Spherical | JointKind::Fixed { .. }) {
                let (axis_a, axis_b) = j.kind.axes();
                m["axis_a"] = v3(axis_a);
                m["axis_b"] = v3(axis_b);
            }
            if let JointKind::Gimbal { middle, .. } = j.kind {
                m["middle"] = v3(middle);
            }
            if let JointKind::Planar { slides, .. }
            | JointKind::PlanarSlide { slides, .. }
            | JointKind::Translation { slides, .. } = j.kind
            {
                m["slides"] = json!([v3(slides[0]), v3(slides[1])]);
            }
            m
        })
        .collect();
    let mut v = json!({
        "gravity": v3(sc.model.gravity), "dt": sc.dt, "duration": sc.duration,
        "bodies": bodies, "joints": joints,
    });
    // the bodies' and joints' names (the elements' and drives' come with their JSON forms)
    let names = &sc.model.names;
    for (list, of) in [("bodies", &names.bodies), ("joints", &names.joints)] {
        for (i, e) in v[list].as_array_mut().into_iter().flatten().enumerate() {
            if let Some(name) = tumble::model::Names::of(of, i) {
                e["name"] = json!(name);
            }
        }
    }
    // the elements' and drives' own JSON forms (custom.rs); they cannot fail for a valid model
    if !sc.model.forces.is_empty() {
        if let Ok(f) = tumble::custom::forces_json(&sc.model) {
            v["forces"] = f;
        }
    }
    if !sc.model.drives.is_empty() {
        if let Ok(d) = tumble::custom::drives_json(&sc.model) {
            v["drives"] = d;
        }
    }
    if !sc.model.tendons.is_empty() {
        if let Ok(t) = tumble::custom::tendons_json(&sc.model) {
            v["tendons"] = t;
        }
    }
    // contact: the section (planes, each material written out) and each body's shapes
    if !sc.model.contact.is_empty() {
        if let Ok((section, shapes)) = tumble::custom::contact_json(&sc.model) {
            v["contact"] = section;
            for (b, list) in shapes.into_iter().enumerate() {
                if list.as_array().is_some_and(|l| !l.is_empty()) {
                    v["bodies"][b]["shapes"] = list;
                }
            }
        }
    }
    v
}

const ORDER: [&str; 18] = [
    "gravity", "dt", "duration", "bodies", "joints", "type", "mass", "inertia", "size", "a",
    "point_a", "b", "point_b", "axis_a", "axis_b", "length", "position", "rotation",
];

fn rank(key: &str) -> usize {
    match key {
        "name" => 4, // an element's first, before its type
        "velocity" => 17,
        "angular_velocity" => 18,
        "shapes" => 19,
        k => ORDER.iter().position(|o| *o == k).unwrap_or(20),
    }
}

fn sorted(m: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by_key(|(k, _)| rank(k));
    v
}

/// The top level one key a line, each body and joint on one line.
fn layout(v: &Value) -> String {
    let Value::Object(m) = v else {
        return compact(v);
    };
    let mut out = String::from("{\n");
    let items = sorted(m);
    for (i, (k, val)) in items.iter().enumerate() {
        let _ = write!(out, "  {}: ", Value::String((*k).clone()));
        match val {
            Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_object) => {
                out.push_str("[\n");
                for (n, e) in a.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "    {}{}",
                        compact(e),
                        if n + 1 < a.len() { "," } else { "" }
                    );
                }
                out.push_str("  ]");
            }
            other => out.push_str(&compact(other)),
        }
        out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
    }
    out.push('}');
    out.push('\n');
    out
}

fn compact(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let parts: Vec<String> = sorted(m)
                .into_iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), compact(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(compact).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Number(n) => number(n),
        other => other.to_string(),
    }
}

/// A number as serde_json writes it (shortest text that reads back to the same bits), without
/// the ".0" of a whole number (12.0 -> 12, 0.0 -> 0; -0.0 keeps its sign and its ".0": "-0"
/// would be read as the integer 0, that is +0.0).
fn number(n: &serde_json::Number) -> String {
    let s = n.to_string();
    match n.as_f64() {
        Some(f) if n.is_f64() && f == 0.0 && f.is_sign_positive() => "0".to_string(),
        Some(f) if n.is_f64() && f != 0.0 && f.fract() == 0.0 && f.abs() < 1e15 => {
            s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
        }
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_round_trips_every_preset_and_custom_text() {
        for p in tumble::scenario::PRESETS {
            let sc = Scenario::parse(p.name).unwrap();
            let text = export(&sc).unwrap();
            let back = Scenario::parse(&text).unwrap();
            assert_eq!(back.initial, sc.initial, "{}", p.name);
            assert_eq!((back.dt, back.duration), (sc.dt, sc.duration), "{}", p.name);
            assert_eq!(back.model.gravity, sc.model.gravity);
            assert_eq!(back.model.bodies, sc.model.bodies, "{}", p.name);
            assert_eq!(
                back.model.joints, sc.model.joints,
                "{}: axes renormalised?",
                p.name
            );
            assert_eq!(back.model.forces, sc.model.forces, "{}", p.name);
            assert_eq!(back.model.drives, sc.model.drives, "{}", p.name);
            // a custom text exports to a text that parses to the same scenario
            let again = Scenario::parse(&export(&back).unwrap()).unwrap();
            assert_eq!(again, back, "{}", p.name);
        }
        // names given to a preset's model are written and read back (a custom text keeps its own)
        let mut sc = Scenario::parse("slider-crank").unwrap();
        let n = &mut sc.model.names;
        n.bodies = vec!["crank".into(), String::new(), "piston".into()];
        n.joints = vec![String::new(), "crank pin".into()];
        n.drives = vec!["motor: 1/s".into()];
        let text = export(&sc).unwrap();
        assert!(text.contains(r#"{ "name": "crank", "mass": "#), "{text}");
        let back = Scenario::parse(&text).unwrap();
        assert_eq!(back.model.names.bodies, sc.model.names.bodies);
        assert_eq!(back.model.names.joints[1], "crank pin");
        assert_eq!(back.model.names.drives, sc.model.names.drives);
        assert_eq!(export(&back).unwrap(), text);
        // numbers whose shortest text serde_json's default (fast, inexact) parser reads 1 ulp off:
        // exact only with its float_roundtrip feature (Cargo.toml)
        let sc = Scenario::parse("chain?links=5&joint=spherical&push=1").unwrap();
        assert_eq!(
            Scenario::parse(&export(&sc).unwrap()).unwrap().initial,
            sc.initial
        );
    }
}
