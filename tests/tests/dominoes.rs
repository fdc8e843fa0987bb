//! The dominoes preset (`presets/contact.rs`, box corners against box faces in
//! `contact/broad.rs`), against independent references:
//! - the wave runs to the end: every block falls, none passes through the next, and they
//!   keep their order along the row;
//! - at rest, each block stands on its front lower edge and leans with its top front edge on
//!   the next one's back face: with feet s_i apart along the floor, tilts theta_i (height H,
//!   thickness T) that edge is on that face where H sin(theta_i - theta_i+1) + T
//!   = s_i cos(theta_i+1) (plane geometry); blocks leaning parallel rest at theta = acos(T / s)
//!   (75.52 degrees at s = 0.12 m, 78.46 at 0.15 m);
//! - the director keeps E - E0 - W + D at its Newton floor through the wave (the gaps are
//!   bilinear: `contact/discrete.rs`).
use tumble::{Method, Scenario, Settings, Simulation};

/// The tilt of a block about x2 (degrees): 0 standing, 90 lying on its face.
fn tilt(r: glam::DMat3) -> f64 {
    r.col(2).x.atan2(r.col(2).z).to_degrees()
}

#[test]
fn the_wave_runs_through_and_the_blocks_lean_at_the_closed_form_angle() {
    for (text, spacing, tol_balance) in [
        ("dominoes", 0.12, 1e-8),
        ("dominoes?count=20&spacing=0.15&restitution=0.5", 0.15, 1e-8),
    ] {
        let sc = Scenario::parse(text).unwrap();
        let mut s = Simulation::new(&sc, Method::Director, Settings::for_scenario(&sc)).unwrap();
        let mut worst: f64 = 0.0;
        while s.time() < 3.0 {
            s.step().unwrap();
            worst = worst.max(s.invariants().balance.abs());
        }
        let st = s.states();
        let n = st.len();
        let want = (0.03 / spacing as f64).acos().to_degrees();
        let tilts: Vec<f64> = st.iter().map(|b| tilt(b.r)).collect();
        println!("{text}: tilts {tilts:.1?} (closed form {want:.2}), |balance| <= {worst:.1e} J");
        let (h, t) = (0.2, 0.03);
        // the front lower edge of block i (x1, x3)
        let foot = |i: usize| st[i].x + st[i].r * glam::DVec3::new(0.5 * t, 0.0, -0.5 * h);
        // all but the last three lean on their neighbour, on their edges, touching the next
        // block's face (the last lies on the floor, the one before on it or beside it, and the
        // one before that leans on a block that rests on another)
        for i in 0..n - 3 {
            let (a, b) = (tilts[i].to_radians(), tilts[i + 1].to_radians());
            let s_i = foot(i + 1).x - foot(i).x;
            let gap = s_i * b.cos() - t - h * (a - b).sin();
            assert!(foot(i).z.abs() < 1e-3, "{text}: block {i} is off its edge");
            assert!(
                gap.abs() < 1e-3,
                "{text}: block {i}'s top edge is {gap:.2e} m off the next face"
            );
        }
        // the blocks in the middle of the row lean alike, at the closed form
        let mid = &tilts[1..n - 3];
        let mean = mid.iter().sum::<f64>() / mid.len() as f64;
        assert!(
            (mean - want).abs() < 0.5,
            "{text}: they lean at {mean:.2} degrees, not {want:.2}"
        );
        for (i, t) in tilts[n - 2..].iter().enumerate() {
            assert!(
                *t > 70.0,
                "{text}: block {} did not fall ({t:.1} degrees)",
                n - 2 + i
            );
        }
        // no block passed through the next: their centres keep the order of the row
        for i in 1..n {
            assert!(
                st[i].x.x > st[i - 1].x.x,
                "{text}: block {i} is behind block {}",
                i - 1
            );
        }
        assert!(worst < tol_balance, "{text}: balance {worst:.2e} J");
    }
}
