//! A visual shape (`"visual": true`, crates/tumble/src/custom_contact.rs: MuJoCo's geoms that
//! collide with nothing, such as the finger's distal capsule) is only drawn: a model carrying
//! visual shapes deep inside the floor and inside another body's ball runs bit for bit as the
//! same model without them, in every method, and starts where an overlapping collision shape
//! is refused; its normalised text keeps them (meshes too) and reads back to the same model; a
//! visual shape given a filter or a material is refused by name.
use tumble::{Method, Scenario, Settings, Simulation};

/// A ball swinging on a hinge and a ball falling onto the floor beside it; each body carries
/// `extra` (shapes) after its ball.
fn scene(extra: &str) -> String {
    format!(
        r#"{{"gravity": [0, 0, -9.81], "dt": 0.001,
          "bodies": [
            {{"mass": 1, "inertia": [0.004, 0.004, 0.004], "position": [0, 0, 0.5],
              "velocity": [0.5, 0, 0], "angular_velocity": [0, -1, 0], "shapes": [{{"type": "sphere", "radius": 0.1}}{extra}]}},
            {{"mass": 1, "inertia": [0.004, 0.004, 0.004], "position": [0.3, 0, 0.5],
              "velocity": [0, 0, -1], "shapes": [{{"type": "sphere", "radius": 0.1}}{extra}]}}],
          "joints": [{{"type": "revolute", "a": null, "b": 0, "point_a": [0, 0, 1],
                      "point_b": [0, 0, 0.5], "axis_a": [0, 1, 0], "axis_b": [0, 1, 0]}}],
          "contact": {{"ground": true, "material": {{"restitution": 0.5, "friction": 0.4}}}}}}"#
    )
}

// a capsule reaching 0.65 m below its body's centre (0.15 m into the floor at the start, and
// through it as the ball rests there), and a tetrahedron mesh inside the ball
const VISUALS: &str = r#", {"type": "capsule", "radius": 0.05, "half_length": 0.2,
    "offset": [0, 0, -0.45], "visual": true},
    {"type": "mesh", "vertices": [[0, 0, 0], [0.05, 0, 0], [0, 0.05, 0], [0, 0, 0.05]],
     "faces": [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]], "visual": true}"#;

fn states(text: &str, method: Method, steps: usize) -> Vec<tumble::BodyState> {
    let sc = Scenario::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&sc, method, Settings::for_scenario(&sc)).unwrap();
    for _ in 0..steps {
        sim.step().unwrap_or_else(|e| panic!("{method:?}: {e:?}"));
    }
    sim.states().to_vec()
}

#[test]
fn visual_shapes_change_nothing_in_the_run() {
    let with = scene(VISUALS);
    let without = scene("");
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        let a = states(&with, method, 1500);
        let b = states(&without, method, 1500);
        assert_eq!(a, b, "{method:?}: the visual shapes changed the run");
        // the lower ball fell 0.4 m and rests on the floor (its centre a radius up, within the
        // contact's indentation): the run met the floor, where the visual capsule lies 0.3 m deep
        assert!((a[1].x.z - 0.1).abs() < 2e-3, "{method:?}: {}", a[1].x.z);
    }
    let sc = Scenario::parse(&with).unwrap();
    let ct = &sc.model.contact;
    assert_eq!(
        (ct.shapes.len(), ct.visuals.len(), ct.visual_meshes.len()),
        (2, 4, 2)
    );
    assert!(ct.meshes.is_empty());
}

#[test]
fn a_visual_shape_may_start_inside_others_where_a_collision_shape_may_not() {
    // the capsule as a collision shape: 0.2 m into the floor at the start
    let solid = VISUALS.replacen(r#", "visual": true}"#, "}", 1);
    let sc = Scenario::parse(&scene(&solid)).unwrap();
    let e = match Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)) {
        Ok(_) => panic!("a capsule 0.2 m into the floor started"),
        Err(e) => format!("{e:?}"),
    };
    assert!(e.contains("deep in a plane"), "{e}");
    let sc = Scenario::parse(&scene(VISUALS)).unwrap();
    assert!(Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).is_ok());
}

#[test]
fn the_normalised_text_keeps_the_visual_shapes() {
    let sc = Scenario::parse(&scene(VISUALS)).unwrap();
    let text = sc.canonical();
    let again = Scenario::parse(&text).unwrap();
    assert_eq!(again.model, sc.model);
    assert_eq!(text.matches("\"visual\":true").count(), 4, "{text}");
    // a visual shape is written with no filter or material (it has none)
    let v = text.find("\"visual\":true").unwrap();
    let shape = &text[text[..v].rfind('{').unwrap()..v];
    assert!(
        !shape.contains("material") && !shape.contains("group"),
        "{shape}"
    );
}

#[test]
fn a_visual_shape_with_a_filter_or_material_is_refused_by_name() {
    for field in [
        r#""group": 2"#,
        r#""mask": 0"#,
        r#""material": {"friction": 1}"#,
    ] {
        let extra = format!(r#", {{"type": "sphere", "radius": 0.05, "visual": true, {field}}}"#);
        let e = Scenario::parse(&scene(&extra))
            .expect_err(field)
            .to_string();
        assert!(
            e.contains("bodies[0].shapes[1]: a visual shape is only drawn and touches nothing"),
            "{e}"
        );
    }
}
