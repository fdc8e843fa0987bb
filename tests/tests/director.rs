//! The energy-momentum director integrator (Nielsen & Krenk 2013) against the paper's figures,
//! conservation laws, closed forms and an independent minimal-coordinate reference.
use glam::DVec3;
use tumble::compiled::Compiled;
use tumble::director;
use tumble::{Method, Scenario, Settings, Simulation, StepError, StepInfo};
use tumble_tests::{observed_orders, pendulum_rk4};

/// The director integrator on its own: compiled model, state and workspace.
struct Director {
    c: Compiled,
    s: director::State,
    w: director::Workspace,
}

impl Director {
    fn new(sc: &Scenario) -> Self {
        let c = Compiled::new(&sc.model).unwrap();
        let s = director::State::new(&c, &sc.initial).unwrap();
        let w = director::Workspace::new(&c);
        Director { c, s, w }
    }
    fn step(&mut self, st: &Settings) -> Result<StepInfo, StepError> {
        director::step(&self.c, &mut self.s, &mut self.w, st)
    }
    fn step_full(&mut self, st: &Settings) -> Result<StepInfo, StepError> {
        director::step_full(&self.c, &mut self.s, &mut self.w, st)
    }
    fn step_condensed(&mut self, st: &Settings) -> Result<StepInfo, StepError> {
        director::step_condensed(&self.c, &mut self.s, &mut self.w, st)
    }
    fn fallbacks(&self) -> u64 {
        self.s.fallbacks()
    }
}

fn sim(text: &str, f: impl Fn(&mut Settings)) -> Simulation {
    let sc = Scenario::parse(text).unwrap();
    let mut st = Settings::for_scenario(&sc);
    f(&mut st);
    Simulation::new(&sc, Method::Director, st).unwrap()
}

struct Run {
    de: f64,         // max relative energy error
    dl: DVec3,       // max |l_i - l_i(0)|
    lmax: DVec3,     // max |l_i|
    internal: f64,   // max |e(q)|, |C(q) p|
    orth: f64,       // max |Q^T Q - I| (= 2 |e(q)|)
    joint: f64,      // max |Phi|
    its: (u32, u32), // min and max Newton iterations per step
}

fn run(text: &str, h: f64, tol: f64, t_end: f64) -> Run {
    let mut s = sim(text, |st| {
        st.dt = h;
        st.tol = tol;
    });
    let i0 = s.invariants();
    let mut r = Run {
        de: 0.0,
        dl: DVec3::ZERO,
        lmax: DVec3::ZERO,
        internal: 0.0,
        orth: 0.0,
        joint: 0.0,
        its: (u32::MAX, 0),
    };
    for _ in 0..(t_end / h).round() as usize {
        let info = s.step().unwrap();
        let i = s.invariants();
        r.de = r.de.max(((i.energy() - i0.energy()) / i0.energy()).abs());
        r.dl = r.dl.max((i.momentum - i0.momentum).abs());
        r.lmax = r.lmax.max(i.momentum.abs());
        r.internal = r.internal.max(i.internal_violation);
        r.orth = s
            .states()
            .iter()
            .map(|b| tumble::math::orthonormality_error(&b.r))
            .fold(r.orth, f64::max);
        r.joint = r.joint.max(i.joint_violation);
        r.its = (r.its.0.min(info.iterations), r.its.1.max(info.iterations));
    }
    r
}

/// Fig. 4 and 7: the joints stay below the Newton tolerance; the directors stay orthonormal to
/// round-off (the kinematic step is a Cayley transform); C(q) p = 0 (eq. 18) is carried by the
/// dynamic equation, so each step adds at most its Newton residual: over 1000 steps it stays
/// within 10 tol (measured 1.1 tol for nk-revolute at tol = 1e-13, 0.4 tol for nk-spherical at
/// tol = 1e-12).
fn internal_checks(r: &Run, tol: f64) {
    assert!(r.joint <= tol, "joint {}", r.joint);
    assert!(r.orth <= 1e-13, "orthonormality {}", r.orth);
    assert!(r.internal <= 10.0 * tol, "internal {}", r.internal);
}

/// Section 6.1 (Fig. 3-4): energy to 1e-12, l1 the only non-zero momentum component,
/// constraints at the Newton tolerance, 2 to 4 Newton iterations per step at h = 0.01.
/// The tolerance is 1e-13 here: a step may stop with its residual anywhere below the
/// tolerance, and 1000 such residuals add up (at tol = 1e-12 the energy error after 10 s is
/// 2.3e-12).
#[test]
fn nk_revolute_conserves_energy_and_keeps_the_motion_planar() {
    let tol = 1e-13;
    let r = run("nk-revolute", 0.01, tol, 10.0);
    println!("nk-revolute h=0.01 tol={tol:e}: dE/E {:.2e}, dl {:?}, |l| max {:?}, internal {:.2e}, |Q^T Q - I| {:.2e}, joint {:.2e}, its {:?}", r.de, r.dl, r.lmax, r.internal, r.orth, r.joint, r.its);
    assert!(r.de <= 1e-12, "{}", r.de);
    assert!(r.lmax.y <= 1e-9 && r.lmax.z <= 1e-9 && r.lmax.x > 100.0);
    internal_checks(&r, tol);
    assert!(r.its.0 >= 1 && r.its.1 <= 4, "{:?}", r.its);
}

/// Section 6.2 (Fig. 6-7): at h = 0.1, energy to 1e-12 and l3 to 1e-10.
#[test]
fn nk_spherical_conserves_energy_and_l3() {
    let tol = 1e-12;
    let r = run("nk-spherical", 0.1, tol, 10.0);
    println!("nk-spherical h=0.1 tol={tol:e}: dE/E {:.2e}, dl {:?}, internal {:.2e}, |Q^T Q - I| {:.2e}, joint {:.2e}, its {:?}", r.de, r.dl, r.internal, r.orth, r.joint, r.its);
    assert!(r.de <= 1e-12, "{}", r.de);
    assert!(r.dl.z <= 1e-10, "{}", r.dl.z);
    internal_checks(&r, tol);
    // how often the condensed solve hands a step of this size to the full one: never in the
    // paper's 10 s; over 30 s a few steps, which keep the energy as well (the fallback solves
    // the same equations)
    let mut s = sim("nk-spherical", |st| st.tol = tol);
    let e0 = s.invariants().energy();
    let mut de = 0.0f64;
    let mut after_10s = None;
    for k in 1..=300 {
        s.step().unwrap();
        de = de.max(((s.invariants().energy() - e0) / e0).abs());
        if k == 100 {
            after_10s = Some(s.fallbacks());
        }
    }
    let f = s.fallbacks();
    // measured: 0 of the first 100 steps, 9 of 300, dE/E 2.0e-13
    println!("nk-spherical h=0.1: {after_10s:?} of the first 100 steps and {f} of 300 by the full solve; dE/E {de:.2e}");
    assert_eq!(after_10s, Some(0));
    assert!((1..=20).contains(&f), "{f} fallbacks");
    assert!(de <= 1e-12, "{de}");
}

/// The free body: energy and spatial angular momentum to round-off over 1e4 steps (measured
/// 1.9e-13 and 8.4e-14). The top (2000 steps, spin 30 rad/s): energy and the vertical angular
/// momentum about the pivot at the level the Newton tolerance allows (measured 1.4e-12 and
/// 4.2e-12 at tol = 1e-13, against 1e-4 for a second-order method that does not conserve them).
#[test]
fn free_body_and_top_conserve_to_round_off() {
    let r = run("free-body", 0.01, 1e-13, 100.0);
    let l0 = Scenario::parse("free-body").unwrap();
    let l0 = tumble::invariants::momentum(&l0.model, &l0.initial).length();
    println!(
        "free body 1e4 steps: dE/E {:.2e}, |dl|/|l| {:.2e}, internal {:.2e}",
        r.de,
        r.dl.max_element() / l0,
        r.internal
    );
    assert!(r.de < 1e-12 && r.dl.max_element() / l0 < 1e-12 && r.internal < 1e-12);
    let r = run("top", 0.005, 1e-13, 10.0);
    println!(
        "top 10 s: dE/E {:.2e}, dl3 {:.2e} (|l| up to {:?})",
        r.de, r.dl.z, r.lmax
    );
    assert!(r.de < 1e-11 && r.dl.z < 1e-11);
}

/// Newton converges quadratically with the exact tangent: the residual after k + 1 iterations
/// is below C r_k^2 (read from the error a step returns when stopped after k iterations). Both
/// solvers: the condensed one alone (no fallback) and Table 1 as written.
#[test]
fn newton_converges_quadratically() {
    let sc = Scenario::parse("nk-spherical").unwrap();
    let mut st = Settings::for_scenario(&sc);
    st.dt = 0.01;
    st.tol = 1e-14;
    for full in [false, true] {
        let mut seq = vec![];
        for k in 1..=3 {
            st.max_iter = k;
            let mut d = Director::new(&sc);
            let r = if full {
                d.step_full(&st)
            } else {
                d.step_condensed(&st)
            };
            match r {
                Err(StepError::NoConvergence { residual, .. }) => seq.push(residual),
                Ok(info) => seq.push(info.residual),
                Err(e) => panic!("{e}"),
            }
        }
        let name = if full { "full" } else { "condensed" };
        println!(
            "nk-spherical h=0.01, first step, {name}: residual after 1, 2, 3 iterations {seq:?}"
        );
        assert!(
            seq[1] < 10.0 * seq[0] * seq[0] && seq[1] < 1e-4 * seq[0],
            "{name}: {seq:?}"
        );
        assert!(seq[2] < 1e-9, "{name}: {seq:?}");
    }
}

/// Order 2 against the compound pendulum in its minimal coordinate (RK4, 1e5 steps).
#[test]
fn pendulum_converges_with_order_2() {
    let (theta0, t_end) = (0.5, 1.0);
    let th = pendulum_rk4(theta0, t_end, 100_000);
    let exact = DVec3::new(0.0, 1.5 * th.sin(), -1.5 * th.cos());
    let errs: Vec<f64> = [0.02, 0.01, 0.005]
        .iter()
        .map(|&h| {
            let mut s = sim(
                &format!("chain?links=1&joint=revolute&angle={theta0}"),
                |st| {
                    st.dt = h;
                    st.tol = 1e-13;
                },
            );
            for _ in 0..(t_end / h).round() as usize {
                s.step().unwrap();
            }
            (s.states()[0].x - exact).length()
        })
        .collect();
    let p = observed_orders(&errs);
    println!("pendulum: errors {errs:?}, orders {p:?}");
    for o in p {
        assert!((o - 2.0).abs() < 0.2, "order {o}");
    }
}

/// The small-amplitude period of the compound pendulum, T = 2 pi sqrt(I_p / (M g d)),
/// I_p = J1 + M d^2 = 36.25, d = 1.5, from the zero crossings of the centre of mass.
#[test]
fn pendulum_period_matches_the_closed_form() {
    let period = 2.0 * std::f64::consts::PI * (36.25f64 / (12.0 * 9.81 * 1.5)).sqrt();
    let h = 0.001;
    let mut s = sim("chain?links=1&joint=revolute&angle=0.01", |st| {
        st.dt = h;
        st.tol = 1e-14;
    });
    let mut crossings = vec![];
    let mut prev = s.states()[0].x.y;
    while crossings.len() < 5 {
        s.step().unwrap();
        let y = s.states()[0].x.y;
        if prev > 0.0 && y <= 0.0 || prev < 0.0 && y >= 0.0 {
            crossings.push(s.time() - h * y / (y - prev));
        }
        prev = y;
    }
    let measured = (crossings[4] - crossings[0]) / 2.0;
    println!("period: measured {measured:.6} s, closed form {period:.6} s");
    assert!(((measured - period) / period).abs() < 1e-4);
}

/// A step that cannot converge is reported and changes nothing.
#[test]
fn failed_newton_leaves_the_state() {
    let mut s = sim("nk-revolute", |st| {
        st.dt = 1.0;
        st.max_iter = 2;
    });
    for _ in 0..3 {
        s.step().unwrap_or_default();
    }
    let before = (s.state_hash(), s.time());
    let mut failed = false;
    for _ in 0..20 {
        let h = s.state_hash();
        match s.step() {
            Err(StepError::NoConvergence {
                iterations,
                residual,
                ..
            }) => {
                // 2 by the condensed solve, then 2 by the full one (2 if the condensed one
                // stopped on a singular or non-finite system instead)
                assert!(iterations == 2 || iterations == 4, "{iterations}");
                assert!(residual > 1e-10);
                assert_eq!(s.state_hash(), h);
                failed = true;
                break;
            }
            Err(e) => panic!("{e}"),
            Ok(_) => {}
        }
    }
    assert!(
        failed,
        "no step failed at h = 1 with 2 iterations ({before:?})"
    );
}

/// Rank the three methods on the same scenario and step by their energy error.
#[test]
fn energy_ranking_director_rattle_baumgarte() {
    let err = |m: Method| {
        let sc = Scenario::parse("nk-revolute").unwrap();
        let st = Settings::for_scenario(&sc);
        let mut s = Simulation::new(&sc, m, st).unwrap();
        let e0 = s.invariants().energy();
        let mut de = 0.0f64;
        for _ in 0..1000 {
            s.step().unwrap();
            de = de.max(((s.invariants().energy() - e0) / e0).abs());
        }
        de
    };
    let (d, r, b) = (
        err(Method::Director),
        err(Method::Rattle),
        err(Method::Baumgarte),
    );
    println!(
        "nk-revolute h=0.01 10 s, max |dE/E|: director {d:.2e}, rattle {r:.2e}, baumgarte {b:.2e}"
    );
    assert!(d < r && r < b);
}

/// The condensed Newton solve of `Director::step` (3 unknowns per body) and Table 1 as written
/// (`Director::step_full`, 24 per body, dual-number tangent) solve the same equations: after
/// 100 steps the states agree to the Newton tolerance's level. Covers ground and body-body
/// joints of both kinds, a tree, a free body and the top.
#[test]
fn condensed_and_full_newton_take_the_same_step() {
    let cases = [
        ("nk-revolute", 0.01),
        ("nk-spherical", 0.01),
        ("chain?links=6&joint=spherical", 0.01),
        ("top", 0.005),
        ("flip", 0.01),
    ];
    for (text, h) in cases {
        let sc = Scenario::parse(text).unwrap();
        let mut st = Settings::for_scenario(&sc);
        st.dt = h;
        st.tol = 1e-13;
        let mut a = Director::new(&sc);
        let mut b = Director::new(&sc);
        let (mut its_a, mut its_b) = (0, 0);
        for _ in 0..100 {
            its_a += a.step(&st).unwrap().iterations;
            its_b += b.step_full(&st).unwrap().iterations;
        }
        let mut sa = sc.initial.clone();
        let mut sb = sc.initial.clone();
        a.s.body_states(&sc.model, &mut sa);
        b.s.body_states(&sc.model, &mut sb);
        let mut d = 0.0f64;
        for (x, y) in sa.iter().zip(&sb) {
            d = d.max((x.x - y.x).abs().max_element());
            d = d.max(tumble::math::max_abs(&(x.r - y.r)));
            d = d.max((x.w - y.w).abs().max_element() * h);
        }
        println!(
            "{text}: max difference after 100 steps {d:.2e}; Newton iterations {its_a} condensed, {its_b} full; fallbacks {}",
            a.fallbacks()
        );
        assert!(d < 1e-10, "{text}: {d}");
        assert_eq!(a.fallbacks(), 0, "{text}");
    }
}

/// Hinges that carry a side load: the 16-link chain with gravity tilted towards its hinge axes
/// (3 m/s^2 along x), so the revolute joints' dot rows hold torques of about 1e4 N m and their
/// mean gradients (42) turn with the neighbouring bodies. With the cross-body term in the
/// tangent (`methods/director/cross.rs`) Newton converges quadratically: the residual after one
/// iteration is below 10 r_0^2 (without the term 8.9e-8 from 1.7e-6 at step 60, linear), and
/// the chain takes the iterations a step of the same chain without the side load (1.35 over
/// 3 s; 2.02 without the term). Energy stays at the Newton tolerance.
#[test]
fn side_loaded_hinges_converge_quadratically() {
    let mut sc = Scenario::parse("chain?links=16").unwrap();
    sc.model.gravity = DVec3::new(3.0, 0.0, -9.81);
    let mut st = Settings::for_scenario(&sc);
    (st.dt, st.tol) = (0.01, 1e-12);
    let mut d = Director::new(&sc);
    let mut s = Simulation::new(&sc, tumble::Method::Director, st).unwrap();
    let e0 = s.invariants().energy();
    let (mut its, mut de, mut dot_load) = (0, 0.0f64, 0.0f64);
    let steps = 300;
    for i in 0..steps {
        if i % 60 == 59 {
            // the residual after 0 and 1 iterations of the condensed solve from this state
            let seq: Vec<f64> = (0..2)
                .map(|k| {
                    let mut p = Director::new(&sc);
                    p.s = d.s.clone();
                    let probe = Settings {
                        max_iter: k,
                        tol: 1e-30,
                        ..st
                    };
                    match p.step_condensed(&probe) {
                        Err(StepError::NoConvergence { residual, .. }) => residual,
                        r => panic!("{r:?}"),
                    }
                })
                .collect();
            println!(
                "side-loaded chain, step {i}: residual after 0, 1 iterations {:.2e} {:.2e}",
                seq[0], seq[1]
            );
            assert!(
                seq[0] > 1e-8 && seq[1] <= 10.0 * seq[0] * seq[0],
                "step {i}: {seq:?}"
            );
        }
        d.step(&st).unwrap();
        its += s.step().unwrap().iterations;
        de = de.max(((s.invariants().energy() - e0) / e0).abs());
        // rows 3 and 4 of each hinge: the dot rows
        for l in d.s.lambda.chunks(5) {
            dot_load = dot_load.max(l[3].abs().max(l[4].abs()));
        }
    }
    let mean = its as f64 / steps as f64;
    println!("side-loaded chain: {mean:.2} iterations a step, max dot-row multiplier {dot_load:.2e}, max |dE/E| {de:.2e}");
    assert!(
        dot_load > 1e3,
        "the hinges carry no side load: {dot_load:e}"
    );
    assert!(mean <= 1.4, "{mean}");
    assert!(de <= 1e-12, "{de:e}");
}

/// The predictor (`methods/director/condensed.rs` `predict`): on hinge chains at
/// h = 0.01 the multipliers by the degree that predicted the last step best and Omega corrected
/// from the rotational momentum balance leave a residual one Newton iteration takes below the
/// tolerance. Measured over 1000 steps (the old cubic predictor in brackets): 16 links 1.03
/// iterations a step (1.50), the predictor's median residual 5e-8 (1.0e-6); 64 links 1.42
/// (2.00). Energy stays at the Newton tolerance.
#[test]
fn the_predictor_leaves_one_iteration_a_step_on_chains() {
    for (text, steps, bound) in [("chain?links=16", 1000, 1.1), ("chain?links=64", 1000, 1.5)] {
        let sc = Scenario::parse(text).unwrap();
        let mut st = Settings::for_scenario(&sc);
        (st.dt, st.tol) = (0.01, 1e-12);
        let mut d = Director::new(&sc);
        let mut s = Simulation::new(&sc, Method::Director, st).unwrap();
        let e0 = s.invariants().energy();
        let (mut its, mut de, mut r0) = (0, 0.0f64, Vec::new());
        for i in 0..steps {
            if i % 25 == 24 && text.ends_with("16") {
                // the residual of the predictor alone, from this state
                let mut p = Director::new(&sc);
                p.s = d.s.clone();
                let probe = Settings {
                    max_iter: 0,
                    tol: 1e-30,
                    ..st
                };
                match p.step_condensed(&probe) {
                    Err(StepError::NoConvergence { residual, .. }) => r0.push(residual),
                    r => panic!("{r:?}"),
                }
            }
            d.step(&st).unwrap();
            its += s.step().unwrap().iterations;
            de = de.max(((s.invariants().energy() - e0) / e0).abs());
        }
        let mean = its as f64 / steps as f64;
        r0.sort_by(f64::total_cmp);
        let median = r0.get(r0.len() / 2).copied().unwrap_or(0.0);
        println!("{text}: {mean:.3} iterations a step, predictor's median residual {median:.1e}, max |dE/E| {de:.1e}");
        assert!(mean <= bound, "{text}: {mean}");
        assert!(median <= 2e-7, "{text}: {median:e}");
        assert!(de <= 1e-12, "{text}: {de:e}");
    }
}
