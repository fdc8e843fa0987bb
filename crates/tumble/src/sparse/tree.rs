//! The tree part of the joint-space matrix (`mod.rs`): block LU in the perfect elimination
//! order of [`JointPattern`] (no fill, O(joints)), and the solve with its factors. The blocks
//! are worked on in place by the fixed-size kernels of `block.rs`.
use super::block::{invert, left_mul, mul_vec_into, sub_mul, B};
use super::pattern::JointPattern;

/// Block LU of the tree joints in the perfect elimination order; the blocks that couple the
/// tree to loop joints are left as they are.
pub(super) fn factor_tree(blocks: &mut [[f64; B * B]], p: &JointPattern) -> bool {
    for &j in &p.order {
        let dj = p.diag[j];
        let rj = p.rows[j];
        if !invert(&mut blocks[dj], rj) {
            return false;
        }
        let dinv = blocks[dj];
        // U_jl = D_j^-1 S_jl for later neighbours l
        for &(l, jl, _) in &p.later[j] {
            left_mul(&dinv, &mut blocks[jl], rj, p.rows[l]);
        }
        // S_kl -= S_kj U_jl (block rows and columns beyond a joint's size are zero)
        for &(kj, jl, kl, rk, rl) in &p.updates[j] {
            let (skj, ujl) = (blocks[kj], blocks[jl]);
            sub_mul(&mut blocks[kl], &skj, &ujl, rk, rj, rl);
        }
    }
    true
}

/// Solve A x = b for the tree rows of `b` in place (A = S_tt factored by [`factor_tree`]);
/// the loop rows of `b` are neither read nor written.
pub(super) fn solve_tree(blocks: &[[f64; B * B]], p: &JointPattern, b: &mut [f64]) {
    // forward: x_j = D_j^-1 b_j, then b_k -= S_kj x_j for the later neighbours k
    for &j in &p.order {
        let (rj, oj) = (p.rows[j], p.offset[j]);
        mul_vec_into(&blocks[p.diag[j]], b, oj, rj, oj, rj, false);
        for &(k, _, kj) in &p.later[j] {
            mul_vec_into(&blocks[kj], b, p.offset[k], p.rows[k], oj, rj, true);
        }
    }
    // backward: x_j -= U_jl x_l
    for &j in p.order.iter().rev() {
        let (rj, oj) = (p.rows[j], p.offset[j]);
        for &(l, jl, _) in &p.later[j] {
            mul_vec_into(&blocks[jl], b, oj, rj, p.offset[l], p.rows[l], true);
        }
    }
}
