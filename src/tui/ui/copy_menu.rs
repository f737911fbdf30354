//! The copy menu (`y`): each thing that can be copied, its size, or why not.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use crate::tui::app::{copy_size, App, CopyChoice, OSC52_LIMIT};
use crate::tui::layout::centered;
use crate::tui::ui::fit::fit;

pub(super) fn render(app: &App, cursor: usize, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let entry = app.selected_entry();
    let mut lines: Vec<(Line<'static>, bool)> = Vec::new();
    for (index, choice) in CopyChoice::ALL.into_iter().enumerate() {
        let (about, usable) = match entry.map(|e| choice.size(e)) {
            None => ("nothing selected".to_string(), false),
            Some(Err(why)) => (why.to_string(), false),
            Some(Ok(bytes)) if bytes > OSC52_LIMIT => {
                (format!("{}: too big for OSC 52", copy_size(bytes)), false)
            }
            Some(Ok(bytes)) => (copy_size(bytes), true),
        };
        let label_style = if usable {
            theme.strong()
        } else {
            theme.label()
        };
        let line = Line::from(vec![
            Span::raw(if index == cursor { " ▶ " } else { "   " }),
            Span::styled(format!("{:<16}", choice.label()), label_style),
            Span::styled(about, theme.label()),
        ]);
        lines.push((line, index == cursor));
    }
    let outer = centered(area, 60, lines.len() as u16 + 3);
    let block = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(" Copy (OSC 52) ", theme.title(true)));
    let inner = block.inner(outer);
    Clear.render(outer, buf);
    block.render(outer, buf);
    let width = usize::from(inner.width);
    for (offset, (line, chosen)) in lines.into_iter().enumerate() {
        if offset >= usize::from(inner.height) {
            break;
        }
        let row = Rect::new(inner.x, inner.y + offset as u16, inner.width, 1);
        fit(line, width).render(row, buf);
        if chosen {
            buf.set_style(row, theme.selected());
        }
    }
    if inner.height > CopyChoice::ALL.len() as u16 {
        let hint = Line::from(vec![
            Span::styled(" Enter", theme.key_hint()),
            Span::raw(" copy  "),
            Span::styled("j/k", theme.key_hint()),
            Span::raw(" choose  "),
            Span::styled("Esc", theme.key_hint()),
            Span::raw(" cancel"),
        ]);
        let row = Rect::new(inner.x, inner.y + inner.height - 1, inner.width, 1);
        fit(hint, width).render(row, buf);
    }
}
