//! Sub-stepping through contact (`crates/tumble/src/simulation/substep.rs`): impacts that a
//! step of 0.01 s cannot resolve are taken in sub-steps, so they are neither missed nor
//! tunnelled through, against independent references:
//! - a 10 cm ball at 14 m/s (dropped from 10 m) on the ground at h = 0.01 s: it rebounds at
//!   the restitution asked to 1 % (measured: within 0.13 % for the director, 0.5 % for
//!   RATTLE and Baumgarte), and with e = 1 keeps its energy (the director to the tolerance);
//!   the steps in flight are whole, the impact's are split;
//! - two balls closing at 40 m/s, 0.4 m a step against radii of 5 cm: they collide and, being
//!   elastic and equal, exchange their velocities (momentum and energy conservation);
//! - a step that needs no sub-steps is the step it was: the stored state hashes of the contact
//!   presets (`robustness.rs`) hold.
use tumble::{Method, Scenario, Settings, Simulation};

fn sim(text: &str, method: Method, h: f64) -> Simulation {
    let sc = Scenario::parse(text).unwrap();
    let mut st = Settings::for_scenario(&sc);
    st.dt = h;
    Simulation::new(&sc, method, st).unwrap()
}

/// A ball of 0.1 m and 1 kg without gravity, 0.5 m above the ground, moving down at `v0`.
fn ball(v0: f64, e: f64) -> String {
    format!(
        r#"{{"gravity":[0,0,0],"bodies":[{{"mass":1,"inertia":[0.004,0.004,0.004],
            "position":[0,0,0.6],"velocity":[0,0,{}],"shapes":[{{"type":"sphere","radius":0.1}}]}}],
           "contact":{{"planes":[{{"point":[0,0,0],"normal":[0,0,1]}}],
             "material":{{"restitution":{e},"friction":0}}}}}}"#,
        -v0
    )
}

#[test]
fn a_fast_impact_at_a_large_step_is_resolved() {
    let v0 = (2.0f64 * 9.81 * 10.0).sqrt(); // 14.0 m/s: dropped from 10 m
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        for e in [0.5, 0.8, 1.0] {
            let mut s = sim(&ball(v0, e), method, 0.01);
            let e0 = s.invariants().energy();
            let (mut most, mut steps) = (1, 0);
            let v = loop {
                s.step()
                    .unwrap_or_else(|err| panic!("{} e {e}: {err:?}", method.name()));
                most = most.max(s.substeps());
                steps += 1;
                let st = s.states()[0];
                if st.v.z > 0.0 && st.x.z > 0.1 + 1e-3 {
                    // clear of the ground: the next step, in flight, is whole
                    s.step().unwrap();
                    assert_eq!(s.substeps(), 1, "{}", method.name());
                    break st.v.z;
                }
                assert!(steps < 100, "{} e {e}: no rebound", method.name());
            };
            let inv = s.invariants();
            println!(
                "{} e {e}: rebound {:.5} of the impact speed, {most} sub-steps at most, E - E0 - W + D = {:.2e} J of {e0:.1} J",
                method.name(),
                v / v0,
                inv.balance
            );
            assert!(
                (v / v0 - e).abs() < 0.01 * e,
                "{} e {e}: {}",
                method.name(),
                v / v0
            );
            assert!(
                most > 1 && most < tumble::MAX_SUBSTEPS,
                "{}: {most}",
                method.name()
            );
            if method == Method::Director {
                assert!(inv.balance.abs() < 1e-9 * e0, "{}", inv.balance);
            }
        }
    }
}

#[test]
fn balls_closing_fast_collide_rather_than_pass_through() {
    let text = r#"{"gravity":[0,0,0],"bodies":[
        {"mass":1,"inertia":[0.001,0.001,0.001],"position":[-0.5,0,0],"velocity":[20,0,0],"shapes":[{"type":"sphere","radius":0.05,"material":{"restitution":1}}]},
        {"mass":1,"inertia":[0.001,0.001,0.001],"position":[0.5,0,0],"velocity":[-20,0,0],"shapes":[{"type":"sphere","radius":0.05,"material":{"restitution":1}}]}]}"#;
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        let mut s = sim(text, method, 0.01);
        for _ in 0..5 {
            s.step().unwrap();
        }
        let st = s.states();
        println!(
            "{}: velocities {} and {} m/s after 0.05 s",
            method.name(),
            st[0].v.x,
            st[1].v.x
        );
        // they met at 0.0225 s and bounced back: exchanged velocities (equal masses, e = 1)
        assert!(
            (st[0].v.x + 20.0).abs() < 0.2 && (st[1].v.x - 20.0).abs() < 0.2,
            "{}",
            method.name()
        );
        assert!(
            st[0].x.x < st[1].x.x,
            "{}: they passed through each other",
            method.name()
        );
    }
}

/// The contact presets' own steps resolve their contacts: no step of theirs is split (so their
/// runs are those recorded before sub-stepping), for every method, over their first 2 s. (The
/// ball pit's, the break's, the falling chain's, the stop pendulum's and the dominoes' steps are not always enough: some of their
/// impacts are split, printed here.)
#[test]
fn the_presets_own_steps_need_no_sub_steps() {
    for (name, method) in [
        ("ball-pit", Method::Director),
        ("ball-pit", Method::Rattle),
        ("ball-pit", Method::Baumgarte),
        ("billiards", Method::Director),
        ("falling-chain", Method::Director),
        // its 10 Hz stop at 5 ms (omega h = 0.31): each impact on the stop in two sub-steps
        ("stop-pendulum", Method::Director),
        ("dominoes", Method::Director),
    ] {
        let sc = Scenario::parse(name).unwrap();
        let mut s = Simulation::new(&sc, method, Settings::for_scenario(&sc)).unwrap();
        let (mut split, mut steps, mut most) = (0, 0, 1);
        while s.time() < 2.0 {
            s.step().unwrap();
            steps += 1;
            split += (s.substeps() > 1) as u32;
            most = most.max(s.substeps());
        }
        println!(
            "{name} with {}: {split} of {steps} steps split, into {most} at most",
            method.name()
        );
    }
    for name in ["bouncing-ball", "newtons-cradle", "incline"] {
        let sc = Scenario::parse(name).unwrap();
        for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
            let mut s = Simulation::new(&sc, method, Settings::for_scenario(&sc)).unwrap();
            let mut most = 1;
            while s.time() < 2.0 {
                s.step().unwrap();
                most = most.max(s.substeps());
            }
            assert_eq!(most, 1, "{name} with {}", method.name());
        }
    }
}
