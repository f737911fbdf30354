//! A pane's content: text, its lines, and what each byte range means.
//!
//! Every pane (raw, normalized, decoded) is built once per selected capture
//! into a [`Doc`]. Styles are semantic ([`Paint`]) and resolved by the theme
//! only for the rows on screen, so a capture of several MB costs one pass to
//! build and nothing per frame beyond what is visible.

use std::sync::Arc;

/// What a piece of text is; the theme turns it into a style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Paint {
    Plain,
    Dim,
    Heading,
    Key,
    Str,
    Num,
    Literal,
    /// The accepted candidate in the raw text.
    Accepted,
    /// Where the failure is.
    Failure,
    /// A byte a repair changed.
    Repair,
    /// A search hit.
    Match,
    DiffDelete,
    DiffInsert,
    /// The changed words inside a changed line.
    DiffEmphasis,
    Good,
    Bad,
    Note,
}

/// A styled byte range of a doc's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Styled {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) paint: Paint,
}

/// What the gutter shows for a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gutter {
    None,
    /// A line number; `marked` draws a bar for lines inside the accepted span.
    Number {
        number: usize,
        marked: bool,
    },
    /// Old and new line numbers of a diff line and its sign (`-`, `+` or space).
    Diff {
        old: Option<usize>,
        new: Option<usize>,
        sign: char,
    },
}

/// One logical line: a byte range of the text (without its line break).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DocLine {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) gutter: Gutter,
}

/// A pane's content.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    /// Shown after the pane's name in its title: "2 repairs, diff against raw".
    pub(crate) title: String,
    pub text: Arc<str>,
    pub(crate) lines: Vec<DocLine>,
    /// Sorted, non-overlapping base styles (JSON tokens, diff lines).
    pub(crate) tokens: Vec<Styled>,
    /// Sorted by start, may overlap: spans, failure position, repairs, search hits.
    pub(crate) marks: Vec<Styled>,
    /// A closing note drawn after the last line ("the text ends here").
    pub(crate) trailer: Option<(String, Paint)>,
}

impl Doc {
    /// Columns the gutter takes, including its separating space.
    pub(crate) fn gutter_width(&self) -> usize {
        let mut widest = 0;
        let mut diff = false;
        for line in &self.lines {
            match line.gutter {
                Gutter::None => {}
                Gutter::Number { number, .. } => widest = widest.max(number),
                Gutter::Diff { old, new, .. } => {
                    diff = true;
                    widest = widest.max(old.unwrap_or(0)).max(new.unwrap_or(0));
                }
            }
        }
        if widest == 0 && !diff {
            return 0;
        }
        let digits = widest.max(1).to_string().len();
        if diff {
            // "old new ± "
            digits * 2 + 4
        } else {
            // "number▎"
            digits + 2
        }
    }

    /// The logical line holding byte `offset` (the last line for offsets past the end).
    #[cfg(test)]
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|line| line.start <= offset)
            .saturating_sub(1)
    }
}

/// Builds a doc line by line.
#[derive(Debug, Default)]
pub(crate) struct DocBuilder {
    text: String,
    lines: Vec<DocLine>,
    tokens: Vec<Styled>,
    marks: Vec<Styled>,
    line_start: usize,
}

impl DocBuilder {
    pub(crate) fn new() -> DocBuilder {
        DocBuilder::default()
    }

    /// Append text to the current line.
    pub(crate) fn push(&mut self, text: &str, paint: Paint) {
        let start = self.text.len();
        self.text.push_str(text);
        if paint != Paint::Plain && !text.is_empty() {
            self.tokens.push(Styled {
                start,
                end: self.text.len(),
                paint,
            });
        }
    }

    /// Append text with a mark over it (drawn on top of its token style).
    pub(crate) fn push_marked(&mut self, text: &str, paint: Paint, mark: Paint) {
        let start = self.text.len();
        self.push(text, paint);
        self.marks.push(Styled {
            start,
            end: self.text.len(),
            paint: mark,
        });
    }

    /// Bytes written so far: where the next push starts.
    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    /// Mark everything written since byte `start` (drawn on top of its token style).
    pub(crate) fn mark_from(&mut self, start: usize, mark: Paint) {
        if start < self.text.len() {
            self.marks.push(Styled {
                start,
                end: self.text.len(),
                paint: mark,
            });
        }
    }

    /// Whether the current line has no text yet.
    pub(crate) fn line_is_empty(&self) -> bool {
        self.text.len() == self.line_start
    }

    /// End the current line with this gutter.
    pub(crate) fn end_line(&mut self, gutter: Gutter) {
        self.lines.push(DocLine {
            start: self.line_start,
            end: self.text.len(),
            gutter,
        });
        self.line_start = self.text.len();
    }

    /// Append a whole line of multi-line text, one doc line per text line.
    pub(crate) fn push_lines(&mut self, text: &str, paint: Paint) {
        for line in text.split('\n') {
            self.push(line, paint);
            self.end_line(Gutter::None);
        }
    }

    /// An empty line.
    pub(crate) fn blank(&mut self) {
        self.end_line(Gutter::None);
    }

    pub(crate) fn finish(mut self, title: impl Into<String>) -> Doc {
        if !self.line_is_empty() {
            self.end_line(Gutter::None);
        }
        self.marks.sort_by_key(|mark| mark.start);
        Doc {
            title: title.into(),
            text: Arc::from(self.text),
            lines: self.lines,
            tokens: self.tokens,
            marks: self.marks,
            trailer: None,
        }
    }
}

/// A doc that is a single note, for panes with nothing to show.
pub(crate) fn note(title: &str, message: &str) -> Doc {
    let mut builder = DocBuilder::new();
    builder.push_lines(message, Paint::Note);
    builder.finish(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_records_lines_tokens_and_marks() {
        let mut builder = DocBuilder::new();
        builder.push("{", Paint::Plain);
        builder.end_line(Gutter::Number {
            number: 1,
            marked: false,
        });
        builder.push_marked("\"a\"", Paint::Key, Paint::Match);
        builder.end_line(Gutter::Number {
            number: 12,
            marked: true,
        });
        let doc = builder.finish("t");
        assert_eq!(&*doc.text, "{\"a\"");
        assert_eq!(doc.lines.len(), 2);
        assert_eq!((doc.lines[1].start, doc.lines[1].end), (1, 4));
        assert_eq!(doc.tokens.len(), 1);
        assert_eq!(doc.marks[0].paint, Paint::Match);
        assert_eq!(doc.gutter_width(), 4);
        assert_eq!(doc.line_of(0), 0);
        assert_eq!(doc.line_of(2), 1);
        assert_eq!(doc.line_of(99), 1);
    }

    #[test]
    fn an_empty_doc_has_no_gutter() {
        assert_eq!(note("x", "nothing").gutter_width(), 0);
    }
}
