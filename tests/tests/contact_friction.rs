//! Friction against planes, against independent references:
//! - a sphere thrown sliding onto a plane rolls after t = 2 v0 / (7 mu g) at 5 v0 / 7;
//! - a box on an incline stays put when tan a < mu_s, and slides with a = g (sin a - mu_k cos a)
//!   when tan a > mu_s; a ball rolls down it at 5/7 g sin a;
//! - the contact forces carry the weight of a body at rest on an incline.
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::contact_scene::{ball, sim, G};
/// A ball put down sliding at v0 without spin: friction brings it to rolling at 5 v0 / 7 after
/// t = 2 v0 / (7 mu g) (a solid sphere, J = 2 m r^2 / 5), and keeps it rolling.
#[test]
fn sliding_ball_rolls_at_five_sevenths() {
    let (v0, mu) = (2.0, 0.3);
    // resting on the ground at the indentation of its weight: K d^(3/2) = m g
    let es = 1e7 / (2.0 * (1.0 - 0.45f64 * 0.45));
    let k = 4.0 / 3.0 * es * 0.1f64.sqrt();
    let d = (G / k).powf(2.0 / 3.0);
    let sc = ball(
        0.1 - d,
        0.0,
        v0,
        0.0,
        &format!(r#""restitution":0.5,"friction":{mu}"#),
    );
    let t_roll = 2.0 * v0 / (7.0 * mu * G);
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        let mut s = sim(&sc, method, 2e-4);
        let mut t_seen = f64::NAN;
        while s.time() < 2.0 * t_roll {
            s.step().unwrap();
            let st = s.states()[0];
            let w = st.r * st.w; // world angular velocity
            let slip = st.v.x - w.y * 0.1; // contact point speed: v + w x (-r z)
            if t_seen.is_nan() && slip.abs() < 1e-3 {
                t_seen = s.time();
            }
        }
        let st = s.states()[0];
        let vx = st.v.x;
        println!(
            "{}: rolls at {vx:.5} m/s (5 v0 / 7 = {:.5}) from t = {t_seen:.4} s ({t_roll:.4})",
            method.name(),
            5.0 * v0 / 7.0
        );
        assert!(
            (vx - 5.0 * v0 / 7.0).abs() < 2e-3 * v0,
            "{}: {vx}",
            method.name()
        );
        assert!(
            (t_seen - t_roll).abs() < 0.01 * t_roll,
            "{}: {t_seen} vs {t_roll}",
            method.name()
        );
    }
}

/// A box on a plane tilted by a: with tan a < mu_s it stays put (no creep: the stick spring
/// holds it), with tan a > mu_s it slides at a = g (sin a - mu_k cos a).
#[test]
fn box_on_an_incline_sticks_or_slides() {
    // the incline as gravity turned by a about y: the plane z = 0 stays
    let run = |a: f64, method: Method| {
        let (s, c) = a.sin_cos();
        let half = [0.1, 0.1, 0.05];
        let sc = Scenario::parse(&format!(
            r#"{{"gravity":[{gx},0,{gz}],"bodies":[{{"mass":1,"inertia":[0.0041667,0.0041667,0.0066667],
                "position":[0,0,{z}],"shapes":[{{"type":"box","half":{half:?}}}]}}],
               "contact":{{"planes":[{{"point":[0,0,0],"normal":[0,0,1]}}],
                 "material":{{"restitution":0.3,"friction":0.4,"static_friction":0.5}}}}}}"#,
            gx = G * s,
            gz = -G * c,
            // resting at the indentation of its weight on its four corners' springs
            z = 0.05 - G * c / (4.0 * 2.0 * 1e7 / (2.0 * (1.0 - 0.45 * 0.45)) * (0.04f64 / std::f64::consts::PI).sqrt() / 4.0)
        ))
        .unwrap();
        let mut sim = sim(&sc, method, 2e-4);
        let mut samples = vec![(0.0, 0.0, 0.0)];
        while sim.time() < 1.0 - 1e-9 {
            sim.step().unwrap();
            samples.push((sim.time(), sim.states()[0].x.x, sim.states()[0].v.x));
        }
        samples
    };
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        // 20 degrees: tan = 0.36 < 0.5: after the first 0.5 s (the stick springs take the load)
        // it does not move: no creep
        let stuck = run(20f64.to_radians(), method);
        let x = |t: f64| stuck.iter().find(|p| p.0 >= t - 1e-9).unwrap().1;
        let creep = (x(1.0) - x(0.5)) / 0.5;
        let v_end = stuck.last().unwrap().2;
        println!(
            "{} at 20 deg: moved {:e} m in all, creeps at {creep:e} m/s, v {v_end:e} m/s at 1 s",
            method.name(),
            x(1.0)
        );
        assert!(x(1.0).abs() < 1e-4, "{}: slid {} m", method.name(), x(1.0));
        assert!(
            creep.abs() < 1e-6 && v_end.abs() < 1e-6,
            "{}: creeps at {creep} m/s, {v_end} m/s",
            method.name()
        );
        // 30 degrees: tan = 0.58 > 0.5
        let a = 30f64.to_radians();
        let slid = run(a, method);
        let at = |t: f64| slid.iter().find(|p| p.0 >= t - 1e-9).unwrap().2;
        let acc = (at(1.0) - at(0.5)) / 0.5;
        let expected = G * (a.sin() - 0.4 * a.cos());
        println!(
            "{} at 30 deg: a {acc:.4} m/s^2 (g (sin a - mu_k cos a) = {expected:.4})",
            method.name()
        );
        assert!(
            (acc / expected - 1.0).abs() < 0.01,
            "{}: {acc} vs {expected}",
            method.name()
        );
    }
}

/// The contact forces drawn on the page (`Simulation::contact_forces`) are the forces that act:
/// a box stuck on an incline of 20 degrees (gravity turned, the plane z = 0) is held by its
/// corners' normal forces and frictions, which together carry its weight (statics: their sum is
/// -m g, to 1e-6 N of 9.81 N, after 1 s at rest); a ball resting on a ball (no gravity on the
/// lower one, which is held by the ground) gets two equal and opposite forces at the point
/// halfway through the overlap.
#[test]
fn contact_forces_carry_the_weight() {
    let a = 20f64.to_radians();
    let (s, c) = a.sin_cos();
    let sc = Scenario::parse(&format!(
        r#"{{"gravity":[{gx},0,{gz}],"bodies":[{{"mass":1,"inertia":[0.0041667,0.0041667,0.0066667],
            "position":[0,0,0.0499],"shapes":[{{"type":"box","half":[0.1,0.1,0.05]}}]}}],
           "contact":{{"planes":[{{"point":[0,0,0],"normal":[0,0,1]}}],
             "material":{{"restitution":0.3,"friction":0.4,"static_friction":0.5}}}}}}"#,
        gx = G * s,
        gz = -G * c,
    ))
    .unwrap();
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        let mut sim = sim(&sc, method, 2e-4);
        while sim.time() < 1.0 - 1e-9 {
            sim.step().unwrap();
        }
        let mut states = sim.states();
        let mut out = [0.0; 6 * 16];
        let n = sim.contact_forces(&mut states, &mut out);
        // four corners, each a normal force and a friction
        assert_eq!(n, 8, "{}", method.name());
        let mut sum = [0.0; 3];
        for f in out[..6 * n].chunks_exact(6) {
            assert!(
                f[2].abs() < 1e-3,
                "{}: a contact point {f:?} off the plane",
                method.name()
            );
            for i in 0..3 {
                sum[i] += f[3 + i];
            }
        }
        let weight = [G * s, 0.0, -G * c];
        let err = (0..3)
            .map(|i| (sum[i] + weight[i]).abs())
            .fold(0.0, f64::max);
        println!(
            "{}: the contact forces sum to {sum:?} N (-m g = {:?})",
            method.name(),
            weight.map(|x| -x)
        );
        assert!(err < 1e-6, "{}: {sum:?} against {weight:?}", method.name());
    }
    // two balls touching, pressed together: the forces on each are opposite, at the same point
    let sc = Scenario::parse(
        r#"{"gravity":[0,0,0],"bodies":[
            {"mass":1,"inertia":[0.004,0.004,0.004],"position":[0,0,0],"velocity":[0.1,0,0],"shapes":[{"type":"sphere","radius":0.1}]},
            {"mass":1,"inertia":[0.004,0.004,0.004],"position":[0.2,0,0],"velocity":[-0.1,0,0],"shapes":[{"type":"sphere","radius":0.1}]}]}"#,
    )
    .unwrap();
    let mut sim = sim(&sc, Method::Director, 1e-5);
    for _ in 0..20 {
        sim.step().unwrap();
    }
    let mut states = sim.states();
    let mut out = [0.0; 12];
    assert_eq!(sim.contact_forces(&mut states, &mut out), 2);
    let mid = 0.5 * (states[0].x.x + states[1].x.x);
    assert!(
        (out[0] - mid).abs() < 1e-12 && (out[6] - mid).abs() < 1e-12,
        "{out:?}"
    );
    assert!(
        out[3] != 0.0 && (out[3] + out[9]).abs() < 1e-12 * out[3].abs(),
        "{out:?}"
    );
}

/// The incline with a ball (`incline?shape=ball`): it rolls down at 5/7 g sin a where static
/// friction holds its contact point (mu_s >= 2/7 tan a), and skids at g (sin a - mu_k cos a)
/// beyond (the closed forms of a solid sphere, J = 2 m r^2 / 5).
#[test]
fn a_ball_rolls_down_the_incline_at_five_sevenths() {
    let a = 0.6f64;
    for (text, want) in [
        ("incline?shape=ball", 5.0 / 7.0 * G * a.sin()),
        (
            "incline?shape=ball&friction=0.1&static_friction=0.1",
            G * (a.sin() - 0.1 * a.cos()),
        ),
    ] {
        let sc = Scenario::parse(text).unwrap();
        for method in [Method::Director, Method::Rattle] {
            let mut s = Simulation::new(&sc, method, Settings::for_scenario(&sc)).unwrap();
            let x0 = s.states()[0].x;
            while s.time() < 1.0 - 1e-9 {
                s.step().unwrap();
            }
            let d = (s.states()[0].x - x0).length();
            let acc = 2.0 * d / (s.time() * s.time());
            println!(
                "{} {text}: a = {acc:.5} m/s^2 against {want:.5}",
                method.name()
            );
            assert!(
                (acc / want - 1.0).abs() < 2e-3,
                "{} {text}: {acc} vs {want}",
                method.name()
            );
        }
    }
}
