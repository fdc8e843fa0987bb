//! Controls (MuJoCo's ctrl): a motor's factor set between steps (`Simulation::set_control`),
//! against an independent reference:
//! - a rotor on a hinge about a principal axis through its centre, without gravity, driven by a
//!   step (0 to 1 at 0.2 s) and then a ramp (1 to -0.5 over 0.5 s, set step by step): its
//!   angular velocity after N steps is the sum of h gear u_k / J (exact: the torque is constant
//!   within each step), and W is the kinetic energy J w^2 / 2 at every step, the integral of the
//!   actuator's power gear u w (which for a torque held through a step is gear u_k Delta theta);
//! - a slider motor's control moves a body along a planar joint's slide as F t^2 / 2m;
//! - bad input: an unknown control, a value beyond the range or not a number, a control with a
//!   time function, a start value outside the range: each a message naming it; the JSON form
//!   writes the control back.
use tumble::{Method, Scenario, Settings, Simulation};

const J: f64 = 0.4;
const GEAR: f64 = 3.0;

fn rotor() -> Scenario {
    Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"dt":0.001,"bodies":[{{"mass":2,"inertia":[{J},0.3,0.3]}}],
           "joints":[{{"type":"revolute","a":null,"b":0,"axis_a":[1,0,0],"axis_b":[1,0,0]}}],
           "forces":[{{"type":"motor","joint":0,"torque":{GEAR},"name":"spin",
             "control":{{"value":0,"range":[-1,1]}}}}]}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The control at step k (h = 1e-3): 0 until 0.2 s, then 1, then from 0.4 s a ramp to -0.5 at
/// 0.9 s, held after.
fn schedule(k: usize) -> f64 {
    let t = k as f64 * 1e-3;
    if t < 0.2 - 1e-12 {
        0.0
    } else if t < 0.4 - 1e-12 {
        1.0
    } else {
        1.0 - 1.5 * ((t - 0.4) / 0.5).min(1.0)
    }
}

#[test]
fn a_controlled_motor_turns_the_rotor_as_the_sum_of_its_impulses_and_w_is_its_work() {
    let sc = rotor();
    for method in Method::ALL {
        let mut settings = Settings::for_scenario(&sc);
        settings.dt = 1e-3;
        let mut sim = Simulation::new(&sc, method, settings).unwrap();
        let mut omega = 0.0;
        let mut worst: f64 = 0.0;
        for k in 0..1200 {
            sim.set_control(0, schedule(k)).unwrap();
            sim.step().unwrap();
            omega += 1e-3 * GEAR * schedule(k) / J;
            let s = sim.states()[0];
            let w = (s.r * s.w).x;
            let inv = sim.invariants();
            worst = worst
                .max((w - omega).abs())
                .max((inv.work - 0.5 * J * w * w).abs());
        }
        println!("{}: worst |w - sum| or |W - T| {worst:.2e}", method.name());
        assert!(worst < 1e-9, "{}: {worst:e}", method.name());
        assert_eq!(sim.control(0), Some(-0.5));
    }
}

#[test]
fn a_controlled_slider_motor_pushes_along_its_slide() {
    let sc = Scenario::parse(
        r#"{"gravity":[0,0,0],"dt":0.01,"bodies":[{"mass":2,"inertia":[0.3,0.4,0.5]}],
           "joints":[{"type":"planar","a":null,"b":0,"axis_a":[0,1,0],"axis_b":[0,1,0],
             "slides":[[1,0,0],[0,0,1]]}],
           "forces":[{"type":"slider_motor","joint":0,"slide":1,"force":4,
             "control":{"range":[0,2]}}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    for _ in 0..50 {
        sim.step().unwrap();
    }
    assert_eq!(sim.states()[0].x.z, 0.0, "at control 0 nothing pushes");
    sim.set_control(0, 1.5).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let z = sim.states()[0].x.z;
    let exact = 4.0 * 1.5 * 1.0 / (2.0 * 2.0);
    println!("slide after 1 s at control 1.5: {z} m, F t^2/2m = {exact} m");
    assert!((z - exact).abs() < 1e-12, "{z}");
}

#[test]
fn bad_controls_are_named() {
    let sc = rotor();
    let mut sim = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    let e = sim.set_control(1, 0.0).unwrap_err();
    assert_eq!(
        e,
        "control 1 does not exist: there is 1 control, numbered 0"
    );
    let e = sim.set_control(0, 1.5).unwrap_err();
    assert_eq!(e, "control 0 ('spin'): 1.5 is not within its range [-1, 1]");
    let e = sim.set_control(0, f64::NAN).unwrap_err();
    assert_eq!(e, "control 0 ('spin'): NaN is not within its range [-1, 1]");
    let bad = |control: &str, time: &str| {
        let text = format!(
            r#"{{"bodies":[{{"mass":1,"inertia":[1,1,1]}}],"joints":[{{"type":"revolute","b":0}}],
               "forces":[{{"type":"motor","joint":0,"torque":1{time},"control":{control}}}]}}"#
        );
        Scenario::parse(&text).unwrap_err().to_string()
    };
    let m = bad(r#"{"value":2,"range":[-1,1]}"#, "");
    assert!(
        m.contains("forces[0].control.value must be within its range [-1, 1], not 2"),
        "{m}"
    );
    let m = bad(r#"{"range":[1,-1]}"#, "");
    assert!(
        m.contains(
            "forces[0].control.range must be two finite numbers, the first below the second"
        ),
        "{m}"
    );
    let m = bad(
        r#"{"range":[-1,1]}"#,
        r#","time":{"kind":"linear","rate":1}"#,
    );
    assert!(
        m.contains("forces[0]: a motor with a control takes no time function"),
        "{m}"
    );
}

#[test]
fn the_json_form_writes_the_control_back() {
    let sc = rotor();
    let json = tumble::custom::forces_json(&sc.model).unwrap();
    assert_eq!(json[0]["control"]["range"], serde_json::json!([-1.0, 1.0]));
    assert_eq!(json[0]["control"]["value"], serde_json::json!(0.0));
    assert!(json[0].get("time").is_none(), "{json}");
}

/// `tumble run --control` (`crates/tumble-cli/src/controls.rs`): the rotor's schedule as the
/// command line takes it reaches the state, bit for bit, of the library run that sets the same
/// controls at the same steps; bad schedules are named.
#[test]
fn the_command_line_schedule_is_the_library_run() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("tumble-controls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rotor.json");
    let sc = rotor();
    std::fs::write(&file, sc.json.clone().unwrap()).unwrap();
    let run = |control: &str| {
        Command::new(tumble_tests::tumble())
            .args([
                "run",
                file.to_str().unwrap(),
                "--duration",
                "1",
                "--every",
                "1",
                "-q",
            ])
            .args(["--control", control])
            .output()
            .unwrap()
    };
    let out = run("spin=0:0,0.2:1,0.6:-0.5");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut sim = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
    for k in 0..1000 {
        let u = if k < 200 {
            0.0
        } else if k < 600 {
            1.0
        } else {
            -0.5
        };
        sim.set_control(0, u).unwrap();
        sim.step().unwrap();
    }
    assert_eq!(doc["state_hash"], format!("{:016x}", sim.state_hash()));
    for (bad, message) in [
        (
            "spin=0:2",
            "--control 'spin': 2 is not within its range [-1, 1]",
        ),
        (
            "spun=1",
            "--control 'spun': no such control; the controls are 'spin'",
        ),
        (
            "spin=0.5:1,0.2:0",
            "--control 'spin': its times must start at 0 or later and increase",
        ),
        (
            "spin=0:x",
            "--control 'spin': its value 'x' is not a finite number",
        ),
    ] {
        let out = run(bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(message),
            "{bad}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
