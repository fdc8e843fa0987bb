//! Andrews' squeezing mechanism (the `andrews` preset; IFToMM benchmark A03) against the
//! published reference solution of the IVP test set (Mazzia & Magherini, problem "andrews",
//! computed there in minimal coordinates by RADAU5 with tight tolerances): the seven angles at
//! t = 0.03 s. Every method converges to it with order 2, and the director keeps the energy
//! balance (motor work against the spring) at the tolerance.
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::angle_difference;

/// beta, Theta, gamma, Phi, delta, Omega, epsilon at t = 0.03 s (the test set's reference).
const REFERENCE: [f64; 7] = [
    0.158_107_711_962_990_4e2,
    -0.157_563_710_598_429_8e2,
    0.408_222_401_307_310_1e-1,
    -0.534_730_116_322_694_8,
    0.524_409_965_880_530_4,
    0.534_730_116_322_694_8,
    0.104_808_074_104_226_3e1,
];

/// The bodies' absolute angles about x3 from the reference: K1 beta, K2 beta + Theta, K3 gamma,
/// K4 Phi + delta, K5 delta, K6 Omega + epsilon, K7 epsilon.
fn reference_body_angles() -> [f64; 7] {
    let [b, th, g, ph, de, om, ep] = REFERENCE;
    [b, b + th, g, ph + de, de, om + ep, ep]
}

fn run(method: Method, h: f64) -> (Simulation, f64) {
    let sc = Scenario::parse("andrews").unwrap();
    let mut settings = Settings::for_scenario(&sc);
    settings.dt = h;
    let mut sim = Simulation::new(&sc, method, settings).unwrap();
    let mut balance = 0.0f64;
    for _ in 0..(0.03 / h).round() as usize {
        sim.step().unwrap();
        balance = balance.max(sim.invariants().balance.abs());
    }
    (sim, balance)
}

fn error(sim: &Simulation) -> f64 {
    let want = reference_body_angles();
    sim.states()
        .iter()
        .zip(want)
        .map(|(s, w)| angle_difference(s.r.x_axis.y.atan2(s.r.x_axis.x), w).abs())
        .fold(0.0, f64::max)
}

#[test]
fn andrews_squeezer_converges_to_the_reference() {
    for method in Method::ALL {
        let hs = [2e-5, 1e-5];
        let runs: Vec<(f64, f64, f64)> = hs
            .iter()
            .map(|&h| {
                let (sim, balance) = run(method, h);
                (error(&sim), balance, sim.invariants().work)
            })
            .collect();
        let ratio = runs[0].0 / runs[1].0;
        println!(
            "andrews {}: max angle error at 0.03 s {:.2e} (h = 2e-5), {:.2e} (h = 1e-5), ratio {ratio:.2}; balance {:.2e} J of W = {:.4} J",
            method.name(),
            runs[0].0,
            runs[1].0,
            runs[1].1,
            runs[1].2
        );
        assert!(runs[1].0 < 2e-4, "{}: {:e}", method.name(), runs[1].0);
        assert!(
            ratio > 3.0 && ratio < 5.5,
            "{}: ratio {ratio}",
            method.name()
        );
        if method == Method::Director {
            assert!(runs[1].1 < 1e-10, "director balance {:e}", runs[1].1);
        }
    }
    let (sim, _) = run(Method::Director, 1e-5);
    assert_eq!(sim.mechanism().dof, 1, "{}", sim.mechanism().describe());
}
