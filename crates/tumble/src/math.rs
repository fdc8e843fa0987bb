//! Small 3x3 helpers shared by the integrators (all through libm for bitwise determinism).
use glam::{DMat3, DVec3};

/// The square root: std's `f64::sqrt` where the crate has `std` (one instruction: `f64.sqrt`
/// on wasm32, `sqrtsd` on x86-64), `libm::sqrt` without it (software on wasm32 with stable
/// Rust). IEEE sqrt is correctly rounded, so both give the same bits.
#[inline]
pub fn sqrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(not(feature = "std"))]
    {
        libm::sqrt(x)
    }
}

/// |v|, the same bits as glam's `length()` but through [`sqrt`] (glam without std uses libm).
#[inline]
pub fn length(v: DVec3) -> f64 {
    sqrt(v.length_squared())
}

/// v / |v|, the same bits as glam's `normalize()` but through [`sqrt`].
#[inline]
pub fn normalize(v: DVec3) -> DVec3 {
    v * (1.0 / length(v))
}

/// The skew matrix a^ with a^ b = a x b.
pub fn skew(a: DVec3) -> DMat3 {
    DMat3::from_cols(
        DVec3::new(0.0, a.z, -a.y),
        DVec3::new(-a.z, 0.0, a.x),
        DVec3::new(a.y, -a.x, 0.0),
    )
}

/// The vector of the skew part of `m`: vec((m - m^T)/2).
pub fn skew_vec(m: &DMat3) -> DVec3 {
    // element (row i, col j) is m.col(j)[i]
    DVec3::new(
        0.5 * (m.y_axis.z - m.z_axis.y),
        0.5 * (m.z_axis.x - m.x_axis.z),
        0.5 * (m.x_axis.y - m.y_axis.x),
    )
}

/// Element (row i, column j).
#[inline]
pub fn at(m: &DMat3, i: usize, j: usize) -> f64 {
    m.col(j)[i]
}

/// The SO(3) exponential of a^ (Rodrigues), with a series near zero.
pub fn exp_so3(a: DVec3) -> DMat3 {
    DMat3::IDENTITY + exp_so3_minus_identity(a)
}

/// exp(a^) - I, computed without cancellation for small a (sin(t)/t a^ + (1 - cos t)/t^2 a^2).
pub fn exp_so3_minus_identity(a: DVec3) -> DMat3 {
    let th2 = a.length_squared();
    let (s, c) = if th2 < 1e-8 {
        // sin(t)/t and (1-cos t)/t^2 by their series; error below 1e-20 here.
        (
            1.0 - th2 / 6.0 * (1.0 - th2 / 20.0),
            0.5 - th2 / 24.0 * (1.0 - th2 / 30.0),
        )
    } else {
        // 1 - cos t = 2 sin^2(t/2): no cancellation, so exp stays orthogonal to round-off
        // without a bias that would accumulate over many equal steps
        let th = sqrt(th2);
        let sh = libm::sin(0.5 * th) / (0.5 * th);
        (libm::sin(th) / th, 0.5 * sh * sh)
    };
    let k = skew(a);
    k * s + (k * k) * c
}

/// Rotation by `angle` about the unit vector `axis` (right-hand rule).
pub fn rotation(axis: DVec3, angle: f64) -> DMat3 {
    exp_so3(axis * angle)
}

/// The symmetric solution L of L D^-1 + D^-1 L = S for D = diag(d), S symmetric:
/// L_ij = S_ij d_i d_j / (d_i + d_j)  (physics notes, Terze et al. eq. 8-9).
pub fn solve_sylvester_diag(s: &DMat3, d: DVec3) -> DMat3 {
    let d = d.to_array();
    let mut cols = [DVec3::ZERO; 3];
    for (j, col) in cols.iter_mut().enumerate() {
        for i in 0..3 {
            col[i] = at(s, i, j) * d[i] * d[j] / (d[i] + d[j]);
        }
    }
    DMat3::from_cols(cols[0], cols[1], cols[2])
}

/// max |(R^T R - I)_ij|: how far `r` is from orthonormal.
pub fn orthonormality_error(r: &DMat3) -> f64 {
    let e = r.transpose() * *r - DMat3::IDENTITY;
    max_abs(&e)
}

/// Largest absolute element.
pub fn max_abs(m: &DMat3) -> f64 {
    let a = m.abs();
    a.x_axis
        .max_element()
        .max(a.y_axis.max_element())
        .max(a.z_axis.max_element())
}

/// Two unit vectors completing `axis` to a right-handed orthonormal frame (axis, e1, e2);
/// for axis = x1 they are x2 and x3, as in eq. (37).
pub fn perpendicular_pair(axis: DVec3) -> (DVec3, DVec3) {
    let n = normalize(axis);
    let a = n.abs();
    let t = if a.x <= a.y && a.x <= a.z {
        DVec3::X
    } else if a.y <= a.z {
        DVec3::Y
    } else {
        DVec3::Z
    };
    let e1 = normalize(t - n * t.dot(n));
    (e1, n.cross(e1))
}

/// Dense LU with partial pivoting, in place on a row-major n x n matrix (n <= 32); solves for `b`.
/// Returns `false` when the matrix is singular to working precision (see [`lu_factor`]).
pub fn lu_solve_in_place(a: &mut [f64], n: usize, b: &mut [f64]) -> bool {
    let mut piv = [0usize; 32];
    if n > piv.len() || !lu_factor(a, n, &mut piv[..n]) {
        return false;
    }
    lu_back(a, n, &piv[..n], b);
    true
}

/// [`lu_solve_in_place`] for a size `N` known at compile time, on an array of rows: the same
/// operations in the same order (the same bits; the row swaps of `b` are made during the
/// factorisation instead of before the substitution, the same permutation), unrolled and
/// without bounds checks. Destroys `a`.
pub fn lu_solve_fixed<const N: usize>(a: &mut [[f64; N]; N], b: &mut [f64; N]) -> bool {
    let Some(scale) = max_abs_rows(a) else {
        return false;
    };
    if scale == 0.0 {
        return false;
    }
    for k in 0..N {
        let mut p = k;
        let mut best = a[k][k].abs();
        for i in k + 1..N {
            let v = a[i][k].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if best <= 1e-14 * scale {
            return false;
        }
        if p != k {
            a.swap(k, p);
            b.swap(k, p);
        }
        let pivot = a[k];
        for i in k + 1..N {
            let f = a[i][k] / pivot[k];
            a[i][k] = f;
            if f != 0.0 {
                for j in k + 1..N {
                    a[i][j] -= f * pivot[j];
                }
            }
        }
    }
    for i in 0..N {
        let mut s = b[i];
        for j in 0..i {
            s -= a[i][j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..N).rev() {
        let mut s = b[i];
        for j in i + 1..N {
            s -= a[i][j] * b[j];
        }
        b[i] = s / a[i][i];
    }
    true
}

/// The largest |element| of the rows `a` (NaN ignored, as `f64::max` does), taken per column:
/// N independent chains of compares instead of one serial chain of `f64::max` over every
/// element. The maximum of non-negative numbers does not depend on the order, so the value is
/// that of the serial fold. Also whether every element is finite.
#[inline]
fn col_max<const N: usize>(a: &[[f64; N]]) -> (f64, bool) {
    let mut finite = true;
    let mut col = [0.0f64; N];
    for row in a {
        for (m, x) in col.iter_mut().zip(row) {
            let v = x.abs();
            finite &= v < f64::INFINITY; // false for inf and NaN
            *m = if v > *m { v } else { *m };
        }
    }
    (
        col.iter().fold(0.0f64, |m, &v| if v > m { v } else { m }),
        finite,
    )
}

/// The largest |element| of the rows `a` (see [`col_max`]); NaN ignored.
pub fn max_abs_cols<const N: usize>(a: &[[f64; N]]) -> f64 {
    col_max(a).0
}

/// The largest |element| of the rows `a`, or None when one is not finite.
#[inline]
pub fn max_abs_rows<const N: usize>(a: &[[f64; N]]) -> Option<f64> {
    let (m, finite) = col_max(a);
    finite.then_some(m)
}

/// LU factorisation with partial pivoting (row-major, in place). `piv` records row swaps.
/// Returns `false` when a pivot falls below 1e-14 times the largest element, or the
/// matrix holds a non-finite value.
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
    if a[..n * n].iter().any(|x| !x.is_finite()) {
        return false;
    }
    let scale = a[..n * n].iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if scale == 0.0 {
        return false;
    }
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].abs();
        for i in k + 1..n {
            let v = a[i * n + k].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if best <= 1e-14 * scale {
            return false;
        }
        piv[k] = p;
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        for i in k + 1..n {
            let f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            if f != 0.0 {
                for j in k + 1..n {
                    a[i * n + j] -= f * a[k * n + j];
                }
            }
        }
    }
    true
}

/// Solve A x = b in place with the factors and pivots of [`lu_factor`].
pub fn lu_back(a: &[f64], n: usize, piv: &[usize], b: &mut [f64]) {
    for k in 0..n {
        b.swap(k, piv[k]);
    }
    for i in 0..n {
        let mut s = b[i];
        for j in 0..i {
            s -= a[i * n + j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in i + 1..n {
            s -= a[i * n + j] * b[j];
        }
        b[i] = s / a[i * n + i];
    }
}

/// A box of mass `m` and sides `s`: its principal moments about the centre of mass.
pub fn box_inertia(m: f64, s: DVec3) -> DVec3 {
    let s2 = s * s;
    DVec3::new(s2.y + s2.z, s2.z + s2.x, s2.x + s2.y) * (m / 12.0)
}

/// The box (sides) of mass `m` with principal moments `j`.
pub fn box_for_inertia(m: f64, j: DVec3) -> DVec3 {
    let f = 6.0 / m;
    DVec3::new(
        sqrt(f * (j.y + j.z - j.x)),
        sqrt(f * (j.z + j.x - j.y)),
        sqrt(f * (j.x + j.y - j.z)),
    )
}

/// RATTLE's D = diag(d) from the principal moments (Terze et al. eq. 2): d1 = (J2 + J3 - J1)/2
/// etc., so that J1 = d2 + d3, J2 = d3 + d1, J3 = d1 + d2.
pub fn d_from_inertia(j: DVec3) -> DVec3 {
    DVec3::new(j.y + j.z - j.x, j.z + j.x - j.y, j.x + j.y - j.z) * 0.5
}

/// The twist reference of a prismatic or fixed joint: b's first vector perpendicular to
/// `axis_b` at the rotations `ra`, `rb` of the start, seen from a and made exactly
/// perpendicular to `axis_a` (zero when it cannot be: the axes are not parallel, which the
/// consistency check then reports).
pub fn twist_reference(axis_a: DVec3, axis_b: DVec3, ra: &DMat3, rb: &DMat3) -> DVec3 {
    let e1 = crate::math::perpendicular_pair(axis_b).0;
    let t = ra.transpose() * (*rb * e1);
    let t = t - axis_a * axis_a.dot(t);
    let l = crate::math::length(t);
    if l > 0.5 {
        t * (1.0 / l)
    } else {
        DVec3::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_is_rotation_and_matches_small_series() {
        for a in [
            DVec3::new(0.3, -1.2, 2.0),
            DVec3::new(1e-5, 2e-6, -3e-6),
            DVec3::ZERO,
        ] {
            let r = exp_so3(a);
            // orthogonal to a few ulp (measured 5 and 6 ulp at |a| = 2.35)
            assert!(orthonormality_error(&r) <= 8.0 * f64::EPSILON);
            assert!((r.determinant() - 1.0).abs() <= 8.0 * f64::EPSILON);
            // exp(a^) a = a (the axis is fixed)
            assert!((r * a - a).length() < 1e-15);
        }
    }

    #[test]
    fn sylvester_solution_satisfies_equation() {
        let d = DVec3::new(0.3, 0.7, 1.9);
        let s = DMat3::from_cols(
            DVec3::new(1.0, 2.0, 3.0),
            DVec3::new(2.0, -1.0, 0.5),
            DVec3::new(3.0, 0.5, 4.0),
        );
        let l = solve_sylvester_diag(&s, d);
        let dinv = DMat3::from_diagonal(d.recip());
        assert!(max_abs(&(l * dinv + dinv * l - s)) < 1e-14);
    }

    #[test]
    fn fixed_size_lu_gives_the_same_bits() {
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        for _ in 0..200 {
            let mut a = [[0.0; 6]; 6];
            let mut b = [0.0; 6];
            for (row, x) in a.iter_mut().zip(&mut b) {
                row.iter_mut().for_each(|v| *v = rnd());
                *x = rnd();
            }
            let (mut flat, mut b1) = (a.concat(), b);
            assert!(lu_solve_in_place(&mut flat, 6, &mut b1));
            assert!(lu_solve_fixed(&mut a, &mut b));
            assert_eq!(b.map(f64::to_bits), b1.map(f64::to_bits));
        }
        let mut s = [[1.0, 2.0], [2.0, 4.0]];
        assert!(!lu_solve_fixed(&mut s, &mut [1.0, 1.0]));
    }

    #[test]
    fn lu_pivots_and_rejects_singular() {
        // needs a row swap to start
        let mut a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let mut b = [3.0, 2.0, 4.0]; // solution (1,1,1)
        assert!(lu_solve_in_place(&mut a, 3, &mut b));
        for x in b {
            assert!((x - 1.0).abs() < 1e-14);
        }
        let mut s = [1.0, 2.0, 2.0, 4.0];
        let mut c = [1.0, 1.0];
        assert!(!lu_solve_in_place(&mut s, 2, &mut c));
    }
}
