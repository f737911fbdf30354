//! Drawing a pane: a doc's visible rows, gutter, styles and invisible characters.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use crate::tui::app::{App, Focus, PaneState};
use crate::tui::doc::{Doc, Gutter, Paint, Styled};
use crate::tui::layout::PaneId;
use crate::tui::rows::WrappedRow;
use crate::tui::sanitize::glyph;
use crate::tui::theme::Theme;
use crate::tui::ui::fit::fit_text;

pub(super) fn render(app: &App, pane: PaneId, outer: Rect, buf: &mut Buffer) {
    let focused = app.focus == Focus::Pane && app.pane == pane;
    let theme = &app.theme;
    let state = app.detail.as_ref().map(|detail| detail.pane(pane));
    let mut parts = vec![pane.name().to_string()];
    if app.zoom {
        // Zoomed, the list is hidden: the title says which capture this is.
        if let Some(entry) = app.selected_entry() {
            parts.push(crate::tui::sanitize::printable(&entry.capture.source));
            parts.push(format!("{}/{}", app.cursor + 1, app.entries.view.len()));
        }
    }
    if let Some(state) = state.filter(|s| !s.doc.title.is_empty()) {
        parts.push(state.doc.title.clone());
    }
    let title = format!(" {} ", parts.join(" · "));
    let title = fit_text(&title, usize::from(outer.width.saturating_sub(2)));
    let mut block = Block::bordered()
        .border_style(theme.border(focused))
        .title(Span::styled(title, theme.title(focused)));
    if let Some(state) = state.filter(|s| s.rows.len() > s.height) {
        block = block.title_bottom(Line::from(position(state)).right_aligned());
    }
    let area = block.inner(outer);
    block.render(outer, buf);
    let Some(state) = state else {
        let width = usize::from(area.width);
        for (offset, text) in empty_lines(app, pane).iter().enumerate() {
            if offset >= usize::from(area.height) {
                break;
            }
            let row = Rect::new(area.x, area.y + offset as u16, area.width, 1);
            Line::styled(fit_text(text, width), theme.paint(Paint::Note)).render(row, buf);
        }
        return;
    };
    // The Raw pane's syntax colours, once they are parsed; with them the
    // span is shown by its gutter bar, so its colour does not hide theirs.
    let highlighted = pane == PaneId::Raw
        && state.doc.tokens.is_empty()
        && app
            .detail
            .as_ref()
            .is_some_and(|detail| app.highlight.is_for(detail.entry, &state.doc.text));
    let look = if highlighted {
        Look {
            tokens: &app.highlight.tokens,
            skip: Some(Paint::Accepted),
        }
    } else {
        Look {
            tokens: &state.doc.tokens,
            skip: None,
        }
    };
    draw_rows(state, theme, look, area, buf);
}

/// What a pane says with no capture to show: an empty folder being watched says how
/// captures get there (in the first pane only).
fn empty_lines(app: &App, pane: PaneId) -> Vec<String> {
    if app.progress.loading() {
        return vec!["loading…".to_string()];
    }
    if !app.entries.is_empty() || pane != PaneId::Raw || app.load_error.is_some() {
        return vec!["no capture selected".to_string()];
    }
    if app.settings.recording.is_some() {
        return vec![
            "waiting for the first call".to_string(),
            "a: where to point your app".to_string(),
            "L: the proxy's log".to_string(),
        ];
    }
    if !app.watch.active {
        return vec!["no capture selected".to_string()];
    }
    let folder =
        crate::tui::sanitize::printable(&crate::text::shown_path(&app.settings.root).to_string());
    vec![
        format!("waiting for captures in {folder}"),
        String::new(),
        "point an app at the recording proxy:".to_string(),
        format!("  jxray record --tui --to {folder}"),
        "  (it shows the lines to paste)".to_string(),
        "or drop capture files into the folder:".to_string(),
        "  each appears here as it lands".to_string(),
    ]
}

/// The base styles of a pane's text, and a mark not to draw over them.
#[derive(Clone, Copy)]
struct Look<'a> {
    tokens: &'a [Styled],
    skip: Option<Paint>,
}

/// " 40-80 of 300 " for the bottom border.
fn position(state: &PaneState) -> String {
    let first = state.scroll + 1;
    let last = (state.scroll + state.height).min(state.rows.len());
    format!(" {first}-{last} of {} ", state.rows.len())
}

fn draw_rows(state: &PaneState, theme: &Theme, look: Look, area: Rect, buf: &mut Buffer) {
    let doc = &state.doc;
    let gutter_width = doc.gutter_width();
    for offset in 0..usize::from(area.height) {
        let index = state.scroll + offset;
        let y = area.y + offset as u16;
        let row_area = Rect::new(area.x, y, area.width, 1);
        if let Some(row) = state.rows.rows.get(index) {
            let mut spans = gutter(doc, row, gutter_width, theme);
            if row.indent > 0 {
                spans.push(Span::raw(" ".repeat(row.indent)));
            }
            spans.extend(content(doc, look, row, theme));
            Line::from(spans).render(row_area, buf);
        } else if index == state.rows.rows.len() {
            if let Some((text, paint)) = &doc.trailer {
                let pad = " ".repeat(gutter_width);
                Line::from(vec![
                    Span::raw(pad),
                    Span::styled(text.clone(), theme.paint(*paint)),
                ])
                .render(row_area, buf);
            }
        }
    }
}

fn gutter(doc: &Doc, row: &WrappedRow, width: usize, theme: &Theme) -> Vec<Span<'static>> {
    if width == 0 {
        return Vec::new();
    }
    let gutter = doc
        .lines
        .get(row.line)
        .map_or(Gutter::None, |line| line.gutter);
    match gutter {
        Gutter::None => vec![Span::raw(" ".repeat(width))],
        Gutter::Number { number, marked } => {
            let digits = width - 2;
            let number = if row.first {
                number.to_string()
            } else {
                String::new()
            };
            let bar = if marked { "▎" } else { " " };
            vec![
                Span::styled(format!("{number:>digits$}"), theme.gutter()),
                Span::styled(bar, theme.span_bar()),
                Span::raw(" "),
            ]
        }
        Gutter::Diff { old, new, sign } => {
            let digits = (width - 4) / 2;
            let show = |n: Option<usize>| match n {
                Some(n) if row.first => n.to_string(),
                _ => String::new(),
            };
            let paint = match sign {
                '-' => Paint::DiffDelete,
                '+' => Paint::DiffInsert,
                _ => Paint::Plain,
            };
            let sign = if row.first { sign } else { ' ' };
            vec![
                Span::styled(
                    format!("{:>digits$} {:>digits$} ", show(old), show(new)),
                    theme.gutter(),
                ),
                Span::styled(sign.to_string(), theme.paint(paint).patch(theme.strong())),
                Span::raw(" "),
            ]
        }
    }
}

/// The row's text, each character styled by its token, marks and visibility.
fn content(doc: &Doc, look: Look, row: &WrappedRow, theme: &Theme) -> Vec<Span<'static>> {
    let text = doc.text.get(row.start..row.end).unwrap_or("");
    let marks: Vec<&Styled> = doc
        .marks
        .iter()
        .filter(|mark| mark.start < row.end.max(row.start + 1) && mark.end > row.start)
        .filter(|mark| Some(mark.paint) != look.skip)
        .collect();
    let tokens = look.tokens;
    let mut token = tokens.partition_point(|t| t.end <= row.start);
    let mut spans = Vec::new();
    let mut current = String::new();
    let mut current_style: Option<Style> = None;
    let mut column = 0;
    for (offset, ch) in text.char_indices() {
        let at = row.start + offset;
        while token < tokens.len() && tokens[token].end <= at {
            token += 1;
        }
        let mut style = match tokens.get(token) {
            Some(t) if t.start <= at => theme.paint(t.paint),
            _ => Style::new(),
        };
        let glyph = glyph(ch, column);
        column += glyph.width();
        if glyph.is_marker() {
            style = style.patch(theme.marker());
        }
        for mark in marks.iter().filter(|m| m.start <= at && at < m.end) {
            style = style.patch(theme.paint(mark.paint));
        }
        if current_style != Some(style) {
            if let Some(previous) = current_style {
                spans.push(Span::styled(std::mem::take(&mut current), previous));
            }
            current_style = Some(style);
        }
        glyph.push_to(&mut current);
    }
    if let Some(style) = current_style {
        spans.push(Span::styled(current, style));
    }
    spans
}
