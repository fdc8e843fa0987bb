//! The mechanism at its initial state: which joint rows are redundant, and how many degrees
//! of freedom it has.
//!
//! With the Jacobian C of all joint rows at the initial state (over each body's (v, w)) and a
//! metric W = diag(I, I / l_b^2) per body, l_b^2 = (J1 + J2 + J3) / M (a length of the body:
//! twice its mean squared radius of gyration), the Gram matrix S = C W C^T has the rank of C.
//! The metric is the inverse masses' with the mass and the anisotropy of the inertia taken
//! out: with the true inverse masses a slender rod (a small moment about its axis) made S so
//! ill-conditioned that the round-off of an exactly redundant row reached 1.6e-10 of its
//! length (a four-bar of rods), above the threshold below; the Gram matrix squares the
//! condition number of C, so the metric must not add to it. The tree rows are
//! independent (each joint constrains its body relative to its parent), so the rank is
//! decided on the loop rows: their Gram matrix projected off the tree rows, D' = D - C A^-1 B
//! (`sparse/border.rs`), eliminated in row order. A loop row is **redundant** when its part
//! independent of the tree rows and of the loop rows kept before it is at most
//! [`REDUNDANT_REL`] of its length, in squared W-norms: |r_perp|^2 <= 1e-10 |r|^2, an angle
//! of 1e-5 rad between the row and the span of the others. (Round-off leaves about 1e-16 in
//! this ratio for a row that is exactly redundant; a mechanism built within 1e-5 rad of a
//! singular position is treated as singular.)
//!
//! Redundant rows are held at zero multiplier in every solve (`sparse/loops.rs` marks them, `sparse/border.rs` solves without them): the other rows
//! imply them, so the mechanism moves as drawn, and the director method conserves energy as
//! it does for any independent set of joints. A mechanism whose redundancy is only momentary
//! (an initial state that is a singular position) would let the dropped rows drift; the
//! constraint-drift chart shows it.
//!
//! Degrees of freedom: 6 n_bodies - (rows - redundant rows), Gruebler's count corrected by
//! the rank.
use crate::compiled::Compiled;
use crate::joints::{self, InverseMass, JointEval};
use crate::model::BodyState;
use crate::sparse::JointMatrix;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use glam::{DMat3, DVec3};

/// Relative threshold of the rank test (module docs).
pub const REDUNDANT_REL: f64 = 1e-10;

/// What the rank test found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mechanism {
    /// joint rows m
    pub rows: usize,
    /// joints that close a loop (not in the spanning tree of the bodies)
    pub loop_joints: usize,
    /// redundant rows, as global row numbers (ascending)
    pub redundant: Vec<usize>,
    /// degrees of freedom: 6 n_bodies - (rows - redundant rows)
    pub dof: i64,
}

/// Find the redundant rows of `c` at the states `init`, mark them in `c.pattern`, and return
/// the summary. Fails when the joints are degenerate at `init` (a tree pivot is singular).
pub fn analyse(c: &mut Compiled, init: &[BodyState]) -> Result<Mechanism, String> {
    let nb = c.bodies();
    let rows = c.pattern.dim();
    let loop_joints = c.pattern.loop_joints().len();
    let mut redundant = Vec::new();
    if loop_joints > 0 {
        let evals: Vec<JointEval> = c
            .frames
            .iter()
            .map(|f| joints::evaluate_frame(f, init, 0.0))
            .collect();
        let w: Vec<InverseMass> = c
            .model
            .bodies
            .iter()
            .map(|b| InverseMass {
                inv_mass: 1.0,
                inv_inertia: DMat3::from_diagonal(DVec3::splat(
                    b.mass / (b.inertia.x + b.inertia.y + b.inertia.z),
                )),
            })
            .collect();
        let mut s = JointMatrix::new(&c.pattern);
        joints::assemble(&evals, &evals, &w, c, &mut s);
        redundant = s
            .redundant_loop_rows(&c.pattern, REDUNDANT_REL)
            .ok_or_else(|| {
                String::from("the joints are degenerate at the initial state: the joints of the spanning tree of the bodies are not independent (check the joint axes)")
            })?;
        c.pattern.set_redundant(&redundant);
    }
    let dof = 6 * nb as i64 - (rows - redundant.len()) as i64;
    Ok(Mechanism {
        rows,
        loop_joints,
        redundant,
        dof,
    })
}

impl Mechanism {
    /// One line for people: "1 degree of freedom; 3 of 20 joint rows redundant (1 loop)", or
    /// for a tree "4 degrees of freedom (20 joint rows, no loop)".
    pub fn describe(&self) -> String {
        let dof = format!(
            "{} degree{} of freedom",
            self.dof,
            if self.dof == 1 { "" } else { "s" }
        );
        if self.loop_joints == 0 {
            return format!("{dof} ({} joint rows, no loop)", self.rows);
        }
        format!(
            "{dof}; {} of {} joint rows redundant ({} loop{})",
            self.redundant.len(),
            self.rows,
            self.loop_joints,
            if self.loop_joints == 1 { "" } else { "s" }
        )
    }
}
