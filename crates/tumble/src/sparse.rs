//! Linear-time solver for the joint-space systems S x = b that every integrator meets.
//!
//! S is the Schur complement of a KKT system on the joint multipliers,
//! S = sum_b C_jb X_b C_kb^T, with one block row per joint: joints j and k couple only when
//! they share a body. For a kinematic tree this coupling graph (the line graph of the tree)
//! has a perfect elimination order: leaves first, each joint after every other joint of its
//! child body. Block LU in that order makes no fill, so factor and solve cost O(number of
//! joints). S may be non-symmetric (the director tangent is); blocks are at most 5 x 5.
//!
//! The pattern ([`JointPattern`]: rows, offsets, elimination order, block indices) is fixed by
//! the model and built once (`compiled.rs`); the values ([`JointMatrix`]) are scratch space of
//! each integrator. Closed loops among the bodies are rejected by [`JointPattern::new`].
use crate::model::Model;
use alloc::vec;
use alloc::vec::Vec;

const B: usize = 5; // largest joint: revolute, 5 rows

/// Structure of the block-sparse joint-space matrix.
#[derive(Clone, Debug)]
pub struct JointPattern {
    /// rows of each joint (3 or 5)
    rows: Vec<usize>,
    /// offset of each joint's rows in the stacked vector of multipliers (m x 1)
    offset: Vec<usize>,
    /// elimination order of the joints
    order: Vec<usize>,
    /// position of each joint in `order`
    pos: Vec<usize>,
    /// for joint j: (k, index into blocks) of every joint k sharing a body with j, j itself included
    nbr: Vec<Vec<(usize, usize)>>,
    /// number of blocks
    nblocks: usize,
    /// block index of (j, j)
    diag: Vec<usize>,
    /// for joint j: (l, block (j, l), block (l, j)) for its neighbours l later in the order
    later: Vec<Vec<(usize, usize, usize)>>,
    /// for joint j: (block (k, j), block (j, l), block (k, l)) for all later neighbours k, l
    updates: Vec<Vec<(usize, usize, usize)>>,
    /// total rows m
    m: usize,
}

impl JointPattern {
    /// Build the structure for `model`. Fails when the bodies and joints form a closed loop
    /// or a joint names a body that does not exist.
    pub fn new(model: &Model) -> Result<Self, &'static str> {
        let nb = model.bodies.len();
        let nj = model.joints.len();
        let rows: Vec<usize> = model.joints.iter().map(|j| j.kind.rows()).collect();
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
                return Err("a joint refers to a body that does not exist");
            }
            if jt.a == Some(jt.b) {
                return Err("a joint connects a body to itself");
            }
            at_body[jt.b].push(j);
            if let Some(a) = jt.a {
                at_body[a].push(j);
            }
        }
        // breadth-first search over the body graph: depth and parent joint of each body
        let mut depth = vec![usize::MAX; nb];
        let mut parent_joint = vec![usize::MAX; nb];
        let mut bfs: Vec<usize> = Vec::with_capacity(nb);
        let roots = (0..nb)
            .filter(|&b| at_body[b].iter().any(|&j| model.joints[j].a.is_none()))
            .chain(0..nb);
        for root in roots {
            if depth[root] != usize::MAX {
                continue;
            }
            depth[root] = 0;
            let start = bfs.len();
            bfs.push(root);
            let mut head = start;
            while head < bfs.len() {
                let b = bfs[head];
                head += 1;
                for &j in &at_body[b] {
                    let jt = &model.joints[j];
                    let Some(a) = jt.a else { continue };
                    if j == parent_joint[b] {
                        continue;
                    }
                    let other = if a == b { jt.b } else { a };
                    if depth[other] != usize::MAX {
                        return Err("the joints form a closed loop; only open chains and trees are supported");
                    }
                    depth[other] = depth[b] + 1;
                    parent_joint[other] = j;
                    bfs.push(other);
                }
            }
        }
        // deepest bodies first; at each body its ground joints, then the joint to its parent
        let mut order = Vec::with_capacity(nj);
        for &b in bfs.iter().rev() {
            for &j in &at_body[b] {
                if model.joints[j].a.is_none() {
                    order.push(j);
                }
            }
            if parent_joint[b] != usize::MAX {
                order.push(parent_joint[b]);
            }
        }
        debug_assert_eq!(order.len(), nj);
        let mut pos = vec![0; nj];
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
        };
        // the elimination pattern, fixed by the structure: computed once so that factor and
        // solve neither search nor allocate
        for j in 0..nj {
            js.diag[j] = js.index(j, j);
            let later: Vec<(usize, usize, usize)> = js.nbr[j]
                .iter()
                .filter(|&&(l, _)| js.pos[l] > js.pos[j])
                .map(|&(l, jl)| (l, jl, js.index(l, j)))
                .collect();
            let mut updates = Vec::new();
            for &(k, _, kj) in &later {
                for &(l, jl, _) in &later {
                    updates.push((kj, jl, js.index(k, l)));
                }
            }
            js.later[j] = later;
            js.updates[j] = updates;
        }
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

    /// Rows of joint `j` (3 or 5).
    pub fn rows(&self, j: usize) -> usize {
        self.rows[j]
    }

    /// The block index of (j, k); joints j and k must share a body.
    pub fn index(&self, j: usize, k: usize) -> usize {
        self.nbr[j]
            .iter()
            .find(|&&(x, _)| x == k)
            .map(|&(_, i)| i)
            .expect("joints j and k do not share a body")
    }
}

/// The values of a joint-space matrix on a [`JointPattern`]: dense blocks, row-major with row
/// stride 5; block (j, k) is rows[j] x rows[k].
#[derive(Clone, Debug)]
pub struct JointMatrix {
    blocks: Vec<[f64; B * B]>,
}

impl JointMatrix {
    /// Zero blocks for `p`.
    pub fn new(p: &JointPattern) -> Self {
        JointMatrix {
            blocks: vec![[0.0; B * B]; p.nblocks],
        }
    }

    /// Set every block to zero.
    pub fn clear(&mut self) {
        for b in &mut self.blocks {
            *b = [0.0; B * B];
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

    /// Factor in place (block LU in the perfect elimination order; each diagonal block is
    /// stored inverted, so that factor and solve are fixed 5 x 5 products).
    /// Returns `false` if a pivot block is singular: the joints are redundant or degenerate.
    pub fn factor(&mut self, p: &JointPattern) -> bool {
        for &j in &p.order {
            let dj = p.diag[j];
            let Some(dinv) = invert(&self.blocks[dj], p.rows[j]) else {
                return false;
            };
            self.blocks[dj] = dinv;
            // U_jl = D_j^-1 S_jl for later neighbours l
            for &(_, jl, _) in &p.later[j] {
                self.blocks[jl] = mul(&dinv, &self.blocks[jl]);
            }
            // S_kl -= S_kj U_jl (block rows and columns beyond a joint's size are zero)
            for &(kj, jl, kl) in &p.updates[j] {
                let p = mul(&self.blocks[kj], &self.blocks[jl]);
                for (x, y) in self.blocks[kl].iter_mut().zip(p) {
                    *x -= y;
                }
            }
        }
        true
    }

    /// Solve S x = b in place with the factors of [`JointMatrix::factor`].
    pub fn solve(&self, p: &JointPattern, b: &mut [f64]) {
        // copies of a joint's rows, of the constant length 3 or 5 (no call to memcpy)
        let load = |b: &[f64], j: usize| {
            let mut x = [0.0; B];
            let o = p.offset[j];
            if p.rows[j] == B {
                x.copy_from_slice(&b[o..o + B]);
            } else {
                x[..3].copy_from_slice(&b[o..o + 3]);
            }
            x
        };
        let store = |b: &mut [f64], j: usize, x: &[f64; B]| {
            let o = p.offset[j];
            if p.rows[j] == B {
                b[o..o + B].copy_from_slice(x);
            } else {
                b[o..o + 3].copy_from_slice(&x[..3]);
            }
        };
        // forward: x_j = D_j^-1 b_j, then b_k -= S_kj x_j for the later neighbours k
        for &j in &p.order {
            let x = mul_vec(&self.blocks[p.diag[j]], &load(b, j));
            store(b, j, &x);
            for &(k, _, kj) in &p.later[j] {
                let mut bk = load(b, k);
                for (y, s) in bk.iter_mut().zip(mul_vec(&self.blocks[kj], &x)) {
                    *y -= s;
                }
                store(b, k, &bk);
            }
        }
        // backward: x_j -= U_jl x_l
        for &j in p.order.iter().rev() {
            let mut x = load(b, j);
            for &(l, jl, _) in &p.later[j] {
                for (y, s) in x.iter_mut().zip(mul_vec(&self.blocks[jl], &load(b, l))) {
                    *y -= s;
                }
            }
            store(b, j, &x);
        }
    }
}

/// The inverse of the leading n x n part of a block (n = 3 or 5), by Gauss-Jordan elimination
/// with partial pivoting (the pivots of LU with partial pivoting); the rows and columns beyond
/// n stay zero. None when a pivot is below 1e-14 of the largest entry or an entry is not finite.
fn invert(a: &[f64; B * B], n: usize) -> Option<[f64; B * B]> {
    if n == 3 {
        invert_n::<3>(a)
    } else {
        debug_assert_eq!(n, B);
        invert_n::<B>(a)
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

/// a b for 5 x 5 blocks (row-major).
fn mul(a: &[f64; B * B], b: &[f64; B * B]) -> [f64; B * B] {
    let mut out = [0.0; B * B];
    for r in 0..B {
        for t in 0..B {
            let x = a[r * B + t];
            for c in 0..B {
                out[r * B + c] += x * b[t * B + c];
            }
        }
    }
    out
}

/// a x for a 5 x 5 block.
fn mul_vec(a: &[f64; B * B], x: &[f64; B]) -> [f64; B] {
    let mut out = [0.0; B];
    for r in 0..B {
        for t in 0..B {
            out[r] += a[r * B + t] * x[t];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::lu_solve_in_place;
    use crate::scenario::Scenario;

    /// A random-ish but deterministic matrix on the sparsity of `js`, checked against dense LU.
    fn check(text: &str) {
        let sc = Scenario::parse(text).unwrap();
        let js = JointPattern::new(&sc.model).unwrap();
        let mut mat = JointMatrix::new(&js);
        let m = js.dim();
        let mut dense = vec![0.0; m * m];
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        let nj = sc.model.joints.len();
        for j in 0..nj {
            for (k, _) in js.nbr[j].clone() {
                for r in 0..js.rows[j] {
                    for c in 0..js.rows[k] {
                        let v = rnd() + if j == k && r == c { 4.0 } else { 0.0 };
                        mat.add(js.index(j, k), r, c, v);
                        dense[(js.offset[j] + r) * m + js.offset[k] + c] = v;
                    }
                }
            }
        }
        let b: Vec<f64> = (0..m).map(|i| (i as f64 * 0.37).sin()).collect();
        let mut x = b.clone();
        assert!(mat.factor(&js));
        mat.solve(&js, &mut x);
        let mut xd = b.clone();
        let mut a = dense.clone();
        if m <= 32 {
            assert!(lu_solve_in_place(&mut a, m, &mut xd));
            for i in 0..m {
                assert!((x[i] - xd[i]).abs() < 1e-12, "{text}: {i}");
            }
        }
        // residual check for any size
        for i in 0..m {
            let s: f64 = (0..m).map(|c| dense[i * m + c] * x[c]).sum();
            assert!((s - b[i]).abs() < 1e-11, "{text}: row {i}");
        }
    }

    #[test]
    fn matches_dense_solve_on_chains_and_top() {
        check("nk-revolute");
        check("nk-spherical");
        check("top");
        check("chain?links=40&joint=revolute");
    }
}
