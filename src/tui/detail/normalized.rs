//! The Normalized pane: the candidate the parser saw.
//!
//! With lossless repairs it is a diff against the raw span; for a failure it
//! is the lenient reading as a diff marked "not accepted" (what the model
//! meant), or else the rejected candidate with the failure marked.

use crate::engine::{FailureKind, Layer, LenientReading, Outcome, Verdict};
use crate::text::count_of;
use crate::tui::doc::{note, Doc, DocBuilder, Paint, Styled};

use super::raw::numbered;
use super::{char_range, diff, LineIndex};

pub(super) fn doc(raw: &str, lines: &LineIndex, outcome: &Outcome) -> Doc {
    if let (Some((start, end)), None) = (outcome.span, &outcome.failure) {
        let Some(span_text) = raw.get(start..end) else {
            return note("", "the accepted span is outside the text");
        };
        let candidate = outcome.normalized(raw).unwrap_or(span_text);
        if candidate == span_text {
            return numbered(
                span_text,
                start,
                lines.line(start),
                None,
                Vec::new(),
                "same as the raw span",
            );
        }
        let title = if outcome.layer == Some(Layer::Lenient) {
            "lenient reading, accepted: diff against raw".to_string()
        } else {
            format!(
                "{}, diff against raw",
                count_of(outcome.repairs.len(), "repair")
            )
        };
        let mut builder = DocBuilder::new();
        diff::write(&mut builder, span_text, candidate, lines.line(start));
        return builder.finish(title);
    }
    if let Some(failure) = &outcome.failure {
        if failure.kind == FailureKind::Unreadable {
            return note("", "nothing was read, so nothing was normalized");
        }
    }
    if let Some(reading) = outcome.lenient.as_ref().filter(|r| !r.accepted) {
        if let Some(doc) = lenient(raw, lines, reading) {
            return doc;
        }
    }
    rejected_candidate(raw, lines, outcome)
}

/// The lenient reading as a diff, headed by a clear "not accepted".
fn lenient(raw: &str, lines: &LineIndex, reading: &LenientReading) -> Option<Doc> {
    let (start, end) = reading.span;
    let span_text = raw.get(start..end)?;
    let mut builder = DocBuilder::new();
    builder.push("NOT ACCEPTED", Paint::Bad);
    builder.push(
        " — a lenient reading, shown to explain the failure",
        Paint::Note,
    );
    builder.blank();
    let fixes: Vec<&str> = reading.repairs.iter().map(|r| r.kind.as_str()).collect();
    if !fixes.is_empty() {
        builder.push("fixes: ", Paint::Note);
        builder.push(&dedup(&fixes).join(", "), Paint::Plain);
        builder.blank();
    }
    match (&reading.value, &reading.error) {
        (Some(_), _) => {
            builder.push("✓ ", Paint::Good);
            builder.push(
                "the fixed text parses; press l to accept lenient readings",
                Paint::Note,
            );
        }
        (None, Some(error)) => {
            builder.push("✗ ", Paint::Bad);
            builder.push(&format!("still not JSON: {error}"), Paint::Note);
        }
        (None, None) => builder.push("the fixed text was not parsed", Paint::Note),
    }
    builder.blank();
    builder.blank();
    diff::write(&mut builder, span_text, &reading.text, lines.line(start));
    Some(builder.finish("lenient reading, not accepted"))
}

/// The candidate that produced the reported failure, with the failure marked.
fn rejected_candidate(raw: &str, lines: &LineIndex, outcome: &Outcome) -> Doc {
    let Some(failure) = &outcome.failure else {
        return note("", "no candidate was accepted");
    };
    let candidate = outcome
        .trace
        .iter()
        .find_map(|attempt| match attempt.verdict {
            Verdict::Rejected { kind, offset, .. }
                if kind == failure.kind && offset == failure.offset =>
            {
                Some(attempt.span)
            }
            _ => None,
        });
    let Some((start, end)) = candidate.filter(|&(s, e)| s <= e && e <= raw.len()) else {
        let message = match failure.kind {
            FailureKind::NoJson => "no candidate: nothing in the text looks like JSON",
            _ => "no single candidate to show; the trace in Decoded lists each one",
        };
        return note("", message);
    };
    let (mark_start, mark_end) = char_range(raw, failure.offset);
    let marks = vec![Styled {
        start: mark_start,
        end: mark_end,
        paint: Paint::Failure,
    }];
    let mut doc = numbered(
        &raw[start..end],
        start,
        lines.line(start),
        None,
        marks,
        &format!("rejected candidate: {}", failure.kind.as_str()),
    );
    if mark_start >= end {
        doc.trailer = Some((
            format!("◀ the candidate ends here: {}", failure.kind.as_str()),
            Paint::Failure,
        ));
    }
    doc
}

fn dedup<'a>(items: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for item in items {
        if !out.contains(item) {
            out.push(item);
        }
    }
    out
}
