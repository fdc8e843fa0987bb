//! The distance of two segments and an exact, rotation-equivariant discrete gradient of it: the
//! director's form of two capsules meeting (`contact/probe.rs` `Geometry::Segments`), one
//! function wherever their closest points lie (inside, at ends, passing an end within the step,
//! the axes near parallel).
//!
//! ```text
//! segments   c_a + s n_a, s in [-L_a, L_a], and c_b + t n_b, t in [-L_b, L_b]; w = c_b - c_a;
//!            w, n_a, n_b linear in the director coordinates (n = Q m, unit at the step's ends)
//! distance   F = d^2 = min over the box of |w + t n_b - s n_a|^2
//!              = min ww + s^2 + t^2 - 2 s wa + 2 t wb - 2 s t ab
//!            a function of the invariants I = (ww, wa, wb, ab) (ww = w . w, wa = w . n_a, ...)
//!            alone; by the envelope theorem (the box does not depend on I) its gradient is
//!            the integrand's at the minimiser (s*, t*): dF/dI = (1, -2 s*, 2 t*, -2 s* t*)
//! inner      Delta(u . v) = vbar . Delta u + ubar . Delta v exactly (bilinear), a gradient
//! products   with no moment about the means (ubar x vbar + vbar x ubar = 0)
//! discrete   Gonzalez's midpoint discrete gradient in the invariants: with Ibar the mean,
//! gradient   DF = grad F(Ibar) + (F_1 - F_0 - grad F(Ibar) . Delta I) M Delta I / (Delta I . M
//!            Delta I), so that DF . Delta I = F_1 - F_0 exactly (M = diag(1/l^4, 1/l^2, 1/l^2,
//!            1), l the pair's length scale, for the invariants' units); Delta d = DF . Delta I
//!            / (d_0 + d_1), and through the inner products' differences
//!            G_w = 2 g_ww wbar + g_wa abar + g_wb bbar, G_a = g_wa wbar + g_ab bbar,
//!            G_b = g_wb wbar + g_ab abar: Delta d = G_w . Delta w + G_a . Delta n_a +
//!            G_b . Delta n_b, no moment (the angular momentum kept)
//! ```
//! Why one function: the pair's kind (a point against a line, two lines, two ends) changes as
//! the closest points move, and a step whose gap is one kind's while the next step starts from
//! another's gains or loses the difference (a crossing pair's foot passing an end, two links
//! lying side by side with the nearer end switching: the falling chain's pile lost 2.6e-3 J so).
//! F is continuous and C^1 but where the axes are parallel, and Gonzalez's form is exact for any
//! F; it is second order where F is smooth (tests/capsule_pairs.rs). A miss of the size of its
//! own round-off is not corrected (`trust`): exact to the round-off of F then.
use crate::contact::probe::segment_feet as feet;
use glam::DVec3;

/// F = d^2 at the invariants `i` = (ww, wa, wb, ab), and its minimiser.
fn squared(i: [f64; 4], ha: f64, hb: f64) -> (f64, f64, f64) {
    let [ww, wa, wb, ab] = i;
    let (s, t) = feet(wa, wb, ab, ha, hb);
    let f = ww + s * s + t * t - 2.0 * s * wa + 2.0 * t * wb - 2.0 * s * t * ab;
    (f.max(0.0), s, t)
}

/// F = d^2 at the end `e` (invariants `i`) as |w + t n_b - s n_a|^2 at the feet (s, t): the
/// same F as `squared`, with the round-off of the vector of length d (a few eps (|w| + L) d)
/// instead of that of the invariants' sum (a few eps (|w| + L)^2), the larger where the pair
/// touches (d is its radii, |w| + L its reach).
fn at_feet(e: (DVec3, DVec3, DVec3), i: [f64; 4], ha: f64, hb: f64) -> f64 {
    let (s, t) = feet(i[1], i[2], i[3], ha, hb);
    let r = e.0 + e.2 * t - e.1 * s;
    r.dot(r)
}

/// The invariants (ww, wa, wb, ab) of w, n_a, n_b.
fn inner(w: DVec3, a: DVec3, b: DVec3) -> [f64; 4] {
    [w.dot(w), w.dot(a), w.dot(b), a.dot(b)]
}

/// How much of Gonzalez's correction to take: none while |miss| <= T, all of it from 2T on,
/// a smooth step between, with T = eps S and S = (|w| + L_a + L_b)^2 at the larger end, a
/// bound on the terms F sums (s^2 <= L_a^2, 2 |s wa| <= 2 L_a |w|, ...). The correction
/// divides the miss by |Delta I|, and at rest (Delta I of 1e-8 and less) the round-off of the
/// miss became a force noise: the suite's hopper, fallen with its torso on its thigh, saw that
/// pair's 86.7 N move by 7e-7 N between Newton's iterations, and Newton stalled at every
/// sub-step down to h/1024 (the smaller the step, the larger the noise). With F from the
/// vector at the feet (`at_feet`) the miss's round-off is below T, so a miss below T is
/// round-off or of its size (a smooth F's miss is of the third order in Delta I): leaving it,
/// Delta d misses d_1 - d_0 by at most 2T / (d_0 + d_1), the round-off of d^2 at the scale S.
/// Measured (tests/capsule_pairs.rs, two capsules crossing while they slide, tolerance
/// 1e-14): |E - E0| / E0 at most 8.4e-13 and 7.3e-12 at h = 2e-5 and 1e-5 s, against 3.2e-13
/// and 6.8e-13 with the whole correction; 64 eps S there gave 1.7e-10.
fn trust(miss: f64, e0: (DVec3, DVec3, DVec3), e1: (DVec3, DVec3, DVec3), l: f64) -> f64 {
    let w = crate::math::length(e0.0).max(crate::math::length(e1.0));
    let t = f64::EPSILON * (w + l) * (w + l);
    let x = ((miss.abs() - t) / t).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// The segments' distance at the step's two ends and its discrete gradient: from (w, n_a, n_b)
/// at n (`e0`) and at n+1 (`e1`), half-lengths `ha`, `hb` and a length scale `l` (for the
/// metric), (d_0, d_1, G_w, G_a, G_b) with d_1 - d_0 = G_w . Delta w + G_a . Delta n_a +
/// G_b . Delta n_b (module notes). None where the segments meet at both ends (d_0 + d_1 = 0).
#[allow(clippy::type_complexity)]
pub fn discrete_gradient(
    e0: (DVec3, DVec3, DVec3),
    e1: (DVec3, DVec3, DVec3),
    (ha, hb, l): (f64, f64, f64),
) -> Option<(f64, f64, DVec3, DVec3, DVec3)> {
    let (i0, i1) = (inner(e0.0, e0.1, e0.2), inner(e1.0, e1.1, e1.2));
    let (f0, f1) = (at_feet(e0, i0, ha, hb), at_feet(e1, i1, ha, hb));
    let (d0, d1) = (crate::math::sqrt(f0), crate::math::sqrt(f1));
    if d0 + d1 == 0.0 {
        return None;
    }
    let mean: [f64; 4] = core::array::from_fn(|k| 0.5 * (i0[k] + i1[k]));
    let (_, s, t) = squared(mean, ha, hb);
    let mut g = [1.0, -2.0 * s, 2.0 * t, -2.0 * s * t];
    let di: [f64; 4] = core::array::from_fn(|k| i1[k] - i0[k]);
    let l2 = l * l;
    let metric = [1.0 / (l2 * l2), 1.0 / l2, 1.0 / l2, 1.0];
    let norm: f64 = (0..4).map(|k| metric[k] * di[k] * di[k]).sum();
    if norm > 1e-300 {
        let miss = f1 - f0 - (0..4).map(|k| g[k] * di[k]).sum::<f64>();
        let w = trust(miss, e0, e1, ha + hb);
        for k in 0..4 {
            g[k] += w * miss * metric[k] * di[k] / norm;
        }
    }
    let g: [f64; 4] = core::array::from_fn(|k| g[k] / (d0 + d1));
    let (w, a, b) = (
        (e0.0 + e1.0) * 0.5,
        (e0.1 + e1.1) * 0.5,
        (e0.2 + e1.2) * 0.5,
    );
    let gw = w * (2.0 * g[0]) + a * g[1] + b * g[2];
    let ga = w * g[1] + b * g[3];
    let gb = w * g[2] + a * g[3];
    Some((d0, d1, gw, ga, gb))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random configurations, the closest points inside, at ends and passing ends within the
    /// step, some axes near parallel: the distance against a brute-force search, the gradient's
    /// difference equal to the distance's to round-off (exact), and w x G_w + n_a x G_a +
    /// n_b x G_b = 0 at the means (no moment: the angular momentum kept).
    #[test]
    fn exact_and_without_moment() {
        let mut seed = 11u64;
        let mut rand = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let mut v = |s: f64| DVec3::new(rand(), rand(), rand()) * s;
        let (ha, hb) = (0.4, 0.25);
        let brute = |e: (DVec3, DVec3, DVec3)| {
            let mut best = f64::INFINITY;
            for i in 0..=400 {
                for j in 0..=400 {
                    let s = ha * (i as f64 / 200.0 - 1.0);
                    let t = hb * (j as f64 / 200.0 - 1.0);
                    best = best.min((e.0 + e.2 * t - e.1 * s).length());
                }
            }
            best
        };
        for k in 0..200 {
            let a = v(1.0).normalize();
            // every fourth pair near parallel
            let b = if k % 4 == 0 {
                (a + v(1e-3)).normalize()
            } else {
                v(1.0).normalize()
            };
            let e0 = (v(0.6), a, b);
            let e1 = (
                e0.0 + v(0.1),
                (e0.1 + v(0.05)).normalize(),
                (e0.2 + v(0.05)).normalize(),
            );
            let (d0, d1, gw, ga, gb) = discrete_gradient(e0, e1, (ha, hb, 1.0)).unwrap();
            if k % 10 == 0 {
                assert!(
                    (d0 - brute(e0)).abs() < 2e-3 * (ha + hb),
                    "{d0} {}",
                    brute(e0)
                );
            }
            let sum = gw.dot(e1.0 - e0.0) + ga.dot(e1.1 - e0.1) + gb.dot(e1.2 - e0.2);
            let tol = 1e-13 / (d0 + d1);
            assert!((sum - (d1 - d0)).abs() < tol, "{sum} against {}", d1 - d0);
            let (w, a, b) = (
                (e0.0 + e1.0) * 0.5,
                (e0.1 + e1.1) * 0.5,
                (e0.2 + e1.2) * 0.5,
            );
            let moment = w.cross(gw) + a.cross(ga) + b.cross(gb);
            assert!(moment.length() < 1e-12, "{moment}");
        }
    }

    /// At rest the correction must not turn round-off into force: two capsules lying across
    /// each other that move by 1e-10 m in a step, and the same step with its end moved by
    /// 1e-16 m more (the round-off of a Newton iterate). The gradient is then the midpoint
    /// gradient to round-off (before: the miss's round-off divided by |Delta I| moved G_w by
    /// 1e-6 relative, and the suite's hopper stalled on such a pair), and the balance
    /// d_1 - d_0 = G . Delta is kept to the round-off of d^2, 2T / (d_0 + d_1).
    #[test]
    fn at_rest_the_gradient_does_not_amplify_round_off() {
        let e0 = (
            DVec3::new(0.02, 0.01, 0.09),
            DVec3::new(0.6, 0.8, 0.0),
            DVec3::new(0.0, 0.6, 0.8),
        );
        let moved = |dx: f64| {
            (
                e0.0 + DVec3::new(0.3, -0.2, 0.5) * dx,
                e0.1,
                (e0.2 + DVec3::new(0.0, 0.8, -0.6) * (0.5 * dx)).normalize(),
            )
        };
        let (a, b) = (moved(1e-10), moved(1e-10 + 1e-16));
        let (_, _, ga, _, _) = discrete_gradient(e0, a, (0.2, 0.15, 1.0)).unwrap();
        let (d0, d1, gb, _, _) = discrete_gradient(e0, b, (0.2, 0.15, 1.0)).unwrap();
        let change = (gb - ga).length() / ga.length();
        assert!(change < 1e-12, "G_w moved by {change:.1e} relative");
        let (_, _, gw, g_a, g_b) = discrete_gradient(e0, b, (0.2, 0.15, 1.0)).unwrap();
        let sum = gw.dot(b.0 - e0.0) + g_a.dot(b.1 - e0.1) + g_b.dot(b.2 - e0.2);
        let s = (b.0.length() + 0.35) * (b.0.length() + 0.35);
        let bound = 2.0 * f64::EPSILON * s / (d0 + d1);
        assert!(
            (sum - (d1 - d0)).abs() <= bound,
            "{sum:e} against {:e}",
            d1 - d0
        );
    }

    /// Where F is smooth (both feet inside, the axes apart) the gradient at the mean invariants
    /// misses F_1 - F_0 by the third power of the step (the midpoint rule), so Gonzalez's
    /// correction is of second order in the gradient: halving the step divides the miss by 8.
    #[test]
    fn the_correction_is_second_order_where_smooth() {
        let e0 = (
            DVec3::new(0.05, 0.3, 0.02),
            DVec3::X,
            DVec3::new(0.0, 0.8, 0.6),
        );
        let dir = (
            DVec3::new(0.01, -0.02, 0.03),
            DVec3::new(0.0, 0.1, 0.05),
            DVec3::new(0.05, 0.0, -0.02),
        );
        let miss = |h: f64| {
            let e1 = (
                e0.0 + dir.0 * h,
                (e0.1 + dir.1 * h).normalize(),
                (e0.2 + dir.2 * h).normalize(),
            );
            let (i0, i1) = (inner(e0.0, e0.1, e0.2), inner(e1.0, e1.1, e1.2));
            let mean: [f64; 4] = core::array::from_fn(|k| 0.5 * (i0[k] + i1[k]));
            let ((f0, ..), (f1, ..), (_, s, t)) = (
                squared(i0, 0.4, 0.4),
                squared(i1, 0.4, 0.4),
                squared(mean, 0.4, 0.4),
            );
            assert!(s.abs() < 0.4 && t.abs() < 0.4, "a foot at an end: {s} {t}");
            let g = [1.0, -2.0 * s, 2.0 * t, -2.0 * s * t];
            f1 - f0 - (0..4).map(|k| g[k] * (i1[k] - i0[k])).sum::<f64>()
        };
        let (m1, m2, m3) = (miss(0.1), miss(0.05), miss(0.025));
        std::println!("the miss at h, h/2, h/4: {m1:.3e} {m2:.3e} {m3:.3e}");
        for r in [m1 / m2, m2 / m3] {
            assert!((r - 8.0).abs() < 0.5, "ratio {r}");
        }
    }
}
