//! The presets: the papers' systems (`paper.rs`, which also builds every preset by name), the
//! course systems (`course.rs`), the force elements' and drives' systems (`forces.rs`), the
//! crane (`crane.rs`) and the contact systems (`contact.rs`). `scenario.rs` holds the table of
//! names and parameters.
pub mod contact;
pub mod course;
pub mod crane;
pub mod forces;
mod paper;
pub mod table;

pub(crate) use paper::build;
pub use paper::hanging_chain;
