//! Fixed-size kernels on the 6 x 6 blocks of the joint-space matrix (row-major, stride 6):
//! inverse by Gauss-Jordan elimination with partial pivoting, product, matrix-vector product.
//! A joint of n < 6 rows (1 to 6) uses the leading n x n part; the rest stays zero. And the
//! lookup of a block index in the adjacency of joints sharing a body.
use alloc::vec::Vec;

/// Largest joint: fixed, 6 rows.
pub const B: usize = 6;

/// The inverse of the leading n x n part of a block (n = 1 to 6; a distance joint has 1 row), by Gauss-Jordan elimination
/// with partial pivoting (the pivots of LU with partial pivoting); the rows and columns beyond
/// n stay zero. None when a pivot is below 1e-14 of the largest entry or an entry is not finite.
pub fn invert(a: &[f64; B * B], n: usize) -> Option<[f64; B * B]> {
    match n {
        1 => invert_n::<1>(a),
        2 => invert_n::<2>(a),
        3 => invert_n::<3>(a),
        4 => invert_n::<4>(a),
        5 => invert_n::<5>(a),
        _ => {
            debug_assert_eq!(n, B);
            invert_n::<B>(a)
        }
    }
}

/// [`invert`] for n = `N` known at compile time. Elimination k works on the columns of `m`
/// beyond k only: the pivot column and those before it are never read again (only `inv` is
/// returned), so skipping them leaves every value that is read as it was.
fn invert_n<const N: usize>(a: &[f64; B * B]) -> Option<[f64; B * B]> {
    let mut rows = [[0.0; N]; N];
    for (r, row) in rows.iter_mut().enumerate() {
        row.copy_from_slice(&a[r * B..r * B + N]);
    }
    let scale = crate::math::max_abs_rows(&rows)?;
    if scale == 0.0 {
        return None;
    }
    let mut m = *a;
    let mut inv = [0.0; B * B];
    for r in 0..N {
        inv[r * B + r] = 1.0;
    }
    for k in 0..N {
        let p = (k + 1..N).fold(k, |p, i| {
            if m[i * B + k].abs() > m[p * B + k].abs() {
                i
            } else {
                p
            }
        });
        if m[p * B + k].abs() <= 1e-14 * scale {
            return None;
        }
        if p != k {
            for c in k..N {
                m.swap(k * B + c, p * B + c);
            }
            for c in 0..N {
                inv.swap(k * B + c, p * B + c);
            }
        }
        let d = 1.0 / m[k * B + k];
        for c in k + 1..N {
            m[k * B + c] *= d;
        }
        for c in 0..N {
            inv[k * B + c] *= d;
        }
        for i in 0..N {
            let f = m[i * B + k];
            if i != k && f != 0.0 {
                for c in k + 1..N {
                    m[i * B + c] -= f * m[k * B + c];
                }
                for c in 0..N {
                    inv[i * B + c] -= f * inv[k * B + c];
                }
            }
        }
    }
    Some(inv)
}

/// a b for blocks of `m` x `k` and `k` x `n` (row-major, stride 6; the rest of the result
/// is zero): the loops run to the largest of the three sizes, a constant of the kernel (3, 4, 5
/// or 6) so that they unroll, and the zeros beyond a joint's size add nothing. A pair of 3-row
/// joints costs 27 products, of 5-row joints 125, not 216.
#[inline(always)]
pub fn mul(a: &[f64; B * B], b: &[f64; B * B], m: usize, k: usize, n: usize) -> [f64; B * B] {
    match m.max(k).max(n) {
        0..=3 => mul_n::<3>(a, b),
        4 => mul_n::<4>(a, b),
        5 => mul_n::<5>(a, b),
        _ => mul_n::<B>(a, b),
    }
}

#[inline(always)]
fn mul_n<const N: usize>(a: &[f64; B * B], b: &[f64; B * B]) -> [f64; B * B] {
    let mut out = [0.0; B * B];
    for r in 0..N {
        for t in 0..N {
            let x = a[r * B + t];
            for c in 0..N {
                out[r * B + c] += x * b[t * B + c];
            }
        }
    }
    out
}

/// a x for an `m` x `k` block (the loops as in [`mul`]).
#[inline(always)]
pub fn mul_vec(a: &[f64; B * B], x: &[f64; B], m: usize, k: usize) -> [f64; B] {
    match m.max(k) {
        0..=3 => mul_vec_n::<3>(a, x),
        4 => mul_vec_n::<4>(a, x),
        5 => mul_vec_n::<5>(a, x),
        _ => mul_vec_n::<B>(a, x),
    }
}

#[inline(always)]
fn mul_vec_n<const N: usize>(a: &[f64; B * B], x: &[f64; B]) -> [f64; B] {
    let mut out = [0.0; B];
    for r in 0..N {
        for t in 0..N {
            out[r] += a[r * B + t] * x[t];
        }
    }
    out
}

/// A joint's `n` rows of `b` from `o`, in a copy of constant length 1 to 6 (no call to
/// memcpy).
#[inline(always)]
pub fn load_rows(b: &[f64], o: usize, n: usize) -> [f64; B] {
    let mut x = [0.0; B];
    match n {
        1 => x[0] = b[o],
        2 => x[..2].copy_from_slice(&b[o..o + 2]),
        3 => x[..3].copy_from_slice(&b[o..o + 3]),
        4 => x[..4].copy_from_slice(&b[o..o + 4]),
        5 => x[..5].copy_from_slice(&b[o..o + 5]),
        _ => x.copy_from_slice(&b[o..o + B]),
    }
    x
}

/// The inverse of [`load_rows`].
#[inline(always)]
pub fn store_rows(b: &mut [f64], o: usize, n: usize, x: &[f64; B]) {
    match n {
        1 => b[o] = x[0],
        2 => b[o..o + 2].copy_from_slice(&x[..2]),
        3 => b[o..o + 3].copy_from_slice(&x[..3]),
        4 => b[o..o + 4].copy_from_slice(&x[..4]),
        5 => b[o..o + 5].copy_from_slice(&x[..5]),
        _ => b[o..o + B].copy_from_slice(x),
    }
}

/// The block index of (j, k) in the adjacency `nbr` (per joint: (k, block index) of every
/// joint k sharing a body with it, `pattern.rs`), or `None` when they share no body.
pub(super) fn block_index(nbr: &[Vec<(usize, usize)>], j: usize, k: usize) -> Option<usize> {
    nbr[j].iter().find(|&&(x, _)| x == k).map(|&(_, i)| i)
}
