//! Angle elements between two bodies as rows of the director's Newton solve
//! (`methods/director/angle_rows.rs`). Taken as a fixed point, or as a stiffness on each body's
//! own block, a stiff damper or a pressed stop between two light bodies leaves their coupling
//! out of Newton's tangent: Newton then diverged (the damper) or converged linearly, the two
//! bodies taking turns (a humanoid's hips and thighs lying on the floor: 21 iterations a
//! sub-step). Both systems here are two rotors on one axis, the first hinged to the ground and
//! the second to the first, no gravity, so the relative motion has a closed form.
use tumble::{Method, Scenario, Settings, Simulation};

/// Two equal rotors (I = `inertia` kg m^2 about x) on coaxial hinges, starting at `w0` and
/// -`w0` rad/s, joined by the force elements `forces` (JSON) on hinge 1, the step `h`; with
/// `tendon`, a one-term tendon of hinge 1 (tendon 0) too.
fn rotors(inertia: f64, w0: f64, forces: &str, h: f64, tendon: bool) -> Simulation {
    let tendons = if tendon {
        r#"[{"name":"t","terms":[{"joint":1,"coef":1}]}]"#
    } else {
        "[]"
    };
    let sc = Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"bodies":[
             {{"mass":0.01,"inertia":[{inertia},{inertia},{inertia}],"position":[0,0,0],"angular_velocity":[{w0},0,0]}},
             {{"mass":0.01,"inertia":[{inertia},{inertia},{inertia}],"position":[0.1,0,0],"angular_velocity":[-{w0},0,0]}}],
           "joints":[{{"type":"revolute","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0],"axis_a":[1,0,0],"axis_b":[1,0,0]}},
                     {{"type":"revolute","a":0,"point_a":[0.1,0,0],"b":1,"point_b":[0,0,0],"axis_a":[1,0,0],"axis_b":[1,0,0]}}],
           "tendons":{tendons},"forces":[{forces}]}}"#
    ))
    .unwrap();
    let mut settings = Settings::for_scenario(&sc);
    settings.dt = h;
    Simulation::new(&sc, Method::Director, settings).unwrap()
}

/// A damper of c between the rotors: the relative spin d = w_b - w_a obeys
/// d' = -c (1/I_a + 1/I_b) d, whose implicit midpoint rule is d_n+1 = d_n (1 - a) / (1 + a),
/// a = h c (1/I_a + 1/I_b) / 2, computed here independently (while the spin is above 1e-3 of
/// the first, where the Newton tolerance is not yet its scale); the total angular momentum stays
/// 0 and E - E0 + D at the Newton tolerance. The damper is a joint spring on hinge 1, or with
/// `tendon` a tendon spring on a one-term tendon of it (the import's form for a universal
/// joint's or gimbal's hinges). Returns the most iterations a step.
fn damper_follows_the_midpoint_rule(c: f64, tendon: bool) -> u32 {
    let (i, h, w0) = (1e-6, 1e-3, 1.0);
    let forces = if tendon {
        format!(r#"{{"type":"tendon_spring","tendon":0,"damping":{c}}}"#)
    } else {
        format!(r#"{{"type":"joint_spring","joint":1,"damping":{c}}}"#)
    };
    let mut s = rotors(i, w0, &forces, h, tendon);
    let a = h * c * (2.0 / i) / 2.0;
    let ratio = (1.0 - a) / (1.0 + a);
    let e0 = s.invariants().energy();
    let (mut d, mut worst, mut balance, mut most, mut spin_sum) =
        (-2.0 * w0, 0.0f64, 0.0f64, 0, 0.0f64);
    for _ in 0..40 {
        let info = s.step().unwrap();
        most = most.max(info.iterations);
        d *= ratio;
        let spin = |b: usize| (s.states()[b].r * s.states()[b].w).x;
        if d.abs() > 1e-3 * 2.0 * w0 {
            worst = worst.max((spin(1) - spin(0) - d).abs() / d.abs());
        }
        spin_sum = spin_sum.max((spin(0) + spin(1)).abs());
        let inv = s.invariants();
        balance = balance.max((inv.energy() - e0 + inv.dissipated).abs());
    }
    println!(
        "h c (1/I_a + 1/I_b) = {:.2}: at most {most} Newton iterations a step; relative spin against the midpoint recurrence (ratio {ratio:.6}) within {worst:.1e} of itself while above 1e-3 of the first; |w_a + w_b| <= {spin_sum:.1e} rad/s; |E - E0 + D| <= {balance:.1e} J of E0 = {e0:.1e} J",
        2.0 * a
    );
    assert!(worst < 1e-6, "{worst}");
    assert!(spin_sum < 1e-9, "{spin_sum}");
    assert!(balance < 1e-12, "{balance}");
    most
}

/// h c (1/I_a + 1/I_b) = 1.5, below the bound where `spring_stiffness` puts the damper on both
/// bodies' blocks: as a fixed point Newton diverged (residual 1.9 after 60 iterations at
/// c = 0.002).
#[test]
fn two_rotors_on_a_stiff_damper_converge_and_follow_the_midpoint_rule() {
    for tendon in [false, true] {
        let most = damper_follows_the_midpoint_rule(0.00075, tendon);
        assert!(most <= 4, "tendon {tendon}: {most} iterations");
    }
}

/// h c (1/I_a + 1/I_b) = 4, 20 and 200, past that bound: on both bodies' blocks Newton did not
/// converge (residual 1.9, 5.5 and 0.055 after 60 or 30 iterations), at 3 it took 25 iterations
/// a step; as rows (block-Jacobi rate 2/3 and up on the moments about the axis) 2. A tendon's
/// damper, which no block takes, stayed a fixed point there: residual 2.2, 1.9, 5.5 and 22 after
/// 60 or 30 iterations at 3, 4, 20 and 200.
#[test]
fn two_rotors_on_a_damper_past_the_blocks_bound_converge_as_a_row() {
    for tendon in [false, true] {
        for c in [0.0015, 0.002, 0.01, 0.1] {
            let most = damper_follows_the_midpoint_rule(c, tendon);
            assert!(most <= 2, "tendon {tendon}, c = {c}: {most} iterations");
        }
    }
}

/// A motor's torque tau = 0.01 N m on hinge 1 presses the second rotor against a stop at 0 of
/// k = 1000 N m/rad (h^2 k (1/I_a + 1/I_b) = 2): at rest it is pressed in by tau / k (the stop's
/// torque balances the motor's), the pair's angular momentum stays 0 (the torques are
/// internal), E - E0 - W + D stays at the Newton tolerance, and Newton takes at most one
/// iteration a step at rest; with the stop in each body's own block of the tangent it took up
/// to 4 (the rotors taking turns).
#[test]
fn a_stop_pressed_between_two_rotors_is_held_in_one_iteration_a_step() {
    let (i, h, tau, k) = (1e-3, 1e-3, 0.01, 1000.0);
    let forces = format!(
        r#"{{"type":"joint_limit","joint":1,"lower":-1,"upper":0,"stiffness":{k},"restitution":0.5}},
           {{"type":"motor","joint":1,"torque":{tau}}}"#
    );
    let mut s = rotors(i, 0.0, &forces, h, false);
    let (mut at_rest, mut balance, mut l) = (0u32, 0.0f64, 0.0f64);
    for step in 0..2000 {
        let info = s.step().unwrap();
        if step >= 1000 {
            at_rest = at_rest.max(info.iterations);
        }
        let inv = s.invariants();
        balance = balance.max(inv.balance.abs());
        l = l.max(inv.momentum.length());
    }
    let press = s.force_state().angles[0];
    println!(
        "pressed {press:.6e} rad (tau / k = {:.6e}); at most {at_rest} iterations a step over the last 1 s; |balance| <= {balance:.1e} J; |L| <= {l:.1e} N m s",
        tau / k
    );
    assert!((press - tau / k).abs() < 1e-3 * tau / k, "{press}");
    assert!(at_rest <= 1, "{at_rest} iterations a step at rest");
    assert!(balance < 1e-12, "{balance}");
    assert!(l < 1e-12, "{l}");
}
