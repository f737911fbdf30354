//! The trace: every candidate extraction tried, its layer and span, and its verdict.

use crate::engine::{Attempt, Outcome, Verdict};
use crate::tui::doc::{DocBuilder, Paint};

use super::LineIndex;

/// Append one line per attempt (and one for any left out).
pub(super) fn write(builder: &mut DocBuilder, lines: &LineIndex, outcome: &Outcome) {
    if outcome.trace.is_empty() {
        builder.push("no candidate was tried", Paint::Note);
        builder.blank();
    }
    for attempt in &outcome.trace {
        write_attempt(builder, lines, attempt);
    }
    if outcome.trace_omitted > 0 {
        builder.push(
            &format!("… and {} more candidates not kept", outcome.trace_omitted),
            Paint::Note,
        );
        builder.blank();
    }
}

fn write_attempt(builder: &mut DocBuilder, lines: &LineIndex, attempt: &Attempt) {
    let (symbol, word, paint) = match &attempt.verdict {
        Verdict::Accepted => ("✓", "accepted", Paint::Good),
        Verdict::Passed { .. } => ("○", "passed over", Paint::Note),
        Verdict::Rejected { .. } => ("✗", "rejected", Paint::Bad),
        Verdict::Skipped { .. } => ("–", "skipped", Paint::Note),
    };
    let (start, end) = attempt.span;
    let (line, column) = lines.line_column(start);
    builder.push(&format!("{symbol} {word}"), paint);
    builder.push(&format!(" {} ", attempt.layer.as_str()), Paint::Key);
    builder.push(&format!("at {line}:{column} ({start}..{end})"), Paint::Note);
    builder.blank();
    builder.push("    ", Paint::Plain);
    builder.push(&attempt.label, Paint::Plain);
    builder.blank();
    let reason = match &attempt.verdict {
        Verdict::Accepted => None,
        Verdict::Passed { reason } | Verdict::Skipped { reason } => Some(reason.clone()),
        Verdict::Rejected {
            kind,
            defect,
            offset,
            message,
        } => {
            let (line, column) = lines.line_column(*offset);
            let defect = defect
                .map(|d| format!(" ({})", d.as_str()))
                .unwrap_or_default();
            Some(format!(
                "{}{defect} at {line}:{column}: {message}",
                kind.as_str()
            ))
        }
    };
    if let Some(reason) = reason {
        builder.push("    ", Paint::Plain);
        builder.push(&reason, Paint::Note);
        builder.blank();
    }
}
