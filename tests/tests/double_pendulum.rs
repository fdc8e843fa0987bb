//! The `double-pendulum` preset against independent references in its two minimal coordinates,
//! the absolute rod angles theta1, theta2 from the downward vertical (rotations about +x1):
//! - small oscillations: the two normal-mode frequencies of the linearised equations,
//!   det(K - omega^2 M) = 0, in closed form, against the period of a pure-mode release;
//! - large motion: Lagrange's equations integrated by RK4 at h = 1e-5 s, against which all three
//!   methods must converge with order 2.
//!
//! The rods are uniform boxes of 1 kg/m with a 0.05 m x 0.05 m section (presets/course.rs): mass
//! m = L kg/m, moment about the hinge axis through the centre J = m (L^2 + w^2) / 12.
use glam::DVec3;
use tumble::{Method, Scenario, Settings, Simulation};
use tumble_tests::{angle_difference, assert_orders, planar_angle};

const G: f64 = 9.81;
const W: f64 = 0.05;

/// The two-rod pendulum of lengths l1, l2 in the notation of tests/src/lib.rs (PlanarChain):
/// T = 1/2 sum a_ij cos(th_i - th_j) th_i' th_j', V = -g sum c_i cos th_i.
struct TwoRods {
    l1: f64,
    d: [f64; 2],
    a: [[f64; 2]; 2],
    c: [f64; 2],
}

impl TwoRods {
    fn new(l1: f64, l2: f64) -> Self {
        let (m1, m2) = (l1, l2); // 1 kg/m
        let j = |m: f64, l: f64| m * (l * l + W * W) / 12.0;
        let (d1, d2) = (0.5 * l1, 0.5 * l2);
        let a11 = j(m1, l1) + m1 * d1 * d1 + m2 * l1 * l1;
        let a12 = m2 * l1 * d2;
        let a22 = j(m2, l2) + m2 * d2 * d2;
        TwoRods {
            l1,
            d: [d1, d2],
            a: [[a11, a12], [a12, a22]],
            c: [m1 * d1 + m2 * l1, m2 * d2],
        }
    }

    /// The squared normal-mode frequencies omega^2 (slow, fast) and their mode shapes, from
    /// det(K - lambda M) = 0 with M = a (the mass matrix at rest), K = g diag(c).
    fn modes(&self) -> [(f64, [f64; 2]); 2] {
        let [[m11, m12], [_, m22]] = self.a;
        let (k1, k2) = (G * self.c[0], G * self.c[1]);
        let (qa, qb, qc) = (m11 * m22 - m12 * m12, -(k1 * m22 + k2 * m11), k1 * k2);
        let root = (qb * qb - 4.0 * qa * qc).sqrt();
        [(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)].map(|lam| {
            let v = [lam * m12, k1 - lam * m11];
            let n = v[0].hypot(v[1]);
            (lam, [v[0] / n, v[1] / n])
        })
    }

    fn accelerations(&self, th: [f64; 2], om: [f64; 2]) -> [f64; 2] {
        let (s, c) = (th[0] - th[1]).sin_cos();
        let [[a11, a12], [_, a22]] = self.a;
        let r1 = -a12 * s * om[1] * om[1] - G * self.c[0] * th[0].sin();
        let r2 = a12 * s * om[0] * om[0] - G * self.c[1] * th[1].sin();
        let (m12, det) = (a12 * c, a11 * a22 - a12 * a12 * c * c);
        [(r1 * a22 - m12 * r2) / det, (a11 * r2 - m12 * r1) / det]
    }

    fn rk4(&self, th0: [f64; 2], t_end: f64, steps: usize) -> [f64; 2] {
        let h = t_end / steps as f64;
        let (mut th, mut om) = (th0, [0.0; 2]);
        let add = |x: [f64; 2], f: f64, y: [f64; 2]| [x[0] + f * y[0], x[1] + f * y[1]];
        for _ in 0..steps {
            let k1 = (om, self.accelerations(th, om));
            let k2 = (
                add(om, 0.5 * h, k1.1),
                self.accelerations(add(th, 0.5 * h, k1.0), add(om, 0.5 * h, k1.1)),
            );
            let k3 = (
                add(om, 0.5 * h, k2.1),
                self.accelerations(add(th, 0.5 * h, k2.0), add(om, 0.5 * h, k2.1)),
            );
            let k4 = (
                add(om, h, k3.1),
                self.accelerations(add(th, h, k3.0), add(om, h, k3.1)),
            );
            for i in 0..2 {
                th[i] += h / 6.0 * (k1.0[i] + 2.0 * k2.0[i] + 2.0 * k3.0[i] + k4.0[i]);
                om[i] += h / 6.0 * (k1.1[i] + 2.0 * k2.1[i] + 2.0 * k3.1[i] + k4.1[i]);
            }
        }
        th
    }

    /// Centres (y, z) of the two rods at angles th.
    fn centres(&self, th: [f64; 2]) -> [[f64; 2]; 2] {
        let (s1, c1) = th[0].sin_cos();
        let (s2, c2) = th[1].sin_cos();
        [
            [self.d[0] * s1, -self.d[0] * c1],
            [
                self.l1 * s1 + self.d[1] * s2,
                -self.l1 * c1 - self.d[1] * c2,
            ],
        ]
    }
}

fn sim(text: &str, m: Method, dt: f64, tol: f64) -> Simulation {
    let sc = Scenario::parse(text).unwrap();
    let mut st = Settings::for_scenario(&sc);
    st.dt = dt;
    st.tol = tol;
    Simulation::new(&sc, m, st).unwrap()
}

/// The preset is what its description says: rods of 1 kg/m with the box inertia above, the
/// upper hinge at the origin, the centres where the two angles put them, at rest.
#[test]
fn the_preset_is_two_uniform_rods_at_the_given_angles() {
    let sc =
        Scenario::parse("double-pendulum?angle1=0.3&angle2=-1.1&length1=1.2&length2=0.7").unwrap();
    assert_eq!(
        sc.canonical(),
        "double-pendulum?angle1=0.3&angle2=-1.1&length1=1.2&length2=0.7"
    );
    let p = TwoRods::new(1.2, 0.7);
    for (k, (b, l)) in sc.model.bodies.iter().zip([1.2, 0.7]).enumerate() {
        assert!((b.mass - l).abs() < 1e-15);
        assert!(
            (b.inertia.x - l * (l * l + W * W) / 12.0).abs() < 1e-15,
            "{:?}",
            b.inertia
        );
        let c = p.centres([0.3, -1.1])[k];
        assert!((sc.initial[k].x - DVec3::new(0.0, c[0], c[1])).length() < 1e-15);
        assert!((planar_angle(&sc.initial[k].r) - [0.3, -1.1][k]).abs() < 1e-15);
    }
    assert_eq!(
        Scenario::parse("double-pendulum").unwrap().values,
        vec![2.0, 2.5, 1.0, 1.0]
    );
}

/// Released in a pure normal mode at 1e-3 rad, the pendulum oscillates at that mode's
/// frequency. The modal coordinate q(t) = v^T M theta(t) (which does not see the other mode,
/// M-orthogonal to v) is run 10 s at h = 0.001 s; its zero crossings (linear interpolation)
/// give the period. Expected errors: the methods' phase error (omega h)^2 / 12 ~ 4e-6 at
/// omega = 7 rad/s, the amplitude's (1e-3)^2 / 16 ~ 6e-8, far below the bound 2e-5.
#[test]
fn small_oscillations_have_the_closed_form_normal_mode_frequencies() {
    for (l1, l2) in [(1.0, 1.0), (1.2, 0.7)] {
        let p = TwoRods::new(l1, l2);
        for (mode, (lam, v)) in p.modes().into_iter().enumerate() {
            let omega = lam.sqrt();
            let amp = 1e-3;
            let text = format!(
                "double-pendulum?angle1={}&angle2={}&length1={l1}&length2={l2}",
                amp * v[0],
                amp * v[1]
            );
            let mv = [
                p.a[0][0] * v[0] + p.a[0][1] * v[1],
                p.a[1][0] * v[0] + p.a[1][1] * v[1],
            ];
            for m in Method::ALL {
                let h = 0.001;
                let mut s = sim(&text, m, h, 1e-14);
                let q = |s: &Simulation| {
                    let b = s.states();
                    mv[0] * planar_angle(&b[0].r) + mv[1] * planar_angle(&b[1].r)
                };
                let mut prev = q(&s);
                let mut crossings = vec![];
                for k in 1..=10_000 {
                    s.step().unwrap();
                    let now = q(&s);
                    if prev.signum() != now.signum() {
                        crossings.push((k as f64 - 1.0 + prev / (prev - now)) * h);
                    }
                    prev = now;
                }
                let n = crossings.len() - 1;
                let measured = std::f64::consts::PI * n as f64 / (crossings[n] - crossings[0]);
                let rel = (measured - omega) / omega;
                println!(
                    "rods {l1} m, {l2} m, mode {} ({:.4}, {:.4}): closed form {omega:.9} rad/s, {} {measured:.9} rad/s ({n} half periods), relative {rel:.2e}",
                    mode + 1,
                    v[0],
                    v[1],
                    m.name()
                );
                assert!(
                    rel.abs() < 2e-5,
                    "{} mode {}: {measured} against {omega}",
                    m.name(),
                    mode + 1
                );
            }
        }
    }
}

/// End-of-run error at t = 1 s against the two-angle RK4 reference: max over the rods of the
/// centre error and 1 m times the angle error.
fn error(text: &str, m: Method, h: f64, p: &TwoRods, th: [f64; 2]) -> f64 {
    let mut s = sim(text, m, h, 1e-13);
    for _ in 0..(1.0 / h).round() as usize {
        s.step().unwrap();
    }
    let b = s.states();
    let c = p.centres(th);
    let mut e = 0.0f64;
    for k in 0..2 {
        e = e
            .max((b[k].x.y - c[k][0]).abs())
            .max((b[k].x.z - c[k][1]).abs())
            .max(b[k].x.x.abs());
        e = e.max(angle_difference(planar_angle(&b[k].r), th[k]).abs());
    }
    e
}

/// All three methods converge with order 2 on the default large swing (2 rad and 2.5 rad, both
/// rods above the horizontal) and on unequal rods, to t = 1 s against the reference (RK4 at
/// h = 1e-5 s, its own error below 1e-13: checked against h = 2e-5 s below).
#[test]
fn all_three_methods_converge_with_order_2_to_the_two_angle_reference() {
    for (text, th0, l) in [
        ("double-pendulum", [2.0, 2.5], (1.0, 1.0)),
        (
            "double-pendulum?angle1=1&angle2=-0.5&length1=1.2&length2=0.7",
            [1.0, -0.5],
            (1.2, 0.7),
        ),
    ] {
        let p = TwoRods::new(l.0, l.1);
        let th = p.rk4(th0, 1.0, 100_000);
        let check = p.rk4(th0, 1.0, 50_000);
        let ref_err = (th[0] - check[0]).abs().max((th[1] - check[1]).abs()) / 15.0;
        assert!(ref_err < 1e-13, "reference error {ref_err:e}");
        for (m, hs) in [
            (Method::Director, [0.01, 0.005, 0.0025, 0.00125]),
            (Method::Rattle, [0.01, 0.005, 0.0025, 0.00125]),
            (Method::Baumgarte, [0.005, 0.0025, 0.00125, 0.000625]),
        ] {
            let e: Vec<f64> = hs.iter().map(|&h| error(text, m, h, &p, th)).collect();
            assert_orders(&format!("{text} {}", m.name()), &hs, &e, 2.0, 0.1);
        }
    }
}

/// Every integrator runs the preset's 10 s at its suitable step; the director keeps the energy
/// to 1e-11 relative and the hinges to 1e-10 m.
#[test]
fn every_integrator_runs_10_s_at_its_suitable_step() {
    for text in [
        "double-pendulum",
        "double-pendulum?angle1=3&angle2=-3&length1=0.5&length2=2",
    ] {
        let sc = Scenario::parse(text).unwrap();
        for m in Method::ALL {
            let dt = sc.suitable_dt(m);
            let mut s = sim(text, m, dt, 1e-12);
            let e0 = s.invariants().energy();
            let (mut de, mut joint) = (0.0f64, 0.0f64);
            for k in 0..(sc.duration / dt).round() as usize {
                if let Err(e) = s.step() {
                    panic!("{text} with {} at h = {dt}: step {k} failed: {e}", m.name());
                }
                let inv = s.invariants();
                de = de.max(((inv.energy() - e0) / e0).abs());
                joint = joint.max(inv.joint_violation);
            }
            println!("{text} {} h = {dt}: max relative energy error {de:.2e}, joint violation {joint:.2e} m", m.name());
            if m == Method::Director {
                assert!(de < 1e-11 && joint < 1e-10, "{de:e} {joint:e}");
            }
        }
    }
}
