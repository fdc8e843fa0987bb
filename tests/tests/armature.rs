//! A rotor inertia on a joint coordinate (MuJoCo's armature) as a tendon armature, integrated
//! by the director (`methods/director/tendons.rs`): against closed forms and an independent
//! integration of the same Lagrangian, the energy balance at the Newton tolerance, order 2.
use tumble::{Method, Scenario, Settings, Simulation};

/// Two equal rotors (I kg m^2 about z) on coaxial hinges, the first to the ground, the second to
/// the first, no gravity; on hinge 1 an armature A through a one-term tendon and a constant
/// motor torque tau; the relative spin starts at `w0`.
fn rotors(i: f64, a: f64, tau: f64, w0: f64, h: f64) -> Simulation {
    let sc = Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"bodies":[
             {{"mass":0.1,"inertia":[{i},{i},{i}],"position":[0,0,0]}},
             {{"mass":0.1,"inertia":[{i},{i},{i}],"position":[0,0,0.1],"angular_velocity":[0,0,{w0}]}}],
           "joints":[{{"type":"revolute","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0],"axis_a":[0,0,1],"axis_b":[0,0,1]}},
                     {{"type":"revolute","a":0,"point_a":[0,0,0.1],"b":1,"point_b":[0,0,0],"axis_a":[0,0,1],"axis_b":[0,0,1]}}],
           "tendons":[{{"terms":[{{"joint":1,"coef":1}}]}}],
           "forces":[{{"type":"tendon_armature","tendon":0,"armature":{a}}},
                     {{"type":"motor","joint":1,"torque":{tau}}}]}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let mut settings = Settings::for_scenario(&sc);
    settings.dt = h;
    Simulation::new(&sc, Method::Director, settings).unwrap_or_else(|e| panic!("{e}"))
}

/// The spin of body b about z (rad/s).
fn spin(s: &Simulation, b: usize) -> f64 {
    (s.states()[b].r * s.states()[b].w).z
}

/// Rotors after 0.5 s at step `h`: the largest error of the relative spin against
/// w0 + 2 tau t / (I + 2A), and of |E - E0 - W|; asserts at most 3 iterations a step and the
/// spins' sum kept.
fn rotors_run(h: f64) -> (f64, f64) {
    let (i, a, tau, w0) = (2e-3, 5e-3, 0.02, 0.5);
    let mut s = rotors(i, a, tau, w0, h);
    let e0 = s.invariants().energy();
    let accel = 2.0 * tau / (i + 2.0 * a);
    let (mut worst_rate, mut worst_balance) = (0.0f64, 0.0f64);
    let n = (0.5 / h).round() as usize;
    for k in 1..=n {
        let info = s.step().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            info.iterations <= 3,
            "step {k}: {} iterations",
            info.iterations
        );
        let rel = spin(&s, 1) - spin(&s, 0);
        worst_rate = worst_rate.max((rel - (w0 + accel * k as f64 * h)).abs());
        // the relative spin w0 starts as body b's spin alone (body a at rest): the sum is w0
        assert!(
            (spin(&s, 0) + spin(&s, 1) - w0).abs() < 1e-9,
            "the spins' sum moved"
        );
        let inv = s.invariants();
        worst_balance = worst_balance.max((inv.energy() - e0 - inv.work).abs());
    }
    (worst_rate, worst_balance)
}

/// T = I (wa^2 + wb^2) / 2 + A (wb - wa)^2 / 2 with tau on the relative angle theta: the sum of
/// the spins stays, and theta'' = 2 tau / (I + 2A) (without the armature 2 tau / I: 8.3 rad/s
/// more after 0.5 s). The body spins the director reports at the steps' ends carry its O(h^2)
/// error on a turning director (a rotor at constant w: (w h)^2 / 24 of w), so the relative
/// spin is checked to 1e-6 of itself and to order 2, the work tau theta against the kinetic
/// energy's change (the bodies' and A w^2 / 2) to rounding.
#[test]
fn two_rotors_with_an_armature_between_them_accelerate_as_i_plus_2a() {
    let (r1, b1) = rotors_run(1e-3);
    let (r2, b2) = rotors_run(2e-3);
    println!(
        "relative spin (0.5 to 2.17 rad/s) against w0 + 2 tau t / (I + 2A) within {r2:.2e} rad/s at h = 2e-3, {r1:.2e} at 1e-3 (ratio {:.2}); |E - E0 - W| <= {:.1e} J",
        r2 / r1,
        b1.max(b2)
    );
    assert!(r1 < 2e-6, "{r1}");
    assert!(
        (3.5..4.5).contains(&(r2 / r1)),
        "order {}",
        (r2 / r1).log2()
    );
    assert!(b1.max(b2) < 1e-13, "{b1} {b2}");
}

/// A planar double pendulum of two rods (mass m, length l, hinges about z at the top and the
/// elbow, gravity -y), an armature A on the elbow; `phi` the rods' angles from -y and `dphi`
/// their rates at the start.
fn pendulum_scenario(a: f64, phi: [f64; 2], dphi: [f64; 2]) -> Scenario {
    let (m, l) = (1.0, 0.5);
    let iz = m * l * l / 12.0;
    let u = |p: f64| [p.sin(), -p.cos()];
    let (u1, u2) = (u(phi[0]), u(phi[1]));
    let c1 = [0.5 * l * u1[0], 0.5 * l * u1[1]];
    let e = [l * u1[0], l * u1[1]];
    let c2 = [e[0] + 0.5 * l * u2[0], e[1] + 0.5 * l * u2[1]];
    // velocities: w x r in the plane, (-w r_y, w r_x)
    let v1 = [-dphi[0] * c1[1], dphi[0] * c1[0]];
    let v2 = [
        -dphi[0] * e[1] - dphi[1] * (c2[1] - e[1]),
        dphi[0] * e[0] + dphi[1] * (c2[0] - e[0]),
    ];
    Scenario::parse(&format!(
        r#"{{"gravity":[0,-9.81,0],"bodies":[
             {{"mass":{m},"inertia":[0.011,0.011,{iz}],"position":[{},{},0],"velocity":[{},{},0],"angular_velocity":[0,0,{}]}},
             {{"mass":{m},"inertia":[0.011,0.011,{iz}],"position":[{},{},0],"velocity":[{},{},0],"angular_velocity":[0,0,{}]}}],
           "joints":[{{"type":"revolute","a":null,"point_a":[0,0,0],"b":0,"point_b":[{},{},0],"axis_a":[0,0,1],"axis_b":[0,0,1]}},
                     {{"type":"revolute","a":0,"point_a":[{},{},0],"b":1,"point_b":[{},{},0],"axis_a":[0,0,1],"axis_b":[0,0,1]}}],
           "tendons":[{{"terms":[{{"joint":1,"coef":1}}]}}],
           "forces":[{{"type":"tendon_armature","tendon":0,"armature":{a}}}]}}"#,
        c1[0], c1[1], v1[0], v1[1], dphi[0],
        c2[0], c2[1], v2[0], v2[1], dphi[1],
        -c1[0], -c1[1],
        e[0] - c1[0], e[1] - c1[1], e[0] - c2[0], e[1] - c2[1],
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// [`pendulum_scenario`]'s run with the director at the step `h`.
fn pendulum(a: f64, phi: [f64; 2], dphi: [f64; 2], h: f64) -> Simulation {
    let sc = pendulum_scenario(a, phi, dphi);
    let mut settings = Settings::for_scenario(&sc);
    settings.dt = h;
    Simulation::new(&sc, Method::Director, settings).unwrap_or_else(|e| panic!("{e}"))
}

/// The same pendulum's Lagrangian in the absolute angles, integrated with RK4 (independently of
/// Tumble): T = M11 p1'^2 / 2 + a cos(p1 - p2) p1' p2' + M22 p2'^2 / 2 + A (p2' - p1')^2 / 2,
/// M11 = m l^2 / 3 + m l^2, M22 = m l^2 / 3, a = m l^2 / 2, V = -m g l (3/2 cos p1 + 1/2 cos p2):
///   (M11 + A) p1'' + (a c - A) p2'' = -a s p2'^2 - 3/2 m g l sin p1
///   (a c - A) p1'' + (M22 + A) p2'' =  a s p1'^2 - 1/2 m g l sin p2     (c, s of p1 - p2)
/// Returns body 1's centre at `t` (m).
fn reference(a: f64, phi: [f64; 2], dphi: [f64; 2], t: f64) -> [f64; 2] {
    let (m, l, g) = (1.0, 0.5, 9.81);
    let (m11, m22, k) = (
        m * l * l / 3.0 + m * l * l,
        m * l * l / 3.0,
        m * l * l / 2.0,
    );
    let f = |y: [f64; 4]| -> [f64; 4] {
        let (c, s) = ((y[0] - y[1]).cos(), (y[0] - y[1]).sin());
        let (a11, a12, a22) = (m11 + a, k * c - a, m22 + a);
        let b1 = -k * s * y[3] * y[3] - 1.5 * m * g * l * y[0].sin();
        let b2 = k * s * y[2] * y[2] - 0.5 * m * g * l * y[1].sin();
        let det = a11 * a22 - a12 * a12;
        [
            y[2],
            y[3],
            (a22 * b1 - a12 * b2) / det,
            (a11 * b2 - a12 * b1) / det,
        ]
    };
    let n = 200_000;
    let dt = t / n as f64;
    let mut y = [phi[0], phi[1], dphi[0], dphi[1]];
    let add = |y: [f64; 4], k: [f64; 4], s: f64| core::array::from_fn(|i| y[i] + s * k[i]);
    for _ in 0..n {
        let k1 = f(y);
        let k2 = f(add(y, k1, dt / 2.0));
        let k3 = f(add(y, k2, dt / 2.0));
        let k4 = f(add(y, k3, dt));
        y = core::array::from_fn(|i| y[i] + dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
    }
    [
        l * y[0].sin() + 0.5 * l * y[1].sin(),
        -l * y[0].cos() - 0.5 * l * y[1].cos(),
    ]
}

/// Body 1's centre after `t` s of the director at step `h`, and the largest |E - E0| on the way.
fn director(a: f64, phi: [f64; 2], dphi: [f64; 2], h: f64, t: f64) -> ([f64; 2], f64) {
    let mut s = pendulum(a, phi, dphi, h);
    let e0 = s.invariants().energy();
    let mut balance = 0.0f64;
    for _ in 0..(t / h).round() as usize {
        s.step().unwrap_or_else(|e| panic!("{e}"));
        balance = balance.max((s.invariants().energy() - e0).abs());
    }
    let x = s.states()[1].x;
    ([x.x, x.y], balance)
}

/// The elbow's armature between two moving bodies (where it is not a body's inertia): the
/// director follows the independent RK4 to O(h^2) (order 2 between h = 2e-3 and 1e-3), keeps
/// E (the bodies' T and V and A w^2 / 2) to the Newton tolerance, and the armature is seen:
/// without it the pendulum is centimetres elsewhere.
#[test]
fn a_double_pendulum_with_an_armature_on_the_elbow_follows_its_lagrangian() {
    let (a, phi, dphi, t) = (0.02, [1.1, 0.2], [0.5, -1.5], 2.0);
    let want = reference(a, phi, dphi, t);
    let dist = |p: [f64; 2]| ((p[0] - want[0]).powi(2) + (p[1] - want[1]).powi(2)).sqrt();
    let (p1, b1) = director(a, phi, dphi, 1e-3, t);
    let (p2, b2) = director(a, phi, dphi, 2e-3, t);
    let (e1, e2) = (dist(p1), dist(p2));
    let without = dist(reference(0.0, phi, dphi, t));
    println!(
        "body 1's centre at {t} s against RK4 of the Lagrangian: {e2:.2e} m at h = 2e-3, {e1:.2e} m at h = 1e-3 (ratio {:.2}); without the armature RK4 puts it {without:.3} m away; |E - E0| <= {:.1e} J",
        e2 / e1,
        b1.max(b2)
    );
    assert!(e1 < 1e-4, "{e1}");
    assert!(
        (3.5..4.5).contains(&(e2 / e1)),
        "order {}",
        (e2 / e1).log2()
    );
    assert!(without > 1e-2, "{without}");
    assert!(b1.max(b2) < 1e-10, "{b1} {b2}");
}

/// An armature is the director's: RATTLE and Baumgarte refuse it by name, and the JSON form
/// keeps it through a round trip.
#[test]
fn an_armature_is_refused_by_rattle_and_baumgarte_and_kept_by_the_json_form() {
    let sc = pendulum_scenario(0.02, [0.3, 0.1], [0.0, 0.0]);
    let forces = tumble::custom::forces_json(&sc.model).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        forces,
        serde_json::json!([{"type":"tendon_armature","tendon":0,"armature":0.02}])
    );
    for method in [Method::Rattle, Method::Baumgarte] {
        let err = Simulation::new(&sc, method, Settings::for_scenario(&sc))
            .err()
            .unwrap_or_else(|| panic!("{method:?} took an armature"));
        assert!(
            err.to_string().contains("forces[0] (tendon_armature)"),
            "{err}"
        );
    }
    let bad = r#"{"bodies":[{"mass":1,"inertia":[1,1,1]}],
        "joints":[{"type":"revolute","a":null,"b":0,"axis_a":[0,0,1],"axis_b":[0,0,1]}],
        "tendons":[{"terms":[{"joint":0,"coef":1}]}],
        "forces":[{"type":"tendon_armature","tendon":0,"armature":-1}]}"#;
    let err = Scenario::parse(bad).expect_err("a negative armature was taken");
    assert!(err.to_string().contains("armature"), "{err}");
}
