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
//! The pattern ([`JointPattern`]: rows, offsets, elimination order, block indices, the loop
//! border and its redundant rows) is fixed by the model and built once (`compiled.rs`); the
//! values ([`JointMatrix`]) are scratch space of each integrator.
mod block;
mod border;

use crate::model::Model;
use alloc::vec;
use alloc::vec::Vec;
pub use block::B;
use block::{invert, load_rows, mul, mul_vec, store_rows};

/// Most loop-closing joints a system may have (a documented limit: each costs one tree solve
/// per factorisation, and the loop rows are solved densely).
pub const MAX_LOOP_JOINTS: usize = 64;

/// Structure of the block-sparse joint-space matrix.
#[derive(Clone, Debug)]
pub struct JointPattern {
    /// rows of each joint (3 to 6)
    rows: Vec<usize>,
    /// offset of each joint's rows in the stacked vector of multipliers (m x 1)
    offset: Vec<usize>,
    /// elimination order of the tree joints
    order: Vec<usize>,
    /// position of each tree joint in `order` (`usize::MAX` for a loop joint)
    pos: Vec<usize>,
    /// for joint j: (k, index into blocks) of every joint k sharing a body with j, j itself included
    nbr: Vec<Vec<(usize, usize)>>,
    /// number of blocks
    nblocks: usize,
    /// block index of (j, j)
    diag: Vec<usize>,
    /// for tree joint j: (l, block (j, l), block (l, j)) for its tree neighbours l later in the order
    later: Vec<Vec<(usize, usize, usize)>>,
    /// for tree joint j: (block (k, j), block (j, l), block (k, l), rows of k, rows of l) for all
    /// later tree neighbours k, l
    updates: Vec<Vec<(usize, usize, usize, usize, usize)>>,
    /// total rows m
    m: usize,
    /// the loop-closing joints and their border with the tree (`border.rs`)
    loops: border::Loops,
}

impl JointPattern {
    /// Build the structure for `model`. Fails when a joint names a body that does not exist or
    /// connects a body to itself, or when more than [`MAX_LOOP_JOINTS`] joints close loops.
    pub fn new(model: &Model) -> Result<Self, alloc::string::String> {
        let nb = model.bodies.len();
        let nj = model.joints.len();
        let rows: Vec<usize> = (0..nj).map(|j| model.joint_rows(j)).collect();
        let mut offset = vec![0; nj];
        let mut m = 0;
        for j in 0..nj {
            offset[j] = m;
            m += rows[j];
        }
        // joints at each body
        let mut at_body: Vec<Vec<usize>> = vec![Vec::new(); nb];
        for (j, jt) in model.joints.iter().enumerate() {
            if jt.b >= nb || jt.a.is_some_and(|a| a >= nb) {
                return Err(alloc::format!(
                    "joints[{j}] refers to a body that does not exist"
                ));
            }
            if jt.a == Some(jt.b) {
                return Err(alloc::format!(
                    "joints[{j}] connects body {} to itself",
                    jt.b
                ));
            }
            at_body[jt.b].push(j);
            if let Some(a) = jt.a {
                at_body[a].push(j);
            }
        }
        // Spanning forest by breadth-first search from the bodies jointed to the ground (in
        // body order), then from the others: the parent joint of a root is its first ground
        // joint; every joint that is no body's parent joint closes a loop.
        let mut depth = vec![usize::MAX; nb];
        let mut parent_joint = vec![usize::MAX; nb];
        let mut bfs: Vec<usize> = Vec::with_capacity(nb);
        let ground_joint = |b: usize| {
            at_body[b]
                .iter()
                .copied()
                .find(|&j| model.joints[j].a.is_none())
        };
        let roots = (0..nb).filter(|&b| ground_joint(b).is_some()).chain(0..nb);
        for root in roots {
            if depth[root] != usize::MAX {
                continue;
            }
            depth[root] = 0;
            parent_joint[root] = ground_joint(root).unwrap_or(usize::MAX);
            let start = bfs.len();
            bfs.push(root);
            let mut head = start;
            while head < bfs.len() {
                let b = bfs[head];
                head += 1;
                for &j in &at_body[b] {
                    let jt = &model.joints[j];
                    let Some(a) = jt.a else { continue };
                    let other = if a == b { jt.b } else { a };
                    if j == parent_joint[b] || depth[other] != usize::MAX {
                        continue; // the way back, or a joint closing a loop
                    }
                    depth[other] = depth[b] + 1;
                    parent_joint[other] = j;
                    bfs.push(other);
                }
            }
        }
        let is_tree = |j: usize| {
            let jt = &model.joints[j];
            parent_joint[jt.b] == j || jt.a.is_some_and(|a| parent_joint[a] == j)
        };
        let loop_joints: Vec<usize> = (0..nj).filter(|&j| !is_tree(j)).collect();
        if loop_joints.len() > MAX_LOOP_JOINTS {
            return Err(alloc::format!(
                "the joints close {} loops (joints that are not part of a spanning tree of the bodies); at most {MAX_LOOP_JOINTS} are supported",
                loop_joints.len()
            ));
        }
        // tree joints, deepest bodies first: the parent joint of each body
        let mut order = Vec::with_capacity(nj - loop_joints.len());
        for &b in bfs.iter().rev() {
            if parent_joint[b] != usize::MAX {
                order.push(parent_joint[b]);
            }
        }
        debug_assert_eq!(order.len() + loop_joints.len(), nj);
        let mut pos = vec![usize::MAX; nj];
        for (i, &j) in order.iter().enumerate() {
            pos[j] = i;
        }
        // adjacency: joints sharing a body
        let mut nbr: Vec<Vec<(usize, usize)>> = vec![Vec::new(); nj];
        let mut nblocks = 0;
        for j in 0..nj {
            let jt = &model.joints[j];
            let mut add = |k: usize, list: &mut Vec<(usize, usize)>| {
                if !list.iter().any(|&(x, _)| x == k) {
                    list.push((k, nblocks));
                    nblocks += 1;
                }
            };
            let mut list = Vec::new();
            for &k in &at_body[jt.b] {
                add(k, &mut list);
            }
            if let Some(a) = jt.a {
                for &k in &at_body[a] {
                    add(k, &mut list);
                }
            }
            nbr[j] = list;
        }
        let mut js = JointPattern {
            rows,
            offset,
            order,
            pos,
            nbr,
            nblocks,
            diag: vec![0; nj],
            later: vec![Vec::new(); nj],
            updates: vec![Vec::new(); nj],
            m,
            loops: border::Loops::default(),
        };
        // the elimination pattern of the tree, fixed by the structure: computed once so that
        // factor and solve neither search nor allocate
        for j in 0..nj {
            js.diag[j] = js.index(j, j);
            if js.pos[j] == usize::MAX {
                continue;
            }
            let later: Vec<(usize, usize, usize)> = js.nbr[j]
                .iter()
                .filter(|&&(l, _)| js.pos[l] != usize::MAX && js.pos[l] > js.pos[j])
                .map(|&(l, jl)| (l, jl, js.index(l, j)))
                .collect();
            let mut updates = Vec::new();
            for &(k, _, kj) in &later {
                for &(l, jl, _) in &later {
                    updates.push((kj, jl, js.index(k, l), js.rows[k], js.rows[l]));
                }
            }
            js.later[j] = later;
            js.updates[j] = updates;
        }
        js.loops = border::Loops::new(&js, loop_joints);
        Ok(js)
    }

    /// Total number of multipliers m.
    pub fn dim(&self) -> usize {
        self.m
    }

    /// Offset of joint `j`'s rows in the stacked multiplier vector.
    pub fn offset(&self, j: usize) -> usize {
        self.offset[j]
    }

    /// Rows of joint `j` (3 to 6).
    pub fn rows(&self, j: usize) -> usize {
        self.rows[j]
    }

    /// The block index of (j, k); joints j and k must share a body.
    pub fn index(&self, j: usize, k: usize) -> usize {
        self.try_index(j, k)
            .expect("joints j and k do not share a body")
    }

    /// The block index of (j, k), or `None` when they share no body.
    fn try_index(&self, j: usize, k: usize) -> Option<usize> {
        self.nbr[j].iter().find(|&&(x, _)| x == k).map(|&(_, i)| i)
    }

    /// The joints that close loops (not in the spanning tree), in index order.
    pub fn loop_joints(&self) -> &[usize] {
        &self.loops.joints
    }

    /// Mark rows (global row numbers, each a row of a loop-closing joint) as redundant: their
    /// multipliers are held at zero (module docs). Replaces any earlier marks.
    ///
    /// # Panics
    /// If a row is not a row of a loop-closing joint.
    pub fn set_redundant(&mut self, rows: &[usize]) {
        self.loops.set_redundant(&self.offset, &self.rows, rows);
    }

    /// The rows marked redundant (global row numbers, ascending).
    pub fn redundant(&self) -> Vec<usize> {
        self.loops.redundant_rows(&self.offset)
    }
}

/// The values of a joint-space matrix on a [`JointPattern`]: dense blocks, row-major with row
/// stride 5; block (j, k) is rows[j] x rows[k]; and the scratch of the loop rows' dense part.
#[derive(Clone, Debug)]
pub struct JointMatrix {
    blocks: Vec<[f64; B * B]>,
    border: border::Dense,
    /// the largest joint's rows: the part of every block that is ever written
    n: usize,
}

impl JointMatrix {
    /// Zero blocks for `p`.
    pub fn new(p: &JointPattern) -> Self {
        JointMatrix {
            blocks: vec![[0.0; B * B]; p.nblocks],
            border: border::Dense::new(p),
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

    /// Add the block `g` (rows[j] x rows[k], row-major with stride `B` = 5) to block `i`
    /// ([`JointPattern::index`] of (j, k)); with `first`, to zero instead of the block's value
    /// (as after [`JointMatrix::clear`], without clearing every block first).
    pub fn add_block(&mut self, i: usize, g: &[f64; B * B], first: bool) {
        let blk = &mut self.blocks[i];
        if first {
            *blk = [0.0; B * B];
        }
        for (x, y) in blk.iter_mut().zip(g.iter()) {
            *x += *y;
        }
    }

    /// Factor in place: the tree by block LU in the perfect elimination order (each diagonal
    /// block stored inverted, so that factor and solve are fixed-size products), then the
    /// loop rows' Schur complement. Returns `false` if a pivot is singular: the joints are
    /// degenerate, or redundant beyond the rows marked at the initial state.
    pub fn factor(&mut self, p: &JointPattern) -> bool {
        factor_tree(&mut self.blocks, p) && self.border.factor(&self.blocks, p)
    }

    /// Solve S x = b in place with the factors of [`JointMatrix::factor`].
    pub fn solve(&mut self, p: &JointPattern, b: &mut [f64]) {
        if p.loops.joints.is_empty() {
            solve_tree(&self.blocks, p, b);
        } else {
            self.border.solve(&self.blocks, p, b);
        }
    }
}

/// Block LU of the tree joints in the perfect elimination order; the blocks that couple the
/// tree to loop joints are left as they are.
fn factor_tree(blocks: &mut [[f64; B * B]], p: &JointPattern) -> bool {
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
fn solve_tree(blocks: &[[f64; B * B]], p: &JointPattern, b: &mut [f64]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{lu_back, lu_factor};
    use crate::model::{Body, Joint, JointKind};
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
