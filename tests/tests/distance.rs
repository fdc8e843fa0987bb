//! Distance joints and the distance driver ("a prescribed distance between two
//! points", STAR-CCM+'s distance driver), against independent references:
//! - a body hung from a ground point by a rod (a distance joint to its centre) swings as the
//!   simple pendulum theta'' = -(g / L) sin theta, integrated here in that one coordinate by
//!   classical RK4; every method converges to it with order 2;
//! - a rod whose length a drive changes, L(t) = L0 - A (1 - cos w t) (a swing pumped by its
//!   rider): in polar coordinates theta'' = -(2 L' theta' + g sin theta) / L, and the rod's work
//!   W = integral of -T L' dt with the tension T = M (g cos theta + L theta'^2 - L''), both
//!   integrated by RK4 here; every method converges with order 2 to the motion and to W, and the
//!   director keeps E(t) - E(0) - W(t) at the Newton tolerance;
//! - a body hanging at rest on a rod carries its weight M g in the rod;
//! - the `crane` preset: the boom ends where the law of cosines puts it for the cylinder's new
//!   length, and the cylinder's work is the energy the boom and the load gained;
//! - bad input: a message naming the element and the field each.
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::observed_orders;

const G: f64 = 9.81;
const L0: f64 = 1.0;
const M: f64 = 1.5;

/// The rod's length and its first two derivatives: L0 - A (1 - cos w t), or L0 when `a` = 0.
fn length(a: f64, w: f64, t: f64) -> (f64, f64, f64) {
    let (s, c) = (w * t).sin_cos();
    (L0 - a * (1.0 - c), -a * w * s, -a * w * w * c)
}

/// The pendulum on a rod of length `length(a, w, t)` from rest at `theta0`, in its coordinate
/// theta by classical RK4 (`steps` steps to `t_end`): (theta, the rod's work W).
fn reference(theta0: f64, a: f64, w: f64, t_end: f64, steps: usize) -> (f64, f64) {
    let f = |t: f64, y: [f64; 3]| {
        let (l, l1, l2) = length(a, w, t);
        let [th, om, _] = y;
        let tension = M * (G * th.cos() + l * om * om - l2);
        [om, -(2.0 * l1 * om + G * th.sin()) / l, -tension * l1]
    };
    let h = t_end / steps as f64;
    let mut y = [theta0, 0.0, 0.0];
    let add =
        |y: [f64; 3], k: [f64; 3], s: f64| [y[0] + s * k[0], y[1] + s * k[1], y[2] + s * k[2]];
    for i in 0..steps {
        let t = i as f64 * h;
        let k1 = f(t, y);
        let k2 = f(t + 0.5 * h, add(y, k1, 0.5 * h));
        let k3 = f(t + 0.5 * h, add(y, k2, 0.5 * h));
        let k4 = f(t + h, add(y, k3, h));
        for j in 0..3 {
            y[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
        }
    }
    (y[0], y[2])
}

/// A body of mass M hung from the origin by a rod to its centre, at `theta0` from straight down
/// in the x2-x3 plane, at rest; the rod's length driven when `a` > 0.
fn swing(theta0: f64, a: f64, w: f64) -> Scenario {
    let drive = if a > 0.0 {
        // f(t) = -A + A sin(w t + pi/2) = -A (1 - cos w t): f(0) = 0, f'(0) = 0
        format!(
            r#","drives":[{{"joint":0,"type":"distance","time":{{"kind":"sine","offset":{o},"amplitude":{a},"frequency":{f},"phase":{p}}}}}]"#,
            o = -a,
            f = w / (2.0 * std::f64::consts::PI),
            p = std::f64::consts::FRAC_PI_2
        )
    } else {
        String::new()
    };
    Scenario::parse(&format!(
        r#"{{"gravity":[0,0,-9.81],"duration":10,"bodies":[{{"mass":{M},"inertia":[0.02,0.03,0.04],
             "position":[0,{y},{z}]}}],
           "joints":[{{"type":"distance","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0]}}]{drive}}}"#,
        y = L0 * theta0.sin(),
        z = -L0 * theta0.cos()
    ))
    .unwrap()
}

/// What every run of a convergence test must show (`run`'s tuples at halving steps, the observed
/// orders of the position error): order 2, the finest error below 2 mm, the rods at their
/// lengths to the Newton tolerance (Baumgarte drifts), the director's balance at the tolerance at
/// every step size.
fn check(method: Method, runs: &[(f64, f64, f64, f64)], orders: &[f64]) {
    let name = method.name();
    assert!(
        orders.iter().all(|p| (1.8..2.3).contains(p)),
        "{name} orders {orders:?}"
    );
    assert!(runs[2].0 < 2e-3, "{name}: {runs:?}");
    if method != Method::Baumgarte {
        assert!(runs[2].3 < 1e-9, "{name}: rod length {:e}", runs[2].3);
    }
    if method == Method::Director {
        assert!(
            runs.iter().all(|r| r.2 < 1e-11),
            "director balance {runs:?}"
        );
    }
}

fn sci(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x:.2e}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn sim(sc: &Scenario, method: Method, h: f64) -> Simulation {
    let mut st = Settings::for_scenario(sc);
    st.dt = h;
    Simulation::new(sc, method, st).unwrap()
}

/// Runs to `t_end` at step `h`: (the centre's distance from the reference position, |W - W_ref|,
/// the largest |E - E0 - W| relative to E's scale, the largest |rod length - L(t)|).
fn run(
    method: Method,
    sc: &Scenario,
    a: f64,
    w: f64,
    h: f64,
    t_end: f64,
    want: (f64, f64),
) -> (f64, f64, f64, f64) {
    let mut s = sim(sc, method, h);
    let (mut balance, mut gap) = (0.0f64, 0.0f64);
    let scale = M * G * L0;
    for _ in 0..(t_end / h).round() as usize {
        s.step()
            .unwrap_or_else(|e| panic!("{} h = {h}: {e}", method.name()));
        balance = balance.max(s.invariants().balance.abs() / scale);
        let x = s.states()[0].x;
        gap = gap.max((x.length() - length(a, w, s.time()).0).abs());
    }
    let (th, work) = want;
    let (l, ..) = length(a, w, t_end);
    let x = s.states()[0].x;
    let at = glam::DVec3::new(0.0, l * th.sin(), -l * th.cos());
    (
        (x - at).length(),
        (s.invariants().work - work).abs(),
        balance,
        gap,
    )
}

#[test]
fn a_rod_pendulum_swings_as_the_simple_pendulum() {
    let (theta0, t_end) = (1.0, 2.0);
    let sc = swing(theta0, 0.0, 0.0);
    let mut s = sim(&sc, Method::Director, 0.01);
    assert_eq!(
        s.mechanism().dof,
        5,
        "a rod leaves 5 of a body's 6 freedoms"
    );
    s.step().unwrap();
    let want = reference(theta0, 0.0, 0.0, t_end, 200_000);
    for method in Method::ALL {
        let hs = [0.004, 0.002, 0.001];
        let runs: Vec<_> = hs
            .iter()
            .map(|&h| run(method, &sc, 0.0, 0.0, h, t_end, want))
            .collect();
        let errors: Vec<f64> = runs.iter().map(|r| r.0).collect();
        let orders = observed_orders(&errors);
        println!(
            "{}: position error {} m at h = {hs:?}, orders {orders:.2?}; balance {:.1e}, rod length off by {:.1e} m",
            method.name(),
            sci(&errors),
            runs[2].2,
            runs[2].3
        );
        check(method, &runs, &orders);
    }
}

#[test]
fn a_distance_drive_pumps_a_swing_and_its_work_is_the_energy_given() {
    let (theta0, a, w, t_end) = (0.3, 0.2, 2.0 * (G / L0).sqrt(), 3.0);
    let sc = swing(theta0, a, w);
    let want = reference(theta0, a, w, t_end, 300_000);
    println!(
        "reference: theta({t_end}) = {:.6} rad, W = {:.6} J",
        want.0, want.1
    );
    assert!(
        want.1.abs() > 0.1,
        "the drive must do work (parametric pumping at twice the frequency)"
    );
    for method in Method::ALL {
        // Baumgarte's work, a trapezoidal sum of lambda C v with its drift in v, reaches its
        // order 2 at smaller steps (orders 1.5 and 1.8 from h = 4 ms; 1.8 and 1.9 from 2 ms)
        let hs = if method == Method::Baumgarte {
            [0.002, 0.001, 0.0005]
        } else {
            [0.004, 0.002, 0.001]
        };
        let runs: Vec<_> = hs
            .iter()
            .map(|&h| run(method, &sc, a, w, h, t_end, want))
            .collect();
        let errors: Vec<f64> = runs.iter().map(|r| r.0).collect();
        let work: Vec<f64> = runs.iter().map(|r| r.1).collect();
        let (orders, worders) = (observed_orders(&errors), observed_orders(&work));
        println!(
            "{}: position error {} m (orders {orders:.2?}), W error {} J (orders {worders:.2?}); balance {:.1e}, rod off L(t) by {:.1e} m",
            method.name(),
            sci(&errors),
            sci(&work),
            runs[2].2,
            runs[2].3
        );
        check(method, &runs, &orders);
        assert!(
            worders.iter().all(|p| (1.7..2.4).contains(p)),
            "{} W orders {worders:?}",
            method.name()
        );
        assert!(work[2] < 2e-3, "{}: W error {work:?}", method.name());
    }
}

#[test]
fn a_rod_carries_the_weight_of_a_body_hanging_at_rest() {
    let sc = swing(0.0, 0.0, 0.0);
    for method in Method::ALL {
        let mut s = sim(&sc, method, 0.01);
        for _ in 0..100 {
            s.step().unwrap();
        }
        let mut out = [0.0; 6];
        s.reactions(&mut out).unwrap();
        println!(
            "{}: force {:?}, torque {:?}",
            method.name(),
            &out[..3],
            &out[3..]
        );
        assert!(
            (out[2] - M * G).abs() < 1e-9 && out[0].abs() + out[1].abs() < 1e-9,
            "{}",
            method.name()
        );
        assert!(out[3..].iter().all(|x| x.abs() < 1e-9));
    }
}

#[test]
fn bad_distance_joints_and_drives_get_a_message() {
    let body = r#"{"mass":1,"inertia":[0.1,0.1,0.1],"position":[0,0,-1]}"#;
    let case = |joint: &str, drives: &str| {
        format!(r#"{{"duration":10,"bodies":[{body}],"joints":[{joint}],"drives":[{drives}]}}"#)
    };
    let rod = r#"{"type":"distance","b":0}"#;
    for (text, needle) in [
        (
            case(r#"{"type":"distance","b":0,"point_b":[0,0,1]}"#, ""),
            "coincide at the start",
        ),
        (
            case(r#"{"type":"distance","b":0,"length":-1}"#, ""),
            "joints[0].length must be between",
        ),
        (
            case(r#"{"type":"distance","b":0,"length":0}"#, ""),
            "joints[0].length must be between",
        ),
        (
            case(r#"{"type":"distance","b":0,"length":1.5}"#, ""),
            "not its length 1.500000 m",
        ),
        (
            case(r#"{"type":"distance","b":0,"axis_a":[1,0,0]}"#, ""),
            "takes no axes",
        ),
        (
            case(
                r#"{"type":"revolute","b":0,"point_b":[0,0,1],"length":1}"#,
                "",
            ),
            "only a distance joint has a length",
        ),
        (
            case(
                r#"{"type":"spherical","b":0,"point_b":[0,0,1]}"#,
                r#"{"joint":0,"type":"distance","time":{"kind":"linear","rate":0.1}}"#,
            ),
            "has no distance to drive",
        ),
        (
            case(
                rod,
                r#"{"joint":0,"type":"distance","time":{"kind":"linear","start":0.5,"rate":0}}"#,
            ),
            "f(0) must be 0",
        ),
        (
            case(
                rod,
                r#"{"joint":0,"type":"distance","time":{"kind":"ramp","value":-2,"time":1}}"#,
            ),
            "must stay positive",
        ),
        (
            case(
                rod,
                r#"{"joint":0,"type":"distance","time":{"kind":"sine","amplitude":1,"frequency":1e300}}"#,
            ),
            "frequency",
        ),
    ] {
        let e = match Scenario::parse(&text) {
            Err(e) => e.to_string(),
            Ok(sc) => match Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)) {
                Err(e) => e,
                Ok(_) => panic!("accepted: {text}"),
            },
        };
        println!("{needle}: {e}");
        assert!(e.contains(needle), "{text}: {e}");
    }
    // a drive on a rod the rest of the mechanism already fixes: it cannot move
    let fixed = format!(
        r#"{{"bodies":[{body}],"joints":[{{"type":"spherical","b":0,"point_b":[0,0,1]}},{{"type":"distance","b":0,"point_a":[1,0,-1]}}],
           "drives":[{{"joint":1,"type":"distance","time":{{"kind":"ramp","value":0.1,"time":1}}}}]}}"#
    );
    let sc = Scenario::parse(&fixed).unwrap();
    let e = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).err();
    println!("{e:?}");
    assert!(
        e.is_none(),
        "a rod from the side can lift a ball-jointed body: {e:?}"
    );
    let welded = format!(
        r#"{{"bodies":[{body}],"joints":[{{"type":"fixed","b":0,"point_b":[0,0,1]}},{{"type":"distance","b":0,"point_a":[1,0,-1]}}],
           "drives":[{{"joint":1,"type":"distance","time":{{"kind":"ramp","value":0.1,"time":1}}}}]}}"#
    );
    let sc = Scenario::parse(&welded).unwrap();
    let e = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc))
        .err()
        .expect("a welded body cannot be moved");
    println!("{e}");
    assert!(e.contains("cannot"), "{e}");
}

/// The `crane` preset: after the stroke the boom stands where the cylinder's new length puts it
/// (the law of cosines in the triangle hinge, cylinder base, boom point: independent of the
/// solver), the rope keeps its length, and the cylinder's work is what the system gained
/// (director: to the tolerance; RATTLE and Baumgarte within their O(h^2) balance).
#[test]
fn the_crane_boom_stands_where_the_cylinder_puts_it() {
    let sc = Scenario::parse("crane").unwrap();
    let (base, at, stroke) = (glam::DVec3::new(0.0, 0.8, -0.5), 1.2, 0.5);
    // the boom's angle alpha from horizontal: |at (cos a, sin a) - base|^2 = L^2
    let angle_for = |l: f64| {
        let (b, phi) = (base.length(), base.z.atan2(base.y));
        let c = (at * at + b * b - l * l) / (2.0 * at * b); // cos(alpha - phi)
        phi + c.acos()
    };
    let l0 = (glam::DVec3::new(0.0, at * 0.3f64.cos(), at * 0.3f64.sin()) - base).length();
    assert!(
        (angle_for(l0) - 0.3).abs() < 1e-12,
        "the formula gives the start angle"
    );
    let want = angle_for(l0 + stroke);
    for method in Method::ALL {
        let mut s = sim(&sc, method, sc.suitable_dt(method));
        while s.time() < 10.0 - 1e-9 {
            s.step().unwrap();
        }
        let st = s.states();
        let up = st[0].r.z_axis;
        let alpha = up.z.atan2(up.y);
        let tip = st[0].x + up * 1.5;
        let rope = (st[1].x + st[1].r.z_axis * 0.15 - tip).length();
        let inv = s.invariants();
        let gained = inv.kinetic + inv.potential - {
            let s0 = sim(&sc, method, 0.01);
            let i0 = s0.invariants();
            i0.kinetic + i0.potential
        };
        println!(
            "{}: boom at {alpha:.9} rad (law of cosines {want:.9}), rope {rope:.12} m, W {:.6} J, E - E0 {gained:.6} J",
            method.name(),
            inv.work
        );
        let tol = if method == Method::Baumgarte {
            1e-3
        } else {
            1e-9
        };
        assert!(
            (alpha - want).abs() < tol && (rope - 1.5).abs() < tol,
            "{}",
            method.name()
        );
        let balance = if method == Method::Director {
            1e-9
        } else {
            1e-2
        };
        assert!(
            (inv.work - gained).abs() < balance,
            "{}: W {} vs {gained}",
            method.name(),
            inv.work
        );
        assert!(
            inv.work > 600.0,
            "the cylinder lifts 60 kg and 20 kg by metres"
        );
    }
}
