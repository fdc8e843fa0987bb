//! A mesh shape (`"type": "mesh"`, crates/tumble/src/custom_mesh.rs) is drawn as its triangles
//! and collided as its bounding box in its own frame (against planes, its hull's corners: a
//! tumbling tetrahedron lands on them, the balance exact): a box written as a mesh, with its frame
//! off the box's centre and turned, runs bit for bit as the box primitive placed where the
//! mesh's box lies; its normalised text keeps the triangles and reads back to the same model;
//! bad meshes are refused by name.
use tumble::{Method, Scenario, Settings, Simulation};

// the box's half sizes (m): binary fractions, so that the mesh's box is the same to the bit
const HALF: [f64; 3] = [0.25, 0.125, 0.0625];
// the mesh's own origin, 0.5 m along its x from the box's centre; its frame turned a quarter
// turn about the body's z
const SHIFT: f64 = 0.5;
const TURN: &str = "[[0, -1, 0], [1, 0, 0], [0, 0, 1]]";

/// A free body over the floor (tilted, so that one corner lands first), carrying `shape`.
fn scene(shape: &str) -> String {
    format!(
        r#"{{"gravity": [0, 0, -9.81], "dt": 0.001, "bodies": [{{"mass": 2, "inertia": [0.02, 0.05, 0.06],
            "position": [0, 0, 0.4], "rotation": [[0.96, 0, -0.28], [0, 1, 0], [0.28, 0, 0.96]],
            "velocity": [0.3, 0, 0], "angular_velocity": [0, 0.5, 1], "shapes": [{shape}]}}],
            "contact": {{"ground": true, "material": {{"restitution": 0.5, "friction": 0.4}}}}}}"#
    )
}

/// The box's eight corners in the mesh's frame (centred at x = -SHIFT) and its twelve
/// triangles.
fn mesh_fields() -> String {
    let mut v = Vec::new();
    for i in 0..8 {
        let s = |k: usize| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
        v.push(format!(
            "[{}, {}, {}]",
            s(0) * HALF[0] - SHIFT,
            s(1) * HALF[1],
            s(2) * HALF[2]
        ));
    }
    let faces = "[[0,2,1],[1,2,3],[4,5,6],[5,7,6],[0,1,4],[1,5,4],[2,6,3],[3,6,7],[0,4,2],[2,4,6],[1,3,5],[3,7,5]]";
    format!(r#""vertices": [{}], "faces": {faces}"#, v.join(", "))
}

fn run(text: &str, steps: usize) -> (Simulation, f64) {
    let sc = Scenario::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    for _ in 0..steps {
        sim.step().unwrap_or_else(|e| panic!("{e:?}"));
    }
    let z = sim.body_state(0).x.z;
    (sim, z)
}

#[test]
fn a_mesh_runs_as_its_bounding_box() {
    // the mesh frame's origin at the body's centre, turned: its box's centre is at TURN times
    // (-SHIFT, 0, 0) = (0, -SHIFT, 0) in the body's frame, with the same axes
    let mesh = scene(&format!(
        r#"{{"type": "mesh", {}, "rotation": {TURN}}}"#,
        mesh_fields()
    ));
    let boxed = scene(&format!(
        r#"{{"type": "box", "half": {HALF:?}, "offset": [0, {}, 0], "rotation": {TURN}}}"#,
        -SHIFT
    ));
    let (a, za) = run(&mesh, 1500);
    let (b, zb) = run(&boxed, 1500);
    assert_eq!(a.states(), b.states(), "the mesh and its box part");
    // it landed: from 0.4 m down to rest on the floor at most its half diagonal up
    let reach = (HALF[0] * HALF[0] + HALF[1] * HALF[1] + HALF[2] * HALF[2]).sqrt();
    assert!(za < reach && za == zb, "{za} {zb}");
}

#[test]
fn the_normalised_text_keeps_the_triangles() {
    let text = scene(&format!(
        r#"{{"type": "mesh", {}, "offset": [0.1, 0, 0]}}"#,
        mesh_fields()
    ));
    let sc = Scenario::parse(&text).unwrap();
    let again = Scenario::parse(&sc.canonical()).unwrap();
    assert_eq!(again.model, sc.model);
    let m = &sc.model.contact.meshes[0];
    assert_eq!((m.shape, m.vertices.len(), m.faces.len()), (0, 8, 12));
    assert!(sc.canonical().contains("\"mesh\""));
}

#[test]
fn bad_meshes_are_refused_by_name() {
    let fields = mesh_fields();
    for (shape, want) in [
        (
            r#"{"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}"#.to_string(),
            "bodies[0].shapes[0]: a mesh needs its \"vertices\"",
        ),
        (
            format!(r#"{{"type": "mesh", {fields}, "half": [1, 1, 1]}}"#),
            "bodies[0].shapes[0]: a mesh takes no half",
        ),
        (
            r#"{"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "faces": [[0,1,9]]}"#
                .to_string(),
            "bodies[0].shapes[0].faces[0] = [0, 1, 9]",
        ),
        (
            r#"{"type": "box", "half": [1, 1, 1], "faces": [[0, 1, 2]]}"#.to_string(),
            "bodies[0].shapes[0]: a box takes no faces",
        ),
        (
            r#"{"type": "cone", "radius": 1}"#.to_string(),
            "must be sphere, capsule, box or mesh, not 'cone'",
        ),
    ] {
        let e = Scenario::parse(&scene(&shape)).expect_err(&shape).to_string();
        assert!(e.contains(want), "{e}\nwanted: {want}");
    }
}

#[test]
fn a_tumbling_tetrahedron_lands_on_its_corners_with_the_balance_exact() {
    // a lopsided tetrahedron dropped spinning, corner first: against the floor its hull's
    // corners (contact/hull.rs), bilinear gaps, so the director keeps E - E0 - W + D at the
    // Newton tolerance through every impact; it comes to rest on three corners
    let shape = r#"{"type": "mesh", "vertices": [[0, 0, 0], [0.2, 0, 0], [0.05, 0.15, 0], [0.07, 0.05, 0.12]],
        "faces": [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]], "offset": [-0.08, -0.05, -0.03]}"#;
    let text = scene(shape);
    let sc = Scenario::parse(&text).unwrap();
    let mut sim = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    let mut worst: f64 = 0.0;
    for _ in 0..3000 {
        sim.step().unwrap_or_else(|e| panic!("{e:?}"));
        worst = worst.max(sim.invariants().balance.abs());
    }
    let s = sim.body_state(0);
    let corners = [
        [0.0, 0.0, 0.0],
        [0.2, 0.0, 0.0],
        [0.05, 0.15, 0.0],
        [0.07, 0.05, 0.12],
    ]
    .map(|v| (s.x + s.r * (glam::DVec3::from_array(v) + glam::DVec3::new(-0.08, -0.05, -0.03))).z);
    let mut low = corners;
    low.sort_by(f64::total_cmp);
    println!("balance <= {worst:.2e} J; corners' heights {corners:?} m");
    assert!(worst < 1e-9, "balance {worst} J");
    // three corners on the floor (within its dent), the fourth up
    assert!(
        low[0] > -1e-3 && low[2] < 1e-3 && low[3] > 0.05,
        "{corners:?}"
    );
    // and RATTLE and Baumgarte run it
    for m in [Method::Rattle, Method::Baumgarte] {
        let mut sim = Simulation::new(&sc, m, Settings::for_scenario(&sc)).unwrap();
        for _ in 0..1000 {
            sim.step().unwrap_or_else(|e| panic!("{m:?}: {e:?}"));
        }
    }
}

#[test]
fn a_mesh_started_deep_in_the_floor_is_refused_by_name() {
    // the tetrahedron's apex 2 cm under the floor (a quarter of its box's thinnest half is
    // 1.5 cm): its hull's corner, not its box, sets the depth
    let text = r#"{"gravity": [0, 0, -9.81], "bodies": [{"mass": 1, "inertia": [0.01, 0.01, 0.01],
        "position": [0, 0, 0.1], "shapes": [{"type": "mesh", "vertices": [[0, 0, 0], [0.2, 0, 0],
        [0, 0.2, 0], [0.1, 0.1, -0.12]], "faces": [[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]]}]}],
        "contact": {"ground": true}}"#;
    let sc = Scenario::parse(text).unwrap();
    let e = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc))
        .err()
        .expect("accepted a start 2 cm deep");
    assert!(e.contains("shape 0 (mesh on body 0) starts 0.0199"), "{e}");
}
