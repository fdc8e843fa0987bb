//! What a simulation steps with: each method's state and workspace (`Solver`), and a copy of a
//! method's state from before a step, for the sub-steps through contact (`Saved`, `substep.rs`).
use crate::methods::{baumgarte, director, rattle};

/// Each method's state and workspace (one per simulation: the size of the director's variant
/// costs nothing, so it is not boxed).
#[allow(clippy::large_enum_variant)]
pub(super) enum Solver {
    Director(director::State, director::Workspace),
    Rattle(rattle::State, rattle::Workspace),
    Baumgarte(baumgarte::State, baumgarte::Workspace),
}

/// A method's state before a step (the same variant as the simulation's solver; like the
/// solver, not boxed: one per simulation, and its size costs nothing).
#[allow(clippy::large_enum_variant)]
pub(super) enum Saved {
    Director(director::State),
    Rattle(rattle::State),
    Baumgarte(baumgarte::State),
}

impl Saved {
    /// A copy of the solver's state, as storage for later saves.
    pub(super) fn of(solver: &Solver) -> Saved {
        match solver {
            Solver::Director(s, _) => Saved::Director(s.clone()),
            Solver::Rattle(s, _) => Saved::Rattle(s.clone()),
            Solver::Baumgarte(s, _) => Saved::Baumgarte(s.clone()),
        }
    }
}
