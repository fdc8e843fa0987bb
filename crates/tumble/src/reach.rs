//! How far from the origin any point of the bodies can get, through the joints from the
//! ground: a bound for framing a view on a system that swings out (a chain, a governor's arms).
//!
//! Along a joint from body a (or the ground) to body b, b's centre stays within
//! D_a + |s_a| + g + |s_b| of the origin, with D_a the bound on a's centre (|p_a| for a ground
//! point), s_a and s_b the joint's points from the centres and g the distance between the two
//! points at the start (0 for the joints whose points coincide, a rod's length, a slider's
//! offset as it starts). The smallest such bound over every path from the ground is taken
//! (relaxed over the joints until it settles), plus half of each body's box diagonal. Exact for
//! a chain stretched straight out; a slider can in truth slide beyond its start, so it is a
//! guide for the view, not a guarantee.
use crate::model::{BodyState, Model};
use alloc::vec;

/// The bound, or `None` when a body has no path of joints to the ground.
pub fn reach(model: &Model, init: &[BodyState]) -> Option<f64> {
    let n = model.bodies.len();
    let mut d = vec![f64::INFINITY; n];
    let at = |b: Option<usize>, p| b.map_or(p, |b: usize| init[b].x + init[b].r * p);
    for _ in 0..=n {
        let mut changed = false;
        for j in &model.joints {
            let gap = crate::math::length(at(Some(j.b), j.point_b) - at(j.a, j.point_a));
            let (sa, sb) = (
                crate::math::length(j.point_a),
                crate::math::length(j.point_b),
            );
            // both ways along a joint between two bodies; from the ground only to b
            let from_a = match j.a {
                None => sa + gap + sb,
                Some(a) => d[a] + sa + gap + sb,
            };
            if from_a < d[j.b] {
                d[j.b] = from_a;
                changed = true;
            }
            if let Some(a) = j.a {
                let from_b = d[j.b] + sb + gap + sa;
                if from_b < d[a] {
                    d[a] = from_b;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut out: f64 = 0.0;
    for (b, body) in model.bodies.iter().enumerate() {
        if !d[b].is_finite() {
            return None;
        }
        out = out.max(d[b] + 0.5 * crate::math::length(body.size));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use crate::Scenario;

    #[test]
    fn a_straight_chain_reaches_its_length_and_a_free_body_has_no_bound() {
        // eight 3 m links hung from the origin: the last centre 7 x 3 + 1.5 m out, plus half
        // its box's diagonal
        let sc = Scenario::parse("chain?links=8").unwrap();
        let r = super::reach(&sc.model, &sc.initial).unwrap();
        let s = sc.model.bodies[7].size;
        assert_eq!(s.z, 3.0);
        let want = 7.0 * 3.0 + 1.5 + 0.5 * s.length();
        println!("chain of 8: {r} m, want {want} m");
        assert!((r - want).abs() < 1e-12);
        let free = Scenario::parse("free-body").unwrap();
        assert_eq!(super::reach(&free.model, &free.initial), None);
    }
}
