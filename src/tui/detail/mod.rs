//! The three panes' content for one capture: raw, normalized, decoded.
//!
//! Built once when a capture is selected (or its outcome changes); rendering
//! only reads the result.

mod decoded;
mod diff;
mod job;
mod json;
mod normalized;
mod panes;
mod preview;
mod raw;
mod trace;

use crate::capture::Capture;
use crate::engine::{FailureKind, Outcome};
use crate::schema::Schema;

use super::doc::{note, Doc};
use super::search::Query;

pub(crate) use decoded::value_title;
pub use job::DetailJob;
pub(crate) use json::pretty;
pub use panes::{Detail, PaneState, Subject};
pub(crate) use preview::docs as preview;

/// Raw, normalized and decoded, in pane order. With the schema the outcome
/// was checked against, a `schema` failure lists and marks every violation.
pub(crate) fn build(
    capture: &Capture,
    outcome: &Outcome,
    query: Option<&Query>,
    schema: Option<&Schema>,
) -> [Doc; 3] {
    let is_schema_failure = outcome
        .failure
        .as_ref()
        .is_some_and(|failure| failure.kind == FailureKind::Schema);
    let violations = match (schema, &outcome.value) {
        (Some(schema), Some(value)) if is_schema_failure => schema.violations(value),
        _ => Vec::new(),
    };
    match &capture.text {
        Ok(raw) => {
            let lines = LineIndex::new(raw);
            [
                raw::with_reasoning(
                    raw::doc(raw, &lines, outcome, query),
                    capture.reasoning.as_deref(),
                ),
                normalized::doc(raw, &lines, outcome),
                decoded::doc(&lines, outcome, &violations),
            ]
        }
        Err(unreadable) => {
            let message = format!("unreadable: {}", unreadable.message);
            let raw = match &unreadable.bytes {
                Some(bytes) => raw::bytes_doc(bytes),
                None => note("unreadable", &message),
            };
            [
                raw,
                note("unreadable", "nothing was read, so nothing was normalized"),
                decoded::doc(&LineIndex::new(""), outcome, &violations),
            ]
        }
    }
}

/// Line starts of a text, to turn byte offsets into line:column.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, byte)| byte == b'\n')
                .map(|(at, _)| at + 1),
        );
        LineIndex { text, starts }
    }

    /// 1-based line of a byte offset.
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset).max(1)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub(crate) fn line_column(&self, offset: usize) -> (usize, usize) {
        let line = self.line(offset);
        let start = self.starts[line - 1];
        let end = floor_char_boundary(self.text, offset.min(self.text.len()));
        let column = self.text.get(start..end).map_or(0, |s| s.chars().count()) + 1;
        (line, column)
    }
}

pub(crate) use crate::text::floor_char_boundary;

/// The byte range of the character at `offset` (empty at the end of the text).
pub(crate) fn char_range(text: &str, offset: usize) -> (usize, usize) {
    let start = floor_char_boundary(text, offset);
    let len = text[start..].chars().next().map_or(0, char::len_utf8);
    (start, start + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let index = LineIndex::new("ab\ncé\nx");
        assert_eq!(index.line_column(0), (1, 1));
        assert_eq!(index.line_column(2), (1, 3));
        assert_eq!(index.line_column(3), (2, 1));
        assert_eq!(index.line_column(6), (2, 3));
        assert_eq!(index.line_column(7), (3, 1));
        assert_eq!(index.line_column(99), (3, 2));
    }

    #[test]
    fn char_ranges_respect_boundaries() {
        assert_eq!(char_range("cé", 2), (1, 3));
        assert_eq!(char_range("c", 5), (1, 1));
    }
}
