//! What `jxray check` prints: jsonl, json, the human text report with the
//! layer mix and the CI formats (junit, github), plus the expected-versus-actual
//! diff that `jxray test` shows.

pub mod ci;
mod diff;
pub mod gate;
pub mod github;
mod junit;
mod record;
mod style;
mod summary;
mod text;

use std::io::{self, Write};

use serde::Serialize;

pub use ci::{CiCase, CiStatus};
pub use diff::{write_diff, write_mismatch};
pub use gate::DriftGate;
pub use github::{GithubReport, StepSummary};
pub use junit::JunitReport;
pub use record::{FailureRecord, Record};
pub use style::{want_color, Painter, Tone};
pub use summary::Summary;
pub(crate) use text::visible;
pub use text::{describe, detail, write_text, write_text_where};

use crate::capture::Capture;
use crate::engine::Outcome;
use crate::text::JsonSafe;

/// One capture and what extraction (and the schema, if any) said about it.
#[derive(Debug, Clone)]
pub struct Checked {
    pub capture: Capture,
    pub outcome: Outcome,
}

/// One JSON object per capture, one a line.
/// C1 and bidi controls in strings are written as `\uXXXX` (contract §3).
pub fn write_jsonl(out: &mut dyn Write, checked: &[Checked]) -> io::Result<()> {
    let mut out = JsonSafe::new(out);
    for item in checked {
        serde_json::to_writer(&mut out, &Record::new(item))?;
        out.write_all(b"\n")?;
    }
    out.into_inner().map(drop)
}

/// One document (C1 and bidi controls escaped as in [`write_jsonl`]): `{"captures": [...], "summary": {...}}`.
pub fn write_json(out: &mut dyn Write, checked: &[Checked]) -> io::Result<()> {
    write_json_where(out, checked, &|_| true)
}

/// Like [`write_json`], listing only the captures `show` keeps; the summary still counts
/// every capture (`--only-failures`).
pub fn write_json_where(
    out: &mut dyn Write,
    checked: &[Checked],
    show: &dyn Fn(&Checked) -> bool,
) -> io::Result<()> {
    #[derive(Serialize)]
    struct Document<'a> {
        captures: Vec<Record<'a>>,
        summary: Summary,
    }
    let document = Document {
        captures: checked
            .iter()
            .filter(|c| show(c))
            .map(Record::new)
            .collect(),
        summary: Summary::from_outcomes(checked.iter().map(|c| &c.outcome)),
    };
    let mut out = JsonSafe::new(out);
    serde_json::to_writer_pretty(&mut out, &document)?;
    out.write_all(b"\n")?;
    out.into_inner().map(drop)
}
