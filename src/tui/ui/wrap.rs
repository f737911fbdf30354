//! Wrapping a styled line into a width at spaces, for dialogs whose messages must
//! be read whole (a refusal that names the forbidden character), never cut.

use ratatui::text::{Line, Span};

use crate::tui::sanitize::display_width;

/// `line` as lines of at most `width` columns, broken after spaces; a word wider than
/// the width is broken where it must be. Continuation lines start with `indent`.
pub(super) fn wrap(line: Line<'static>, width: usize, indent: &str) -> Vec<Line<'static>> {
    if width == 0 || line.width() <= width {
        return vec![line];
    }
    let style = line.style;
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for span in line.spans {
        for piece in span.content.split_inclusive(' ') {
            let mut piece = piece.to_string();
            loop {
                let piece_width = display_width(piece.trim_end());
                if used + piece_width <= width {
                    used += display_width(&piece);
                    current.push(Span::styled(piece, span.style));
                    break;
                }
                if used > display_width(indent) {
                    lines.push(finish(std::mem::take(&mut current), style));
                    current.push(Span::raw(indent.to_string()));
                    used = display_width(indent);
                    continue;
                }
                // A word wider than a whole line: as much as fits, the rest below.
                let (head, tail) = split_at_columns(&piece, width.saturating_sub(used).max(1));
                current.push(Span::styled(head, span.style));
                lines.push(finish(std::mem::take(&mut current), style));
                current.push(Span::raw(indent.to_string()));
                used = display_width(indent);
                piece = tail;
                if piece.is_empty() {
                    break;
                }
            }
        }
    }
    if !current.is_empty() {
        lines.push(finish(current, style));
    }
    lines
}

/// One wrapped line, without the space it was broken after.
fn finish(mut spans: Vec<Span<'static>>, style: ratatui::style::Style) -> Line<'static> {
    if let Some(last) = spans.last_mut() {
        let trimmed = last.content.trim_end().to_string();
        last.content = trimmed.into();
    }
    Line::from(spans).style(style)
}

/// `text` split after its first `columns` columns (at least one character).
fn split_at_columns(text: &str, columns: usize) -> (String, String) {
    let mut used = 0;
    for (at, ch) in text.char_indices() {
        let w = display_width(ch.encode_utf8(&mut [0; 4]));
        if used + w > columns && at > 0 {
            return (text[..at].to_string(), text[at..].to_string());
        }
        used += w;
    }
    (text.to_string(), String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|line| line.to_string()).collect()
    }

    #[test]
    fn breaks_at_spaces_and_keeps_every_word() {
        let line = Line::from(" the name contains a character Windows forbids (‹:›)");
        let lines = wrap(line, 20, " ");
        assert_eq!(
            texts(&lines),
            [
                " the name contains a",
                " character Windows",
                " forbids (‹:›)"
            ]
        );
        assert!(lines.iter().all(|line| line.width() <= 20));
    }

    #[test]
    fn a_word_wider_than_the_line_is_broken_not_lost() {
        let lines = wrap(Line::from("abcdefghij"), 4, "");
        assert_eq!(texts(&lines), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap(Line::from("short"), 10, "").len(), 1);
    }
}
