//! The flyball governor (the `governor` preset, IFToMM benchmark A05's data): its stiff
//! spring-dampers are rows of the director's Newton solve (`director/springs.rs`), so the
//! director takes steps 100 times longer than the explicit-in-the-forces RATTLE and
//! Baumgarte steps can, converging with order 2 to the same motion; and the governor settles
//! where the effective potential of the rotating frame has its minimum (computed here on its
//! own, from the geometry and the data alone).
use tumble::{Method, Scenario, Settings, Simulation};

fn sim(text: &str, m: Method, dt: f64) -> Simulation {
    let sc = Scenario::parse(text).unwrap();
    let mut st = Settings::for_scenario(&sc);
    st.dt = dt;
    Simulation::new(&sc, m, st).unwrap()
}

/// Runs to `t` and returns the sleeve's height (body 1) and the worst balance error.
fn sleeve_at(text: &str, m: Method, dt: f64, t: f64) -> Result<(f64, f64), String> {
    let mut s = sim(text, m, dt);
    let mut worst = 0.0f64;
    for k in 0..(t / dt).round() as usize {
        s.step()
            .map_err(|e| format!("{} at h = {dt}: step {k}: {e}", m.name()))?;
        worst = worst.max(s.invariants().balance.abs());
    }
    Ok((s.states()[1].x.z, worst))
}

/// The arm's angle from the downward vertical (body 2, the first arm, hinged at (0, 0, 1)).
fn arm_angle(s: &Simulation) -> f64 {
    let x = s.states()[2].x;
    x.x.hypot(x.y).atan2(1.0 - x.z)
}

/// The effective potential of the rotating frame for arm angle t with rigid lower links (the
/// springs at their rest length), from the preset's data: gravity on the arms (0.3 kg rods of
/// 1 m), the 5 kg balls at their ends and the 3 kg sleeve at 1 - cos t, less Omega^2 / 2 times
/// the moment of inertia about the spindle (rods: I_long cos^2 + I_perp sin^2 + m (sin t / 2)^2,
/// balls 2e-4 + 5 sin^2 t).
fn effective_potential(t: f64, omega: f64) -> f64 {
    let g = 9.81;
    let (i_long, i_perp) = (0.3 * 2e-4 / 12.0, 0.3 * (1.0 + 1e-4) / 12.0);
    let (s, c) = (t.sin(), t.cos());
    let v = g * (2.0 * (0.3 * (1.0 - 0.5 * c) + 5.0 * (1.0 - c)) + 3.0 * (1.0 - c));
    let i = 2.0 * (i_long * c * c + i_perp * s * s + 0.3 * 0.25 * s * s + 2e-4 + 5.0 * s * s);
    v - 0.5 * omega * omega * i
}

/// Started at 30 degrees and turning rigidly at 5 rad/s, the arms swing out to where the
/// effective potential is back at its start value (the Jacobi integral of the rotating frame,
/// kinetic energy relative to the frame plus that potential, is conserved with rigid links):
/// found here by bisection, 1.41285 rad. The springs stretch by F / k, about 1e-4 m, and their
/// dampers take a little energy, so the simulated turn may differ by about that (measured:
/// 1.41291 rad with both methods, 6e-5 rad beyond).
#[test]
fn the_arms_swing_out_to_the_turning_point_of_the_effective_potential() {
    let (alpha, omega) = (30f64.to_radians(), 5.0);
    let u0 = effective_potential(alpha, omega);
    let (mut lo, mut hi) = (1.0, 1.5); // U < u0 at 1.0, > u0 at 1.5
    assert!(effective_potential(lo, omega) < u0 && effective_potential(hi, omega) > u0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if effective_potential(mid, omega) < u0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let turn = 0.5 * (lo + hi);
    for (m, h) in [(Method::Director, 1e-3), (Method::Rattle, 2.5e-5)] {
        let mut s = sim("governor", m, h);
        let mut most = 0.0f64;
        for _ in 0..(1.3 / h).round() as usize {
            s.step().unwrap();
            most = most.max(arm_angle(&s));
        }
        eprintln!(
            "{}: the arms swing to {most:.6} rad, the rigid turning point is {turn:.6} rad",
            m.name()
        );
        assert!(
            (most - turn).abs() < 2e-4,
            "{}: {most} against {turn}",
            m.name()
        );
    }
}

/// The director method takes the governor at steps 100 times longer than RATTLE and Baumgarte
/// can: their spring-damper forces are explicit (in RATTLE's half-kicks, in Baumgarte's
/// accelerations), so c h / m must stay small, and both fail at h = 1e-4 s; the director's
/// Newton solve carries the spring-dampers as rows and runs the 5 s at h = 5e-3 s with the
/// energy balance at its floor.
#[test]
fn the_director_takes_the_stiff_governor_at_long_steps() {
    for m in [Method::Rattle, Method::Baumgarte] {
        let r = sleeve_at("governor", m, 1e-4, 5.0);
        assert!(
            r.is_err(),
            "{} now runs the governor at h = 1e-4: {r:?}",
            m.name()
        );
    }
    let (z, balance) = sleeve_at("governor", Method::Director, 5e-3, 5.0).unwrap();
    eprintln!("director at h = 5e-3: sleeve at {z:.4} m after 5 s, balance {balance:.2e} J");
    assert!(balance < 1e-8, "{balance}");
}

/// The director's sleeve height at t = 1 s converges with order 2 to RATTLE's at h = 2.5e-5 s
/// (an independent method, whose own error at that step is far below the director's here).
#[test]
fn the_director_converges_with_order_two_on_the_governor() {
    let (reference, _) = sleeve_at("governor", Method::Rattle, 2.5e-5, 1.0).unwrap();
    let errors: Vec<f64> = [4e-3, 2e-3, 1e-3]
        .iter()
        .map(|&h| {
            let (z, balance) = sleeve_at("governor", Method::Director, h, 1.0).unwrap();
            assert!(balance < 1e-8, "h = {h}: balance {balance}");
            (z - reference).abs()
        })
        .collect();
    let orders: Vec<f64> = errors.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    eprintln!("sleeve errors at 1 s {errors:?}, orders {orders:.2?}");
    for p in orders {
        assert!((1.8..2.3).contains(&p), "order {p}");
    }
}
