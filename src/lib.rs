//! jxray: find, repair and explain the JSON in raw language-model output.
//!
//! The [`engine`] is the heart and knows nothing of files or terminals;
//! [`capture`] reads model outputs from disk, and the command line and the
//! terminal UI are clients of both.

pub mod capture;
pub mod engine;
pub mod fixture;
pub mod report;
pub mod schema;
pub mod watch;

pub use engine::{extract, Options, Outcome};
