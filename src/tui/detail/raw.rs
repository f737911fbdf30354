//! The Raw pane: the text exactly as it is, with what extraction found marked.

use std::sync::Arc;

use crate::capture::envelope::Reasoning;
use crate::engine::{FailureKind, Outcome, WarningKind};
use crate::text::count_of;
use crate::tui::doc::{Doc, DocLine, Gutter, Paint, Styled};
use crate::tui::search::Query;

use super::{char_range, LineIndex};

/// Search hits marked in one pane; more would only slow the frame down.
const MATCH_LIMIT: usize = 10_000;

pub(super) fn doc(raw: &str, lines: &LineIndex, outcome: &Outcome, query: Option<&Query>) -> Doc {
    let span = outcome.span;
    let mut marks = Vec::new();
    if let Some((start, end)) = span {
        marks.push(styled(start, end, Paint::Accepted));
    }
    marks.extend(dim_regions(raw));
    for repair in &outcome.repairs {
        let (start, end) = char_range(raw, repair.offset);
        marks.push(styled(start, end, Paint::Repair));
    }
    let mut trailer = None;
    if let Some(failure) = &outcome.failure {
        if failure.kind != FailureKind::Unreadable {
            let (start, end) = char_range(raw, failure.offset);
            if start < end {
                marks.push(styled(start, end, Paint::Failure));
            } else {
                trailer = Some((
                    format!("◀ the text ends here: {}", failure.kind.as_str()),
                    Paint::Failure,
                ));
            }
        }
    }
    if let Some(query) = query {
        for (start, end) in query.find_all(raw, MATCH_LIMIT) {
            marks.push(styled(start, end, Paint::Match));
        }
    }
    let title = format!(
        "{}{}, {}",
        origin_label(outcome),
        count_of(raw.len(), "byte"),
        count_of(lines.line(raw.len().saturating_sub(1)), "line")
    );
    let mut doc = numbered(raw, 0, 1, span, marks, &title);
    doc.trailer = trailer;
    doc
}

/// The reasoning a response held beside its text, after the text under a heading that
/// names its field, dimmed and without line numbers: read, never judged (offsets into the
/// raw text stay as they are).
pub(super) fn with_reasoning(mut doc: Doc, reasoning: Option<&Reasoning>) -> Doc {
    let Some(reasoning) = reasoning.filter(|reasoning| !reasoning.text.is_empty()) else {
        return doc;
    };
    let mut text = String::from(&*doc.text);
    let start = text.len() + 1;
    text.push('\n');
    text.push_str(&format!(
        "── reasoning, from `{}` (not the answer) ──",
        reasoning.field
    ));
    let mut lines = vec![(start, text.len())];
    text.push('\n');
    for piece in reasoning.text.split('\n') {
        let line_start = text.len();
        text.push_str(piece);
        lines.push((line_start, text.len()));
        text.push('\n');
    }
    text.pop();
    doc.lines
        .extend(lines.into_iter().map(|(start, end)| DocLine {
            start,
            end,
            gutter: Gutter::None,
        }));
    doc.marks.push(styled(start, text.len(), Paint::Dim));
    doc.text = Arc::from(text);
    doc
}

/// Where the text came from when it is not the message text: the reasoning field the
/// server put the answer in (`answer-in-thinking`), so nobody takes it for `content`.
fn origin_label(outcome: &Outcome) -> &'static str {
    let from_reasoning = outcome
        .warnings
        .iter()
        .any(|warning| warning.kind == WarningKind::AnswerInThinking);
    if from_reasoning {
        "the reasoning field (the text was empty): "
    } else {
        ""
    }
}

/// Bytes that are not UTF-8, as text: every valid run as it is, every invalid byte
/// as `⟨E9⟩`, marked as the failure, so the user sees where the encoding broke.
pub(super) fn bytes_doc(bytes: &[u8]) -> Doc {
    let mut text = String::with_capacity(bytes.len());
    let mut marks = Vec::new();
    let mut invalid = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let start = text.len();
            text.push_str(&format!("⟨{byte:02X}⟩"));
            marks.push(styled(start, text.len(), Paint::Failure));
            invalid += 1;
        }
    }
    // Short enough for the pane's title at 80 columns.
    let title = format!(
        "{}, {} not UTF-8 ⟨XX⟩",
        count_of(bytes.len(), "byte"),
        invalid
    );
    numbered(&text, 0, 1, None, marks, &title)
}

/// A slice of the raw text with raw line numbers: `text` starts at raw byte
/// `base` on raw line `first_line`; `span` and `marks` are in raw offsets.
pub(super) fn numbered(
    text: &str,
    base: usize,
    first_line: usize,
    span: Option<(usize, usize)>,
    marks: Vec<Styled>,
    title: &str,
) -> Doc {
    let mut doc_lines = Vec::new();
    let mut start = 0;
    let pieces: Vec<&str> = text.split('\n').collect();
    let count = if text.ends_with('\n') {
        pieces.len() - 1
    } else {
        pieces.len()
    };
    for (index, piece) in pieces.iter().take(count.max(1)).enumerate() {
        let end = start + piece.len();
        let marked = span.is_some_and(|(s, e)| base + start < e.max(s + 1) && base + end >= s);
        doc_lines.push(DocLine {
            start,
            end,
            gutter: Gutter::Number {
                number: first_line + index,
                marked,
            },
        });
        start = end + 1;
    }
    let mut marks: Vec<Styled> = marks
        .into_iter()
        .filter_map(|mark| {
            if mark.end <= base {
                return None;
            }
            let start = mark.start.saturating_sub(base).min(text.len());
            let end = mark.end.saturating_sub(base).min(text.len());
            (start < end).then_some(styled(start, end, mark.paint))
        })
        .collect();
    marks.sort_by_key(|mark| mark.start);
    Doc {
        title: title.to_string(),
        text: Arc::from(text),
        lines: doc_lines,
        tokens: Vec::new(),
        marks,
        trailer: None,
    }
}

fn styled(start: usize, end: usize, paint: Paint) -> Styled {
    Styled { start, end, paint }
}

/// Fence lines and `<think>` blocks: packaging, not content, so drawn dim.
fn dim_regions(raw: &str) -> Vec<Styled> {
    let mut regions = Vec::new();
    let mut at = 0;
    for line in raw.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            regions.push(styled(at, at + line.trim_end().len(), Paint::Dim));
        }
        at += line.len();
    }
    let mut from = 0;
    while let Some(open) = raw[from..].find("<think>").map(|i| i + from) {
        let close = raw[open..]
            .find("</think>")
            .map_or(raw.len(), |i| open + i + "</think>".len());
        regions.push(styled(open, close, Paint::Dim));
        from = close;
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_and_think_blocks_are_dimmed() {
        let raw = "<think>hm</think>\n```json\n{}\n```\n";
        let regions = dim_regions(raw);
        let texts: Vec<&str> = regions.iter().map(|r| &raw[r.start..r.end]).collect();
        assert_eq!(texts, ["```json", "```", "<think>hm</think>"]);
        assert_eq!(dim_regions("<think>open").len(), 1);
    }

    #[test]
    fn numbered_lines_mark_the_span_and_drop_the_final_break() {
        let raw = "a\n{\"x\":1}\nb\n";
        let doc = numbered(raw, 0, 1, Some((2, 9)), Vec::new(), "");
        assert_eq!(doc.lines.len(), 3);
        let marked: Vec<bool> = doc
            .lines
            .iter()
            .map(|line| matches!(line.gutter, Gutter::Number { marked: true, .. }))
            .collect();
        assert_eq!(marked, [false, true, false]);
    }

    #[test]
    fn invalid_bytes_are_shown_and_marked() {
        let doc = bytes_doc(b"{\"caf\xE9\": 1,\n \"x\": \xFF\xFE}");
        assert_eq!(&*doc.text, "{\"caf⟨E9⟩\": 1,\n \"x\": ⟨FF⟩⟨FE⟩}");
        let marked: Vec<&str> = doc
            .marks
            .iter()
            .map(|m| &doc.text[m.start..m.end])
            .collect();
        assert_eq!(marked, ["⟨E9⟩", "⟨FF⟩", "⟨FE⟩"]);
        assert_eq!(doc.title, "21 bytes, 3 not UTF-8 ⟨XX⟩");
    }

    #[test]
    fn an_answer_read_from_the_reasoning_is_labelled() {
        let raw = "{\"a\": 1}";
        let mut outcome = Outcome::default();
        let plain = doc(raw, &LineIndex::new(raw), &outcome, None);
        assert_eq!(plain.title, "8 bytes, 1 line");
        outcome.warnings.push(crate::engine::Warning::new(
            WarningKind::AnswerInThinking,
            None,
            "from `reasoning_content`",
        ));
        let labelled = doc(raw, &LineIndex::new(raw), &outcome, None);
        assert!(
            labelled.title.starts_with("the reasoning field"),
            "{}",
            labelled.title
        );
    }

    #[test]
    fn reasoning_beside_the_text_follows_it_labelled_and_unnumbered() {
        let raw = "{\"a\": 1}";
        let outcome = Outcome::default();
        let plain = doc(raw, &LineIndex::new(raw), &outcome, None);
        let reasoning = Reasoning {
            field: "reasoning_content".into(),
            text: "think\nmore".into(),
        };
        let shown = with_reasoning(plain, Some(&reasoning));
        let lines: Vec<&str> = shown
            .lines
            .iter()
            .map(|line| &shown.text[line.start..line.end])
            .collect();
        assert_eq!(
            lines,
            [
                raw,
                "── reasoning, from `reasoning_content` (not the answer) ──",
                "think",
                "more"
            ]
        );
        assert!(matches!(shown.lines[0].gutter, Gutter::Number { .. }));
        assert!(shown.lines[1..]
            .iter()
            .all(|line| line.gutter == Gutter::None));
        let unchanged = with_reasoning(doc(raw, &LineIndex::new(raw), &outcome, None), None);
        assert_eq!(&*unchanged.text, raw);
    }

    #[test]
    fn marks_shift_into_a_slice() {
        let doc = numbered(
            "bc",
            1,
            1,
            None,
            vec![styled(2, 3, Paint::Failure), styled(0, 1, Paint::Dim)],
            "",
        );
        assert_eq!(doc.marks, [styled(1, 2, Paint::Failure)]);
    }
}
