//! Wrapping a doc into screen rows for one width.
//!
//! Built once when the selection or the pane width changes, so scrolling is an
//! index into a vector and a frame only touches the rows it draws. Model
//! output is often one huge line; wrapping (rather than cutting) keeps all of
//! it reachable.

use super::doc::Doc;
use super::sanitize::glyph;

/// One screen row: a byte range of one logical line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub line: usize,
    pub start: usize,
    pub end: usize,
    /// Whether this is the line's first row (the one that shows the gutter).
    pub first: bool,
}

/// A doc wrapped at one width.
#[derive(Debug, Clone, Default)]
pub struct Rows {
    pub rows: Vec<Row>,
    pub width: usize,
    /// Whether a trailer row follows the last line.
    pub trailer: bool,
}

impl Rows {
    pub fn build(doc: &Doc, width: usize) -> Rows {
        let width = width.max(1);
        let mut rows = Vec::with_capacity(doc.lines.len());
        for (index, line) in doc.lines.iter().enumerate() {
            let text = doc.text.get(line.start..line.end).unwrap_or("");
            wrap_line(text, line.start, width, |start, end, first| {
                rows.push(Row {
                    line: index,
                    start,
                    end,
                    first,
                })
            });
        }
        Rows {
            rows,
            width,
            trailer: doc.trailer.is_some(),
        }
    }

    /// Rows in all, the trailer included.
    pub fn len(&self) -> usize {
        self.rows.len() + usize::from(self.trailer)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first row of logical line `line`.
    pub fn first_row_of_line(&self, line: usize) -> usize {
        self.rows.partition_point(|row| row.line < line)
    }

    /// The row that shows byte `offset` of the doc's text.
    pub fn row_of_offset(&self, offset: usize) -> usize {
        self.rows
            .partition_point(|row| row.start <= offset)
            .saturating_sub(1)
    }
}

/// Split one line (starting at byte `base`) into rows of at most `width`
/// columns, breaking after a space when one is in the second half of the row
/// so that words stay whole, and anywhere otherwise (long tokens, minified JSON).
fn wrap_line(text: &str, base: usize, width: usize, mut emit: impl FnMut(usize, usize, bool)) {
    let mut row_start = 0;
    let mut column = 0;
    let mut first = true;
    // The byte just after the last space in this row, when it is past half the width.
    let mut after_space: Option<usize> = None;
    for (offset, ch) in text.char_indices() {
        let mut glyph_width = width_at(ch, column);
        if column > 0 && column + glyph_width > width {
            let cut = after_space.filter(|&at| at > row_start).unwrap_or(offset);
            emit(base + row_start, base + cut, first);
            first = false;
            row_start = cut;
            after_space = None;
            // Tab stops restart with the row: measure what moved down again.
            column = columns(&text[cut..offset]);
            if ch == '\t' {
                glyph_width = width_at(ch, column);
            }
        }
        column += glyph_width;
        if ch == ' ' && column * 2 > width {
            after_space = Some(offset + 1);
        }
    }
    emit(base + row_start, base + text.len(), first);
}

/// Columns of `ch` at `column`; printable ASCII (most model output) skips the lookup.
fn width_at(ch: char, column: usize) -> usize {
    if ch.is_ascii_graphic() || ch == ' ' {
        1
    } else {
        glyph(ch, column).width()
    }
}

fn columns(text: &str) -> usize {
    let mut column = 0;
    for ch in text.chars() {
        column += width_at(ch, column);
    }
    column
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::doc::{DocBuilder, Gutter, Paint};

    fn doc(lines: &[&str]) -> Doc {
        let mut builder = DocBuilder::new();
        for line in lines {
            builder.push(line, Paint::Plain);
            builder.end_line(Gutter::None);
        }
        builder.finish("")
    }

    fn texts(doc: &Doc, rows: &Rows) -> Vec<String> {
        rows.rows
            .iter()
            .map(|row| doc.text[row.start..row.end].to_string())
            .collect()
    }

    #[test]
    fn long_lines_wrap_and_short_ones_do_not() {
        let doc = doc(&["abcdefgh", "", "xy"]);
        let rows = Rows::build(&doc, 3);
        assert_eq!(texts(&doc, &rows), ["abc", "def", "gh", "", "xy"]);
        assert_eq!(
            rows.rows.iter().map(|r| r.first).collect::<Vec<_>>(),
            [true, false, false, true, true]
        );
        assert_eq!(rows.first_row_of_line(2), 4);
        assert_eq!(rows.row_of_offset(4), 1);
    }

    #[test]
    fn wide_characters_and_markers_wrap_by_columns() {
        let doc = doc(&["東京東", "a\u{200b}b"]);
        let rows = Rows::build(&doc, 4);
        assert_eq!(texts(&doc, &rows), ["東京", "東", "a", "\u{200b}", "b"]);
    }

    #[test]
    fn words_stay_whole_when_a_space_allows() {
        let doc = doc(&["the quick brown fox", "abcdefghij klm"]);
        let rows = Rows::build(&doc, 10);
        assert_eq!(
            texts(&doc, &rows),
            ["the quick ", "brown fox", "abcdefghij", " klm"]
        );
    }

    #[test]
    fn zero_width_still_makes_progress() {
        let doc = doc(&["abc"]);
        let rows = Rows::build(&doc, 0);
        assert_eq!(texts(&doc, &rows), ["a", "b", "c"]);
    }
}
