//! The joints' coordinates as MuJoCo's qpos holds them (`crates/tumble/src/coordinates.rs`),
//! against independent constructions: a body turned R = R_x(a) R_z(b) R_y(c) on a gimbal whose
//! hinges are x (in the ground), z (the middle) and y (in the body) reads (a, b, c); turned
//! R_x(a) R_y(b) on a universal joint, (a, b); moved by (dz, dx) and turned R_y(c) on a planar
//! joint with slides z and x, (dz, dx, c); a rotor spinning on a hinge reads the director's
//! discrete angle, n 2 atan(h omega / 2) after n steps, counting its turns. Labels: the joint's
//! name, with the coordinate's own where it has several.
use glam::{DMat3, DVec3};
use tumble::coordinates::Reader;
use tumble::model::BodyState;
use tumble::{Method, Scenario, Settings, Simulation};

/// A body at the origin on joint `joint` (JSON) to the ground, as a scenario.
fn on(joint: &str) -> Scenario {
    Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"bodies":[{{"mass":1,"inertia":[0.2,0.25,0.3]}}],"joints":[{joint}]}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The coordinates of `sc` with its body at `x`, turned `r`.
fn read(sc: &Scenario, x: DVec3, r: DMat3) -> Vec<f64> {
    let reader = Reader::new(&sc.model, &sc.initial);
    let s = [BodyState {
        x,
        r,
        ..sc.initial[0]
    }];
    let mut out = vec![0.0; reader.list().len()];
    reader.read(&s, &mut out);
    out
}

/// The coordinates' labels of `sc`.
fn labels(sc: &Scenario) -> Vec<String> {
    let reader = Reader::new(&sc.model, &sc.initial);
    reader.list().iter().map(|c| c.label.clone()).collect()
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{got:?} against {want:?}");
    }
}

#[test]
fn a_gimbals_and_a_universal_joints_angles_are_mujocos_composed_hinges() {
    let gimbal = on(
        r#"{"type":"gimbal","a":null,"b":0,"axis_a":[1,0,0],"middle":[0,0,1],"axis_b":[0,1,0],"name":"hip"}"#,
    );
    let universal = on(
        r#"{"type":"universal","a":null,"b":0,"axis_a":[1,0,0],"axis_b":[0,1,0],"name":"ankle"}"#,
    );
    let turn = |axis: DVec3, a: f64| DMat3::from_axis_angle(axis, a);
    for (a, b, c) in [
        (0.3, -0.5, 1.1),
        (-2.0, 1.2, -2.9),
        (0.0, 0.0, 0.0),
        (1.0, -1.4, 0.2),
    ] {
        let r = turn(DVec3::X, a) * turn(DVec3::Z, b) * turn(DVec3::Y, c);
        close(&read(&gimbal, DVec3::ZERO, r), &[a, b, c]);
        close(
            &read(
                &universal,
                DVec3::ZERO,
                turn(DVec3::X, a) * turn(DVec3::Y, c),
            ),
            &[a, c],
        );
    }
    assert_eq!(
        labels(&gimbal),
        ["hip: angle 1", "hip: angle 2", "hip: angle 3"]
    );
    assert_eq!(labels(&universal), ["ankle: angle 1", "ankle: angle 2"]);
}

#[test]
fn a_planar_joints_slides_and_angle_are_the_moves_along_its_slides_and_the_turn_about_its_axis() {
    // the walker's root: slides along z and x, the hinge about y
    let planar = on(
        r#"{"type":"planar","a":null,"b":0,"axis_a":[0,1,0],"axis_b":[0,1,0],"slides":[[0,0,1],[1,0,0]],"name":"root"}"#,
    );
    for (dz, dx, c) in [(0.2, -0.1, 0.7), (-1.5, 3.0, -3.0)] {
        let r = DMat3::from_axis_angle(DVec3::Y, c);
        close(&read(&planar, DVec3::new(dx, 0.0, dz), r), &[dz, dx, c]);
    }
    assert_eq!(
        labels(&planar),
        ["root: slide 1", "root: slide 2", "root: angle"]
    );
    // an unnamed revolute joint: its number
    let hinge = on(r#"{"type":"revolute","a":null,"b":0,"axis_a":[0,0,1],"axis_b":[0,0,1]}"#);
    assert_eq!(labels(&hinge), ["joint 0"]);
}

#[test]
fn a_rotors_angle_counts_its_turns_as_the_director_takes_them() {
    // a free rotor about a principal axis on a hinge: Omega stays omega, and each step turns it
    // by the Cayley map's 2 atan(h omega / 2)
    let (omega, h, n) = (10.0, 0.01, 300);
    let sc = Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"bodies":[{{"mass":1,"inertia":[0.2,0.25,0.3],"angular_velocity":[0,0,{omega}]}}],
           "joints":[{{"type":"revolute","a":null,"b":0,"axis_a":[0,0,1],"axis_b":[0,0,1],"name":"spin"}}]}}"#
    ))
    .unwrap();
    let mut settings = Settings::for_scenario(&sc);
    settings.dt = h;
    let mut sim = Simulation::new(&sc, Method::Director, settings).unwrap();
    let reader = Reader::new(&sc.model, &sc.initial);
    let mut theta = [0.0];
    for k in 1..=n {
        sim.step().unwrap();
        reader.read(&sim.states(), &mut theta);
        let exact = k as f64 * 2.0 * (h * omega / 2.0).atan();
        assert!(
            (theta[0] - exact).abs() < 1e-9,
            "step {k}: {} against {exact}",
            theta[0]
        );
    }
    assert!(
        theta[0] > 4.0 * std::f64::consts::TAU,
        "{} rad: several turns",
        theta[0]
    );
}

#[test]
fn a_joints_coordinates_may_carry_their_own_names_checked_and_kept_by_the_json_form() {
    let joint = |names: &str| {
        format!(
            r#"{{"type":"planar","a":null,"b":0,"axis_a":[0,1,0],"axis_b":[0,1,0],"slides":[[0,0,1],[1,0,0]],"name":"pitch","coordinates":{names}}}"#
        )
    };
    let sc = on(&joint(r#"["rootz","rootx","rooty"]"#));
    assert_eq!(labels(&sc), ["rootz", "rootx", "rooty"]);
    // the JSON form writes them back
    let back = Scenario::parse(&sc.canonical()).unwrap();
    assert_eq!(labels(&back), ["rootz", "rootx", "rooty"]);
    let bad = |names: &str| {
        Scenario::parse(&format!(
            r#"{{"gravity":[0,0,0],"bodies":[{{"mass":1,"inertia":[0.2,0.25,0.3]}}],"joints":[{}]}}"#,
            joint(names)
        ))
        .unwrap_err()
        .0
    };
    assert_eq!(bad(r#"["z","x"]"#), "joints[0].coordinates names 2 coordinates, but a planar joint has 3 (slide 1, slide 2, angle)");
    assert_eq!(
        bad(r#"["z","x<y","a"]"#),
        r#"joints[0].coordinates[1] must be 1 to 64 letters, digits, spaces or _-.:/, not "x<y""#
    );
    assert_eq!(
        bad(r#"["z","x","z"]"#),
        r#"joints[0].coordinates[2] is "z", as an earlier coordinate of that joint is"#
    );
    // a long one is cut to 40 characters in the message
    let long = "y".repeat(200);
    let e = bad(&format!(r#"["z","{long}","a"]"#));
    assert!(e.ends_with(&format!("not \"{}...\"", &long[..40])), "{e}");
}
