//! The structure of the joint-space matrix (`mod.rs`): rows, offsets, the tree joints'
//! perfect elimination order (leaves first, each joint after every other joint of its child
//! body), the block indices of joints sharing a body and the loop joints (`loops.rs`). Fixed by
//! the model and built once (`compiled.rs`).
use super::block::block_index;
use super::loops::Loops;
use crate::model::Model;
use alloc::vec;
use alloc::vec::Vec;

/// Most loop-closing joints a system may have (a documented limit: each costs one tree solve
/// per factorisation, and the loop rows are solved densely).
pub const MAX_LOOP_JOINTS: usize = 64;

/// One update of the tree's block LU: (block (k, j), block (j, l), block (k, l), rows of k,
/// rows of l), S_kl -= S_kj U_jl.
pub(super) type Update = (usize, usize, usize, usize, usize);

/// Structure of the block-sparse joint-space matrix.
#[derive(Clone, Debug)]
pub struct JointPattern {
    /// rows of each joint (3 to 6)
    pub(super) rows: Vec<usize>,
    /// offset of each joint's rows in the stacked vector of multipliers (m x 1)
    pub(super) offset: Vec<usize>,
    /// elimination order of the tree joints
    pub(super) order: Vec<usize>,
    /// position of each tree joint in `order` (`usize::MAX` for a loop joint)
    pub(super) pos: Vec<usize>,
    /// for joint j: (k, index into blocks) of every joint k sharing a body with j, j itself included
    pub(super) nbr: Vec<Vec<(usize, usize)>>,
    /// number of blocks
    pub(super) nblocks: usize,
    /// block index of (j, j)
    pub(super) diag: Vec<usize>,
    /// for tree joint j: (l, block (j, l), block (l, j)) for its tree neighbours l later in the order
    pub(super) later: Vec<Vec<(usize, usize, usize)>>,
    /// for tree joint j: (block (k, j), block (j, l), block (k, l), rows of k, rows of l) for all
    /// later tree neighbours k, l
    pub(super) updates: Vec<Vec<Update>>,
    /// total rows m
    pub(super) m: usize,
    /// the loop-closing joints and their border with the tree (`border.rs`)
    pub(super) loops: Loops,
}

impl JointPattern {
    /// Build the structure for `model`. Fails when a joint names a body that does not exist or
    /// connects a body to itself, or when more than [`MAX_LOOP_JOINTS`] joints close loops.
    ///
    /// The stages: the rows and their offsets; the joints at each body; a spanning forest of
    /// the bodies ([`spanning_forest`]), whose parent joints are the tree joints and every other
    /// joint closes a loop; the tree joints' elimination order, deepest bodies first; the
    /// adjacency of joints sharing a body ([`adjacency`]); the tree's elimination pattern
    /// ([`JointPattern::eliminate`]); the loop rows' structure (`loops.rs`).
    pub fn new(model: &Model) -> Result<Self, alloc::string::String> {
        let nj = model.joints.len();
        let rows: Vec<usize> = (0..nj).map(|j| model.joint_rows(j)).collect();
        let mut offset = vec![0; nj];
        let mut m = 0;
        for j in 0..nj {
            offset[j] = m;
            m += rows[j];
        }
        let at_body = joints_at_bodies(model)?;
        let (parent_joint, bfs) = spanning_forest(model, &at_body);
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
        let (nbr, nblocks) = adjacency(model, &at_body);
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
            loops: Loops::default(),
        };
        js.eliminate();
        js.loops = Loops::new(&js.rows, &js.nbr, &js.pos, loop_joints);
        Ok(js)
    }

    /// The elimination pattern of the tree, fixed by the structure: computed once so that
    /// factor and solve neither search nor allocate.
    fn eliminate(&mut self) {
        let js = self;
        for j in 0..js.rows.len() {
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
    pub(super) fn try_index(&self, j: usize, k: usize) -> Option<usize> {
        block_index(&self.nbr, j, k)
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

/// The joints at each body. Fails when a joint names a body that does not exist or connects a
/// body to itself.
fn joints_at_bodies(model: &Model) -> Result<Vec<Vec<usize>>, alloc::string::String> {
    let nb = model.bodies.len();
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
    Ok(at_body)
}

/// Spanning forest by breadth-first search from the bodies jointed to the ground (in body
/// order), then from the others: the parent joint of a root is its first ground joint; every
/// joint that is no body's parent joint closes a loop. Returns each body's parent joint
/// (`usize::MAX` for none) and the bodies in the search's order.
fn spanning_forest(model: &Model, at_body: &[Vec<usize>]) -> (Vec<usize>, Vec<usize>) {
    let nb = model.bodies.len();
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
    (parent_joint, bfs)
}

/// Adjacency: for each joint, (k, block index) of every joint k sharing a body with it (itself
/// included), and the number of blocks.
fn adjacency(model: &Model, at_body: &[Vec<usize>]) -> (Vec<Vec<(usize, usize)>>, usize) {
    let nj = model.joints.len();
    let mut nbr: Vec<Vec<(usize, usize)>> = Vec::with_capacity(nj);
    let mut nblocks = 0;
    for jt in &model.joints {
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
        nbr.push(list);
    }
    (nbr, nblocks)
}
