//! Fixed-size kernels on the 6 x 6 blocks of the joint-space matrix (row-major, stride 6), in
//! place: inverse by Gauss-Jordan elimination with partial pivoting, the product that forms
//! U = D^-1 S, the block update S_kl -= S_kj U_jl and the solve's block-vector products. A
//! joint of n < 6 rows (1 to 6) uses the leading n x n part; the rest stays zero. Each kernel
//! is compiled for its size (`N`, a constant: the loops unroll, and no index is checked in
//! them), the size chosen once per block; it works on local copies of the n x n parts and
//! writes back only those. And the lookup of a block index in the adjacency of joints sharing
//! a body.
use alloc::vec::Vec;

/// Largest joint: fixed, 6 rows.
pub const B: usize = 6;

/// The leading N x N part of a block.
#[inline(always)]
fn load<const N: usize>(a: &[f64; B * B]) -> [[f64; N]; N] {
    core::array::from_fn(|r| core::array::from_fn(|c| a[r * B + c]))
}

/// Write `m` into the leading N x N part of a block.
#[inline(always)]
fn put<const N: usize>(a: &mut [f64; B * B], m: &[[f64; N]; N]) {
    for (r, row) in m.iter().enumerate() {
        a[r * B..r * B + N].copy_from_slice(row);
    }
}

/// Invert the leading n x n part of a block in place (n = 1 to 6; a distance joint has 1 row),
/// by Gauss-Jordan elimination with partial pivoting (the pivots of LU with partial pivoting);
/// the rows and columns beyond n are left as they are (zero). `false`, and the block left as it
/// was, when a pivot is below 1e-14 of the largest entry or an entry is not finite.
pub fn invert(a: &mut [f64; B * B], n: usize) -> bool {
    match n {
        1 => invert_n::<1, 2>(a),
        2 => invert_n::<2, 2>(a),
        3 => invert_n::<3, 4>(a),
        4 => invert_n::<4, 4>(a),
        5 => invert_n::<5, 6>(a),
        _ => {
            debug_assert_eq!(n, B);
            invert_n::<B, B>(a)
        }
    }
}

/// [`invert`] for n = `N` known at compile time, on rows `W` wide (N rounded up to even, so
/// that a row operation is whole pairs of numbers, the columns beyond N zero and not written
/// back). Elimination k updates whole rows of `m`, but only its columns beyond k are read
/// again: the pivot column and those before it are not (only `inv` is kept), so every value
/// that is read is the one of the elimination on the columns beyond k alone.
fn invert_n<const N: usize, const W: usize>(a: &mut [f64; B * B]) -> bool {
    let Some(scale) = crate::math::max_abs_rows(&load::<N>(a)) else {
        return false;
    };
    if scale == 0.0 {
        return false;
    }
    let mut m = [[0.0; W]; N];
    let mut inv = [[0.0; W]; N];
    for (r, (mr, ir)) in m.iter_mut().zip(&mut inv).enumerate() {
        mr[..N].copy_from_slice(&a[r * B..r * B + N]);
        ir[r] = 1.0;
    }
    for k in 0..N {
        let p = (k + 1..N).fold(k, |p, i| if m[i][k].abs() > m[p][k].abs() { i } else { p });
        if m[p][k].abs() <= 1e-14 * scale {
            return false;
        }
        if p != k {
            m.swap(k, p);
            inv.swap(k, p);
        }
        let d = 1.0 / m[k][k];
        for x in &mut m[k] {
            *x *= d;
        }
        for x in &mut inv[k] {
            *x *= d;
        }
        let (mk, ik) = (m[k], inv[k]);
        for i in 0..N {
            let f = m[i][k];
            if i != k && f != 0.0 {
                for (x, y) in m[i].iter_mut().zip(&mk) {
                    *x -= f * y;
                }
                for (x, y) in inv[i].iter_mut().zip(&ik) {
                    *x -= f * y;
                }
            }
        }
    }
    for (r, ir) in inv.iter().enumerate() {
        a[r * B..r * B + N].copy_from_slice(&ir[..N]);
    }
    true
}

/// The size a product of an `m` x `k` and a `k` x `n` block runs at: the largest of the three
/// (3, 4, 5 or 6), so that the zeros beyond a joint's size add nothing. A pair of 3-row joints
/// costs 27 products, of 5-row joints 125, not 216.
#[inline(always)]
fn size(m: usize, k: usize, n: usize) -> usize {
    m.max(k).max(n)
}

/// a b, each entry summed from 0 over t in order (the bits of the sum written out).
#[inline(always)]
fn product<const N: usize>(a: &[[f64; N]; N], b: &[[f64; N]; N]) -> [[f64; N]; N] {
    let mut out = [[0.0; N]; N];
    for (o, ar) in out.iter_mut().zip(a) {
        for (x, br) in ar.iter().zip(b) {
            for (y, z) in o.iter_mut().zip(br) {
                *y += x * z;
            }
        }
    }
    out
}

/// blocks[i] = d blocks[i] for a `m` x `m` block d (an inverted diagonal block) and an `m` x
/// `n` block i.
pub fn left_mul(d: &[f64; B * B], x: &mut [f64; B * B], m: usize, n: usize) {
    fn go<const N: usize>(d: &[f64; B * B], x: &mut [f64; B * B]) {
        let p = product(&load::<N>(d), &load::<N>(x));
        put(x, &p);
    }
    match size(m, m, n) {
        0..=3 => go::<3>(d, x),
        4 => go::<4>(d, x),
        5 => go::<5>(d, x),
        _ => go::<B>(d, x),
    }
}

/// s -= a b for an `m` x `k` block a and a `k` x `n` block b (the block LU's update).
pub fn sub_mul(
    s: &mut [f64; B * B],
    a: &[f64; B * B],
    b: &[f64; B * B],
    m: usize,
    k: usize,
    n: usize,
) {
    fn go<const N: usize>(s: &mut [f64; B * B], a: &[f64; B * B], b: &[f64; B * B]) {
        let p = product(&load::<N>(a), &load::<N>(b));
        let mut x = load::<N>(s);
        for (xr, pr) in x.iter_mut().zip(&p) {
            for (y, z) in xr.iter_mut().zip(pr) {
                *y -= z;
            }
        }
        put(s, &x);
    }
    match size(m, k, n) {
        0..=3 => go::<3>(s, a, b),
        4 => go::<4>(s, a, b),
        5 => go::<5>(s, a, b),
        _ => go::<B>(s, a, b),
    }
}

/// y = a x for an `m` x `k` block a and x the `k` rows of `b` from `ox` (read before `b` is
/// written): with `sub`, b[o..o + m] -= y, else b[o..o + m] = y. Each y_r is summed from 0 over
/// t in order, as in [`product`].
#[inline(always)]
pub fn mul_vec_into(
    a: &[f64; B * B],
    b: &mut [f64],
    o: usize,
    m: usize,
    ox: usize,
    k: usize,
    sub: bool,
) {
    #[inline(always)]
    fn go<const N: usize>(
        a: &[f64; B * B],
        b: &mut [f64],
        o: usize,
        m: usize,
        ox: usize,
        k: usize,
        sub: bool,
    ) {
        let mut x = [0.0; N];
        for (t, xt) in x.iter_mut().enumerate().take(k) {
            *xt = b[ox + t];
        }
        let out = &mut b[o..o + m];
        for (r, y) in out.iter_mut().enumerate() {
            let mut s = 0.0;
            for (t, xt) in x.iter().enumerate() {
                s += a[r * B + t] * xt;
            }
            *y = if sub { *y - s } else { s };
        }
    }
    match size(m, k, 0) {
        0..=3 => go::<3>(a, b, o, m, ox, k, sub),
        4 => go::<4>(a, b, o, m, ox, k, sub),
        5 => go::<5>(a, b, o, m, ox, k, sub),
        _ => go::<B>(a, b, o, m, ox, k, sub),
    }
}

/// The block index of (j, k) in the adjacency `nbr` (per joint: (k, block index) of every
/// joint k sharing a body with it, `pattern.rs`), or `None` when they share no body.
pub(super) fn block_index(nbr: &[Vec<(usize, usize)>], j: usize, k: usize) -> Option<usize> {
    nbr[j].iter().find(|&&(x, _)| x == k).map(|&(_, i)| i)
}
