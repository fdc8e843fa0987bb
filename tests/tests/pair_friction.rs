//! Friction between shapes of two bodies (`contact/friction.rs`: the plane contacts'
//! stick spring between the two bodies' points), against independent references:
//! - a box resting on a box tilted by a: it stays put below the friction angle (no creep),
//!   and above it slides at g (sin a - mu_k cos a);
//! - a glancing impact of two spheres (a billiard ball struck off-centre): the tangential
//!   impulse (read from the spin it gives, I Delta w / r) is at most mu times the normal one,
//!   and near it since the contact slides throughout (Coulomb's sliding impact); linear
//!   momentum kept; with e = 1 the director's balance E - E0 - W + D at its Newton tolerance
//!   and D never decreasing.
use tumble::{Method, Scenario, Settings, Simulation};

const G: f64 = 9.81;

fn sim(sc: &Scenario, method: Method, h: f64) -> Simulation {
    let mut st = Settings::for_scenario(sc);
    st.dt = h;
    Simulation::new(sc, method, st).unwrap()
}

/// A box (0.2 x 0.2 x 0.1 m, 1 kg) on a slab (4 x 4 x 0.1 m) welded to the ground, under
/// gravity turned by `a` about x2 (the slab's top stays the plane z = 0.05): samples (t, x, v_x)
/// of the box for 1 s.
fn box_on_slab(a: f64, method: Method) -> Vec<(f64, f64, f64)> {
    let (s, c) = a.sin_cos();
    // resting at the indentation of its weight on its four corners' springs: the corner
    // stiffness of its 0.2 x 0.2 face, 2 E* sqrt(A / pi) / 4 (contact/mod.rs)
    let es = 1e7 / (2.0 * (1.0 - 0.45 * 0.45));
    let k = 2.0 * es * (0.04f64 / std::f64::consts::PI).sqrt() / 4.0;
    let z = 0.1 - G * c / (4.0 * k);
    let sc = Scenario::parse(&format!(
        r#"{{"gravity":[{gx},0,{gz}],"bodies":[
            {{"mass":10,"inertia":[13.34,13.34,26.67],"position":[0,0,0],"shapes":[{{"type":"box","half":[2,2,0.05]}}]}},
            {{"mass":1,"inertia":[0.0041667,0.0041667,0.0066667],"position":[0,0,{z}],"shapes":[{{"type":"box","half":[0.1,0.1,0.05]}}]}}],
            "joints":[{{"type":"fixed","a":null,"point_a":[0,0,0],"b":0,"point_b":[0,0,0]}}],
            "contact":{{"material":{{"restitution":0.3,"friction":0.4,"static_friction":0.5}}}}}}"#,
        gx = G * s,
        gz = -G * c,
    ))
    .unwrap();
    let mut sim = sim(&sc, method, 2e-4);
    let mut samples = vec![(0.0, 0.0, 0.0)];
    let mut d_last = 0.0;
    while sim.time() < 1.0 - 1e-9 {
        sim.step().unwrap();
        let inv = sim.invariants();
        assert!(inv.dissipated >= d_last, "D decreased");
        d_last = inv.dissipated;
        samples.push((sim.time(), sim.states()[1].x.x, sim.states()[1].v.x));
    }
    if method == Method::Director {
        let b = sim.invariants().balance;
        println!("  (director balance at 1 s: {b:.1e} J)");
        assert!(b.abs() < 1e-9, "balance {b}");
    }
    samples
}

#[test]
fn a_box_on_a_tilted_box_sticks_or_slides() {
    for method in [Method::Director, Method::Rattle, Method::Baumgarte] {
        // 20 degrees: tan = 0.36 < mu_s = 0.5: after the first 0.5 s it does not move
        let stuck = box_on_slab(20f64.to_radians(), method);
        let x = |t: f64| stuck.iter().find(|p| p.0 >= t - 1e-9).unwrap().1;
        let creep = (x(1.0) - x(0.5)) / 0.5;
        let v_end = stuck.last().unwrap().2;
        println!(
            "{} at 20 deg: moved {:e} m in all, creeps at {creep:e} m/s, v {v_end:e} m/s at 1 s",
            method.name(),
            x(1.0)
        );
        assert!(x(1.0).abs() < 1e-4, "{}: slid {} m", method.name(), x(1.0));
        assert!(
            creep.abs() < 1e-6 && v_end.abs() < 1e-6,
            "{}: creeps at {creep} m/s, {v_end} m/s",
            method.name()
        );
        // 30 degrees: tan = 0.58 > 0.5: slides at g (sin a - mu_k cos a)
        let a = 30f64.to_radians();
        let slid = box_on_slab(a, method);
        let at = |t: f64| slid.iter().find(|p| p.0 >= t - 1e-9).unwrap();
        let acc = (at(1.0).2 - at(0.5).2) / 0.5;
        let expected = G * (a.sin() - 0.4 * a.cos());
        println!(
            "{} at 30 deg: a {acc:.5} m/s^2 (g (sin a - mu_k cos a) = {expected:.5}), {:.4} m in 1 s",
            method.name(),
            at(1.0).1
        );
        assert!(
            (acc / expected - 1.0).abs() < 0.01,
            "{}: {acc} vs {expected}",
            method.name()
        );
    }
}

#[test]
fn a_glancing_impact_of_two_spheres_slides_at_mu() {
    // ball 0 at rest, ball 1 at 2 m/s along x1 with an impact parameter of 0.08 m (radii 0.05):
    // at contact the normal is at 53 deg from x1, v_n = 1.2 m/s, v_t = 1.6 m/s; a sliding
    // impact changes v_t at the contact by 7 mu (1 + e) v_n / 2 = 0.8 m/s < 1.6 (mu 0.1, e 0.9):
    // it slides throughout, so the tangential impulse is mu times the normal one
    let (m, r, mu, v0) = (0.2, 0.05, 0.1, 2.0);
    let inertia = 0.4 * m * r * r;
    for (e, method) in [
        (0.9, Method::Director),
        (0.9, Method::Rattle),
        (0.9, Method::Baumgarte),
        (1.0, Method::Director),
    ] {
        let sc = Scenario::parse(&format!(
            r#"{{"gravity":[0,0,0],"bodies":[
                {{"mass":{m},"inertia":[{inertia},{inertia},{inertia}],"position":[0,0,0],"shapes":[{{"type":"sphere","radius":{r}}}]}},
                {{"mass":{m},"inertia":[{inertia},{inertia},{inertia}],"position":[-0.2,0.08,0],"velocity":[{v0},0,0],"shapes":[{{"type":"sphere","radius":{r}}}]}}],
                "contact":{{"material":{{"restitution":{e},"friction":{mu},"young":1e8}}}}}}"#
        ))
        .unwrap();
        let mut s = sim(&sc, method, 1e-5);
        let l0 = s.invariants().momentum;
        let (mut touched, mut d_last, mut worst) = (false, 0.0, 0.0f64);
        loop {
            s.step().unwrap();
            let inv = s.invariants();
            assert!(inv.dissipated >= d_last, "D decreased");
            d_last = inv.dissipated;
            worst = worst.max(inv.balance.abs());
            let apart = (s.states()[1].x - s.states()[0].x).length() > 2.0 * r + 1e-3;
            touched |= !apart;
            if touched && apart {
                break;
            }
            assert!(s.time() < 1.0, "they never parted");
        }
        let st = s.states();
        let p = m * (st[0].v + st[1].v);
        // ball 0's impulse, and the tangential part from its spin: I w = r x J_t (the normal
        // force passes through its centre)
        let jt = inertia * (st[0].r * st[0].w).length() / r;
        let total = m * st[0].v.length();
        let jn = (total * total - jt * jt).sqrt();
        println!(
            "{} e {e}: J_t / (mu J_n) = {:.5}, momentum {:.1e} off, angular momentum {:.1e} off (of {:.3}), D {:.4} J, worst balance {worst:.1e} J",
            method.name(),
            jt / (mu * jn),
            (p - glam::DVec3::new(m * v0, 0.0, 0.0)).length(),
            (s.invariants().momentum - l0).length(),
            l0.length(),
            d_last
        );
        assert!((p - glam::DVec3::new(m * v0, 0.0, 0.0)).length() < 1e-9);
        assert!(
            jt <= mu * jn * (1.0 + 1e-3),
            "{}: J_t {jt} > mu J_n {}",
            method.name(),
            mu * jn
        );
        assert!(
            jt > 0.95 * mu * jn,
            "{}: J_t {jt}, mu J_n {}",
            method.name(),
            mu * jn
        );
        if method == Method::Director {
            assert!(worst < 1e-10, "balance {worst}");
        }
    }
}
