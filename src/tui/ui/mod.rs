//! Rendering: reads the app, never changes it.

mod copy_menu;
mod dialog;
pub(crate) mod fit;
mod footer;
mod groups;
mod header;
mod list;
mod overlay;
mod pane;
mod recording;
mod sparkline;
mod wrap;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use ratatui::Frame;

use super::app::{App, Overlay};
use super::layout::{layout, PaneId};

/// Draw the whole screen into a frame.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    draw(app, area, frame.buffer_mut());
}

/// Draw the whole screen into a buffer (tests draw without a terminal).
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let screen = layout(area, app.zoom, app.pane, app.list_width);
    if let Some(rect) = screen.list {
        list::render(app, rect, buf);
    }
    if let Some(rect) = screen.header {
        header::render(app, rect, buf);
    }
    if let Some(rect) = screen.tabs {
        tabs(app, rect, buf);
    }
    for pane in PaneId::ALL {
        if let Some(rect) = screen.panes[pane.index()] {
            pane::render(app, pane, rect, buf);
        }
    }
    footer::render(app, screen.footer, buf);
    match &app.overlay {
        Overlay::Help { scroll } => overlay::help(app, *scroll, area, buf),
        Overlay::Request { scroll } => overlay::request(app, *scroll, area, buf),
        Overlay::Filter { cursor } => overlay::filter_menu(app, *cursor, area, buf),
        Overlay::Save(save) => dialog::save(app, save, area, buf),
        Overlay::Copy { cursor } => copy_menu::render(app, *cursor, area, buf),
        Overlay::Recording { cursor, .. } => recording::render(app, *cursor, area, buf),
        Overlay::ProxyLog { scroll } => overlay::proxy_log(app, *scroll, area, buf),
        Overlay::Groups { by, cursor } => groups::render(app, *by, *cursor, area, buf),
        Overlay::Timeline {
            timeline,
            at,
            count,
            scroll,
        } => overlay::timeline(app, (timeline, *at, *count), *scroll, area, buf),
        Overlay::Search { .. } | Overlay::None => {}
    }
}

/// "1 Raw │ 2 Normalized │ 3 Decoded" with the current one reversed.
fn tabs(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    for pane in PaneId::ALL {
        if !spans.is_empty() {
            spans.push(Span::styled("│", theme.label()));
        }
        let text = format!(" {} {} ", pane.index() + 1, pane.name());
        let style = if pane == app.pane {
            theme.title(true)
        } else {
            theme.label()
        };
        spans.push(Span::styled(text, style));
    }
    Line::from(spans).render(area, buf);
}
