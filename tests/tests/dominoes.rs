//! The dominoes preset (`presets/contact.rs`, box corners against box faces in
//! `contact/broad.rs`), against independent references:
//! - the wave runs to the end: every block falls, none passes through the next, and they
//!   keep their order along the row;
//! - at rest, each block stands on its front lower edge and touches the next one: an edge of
//!   one on a face of the other (rigid-body geometry of the final states: the corners' distances
//!   from the faces), no corner inside the other block; blocks leaning face to face with their
//!   feet s apart rest at theta = acos(T / s) (thickness T: s cos(theta) = T closes the gap
//!   between the two parallel faces; 75.52 degrees at s = 0.12 m, 78.46 at 0.15 m);
//! - the director keeps E - E0 - W + D at its Newton floor through the wave (the gaps are
//!   bilinear: `methods/director/contact.rs`).
use tumble::{Method, Scenario, Settings, Simulation};

/// The tilt of a block about x2 (degrees): 0 standing, 90 lying on its face.
fn tilt(r: glam::DMat3) -> f64 {
    r.col(2).x.atan2(r.col(2).z).to_degrees()
}

#[test]
fn the_wave_runs_through_and_the_blocks_lean_at_the_closed_form_angle() {
    for (text, spacing, tol_balance) in [
        ("dominoes", 0.12, 1e-8),
        // e = 0.4: at 0.5 (this case's e until a box's corners were damped on their share of
        // the mass, law.rs; they had twice the damping asked before) the blocks from the tenth
        // on bounce off each other and land where they fall, not leaning in a row
        ("dominoes?count=20&spacing=0.15&restitution=0.4", 0.15, 1e-8),
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
        let want = (0.03f64 / spacing).acos().to_degrees();
        let tilts: Vec<f64> = st.iter().map(|b| tilt(b.r)).collect();
        println!("{text}: tilts {tilts:.1?} (closed form {want:.2}), |balance| <= {worst:.1e} J");
        let half = glam::DVec3::new(0.015, 0.05, 0.1);
        let corners = |i: usize| -> Vec<glam::DVec3> {
            (0..8u32)
                .map(|c| {
                    let sg = |bit: u32| if c & bit == 0 { -1.0 } else { 1.0 };
                    st[i].x
                        + st[i].r * glam::DVec3::new(sg(1) * half.x, sg(2) * half.y, sg(4) * half.z)
                })
                .collect()
        };
        // how far the world point p is inside block i (> 0 inside; the least of its depths
        // behind the six faces), and its gap from block i's face (axis k, side sg)
        let local = |i: usize, p: glam::DVec3| st[i].r.transpose() * (p - st[i].x);
        let inside = |i: usize, p: glam::DVec3| (half - local(i, p).abs()).min_element();
        // the foot: the front lower edge of block i on the floor
        let foot = |i: usize| st[i].x + st[i].r * glam::DVec3::new(half.x, 0.0, -half.z);
        for i in 0..n - 1 {
            // the corners of each block over the facing face of the other (block i's front
            // face, x1 = +T/2; block i+1's back face, x1 = -T/2): their least distance from it
            let mut touch = f64::INFINITY;
            for (a, b, side) in [(i, i + 1, -1.0), (i + 1, i, 1.0)] {
                for p in corners(a) {
                    let q = local(b, p);
                    if q.y.abs() <= 1.01 * half.y && q.z.abs() <= 1.01 * half.z {
                        touch = touch.min((side * q.x - half.x).abs());
                    }
                    let deep = inside(b, p);
                    assert!(
                        deep < 1e-3,
                        "{text}: a corner of block {a} is {deep:.1e} m inside block {b}"
                    );
                }
            }
            assert!(
                touch < 1e-4,
                "{text}: blocks {i} and {} do not touch ({touch:.1e} m)",
                i + 1
            );
            if i < n - 2 {
                assert!(foot(i).z.abs() < 1e-4, "{text}: block {i} is off its edge");
            }
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
