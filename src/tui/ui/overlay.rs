//! What is drawn over the screen: the help and the filter menu.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use crate::tui::app::request_width;
use crate::tui::app::{App, Filter};
use crate::tui::help::{self, HelpLine};
use crate::tui::layout::{centered, help_area, inner};
use crate::tui::request;
use crate::tui::timeline::Timeline;
use crate::tui::ui::fit::fit;

pub(super) fn help(app: &App, scroll: usize, area: Rect, buf: &mut Buffer) {
    let lines = help::lines(&app.settings.help_context());
    scrolled(
        app,
        (" Help: jxray keys ", " Esc close "),
        &lines,
        scroll,
        area,
        buf,
    );
}

/// The request the selected capture was recorded with (`r`).
pub(super) fn request(app: &App, scroll: usize, area: Rect, buf: &mut Buffer) {
    let Some(recorded) = app.selected_request() else {
        return;
    };
    let width = request_width(inner(help_area(area)).width);
    let lines = request::lines(recorded, width);
    scrolled(
        app,
        (" Request: what this capture was asked ", " Esc close "),
        &lines,
        scroll,
        area,
        buf,
    );
}

/// The recording proxy's log (`L`), the last reason a call was not kept first.
pub(super) fn proxy_log(app: &App, scroll: usize, area: Rect, buf: &mut Buffer) {
    let lines = app.proxy.log_lines();
    scrolled(
        app,
        (" jxray record: the proxy's log ", " Esc close "),
        &lines,
        scroll,
        area,
        buf,
    );
}

/// The arrival view (`T`): the selected saved stream at chunk `at`, a count typed.
pub(super) fn timeline(
    app: &App,
    (timeline, at, count): (&Timeline, usize, usize),
    scroll: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    let width = request_width(inner(help_area(area)).width);
    let lines = timeline.lines(at, width);
    let typed = if count > 0 {
        format!("· {count}… ")
    } else {
        String::new()
    };
    let title = format!(" Arrival: how this stream came, chunk by chunk {typed}");
    scrolled(
        app,
        (&title, " ← → chunk  Home End  Esc close "),
        &lines,
        scroll,
        area,
        buf,
    );
}

/// A bordered overlay of lines, scrolled.
fn scrolled(
    app: &App,
    (title, keys): (&str, &str),
    lines: &[HelpLine],
    scroll: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = &app.theme;
    let outer = help_area(area);
    let block = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(title.to_string(), theme.title(true)))
        .title_bottom(Line::from(keys.to_string()).right_aligned());
    let inner = block.inner(outer);
    Clear.render(outer, buf);
    block.render(outer, buf);
    let scroll = scroll.min(lines.len().saturating_sub(usize::from(inner.height)));
    for (offset, line) in lines
        .iter()
        .skip(scroll)
        .take(usize::from(inner.height))
        .enumerate()
    {
        let row = Rect::new(
            inner.x + 1,
            inner.y + offset as u16,
            inner.width.saturating_sub(1),
            1,
        );
        let line = match line {
            HelpLine::Heading(text) => Line::styled(*text, theme.title(false)),
            HelpLine::Key { keys, help } => Line::from(vec![
                Span::styled(format!("  {keys:<16}"), theme.key_hint()),
                Span::raw(format!(" {help}")),
            ]),
            HelpLine::Text(text) => Line::raw(format!("  {text}")),
            HelpLine::Blank => Line::raw(""),
        };
        fit(line, usize::from(row.width)).render(row, buf);
    }
}

/// The filter menu, each choice with how many captures it would show.
pub(super) fn filter_menu(app: &App, cursor: usize, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let choices = Filter::menu_of(&app.entries.kinds);
    let outer = centered(area, 46, choices.len() as u16 + 2);
    let block = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(" Filter ", theme.title(true)));
    let inner = block.inner(outer);
    Clear.render(outer, buf);
    block.render(outer, buf);
    let first = cursor.saturating_sub(usize::from(inner.height).saturating_sub(1));
    for (offset, (index, filter)) in choices
        .iter()
        .enumerate()
        .skip(first)
        .take(usize::from(inner.height))
        .enumerate()
    {
        let count = app.entries.count_shown(filter);
        let label = filter.label();
        let style = match filter {
            Filter::Layer(_) | Filter::Failure(_) => theme.badge(label),
            _ => theme.strong(),
        };
        let group = filter.group().map_or(String::new(), |g| format!("{g} "));
        let marker = if *filter == app.entries.filter {
            "•"
        } else {
            " "
        };
        let row = Rect::new(inner.x, inner.y + offset as u16, inner.width, 1);
        let label_width = 30usize.saturating_sub(group.len());
        let line = Line::from(vec![
            Span::raw(format!(" {marker} ")),
            Span::styled(group, theme.label()),
            Span::styled(format!("{label:<label_width$}"), style),
            Span::raw(format!("{count:>8}")),
        ]);
        fit(line, usize::from(inner.width)).render(row, buf);
        if index == cursor {
            buf.set_style(row, theme.selected());
        }
    }
}
