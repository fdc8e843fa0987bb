//! A joint damper stiff for its step (`methods/director/forces.rs` `spring_stiffness`): a finger
//! of MuJoCo's manipulator has a hinge damper of 0.5 N m s/rad on about 1e-6 kg m^2, h c / I =
//! 500 at its step of 1 ms, and the director's Newton, which took the elements as a fixed point,
//! diverged (residual 9e4 after 30 iterations). With the damper's c / h in the tangent:
//! - a rotor (I = 1e-6 kg m^2 about its hinge) spinning against it converges in a few
//!   iterations a step, and its spin follows the implicit midpoint rule's own recurrence
//!   omega_n+1 = omega_n (1 - a) / (1 + a), a = h c / (2 I), computed here independently (at
//!   1 rad/s the Cayley map's angle 2 atan(h omega / 2) is h omega to 1e-7);
//! - E - E0 + D stays at the Newton tolerance (1e-12 N m s of momentum at 1 rad/s: 1e-12 J),
//!   and E never grows;
//! - a hinge whose damper is soft for the step (the presets') keeps its Newton path: the
//!   tangent takes only the stiff ones (h^2 (c / h) / I above 1), so the stored hashes hold.
use tumble::{Method, Scenario, Settings, Simulation};

fn rotor(c: f64, w0: f64) -> Simulation {
    let sc = Scenario::parse(&format!(
        r#"{{"dt":0.001,"gravity":[0,0,0],"bodies":[{{"mass":0.01,"inertia":[1e-6,1e-6,1e-6],"position":[0,0,0],"angular_velocity":[{w0},0,0]}}],
            "joints":[{{"type":"revolute","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0],"axis_a":[1,0,0],"axis_b":[1,0,0]}}],
            "forces":[{{"type":"joint_spring","joint":0,"damping":{c}}}]}}"#
    ))
    .unwrap();
    let mut settings = Settings::for_scenario(&sc);
    settings.dt = 1e-3;
    Simulation::new(&sc, Method::Director, settings).unwrap()
}

#[test]
fn a_rotor_on_a_damper_stiff_for_the_step_converges_and_follows_the_midpoint_rule() {
    let (c, i, h, w0) = (0.5, 1e-6, 1e-3, 1.0);
    let mut s = rotor(c, w0);
    let a = h * c / (2.0 * i);
    let ratio = (1.0 - a) / (1.0 + a);
    let e0 = s.invariants().energy();
    let (mut w, mut worst, mut balance, mut most, mut last_e) = (w0, 0.0f64, 0.0f64, 0, e0);
    for _ in 0..200 {
        let info = s.step().unwrap();
        most = most.max(info.iterations);
        w *= ratio;
        let spin = (s.states()[0].r * s.states()[0].w).x;
        worst = worst.max((spin - w).abs() / w.abs());
        let inv = s.invariants();
        balance = balance.max((inv.energy() - e0 + inv.dissipated).abs());
        assert!(inv.energy() <= last_e + 1e-18, "E grew");
        last_e = inv.energy();
    }
    println!(
        "h c / I = {:.0}: at most {most} Newton iterations a step; spin against the midpoint recurrence (ratio {ratio:.6}) within {worst:.1e} of itself; |E - E0 + D| <= {balance:.1e} J of E0 = {e0:.1e} J",
        2.0 * a
    );
    assert!(most <= 6, "{most} iterations");
    assert!(worst < 1e-6, "{worst}");
    assert!(balance < 1e-12, "{balance}");
}
