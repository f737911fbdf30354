//! Wrapping a doc into screen rows for one width.
//!
//! Built once when the selection or the pane width changes, so scrolling is an
//! index into a vector and a frame only touches the rows it draws. Model
//! output is often one huge line; wrapping (rather than cutting) keeps all of
//! it reachable.

use super::doc::{Doc, Gutter};
use super::sanitize::glyph;

/// One screen row: a byte range of one logical line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrappedRow {
    pub line: usize,
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Whether this is the line's first row (the one that shows the gutter).
    pub(crate) first: bool,
    /// Blank columns drawn before a continuation row, so a wrapped line of
    /// indented JSON stays under its own indentation.
    pub(crate) indent: usize,
}

/// A doc wrapped at one width.
#[derive(Debug, Clone, Default)]
pub struct Rows {
    pub rows: Vec<WrappedRow>,
    pub width: usize,
    /// Whether a trailer row follows the last line.
    pub(crate) trailer: bool,
}

impl Rows {
    pub(crate) fn build(doc: &Doc, width: usize) -> Rows {
        let width = width.max(1);
        let mut rows = Vec::with_capacity(doc.lines.len());
        for (index, line) in doc.lines.iter().enumerate() {
            let text = doc.text.get(line.start..line.end).unwrap_or("");
            // Lines without a gutter are built text (the decoded value, notes):
            // they wrap between words and tokens and keep their indentation.
            // Numbered raw text wraps as it is.
            let hanging = matches!(line.gutter, Gutter::None);
            let indent = if hanging {
                hanging_indent(text, width)
            } else {
                0
            };
            let wrap = Wrap {
                width,
                indent,
                anywhere: hanging,
            };
            wrap_line(text, line.start, wrap, |start, end, first| {
                rows.push(WrappedRow {
                    line: index,
                    start,
                    end,
                    first,
                    indent: if first { 0 } else { indent },
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

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first row of logical line `line`.
    pub(crate) fn first_row_of_line(&self, line: usize) -> usize {
        self.rows.partition_point(|row| row.line < line)
    }

    /// The row that shows byte `offset` of the doc's text.
    pub(crate) fn row_of_offset(&self, offset: usize) -> usize {
        self.rows
            .partition_point(|row| row.start <= offset)
            .saturating_sub(1)
    }
}

/// How one line wraps.
#[derive(Debug, Clone, Copy)]
struct Wrap {
    width: usize,
    /// Columns a continuation row starts with (and so has fewer for text).
    indent: usize,
    /// Break after any space, not only one in the second half of the row.
    anywhere: bool,
}

/// The indentation of `text` as kept on its continuation rows: at most half the width.
fn hanging_indent(text: &str, width: usize) -> usize {
    let leading = text.len() - text.trim_start_matches(' ').len();
    // Indented one step further than the line itself, as editors do.
    let indent = if leading > 0 { leading + 2 } else { 0 };
    if indent * 2 > width {
        0
    } else {
        indent
    }
}

/// Split one line (starting at byte `base`) into rows of at most `width`
/// columns, breaking after a space so that words stay whole (in raw text only
/// when the space is in the second half of the row), and anywhere otherwise
/// (long tokens, minified JSON).
fn wrap_line(text: &str, base: usize, wrap: Wrap, mut emit: impl FnMut(usize, usize, bool)) {
    let mut row_start = 0;
    let mut column = 0;
    let mut first = true;
    let mut width = wrap.width;
    // The byte just after the last space where this row may break.
    let mut after_space: Option<usize> = None;
    let indent_end = text.len() - text.trim_start_matches(' ').len();
    for (offset, ch) in text.char_indices() {
        let mut glyph_width = width_at(ch, column);
        if column > 0 && column + glyph_width > width {
            let cut = after_space.filter(|&at| at > row_start).unwrap_or(offset);
            emit(base + row_start, base + cut, first);
            first = false;
            width = wrap.width.saturating_sub(wrap.indent).max(1);
            row_start = cut;
            after_space = None;
            // Tab stops restart with the row: measure what moved down again.
            column = columns(&text[cut..offset]);
            if ch == '\t' {
                glyph_width = width_at(ch, column);
            }
        }
        column += glyph_width;
        let breakable = if wrap.anywhere {
            offset >= indent_end
        } else {
            column * 2 > width
        };
        if ch == ' ' && breakable {
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
    use crate::tui::doc::{DocBuilder, Paint};

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
    fn built_lines_break_between_words_and_keep_their_indentation() {
        // 22 columns: the value (18) fits on a continuation row under its indent (4).
        let doc = doc(&["  \"category\": \"feature-request\","]);
        let rows = Rows::build(&doc, 22);
        assert_eq!(
            texts(&doc, &rows),
            ["  \"category\": ", "\"feature-request\","]
        );
        assert_eq!(rows.rows[1].indent, 4);
        let numbered = {
            let mut builder = DocBuilder::new();
            builder.push("  ab cdefghij", Paint::Plain);
            builder.end_line(Gutter::Number {
                number: 1,
                marked: false,
            });
            builder.finish("")
        };
        let rows = Rows::build(&numbered, 8);
        assert_eq!(rows.rows[1].indent, 0, "raw text wraps as it is");
    }

    #[test]
    fn zero_width_still_makes_progress() {
        let doc = doc(&["abc"]);
        let rows = Rows::build(&doc, 0);
        assert_eq!(texts(&doc, &rows), ["a", "b", "c"]);
    }
}
