//! IFToMM benchmark A02, the N-four-bar: 40 parallelogram windows of 1 m, 1 kg bars (41
//! verticals hinged to the ground, 40 couplers), revolute joints about x3, gravity along -x2,
//! released with the bars vertical and the first bar's top moving at 1 m/s. The bars turn over
//! and over, and twice a turn every bar lies horizontal: a singular position where the joint
//! Jacobian loses 40 of its rank (the degrees of freedom jump from 1 to 41). Every method runs
//! the 10 s through them; the director keeps the energy to round-off.
use tumble::{Method, Scenario, Settings, Simulation};

/// The benchmark with bars of square section `s` (m) by 1 m (the benchmark's inertias for
/// s = 0.05; the thicker rods s = 0.1).
fn a02(s: f64) -> String {
    let n = 40;
    let w = -1.0; // the verticals turn at -1 rad/s about x3: their tops move at +1 m/s along x1
    let mut bodies = Vec::new();
    let mut joints = Vec::new();
    for i in 0..=n {
        bodies.push(format!(
            r#"{{"mass": 1, "inertia": [{a}, {b}, {a}], "size": [{s}, 1, {s}], "position": [{i}, 0.5, 0], "velocity": [{v}, 0, 0], "angular_velocity": [0, 0, {w}]}}"#,
            a = (1.0 + s * s) / 12.0,
            b = 2.0 * s * s / 12.0,
            v = -w * 0.5
        ));
        joints.push(format!(
            r#"{{"type": "revolute", "point_a": [{i}, 0, 0], "b": {i}, "point_b": [0, -0.5, 0], "axis_a": [0, 0, 1], "axis_b": [0, 0, 1]}}"#
        ));
    }
    for k in 0..n {
        bodies.push(format!(
            r#"{{"mass": 1, "inertia": [{b}, {a}, {a}], "size": [1, {s}, {s}], "position": [{x}, 1, 0], "velocity": [{v}, 0, 0]}}"#,
            a = (1.0 + s * s) / 12.0,
            b = 2.0 * s * s / 12.0,
            x = k as f64 + 0.5,
            v = -w
        ));
        let c = n + 1 + k;
        for (a, side) in [(k, -0.5), (k + 1, 0.5)] {
            joints.push(format!(
                r#"{{"type": "revolute", "a": {a}, "point_a": [0, 0.5, 0], "b": {c}, "point_b": [{side}, 0, 0], "axis_a": [0, 0, 1], "axis_b": [0, 0, 1]}}"#
            ));
        }
    }
    format!(
        r#"{{"gravity": [0, -9.81, 0], "dt": 0.01, "duration": 10, "bodies": [{}], "joints": [{}]}}"#,
        bodies.join(", "),
        joints.join(", ")
    )
}

/// Measured (one run): director at h = 0.05, energy 1.6e-13 relative, joints 1.8e-14 m; RATTLE
/// at h = 0.01, 1.1e-3 (its O(h^2) error, largest at the singular passes) and 1e-12 m;
/// Baumgarte at h = 0.005, 9.9e-3 and 1.3e-4 m; the bounds below are about twice those.
/// RATTLE stopped at t = 3.23 s at h = 0.01 when the issue was filed; it runs at h = 0.02 too
/// (the test below), and the director runs at 0.05.
///
/// Runs 10 s; returns the largest relative energy error, the largest joint violation and the
/// angle the first vertical turned through (rad; NaN if the verticals ever stop being parallel
/// to 1e-6 rad, a window folded off the parallelogram).
fn run(m: Method, h: f64, sec: f64) -> (f64, f64, f64) {
    let sc = Scenario::parse(&a02(sec)).unwrap();
    let mut st = Settings::for_scenario(&sc);
    st.dt = h;
    let mut s = Simulation::new(&sc, m, st).unwrap();
    assert_eq!(s.mechanism().dof, 1, "{:?}", s.mechanism());
    let e0 = s.invariants().energy();
    let (mut de, mut dj, mut turned, mut spread) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let angle = |s: &Simulation| {
        let r = s.states()[0].r;
        r.y_axis.y.atan2(r.y_axis.x) // the bar's x2 axis in the x1-x2 plane
    };
    let mut last = angle(&s);
    for k in 0..(10.0 / h).round() as usize {
        if let Err(e) = s.step() {
            panic!(
                "{} at h = {h}: step {k} (t = {:.2} s): {e}",
                m.name(),
                s.time()
            );
        }
        let inv = s.invariants();
        de = de.max((inv.energy() - e0).abs() / e0.abs());
        dj = dj.max(inv.joint_violation);
        let a = angle(&s);
        let mut d = a - last;
        if d > std::f64::consts::PI {
            d -= 2.0 * std::f64::consts::PI;
        } else if d < -std::f64::consts::PI {
            d += 2.0 * std::f64::consts::PI;
        }
        turned += d.abs();
        last = a;
        // the verticals stay parallel (the parallelogram branch, not a window folded)
        for b in &s.states()[1..=40] {
            spread = spread.max(b.r.y_axis.cross(s.states()[0].r.y_axis).length());
        }
    }
    (de, dj, if spread > 1e-6 { f64::NAN } else { turned })
}

#[test]
fn every_method_runs_the_n_four_bar_through_its_singular_positions() {
    for (m, h, energy, joints) in [
        (Method::Director, 0.05, 1e-12, 1e-12),
        (Method::Rattle, 0.01, 2e-3, 1e-12),
        (Method::Baumgarte, 0.005, 2e-2, 3e-4),
    ] {
        let (de, dj, turned) = run(m, h, 0.05);
        eprintln!(
            "{} at h = {h}: energy error {de:.2e} (relative), joints {dj:.2e} m, the first bar turned {turned:.1} rad",
            m.name()
        );
        // more than two turns: at least four passes through the horizontal
        assert!(
            turned > 4.0 * std::f64::consts::PI,
            "{}: turned {turned}",
            m.name()
        );
        assert!(de < energy, "{}: energy error {de}", m.name());
        assert!(dj < joints, "{}: joint violation {dj}", m.name());
    }
}

/// With rods of 0.1 m square section RATTLE stopped at t = 5.1 s at h = 0.01 (the
/// issue: 6.05 s, "the rotation update of body 38"), at 9.86 s at h = 0.02, after it had left
/// the parallelogram at the singular pass near t = 3.2 s (a window's bars mirrored about the
/// horizontal; energy error 108 %, multipliers 1e8). The thin rods (0.05 m) at h = 0.02 stopped
/// at t = 8.6 s: the step to t = 8.58 s ends 0.0018 rad from a singular position, and Newton on
/// lambda, started from the last step's lambda, converged to the folded root next to it (the
/// first vertical flat, the others up to 1.8e-3 rad off it; energy -8.4 J), whose next step's
/// rotation update failed; it now starts from the last step's mu (methods/rattle/mod.rs).
/// Measured: energy 1.11e-3 at h = 0.01 for both sections, 4.43e-3 at h = 0.02 (4x: O(h^2)),
/// joints 9.2e-13 m at most; bounds about twice.
#[test]
fn rattle_runs_the_n_four_bar_of_both_sections_at_two_steps() {
    for (sec, h, energy) in [(0.1, 0.01, 2e-3), (0.1, 0.02, 9e-3), (0.05, 0.02, 9e-3)] {
        let (de, dj, turned) = run(Method::Rattle, h, sec);
        eprintln!("section {sec} m, h = {h}: energy error {de:.2e}, joints {dj:.2e} m, turned {turned:.1} rad");
        assert!(turned > 4.0 * std::f64::consts::PI, "turned {turned}");
        assert!(de < energy, "section {sec}, h = {h}: energy error {de}");
        assert!(dj < 2e-12, "section {sec}, h = {h}: joint violation {dj}");
    }
}
