//! Solver for the joint-space systems S x = b that every integrator meets.
//!
//! S is the Schur complement of a KKT system on the joint multipliers,
//! S = sum_b C_jb X_b C_kb^T, with one block row per joint: joints j and k couple only when
//! they share a body.
//!
//! **Trees.** The joints of a spanning tree of the body graph (the ground counted as one node,
//! the root) couple like the line graph of that tree, which has a perfect elimination order:
//! leaves first, each joint after every other joint of its child body. Block LU in that order
//! makes no fill, so factor and solve cost O(number of joints). S may be non-symmetric (the
//! director tangent is); blocks are at most 6 x 6 (a weld, or a driven joint).
//!
//! **Closed loops** (`border.rs`). Every other joint closes a loop: a second joint between two
//! bodies already connected, or a second joint to the ground. With the tree rows t and the
//! loop rows l,
//!
//!   [ A  B ] [x_t]   [b_t]
//!   [ C  D ] [x_l] = [b_l],   A = S_tt (tree, no fill), B = S_tl, C = S_lt, D = S_ll,
//!
//! is solved through the small dense Schur complement of the loop rows,
//! D' = D - C A^-1 B (one tree solve per loop row), LU-factored with partial pivoting:
//! x_l = D'^-1 (b_l - C A^-1 b_t), x_t = A^-1 (b_t - B x_l). The cost stays linear in the
//! joints plus a dense part in the loop rows only.
//!
//! **Redundant rows.** A loop often closes with rows the tree already implies (a planar
//! four-bar of four revolute joints: 3 of the loop joint's 5 rows). Those rows are found
//! once, at the initial state (`mechanism.rs`), and held at zero multiplier: in D' each is
//! replaced by the equation x_r = 0. The remaining rows are independent, so S stays regular
//! and every integrator runs the mechanism as drawn.
//!
//! The pattern ([`JointPattern`], `pattern.rs`: rows, offsets, elimination order, block
//! indices; the loop joints and their redundant rows, `loops.rs`) is fixed by the model and
//! built once (`compiled.rs`); the values ([`JointMatrix`], here) are scratch space of each
//! integrator: the tree's factors (`tree.rs`) and the loop rows' dense part (`border.rs`).
mod block;
mod border;
mod loops;
mod pattern;
mod tree;

use alloc::vec;
use alloc::vec::Vec;
pub use block::B;
use border::Dense;
pub use pattern::{JointPattern, MAX_LOOP_JOINTS};

/// The values of a joint-space matrix on a [`JointPattern`]: dense blocks, row-major with row
/// stride 6; block (j, k) is rows[j] x rows[k]; and the scratch of the loop rows' dense part.
#[derive(Clone, Debug)]
pub struct JointMatrix {
    blocks: Vec<[f64; B * B]>,
    border: Dense,
    /// the largest joint's rows: the part of every block that is ever written
    n: usize,
}

impl JointMatrix {
    /// Zero blocks for `p`.
    pub fn new(p: &JointPattern) -> Self {
        JointMatrix {
            blocks: vec![[0.0; B * B]; p.nblocks],
            border: Dense::new(p),
            n: p.rows.iter().copied().max().unwrap_or(0),
        }
    }

    /// Set every block to zero (the leading n x n part, n the largest joint's rows: the rest
    /// is zero from `new` and never written, since every kernel writes within the joints'
    /// sizes; a system of spherical and revolute joints clears 25 of the 36 numbers).
    pub fn clear(&mut self) {
        if self.n == B {
            for b in &mut self.blocks {
                *b = [0.0; B * B];
            }
            return;
        }
        let n = self.n;
        for b in &mut self.blocks {
            for row in b.chunks_exact_mut(B).take(n) {
                row[..n].fill(0.0);
            }
        }
    }

    /// Add `value` to element (r, c) of block `i` ([`JointPattern::index`] of (j, k): row r of
    /// joint j, row c of joint k).
    #[inline]
    pub fn add(&mut self, i: usize, r: usize, c: usize, value: f64) {
        self.blocks[i][r * B + c] += value;
    }

    /// Block `i` ([`JointPattern::index`] of (j, k): rows[j] x rows[k], row-major with stride
    /// `B`) to be written in place; the entries beyond the two joints' sizes must stay zero.
    #[inline]
    pub fn block_mut(&mut self, i: usize) -> &mut [f64; B * B] {
        &mut self.blocks[i]
    }

    /// Factor in place: the tree by block LU in the perfect elimination order (each diagonal
    /// block stored inverted, so that factor and solve are fixed-size products), then the
    /// loop rows' Schur complement. Returns `false` if a pivot is singular: the joints are
    /// degenerate, or redundant beyond the rows marked at the initial state.
    pub fn factor(&mut self, p: &JointPattern) -> bool {
        tree::factor_tree(&mut self.blocks, p) && self.border.factor(&self.blocks, p)
    }

    /// Solve S x = b in place with the factors of [`JointMatrix::factor`].
    pub fn solve(&mut self, p: &JointPattern, b: &mut [f64]) {
        if p.loops.joints.is_empty() {
            tree::solve_tree(&self.blocks, p, b);
        } else {
            self.border.solve(&self.blocks, p, b);
        }
    }

    /// The loop rows that are redundant (`border.rs`, [`Dense::redundant_loop_rows`]): the
    /// global row numbers, or `None` if the tree's pivots are singular.
    pub fn redundant_loop_rows(&mut self, p: &JointPattern, rel: f64) -> Option<Vec<usize>> {
        self.border.redundant_loop_rows(&mut self.blocks, p, rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{lu_back, lu_factor};
    use crate::model::{Body, Joint, JointKind, Model};
    use crate::scenario::Scenario;
    use glam::DVec3;

    struct Rng(u64);
    impl Rng {
        /// uniform in [-0.5, 0.5)
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        }
        fn below(&mut self, n: usize) -> usize {
            (((self.next() + 0.5) * n as f64) as usize).min(n - 1)
        }
    }

    /// A random matrix on the sparsity of `js` (diagonally dominant, not symmetric), solved
    /// with [`JointMatrix`] and checked against dense LU of the same matrix, in which each row
    /// marked redundant is replaced by its unit row and a zero right-hand side.
    fn check(what: &str, model: &Model, redundant: &[usize]) {
        let mut js = JointPattern::new(model).unwrap();
        js.set_redundant(redundant);
        assert_eq!(js.redundant(), redundant, "{what}");
        let mut mat = JointMatrix::new(&js);
        let m = js.dim();
        let mut dense = vec![0.0; m * m];
        let mut rng = Rng(12345);
        for j in 0..model.joints.len() {
            for (k, _) in js.nbr[j].clone() {
                for r in 0..js.rows[j] {
                    for c in 0..js.rows[k] {
                        let v = rng.next() + if j == k && r == c { 4.0 } else { 0.0 };
                        mat.add(js.index(j, k), r, c, v);
                        dense[(js.offset[j] + r) * m + js.offset[k] + c] += v;
                    }
                }
            }
        }
        let mut b: Vec<f64> = (0..m).map(|i| (i as f64 * 0.37).sin()).collect();
        for &r in redundant {
            for c in 0..m {
                dense[r * m + c] = if c == r { 1.0 } else { 0.0 };
            }
            b[r] = 0.0;
        }
        let mut x = b.clone();
        assert!(mat.factor(&js), "{what}");
        mat.solve(&js, &mut x);
        if m <= 64 {
            let mut xd = b.clone();
            let mut a = dense.clone();
            let mut piv = vec![0; m];
            assert!(lu_factor(&mut a, m, &mut piv), "{what}: dense LU, m = {m}");
            lu_back(&a, m, &piv, &mut xd);
            for i in 0..m {
                assert!(
                    (x[i] - xd[i]).abs() < 1e-12,
                    "{what}: {i}: {} vs {}",
                    x[i],
                    xd[i]
                );
            }
        }
        // residual check for any size
        for i in 0..m {
            let s: f64 = (0..m).map(|c| dense[i * m + c] * x[c]).sum();
            assert!((s - b[i]).abs() < 1e-11, "{what}: row {i}");
        }
    }

    fn preset(text: &str) -> Model {
        Scenario::parse(text).unwrap().model
    }

    #[test]
    fn matches_dense_solve_on_chains_and_top() {
        for text in [
            "nk-revolute",
            "nk-spherical",
            "top",
            "chain?links=40&joint=revolute",
        ] {
            check(text, &preset(text), &[]);
        }
    }

    /// Random trees (each body jointed to an earlier body or the ground) with random joints
    /// added that close loops: between two bodies, to the ground, twice between the same pair.
    #[test]
    fn trees_with_loops_match_dense_solve() {
        let mut rng = Rng(7);
        let body = Body {
            mass: 1.0,
            inertia: DVec3::ONE,
            size: DVec3::ONE,
        };
        for case in 0..60 {
            let nb = 2 + rng.below(14);
            let kind = |rng: &mut Rng| {
                if rng.next() < 0.0 {
                    JointKind::Spherical
                } else {
                    JointKind::Revolute {
                        axis_a: DVec3::X,
                        axis_b: DVec3::X,
                    }
                }
            };
            let mut joints = Vec::new();
            for b in 0..nb {
                let a = if b == 0 {
                    None
                } else {
                    [None, Some(rng.below(b))][rng.below(2)]
                };
                joints.push(Joint {
                    kind: kind(&mut rng),
                    a,
                    point_a: DVec3::ZERO,
                    b,
                    point_b: DVec3::ZERO,
                });
            }
            let loops = 1 + rng.below(4);
            for _ in 0..loops {
                let b = rng.below(nb);
                let a = rng.below(nb + 1);
                let a = if a == nb || a == b { None } else { Some(a) };
                joints.push(Joint {
                    kind: kind(&mut rng),
                    a,
                    point_a: DVec3::ZERO,
                    b,
                    point_b: DVec3::ZERO,
                });
            }
            let model = Model {
                bodies: vec![body.clone(); nb],
                joints,
                ..Model::default()
            };
            let js = JointPattern::new(&model).unwrap();
            assert!(js.loop_joints().len() >= loops, "case {case}");
            check(&alloc::format!("case {case}"), &model, &[]);
            // the last row of every loop joint held at zero
            let marks: Vec<usize> = js
                .loop_joints()
                .iter()
                .map(|&l| js.offset(l) + js.rows(l) - 1)
                .collect();
            check(&alloc::format!("case {case}, marked"), &model, &marks);
        }
    }

    #[test]
    fn too_many_loops_are_refused() {
        let body = Body {
            mass: 1.0,
            inertia: DVec3::ONE,
            size: DVec3::ONE,
        };
        let joints = (0..=MAX_LOOP_JOINTS + 1)
            .map(|_| Joint {
                kind: JointKind::Spherical,
                a: None,
                point_a: DVec3::ZERO,
                b: 0,
                point_b: DVec3::ZERO,
            })
            .collect();
        let model = Model {
            bodies: vec![body],
            joints,
            ..Model::default()
        };
        let e = JointPattern::new(&model).unwrap_err();
        assert!(
            e.contains("close 65 loops") && e.contains("at most 64"),
            "{e}"
        );
    }
}
