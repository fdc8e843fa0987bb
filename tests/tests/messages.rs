//! A rejected scenario's message names the field at fault and says what it
//! must be, in words: no Rust type names, no serde jargon. Every kind of element is covered
//! (bodies, joints, forces and their time functions, drives, shapes, planes, materials).
use tumble::Scenario;

const HEAD: &str = r#"{"bodies": [{"mass": 2, "inertia": [1, 1, 1], "position": [0, 0, -1]}],
 "joints": [{"type": "revolute", "b": 0, "point_b": [0, 0, 1]}],
"#;

fn rejected(text: &str) -> String {
    let m = Scenario::parse(text).unwrap_err().0;
    for word in [
        "usize", "u32", "f64", "variant", "`", "struct ", "sequence", "Json", "expected",
    ] {
        assert!(!m.contains(word), "'{word}' in the message for {text}: {m}");
    }
    m
}

fn check(cases: &[(&str, &str)], whole: impl Fn(&str) -> String) {
    for (text, start) in cases {
        let m = rejected(&whole(text));
        assert!(
            m.starts_with(start),
            "{text}:\n  {m}\n  should start with: {start}"
        );
    }
}

#[test]
fn a_wrong_field_in_any_element_is_named_with_what_it_must_be() {
    let in_head = |t: &str| format!("{HEAD}{t}}}");
    check(
        &[
            (r#""forces": [{"type": "motor", "joint": -1, "torque": 1}]"#,
             "forces[0].joint must be a joint number, 0 or more, not -1"),
            (r#""forces": [{"type": "motor", "joint": 0, "torque": 1, "time": {"kind": "boom"}}]"#,
             "forces[0].time.kind must be one of constant, linear, sine, ramp or ramp_speed, not 'boom'"),
            // the tag after the fields: the same messages
            (r#""forces": [{"joint": 0, "torque": 1, "type": "motor", "time": {"rate": 1, "kind": "boom"}}]"#,
             "forces[0].time.kind must be one of constant,"),
            (r#""forces": [{"torque": 1, "joint": -1, "type": "motor"}]"#,
             "forces[0].joint must be a joint number, 0 or more, not -1"),
            (r#""forces": [{"type": "motor", "joint": 0}]"#, "forces[0] needs its field torque"),
            (r#""forces": [{"joint": 0}]"#, "forces[0] needs its field type"),
            (r#""forces": [{"type": "motr", "joint": 0}]"#,
             "forces[0].type must be one of spring, joint_spring,"),
            (r#""forces": [{"type": "joint_spring", "joint": 0, "stifness": 3}]"#,
             "forces[0].stifness is not a field here; the fields are joint, stiffness, rest_angle, damping and name"),
            (r#""forces": [{"type": "torque", "body": 0, "torque": [1, 2]}]"#,
             "forces[0].torque must be a list of 3 values, not a list of 2 values"),
            (r#""forces": [{"type": "spring", "a": -2, "b": 0}]"#,
             "forces[0].a must be a body number, 0 or more, not -2"),
            (r#""forces": [{"type": "force", "body": 1.5, "force": [0, 0, 1]}]"#,
             "forces[0].body must be a body number, 0 or more, not 1.5"),
            (r#""forces": [{"type": "spring", "b": 0, "stiffness": "x"}]"#,
             "forces[0].stiffness must be a number, not the text \"x\""),
            (r#""forces": [3]"#, "forces[0] must be an object, not 3"),
            (r#""forces": [{"type": "motor", "joint": 0, "torque": 1, "time": {"kind": "linear", "rate": null}}]"#,
             "forces[0].time.rate must be a number, not null"),
            (r#""forces": [{"type": "motor", "joint": 0, "torque": 1, "time": {"kind": "sine", "frequency": 1, "phse": 0}}]"#,
             "forces[0].time.phse is not a field here; the fields are offset, amplitude, frequency and phase"),
            (r#""drives": [{"joint": -1, "type": "angle", "time": {"kind": "linear", "rate": 1}}]"#,
             "drives[0].joint must be a joint number, 0 or more, not -1"),
            (r#""drives": [{"joint": 0, "type": "angl", "time": {"kind": "linear", "rate": 1}}]"#,
             "drives[0].type must be one of angle, slide or distance, not 'angl'"),
            (r#""drives": [{"joint": 0, "type": 3, "time": {"kind": "linear", "rate": 1}}]"#,
             "drives[0].type must be one of angle, slide or distance, not 3"),
            (r#""drives": [{"joint": 0, "type": "angle", "time": {"kind": "wave"}}]"#,
             "drives[0].time.kind must be one of constant,"),
            (r#""contact": {"planes": [{"point": [0, 0, 0], "normal": [0, 0, "up"]}]}"#,
             "contact.planes[0].normal[2] must be a number, not the text \"up\""),
            (r#""contact": {"ground": 1}"#, "contact.ground must be true or false, not 1"),
            (r#""contact": {"material": {"friction": [0.5]}}"#,
             "contact.material.friction must be a number, not a list"),
            (r#""dt": "0.01""#, "dt must be a number, not the text \"0.01\""),
        ],
        in_head,
    );
    check(
        &[
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1], "shapes": [{"type": "sphere", "radius": 0.1, "group": -1}]}]}"#,
                "bodies[0].shapes[0].group must be a whole number from 0 to 4294967295, not -1",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1], "shapes": [{"type": "box", "half": [1, 1, 1], "material": {"young": true}}]}]}"#,
                "bodies[0].shapes[0].material.young must be a number, not true",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1, 4]}]}"#,
                "bodies[0].inertia must be a list of 3 values, not a list of 4 values",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1], "colour": 3}]}"#,
                "bodies[0].colour is not a field here; the fields are mass, inertia,",
            ),
            (
                r#"{"bodies": [{"inertia": [1, 1, 1]}]}"#,
                "bodies[0] needs its field mass",
            ),
            (r#"{"bodies": {}}"#, "bodies must be a list, not an object"),
            (r#"{}"#, "the scenario needs its field bodies"),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": "spherical", "a": -1, "b": 0}]}"#,
                "joints[0].a must be a body number, 0 or more, not -1",
            ),
            (
                r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": 7, "b": 0}]}"#,
                "joints[0].type must be a text in quotes, not 7",
            ),
        ],
        |t| t.to_string(),
    );
}

/// Range messages write their numbers as a person does (`tumble::text::Num`): 0.01 and 1, 0
/// and 10, 1000; exponent form only below 1e-4 and from 1e6 (1e-6, 1e13).
#[test]
fn range_messages_write_numbers_as_a_person_does() {
    let contact =
        |c: &str| format!(r#"{{"bodies": [{{"mass": 1, "inertia": [1, 1, 1]}}], "contact": {c}}}"#);
    let shape = |s: &str| {
        format!(r#"{{"bodies": [{{"mass": 1, "inertia": [1, 1, 1], "shapes": [{s}]}}]}}"#)
    };
    for (text, whole) in [
        (
            contact(r#"{"material": {"restitution": 2}}"#),
            "contact.material.restitution must be between 0.01 and 1, not 2",
        ),
        (
            contact(r#"{"material": {"friction": -1}}"#),
            "contact.material.friction must be between 0 and 10, not -1",
        ),
        (
            contact(r#"{"material": {"young": 10}}"#),
            "contact.material.young must be between 1000 and 1e13 Pa, not 10",
        ),
        (
            shape(r#"{"type": "sphere", "radius": 1e-9}"#),
            "bodies[0].shapes[0].radius must be between 1e-6 and 1e6 m, not 1e-9",
        ),
        (
            format!("{HEAD}\"dt\": 2}}"),
            "dt must be between 1e-6 and 1, not 2",
        ),
        (
            "governor?stiffness=2e8".to_string(),
            "'stiffness' for scenario 'governor' must be between 0 and 1e8, not 2e8",
        ),
        (
            "spring-pendulum?stiffness=0.5".to_string(),
            "'stiffness' for scenario 'spring-pendulum' must be between 1 and 10000, not 0.5",
        ),
    ] {
        assert_eq!(rejected(&text), whole, "{text}");
    }
}

/// JSON has no NaN or Infinity: a text that writes them is told so, with the line and column.
#[test]
fn nan_and_infinity_are_named_as_numbers_json_does_not_allow() {
    for (tail, word, column) in [
        (r#""dt": NaN"#, "NaN", 7),
        (r#""dt": -Infinity"#, "-Infinity", 8),
        (r#""gravity": [0, 0, inf]"#, "inf", 19),
    ] {
        let m = rejected(&format!("{HEAD}{tail}}}"));
        assert!(
            m.contains(&format!("{word} is not a number JSON allows"))
                && m.ends_with(&format!("at line 3 column {column}")),
            "{tail}: {m}"
        );
    }
    let m = rejected(&format!("{HEAD}\"dt\": 0.01, \"dt\": 0.02}}"));
    assert!(m.contains("dt is given twice at line 3"), "{m}");
}

/// Reading elements through their tag keeps the normalised form: the tag first, then the
/// fields in their order.
#[test]
fn tagged_elements_are_written_back_tag_first() {
    let text = format!(
        "{HEAD}\"forces\": [{{\"torque\": 1, \"joint\": 0, \"time\": {{\"rate\": 2, \"kind\": \"linear\"}}, \"type\": \"motor\"}}]}}"
    );
    let c = Scenario::parse(&text).unwrap().canonical();
    assert!(
        c.contains(r#""forces":[{"type":"motor","joint":0,"torque":1.0,"time":{"kind":"linear","start":0.0,"rate":2.0}}]"#),
        "{c}"
    );
}

/// A count of one is singular and a range of one is a single number: "there is 1 joint,
/// numbered 0", never "there are 1 joints" or "numbered 0 to 0".
#[test]
fn counted_messages_agree_with_their_count() {
    for (tail, start) in [
        (
            r#""forces": [{"type": "motor", "joint": 3, "torque": 1}]"#,
            "forces[0].joint: there is 1 joint, numbered 0, so joints[3] does not exist",
        ),
        (
            r#""forces": [{"type": "joint_limit", "joint": 2, "lower": -1, "upper": 1}]"#,
            "forces[0].joint: there is 1 joint, numbered 0, so joints[2] does not exist",
        ),
        (
            r#""forces": [{"type": "slider_spring", "joint": 2}]"#,
            "forces[0].joint: there is 1 joint, numbered 0, so joints[2] does not exist",
        ),
        (
            r#""forces": [{"type": "torque", "body": 4, "torque": [0, 0, 1]}]"#,
            "forces[0].body: there is 1 body, numbered 0, so body 4 does not exist",
        ),
        (
            r#""drives": [{"joint": 1, "type": "angle", "time": {"kind": "linear", "rate": 0}}]"#,
            "drives[0].joint: there is 1 joint, numbered 0, so joints[1] does not exist",
        ),
    ] {
        let m = rejected(&format!("{HEAD}{tail}}}"));
        assert!(m.starts_with(start), "{tail}:\n  {m}");
    }
    let m = rejected(
        r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "joints": [{"type": "spherical", "a": 2, "b": 0}]}"#,
    );
    assert!(
        m.starts_with("joints[0].a: there is 1 body, numbered 0, so body 2 does not exist"),
        "{m}"
    );
    let m = rejected(
        r#"{"bodies": [{"mass": 1, "inertia": [1, 1, 1]}], "drives": [{"joint": 0, "type": "angle", "time": {"kind": "linear", "rate": 0}}]}"#,
    );
    assert!(m.starts_with("drives[0].joint: there are no joints"), "{m}");
}

/// A 1e12 N m motor on a pendulum was blamed on "the joints are redundant or
/// degenerate in this configuration"; the joints are sound at the step's start, and the step
/// is too large for the motion the motor drives.
#[test]
fn a_runaway_step_is_not_blamed_on_the_joints() {
    use tumble::{Method, Settings, Simulation, StepError};
    let json =
        format!("{HEAD}\"forces\": [{{\"type\": \"motor\", \"joint\": 0, \"torque\": 1e12}}]}}");
    let sc = Scenario::parse(&json).unwrap();
    let mut s = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    let e = s.step().unwrap_err();
    assert_eq!(e, StepError::TooLarge);
    let m = e.to_string();
    assert!(
        m.contains("too large for the motion")
            && m.contains("smaller time step")
            && !m.contains("redundant"),
        "{m}"
    );
    assert_eq!(s.steps(), 0, "the state stays at the step's start");
}

/// A text nested deeper than the JSON reader follows (128 levels) is still told what is wrong
/// in words.
#[test]
fn a_text_too_deep_is_told_in_words() {
    let m = rejected(&format!("{{\"bodies\": {}", "[".repeat(1000)));
    assert!(
        m.ends_with("must be a number, not a list at line 1 column 13"),
        "{m}"
    );
}
