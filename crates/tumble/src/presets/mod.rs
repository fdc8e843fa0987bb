//! The presets: the papers' systems (`paper.rs`, which also builds every preset by name from
//! its table of builders), the course systems (`course.rs`), the force elements' and drives'
//! systems (`forces.rs`), the IFToMM benchmarks (`iftomm.rs`), the crane (`crane.rs`) and the
//! contact systems (`contact.rs`). `table.rs` holds the table of names and parameters.
pub mod contact;
pub mod course;
pub mod crane;
pub mod forces;
pub mod iftomm;
mod paper;
pub mod table;

pub(crate) use paper::build;
pub use paper::hanging_chain;
