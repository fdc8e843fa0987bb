//! Tumble: structure-preserving multibody dynamics.
//!
//! Three integrators run the same [`Model`] behind one [`Simulation::step`]:
//! - [`Method::Director`]: the energy-momentum director method of Nielsen & Krenk (2013),
//! - [`Method::Rattle`]: the Lie-group RATTLE / Stormer-Verlet step of Terze, Mueller & Zlatar (2013),
//! - [`Method::Baumgarte`]: the classic index-1 formulation with Baumgarte stabilisation.
//!
//! The crate is `no_std` with `alloc`; all transcendental math goes through `libm`
//! so native and wasm builds compute the same bits (the square root through `math::sqrt`:
//! std's instruction with the `std` feature, libm without; correctly rounded either way).
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]
// Clippy lints allowed for the whole crate, each for its reason:
// - needless_range_loop: the numeric kernels index rows and columns as the equations do
//   (a[i][j], piv[k], f[i]); iterator chains would hide which index is which;
// - neg_cmp_op_on_partial_ord: `!(x > 0.0)` is the deliberate test that also rejects NaN.
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord)]

extern crate alloc;

pub mod compiled;
pub mod contact;
pub mod coordinates;
pub mod custom;
mod custom_contact;
mod custom_controls;
mod custom_drives;
mod custom_forces;
mod custom_gimbal;
mod custom_mesh;
mod custom_rope;
mod custom_tendons;
mod custom_time;
pub mod forces;
pub mod invariants;
pub mod joint_kind;
pub mod joints;
mod json_path;
pub mod math;
pub mod mechanism;
pub mod methods;
pub mod model;
pub mod names;
pub mod presets;
pub mod reach;
pub mod scenario;
pub mod shapes;
pub mod simulation;
pub mod sparse;
pub mod step;
pub mod study;
pub mod text;
pub mod timefn;
pub mod validate;

pub use forces::ForceElement;
pub use invariants::Invariants;
pub use methods::{baumgarte, director, rattle};
pub use model::{Body, BodyState, Joint, JointKind, LimitKind, Model};
pub use scenario::{Scenario, ScenarioError};
pub use simulation::substep::MAX_SUBSTEPS;
pub use simulation::Simulation;
pub use step::{Method, Settings, StepError, StepInfo};
pub use timefn::TimeFn;
