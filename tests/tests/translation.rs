//! The translation joint (MuJoCo's three slides on one body: b keeps its orientation and moves
//! freely), against closed forms, with all three methods:
//! - under gravity in every direction and a torque, the body does not turn and its centre
//!   follows the parabola x0 + v0 t + g t^2 / 2;
//! - a slider spring on each of the three slides (three stiffnesses) and a slider motor on slide
//!   2 (along axis_a): s_k = A_k cos(sqrt(k_k / m) t) on slides 0 and 1, slide 2 that plus
//!   F / k_2 (1 - cos), each to order 2; W is F s_2 exactly and the balance at the Newton
//!   tolerance in the director;
//! - a slide the joint does not have is named.
use glam::DVec3;
use tumble::{Method, Scenario};
use tumble_tests::assert_orders;
use tumble_tests::run_for as run;

const G: [f64; 3] = [2.0, -5.0, -9.81];
const V0: [f64; 3] = [1.0, 0.5, 2.0];

/// A 2 kg body at (0.3, 0, 1) on a translation joint to the ground at its centre: slides 0 and
/// 1 along x and y, slide 2 (axis_a) along z; gravity `g`, velocity `v0`, spin about y `spin`
/// (which the joint must hold at 0: the start's check), and `extra` after the joints.
fn body(g: [f64; 3], v0: [f64; 3], extra: &str) -> Scenario {
    let text = format!(
        r#"{{"gravity":{g:?},"dt":0.01,"bodies":[{{"mass":2,"inertia":[0.3,0.4,0.5],
             "position":[0.3,0,1],"velocity":{v0:?}}}],
           "joints":[{{"type":"translation","a":null,"point_a":[0.3,0,1],"b":0,"point_b":[0,0,0],
             "axis_a":[0,0,1],"axis_b":[0,0,1],"slides":[[1,0,0],[0,1,0]]}}]{extra}}}"#
    );
    Scenario::parse(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_translating_body_follows_the_parabola_and_does_not_turn_under_a_torque() {
    let extra = r#","forces":[{"type":"torque","body":0,"torque":[3,5,-2]}]"#;
    let sc = body(G, V0, extra);
    let t = 1.0;
    let want = DVec3::new(0.3, 0.0, 1.0)
        + DVec3::from_array(V0) * t
        + DVec3::from_array(G) * (0.5 * t * t);
    for method in Method::ALL {
        let sim = run(&sc, method, 0.005, t);
        let s = sim.states()[0];
        let turn = (s.r - glam::DMat3::IDENTITY).abs().to_cols_array();
        let turn = turn.into_iter().fold(0.0, f64::max);
        let path = (s.x - want).length();
        println!(
            "translation {}: turn {turn:.1e}, path {path:.1e}",
            method.name()
        );
        assert!(turn < 1e-6, "{}: turned {turn:e}", method.name());
        assert!(path < 1e-6, "{}: {path:e}", method.name());
    }
    let sim = run(&sc, Method::Director, 0.01, 0.0);
    assert_eq!(sim.mechanism().dof, 3);
}

#[test]
fn slider_springs_on_all_three_slides_and_a_motor_follow_their_closed_forms() {
    let (k, f, m): ([f64; 3], f64, f64) = ([50.0, 80.0, 30.0], 3.0, 2.0);
    let a = [0.1, -0.05, 0.08]; // each slide starts A_k from its spring's rest
    let springs: Vec<String> = (0..3)
        .map(|s| {
            format!(
                r#"{{"type":"slider_spring","joint":0,"slide":{s},"stiffness":{},"rest_slide":{}}}"#,
                k[s], -a[s]
            )
        })
        .collect();
    let extra = format!(
        r#","forces":[{},{{"type":"slider_motor","joint":0,"slide":2,"force":{f}}}]"#,
        springs.join(",")
    );
    let sc = body([0.0; 3], [0.0; 3], &extra);
    let t = 2.0;
    let w = |s: usize| (k[s] / m).sqrt();
    // s_k measured from the start; slide 2 also pushed by F: its rest moves by F / k_2
    let closed = |s: usize, t: f64| {
        let free = -a[s] + a[s] * (w(s) * t).cos();
        if s == 2 {
            free + f / k[2] * (1.0 - (w(2) * t).cos())
        } else {
            free
        }
    };
    let origin = DVec3::new(0.3, 0.0, 1.0);
    for method in Method::ALL {
        let hs = [0.02, 0.01, 0.005];
        let errors: Vec<f64> = hs
            .iter()
            .map(|&h| {
                let d = run(&sc, method, h, t).states()[0].x - origin;
                (0..3)
                    .map(|s| (d[s] - closed(s, t)).abs())
                    .fold(0.0, f64::max)
            })
            .collect();
        println!("translation springs {}: {errors:?}", method.name());
        assert!(errors[2] < 1e-3, "{}: {errors:?}", method.name());
        assert_orders(method.name(), &hs, &errors, 2.0, 0.3);
    }
    let sim = run(&sc, Method::Director, 0.01, t);
    let inv = sim.invariants();
    let slid = sim.states()[0].x.z - 1.0;
    println!(
        "director: W {} J, F s2 {} J, balance {:.1e}",
        inv.work,
        f * slid,
        inv.balance
    );
    assert!((inv.work - f * slid).abs() < 1e-9 * inv.work.abs().max(1e-3));
    assert!(inv.balance.abs() < 1e-9, "{}", inv.balance);
}

#[test]
fn a_slide_a_translation_does_not_have_is_named() {
    let extra = r#","forces":[{"type":"slider_motor","joint":0,"slide":3,"force":1}]"#;
    let text = format!(
        r#"{{"gravity":[0,0,-9.81],"dt":0.01,"bodies":[{{"mass":2,"inertia":[0.3,0.4,0.5],"position":[0,0,1]}}],
           "joints":[{{"type":"translation","a":null,"point_a":[0,0,1],"b":0,"point_b":[0,0,0]}}]{extra}}}"#
    );
    let e = Scenario::parse(&text).expect_err("slide 3").to_string();
    assert!(
        e.contains("joints[0] is a translation joint: there are 3 slides, numbered 0 to 2, so slide 3 does not exist"),
        "{e}"
    );
}
