//! What `jxray check` prints: jsonl, json and the human text report with the
//! layer mix, each a [`Sink`] that writes a capture at a time; plus the
//! expected-versus-actual diff that `jxray test` shows.

mod diff;
mod json;
mod jsonl;
mod record;
mod sink;
mod style;
mod summary;
mod text;

pub use diff::{write_diff, write_mismatch};
pub use json::JsonSink;
pub use jsonl::JsonlSink;
pub use record::{FailureRecord, Record};
pub use sink::{write_all, Sink};
pub use style::{want_color, Painter, Tone};
pub use summary::Summary;
pub use text::{describe, detail, write_text, TextSink, LINE_UP};

use crate::capture::Capture;
use crate::engine::Outcome;

/// One capture and what extraction (and the schema, if any) said about it.
#[derive(Debug, Clone)]
pub struct Checked {
    pub capture: Capture,
    pub outcome: Outcome,
}
