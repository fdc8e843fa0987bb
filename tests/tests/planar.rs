//! The planar joints (MuJoCo's slide, slide, hinge and its two slides on one body), each
//! against an independent reference, with all three methods:
//! - planar: a body free to slide in the plane y = 0 and turn about y, under gravity tilted out
//!   of the plane, with its joint point off its centre: the centre follows the parabola of the
//!   gravity's in-plane part, x(t) = x0 + v0 t + g_p t^2 / 2, the body turns at its constant
//!   rate about y (y a principal axis), and the joint holds (order 2);
//! - a slider spring on slide 1 and a slider motor on slide 0 of a planar joint without
//!   gravity: slide 1 oscillates as s1 = A cos(sqrt(k / m) t), slide 0 accelerates as
//!   s0 = F t^2 / (2 m), and W is F s0 exactly, the balance at the Newton tolerance (director);
//! - planar slide: the same body under a torque about the normal does not turn, and its centre
//!   follows the parabola;
//! - a slide limit on slide 1 of a planar joint: the body falls onto the stop and leaves it at
//!   e times its speed of impact.
//!
//! And the messages for a slide the joint does not have, slides out of the plane, and an angle
//! element on a planar slide.
use glam::DVec3;
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::{angle_difference, assert_orders};

use tumble_tests::run_for as run;

const G: [f64; 3] = [2.0, -5.0, -9.81];
const V0: [f64; 3] = [1.0, 0.0, 2.0];
const SPIN: f64 = 3.0;

/// A 2 kg body (principal moments 0.3, 0.4, 0.5) at (0.3, 0, 1) on a `kind` joint to the
/// ground whose point is the body's point (-0.3, 0, 0), the plane y = 0 (normal y), slides
/// along x and z; gravity `g`, velocity `v0` and spin `spin` about y, and `extra` JSON after
/// the joints.
fn body_in_plane(kind: &str, motion: ([f64; 3], [f64; 3], f64), extra: &str) -> Scenario {
    Scenario::parse(&plane_json(kind, motion, extra)).unwrap_or_else(|e| panic!("{e}"))
}

/// [`body_in_plane`]'s JSON.
fn plane_json(kind: &str, (g, v0, spin): ([f64; 3], [f64; 3], f64), extra: &str) -> String {
    format!(
        r#"{{"gravity":{g:?},"dt":0.01,"bodies":[{{"mass":2,"inertia":[0.3,0.4,0.5],
             "position":[0.3,0,1],"velocity":{v0:?},"angular_velocity":[0,{spin},0]}}],
           "joints":[{{"type":"{kind}","a":null,"point_a":[0,0,1],"b":0,"point_b":[-0.3,0,0],
             "axis_a":[0,1,0],"axis_b":[0,1,0],"slides":[[1,0,0],[0,0,1]]}}]{extra}}}"#
    )
}

/// [`body_in_plane`] with the joint at the body's centre (so that a force along a slide does
/// not turn it).
fn centred(kind: &str, motion: ([f64; 3], [f64; 3], f64), extra: &str) -> Scenario {
    let text = plane_json(kind, motion, extra).replace("[-0.3,0,0]", "[0,0,0]");
    Scenario::parse(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// The centre's closed form at t: the parabola of gravity's part in the plane y = 0.
fn parabola(t: f64) -> DVec3 {
    let g = DVec3::from_array(G) * DVec3::new(1.0, 0.0, 1.0);
    DVec3::new(0.3, 0.0, 1.0) + DVec3::from_array(V0) * t + g * (0.5 * t * t)
}

/// The body's turn about y: where its x1 axis points in the x-z plane (positive about y takes
/// x towards -z).
fn turn_about_y(r: &glam::DMat3) -> f64 {
    let x = *r * DVec3::X;
    (-x.z).atan2(x.x)
}

#[test]
fn planar_body_follows_the_parabola_and_turns_uniformly() {
    let sc = body_in_plane("planar", (G, V0, SPIN), "");
    let t = 1.0;
    for method in Method::ALL {
        let hs = [0.02, 0.01, 0.005];
        let errors: Vec<f64> = hs
            .iter()
            .map(|&h| {
                let sim = run(&sc, method, h, t);
                let s = sim.states()[0];
                let e_path = (s.x - parabola(t)).length();
                let e_turn = angle_difference(turn_about_y(&s.r), SPIN * t).abs();
                e_path.max(e_turn)
            })
            .collect();
        println!("planar {}: {errors:?}", method.name());
        assert!(errors[2] < 1e-3, "{}: {errors:?}", method.name());
        // the centre's path and the uniform turn are second-order (the parabola exactly in
        // the director, whose translation is the midpoint rule's)
        if errors[0] > 1e-9 {
            assert_orders(method.name(), &hs, &errors, 2.0, 0.3);
        }
        let sim = run(&sc, method, 0.005, 3.0);
        let inv = sim.invariants();
        let y = sim.states()[0].r * DVec3::Y;
        println!(
            "  3 s: joint violation {:.1e}, y axis off by {:.1e}",
            inv.joint_violation,
            (y - DVec3::Y).length()
        );
        assert!(inv.joint_violation < 1e-6, "{}", inv.joint_violation);
        assert!((y - DVec3::Y).length() < 1e-6);
    }
    let sim = run(&sc, Method::Director, 0.01, 0.0);
    assert_eq!(sim.mechanism().dof, 3);
}

#[test]
fn planar_slider_spring_and_motor_follow_their_closed_forms() {
    let (k, f, m): (f64, f64, f64) = (50.0, 3.0, 2.0);
    let extra = format!(
        r#","forces":[{{"type":"slider_spring","joint":0,"slide":1,"stiffness":{k},"rest_slide":-0.1}},
            {{"type":"slider_motor","joint":0,"slide":0,"force":{f}}}]"#
    );
    let sc = centred("planar", ([0.0; 3], [0.0; 3], 0.0), &extra);
    let t = 2.0;
    // slide 1 (along z) starts 0.1 m above the spring's rest: s1 = -0.1 + 0.1 cos(w t)
    let s1 = |t: f64| -0.1 + 0.1 * ((k / m).sqrt() * t).cos();
    let s0 = |t: f64| f * t * t / (2.0 * m);
    for method in Method::ALL {
        let hs = [0.02, 0.01, 0.005];
        let errors: Vec<f64> = hs
            .iter()
            .map(|&h| {
                let sim = run(&sc, method, h, t);
                let x = sim.states()[0].x;
                (x.x - 0.3 - s0(t)).abs().max((x.z - 1.0 - s1(t)).abs())
            })
            .collect();
        println!("planar spring and motor {}: {errors:?}", method.name());
        assert!(errors[2] < 1e-3, "{}: {errors:?}", method.name());
        assert_orders(method.name(), &hs, &errors, 2.0, 0.3);
    }
    // the director: W = F s0 to the bit's order, and the balance at the Newton tolerance
    let sim = run(&sc, Method::Director, 0.01, t);
    let inv = sim.invariants();
    let slid = sim.states()[0].x.x - 0.3;
    println!(
        "director: W {} J, F s0 {} J, balance {:.1e}",
        inv.work,
        f * slid,
        inv.balance
    );
    assert!((inv.work - f * slid).abs() < 1e-9 * inv.work.abs());
    assert!(inv.balance.abs() < 1e-9, "{}", inv.balance);
}

#[test]
fn planar_slide_does_not_turn_under_a_torque() {
    let extra = r#","forces":[{"type":"torque","body":0,"torque":[0,5,0]}]"#;
    let sc = Scenario::parse(&body_json("planar_slide", extra)).unwrap_or_else(|e| panic!("{e}"));
    let t = 1.0;
    for method in Method::ALL {
        let sim = run(&sc, method, 0.005, t);
        let s = sim.states()[0];
        let turn = (s.r - glam::DMat3::IDENTITY).abs().to_cols_array();
        let turn = turn.into_iter().fold(0.0, f64::max);
        let e_path = (s.x - parabola(t)).length();
        println!(
            "planar_slide {}: turn {turn:.1e}, path {e_path:.1e}",
            method.name()
        );
        assert!(turn < 1e-6, "{}: turned {turn:e}", method.name());
        assert!(e_path < 1e-6, "{}: {e_path:e}", method.name());
    }
    let sim = run(&sc, Method::Director, 0.01, 0.0);
    assert_eq!(sim.mechanism().dof, 2);
}

/// [`body_in_plane`]'s JSON without spin.
fn body_json(kind: &str, extra: &str) -> String {
    plane_json(kind, (G, V0, 0.0), extra)
}

#[test]
fn a_stop_on_a_planar_slide_returns_the_body_at_e_times_its_speed() {
    // without gravity, moving at 1.5 m/s along slide 1 (z) into a stop 0.2 m below, and at
    // 0.5 m/s along slide 0 (x), which no stop bounds; the limits tests' protocol: the rates
    // read at 0.6 s, when the stop has let go (limits.rs)
    for e in [0.5, 0.9] {
        let extra = format!(
            r#","forces":[{{"type":"slider_limit","joint":0,"slide":1,"lower":-0.2,"upper":1,
                "stiffness":3000,"restitution":{e}}}]"#
        );
        let sc = centred("planar", ([0.0; 3], [0.5, 0.0, -1.5], 0.0), &extra);
        for method in Method::ALL {
            let sim = run(&sc, method, 1e-4, 0.6);
            let v = sim.states()[0].v;
            let got = v.z / 1.5;
            println!(
                "{} e {e}: rebound {got:.6}, x speed {:.9}",
                method.name(),
                v.x
            );
            let tol = if method == Method::Director {
                1e-4
            } else {
                2e-3
            };
            assert!((got - e).abs() < tol, "{}: {got}, {e} asked", method.name());
            assert!((v.x - 0.5).abs() < 1e-9, "{}: {}", method.name(), v.x);
        }
    }
}

#[test]
fn planar_elements_name_what_is_wrong() {
    let bad = |kind: &str, extra: &str| {
        let text = body_json(kind, extra);
        let sc = Scenario::parse(&text);
        match sc {
            Err(e) => e.to_string(),
            Ok(sc) => Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc))
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default(),
        }
    };
    let m = bad(
        "planar",
        r#","forces":[{"type":"slider_spring","joint":0,"slide":2,"stiffness":1}]"#,
    );
    assert!(m.contains("forces[0].slide: joints[0] is a planar joint: there are 2 slides, numbered 0 to 1, so slide 2 does not exist"), "{m}");
    let m = bad(
        "planar_slide",
        r#","forces":[{"type":"joint_spring","joint":0,"stiffness":1}]"#,
    );
    assert!(m.contains("joints[0] is a planar_slide joint; joint springs and motors act about the axis of a revolute, cylindrical or planar joint"), "{m}");
    let text = body_json("planar", "").replace("[[1,0,0],[0,0,1]]", "[[1,0,0],[0,1,1]]");
    let m = Scenario::parse(&text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        m.contains("joints[0].slides[1] must be perpendicular to axis_a"),
        "{m}"
    );
    let text = body_json("revolute", "");
    let m = Scenario::parse(&text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        m.contains("only a planar, planar_slide or translation joint has slides"),
        "{m}"
    );
}
