//! The group view (`b`): a line a group, the worst first: its name, how many captures and
//! what share failed, its mix as a bar (solid for what was accepted, shaded for what
//! failed, each part in its badge's colour) and the mix in words.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use crate::group::GroupBy;
use crate::mix::{Mix, MixKey};
use crate::tui::app::groups::{groups, next_key};
use crate::tui::app::App;
use crate::tui::layout::centered;
use crate::tui::sanitize::printable;
use crate::tui::ui::fit::{fit, fit_text};

/// Columns of a group's bar.
const BAR: usize = 20;
/// Columns of a group's name, at most.
const NAME: usize = 36;

pub(super) fn render(app: &App, by: GroupBy, cursor: usize, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let groups = groups(app, by);
    let outer = centered(
        area,
        area.width.saturating_sub(4).min(120),
        groups.len() as u16 + 4,
    );
    let title = format!(
        " Groups by {} · b by {} · Enter shows a group ",
        by.as_str(),
        next_key(by).as_str()
    );
    let block = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(
            fit_text(&title, usize::from(outer.width.saturating_sub(2))),
            theme.title(true),
        ));
    let inner = block.inner(outer);
    Clear.render(outer, buf);
    block.render(outer, buf);
    let width = usize::from(inner.width);
    let names: Vec<String> = groups.iter().map(|(name, _)| printable(name)).collect();
    let name_width = names
        .iter()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0)
        .min(NAME)
        .min(width / 3);
    let heading = format!(
        "   {:<name_width$} {:>6} {:>7}  {:<BAR$}  mix",
        by.as_str(),
        "count",
        "failed",
        "bar"
    );
    fit(Line::styled(heading, theme.label()), width).render(Rect { height: 1, ..inner }, buf);
    let rows = usize::from(inner.height.saturating_sub(1));
    let first = cursor.saturating_sub(rows.saturating_sub(1));
    for (offset, (index, ((_, mix), name))) in groups
        .iter()
        .zip(&names)
        .enumerate()
        .skip(first)
        .take(rows)
        .enumerate()
    {
        let row = Rect::new(inner.x, inner.y + 1 + offset as u16, inner.width, 1);
        let share = mix.failed() as f64 * 100.0 / mix.total().max(1) as f64;
        let mut spans = vec![
            Span::raw(if index == cursor { " ▶ " } else { "   " }),
            Span::styled(
                format!("{:<name_width$}", fit_text(name, name_width)),
                theme.strong(),
            ),
            Span::raw(format!(" {:>6} {:>6.1}%  ", mix.total(), share)),
        ];
        spans.extend(bar(app, mix));
        spans.push(Span::raw("  "));
        spans.push(Span::styled(words(mix), theme.label()));
        fit(Line::from(spans), width).render(row, buf);
        if index == cursor {
            buf.set_style(row, theme.selected());
        }
    }
}

/// The mix as [`BAR`] columns, each part as wide as its share (rounded where the parts
/// meet, so the bar is exactly as wide and ok and failed split at the true share), `█` for
/// layers and `░` for failures, in the badge's colour.
fn bar(app: &App, mix: &Mix) -> Vec<Span<'static>> {
    let total = mix.total().max(1);
    let mut before = 0;
    let mut edge = 0;
    mix.entries()
        .into_iter()
        .map(|(key, count)| {
            before += count;
            let next = (before * BAR + total / 2) / total;
            let width = next - edge;
            edge = next;
            let glyph = match key {
                MixKey::Layer(_) => "█",
                MixKey::Failure(_) => "░",
            };
            Span::styled(glyph.repeat(width), app.theme.badge(key.as_str()))
        })
        .collect()
}

/// `direct 3 · fenced 1 · invalid 2`.
fn words(mix: &Mix) -> String {
    mix.parts()
        .iter()
        .map(|(word, count)| format!("{word} {count}"))
        .collect::<Vec<_>>()
        .join(" · ")
}
