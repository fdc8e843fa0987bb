//! Lie-group RATTLE (Terze, Mueller & Zlatar 2013) on the free spinning body of their paper,
//! and on jointed systems.
use glam::{DMat3, DVec3};
use tumble::math::{orthonormality_error, skew};
use tumble::{Method, Scenario, Settings, Simulation};

fn sim(text: &str, dt: f64) -> Simulation {
    let sc = Scenario::parse(text).unwrap();
    let mut s = Settings::for_scenario(&sc);
    s.dt = dt;
    Simulation::new(&sc, Method::Rattle, s).unwrap()
}

/// Independent reference: Euler's equations J dw/dt = (J w) x w and dR/dt = R w^,
/// integrated by classical RK4 at a small step.
fn euler_rk4(j: DVec3, w0: DVec3, t_end: f64, h: f64) -> (DMat3, DVec3) {
    let f = |r: &DMat3, w: DVec3| -> (DMat3, DVec3) { (*r * skew(w), (j * w).cross(w) / j) };
    let (mut r, mut w) = (DMat3::IDENTITY, w0);
    let n = (t_end / h).round() as usize;
    for _ in 0..n {
        let (k1r, k1w) = f(&r, w);
        let (k2r, k2w) = f(&(r + k1r * (h / 2.0)), w + k1w * (h / 2.0));
        let (k3r, k3w) = f(&(r + k2r * (h / 2.0)), w + k2w * (h / 2.0));
        let (k4r, k4w) = f(&(r + k3r * h), w + k3w * h);
        r += (k1r + k2r * 2.0 + k3r * 2.0 + k4r) * (h / 6.0);
        w += (k1w + k2w * 2.0 + k3w * 2.0 + k4w) * (h / 6.0);
    }
    (r, w)
}

fn max_abs(m: &DMat3) -> f64 {
    tumble::math::max_abs(m)
}

#[test]
fn free_body_stays_on_so3_to_round_off_over_1e4_steps() {
    let mut s = sim("free-body", 0.01);
    let mut worst: f64 = 0.0;
    let mut worst_det: f64 = 0.0;
    for _ in 0..10_000 {
        s.step().unwrap();
        let r = s.states()[0].r;
        worst = worst.max(orthonormality_error(&r));
        worst_det = worst_det.max((r.determinant() - 1.0).abs());
    }
    println!("max |R^T R - I| = {worst:.2e}, max |det R - 1| = {worst_det:.2e}");
    assert!(worst < 1e-13, "{worst}");
    assert!(worst_det < 1e-13, "{worst_det}");
}

#[test]
fn free_body_converges_with_order_2_against_rk4() {
    let sc = Scenario::parse("free-body").unwrap();
    let j = sc.model.bodies[0].inertia;
    let w0 = sc.initial[0].w;
    let t_end = 4.0;
    let (r_ref, w_ref) = euler_rk4(j, w0, t_end, 1e-4);
    let mut errs = vec![];
    for h in [0.04, 0.02, 0.01, 0.005] {
        let mut s = sim("free-body", h);
        let n = (t_end / h).round() as usize;
        for _ in 0..n {
            s.step().unwrap();
        }
        let st = s.states()[0];
        let e = max_abs(&(st.r - r_ref)).max((st.w - w_ref).abs().max_element());
        errs.push(e);
    }
    let orders: Vec<f64> = errs.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    println!("errors {errs:?}, observed orders {orders:?}");
    for p in orders {
        assert!((p - 2.0).abs() < 0.15, "observed order {p}");
    }
}

/// The rotation update solves F D - D F^T = h (A - A^T) (module notes in rattle.rs), which
/// is the discrete Moser-Veselov / RATTLE map: spatial angular momentum and energy of the free
/// body are conserved in exact arithmetic. Over 2e4 steps only round-off may remain.
/// Measured: 1.9e-10 (energy) and 1.0e-10 (momentum), growing linearly at about 1e-14 (45 ulp)
/// per step, a round-off bias we have not traced yet; the bound 1e-9 still separates this
/// from the O(h^2) = 1e-4 error of a non-conserving second-order method by five decades.
#[test]
fn free_body_energy_and_momentum_conserved_to_round_off() {
    let mut s = sim("free-body", 0.01);
    let i0 = s.invariants();
    let (e0, l0) = (i0.energy(), i0.momentum);
    let (mut de, mut dl) = (0.0f64, 0.0f64);
    for _ in 0..20_000 {
        s.step().unwrap();
        let i = s.invariants();
        de = de.max(((i.energy() - e0) / e0).abs());
        dl = dl.max((i.momentum - l0).length() / l0.length());
    }
    println!("free body, 2e4 steps: relative energy error {de:.2e}, momentum {dl:.2e}");
    assert!(de < 1e-9 && dl < 1e-9, "energy {de:e}, momentum {dl:e}");
}

/// Max relative energy error, max |l3 - l3(0)| and max joint violation over `t_end`.
fn chain_run(text: &str, h: f64, t_end: f64, tol: f64) -> (f64, f64, f64, f64) {
    let sc = Scenario::parse(text).unwrap();
    let mut st = Settings::for_scenario(&sc);
    st.dt = h;
    st.tol = tol;
    let mut s = Simulation::new(&sc, Method::Rattle, st).unwrap();
    let i0 = s.invariants();
    let (mut de, mut dl3, mut joint, mut iters) = (0.0f64, 0.0f64, 0.0f64, 0u64);
    let n = (t_end / h).round() as usize;
    for _ in 0..n {
        iters += s.step().unwrap().iterations as u64;
        let i = s.invariants();
        joint = joint.max(i.joint_violation);
        dl3 = dl3.max((i.momentum.z - i0.momentum.z).abs());
        de = de.max(((i.energy() - i0.energy()) / i0.energy()).abs());
    }
    (de, dl3, joint, iters as f64 / n as f64)
}

/// Nk-spherical at h = 0.01: joints at the solver tolerance, l3 to round-off
/// (gravity and the ground joint at the origin leave it conserved, and the rotation update
/// is exactly momentum-conserving), energy error O(h^2).
#[test]
fn spherical_chain_keeps_joints_and_vertical_momentum() {
    let (de1, dl1, j1, it1) = chain_run("nk-spherical", 0.01, 10.0, 1e-12);
    let (de2, dl2, j2, it2) = chain_run("nk-spherical", 0.005, 10.0, 1e-12);
    println!("h=0.01: energy {de1:.2e} l3 {dl1:.2e} joint {j1:.2e} its {it1:.2}; h=0.005: energy {de2:.2e} l3 {dl2:.2e} joint {j2:.2e} its {it2:.2}");
    assert!(j1 <= 1e-12 && j2 <= 1e-12);
    // |l| reaches about 100 here; 1e-10 absolute is a relative 1e-12
    assert!(dl1 < 1e-10 && dl2 < 1e-10, "l3 not conserved: {dl1} {dl2}");
    let ratio = de1 / de2;
    assert!(
        ratio > 3.0 && ratio < 5.5,
        "energy error does not scale as h^2: ratio {ratio}"
    );
}

/// Energy bounded without drift on nk-spherical at h = 0.01. The chain is chaotic,
/// so the error's envelope wanders (window maxima 3e-3 to 2.5e-2); what separates a bounded
/// error from a drift is its mean: a linear drift makes the mean over [100, 200] s twice the
/// mean over [50, 100] s. One trajectory's ratio is a matter of chance: over the eight steps
/// h = 0.0100, 0.0101, ..., 0.0107 it ranged from 0.76 to 1.72 (and changed from 0.94 to 1.72
/// at h = 0.01 when a change to the joint-space solver moved the round-off), so the means are
/// taken over those eight runs. Measured: ensemble ratio 1.20 (1.14 with the earlier
/// solver); over [200, 400] and [400, 800] s the ensemble means went on 1.5e-3, 1.7e-3 (a
/// ratio of 1.15 where a drift gives 2).
#[test]
fn spherical_chain_energy_bounded_over_200_s() {
    let (mut max10, mut max100, mut mid, mut late) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let runs = 8;
    for k in 0..runs {
        let h = 0.01 * (1.0 + 0.01 * k as f64);
        let mut s = sim("nk-spherical", h);
        let e0 = s.invariants().energy();
        let (mut m, mut l, mut nm, mut nl) = (0.0, 0.0, 0, 0);
        while s.time() < 200.0 {
            s.step().unwrap();
            let de = (s.invariants().energy() - e0) / e0;
            let t = s.time();
            if t <= 10.0 {
                max10 = max10.max(de.abs());
            }
            if t <= 100.0 {
                max100 = max100.max(de.abs());
            }
            if t > 50.0 && t <= 100.0 {
                (m, nm) = (m + de, nm + 1);
            } else if t > 100.0 {
                (l, nl) = (l + de, nl + 1);
            }
        }
        mid += m / nm as f64 / runs as f64;
        late += l / nl as f64 / runs as f64;
    }
    println!("nk-spherical h = 0.0100 .. 0.0107: max |dE/E| over 10 s {max10:.2e}, 100 s {max100:.2e}; mean dE/E of {runs} runs [50,100] s {mid:.2e}, [100,200] s {late:.2e}");
    assert!(max10 < 1e-2 && max100 < 5e-2);
    let ratio = late / mid;
    assert!(
        ratio > 0.67 && ratio < 1.5,
        "energy drifts: mean error ratio {ratio}"
    );
}

/// Order 2 on nk-spherical against an independent reference: the index-1 equations
/// (Newton-Euler bodies, a different formulation and integrator) at h = 2.5e-5, where their
/// own error is below 1e-9. Positions of all bodies at t = 0.5 s.
#[test]
fn spherical_chain_converges_with_order_2() {
    let t_end = 0.5;
    let run = |m: Method, h: f64| -> Vec<DVec3> {
        let sc = Scenario::parse("nk-spherical").unwrap();
        let mut st = Settings::for_scenario(&sc);
        st.dt = h;
        st.tol = 1e-13;
        let mut s = Simulation::new(&sc, m, st).unwrap();
        for _ in 0..(t_end / h).round() as usize {
            s.step().unwrap();
        }
        s.states().iter().map(|b| b.x).collect()
    };
    let reference = run(Method::Baumgarte, 2.5e-5);
    let errs: Vec<f64> = [0.01, 0.005, 0.0025]
        .iter()
        .map(|&h| {
            run(Method::Rattle, h)
                .iter()
                .zip(&reference)
                .map(|(a, b)| (*a - *b).length())
                .fold(0.0, f64::max)
        })
        .collect();
    let orders = tumble_tests::observed_orders(&errs);
    println!("nk-spherical: errors {errs:?}, orders {orders:?}");
    for p in orders {
        assert!((p - 2.0).abs() < 0.2, "observed order {p}");
    }
}
