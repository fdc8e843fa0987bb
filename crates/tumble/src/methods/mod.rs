//! The three integrators, each a state, a scratch workspace and a step over the compiled model
//! (`compiled.rs`); `simulation.rs` runs them behind one interface.
//! - `director/`: the energy-momentum director method of Nielsen & Krenk (2013);
//! - `rattle/`: the Lie-group RATTLE / Stormer-Verlet step of Terze, Mueller & Zlatar (2013),
//!   extended to jointed systems;
//! - `baumgarte.rs`: the index-1 formulation with Baumgarte stabilisation (the STAR-CCM+ text).
pub mod baumgarte;
pub mod director;
pub mod rattle;
