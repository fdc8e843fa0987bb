//! Drives (rheonomic constraints Phi(q, t) = 0), against independent checks:
//! - an angle drive on a hinged rod follows the prescribed angle to the constraint tolerance,
//!   and its work equals E(t) - E(0) + D(t) (the director to the tolerance; RATTLE and
//!   Baumgarte with their O(h^2) balance errors);
//! - a balanced flywheel driven at constant speed needs no work (W = 0);
//! - a slide drive moves a piston as prescribed, and its work is the energy it gave;
//! - drives that cannot be: f(0) not 0, a rate the bodies do not start with, a joint without that
//!   coordinate, a driven structure that cannot move: a message each.
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::angle_difference;

fn sim(sc: &Scenario, method: Method, dt: f64) -> Simulation {
    let mut settings = Settings::for_scenario(sc);
    settings.dt = dt;
    Simulation::new(sc, method, settings).unwrap()
}

/// A 1 m rod (1 kg) hung from a hinge about x1 at the origin, hanging straight down, its angle
/// driven by `time` (JSON), with a hinge damper `c` (N m s/rad).
fn driven_rod(time: &str, c: f64, w0: f64) -> Scenario {
    Scenario::parse(&format!(
        r#"{{"dt":0.01,"bodies":[{{"mass":1,"inertia":[0.0835,0.0835,0.0004],"size":[0.05,0.05,1],
             "position":[0,0,-0.5],"velocity":[0,{v},0],"angular_velocity":[{w0},0,0]}}],
           "joints":[{{"type":"revolute","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0.5]}}],
           "forces":[{{"type":"joint_spring","joint":0,"damping":{c}}}],
           "drives":[{{"joint":0,"type":"angle","time":{time}}}]}}"#,
        v = 0.5 * w0
    ))
    .unwrap()
}

/// The rod's angle about +x1 from hanging straight down.
fn rod_angle(s: &Simulation) -> f64 {
    let z = s.states()[0].r.z_axis; // R x3 = (0, -sin a, cos a) for a turn a about +x1
    (-z.y).atan2(z.z)
}

#[test]
fn angle_drive_is_followed_and_its_work_is_the_energy_given() {
    // a speed ramp to 2 rev/s over 1 s, against gravity and a damper
    let f = tumble::TimeFn::RampSpeed {
        rate: 4.0 * std::f64::consts::PI,
        time: 1.0,
    };
    let sc = driven_rod(
        r#"{"kind":"ramp_speed","rate":12.566370614359172,"time":1}"#,
        0.05,
        0.0,
    );
    for method in Method::ALL {
        let mut balances = vec![];
        for h in [0.01, 0.005] {
            let mut s = sim(&sc, method, h);
            let (mut worst, mut balance) = (0.0f64, 0.0f64);
            for _ in 0..(3.0 / h).round() as usize {
                s.step().unwrap();
                let want = f.at(s.time());
                worst = worst.max(angle_difference(rod_angle(&s), want).abs());
                balance = balance.max(s.invariants().balance.abs());
            }
            let inv = s.invariants();
            println!(
                "{} h = {h}: angle off by {worst:.2e} rad, W = {:.4} J, D = {:.4} J, balance {balance:.2e} J",
                method.name(),
                inv.work,
                inv.dissipated
            );
            let bound = if method == Method::Baumgarte {
                1e-3
            } else {
                1e-9
            };
            assert!(worst < bound, "{} h = {h}: {worst:e}", method.name());
            assert!(inv.work > 5.0, "the drive must put energy in");
            if method == Method::Director {
                assert!(balance < 1e-9, "director balance {balance:e}");
            }
            balances.push(balance);
        }
        if method != Method::Director {
            // RATTLE's and Baumgarte's balance errors are their O(h^2) errors
            let ratio = balances[0] / balances[1];
            println!("  {}: balance ratio {ratio:.2}", method.name());
            assert!(
                ratio > 3.0 && ratio < 5.5,
                "{}: {balances:?}",
                method.name()
            );
        }
    }
}

#[test]
fn constant_speed_on_a_balanced_flywheel_needs_no_work() {
    // a square plate spinning about its centre at 5 rad/s from the start, the angle driven as
    // 5 t: nothing resists, so the drive does no work
    let sc = Scenario::parse(
        r#"{"dt":0.01,"bodies":[{"mass":2,"inertia":[0.05,0.03,0.03],"angular_velocity":[5,0,0]}],
            "joints":[{"type":"revolute","a":null,"point_a":[0,0,0],"b":0}],
            "drives":[{"joint":0,"type":"angle","time":{"kind":"linear","rate":5}}]}"#,
    )
    .unwrap();
    for method in Method::ALL {
        let mut s = sim(&sc, method, 0.01);
        for _ in 0..500 {
            s.step().unwrap();
        }
        let inv = s.invariants();
        println!("{}: W = {:.2e} J after 5 s", method.name(), inv.work);
        assert!(inv.work.abs() < 1e-9, "{}: {}", method.name(), inv.work);
        assert!(angle_difference(rod_angle(&s), 25.0).abs() < 1e-9);
    }
}

#[test]
fn slide_drive_moves_the_piston_as_prescribed() {
    // a 2 kg block on a vertical slider, driven 0.1 sin(2 pi t) m from the start (rate
    // 0.2 pi m/s at t = 0), against gravity: the work is the energy the block gains
    let sc = Scenario::parse(
        r#"{"dt":0.005,"bodies":[{"mass":2,"inertia":[0.1,0.1,0.1],"velocity":[0,0,0.6283185307179586]}],
            "joints":[{"type":"prismatic","a":null,"point_a":[0,0,0],"b":0,"axis_a":[0,0,1],"axis_b":[0,0,1]}],
            "drives":[{"joint":0,"type":"slide","time":{"kind":"sine","amplitude":0.1,"frequency":1}}]}"#,
    )
    .unwrap();
    for method in Method::ALL {
        let mut s = sim(&sc, method, 0.005);
        let (mut worst, mut balance) = (0.0f64, 0.0f64);
        for _ in 0..450 {
            s.step().unwrap();
            let want = 0.1 * (2.0 * std::f64::consts::PI * s.time()).sin();
            worst = worst.max((s.states()[0].x.z - want).abs());
            balance = balance.max(s.invariants().balance.abs());
        }
        let inv = s.invariants();
        // at t = 2.25 s the block is 0.1 m up and at rest: W = m g 0.1 - m v0^2 / 2
        let exact = 2.0 * 9.81 * 0.1 - 0.5 * 2.0 * 0.6283185307179586f64.powi(2);
        println!("{}: slide off by {worst:.2e} m; W = {:.6} J (exact {exact:.6}), balance {balance:.2e} J", method.name(), inv.work);
        let bound = if method == Method::Baumgarte {
            1e-4
        } else {
            1e-9
        };
        assert!(worst < bound, "{}: {worst:e}", method.name());
        if method == Method::Director {
            assert!(balance < 1e-10, "{balance:e}");
            // W = E(t) - E(0) holds to round-off (the balance above); against the exact motion
            // the end velocity is the step's, O(h^2) off zero, so T is O(h^4): 2.7e-9 J here
            assert!((inv.work - exact).abs() < 1e-7, "{}", inv.work);
        }
    }
}

#[test]
fn impossible_drives_are_named() {
    let rod = |drive: &str, w0: f64| {
        format!(
            r#"{{"bodies":[{{"mass":1,"inertia":[0.0835,0.0835,0.0004],"position":[0,0,-0.5],
                "velocity":[0,{v},0],"angular_velocity":[{w0},0,0]}}],
              "joints":[{{"type":"revolute","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0.5]}}],
              "drives":[{drive}]}}"#,
            v = 0.5 * w0
        )
    };
    for (text, needle) in [
        (
            rod(
                r#"{"joint":0,"type":"angle","time":{"kind":"constant","value":0.3}}"#,
                0.0,
            ),
            "f(0) must be 0",
        ),
        (
            rod(
                r#"{"joint":0,"type":"angle","time":{"kind":"linear","rate":2}}"#,
                0.0,
            ),
            "ramp_speed",
        ),
        (
            rod(
                r#"{"joint":0,"type":"slide","time":{"kind":"linear","rate":2}}"#,
                0.0,
            ),
            "no slide",
        ),
        (
            rod(
                r#"{"joint":1,"type":"angle","time":{"kind":"linear","rate":2}}"#,
                0.0,
            ),
            "does not exist",
        ),
        (
            rod(
                r#"{"joint":0,"type":"angle","time":{"kind":"sine","frequency":1e300}}"#,
                0.0,
            ),
            "drives[0].time.frequency",
        ),
    ] {
        let e = Scenario::parse(&text).unwrap_err().to_string();
        assert!(e.contains(needle), "{needle}: {e}");
    }
    // a driven joint inside a structure that cannot move: a triangle of rods on three hinges
    // to a rigid ground (a closed loop with no freedom), its first hinge driven
    let good = rod(
        r#"{"joint":0,"type":"angle","time":{"kind":"linear","rate":2}}"#,
        2.0,
    );
    assert!(Scenario::parse(&good).is_ok());
    let locked = Scenario::parse(
        r#"{"gravity":[0,0,0],"bodies":[{"mass":1,"inertia":[0.0835,0.0835,0.0004],"position":[0,0,-0.5]}],
           "joints":[{"type":"revolute","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0.5]},
                     {"type":"spherical","a":null,"point_a":[0,0,-1],"b":0,"point_b":[0,0,-0.5]}],
           "drives":[{"joint":0,"type":"angle","time":{"kind":"ramp_speed","rate":1,"time":1}}]}"#,
    )
    .unwrap();
    let e = Simulation::new(&locked, Method::Director, Settings::for_scenario(&locked))
        .err()
        .expect("a drive that cannot move must be refused");
    assert!(e.contains("cannot all move"), "{e}");
}
