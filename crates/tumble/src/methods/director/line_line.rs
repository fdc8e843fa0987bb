//! The distance of two lines and its exact, rotation-equivariant discrete gradient: the
//! director's form of two capsules crossing (`contact/probe.rs` `Geometry::LineLine`).
//!
//! ```text
//! lines      c_a + t n_a and c_b + u n_b, w = c_b - c_a; w, n_a, n_b linear in the director
//!            coordinates (n = Q m)
//! distance   d = |w . (n_a x n_b)| / |n_a x n_b|, d^2 = P / Q with, by Lagrange's identity and
//!            the Gram determinant, polynomials in the six inner products
//!            I = (ww, aa, bb, wa, wb, ab) (aa = n_a . n_a, wa = w . n_a, ...):
//!              Q = aa bb - ab^2
//!              P = ww aa bb + 2 wa ab wb - ww ab^2 - aa wb^2 - bb wa^2
//! inner      Delta(u . v) = vbar . Delta u + ubar . Delta v exactly (bilinear), and its
//! products   gradient (vbar, ubar) is orthogonal to every infinitesimal rotation of the
//!            means: ubar x vbar + vbar x ubar = 0
//! chain      products of scalars: Delta(x y) = Delta x ybar + xbar Delta y, Delta(x^2) =
//!            2 xbar Delta x, exact; the quotient Delta(P / Q) = (Delta P Qbar - Pbar Delta Q)
//!            / (Q_0 Q_1), exact; Delta d = Delta(d^2) / (d_0 + d_1), exact. So
//!            Delta d = sum_j alpha_j Delta I_j with scalar alpha_j, and
//!            G_w = 2 alpha_ww wbar + alpha_wa abar + alpha_wb bbar
//!            G_a = 2 alpha_aa abar + alpha_wa wbar + alpha_ab bbar
//!            G_b = 2 alpha_bb bbar + alpha_wb wbar + alpha_ab abar
//!            with Delta d = G_w . Delta w + G_a . Delta n_a + G_b . Delta n_b to round-off
//! ```
//! Why through the inner products (Gonzalez's invariants, `../notes` physics point on discrete
//! gradients): the direct form, Delta(w . c) = cbar . Delta w + wbar . Delta c with c = n_a x
//! n_b, is exact too, but cbar = (c_0 + c_1) / 2 is not nbar_a x nbar_b, so its gradient is
//! not orthogonal to the rotations: the director kept the energy and lost angular momentum at
//! order h^2 (3.2e-11 kg m^2/s over a strike at h = 2e-5 s, 8.0e-12 at 1e-5 s). A gradient
//! built on inner products of means keeps both (tests/capsule_pairs.rs).
use glam::DVec3;

/// The six inner products (ww, aa, bb, wa, wb, ab) of w, n_a, n_b.
fn inner(w: DVec3, a: DVec3, b: DVec3) -> [f64; 6] {
    [w.dot(w), a.dot(a), b.dot(b), w.dot(a), w.dot(b), a.dot(b)]
}

/// P and Q (module notes) of the inner products `i`.
fn pq(i: &[f64; 6]) -> (f64, f64) {
    let [ww, aa, bb, wa, wb, ab] = *i;
    let q = aa * bb - ab * ab;
    let p = ww * aa * bb + 2.0 * wa * ab * wb - ww * ab * ab - aa * wb * wb - bb * wa * wa;
    (p, q)
}

/// The lines' distance at the step's two ends and its discrete gradient: from (w, n_a, n_b) at
/// n (`e0`) and at n+1 (`e1`), (d_0, d_1, G_w, G_a, G_b) with d_1 - d_0 = G_w . Delta w +
/// G_a . Delta n_a + G_b . Delta n_b (module notes). None where the axes are parallel at an
/// end (Q = 0) or the lines meet at both (d_0 + d_1 = 0).
#[allow(clippy::type_complexity)]
pub fn discrete_gradient(
    e0: (DVec3, DVec3, DVec3),
    e1: (DVec3, DVec3, DVec3),
) -> Option<(f64, f64, DVec3, DVec3, DVec3)> {
    let (i0, i1) = (inner(e0.0, e0.1, e0.2), inner(e1.0, e1.1, e1.2));
    let ((p0, q0), (p1, q1)) = (pq(&i0), pq(&i1));
    if q0 <= 0.0 || q1 <= 0.0 {
        return None;
    }
    // d itself from the triple product (P / Q cancels: eps |w|^2 / d of error where the lines
    // nearly meet); the same function to round-off, so the gradient stays exact
    let direct = |e: (DVec3, DVec3, DVec3)| {
        let c = e.1.cross(e.2);
        e.0.dot(c).abs() / crate::math::length(c)
    };
    let (d0, d1) = (direct(e0), direct(e1));
    if d0 + d1 == 0.0 {
        return None;
    }
    // means of the inner products, and of the squares and products that P and Q take
    let m = |k: usize| 0.5 * (i0[k] + i1[k]);
    let m2 = |j: usize, k: usize| 0.5 * (i0[j] * i0[k] + i1[j] * i1[k]);
    let [ww, aa, bb, wa, wb, ab] = [m(0), m(1), m(2), m(3), m(4), m(5)];
    // Delta Q = bb Delta aa + aa Delta bb - 2 ab Delta ab (means)
    let dq = [0.0, bb, aa, 0.0, 0.0, -2.0 * ab];
    // Delta P: (ww aa) bb, 2 (wa ab) wb, ww ab^2, aa wb^2, bb wa^2 by the product rules
    let (waa, wab) = (m2(0, 1), m2(3, 5)); // mean(ww aa), mean(wa ab)
    let dp = [
        aa * bb - m2(5, 5),            // Delta ww
        ww * bb - m2(4, 4),            // Delta aa
        waa - m2(3, 3),                // Delta bb
        2.0 * ab * wb - 2.0 * bb * wa, // Delta wa
        2.0 * wab - 2.0 * aa * wb,     // Delta wb
        2.0 * wa * wb - 2.0 * ww * ab, // Delta ab
    ];
    let (pbar, qbar, denom) = (0.5 * (p0 + p1), 0.5 * (q0 + q1), q0 * q1 * (d0 + d1));
    let alpha: [f64; 6] = core::array::from_fn(|k| (dp[k] * qbar - pbar * dq[k]) / denom);
    let (w, a, b) = (
        (e0.0 + e1.0) * 0.5,
        (e0.1 + e1.1) * 0.5,
        (e0.2 + e1.2) * 0.5,
    );
    let gw = w * (2.0 * alpha[0]) + a * alpha[3] + b * alpha[4];
    let ga = a * (2.0 * alpha[1]) + w * alpha[3] + b * alpha[5];
    let gb = b * (2.0 * alpha[2]) + w * alpha[4] + a * alpha[5];
    Some((d0, d1, gw, ga, gb))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random configurations: the gradient's difference equals the distance's to round-off
    /// (exact), and w x G_w + n_a x G_a + n_b x G_b vanishes at the means (no moment: the
    /// angular momentum kept), where the direct form through c = n_a x n_b leaves one of the
    /// order of the step squared.
    #[test]
    fn exact_and_without_moment() {
        let mut seed = 7u64;
        let mut rand = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let mut v = |s: f64| DVec3::new(rand(), rand(), rand()) * s;
        let mut worst = 0.0f64;
        for _ in 0..200 {
            let e0 = (v(1.0), v(1.0).normalize(), v(1.0).normalize());
            let e1 = (
                e0.0 + v(0.1),
                (e0.1 + v(0.1)).normalize(),
                (e0.2 + v(0.1)).normalize(),
            );
            let (d0, d1, gw, ga, gb) = discrete_gradient(e0, e1).unwrap();
            let dist = |e: (DVec3, DVec3, DVec3)| {
                let c = e.1.cross(e.2);
                e.0.dot(c).abs() / c.length()
            };
            assert!(d0 == dist(e0) && d1 == dist(e1));
            // exact but for round-off: P's terms cancel to d^2 Q (eps |w|^4 of error), so
            // Delta d's is about eps |w|^4 / (Q d)
            let sum = gw.dot(e1.0 - e0.0) + ga.dot(e1.1 - e0.1) + gb.dot(e1.2 - e0.2);
            let q = e0.1.cross(e0.2).length_squared();
            let tol = 1e-14 * (1.0 + e0.0.length_squared().powi(2) / (q * (d0 + d1)));
            worst = worst.max((sum - (d1 - d0)).abs() / tol);
            assert!((sum - (d1 - d0)).abs() < tol, "{sum} against {}", d1 - d0);
            let (w, a, b) = (
                (e0.0 + e1.0) * 0.5,
                (e0.1 + e1.1) * 0.5,
                (e0.2 + e1.2) * 0.5,
            );
            let moment = w.cross(gw) + a.cross(ga) + b.cross(gb);
            assert!(moment.length() < 1e-12, "{moment}");
        }
        std::println!("Delta d against the gradient: at most {worst:.2} of its round-off bound");
    }
}
