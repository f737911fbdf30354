//! The save dialog (`s`, `S`): name, folder, expectation.

use crate::text::shown_path;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use crate::tui::app::{App, Filter, SaveDialog, SaveScope};
use crate::tui::ids::EntryId;
use crate::tui::layout::centered;
use crate::tui::sanitize::printable;
use crate::tui::ui::fit::render_boxed;
use crate::tui::ui::wrap::wrap;

pub(super) fn save(app: &App, dialog: &SaveDialog, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let mut lines: Vec<Line<'static>> = match &dialog.scope {
        SaveScope::One(id) => one_capture(app, dialog, *id),
        SaveScope::All(ids) => the_list(app, ids),
    };
    lines.push(Line::from(vec![
        Span::styled(" folder   ", theme.label()),
        Span::raw(format!(
            "{} (nothing is overwritten)",
            shown_path(&app.settings.fixtures)
        )),
    ]));
    lines.push(Line::from(Span::styled(" expect", theme.label())));
    lines.extend(expectations(app, dialog));
    if let Some(error) = &dialog.error {
        lines.push(Line::styled(
            format!(" {}", printable(error)),
            theme.error(),
        ));
    }
    lines.push(Line::from(vec![
        Span::styled(" Enter", theme.key_hint()),
        Span::raw(" save  "),
        Span::styled("Tab/↓", theme.key_hint()),
        Span::raw(" expectation  "),
        Span::styled("Esc", theme.key_hint()),
        Span::raw(" cancel"),
    ]));
    let title = match dialog.scope {
        SaveScope::One(_) => " Save as a fixture ",
        SaveScope::All(_) => " Save the list as fixtures ",
    };
    draw_wrapped(app, title, lines, area, buf);
}

/// The dialog's head for one capture: its source, the name being typed, the file it will
/// write (or why it cannot), and the fixture it already is.
fn one_capture(app: &App, dialog: &SaveDialog, id: EntryId) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let label = |text: &'static str| Span::styled(text, theme.label());
    let entry = app.entries.get(id);
    let source = entry
        .map(|e| printable(&e.capture.source))
        .unwrap_or_default();
    let mut lines = vec![
        Line::from(vec![label(" capture  "), Span::raw(source)]),
        Line::from(vec![
            label(" name     "),
            Span::styled(printable(&dialog.name), theme.strong()),
            Span::styled("▏", theme.key_hint()),
        ]),
    ];
    match &dialog.planned {
        Some(Ok(path)) => lines.push(Line::from(vec![
            label(" file     "),
            Span::raw(printable(&shown_path(&path).to_string())),
            Span::styled(
                if path.file_stem().and_then(|s| s.to_str()) == Some(dialog.name.trim()) {
                    ""
                } else {
                    "  (the name is taken: a number is added)"
                },
                theme.paint(crate::tui::doc::Paint::Literal),
            ),
        ])),
        Some(Err(problem)) if dialog.error.is_none() => lines.push(Line::styled(
            format!(" {}", printable(problem)),
            theme.error(),
        )),
        _ => {}
    }
    if let Some(existing) = entry.and_then(|e| e.saved.as_ref()) {
        lines.push(Line::styled(
            format!(
                " already a fixture: {} (saving writes nothing)",
                shown_path(&existing)
            ),
            theme.notice(),
        ));
    }
    lines
}

/// The dialog's head for the whole list: how many captures, under which filter, and how
/// many are left out.
fn the_list(app: &App, ids: &[EntryId]) -> Vec<Line<'static>> {
    let label = |text: &'static str| Span::styled(text, app.theme.label());
    let filter = match &app.entries.filter {
        Filter::All => String::new(),
        filter => format!(" (filter: {})", filter.label()),
    };
    let shown = app.entries.view.len();
    let skipped = shown - ids.len().min(shown);
    let why = if skipped > 0 {
        format!(" ({skipped} unreadable: nothing to keep)")
    } else {
        String::new()
    };
    vec![
        Line::from(vec![
            label(" captures "),
            Span::raw(format!("{} of {shown} in the list{filter}{why}", ids.len())),
        ]),
        Line::from(vec![
            label(" names    "),
            Span::raw("each from its source; captures already saved are skipped"),
        ]),
    ]
}

/// The expectations to choose from, the chosen one marked.
fn expectations(app: &App, dialog: &SaveDialog) -> Vec<Line<'static>> {
    let outcome = match &dialog.scope {
        SaveScope::One(id) => app.entries.get(*id).map(|e| e.outcome.clone()),
        SaveScope::All(_) => None,
    };
    let mut lines = Vec::new();
    for (index, choice) in dialog.choices.iter().enumerate() {
        let text = match &outcome {
            Some(outcome) => choice.label(outcome),
            None => "each outcome as it is now".to_string(),
        };
        let chosen = index == dialog.choice;
        let pointer = if chosen { "  ▶ " } else { "    " };
        let style = if chosen {
            app.theme.selected()
        } else {
            Default::default()
        };
        lines.push(Line::from(vec![
            Span::raw(pointer),
            Span::styled(text, style),
        ]));
    }
    lines
}

/// Draw `lines` in a bordered box centred in `area`, wrapped rather than cut: a refusal
/// must be read whole.
fn draw_wrapped(
    app: &App,
    title: &'static str,
    lines: Vec<Line<'static>>,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = &app.theme;
    let width = usize::from(area.width.min(84).saturating_sub(2));
    let lines: Vec<Line> = lines
        .into_iter()
        .flat_map(|line| wrap(line, width, "          "))
        .collect();
    let outer = centered(area, 84, lines.len() as u16 + 2);
    let block = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(title, theme.title(true)));
    render_boxed(block, outer, lines, buf);
}
