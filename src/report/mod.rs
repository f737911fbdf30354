//! What `jxray check` prints: jsonl, json, the human text report with the layer mix and
//! the CI formats (junit, github), each a [`Sink`] that takes a capture at a time; plus
//! the expected-versus-actual diff that `jxray test` shows.

mod chains;
pub(crate) mod ci;
mod early;
pub(crate) mod gate;
pub(crate) mod github;
pub(crate) mod groups;
mod html;
mod json;
mod jsonl;
mod junit;
mod marks;
mod sink;
mod summary;
mod text;

pub(crate) use chains::ChainTally;
pub(crate) use ci::{CiCase, CiStatus};
pub(crate) use gate::DriftGate;
pub(crate) use github::{GithubReport, GithubSink};
pub(crate) use groups::Groups;
pub(crate) use html::HtmlSink;
pub(crate) use json::JsonSink;
pub use jsonl::JsonlSink;
pub(crate) use junit::{JunitReport, JunitSink};
pub use jxray_formats::fixture::diff::{write_diff, write_mismatch};
pub use jxray_formats::style::{want_color, Painter, Tone};
pub use sink::{write_all, ByGroup, OnlyFailures, Sink, WithChains};
pub use summary::Summary;
pub(crate) use text::visible;
pub use text::{describe, detail, write_text, TextSink, LINE_UP};

use crate::check::Checked;
