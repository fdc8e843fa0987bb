//! Contact (shapes against planes and each other), against independent references:
//! - a normal impact of a sphere on a plane: the rebound speed over the impact speed is the
//!   restitution asked (the calibration of `contact/law.rs`), for every method, at two impact
//!   speeds (the law has no velocity scale);
//! - an undamped Hertz impact: the largest indentation and the contact time of Johnson's closed
//!   form (Contact Mechanics 11.4), delta_max = (15 m v0^2 / (16 E* sqrt R))^(2/5),
//!   t_c = 2.943 delta_max / v0;
//! - with e = 1 and no friction the director keeps E to the Newton tolerance through many
//!   impacts; with damping and friction E - E0 + D stays at the tolerance and D never falls;
//! - bad input: a message naming the shape and the field.
//!
//! Friction against planes (rolling, the incline, the weight carried) is in contact_friction.rs.
use tumble::{Method, Scenario, Settings, Simulation};

use tumble_tests::contact_scene::{ball, ball_g, sim};

/// A ball without gravity against the ground at `v0`: the rebound speed, read once the ball
/// is clear of the plane (free flight, so the speed there is the speed it left with).
fn bounce(method: Method, v0: f64, e: f64, h: f64) -> f64 {
    let sc = ball_g(
        0.0,
        0.1 + 1e-4,
        -v0,
        0.0,
        0.0,
        &format!(r#""restitution":{e},"friction":0"#),
    );
    let mut s = sim(&sc, method, h);
    let mut touched = false;
    for i in 0..1_000_000 {
        if let Err(e) = s.step() {
            panic!("{} step {i}: {e:?}", method.name());
        }
        let st = s.states()[0];
        touched |= st.x.z < 0.1;
        if touched && st.x.z > 0.1 + 1e-3 {
            return st.v.z;
        }
    }
    panic!("{} did not bounce", method.name());
}
/// The measured restitution is the one asked, for every method, at two impact speeds (the
/// calibrated law has no velocity scale), at h = 2e-5 s (about 350 steps a contact at 3 m/s):
/// the director within 1e-5 (measured 2e-6: its discrete law is the calibrated one to the
/// step's order and keeps the energy), RATTLE and Baumgarte within 5e-4 (measured 1.9e-4:
/// their O(h^2) error in the contact).
#[test]
fn restitution_is_the_one_asked() {
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        for e in [0.5, 0.9] {
            for v0 in [1.0, 3.0] {
                let got = bounce(method, v0, e, 2e-5) / v0;
                println!("{} e {e} v0 {v0}: measured {got:.6}", method.name());
                let tol = if method == Method::Director {
                    1e-5
                } else {
                    5e-4
                };
                assert!(
                    (got - e).abs() < tol,
                    "{}: e {e} asked, {got} measured at v0 = {v0}",
                    method.name()
                );
            }
        }
    }
}

/// An undamped Hertz impact without gravity: Johnson's closed form for the largest
/// indentation and the contact time (Contact Mechanics, 11.4).
#[test]
fn hertz_impact_matches_johnson() {
    let (young, nu, r, m, v0) = (1e7f64, 0.45f64, 0.1f64, 1.0f64, 2.0f64);
    // the ball against a plane of the same material: 1/E* = 2 (1 - nu^2) / E
    let es = young / (2.0 * (1.0 - nu * nu));
    let dmax = (15.0 * m * v0 * v0 / (16.0 * es * r.sqrt())).powf(0.4);
    let tc = 2.943 * dmax / v0;
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        let h = 1e-6;
        let sc = ball_g(0.0, r, -v0, 0.0, 0.0, r#""restitution":1,"friction":0"#);
        let mut s = sim(&sc, method, h);
        let (mut zmin, mut t_out) = (f64::MAX, f64::NAN);
        while s.time() < 2.0 * tc {
            s.step().unwrap();
            let z = s.states()[0].x.z;
            zmin = zmin.min(z);
            if z > r && t_out.is_nan() && s.time() > 0.5 * tc {
                t_out = s.time();
            }
        }
        let (d, t) = (r - zmin, t_out);
        println!(
            "{}: dmax {d:e} (Johnson {dmax:e}), t_c {t:e} ({tc:e})",
            method.name()
        );
        assert!(
            (d / dmax - 1.0).abs() < 1e-6,
            "{}: dmax {d} vs {dmax}",
            method.name()
        );
        // t_c to the step and to Johnson's 4 digits
        assert!(
            (t - tc).abs() < 2e-4 * tc + 2.0 * h,
            "{}: t_c {t} vs {tc}",
            method.name()
        );
    }
}

/// With e = 1 and no friction the director keeps E to the Newton tolerance through every
/// impact, at a step that resolves each contact with only a few steps (a ball dropped from
/// 1 m: 5 ms contacts at h = 1 ms); RATTLE's error at the same step is shown for comparison.
#[test]
fn elastic_bounces_keep_the_energy_in_the_director() {
    let sc = ball(1.1, 0.0, 0.0, 0.0, r#""restitution":1,"friction":0"#);
    for (method, h) in [
        (Method::Director, 1e-3),
        (Method::Director, 1e-4),
        (Method::Rattle, 1e-4),
    ] {
        let mut s = sim(&sc, method, h);
        let e0 = s.invariants().energy();
        let (mut worst, mut bounces, mut below) = (0.0f64, 0, false);
        while s.time() < 3.0 {
            s.step().unwrap();
            let inv = s.invariants();
            worst = worst.max((inv.energy() - e0).abs() / e0);
            let z = s.states()[0].x.z;
            if z < 0.1 && !below {
                bounces += 1;
            }
            below = z < 0.1;
        }
        println!(
            "{} h {h}: {bounces} bounces, max |dE|/E0 {worst:e}",
            method.name()
        );
        assert!(bounces >= 3, "{bounces} bounces");
        if method == Method::Director {
            assert!(worst < 1e-11, "director at h = {h}: {worst:e}");
        } else {
            assert!(worst > 1e-9, "RATTLE would have kept the energy: {worst:e}");
        }
    }
}

/// With damping (e = 0.6) and friction on a ball thrown spinning at the ground, the director's
/// balance E - E0 + D stays at the Newton tolerance and D never decreases, at two steps; the
/// other methods' balances are O(h^2) and D never decreases there either. "At the tolerance":
/// a step's energy error is about the speed times the momentum residual that the tolerance
/// accepts (1e-12 N s), and the contact forces (up to 800 N here) keep Newton from going far
/// below it, so the balance is checked at the default tolerance and again at 1e-13, where it
/// must fall with it: an error in the discrete forms would not.
#[test]
fn damped_frictional_contact_keeps_the_balance() {
    let sc = ball(
        0.3,
        -1.0,
        1.5,
        30.0,
        r#""restitution":0.6,"friction":0.3,"static_friction":0.4"#,
    );
    let run = |method: Method, h: f64, tol: f64| {
        let mut st = Settings::for_scenario(&sc);
        st.dt = h;
        st.tol = tol;
        let mut s = Simulation::new(&sc, method, st).unwrap();
        let e0 = s.invariants().energy();
        let (mut worst, mut d_last) = (0.0f64, 0.0);
        while s.time() < 1.5 {
            s.step().unwrap();
            let inv = s.invariants();
            worst = worst.max(inv.balance.abs() / e0);
            assert!(
                inv.dissipated >= d_last,
                "{}: D fell from {d_last} to {}",
                method.name(),
                inv.dissipated
            );
            d_last = inv.dissipated;
        }
        println!(
            "{} h {h} tol {tol:e}: D {d_last:.4} J of E0 {e0:.4} J, max balance {worst:e}",
            method.name()
        );
        assert!(d_last > 0.1 * e0, "nothing dissipated");
        worst
    };
    for h in [1e-3, 2e-4] {
        // (1e-11 and 1e-13: the impacts at h = 1e-3 are taken in sub-steps, whose round-off
        // adds up to a few 1e-12, the floor a tolerance of 1e-13 meets)
        let loose = run(Method::Director, h, 1e-11);
        let tight = run(Method::Director, h, 1e-13);
        // measured (of E0): 4.5e-10 and 2.9e-12 at h = 1e-3, 8.1e-11 and 1.0e-11 at 2e-4
        assert!(loose < 1e-9, "director balance {loose:e} at h = {h}");
        assert!(
            tight < 0.3 * loose,
            "director balance at 1e-13: {tight:e} against {loose:e}"
        );
        for method in [Method::Rattle, Method::Baumgarte] {
            run(method, h, 1e-12);
        }
    }
}

/// The broad phase (`contact/broad.rs`) misses no pair: 64 balls in a cluster flying apart
/// and into each other without gravity; after every step, every pair that is in contact
/// (found by checking all 2016 pairs) was among the step's pairs. Spaced out, 1000 balls give
/// no pair at all (all 499500 pairs would be checked without it), and the director keeps the
/// energy of the elastic collisions to the tolerance.
#[test]
fn the_broad_phase_misses_no_pair() {
    let mut seed = 12345u64;
    let mut rand = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let mut bodies = Vec::new();
    for i in 0..4 {
        for j in 0..4 {
            for k in 0..4 {
                let (x, y, z) = (0.25 * i as f64, 0.25 * j as f64, 0.25 * k as f64);
                bodies.push(format!(
                    r#"{{"mass":1,"inertia":[0.004,0.004,0.004],"position":[{x},{y},{z}],"velocity":[{},{},{}],"shapes":[{{"type":"sphere","radius":0.1}}]}}"#,
                    rand(),
                    rand(),
                    rand()
                ));
            }
        }
    }
    let sc = Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"bodies":[{}],"contact":{{"material":{{"restitution":1,"friction":0}}}}}}"#,
        bodies.join(",")
    ))
    .unwrap();
    for method in [Method::Director, Method::Rattle] {
        let mut s = sim(&sc, method, 1e-3);
        let e0 = s.invariants().energy();
        let (mut touching, mut worst) = (0usize, 0.0f64);
        for _ in 0..400 {
            s.step().unwrap();
            let st = s.states();
            let pairs: Vec<[usize; 2]> = s
                .force_state()
                .broad
                .pairs
                .iter()
                .map(|p| p.shapes)
                .collect();
            for a in 0..64 {
                for b in a + 1..64 {
                    if (st[b].x - st[a].x).length() < 0.2 {
                        touching += 1;
                        assert!(
                            pairs.contains(&[a, b]),
                            "{}: balls {a} and {b} touch but were not paired",
                            method.name()
                        );
                    }
                }
            }
            worst = worst.max((s.invariants().energy() - e0).abs() / e0);
        }
        println!(
            "{}: {touching} touching pairs checked, max |dE|/E0 {worst:e}",
            method.name()
        );
        assert!(touching > 50, "too few contacts to tell: {touching}");
        if method == Method::Director {
            assert!(worst < 1e-11, "director energy {worst:e}");
        }
    }
    // 1000 balls 0.5 m apart: no pair
    let spaced: Vec<String> = (0..1000)
        .map(|i| {
            let (x, y, z) = ((i % 10) as f64 * 0.5, ((i / 10) % 10) as f64 * 0.5, (i / 100) as f64 * 0.5);
            format!(r#"{{"mass":1,"inertia":[0.004,0.004,0.004],"position":[{x},{y},{z}],"shapes":[{{"type":"sphere","radius":0.1}}]}}"#)
        })
        .collect();
    let sc = Scenario::parse(&format!(
        r#"{{"gravity":[0,0,0],"bodies":[{}]}}"#,
        spaced.join(",")
    ))
    .unwrap();
    let mut s = sim(&sc, Method::Director, 1e-3);
    s.step().unwrap();
    assert_eq!(s.force_state().broad.pairs.len(), 0);
}

/// Bad contact input: messages that name the shape or plane and the field, never a panic;
/// a start deep inside a plane or another ball is refused with its depth.
#[test]
fn bad_contact_input_is_named() {
    let msg = |body: &str, contact: &str| {
        let text = format!(
            r#"{{"bodies":[{body},{{"mass":1,"inertia":[1,1,1],"position":[3,0,1]}}]{contact}}}"#
        );
        match Scenario::parse(&text) {
            Err(e) => e.0,
            Ok(sc) => match Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)) {
                Err(e) => e,
                Ok(_) => String::from("accepted"),
            },
        }
    };
    let ball = |shape: &str| {
        format!(r#"{{"mass":1,"inertia":[1,1,1],"position":[0,0,1],"shapes":[{shape}]}}"#)
    };
    let ground = r#","contact":{"ground":true}"#;
    for (body, contact, needle) in [
        (
            ball(r#"{"type":"sphere","radius":-1}"#),
            ground,
            "bodies[0].shapes[0].radius must be between",
        ),
        (
            ball(r#"{"type":"sphere"}"#),
            ground,
            "bodies[0].shapes[0]: a sphere needs its radius",
        ),
        (
            ball(r#"{"type":"box","half":[0.1,0,0.1]}"#),
            ground,
            "bodies[0].shapes[0].half must be between",
        ),
        (
            ball(r#"{"type":"cone","radius":1}"#),
            ground,
            "bodies[0].shapes[0].type must be sphere, capsule, box or mesh",
        ),
        (
            ball(r#"{"type":"sphere","radius":0.1,"material":{"friction":-0.1}}"#),
            ground,
            "bodies[0].shapes[0].material.friction",
        ),
        (
            ball(
                r#"{"type":"sphere","radius":0.1,"material":{"friction":0.5,"static_friction":0.2}}"#,
            ),
            ground,
            "static_friction (0.2) must be at least friction (0.5)",
        ),
        (
            ball(r#"{"type":"sphere","radius":0.1}"#),
            r#","contact":{"planes":[{"point":[0,0,0],"normal":[0,0,0]}]}"#,
            "contact.planes[0].normal must be a non-zero vector",
        ),
        (
            ball(r#"{"type":"sphere","radius":0.1}"#),
            r#","contact":{"material":{"restitution":0}}"#,
            "contact.material.restitution",
        ),
        (
            ball(r#"{"type":"sphere","radius":2}"#),
            ground,
            "shape 0 (sphere on body 0) starts 1 m deep in a plane",
        ),
        (
            ball(r#"{"type":"capsule","radius":0.1,"half_length":0.2}"#),
            r#","contact":{}}],"x":{"#,
            "scenario JSON",
        ),
    ] {
        let m = msg(&body, contact);
        assert!(m.contains(needle), "{body} {contact}: {m}");
    }
    // two balls deep in each other, and a capsule deep in a sphere
    let two = |b: &str| {
        format!(
            r#"{{"gravity":[0,0,0],"bodies":[{{"mass":1,"inertia":[1,1,1],"shapes":[{{"type":"sphere","radius":0.5}}]}},{b}]}}"#
        )
    };
    let deep = Scenario::parse(&two(r#"{"mass":1,"inertia":[1,1,1],"position":[0.5,0,0],"shapes":[{"type":"sphere","radius":0.5}]}"#)).unwrap();
    let err = Simulation::new(&deep, Method::Director, Settings::for_scenario(&deep))
        .err()
        .unwrap();
    assert!(
        err.contains("bodies 0 and 1 start 0.5 m inside each other"),
        "{err}"
    );
    let cap = Scenario::parse(&two(r#"{"mass":1,"inertia":[1,1,1],"position":[0.5,0,0],"shapes":[{"type":"capsule","radius":0.1,"half_length":0.3}]}"#)).unwrap();
    let err = Simulation::new(&cap, Method::Director, Settings::for_scenario(&cap))
        .err()
        .unwrap();
    assert!(
        err.contains(
            "the sphere of body 0 and the capsule of body 1 start 0.1 m inside each other"
        ),
        "{err}"
    );
}

/// Newton's cradle with touching balls against a one-dimensional Hertzian chain integrated on
/// its own: from the moment the striker touches the row (its speed v0 taken from the run), the
/// five balls' speeds 6 ms later (the impact has run through the row) agree with the chain's
/// integrated by RK4 at 1e-8 s to 2e-3 v0 (the strings and gravity, left out of the chain, act
/// over those 6 ms), momentum along the row is kept to the same, the striker recoils a little
/// and the last ball leaves a little under v0 (the line breaks up: Hutzler et al. 2004).
#[test]
fn newtons_cradle_follows_a_hertzian_chain() {
    let (r, m, young, nu) = (0.025f64, 0.2f64, 1e8f64, 0.4f64);
    let sc = Scenario::parse("newtons-cradle?restitution=1").unwrap();
    let mut s = sim(&sc, Method::Director, 2e-5);
    // run to the first touch: the striker's gap to ball 1 closes
    let gap = |s: &Simulation| {
        let st = s.states();
        (st[1].x - st[0].x).length() - 2.0 * r
    };
    while gap(&s) > 0.0 {
        s.step().unwrap();
    }
    let v0 = s.states()[0].v.y;
    let t0 = s.time();
    while s.time() < t0 + 6e-3 {
        s.step().unwrap();
    }
    let got: Vec<f64> = s.states().iter().map(|b| b.v.y).collect();
    // the chain: overlaps d_i = 2r - (y_i+1 - y_i), force K d^(3/2) between neighbours
    let es = young / (2.0 * (1.0 - nu * nu));
    let k = 4.0 / 3.0 * es * (0.5 * r).sqrt();
    let deriv = |y: &[f64; 10]| {
        let mut d = [0.0; 10];
        d[..5].copy_from_slice(&y[5..]);
        for i in 0..4 {
            let over = 2.0 * r - (y[i + 1] - y[i]);
            if over > 0.0 {
                let f = k * over * over.sqrt();
                d[5 + i] -= f / m;
                d[5 + i + 1] += f / m;
            }
        }
        d
    };
    // the start: touching, the striker at v0
    let mut y = [0.0f64; 10];
    for (i, yi) in y.iter_mut().take(5).enumerate() {
        *yi = 2.0 * r * i as f64;
    }
    y[5] = v0;
    let h = 1e-8;
    let steps = ((s.time() - t0) / h).round() as usize;
    for _ in 0..steps {
        let k1 = deriv(&y);
        let add = |a: &[f64; 10], b: &[f64; 10], c: f64| {
            core::array::from_fn::<f64, 10, _>(|i| a[i] + c * b[i])
        };
        let k2 = deriv(&add(&y, &k1, 0.5 * h));
        let k3 = deriv(&add(&y, &k2, 0.5 * h));
        let k4 = deriv(&add(&y, &k3, h));
        for i in 0..10 {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    let want = &y[5..];
    println!("v0 {v0:.6} m/s; after 6 ms: cradle {got:.5?}, chain {want:.5?}");
    for i in 0..5 {
        assert!(
            (got[i] - want[i]).abs() < 2e-3 * v0,
            "ball {i}: {} vs {}",
            got[i],
            want[i]
        );
    }
    let p: f64 = got.iter().sum::<f64>() / v0;
    assert!((p - 1.0).abs() < 2e-3, "momentum along the row {p} v0 m");
    assert!(
        got[0] < 0.0 && got[0] > -0.1 * v0,
        "the striker recoils a little: {}",
        got[0]
    );
    assert!(
        got[4] < v0 && got[4] > 0.8 * v0,
        "the last ball leaves a little under v0: {}",
        got[4]
    );
}

/// The Hertz impact converges with order 2: the ball's height 1.5 contact times after it
/// touches (back in free flight), against the one-dimensional impact m z'' = K (r - z)^(3/2)
/// integrated on its own by RK4 at 1e-8 s, falls four times as h halves (h = 1e-4, 5e-5,
/// 2.5e-5 s: 76 to 304 steps a contact), for every method.
#[test]
fn hertz_impact_converges_with_order_two() {
    let (young, nu, r, m, v0) = (1e7f64, 0.45f64, 0.1f64, 1.0f64, 2.0f64);
    let es = young / (2.0 * (1.0 - nu * nu));
    let k = 4.0 / 3.0 * es * r.sqrt();
    let dmax = (15.0 * m * v0 * v0 / (16.0 * es * r.sqrt())).powf(0.4);
    // a whole number of the largest step (so every step size ends at the same time)
    let t_end = (1.5 * 2.943 * dmax / v0 / 1e-4).ceil() * 1e-4;
    // the reference: from touching at -v0
    let (mut z, mut v) = (r, -v0);
    let acc = |z: f64| {
        let d = r - z;
        if d > 0.0 {
            k * d * d.sqrt() / m
        } else {
            0.0
        }
    };
    let hr = 1e-8;
    for _ in 0..(t_end / hr).round() as usize {
        let (k1z, k1v) = (v, acc(z));
        let (k2z, k2v) = (v + 0.5 * hr * k1v, acc(z + 0.5 * hr * k1z));
        let (k3z, k3v) = (v + 0.5 * hr * k2v, acc(z + 0.5 * hr * k2z));
        let (k4z, k4v) = (v + hr * k3v, acc(z + hr * k3z));
        z += hr / 6.0 * (k1z + 2.0 * k2z + 2.0 * k3z + k4z);
        v += hr / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    }
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        let errors: Vec<f64> = [1e-4, 5e-5, 2.5e-5]
            .iter()
            .map(|&h| {
                let sc = ball_g(0.0, r, -v0, 0.0, 0.0, r#""restitution":1,"friction":0"#);
                let mut s = sim(&sc, method, h);
                for _ in 0..(t_end / h).round() as usize {
                    s.step().unwrap();
                }
                (s.states()[0].x.z - z).abs()
            })
            .collect();
        let orders = tumble_tests::observed_orders(&errors);
        println!(
            "{}: errors {errors:?} m, orders {orders:.2?}",
            method.name()
        );
        assert!(
            orders.iter().all(|p| (1.8..2.3).contains(p)),
            "{}: orders {orders:?}",
            method.name()
        );
        assert!(
            errors[2] < 1e-6,
            "{}: {} m at h = 2.5e-5 s",
            method.name(),
            errors[2]
        );
    }
}

/// The joint reactions of a state without a contact state (no friction slots, no pairs: what
/// the page's MuJoCo evaluator asks of a model with a floor, tumble-wasm `Evaluator::reactions`)
/// leave the plane contacts out and do not panic. (The plane probes within reach,
/// `contact/cull.rs`, were once taken from a contact state that had none found, and indexed the empty
/// slots: the robot arm beside MuJoCo stopped its worker with "unreachable".) Checked against
/// the same system without its floor: the same reactions.
#[test]
fn reactions_without_a_contact_state_leave_the_planes_out() {
    let pendulum = |floor: bool| {
        format!(
            r#"{{"gravity": [0, 0, -9.81], "bodies": [{{"mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [0.5, 0, 0.3],
                "shapes": [{{"type": "sphere", "radius": 0.1}}]}}],
              "joints": [{{"type": "revolute", "point_a": [0, 0, 0.3], "b": 0, "point_b": [-0.5, 0, 0], "axis_a": [0, 1, 0], "axis_b": [0, 1, 0]}}]{}}}"#,
            if floor {
                r#", "contact": {"ground": true}"#
            } else {
                ""
            }
        )
    };
    let mut got = Vec::new();
    for floor in [true, false] {
        let sc = Scenario::parse(&pendulum(floor)).unwrap();
        let c = tumble::compiled::Compiled::new(&sc.model).unwrap();
        assert_eq!(c.contacts.list.is_empty(), !floor);
        let mut ws = tumble::baumgarte::Workspace::new(&c);
        let none = tumble::contact::StepState::default();
        let mut out = vec![0.0; 6];
        ws.reactions(&c, &sc.initial, (&[], (&[], &none), 0.0), &mut out)
            .unwrap();
        got.push(out);
    }
    assert!(got[0].iter().any(|&x| x != 0.0), "{got:?}");
    assert_eq!(got[0], got[1]);
}
