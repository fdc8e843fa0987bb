//! The tree part of the joint-space matrix (`mod.rs`): block LU in the perfect elimination
//! order of [`JointPattern`] (no fill, O(joints)), and the solve with its factors.
use super::block::{invert, load_rows, mul, mul_vec, store_rows, B};
use super::pattern::JointPattern;

/// Block LU of the tree joints in the perfect elimination order; the blocks that couple the
/// tree to loop joints are left as they are.
pub(super) fn factor_tree(blocks: &mut [[f64; B * B]], p: &JointPattern) -> bool {
    for &j in &p.order {
        let dj = p.diag[j];
        let Some(dinv) = invert(&blocks[dj], p.rows[j]) else {
            return false;
        };
        blocks[dj] = dinv;
        let rj = p.rows[j];
        // U_jl = D_j^-1 S_jl for later neighbours l
        for &(l, jl, _) in &p.later[j] {
            blocks[jl] = mul(&dinv, &blocks[jl], rj, rj, p.rows[l]);
        }
        // S_kl -= S_kj U_jl (block rows and columns beyond a joint's size are zero)
        for &(kj, jl, kl, rk, rl) in &p.updates[j] {
            let p = mul(&blocks[kj], &blocks[jl], rk, rj, rl);
            for (x, y) in blocks[kl].iter_mut().zip(p) {
                *x -= y;
            }
        }
    }
    true
}

/// Solve A x = b for the tree rows of `b` in place (A = S_tt factored by [`factor_tree`]);
/// the loop rows of `b` are neither read nor written.
pub(super) fn solve_tree(blocks: &[[f64; B * B]], p: &JointPattern, b: &mut [f64]) {
    let load = |b: &[f64], j: usize| load_rows(b, p.offset[j], p.rows[j]);
    let store = |b: &mut [f64], j: usize, x: &[f64; B]| store_rows(b, p.offset[j], p.rows[j], x);
    // forward: x_j = D_j^-1 b_j, then b_k -= S_kj x_j for the later neighbours k
    for &j in &p.order {
        let rj = p.rows[j];
        let x = mul_vec(&blocks[p.diag[j]], &load(b, j), rj, rj);
        store(b, j, &x);
        for &(k, _, kj) in &p.later[j] {
            let mut bk = load(b, k);
            for (y, s) in bk.iter_mut().zip(mul_vec(&blocks[kj], &x, p.rows[k], rj)) {
                *y -= s;
            }
            store(b, k, &bk);
        }
    }
    // backward: x_j -= U_jl x_l
    for &j in p.order.iter().rev() {
        let mut x = load(b, j);
        for &(l, jl, _) in &p.later[j] {
            for (y, s) in x
                .iter_mut()
                .zip(mul_vec(&blocks[jl], &load(b, l), p.rows[j], p.rows[l]))
            {
                *y -= s;
            }
        }
        store(b, j, &x);
    }
}
