//! Independent references shared by the physics tests, and the command line the CLI tests run.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The compound pendulum of `chain?links=1&joint=revolute&angle=theta0` in its one minimal
/// coordinate: I_p theta'' = -M g d sin(theta), I_p = J1 + M d^2, integrated by classical RK4
/// with `steps` steps to `t_end`. Returns theta(t_end); the centre of mass is then at
/// (0, d sin theta, -d cos theta).
pub fn pendulum_rk4(theta0: f64, t_end: f64, steps: usize) -> f64 {
    let (m, g, d, j1) = (12.0, 9.81, 1.5, 9.25);
    let k = m * g * d / (j1 + m * d * d);
    let f = |th: f64, om: f64| (om, -k * th.sin());
    let h = t_end / steps as f64;
    let (mut th, mut om) = (theta0, 0.0);
    for _ in 0..steps {
        let (a1, b1) = f(th, om);
        let (a2, b2) = f(th + 0.5 * h * a1, om + 0.5 * h * b1);
        let (a3, b3) = f(th + 0.5 * h * a2, om + 0.5 * h * b2);
        let (a4, b4) = f(th + h * a3, om + h * b3);
        th += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
        om += h / 6.0 * (b1 + 2.0 * b2 + 2.0 * b3 + b4);
    }
    th
}

/// Observed orders log2(e_k / e_k+1) for errors at halving steps.
pub fn observed_orders(errors: &[f64]) -> Vec<f64> {
    errors.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}

/// The observed orders of `errors` at the halved steps `hs` (printed with the errors under
/// `label`), each asserted within `within` of `order`.
pub fn assert_orders(label: &str, hs: &[f64], errors: &[f64], order: f64, within: f64) {
    let o = observed_orders(errors);
    let shown: Vec<String> = errors.iter().map(|x| format!("{x:.3e}")).collect();
    println!(
        "{label}: h {hs:?}, errors {}, orders {o:.3?}",
        shown.join(" ")
    );
    for q in &o {
        assert!(
            (q - order).abs() < within,
            "{label}: orders {o:?}, errors {errors:?}"
        );
    }
}

/// Mass M, hinge-axis inertia J1 about the centre of mass, half length d and link length L of
/// the boxes of `hanging_chain` (scenario.rs), and g.
const CHAIN_M: f64 = 12.0;
const CHAIN_J1: f64 = 9.25;
const CHAIN_D: f64 = 1.5;
const CHAIN_L: f64 = 3.0;
const CHAIN_G: f64 = 9.81;

/// Lever l_ki of angle i in the position of body k's centre: L above it, d at it, 0 below.
fn lever(k: usize, i: usize) -> f64 {
    match i.cmp(&k) {
        core::cmp::Ordering::Less => CHAIN_L,
        core::cmp::Ordering::Equal => CHAIN_D,
        core::cmp::Ordering::Greater => 0.0,
    }
}

/// The planar revolute chain of `nk-revolute` / `chain?joint=revolute` in its minimal
/// coordinates: the absolute angles theta_k of the links from the downward vertical, positive
/// from -x3 towards +x2 (a rotation about +x1, as `hanging_chain` builds body k). Body k's
/// centre is at y_k = sum_i l_ki sin th_i, z_k = -sum_i l_ki cos th_i, l_ki = L (i < k),
/// d (i = k), 0 (i > k), so
///   T = 1/2 sum_ij a_ij cos(th_i - th_j) th_i' th_j',  a_ij = sum_k M l_ki l_kj + J1 delta_ij,
///   V = -g sum_i c_i cos th_i,                           c_i = sum_k M l_ki,
/// and Lagrange's equations are
///   sum_j a_ij cos(th_i - th_j) th_j'' + sum_j a_ij sin(th_i - th_j) th_j'^2 + g c_i sin th_i = 0.
struct PlanarChain {
    n: usize,
    a: Vec<f64>,
    c: Vec<f64>,
}

impl PlanarChain {
    fn new(n: usize) -> Self {
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let s: f64 = (0..n).map(|k| CHAIN_M * lever(k, i) * lever(k, j)).sum();
                a[i * n + j] = s + if i == j { CHAIN_J1 } else { 0.0 };
            }
        }
        let c = (0..n)
            .map(|i| (0..n).map(|k| CHAIN_M * lever(k, i)).sum())
            .collect();
        PlanarChain { n, a, c }
    }

    /// th'' from Lagrange's equations: the n x n system (the mass matrix is symmetric positive
    /// definite) solved by the solver crate's dense LU with partial pivoting (n <= 32).
    fn accelerations(&self, th: &[f64], om: &[f64]) -> Vec<f64> {
        let n = self.n;
        let mut m = vec![0.0; n * n];
        let mut rhs = vec![0.0; n];
        for i in 0..n {
            rhs[i] = -CHAIN_G * self.c[i] * th[i].sin();
            for j in 0..n {
                let (s, c) = (th[i] - th[j]).sin_cos();
                m[i * n + j] = self.a[i * n + j] * c;
                rhs[i] -= self.a[i * n + j] * s * om[j] * om[j];
            }
        }
        assert!(
            tumble::math::lu_solve_in_place(&mut m, n, &mut rhs),
            "singular mass matrix"
        );
        rhs
    }

    fn energy(&self, th: &[f64], om: &[f64]) -> f64 {
        let n = self.n;
        let mut e = 0.0;
        for i in 0..n {
            e -= CHAIN_G * self.c[i] * th[i].cos();
            for j in 0..n {
                e += 0.5 * self.a[i * n + j] * (th[i] - th[j]).cos() * om[i] * om[j];
            }
        }
        e
    }
}

/// The planar revolute chain (see `PlanarChain` above for the equations) from angles
/// `theta0` and angular rates `omega0`, integrated by classical RK4 with `steps` steps to
/// `t_end`. Returns (theta, theta') at `t_end`. One link is the compound pendulum of
/// [`pendulum_rk4`].
pub fn planar_chain_rk4_from(
    theta0: &[f64],
    omega0: &[f64],
    t_end: f64,
    steps: usize,
) -> (Vec<f64>, Vec<f64>) {
    assert_eq!(theta0.len(), omega0.len());
    let chain = PlanarChain::new(theta0.len());
    let h = t_end / steps as f64;
    let axpy = |x: &[f64], a: f64, y: &[f64]| -> Vec<f64> {
        x.iter().zip(y).map(|(x, y)| x + a * y).collect()
    };
    let (mut th, mut om) = (theta0.to_vec(), omega0.to_vec());
    for _ in 0..steps {
        let k1 = (om.clone(), chain.accelerations(&th, &om));
        let (t2, o2) = (axpy(&th, 0.5 * h, &k1.0), axpy(&om, 0.5 * h, &k1.1));
        let k2 = (o2.clone(), chain.accelerations(&t2, &o2));
        let (t3, o3) = (axpy(&th, 0.5 * h, &k2.0), axpy(&om, 0.5 * h, &k2.1));
        let k3 = (o3.clone(), chain.accelerations(&t3, &o3));
        let (t4, o4) = (axpy(&th, h, &k3.0), axpy(&om, h, &k3.1));
        let k4 = (o4.clone(), chain.accelerations(&t4, &o4));
        for i in 0..th.len() {
            th[i] += h / 6.0 * (k1.0[i] + 2.0 * k2.0[i] + 2.0 * k3.0[i] + k4.0[i]);
            om[i] += h / 6.0 * (k1.1[i] + 2.0 * k2.1[i] + 2.0 * k3.1[i] + k4.1[i]);
        }
    }
    (th, om)
}

/// [`planar_chain_rk4_from`] released from rest, as the chain scenarios start.
pub fn planar_chain_rk4(theta0: &[f64], t_end: f64, steps: usize) -> (Vec<f64>, Vec<f64>) {
    planar_chain_rk4_from(theta0, &vec![0.0; theta0.len()], t_end, steps)
}

/// Centres of mass (y_k, z_k) of the planar chain at angles `theta` (x1 = 0).
pub fn planar_chain_centres(theta: &[f64]) -> Vec<[f64; 2]> {
    let n = theta.len();
    (0..n)
        .map(|k| {
            let y = (0..n).map(|i| lever(k, i) * theta[i].sin()).sum();
            let z = (0..n).map(|i| -lever(k, i) * theta[i].cos()).sum();
            [y, z]
        })
        .collect()
}

/// Energy T + V of the planar chain (V = 0 at the height of the ground point).
pub fn planar_chain_energy(theta: &[f64], omega: &[f64]) -> f64 {
    PlanarChain::new(theta.len()).energy(theta, omega)
}

/// Absolute link angle from the downward vertical of a body rotated about +x1 by it:
/// R e3 = (0, -sin th, cos th).
pub fn planar_angle(r: &glam::DMat3) -> f64 {
    (-r.z_axis.y).atan2(r.z_axis.z)
}

/// The difference of two angles, wrapped to (-pi, pi].
pub fn angle_difference(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(2.0 * core::f64::consts::PI);
    if d > core::f64::consts::PI {
        d - 2.0 * core::f64::consts::PI
    } else {
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::FRAC_PI_4;

    const NK: [f64; 4] = [FRAC_PI_4, FRAC_PI_4, 3.0 * FRAC_PI_4, 3.0 * FRAC_PI_4];

    /// One link is the compound pendulum: the same RK4 on the same equation, so the two agree
    /// to round-off (measured: 0 to a few ulp).
    #[test]
    fn planar_chain_of_one_link_is_the_pendulum() {
        for theta0 in [0.5, 2.0, -3.0] {
            let p = pendulum_rk4(theta0, 2.0, 2000);
            let (th, _) = planar_chain_rk4(&[theta0], 2.0, 2000);
            println!("theta0 {theta0}: pendulum {p}, chain {}", th[0]);
            assert!((p - th[0]).abs() < 1e-13, "{p} {}", th[0]);
        }
    }

    /// The initial potential energy of nk-revolute (scenario.rs: -998.887323375 J) and the
    /// start of its first body at (0, 1.5 sin pi/4, -1.5 cos pi/4).
    #[test]
    fn planar_chain_start_matches_the_scenario() {
        let e = planar_chain_energy(&NK, &[0.0; 4]);
        assert!((e - -998.887323375).abs() < 1e-8, "{e}");
        let x = planar_chain_centres(&NK);
        assert!((x[0][0] - 1.5 * FRAC_PI_4.sin()).abs() < 1e-15);
        assert!((x[0][1] + 1.5 * FRAC_PI_4.cos()).abs() < 1e-15);
    }

    /// The mass matrix a_ij cos(th_i - th_j) assembled from the levers gives the kinetic
    /// energy of the centres' velocities (d/dt of `planar_chain_centres`) and of the spins.
    #[test]
    fn planar_chain_kinetic_energy_from_the_centres() {
        let th = [0.3, -1.2, 2.5, 0.9, -2.8];
        let om = [1.1, -0.4, 2.0, -1.7, 0.6];
        let v = planar_chain_energy(&th, &om) - planar_chain_energy(&th, &[0.0; 5]);
        let mut t = 0.0;
        for k in 0..5 {
            let vy: f64 = (0..5).map(|i| lever(k, i) * th[i].cos() * om[i]).sum();
            let vz: f64 = (0..5).map(|i| lever(k, i) * th[i].sin() * om[i]).sum();
            t += 0.5 * CHAIN_M * (vy * vy + vz * vz) + 0.5 * CHAIN_J1 * om[k] * om[k];
        }
        assert!((v - t).abs() < 1e-12 * t, "{v} {t}");
    }

    /// The reference conserves energy (RK4 at h = 1e-4 over 10 s of nk-revolute, checked
    /// every 0.1 s) and converges with order 4 against itself at 16 times the steps.
    #[test]
    fn planar_chain_reference_conserves_energy_and_has_order_4() {
        for n in [4, 8] {
            let theta0: Vec<f64> = if n == 4 {
                NK.to_vec()
            } else {
                vec![FRAC_PI_4; n]
            };
            let e0 = planar_chain_energy(&theta0, &vec![0.0; n]);
            let (mut th, mut om) = (theta0.clone(), vec![0.0; n]);
            let mut de = 0.0f64;
            for _ in 0..100 {
                (th, om) = planar_chain_rk4_from(&th, &om, 0.1, 1000);
                de = de.max(((planar_chain_energy(&th, &om) - e0) / e0).abs());
            }
            let t_end = 1.0;
            let (fine, _) = planar_chain_rk4(&theta0, t_end, 16 * 800);
            let errs: Vec<f64> = [100, 200, 400, 800]
                .iter()
                .map(|&steps| {
                    let (th, _) = planar_chain_rk4(&theta0, t_end, steps);
                    th.iter()
                        .zip(&fine)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f64::max)
                })
                .collect();
            let p = observed_orders(&errs);
            println!("{n} links: max |dE/E| over 10 s at h = 1e-4 {de:.2e}; angle errors at t = 1 s, h = 1e-2 .. 1.25e-3 {errs:?}, orders {p:?}");
            assert!(de < 1e-10, "{de}");
            for o in p {
                assert!((o - 4.0).abs() < 0.2, "order {o}");
            }
        }
    }
}

/// The release `tumble` command line, built once per test process (`cargo build --release -p
/// tumble-cli`, a no-op when scripts/test.sh has built it); TUMBLE_BIN names another binary.
pub fn tumble() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(p) = std::env::var_os("TUMBLE_BIN") {
            return PathBuf::from(p);
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--release", "-q", "-p", "tumble-cli"])
            .current_dir(root)
            .status()
            .expect("cannot run cargo to build the release tumble");
        assert!(
            status.success(),
            "cargo build --release -p tumble-cli failed"
        );
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target"));
        target.join("release").join("tumble")
    })
}

/// `sc` run by `method` at the step `dt` (s) for `t_end` s, the other settings as the scenario's;
/// a failed step panics, naming the method and the step.
pub fn run_for(
    sc: &tumble::Scenario,
    method: tumble::Method,
    dt: f64,
    t_end: f64,
) -> tumble::Simulation {
    let mut settings = tumble::Settings::for_scenario(sc);
    settings.dt = dt;
    let mut sim = tumble::Simulation::new(sc, method, settings).unwrap();
    for k in 0..(t_end / dt).round() as usize {
        if let Err(e) = sim.step() {
            panic!("{} at step {k}: {e}", method.name());
        }
    }
    sim
}

/// The scenes the contact tests share: a ball on the ground, and a simulation at a given step.
pub mod contact_scene {
    use tumble::{Method, Scenario, Settings, Simulation};

    /// Gravity (m/s^2).
    pub const G: f64 = 9.81;

    /// A simulation of `sc` by `method` at the step `h` (s), the other settings as the scenario's.
    pub fn sim(sc: &Scenario, method: Method, h: f64) -> Simulation {
        let mut st = Settings::for_scenario(sc);
        st.dt = h;
        Simulation::new(sc, method, st).unwrap()
    }

    /// A ball of radius 0.1 m and mass 1 kg whose centre starts `z0` m above the ground with
    /// vertical velocity `vz`, material overrides `material` (JSON fields).
    pub fn ball(z0: f64, vz: f64, vx: f64, wy: f64, material: &str) -> Scenario {
        ball_g(G, z0, vz, vx, wy, material)
    }

    /// As [`ball`] with gravity `g` (m/s^2, along -z).
    pub fn ball_g(g: f64, z0: f64, vz: f64, vx: f64, wy: f64, material: &str) -> Scenario {
        Scenario::parse(&format!(
            r#"{{"duration":2,"gravity":[0,0,{mg}],"bodies":[{{"mass":1,"inertia":[0.004,0.004,0.004],
                "position":[0,0,{z0}],"velocity":[{vx},0,{vz}],"angular_velocity":[0,{wy},0],
                "shapes":[{{"type":"sphere","radius":0.1}}]}}],
               "contact":{{"planes":[{{"point":[0,0,0],"normal":[0,0,1]}}],"material":{{{material}}}}}}}"#,
            mg = -g
        ))
        .unwrap()
    }
}

/// The repository's root (the folder above tests/).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files under `dir` whose extension is one of `ext`, build outputs and installed
/// packages left out (vendor, pkg, node_modules, target, out, and .venv: the peer benchmark's
/// Python environment, `benches/peers/run.sh`).
pub fn source_files(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !["vendor", "pkg", "node_modules", "target", "out", ".venv"].contains(&name.as_str())
            {
                source_files(&p, ext, out);
            }
        } else if p.extension().is_some_and(|x| ext.iter().any(|e| x == *e)) {
            out.push(p);
        }
    }
}
