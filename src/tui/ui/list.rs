//! The capture list: badge in words, marks, source.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use crate::compare::Change;
use crate::tui::app::{App, Entry, Filter, Focus};
use crate::tui::doc::Paint;
use crate::tui::sanitize::{display_width, printable};

pub fn render(app: &App, outer: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let focused = app.focus == Focus::List;
    let entries = &app.entries;
    let mut title = format!(" Captures {}/{} ", entries.view.len(), entries.len());
    if entries.filter != Filter::All {
        title.push_str(&format!("· {} ", entries.filter.label()));
    }
    let sort = format!(" {} ", entries.sort.label());
    let block = Block::bordered()
        .border_style(theme.border(focused))
        .title(Span::styled(title, theme.title(focused)))
        .title_bottom(Line::from(sort).right_aligned());
    let area = block.inner(outer);
    block.render(outer, buf);
    if entries.view.is_empty() {
        Line::styled(empty_message(app), theme.paint(Paint::Note)).render(area, buf);
        return;
    }
    let visible = app.list_offset..app.list_offset + usize::from(area.height);
    // Badges are as wide as the widest on screen, leaving the most room for sources.
    let badge_width = visible
        .clone()
        .filter_map(|position| entries.at(position))
        .map(|entry| badge_of(entry).len())
        .max()
        .unwrap_or(0);
    for (offset, position) in visible.enumerate() {
        let Some(entry) = entries.at(position) else {
            break;
        };
        let row = Rect::new(area.x, area.y + offset as u16, area.width, 1);
        let selected = position == app.cursor;
        row_line(app, entry, selected, badge_width, usize::from(area.width)).render(row, buf);
        if selected {
            let mut style = theme.selected();
            if focused {
                style = style.add_modifier(Modifier::BOLD);
            }
            buf.set_style(row, style);
        }
    }
}

/// How a capture moved against `--baseline`: `↑` fixed, `↓` broke, `~` changed,
/// `+` not in the baseline; blank when unchanged.
pub fn baseline_mark(change: Option<Change>) -> char {
    match change {
        None | Some(Change::Removed) => ' ',
        Some(Change::Fixed) => '↑',
        Some(Change::Broke) => '↓',
        Some(Change::Changed) => '~',
        Some(Change::Added) => '+',
    }
}

fn empty_message(app: &App) -> String {
    if let Some(error) = &app.load_error {
        return error.clone();
    }
    if app.progress.loading() {
        return "loading…".to_string();
    }
    if app.entries.is_empty() {
        format!("no captures found in {}", app.settings.root.display())
    } else {
        format!(
            "no capture is {}; press f to change the filter",
            app.entries.filter.label()
        )
    }
}

fn row_line(
    app: &App,
    entry: &Entry,
    selected: bool,
    badge_width: usize,
    width: usize,
) -> Line<'static> {
    let theme = &app.theme;
    let outcome = &entry.outcome;
    let badge = badge_of(entry);
    let mut marks = vec![
        (!outcome.repairs.is_empty(), 'R'),
        (!outcome.warnings.is_empty(), 'W'),
        (entry.saved.is_some(), 'S'),
    ];
    if app.watch.active {
        marks.push((entry.changed, '*'));
    }
    let mut marks: String = marks
        .iter()
        .map(|&(on, ch)| if on { ch } else { ' ' })
        .collect();
    if app.settings.checks.baseline.is_some() {
        marks.push(baseline_mark(
            app.settings.checks.change(&app.settings.root, entry),
        ));
    }
    let room = width.saturating_sub(1 + badge_width + 1 + marks.len() + 1);
    let source = shorten_left(&printable(&entry.capture.source), room);
    let mut source_style = if entry.matched && app.query.is_some() {
        Style::new().add_modifier(Modifier::UNDERLINED)
    } else {
        Style::new()
    };
    let mut badge_style = theme.badge(badge);
    if entry.gone {
        source_style = source_style.add_modifier(Modifier::CROSSED_OUT | Modifier::DIM);
        badge_style = theme.label();
    }
    // The pointer shows the selection without colour or reverse video too
    // (a text screenshot, a screen reader).
    let pointer = if selected { "▶" } else { " " };
    Line::from(vec![
        Span::styled(pointer, theme.strong()),
        Span::styled(format!("{badge:<badge_width$}"), badge_style),
        Span::raw(" "),
        Span::styled(marks, theme.strong()),
        Span::raw(" "),
        Span::styled(source, source_style),
    ])
}

/// The badge word: the outcome's, or `gone` for a capture whose file went away.
fn badge_of(entry: &Entry) -> &'static str {
    if entry.gone {
        "gone"
    } else {
        entry.outcome.badge()
    }
}

/// Keep the end of a path (the file name), cutting the front with `…`.
pub fn shorten_left(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut kept: Vec<char> = Vec::new();
    let mut used = 1;
    for ch in text.chars().rev() {
        let w = display_width(ch.encode_utf8(&mut [0; 4]));
        if used + w > width {
            break;
        }
        used += w;
        kept.push(ch);
    }
    let mut out = String::from("…");
    out.extend(kept.into_iter().rev());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_sources_keep_their_file_name() {
        assert_eq!(shorten_left("runs/2026/a.txt", 8), "…6/a.txt");
        assert_eq!(shorten_left("a.txt", 8), "a.txt");
        assert_eq!(shorten_left("a.txt", 0), "");
        assert_eq!(shorten_left("東京東京", 5), "…東京");
    }
}
