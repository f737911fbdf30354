//! Fitting a line into a width: cut text always ends in `…`, so a reader
//! knows there is more (`warnings n` becomes `warnings …`); and lines fitted into a box.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use crate::tui::sanitize::display_width;

/// `block` over `outer` (what was under it cleared), and `lines` inside it, one a row, each
/// fitted to the width, as many as fit.
pub(crate) fn render_boxed(
    block: Block<'_>,
    outer: Rect,
    lines: Vec<Line<'static>>,
    buf: &mut Buffer,
) {
    let inner = block.inner(outer);
    Clear.render(outer, buf);
    block.render(outer, buf);
    let width = usize::from(inner.width);
    for (offset, line) in lines
        .into_iter()
        .take(usize::from(inner.height))
        .enumerate()
    {
        let row = Rect::new(inner.x, inner.y + offset as u16, inner.width, 1);
        fit(line, width).render(row, buf);
    }
}

/// `line` cut to `width` columns, ending in `…` when anything was cut.
pub(crate) fn fit(line: Line<'static>, width: usize) -> Line<'static> {
    let total: usize = line.spans.iter().map(|s| display_width(&s.content)).sum();
    if total <= width {
        return line;
    }
    let style = line.style;
    let alignment = line.alignment;
    let mut room = width.saturating_sub(1);
    let mut spans = Vec::new();
    for span in line.spans {
        if room == 0 {
            break;
        }
        let span_width = display_width(&span.content);
        if span_width <= room {
            room -= span_width;
            spans.push(span);
            continue;
        }
        let kept = take_columns(&span.content, room);
        room = 0;
        spans.push(Span::styled(kept, span.style));
    }
    if width > 0 {
        let last_style = spans.last().map(|s| s.style).unwrap_or_default();
        spans.push(Span::styled("…", last_style));
    }
    let mut fitted = Line::from(spans).style(style);
    fitted.alignment = alignment;
    fitted
}

/// `text` cut to `width` columns with `…` when it does not fit.
pub(crate) fn fit_text(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = take_columns(text, width - 1);
    out.push('…');
    out
}

/// The longest prefix of `text` at most `width` columns wide.
fn take_columns(text: &str, width: usize) -> String {
    let mut used = 0;
    let mut out = String::new();
    for ch in text.chars() {
        let w = display_width(ch.encode_utf8(&mut [0; 4]));
        if used + w > width {
            break;
        }
        used += w;
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn cut_lines_end_in_an_ellipsis() {
        let line = Line::from(vec![Span::raw("warnings "), Span::raw("none")]);
        assert_eq!(text(&fit(line.clone(), 20)), "warnings none");
        assert_eq!(text(&fit(line.clone(), 11)), "warnings n…");
        assert_eq!(text(&fit(line, 9)), "warnings…");
        assert_eq!(fit_text("東京東京", 5), "東京…");
        assert_eq!(fit_text("abc", 0), "");
        assert_eq!(fit_text("abc", 3), "abc");
    }
}
