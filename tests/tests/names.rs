//! Names: an optional `name` on each body, joint, force element and drive of
//! the JSON form. Checked (1 to 64 letters, digits, spaces and _-.:/, unique within the list;
//! the message names the field), kept through JSON -> Model -> JSON, and written by `tumble
//! run` into each sample's bodies and the run's head, which a reader maps reactions by.
use std::process::Command;
use tumble::Scenario;
use tumble_tests::tumble;

/// A two-link pendulum: the upper link and both joints named, the lower link not; a named
/// joint spring, an unnamed motor and a named drive (a slow turn of the shoulder).
fn named(upper: &str, elbow: &str) -> String {
    format!(
        r#"{{ "duration": 0.05,
  "bodies": [ {{ "name": {upper}, "mass": 1, "inertia": [0.1, 0.1, 0.01], "position": [0, 0, -0.5] }},
              {{ "mass": 1, "inertia": [0.1, 0.1, 0.01], "position": [0, 0, -1.5] }} ],
  "joints": [ {{ "name": "shoulder", "type": "revolute", "b": 0, "point_b": [0, 0, 0.5] }},
              {{ "name": {elbow}, "type": "revolute", "a": 0, "point_a": [0, 0, -0.5], "b": 1, "point_b": [0, 0, 0.5] }} ],
  "forces": [ {{ "type": "joint_spring", "joint": 1, "stiffness": 2, "name": "elbow spring" }},
              {{ "type": "motor", "joint": 1, "torque": 0.5 }} ],
  "drives": [ {{ "joint": 0, "type": "angle", "time": {{ "kind": "ramp", "value": 0.1, "time": 1 }}, "name": "turn" }} ] }}"#
    )
}

fn names_of(sc: &Scenario) -> [Vec<String>; 4] {
    let n = &sc.model.names;
    [
        n.bodies.clone(),
        n.joints.clone(),
        n.forces.clone(),
        n.drives.clone(),
    ]
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn names_are_kept_in_the_model_and_through_its_json() {
    let sc = Scenario::parse(&named(r#""upper arm""#, r#""elbow: 2/b""#)).unwrap();
    // as given, "" for the unnamed, one list per kind in the model's order
    let want = [
        strings(&["upper arm", ""]),
        strings(&["shoulder", "elbow: 2/b"]),
        strings(&["elbow spring", ""]),
        strings(&["turn"]),
    ];
    assert_eq!(names_of(&sc), want);
    // JSON -> Model -> JSON -> Model: the same names (and the same model)
    let text = sc.canonical();
    assert!(text.contains(r#""name":"elbow: 2/b""#), "{text}");
    let back = Scenario::parse(&text).unwrap();
    assert_eq!(names_of(&back), want);
    assert_eq!(back.model, sc.model);
    // the elements' and drives' own JSON forms (the export of a preset) carry their names
    let forces = tumble::custom::forces_json(&sc.model).unwrap();
    assert_eq!(forces[0]["name"], "elbow spring");
    assert!(forces[1].get("name").is_none(), "{forces}");
    assert_eq!(
        tumble::custom::drives_json(&sc.model).unwrap()[0]["name"],
        "turn"
    );
    // a system without names: empty lists, and no name in its JSON
    let plain = Scenario::parse(&named("null", "null").replace(r#""name": "#, r#""name0": "#));
    assert!(plain.is_err(), "name0 is no field");
    let unnamed =
        Scenario::parse(r#"{ "bodies": [ { "mass": 1, "inertia": [1, 1, 1] } ] }"#).unwrap();
    assert!(unnamed.model.names.is_empty() && unnamed.model.names.bodies.is_empty());
    assert!(!unnamed.canonical().contains("name"));
}

#[test]
fn bad_names_are_refused_naming_the_field() {
    let long = "x".repeat(65);
    let cases: [(String, &str); 7] = [
        (named(r#""<b>x</b>""#, r#""elbow""#),
         r#"bodies[0].name must be 1 to 64 characters of letters, digits, spaces and _-.:/, not "<b>x</b>""#),
        (named(r#""""#, r#""elbow""#),
         r#"bodies[0].name must be 1 to 64 characters of letters, digits, spaces and _-.:/, not """#),
        (named(&format!("\"{long}\""), r#""elbow""#),
         "bodies[0].name must be 1 to 64 characters of letters, digits, spaces and _-.:/, not \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\""),
        (named(r#""arm""#, r#""el\nbow""#),
         r#"joints[1].name must be 1 to 64 characters of letters, digits, spaces and _-.:/, not "el\nbow""#),
        (named(r#""arm""#, r#""shoulder""#),
         r#"joints[1].name "shoulder" is also joints[0]'s: names must differ within joints"#),
        (named(r#""arm""#, "3"), "joints[1].name must be a text in quotes, not 3"),
        (named(r#""arm""#, r#""elbow""#).replace(r#""name": "turn""#, r#""name": "turn;""#),
         r#"drives[0].name must be 1 to 64 characters of letters, digits, spaces and _-.:/, not "turn;""#),
    ];
    for (text, msg) in cases {
        let e = Scenario::parse(&text).expect_err(msg);
        assert_eq!(e.0, msg);
    }
    // 64 characters, letters of any script and every allowed sign: accepted
    let ok = format!("\"{}\"", "é".repeat(64));
    assert!(Scenario::parse(&named(&ok, r#""a_b-c.d:e/f g9""#)).is_ok());
    // the same name in different lists is no clash
    assert!(Scenario::parse(&named(r#""shoulder""#, r#""elbow""#)).is_ok());
}

fn run(args: &[&str]) -> serde_json::Value {
    let out = Command::new(tumble()).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn tumble_run_writes_the_names() {
    let dir = std::env::temp_dir().join(format!("tumble-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("named.json");
    std::fs::write(&file, named(r#""upper arm""#, r#""elbow""#)).unwrap();
    let doc = run(&["run", file.to_str().unwrap(), "--every", "0.01"]);
    let names = &doc["names"];
    assert_eq!(names["bodies"], serde_json::json!(["upper arm", null]));
    assert_eq!(names["joints"], serde_json::json!(["shoulder", "elbow"]));
    assert_eq!(names["forces"], serde_json::json!(["elbow spring", null]));
    assert_eq!(names["drives"], serde_json::json!(["turn"]));
    let samples = doc["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 6);
    for s in samples {
        let bodies = s["bodies"].as_array().unwrap();
        assert_eq!(bodies[0]["name"], "upper arm");
        assert!(bodies[1].get("name").is_none());
        // reactions in the joints' order: the shoulder (names.joints[0]) holds both links,
        // the elbow only the lower: their vertical forces read 2 m g and m g at the start
        let k = |name: &str| {
            names["joints"]
                .as_array()
                .unwrap()
                .iter()
                .position(|n| n == name)
                .unwrap()
        };
        if s["t"] == 0.0 {
            let fz = |j: usize| s["reactions"][j][2].as_f64().unwrap();
            assert!((fz(k("shoulder")) - 2.0 * 9.81).abs() < 1e-9, "{s}");
            assert!((fz(k("elbow")) - 9.81).abs() < 1e-9, "{s}");
        }
    }
    // NDJSON: the head (its first record) has the names, each sample the body's
    let out = Command::new(tumble())
        .args(["run", file.to_str().unwrap(), "--format", "ndjson"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let head: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(head["names"]["joints"][1], "elbow");
    let first: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(first["bodies"][0]["name"], "upper arm");
    // an unnamed system: no names anywhere (the golden runs, tests/golden/cli, stay as they were)
    let plain = run(&["run", "nk-revolute", "--duration", "0.02"]);
    assert!(plain.get("names").is_none());
    assert!(plain["samples"][0]["bodies"][0].get("name").is_none());
    std::fs::remove_dir_all(&dir).ok();
}
