//! The capture list: badge in words, marks, source.

use crate::text::shown_path;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use crate::compare::Movement;
use crate::tui::app::{App, Entry, Filter, Focus};
use crate::tui::doc::Paint;
use crate::tui::sanitize::{display_width, printable};
use crate::tui::ui::fit::fit_text;

pub(super) fn render(app: &App, outer: Rect, buf: &mut Buffer) {
    let spark = app.sparkline_rows(outer.height);
    let outer = if spark > 0 {
        let list = Rect {
            height: outer.height - spark,
            ..outer
        };
        let below = Rect::new(outer.x, list.bottom(), outer.width, spark);
        super::sparkline::render(app, below, buf);
        list
    } else {
        outer
    };
    let theme = &app.theme;
    let focused = app.focus == Focus::List;
    let entries = &app.entries;
    let width = usize::from(outer.width.saturating_sub(2));
    let block = Block::bordered()
        .border_style(theme.border(focused))
        .title(Span::styled(
            fit_text(&title(app), width),
            theme.title(focused),
        ))
        .title_bottom(Line::from(sort_label(app)).right_aligned());
    let area = block.inner(outer);
    block.render(outer, buf);
    if entries.view.is_empty() {
        Line::styled(
            fit_text(&empty_message(app), width),
            theme.paint(Paint::Note),
        )
        .render(area, buf);
        return;
    }
    let visible: Vec<&Entry> = (app.list_offset..app.list_offset + usize::from(area.height))
        .map_while(|position| entries.at(position))
        .collect();
    // Badges and marks are as wide as the widest on screen, leaving the most room for sources.
    let columns = Columns::fit(app, &visible, width);
    for (offset, entry) in visible.into_iter().enumerate() {
        let position = app.list_offset + offset;
        let row = Rect::new(area.x, area.y + offset as u16, area.width, 1);
        let selected = position == app.cursor;
        row_line(app, entry, selected, columns).render(row, buf);
        if selected {
            let mut style = theme.selected();
            if focused {
                style = style.add_modifier(Modifier::BOLD);
            }
            buf.set_style(row, style);
        }
    }
}

/// " Captures 12/39 · fenced · in runs/2026-11/ ": the folder is said once here,
/// and rows show what follows it.
fn title(app: &App) -> String {
    let entries = &app.entries;
    let mut title = format!(" Captures {}/{} ", entries.view.len(), entries.len());
    if entries.filter != Filter::All {
        title.push_str(&format!("· {} ", entries.filter.label()));
    }
    if !entries.folder.is_empty() {
        title.push_str(&format!("· {} ", printable(&entries.folder)));
    }
    title
}

fn sort_label(app: &App) -> String {
    if app.follow_newest {
        format!(" {} · following ", app.entries.sort.label())
    } else {
        format!(" {} ", app.entries.sort.label())
    }
}

/// Column widths shared by the rows on screen.
#[derive(Debug, Clone, Copy)]
struct Columns {
    badge: usize,
    marks: usize,
    width: usize,
}

impl Columns {
    /// As wide as the widest badge and marks on screen. Badges stay whole (a cut
    /// `trunca…` reads as nothing): the source gives up room instead, from the left.
    fn fit(app: &App, visible: &[&Entry], width: usize) -> Columns {
        let widest =
            |of: &dyn Fn(&Entry) -> usize| visible.iter().map(|e| of(e)).max().unwrap_or(0);
        Columns {
            badge: widest(&|entry| badge_of(entry).len()),
            marks: widest(&|entry| marks(app, entry).chars().count()),
            width,
        }
    }

    /// Columns left for the source after the pointer, badge and marks.
    fn source_room(&self) -> usize {
        let mark_room = if self.marks > 0 { self.marks + 1 } else { 0 };
        self.width.saturating_sub(1 + self.badge + 1 + mark_room)
    }
}

/// The source as the list shows it: without the folder the title names.
fn source_of<'a>(app: &App, entry: &'a Entry) -> &'a str {
    let source = entry.capture.source.as_str();
    source
        .strip_prefix(app.entries.folder.as_str())
        .unwrap_or(source)
}

/// How a capture moved against `--baseline`: `↑` fixed, `↓` broke, `≠` value
/// changed, `~` a different failure, `+` not in the baseline; blank when the same.
pub(super) fn baseline_mark(change: Option<Movement>) -> char {
    match change {
        None | Some(Movement::Same | Movement::LayerMoved | Movement::Removed) => ' ',
        Some(Movement::Fixed) => '↑',
        Some(Movement::Broke) => '↓',
        Some(Movement::ValueChanged) => '≠',
        Some(Movement::DifferentFailure) => '~',
        Some(Movement::Added) => '+',
    }
}

fn empty_message(app: &App) -> String {
    if let Some(error) = &app.load_error {
        return error.clone();
    }
    if app.progress.loading() {
        return "loading…".to_string();
    }
    if app.entries.is_empty() && app.watch.active {
        format!("no captures yet in {}", shown_path(&app.settings.root))
    } else if app.entries.is_empty() {
        format!("no captures found in {}", shown_path(&app.settings.root))
    } else {
        format!(
            "no capture is {}; press f to change the filter",
            app.entries.filter.label()
        )
    }
}

fn row_line(app: &App, entry: &Entry, selected: bool, columns: Columns) -> Line<'static> {
    let theme = &app.theme;
    let badge = badge_of(entry);
    let marks = marks(app, entry);
    let source = match entry.list_name(&app.entries.questions) {
        // The time, then the question's first words, cut at the end.
        Some(name) => fit_text(&printable(&name), columns.source_room()),
        None => shorten_left(&printable(source_of(app, entry)), columns.source_room()),
    };
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
    let badge_width = columns.badge;
    let mut spans = vec![
        Span::styled(pointer, theme.strong()),
        Span::styled(
            format!("{:<badge_width$}", fit_text(badge, badge_width)),
            badge_style,
        ),
        Span::raw(" "),
    ];
    if columns.marks > 0 {
        let mark_width = columns.marks;
        spans.push(Span::styled(
            format!("{marks:<mark_width$} "),
            theme.strong(),
        ));
    }
    spans.push(Span::styled(source, source_style));
    Line::from(spans)
}

/// The marks of a row, packed: `R` repaired, `W` warned, `S` saved, `*` changed,
/// then the move against `--baseline` (see [`baseline_mark`]).
fn marks(app: &App, entry: &Entry) -> String {
    let outcome = &entry.outcome;
    let mut marks = String::new();
    for (on, mark) in [
        (!outcome.repairs.is_empty(), 'R'),
        (!outcome.warnings.is_empty(), 'W'),
        (entry.saved.is_some(), 'S'),
        (app.watch.active && entry.changed, '*'),
    ] {
        if on {
            marks.push(mark);
        }
    }
    if app.settings.checks.baseline.is_some() {
        let moved = baseline_mark(app.settings.checks.change(&app.settings.root, entry));
        if moved != ' ' {
            marks.push(moved);
        }
    }
    marks
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
pub(super) fn shorten_left(text: &str, width: usize) -> String {
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
