//! The recording panel (`jxray record --tui`, `a`): what plain `jxray record` prints —
//! where the proxy listens, the line to point each SDK with, the routes — and how many
//! calls came through.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use crate::text::count_of;
use crate::tui::app::{App, ProxyState};
use crate::tui::layout::centered;
use crate::tui::recording::Recording;
use crate::tui::theme::Theme;
use crate::tui::ui::fit::render_boxed;

/// The widest the panel grows: the longest line to paste with its comment.
const WIDTH: u16 = 120;

pub(super) fn render(app: &App, cursor: usize, area: Rect, buf: &mut Buffer) {
    let Some(recording) = &app.settings.recording else {
        return;
    };
    let theme = &app.theme;
    let lines = lines(recording, &app.proxy, cursor, theme);
    let outer = centered(area, WIDTH, lines.len() as u16 + 2);
    let block = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(
            " jxray record: point your app here ",
            theme.title(true),
        ))
        .title_bottom(Line::from(" j/k choose  y copy  L log  Esc close ").right_aligned());
    render_boxed(block, outer, lines, buf);
}

/// The panel's lines: the address, each line to paste (the chosen one marked, its
/// comment beneath), the routes, and the calls so far.
fn lines(
    recording: &Recording,
    proxy: &ProxyState,
    cursor: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::from(vec![
            Span::raw(" listening on "),
            Span::styled(recording.address.clone(), theme.strong()),
            Span::raw(format!(", saving captures under {}", recording.folder)),
        ]),
        Line::raw(" Point your app here (paste in its terminal, or set in its code):"),
    ];
    for (index, line) in recording.env_lines.iter().enumerate() {
        let (paste, comment) = match line.split_once("    # ") {
            Some((paste, comment)) => (paste, Some(comment)),
            None => (line.as_str(), None),
        };
        let chosen = index == cursor;
        let style = if chosen {
            theme.selected()
        } else {
            Style::new()
        };
        lines.push(Line::from(vec![
            Span::styled(if chosen { " ▶ " } else { "   " }, theme.strong()),
            Span::styled(paste.to_string(), style.patch(theme.strong())),
        ]));
        if let Some(comment) = comment {
            lines.push(Line::styled(format!("       # {comment}"), theme.label()));
        }
    }
    lines.push(Line::raw(" Routes:"));
    for route in &recording.routes {
        lines.push(Line::styled(format!("   {route}"), theme.label()));
    }
    lines.push(Line::raw(""));
    lines.push(calls(proxy, theme));
    lines
}

/// "waiting for the first call", then "3 calls · 1 not kept (L says why)".
fn calls(proxy: &ProxyState, theme: &Theme) -> Line<'static> {
    if proxy.calls == 0 {
        return Line::styled(
            " waiting for the first call; captures appear in the list as calls end",
            theme.notice(),
        );
    }
    let mut text = format!(" {} so far", count_of(proxy.calls, "call"));
    if proxy.not_kept > 0 {
        text.push_str(&format!(" · {} not kept (L says why)", proxy.not_kept));
    }
    Line::styled(text, theme.strong())
}
