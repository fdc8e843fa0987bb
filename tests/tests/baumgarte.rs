//! Index-1 with Baumgarte stabilisation (STAR-CCM+ text) and the comparison with RATTLE.
use glam::DVec3;
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::{observed_orders, pendulum_rk4};

fn run(text: &str, m: Method, f: impl Fn(&mut Settings), t_end: f64) -> (Simulation, f64, f64) {
    let sc = Scenario::parse(text).unwrap();
    let mut st = Settings::for_scenario(&sc);
    f(&mut st);
    let mut s = Simulation::new(&sc, m, st).unwrap();
    let e0 = s.invariants().energy();
    let (mut joint, mut de) = (0.0f64, 0.0f64);
    for _ in 0..(t_end / st.dt).round() as usize {
        s.step().unwrap();
        let i = s.invariants();
        joint = joint.max(i.joint_violation);
        de = de.max(((i.energy() - e0) / e0).abs());
    }
    (s, joint, de)
}

/// Max joint violation over [0, 10 s] and over [20 s, 30 s].
fn drift_windows(alpha: f64, beta: f64) -> (f64, f64) {
    let sc = Scenario::parse("nk-revolute").unwrap();
    let mut st = Settings::for_scenario(&sc);
    (st.alpha, st.beta) = (alpha, beta);
    let mut s = Simulation::new(&sc, Method::Baumgarte, st).unwrap();
    let (mut early, mut late) = (0.0f64, 0.0f64);
    for k in 0..3000 {
        s.step().unwrap();
        let v = s.invariants().joint_violation;
        if k < 1000 {
            early = early.max(v);
        } else if k >= 2000 {
            late = late.max(v);
        }
    }
    (early, late)
}

/// Without stabilisation the acceleration-level constraint lets the joints drift apart and
/// the drift grows; with the default alpha = beta = 10 it stays bounded (below 1e-2
/// over 10 s on nk-revolute at h = 0.01) and does not grow.
#[test]
fn baumgarte_gains_hold_the_joint_drift() {
    let (free_early, free_late) = drift_windows(0.0, 0.0);
    let d = Settings::for_scenario(&Scenario::parse("nk-revolute").unwrap());
    let (held_early, held_late) = drift_windows(d.alpha, d.beta);
    println!("max joint violation [0,10] s / [20,30] s: alpha = beta = 0: {free_early:.2e} / {free_late:.2e}; defaults: {held_early:.2e} / {held_late:.2e}");
    assert!(
        free_late > 3.0 * free_early,
        "no growth without stabilisation"
    );
    assert!(held_early < 1e-2, "{held_early}");
    assert!(
        held_late < 2.0 * held_early,
        "drift grows with the default gains"
    );
    assert!(held_late < free_late / 3.0);
}

/// Heun's method and RATTLE are both second order: the pendulum's centre of mass against the
/// RK4 solution of the minimal-coordinate equation.
#[test]
fn baumgarte_and_rattle_are_second_order_on_the_pendulum() {
    let theta0 = 0.5;
    let t_end = 1.0;
    let th = pendulum_rk4(theta0, t_end, 100_000);
    let exact = DVec3::new(0.0, 1.5 * th.sin(), -1.5 * th.cos());
    let text = format!("chain?links=1&joint=revolute&angle={theta0}");
    for (m, expect) in [(Method::Baumgarte, 2.0), (Method::Rattle, 2.0)] {
        let errs: Vec<f64> = [0.004, 0.002, 0.001]
            .iter()
            .map(|&h| {
                let (s, _, _) = run(
                    &text,
                    m,
                    |s| {
                        s.dt = h;
                        s.tol = 1e-13;
                    },
                    t_end,
                );
                (s.states()[0].x - exact).length()
            })
            .collect();
        let p = observed_orders(&errs);
        println!("{}: errors {errs:?}, orders {p:?}", m.name());
        for o in p {
            assert!(
                (o - expect).abs() < 0.2,
                "{}: order {o}, expected {expect}",
                m.name()
            );
        }
    }
}

/// Rank the two rotation-matrix methods on the same scenario and step.
#[test]
fn rattle_keeps_energy_better_than_baumgarte() {
    let (_, _, de_b) = run("nk-revolute", Method::Baumgarte, |_| {}, 10.0);
    let (_, _, de_r) = run("nk-revolute", Method::Rattle, |_| {}, 10.0);
    println!("nk-revolute, h = 0.01, 10 s: max relative energy error rattle {de_r:.2e}, baumgarte {de_b:.2e}");
    assert!(de_r < de_b / 10.0);
}
