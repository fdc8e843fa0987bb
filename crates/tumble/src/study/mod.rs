//! Convergence studies, shared by `tumble study` and the page's Study view (through
//! tumble-wasm), so that both compute the same bits: the runs of a study ([`Plan`]), one run
//! measured after every step ([`Run`], [`Record`]), and the report ([`Report`]: errors against
//! the reference, observed orders, the long runs) as JSON or CSV.
//!
//! Nothing here measures time: the caller times the steps (the CLI each `Simulation::step`, the
//! page's worker its chunks of steps) and stores the sum in [`Record::wall_seconds`]. All
//! transcendental functions go through libm, so native and wasm builds agree to the bit.
mod plan;
mod report;
mod run;
pub use plan::*;
pub use report::*;
pub use run::*;
