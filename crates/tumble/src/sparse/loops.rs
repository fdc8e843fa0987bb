//! The loop-closing joints' structure, part of the pattern (`pattern.rs`): their rows among the
//! loop rows, their border with the tree (the blocks (t, l), (l, t) of the tree joints t
//! sharing a body with loop joint l), the blocks between loop joints, and the rows held at
//! zero multiplier (redundant). The values and the dense solve are in `border.rs`.
use super::block::block_index;
use alloc::vec;
use alloc::vec::Vec;

/// The structure of the loop rows, part of [`super::JointPattern`].
#[derive(Clone, Debug, Default)]
pub(super) struct Loops {
    /// the loop-closing joints, in index order
    pub(super) joints: Vec<usize>,
    /// offset of each loop joint's rows among the loop rows
    pub(super) off: Vec<usize>,
    /// number of loop rows
    pub(super) ml: usize,
    /// per loop joint: (tree joint t, block (t, l), block (l, t)) for every tree joint sharing
    /// a body with it
    pub(super) border: Vec<Vec<(usize, usize, usize)>>,
    /// per pair (i, k) of loop joints, at i * n + k: block (loops[i], loops[k]) if they share a body
    pub(super) pair: Vec<Option<usize>>,
    /// per loop row: held at zero multiplier
    pub(super) redundant: Vec<bool>,
}

impl Loops {
    /// The structure of the loop joints `joints` from the joints' rows, the adjacency `nbr`
    /// of joints sharing a body and the tree joints' positions `pos` (`pattern.rs`).
    pub(super) fn new(
        rows: &[usize],
        nbr: &[Vec<(usize, usize)>],
        pos: &[usize],
        joints: Vec<usize>,
    ) -> Loops {
        let n = joints.len();
        let mut off = Vec::with_capacity(n);
        let mut ml = 0;
        for &l in &joints {
            off.push(ml);
            ml += rows[l];
        }
        let border = joints
            .iter()
            .map(|&l| {
                nbr[l]
                    .iter()
                    .filter(|&&(t, _)| pos[t] != usize::MAX)
                    .map(|&(t, lt)| {
                        let tl =
                            block_index(nbr, t, l).expect("joints j and k do not share a body");
                        (t, tl, lt)
                    })
                    .collect()
            })
            .collect();
        let mut pair = Vec::with_capacity(n * n);
        for &li in &joints {
            for &lk in &joints {
                pair.push(block_index(nbr, li, lk));
            }
        }
        Loops {
            joints,
            off,
            ml,
            border,
            pair,
            redundant: vec![false; ml],
        }
    }

    pub(super) fn set_redundant(&mut self, offset: &[usize], rows: &[usize], marks: &[usize]) {
        self.redundant.iter_mut().for_each(|r| *r = false);
        for &row in marks {
            let i = self
                .joints
                .iter()
                .position(|&l| (offset[l]..offset[l] + rows[l]).contains(&row))
                .expect("a redundant row must belong to a loop-closing joint");
            let l = self.joints[i];
            self.redundant[self.off[i] + row - offset[l]] = true;
        }
    }

    pub(super) fn redundant_rows(&self, offset: &[usize]) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, &l) in self.joints.iter().enumerate() {
            for r in 0..self.rows_of(i) {
                if self.redundant[self.off[i] + r] {
                    out.push(offset[l] + r);
                }
            }
        }
        out
    }

    pub(super) fn rows_of(&self, i: usize) -> usize {
        self.off.get(i + 1).copied().unwrap_or(self.ml) - self.off[i]
    }
}
