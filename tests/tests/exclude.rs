//! Which bodies' shapes never touch (`contact/compile.rs` `joined_pairs`): bodies joined by a
//! joint, where bodies welded together by fixed joints count as one (MuJoCo's weld bodies, its
//! parent-child filter: a thigh below a jointless hip body does not touch the pelvis the hip is
//! welded to, as in DeepMind's humanoid_CMU), and pairs the model lists in `contact.exclude`
//! (MuJoCo's `<exclude>`). Against what each rule says: a start that overlaps is accepted where
//! the rule keeps the pair apart and refused where not; a ball dropped on an excluded ball
//! falls through it to the floor, and rests on it when not excluded.
use tumble::{Method, Scenario, Settings, Simulation};

fn start(text: &str) -> Result<Simulation, String> {
    let sc = Scenario::parse(text).map_err(|e| e.to_string())?;
    Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc))
}

/// A ball of radius 0.1 m at `x` (m), 1 kg.
fn ball(x: [f64; 3]) -> String {
    format!(
        r#"{{"mass":1,"inertia":[0.004,0.004,0.004],"position":{x:?},"shapes":[{{"type":"sphere","radius":0.1}}]}}"#
    )
}

/// Three balls in a row, overlapping 0.05 m each way: 0 and 1 welded by a fixed joint, 2 hung
/// from 1 by a spherical joint; 0 and 2 overlap too (they are 0.15 m apart).
fn welded(joint01: &str) -> String {
    let axes = if joint01 == "revolute" {
        r#","axis_a":[0,0,1],"axis_b":[0,0,1]"#
    } else {
        ""
    };
    format!(
        r#"{{"gravity":[0,0,0],"bodies":[{},{},{}],
            "joints":[{{"type":"{joint01}","a":0,"point_a":[0.05,0,0],"b":1,"point_b":[-0.025,0,0]{axes}}},
                      {{"type":"spherical","a":1,"point_a":[0.05,0,0],"b":2,"point_b":[-0.025,0,0]}}],
            "contact":{{}}}}"#,
        ball([0.0, 0.0, 0.0]),
        ball([0.075, 0.0, 0.0]),
        ball([0.15, 0.0, 0.0])
    )
}

#[test]
fn bodies_welded_together_count_as_one() {
    // 0 and 2 overlap by 0.05 m: 2 is joined to 1, which is welded to 0, so 2 is joined to 0
    start(&welded("fixed")).unwrap_or_else(|e| panic!("refused: {e}"));
    // a hinge between 0 and 1 instead: 0 and 2 are two bodies apart, and their overlap is refused
    let e = start(&welded("revolute"))
        .err()
        .expect("accepted an overlap of unjoined bodies");
    println!("revolute between 0 and 1: {e}");
    assert!(e.contains("bodies 0 and 2"), "{e}");
}

#[test]
fn an_excluded_pair_does_not_touch() {
    // ball 1 dropped from 0.5 m onto ball 0 lying on the floor, 0.2 m below its centre
    let scene = |exclude: &str| {
        format!(
            r#"{{"gravity":[0,0,-9.81],"bodies":[{},{}],"contact":{{"ground":true,"material":{{"restitution":0.2}}{exclude}}}}}"#,
            ball([0.0, 0.0, 0.1]),
            ball([0.0, 0.0, 0.5])
        )
    };
    for (exclude, rest) in [("", 0.3), (r#","exclude":[[1,0]]"#, 0.1)] {
        let mut s = start(&scene(exclude)).unwrap();
        while s.time() < 2.0 {
            s.step().unwrap();
        }
        let z = s.states()[1].x.z;
        println!("exclude '{exclude}': ball 1 ends at z = {z:.5} m (rests at {rest} m)");
        assert!((z - rest).abs() < 2e-3, "{z}");
    }
    // an excluded pair of one body, or of a body that is not there, is refused by name
    for bad in [r#","exclude":[[1,1]]"#, r#","exclude":[[0,2]]"#] {
        let e = start(&scene(bad)).err().expect("accepted");
        println!("{bad}: {e}");
        assert!(e.contains("contact.exclude[0]"), "{e}");
    }
}
