//! Under the list while watching: the failure share of the captures as they arrive, a
//! point per capture (the share of the last few), so the effect of a prompt change is
//! seen as it happens. The title says the latest share in words.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, Sparkline, Widget};

use crate::tui::app::{App, SHARE_WINDOW};
use crate::tui::doc::Paint;
use crate::tui::ui::fit::fit_text;

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let width = usize::from(area.width.saturating_sub(2));
    let shares = app.watch.failure_shares(width);
    let latest = shares.last().copied().unwrap_or(0);
    let title = format!(
        " failed {latest}% of last {SHARE_WINDOW} · {} arrived ",
        app.watch.arrivals.len()
    );
    let block = Block::bordered()
        .border_style(theme.border(false))
        .title(Span::styled(fit_text(&title, width), theme.label()));
    Sparkline::default()
        .block(block)
        .data(&shares)
        .max(100)
        .style(theme.paint(Paint::Bad))
        .render(area, buf);
}
