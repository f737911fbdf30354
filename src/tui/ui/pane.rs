//! Drawing a pane: a doc's visible rows, gutter, styles and invisible characters.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use crate::tui::app::{App, Focus, PaneState};
use crate::tui::doc::{Doc, Gutter, Paint, Styled};
use crate::tui::layout::PaneId;
use crate::tui::rows::Row;
use crate::tui::sanitize::glyph;
use crate::tui::theme::Theme;

pub fn render(app: &App, pane: PaneId, outer: Rect, buf: &mut Buffer) {
    let focused = app.focus == Focus::Pane && app.pane == pane;
    let theme = &app.theme;
    let state = app.detail.as_ref().map(|detail| detail.pane(pane));
    let mut title = format!(" {} ", pane.name());
    if let Some(state) = state.filter(|s| !s.doc.title.is_empty()) {
        title = format!(" {} · {} ", pane.name(), state.doc.title);
    }
    let mut block = Block::bordered()
        .border_style(theme.border(focused))
        .title(Span::styled(title, theme.title(focused)));
    if let Some(state) = state.filter(|s| s.rows.len() > s.height) {
        block = block.title_bottom(Line::from(position(state)).right_aligned());
    }
    let area = block.inner(outer);
    block.render(outer, buf);
    let Some(state) = state else {
        let message = if app.progress.loading() {
            "loading…"
        } else {
            "no capture selected"
        };
        Line::styled(message, theme.paint(Paint::Note)).render(area, buf);
        return;
    };
    draw_rows(state, theme, area, buf);
}

/// " 40-80 of 300 " for the bottom border.
fn position(state: &PaneState) -> String {
    let first = state.scroll + 1;
    let last = (state.scroll + state.height).min(state.rows.len());
    format!(" {first}-{last} of {} ", state.rows.len())
}

fn draw_rows(state: &PaneState, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let doc = &state.doc;
    let gutter_width = doc.gutter_width();
    for offset in 0..usize::from(area.height) {
        let index = state.scroll + offset;
        let y = area.y + offset as u16;
        let row_area = Rect::new(area.x, y, area.width, 1);
        if let Some(row) = state.rows.rows.get(index) {
            let mut spans = gutter(doc, row, gutter_width, theme);
            spans.extend(content(doc, row, theme));
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

fn gutter(doc: &Doc, row: &Row, width: usize, theme: &Theme) -> Vec<Span<'static>> {
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
fn content(doc: &Doc, row: &Row, theme: &Theme) -> Vec<Span<'static>> {
    let text = doc.text.get(row.start..row.end).unwrap_or("");
    let marks: Vec<&Styled> = doc
        .marks
        .iter()
        .filter(|mark| mark.start < row.end.max(row.start + 1) && mark.end > row.start)
        .collect();
    let mut token = doc.tokens.partition_point(|t| t.end <= row.start);
    let mut spans = Vec::new();
    let mut current = String::new();
    let mut current_style: Option<Style> = None;
    let mut column = 0;
    for (offset, ch) in text.char_indices() {
        let at = row.start + offset;
        while token < doc.tokens.len() && doc.tokens[token].end <= at {
            token += 1;
        }
        let mut style = match doc.tokens.get(token) {
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
