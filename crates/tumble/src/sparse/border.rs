//! The loop-closing joints: their border with the tree and the dense Schur complement of
//! their rows (equations in `mod.rs`):
//!
//!   D' = D - C A^-1 B,  x_l = D'^-1 (b_l - C A^-1 b_t),  x_t = A^-1 (b_t - B x_l),
//!
//! with a redundant row r replaced by x_r = 0 (row and column r of D' set to e_r, b_r = 0).
//! Factorisation: one tree solve per loop row that is not redundant, then dense LU with
//! partial pivoting (`math::lu_factor`). Solve: two tree solves and the dense back
//! substitution. Everything is preallocated: nothing is allocated in a step.
use super::block::B;
use super::pattern::JointPattern;
use super::tree;
use crate::math::{lu_back, lu_factor};
use alloc::vec;
use alloc::vec::Vec;

/// The values of the loop part, part of [`super::JointMatrix`]: D' (row-major, LU-factored in
/// place), its pivots, and scratch for a tree column and the loop right-hand side.
#[derive(Clone, Debug)]
pub(super) struct Dense {
    schur: Vec<f64>,
    piv: Vec<usize>,
    col: Vec<f64>,
    y: Vec<f64>,
}

impl Dense {
    pub(super) fn new(p: &JointPattern) -> Dense {
        let ml = p.loops.ml;
        Dense {
            schur: vec![0.0; ml * ml],
            piv: vec![0; ml],
            col: vec![0.0; if ml > 0 { p.m } else { 0 }],
            y: vec![0.0; ml],
        }
    }

    /// D' = D - C A^-1 B into `schur` (A factored), the rows marked redundant replaced by the
    /// identity when `masked`.
    fn fill(&mut self, blocks: &[[f64; B * B]], p: &JointPattern, masked: bool) {
        let lp = &p.loops;
        let (n, ml) = (lp.joints.len(), lp.ml);
        for i in 0..n {
            for r in 0..lp.rows_of(i) {
                let c = lp.off[i] + r;
                if masked && lp.redundant[c] {
                    for c2 in 0..ml {
                        self.schur[c2 * ml + c] = if c2 == c { 1.0 } else { 0.0 };
                    }
                    continue;
                }
                // col = A^-1 (column c of B)
                self.col.fill(0.0);
                for &(t, tl, _) in &lp.border[i] {
                    let o = p.offset[t];
                    for rr in 0..p.rows[t] {
                        self.col[o + rr] = blocks[tl][rr * B + r];
                    }
                }
                tree::solve_tree(blocks, p, &mut self.col);
                for k in 0..n {
                    for r2 in 0..lp.rows_of(k) {
                        let c2 = lp.off[k] + r2;
                        let mut s = match lp.pair[k * n + i] {
                            Some(blk) => blocks[blk][r2 * B + r],
                            None => 0.0,
                        };
                        for &(t, _, lt) in &lp.border[k] {
                            let o = p.offset[t];
                            for rr in 0..p.rows[t] {
                                s -= blocks[lt][r2 * B + rr] * self.col[o + rr];
                            }
                        }
                        self.schur[c2 * ml + c] = if masked && lp.redundant[c2] { 0.0 } else { s };
                    }
                }
            }
        }
    }

    /// Form and factor D' (the tree in `blocks` already factored).
    pub(super) fn factor(&mut self, blocks: &[[f64; B * B]], p: &JointPattern) -> bool {
        if p.loops.ml == 0 {
            return true;
        }
        self.fill(blocks, p, true);
        lu_factor(&mut self.schur, p.loops.ml, &mut self.piv)
    }

    /// Solve S x = b in place (module docs).
    pub(super) fn solve(&mut self, blocks: &[[f64; B * B]], p: &JointPattern, b: &mut [f64]) {
        let lp = &p.loops;
        // x0 = A^-1 b_t
        self.col.copy_from_slice(b);
        tree::solve_tree(blocks, p, &mut self.col);
        // y = D'^-1 (b_l - C x0)
        for (k, &l) in lp.joints.iter().enumerate() {
            for r2 in 0..p.rows[l] {
                let c2 = lp.off[k] + r2;
                let mut s = b[p.offset[l] + r2];
                for &(t, _, lt) in &lp.border[k] {
                    let o = p.offset[t];
                    for rr in 0..p.rows[t] {
                        s -= blocks[lt][r2 * B + rr] * self.col[o + rr];
                    }
                }
                self.y[c2] = if lp.redundant[c2] { 0.0 } else { s };
            }
        }
        lu_back(&self.schur, lp.ml, &self.piv, &mut self.y);
        // x_t = A^-1 (b_t - B y)
        for (i, &l) in lp.joints.iter().enumerate() {
            for &(t, tl, _) in &lp.border[i] {
                let o = p.offset[t];
                for rr in 0..p.rows[t] {
                    let mut s = 0.0;
                    for r in 0..p.rows[l] {
                        s += blocks[tl][rr * B + r] * self.y[lp.off[i] + r];
                    }
                    b[o + rr] -= s;
                }
            }
        }
        tree::solve_tree(blocks, p, b);
        for (i, &l) in lp.joints.iter().enumerate() {
            let o = p.offset[l];
            b[o..o + p.rows[l]].copy_from_slice(&self.y[lp.off[i]..lp.off[i] + p.rows[l]]);
        }
    }
}

impl Dense {
    /// The loop rows that are redundant: S must be symmetric positive semi-definite (a Gram
    /// matrix C W C^T, W positive definite). Factors the tree (`None` if its pivots are
    /// singular), forms D' without marks (the Gram matrix of the loop rows projected off the
    /// tree rows), then eliminates the loop rows in order, Cholesky-style (a row nearly
    /// redundant last, see below): a row whose pivot (its squared length independent of the
    /// tree rows and of the loop rows eliminated before it) is at most `rel` times its squared
    /// length D_rr is redundant and is not eliminated.
    /// Returns the global row numbers of the redundant rows.
    pub(super) fn redundant_loop_rows(
        &mut self,
        blocks: &mut [[f64; B * B]],
        p: &JointPattern,
        rel: f64,
    ) -> Option<Vec<usize>> {
        let lp = &p.loops;
        let ml = lp.ml;
        let n = lp.joints.len();
        let mut length = vec![0.0; ml];
        for i in 0..n {
            let blk = lp.pair[i * n + i].expect("a joint shares its bodies with itself");
            for r in 0..lp.rows_of(i) {
                length[lp.off[i] + r] = blocks[blk][r * B + r];
            }
        }
        if !tree::factor_tree(blocks, p) {
            return None;
        }
        self.fill(blocks, p, false);
        let a = &mut self.schur;
        // Cholesky in row order, except that a row nearly but not exactly redundant (relative
        // pivot at most `DOUBT` but above `rel`) waits until no other row is left: eliminated
        // first, its small pivot would amplify the round-off of an exactly redundant row after
        // it above `rel` (a random loop of `tests/robustness.rs`: a row at 1.6e-7 left the
        // next, exactly redundant one at 1.6e-10, which was kept: -1 degrees of freedom).
        // Those waiting rows are then taken by diagonal pivoting, the largest relative pivot
        // first. A row at most `rel` stays redundant (pivots only shrink as rows are
        // eliminated). Without such rows the rows are eliminated in row order as before.
        const DOUBT: f64 = 1e-3;
        let mut left: Vec<usize> = (0..ml).collect();
        loop {
            let ratio = |k: usize| a[k * ml + k] / length[k];
            let next = match left.iter().position(|&k| ratio(k) > DOUBT) {
                Some(i) => i,
                None => {
                    let mut best = None;
                    for (i, &k) in left.iter().enumerate() {
                        if ratio(k) > rel && best.is_none_or(|b: usize| ratio(k) > ratio(left[b])) {
                            best = Some(i);
                        }
                    }
                    match best {
                        Some(i) => i,
                        None => break,
                    }
                }
            };
            let k = left.remove(next);
            let pivot = a[k * ml + k];
            for &r in &left {
                let f = a[r * ml + k] / pivot;
                if f != 0.0 {
                    for &c in &left {
                        a[r * ml + c] -= f * a[k * ml + c];
                    }
                }
            }
        }
        let mut out = Vec::with_capacity(left.len());
        for k in left {
            let i = (0..n).rev().find(|&i| lp.off[i] <= k).unwrap_or(0);
            out.push(p.offset[lp.joints[i]] + k - lp.off[i]);
        }
        Some(out)
    }
}
