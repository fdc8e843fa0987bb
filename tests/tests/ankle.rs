//! A universal joint with an offset (MuJoCo's ankle: two perpendicular hinges whose lines pass
//! `offset` apart; `RowSpec::Offset`), against an independent reference: the same body in its
//! two hinge angles, integrated by RK4 at h = 1e-5 s from Kane's equations (written here:
//! R = R_1(theta1) R_2(theta2), the centre x = p_a + R_1 (p_b0 - p_a + R_2 (x0 - p_b0))).
//! A body hangs from the ground on hinges about x (fixed in the ground, through the origin) and
//! y (fixed in the body, 4 cm below), its centre off both axes, gravity tilted, a start rate on
//! each hinge and a spring on each angle (one-term tendons). Each method converges to the
//! reference at order 2; the joint's rows hold; with dampers the director's balance is exact.
use glam::{DMat3, DVec3};
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::{assert_orders, run_for};

const G: DVec3 = DVec3::new(2.0, -3.0, -9.81);
const MASS: f64 = 1.5;
const J: DVec3 = DVec3::new(0.05, 0.06, 0.02);
/// the centre at the start, the hinge lines' points (x through the origin, y through P_B)
const X0: DVec3 = DVec3::new(0.05, 0.02, -0.4);
const P_B: DVec3 = DVec3::new(0.0, 0.0, -0.04);
/// start rates (rad/s) and the springs (N m/rad, rest angles rad)
const RATES: [f64; 2] = [1.2, -2.0];
const K: [f64; 2] = [4.0, 3.0];
const REST: [f64; 2] = [0.2, -0.3];

fn ankle(damping: f64) -> Scenario {
    let (u1, u2) = (DVec3::X, DVec3::Y);
    let w = u1 * RATES[0] + u2 * RATES[1];
    let v = u1.cross(X0) * RATES[0] + u2.cross(X0 - P_B) * RATES[1];
    let pb = P_B - X0;
    Scenario::parse(&format!(
        r#"{{"gravity":[{},{},{}],"dt":0.005,
           "bodies":[{{"mass":{MASS},"inertia":[{},{},{}],"position":[{},{},{}],
                      "velocity":[{},{},{}],"angular_velocity":[{},{},{}]}}],
           "joints":[{{"type":"universal","a":null,"b":0,"point_b":[{},{},{}],
                      "axis_a":[1,0,0],"axis_b":[0,1,0],"offset":-0.04}}],
           "tendons":[{{"terms":[{{"joint":0,"coef":1}}]}},{{"terms":[{{"joint":0,"hinge":1,"coef":1}}]}}],
           "forces":[{{"type":"tendon_spring","tendon":0,"stiffness":{},"rest_length":{},"damping":{damping}}},
                     {{"type":"tendon_spring","tendon":1,"stiffness":{},"rest_length":{},"damping":{damping}}}]}}"#,
        G.x, G.y, G.z, J.x, J.y, J.z, X0.x, X0.y, X0.z, v.x, v.y, v.z, w.x, w.y, w.z,
        pb.x, pb.y, pb.z, K[0], REST[0], K[1], REST[1],
    ))
    .unwrap_or_else(|e| panic!("{}", e.0))
}

/// The reference's pose at angles `q`: (R_1, R = R_1 R_2, centre, b's hinge point).
fn pose(q: [f64; 2]) -> (DMat3, DMat3, DVec3, DVec3) {
    let r1 = DMat3::from_axis_angle(DVec3::X, q[0]);
    let r = r1 * DMat3::from_axis_angle(DVec3::Y, q[1]);
    let pb = r1 * P_B;
    (r1, r, pb + r * (X0 - P_B), pb)
}

/// Kane's equations in (theta1, theta2) without damping: the angles' accelerations.
fn accel(q: [f64; 2], qd: [f64; 2]) -> [f64; 2] {
    let (r1, r, x, pb) = pose(q);
    let (u1, u2) = (DVec3::X, r1 * DVec3::Y);
    // partial velocities of the centre and partial angular velocities
    let jv = [u1.cross(x), u2.cross(x - pb)];
    let jw = [u1, u2];
    let w1 = u1 * qd[0];
    let w = w1 + u2 * qd[1];
    let v = jv[0] * qd[0] + jv[1] * qd[1];
    // the velocity-product parts of the accelerations (q'' = 0)
    let vpb = w1.cross(pb);
    let a0 = w1.cross(v) + ((w1.cross(u2)).cross(x - pb) + u2.cross(v - vpb)) * qd[1];
    let al0 = w1.cross(u2) * qd[1];
    let iw = r * DMat3::from_diagonal(J) * r.transpose();
    let mut m = [[0.0; 2]; 2];
    let mut f = [0.0; 2];
    for i in 0..2 {
        for k in 0..2 {
            m[i][k] = MASS * jv[i].dot(jv[k]) + jw[i].dot(iw * jw[k]);
        }
        let spring = -K[i] * (q[i] - REST[i]);
        f[i] = jv[i].dot(MASS * G) + spring
            - MASS * jv[i].dot(a0)
            - jw[i].dot(iw * al0 + w.cross(iw * w));
    }
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    [
        (m[1][1] * f[0] - m[0][1] * f[1]) / det,
        (m[0][0] * f[1] - m[1][0] * f[0]) / det,
    ]
}

/// The reference centre at `t_end`: RK4 at h = 1e-5 s in the hinge angles.
fn reference(t_end: f64) -> DVec3 {
    let h = 1e-5;
    let mut y = [0.0, 0.0, RATES[0], RATES[1]];
    let f = |y: [f64; 4]| {
        let a = accel([y[0], y[1]], [y[2], y[3]]);
        [y[2], y[3], a[0], a[1]]
    };
    let add = |y: [f64; 4], k: [f64; 4], s: f64| core::array::from_fn(|i| y[i] + s * k[i]);
    for _ in 0..(t_end / h).round() as usize {
        let k1 = f(y);
        let k2 = f(add(y, k1, h / 2.0));
        let k3 = f(add(y, k2, h / 2.0));
        let k4 = f(add(y, k3, h));
        y = core::array::from_fn(|i| y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
    }
    pose([y[0], y[1]]).2
}

#[test]
fn an_offset_universal_joint_converges_to_the_hinge_angles_reference_at_order_2() {
    let sc = ankle(0.0);
    let t_end = 1.0;
    let want = reference(t_end);
    println!("reference centre at t = {t_end} s: {want:.6?} m (start {X0:?})");
    assert!(
        (want - X0).length() > 0.05,
        "the body hardly moved: {want:?}"
    );
    for method in Method::ALL {
        let hs = [4e-3, 2e-3, 1e-3];
        let errors: Vec<f64> = hs
            .iter()
            .map(|&h| (run_for(&sc, method, h, t_end).states()[0].x - want).length())
            .collect();
        assert_orders(&format!("{} ankle", method.name()), &hs, &errors, 2.0, 0.2);
        assert!(
            errors[2] < 1e-3,
            "{}: {:e} m at h = 1e-3 s",
            method.name(),
            errors[2]
        );
    }
}

#[test]
fn an_offset_universal_joint_holds_its_rows_and_the_directors_balance() {
    let sc = ankle(0.05);
    for method in Method::ALL {
        let mut settings = Settings::for_scenario(&sc);
        settings.dt = 0.002;
        let mut sim = Simulation::new(&sc, method, settings).unwrap();
        let (mut gap, mut cosine, mut turned): (f64, f64, f64) = (0.0, 0.0, 0.0);
        for _ in 0..1000 {
            sim.step().unwrap();
            let s = sim.states()[0];
            let (n, m) = (DVec3::X, s.r * DVec3::Y);
            // b's hinge point sits offset from a's line along n x m, the hinges stay crossed
            let pb = s.x + s.r * (P_B - X0);
            gap = gap.max((pb - (-0.04) * n.cross(m)).length());
            cosine = cosine.max(n.dot(m).abs());
            turned = turned.max(sim.force_state().angles[3].abs());
        }
        let inv = sim.invariants();
        println!(
            "{}: joint gap {gap:.1e} m, axes' cosine {cosine:.1e}, second angle up to {turned:.2} rad; D {:.4} J, balance {:.2e} J",
            method.name(),
            inv.dissipated,
            inv.balance
        );
        assert!(
            turned > 0.3,
            "{}: the second hinge hardly moved",
            method.name()
        );
        assert!(inv.dissipated > 0.01, "{}", inv.dissipated);
        let tol = if method == Method::Baumgarte {
            1e-5
        } else {
            1e-9
        };
        assert!(
            gap < tol && cosine < tol,
            "{}: {gap:e} m, {cosine:e}",
            method.name()
        );
        if method == Method::Director {
            assert!(inv.balance.abs() < 1e-9, "balance {:e}", inv.balance);
        }
    }
}

#[test]
fn an_offset_on_another_joint_or_out_of_range_is_named() {
    let bad = |joint: &str| {
        Scenario::parse(&format!(
            r#"{{"bodies":[{{"mass":1,"inertia":[1,1,1],"position":[0,0,-1]}}],
               "joints":[{{"a":null,"b":0,"point_b":[0,0,1],{joint}}}]}}"#
        ))
        .err()
        .map(|e| e.0)
        .unwrap_or_default()
    };
    let e = bad(r#""type":"revolute","offset":0.1"#);
    assert!(
        e.contains("only a universal joint has an offset; a revolute joint takes none"),
        "{e}"
    );
    let e = bad(r#""type":"universal","offset":1e9"#);
    assert!(e.contains("offset (m) must be between"), "{e}");
    // an offset the start does not have: the points are not where the joint holds them
    let e = bad(r#""type":"universal","axis_a":[1,0,0],"axis_b":[0,1,0],"offset":0.1"#);
    assert!(
        e.contains("not satisfied by the initial positions") && e.contains("1.000e-1 m apart"),
        "{e}"
    );
}
