//! Fixed tendons (`tendons.rs`): a spring or a motor on L = sum c_i q_i, against closed forms.
//! - Two rotors on hinges about their principal axes, coupled by a tendon spring on
//!   L = c1 theta1 + c2 theta2 (no gravity): J_i theta_i'' = -k c_i L, so L'' = -k (c1^2 / J1 +
//!   c2^2 / J2) L and, released with theta1' = w0, L = (c1 w0 / w) sin(w t); every method to
//!   order 2, and the director's energy balance exact at the Newton tolerance.
//! - A tendon over a hinge and a slide driven by a controlled tendon motor through a step and
//!   a ramp: each coordinate's rate is the sum of its impulses h c_i F u_k / J_i (or / m) (to
//!   round-off in RATTLE and Baumgarte; to O(h^2) in the director, 5e-6 relative at h = 1e-3,
//!   since its force acts through the angle's discrete gradient, which keeps W = F Delta L
//!   exact instead), W is the kinetic energy at every step, and the rotor turns 13 rad (the
//!   angle unwrapped across +-pi).
//! - A damped tendon spring: E - E0 - W + D = 0 and D > 0 in the director.
//! - Bad input: a missing tendon, a term on a joint without the coordinate, no terms, a NaN
//!   coefficient: each a message naming the field; the JSON form writes tendons back.
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::{assert_orders, run_for};

const J1: f64 = 0.4;
const J2: f64 = 0.9;
const C1: f64 = 0.5;
const C2: f64 = -1.5;
const K: f64 = 30.0;
const W0: f64 = 2.0;

/// Two rotors about x (hinges through their centres), a tendon spring on c1 theta1 + c2 theta2.
fn coupled(damping: f64) -> Scenario {
    Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"dt":0.01,
           "bodies":[{{"mass":2,"inertia":[{J1},0.3,0.3],"angular_velocity":[{W0},0,0]}},
                     {{"mass":3,"inertia":[{J2},0.6,0.6],"position":[0,1,0]}}],
           "joints":[{{"type":"revolute","a":null,"b":0,"axis_a":[1,0,0],"axis_b":[1,0,0]}},
                     {{"type":"revolute","a":null,"b":1,"point_a":[0,1,0],"axis_a":[1,0,0],"axis_b":[1,0,0]}}],
           "tendons":[{{"name":"coupling","terms":[{{"joint":0,"coef":{C1}}},{{"joint":1,"coef":{C2}}}]}}],
           "forces":[{{"type":"tendon_spring","tendon":0,"stiffness":{K},"damping":{damping}}}]}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_tendon_spring_couples_two_rotors_as_the_closed_form_to_order_2() {
    let sc = coupled(0.0);
    let w = (K * (C1 * C1 / J1 + C2 * C2 / J2)).sqrt();
    let t_end = 1.0;
    let exact = C1 * W0 / w * (w * t_end).sin();
    for method in Method::ALL {
        let hs = [4e-3, 2e-3, 1e-3];
        let errors: Vec<f64> = hs
            .iter()
            .map(|&h| {
                let sim = run_for(&sc, method, h, t_end);
                let s = sim.states();
                // the z axis of a body turned th about x is (0, -sin th, cos th)
                let th = |b: usize| (-s[b].r.z_axis.y).atan2(s[b].r.z_axis.z);
                let l = C1 * th(0) + C2 * th(1);
                let inv = sim.invariants();
                if method == Method::Director {
                    assert!(
                        inv.balance.abs() < 1e-9,
                        "director balance {:e}",
                        inv.balance
                    );
                }
                (l - exact).abs()
            })
            .collect();
        assert_orders(
            &format!("{} tendon spring", method.name()),
            &hs,
            &errors,
            2.0,
            0.15,
        );
    }
}

#[test]
fn a_damped_tendon_spring_keeps_the_balance_and_dissipates() {
    let sc = coupled(0.5);
    let sim = run_for(&sc, Method::Director, 0.01, 3.0);
    let inv = sim.invariants();
    println!(
        "director: D {:.6} J, balance {:.2e} J",
        inv.dissipated, inv.balance
    );
    assert!(inv.dissipated > 0.1, "D {}", inv.dissipated);
    assert!(inv.balance.abs() < 1e-9, "balance {:e}", inv.balance);
}

const M: f64 = 2.5;
const CS: f64 = 2.0;
const F: f64 = 8.0;

/// A rotor (hinge about x) and a slider (prismatic along z), a tendon over both driven by a
/// controlled tendon motor.
fn driven() -> Scenario {
    Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"dt":0.001,
           "bodies":[{{"mass":2,"inertia":[{J1},0.3,0.3]}},
                     {{"mass":{M},"inertia":[0.2,0.2,0.2],"position":[0,1,0]}}],
           "joints":[{{"type":"revolute","a":null,"b":0,"axis_a":[1,0,0],"axis_b":[1,0,0]}},
                     {{"type":"prismatic","a":null,"b":1,"point_a":[0,1,0],"axis_a":[0,0,1],"axis_b":[0,0,1]}}],
           "tendons":[{{"terms":[{{"joint":0,"coef":{C1}}},{{"joint":1,"slide":0,"coef":{CS}}}]}}],
           "forces":[{{"type":"tendon_motor","tendon":0,"force":{F},"name":"lift",
             "control":{{"value":0,"range":[-1,2]}}}}]}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The control at step k (h = 1e-3): 0 until 0.1 s, then 2, then from 0.6 s a ramp to -1 at
/// 1.1 s, held after.
fn schedule(k: usize) -> f64 {
    let t = k as f64 * 1e-3;
    if t < 0.1 - 1e-12 {
        0.0
    } else if t < 0.6 - 1e-12 {
        2.0
    } else {
        2.0 - 3.0 * ((t - 0.6) / 0.5).min(1.0)
    }
}

#[test]
fn a_controlled_tendon_motor_drives_each_coordinate_by_its_share_and_w_is_its_work() {
    let sc = driven();
    for method in Method::ALL {
        let mut settings = Settings::for_scenario(&sc);
        settings.dt = 1e-3;
        let mut sim = Simulation::new(&sc, method, settings).unwrap();
        let (mut w, mut v, mut turned) = (0.0, 0.0, 0.0);
        let (mut rates, mut work): (f64, f64) = (0.0, 0.0);
        for k in 0..1500 {
            sim.set_control(0, schedule(k)).unwrap();
            sim.step().unwrap();
            w += 1e-3 * C1 * F * schedule(k) / J1;
            v += 1e-3 * CS * F * schedule(k) / M;
            turned += 1e-3 * w;
            let s = sim.states();
            let (wx, vz) = ((s[0].r * s[0].w).x, s[1].v.z);
            let kinetic = 0.5 * J1 * wx * wx + 0.5 * M * vz * vz;
            let inv = sim.invariants();
            rates = rates.max((wx - w).abs() / w.abs().max(1.0));
            rates = rates.max((vz - v).abs() / v.abs().max(1.0));
            work = work.max((inv.work - kinetic).abs() / kinetic.max(1.0));
        }
        println!(
            "{}: worst relative |w - sum| or |v - sum| {rates:.2e}, |W - T| / T {work:.2e}; the rotor turned {turned:.1} rad",
            method.name(),
        );
        assert!(turned > 4.0 * std::f64::consts::PI, "turned {turned}");
        assert!(rates < 1e-5, "{}: {rates:e}", method.name());
        assert!(work < 1e-9, "{}: {work:e}", method.name());
    }
}

#[test]
fn bad_tendons_are_named() {
    let base = |tendons: &str, forces: &str| {
        format!(
            r#"{{"bodies":[{{"mass":1,"inertia":[1,1,1]}},{{"mass":1,"inertia":[1,1,1],"position":[0,1,0]}}],
               "joints":[{{"type":"revolute","a":null,"b":0}},
                         {{"type":"prismatic","a":null,"b":1,"point_a":[0,1,0]}}],
               "tendons":{tendons},"forces":{forces}}}"#
        )
    };
    let spring = r#"[{"type":"tendon_spring","tendon":0,"stiffness":1}]"#;
    let cases = [
        (
            base("[]", spring),
            "forces[0].tendon: there are no tendons, so tendons[0] does not exist",
        ),
        (
            base(r#"[{"terms":[{"joint":1,"coef":1}]}]"#, spring),
            "tendons[0].terms[0]: joints[1] is a prismatic joint, which has no angle",
        ),
        (
            base(r#"[{"terms":[]}]"#, spring),
            "tendons[0].terms: a tendon takes 1 to 32 terms, not 0",
        ),
        (
            base(r#"[{"terms":[{"joint":5,"coef":1}]}]"#, spring),
            "tendons[0].terms[0].joint: there are 2 joints, numbered 0 to 1, so joints[5] does not exist",
        ),
        (
            base(r#"[{"terms":[{"joint":0,"slide":0,"coef":1}]}]"#, spring),
            "tendons[0].terms[0].joint: joints[0] is a revolute joint",
        ),
        (
            base(r#"[{"terms":[{"joint":0,"coef":1e7}]}]"#, spring),
            "tendons[0].terms[0].coef must be finite and at most 1e6 in size",
        ),
    ];
    for (text, want) in cases {
        let e = Scenario::parse(&text)
            .err()
            .unwrap_or_else(|| panic!("accepted: {want}"));
        assert!(e.0.contains(want), "got {e:?}, want {want:?}");
    }
}

#[test]
fn the_json_form_writes_tendons_back() {
    let sc = driven();
    let model = &sc.model;
    let tendons = tumble::custom::tendons_json(model).unwrap();
    let forces = tumble::custom::forces_json(model).unwrap();
    assert_eq!(
        tendons,
        serde_json::json!([{"terms":[{"joint":0,"coef":C1},{"joint":1,"slide":0,"coef":CS}]}])
    );
    assert_eq!(
        forces,
        serde_json::json!([{"type":"tendon_motor","name":"lift","tendon":0,"force":F,
            "control":{"value":0.0,"range":[-1.0,2.0]}}])
    );
}

/// A body hanging on a universal joint from the ground (axis_a x, axis_b y in the body, which
/// starts unturned: R = R_x(theta1) R_y(theta2)), gravity tilted, a one-term tendon with a spring
/// and a damper on each hinge (MuJoCo's two hinges with their own stiffness and damping).
fn cardan() -> Scenario {
    Scenario::parse(
        r#"{"gravity":[2,-3,-9.81],"dt":0.005,
           "bodies":[{"mass":1.5,"inertia":[0.05,0.06,0.02],"position":[0,0,-0.4],
                      "velocity":[0.8,0.6,0],"angular_velocity":[1.5,-2,0]}],
           "joints":[{"type":"universal","a":null,"b":0,"point_b":[0,0,0.4],
                      "axis_a":[1,0,0],"axis_b":[0,1,0]}],
           "tendons":[{"terms":[{"joint":0,"coef":1}]},{"terms":[{"joint":0,"hinge":1,"coef":1}]}],
           "forces":[{"type":"tendon_spring","tendon":0,"stiffness":4,"rest_length":0.2,"damping":0.03},
                     {"type":"tendon_spring","tendon":1,"stiffness":2,"rest_length":-0.1,"damping":0.02}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_universal_joints_two_hinge_angles_are_mujocos_and_keep_the_balance() {
    let sc = cardan();
    for method in Method::ALL {
        let mut settings = Settings::for_scenario(&sc);
        settings.dt = 0.005;
        let mut sim = Simulation::new(&sc, method, settings).unwrap();
        let mut worst: f64 = 0.0;
        for _ in 0..600 {
            sim.step().unwrap();
            // R = R_x(theta1) R_y(theta2): its second column (0, c1, s1), its first row (c2, 0, s2)
            let r = sim.states()[0].r;
            let theta1 = r.y_axis.z.atan2(r.y_axis.y);
            let theta2 = r.z_axis.x.atan2(r.x_axis.x);
            let angles = &sim.force_state().angles;
            let wrap = |x: f64| {
                (x + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI
            };
            worst = worst
                .max(wrap(angles[2] - theta1).abs())
                .max(wrap(angles[3] - theta2).abs());
        }
        let inv = sim.invariants();
        println!(
            "{}: the hinges' angles against R = R_x R_y: worst {worst:.1e} rad; D {:.4} J, balance {:.2e} J",
            method.name(),
            inv.dissipated,
            inv.balance
        );
        assert!(worst < 1e-9, "{}: {worst:e}", method.name());
        assert!(inv.dissipated > 0.01, "{}", inv.dissipated);
        if method == Method::Director {
            assert!(inv.balance.abs() < 1e-9, "balance {:e}", inv.balance);
        }
    }
}
