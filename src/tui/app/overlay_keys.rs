//! Keys while an overlay is open: help, the filter menu, the search prompt, the copy menu,
//! the save dialog, the group view and the proxy's panels.

use crate::tui::action::{Command, Edit, Effect};
use crate::tui::layout::{help_area, inner};
use crate::tui::search::Query;
use crate::tui::{help, request};

use super::copy::CopyChoice;
use super::filter::Filter;
use super::navigate::moved;
use super::overlay::{apply_filter, request_width, Overlay};
use super::{act, copy, groups, proxy, timeline_view, App, SaveScope};

pub(super) fn command(app: &mut App, command: Command) -> Vec<Effect> {
    match app.overlay.clone() {
        Overlay::None => {}
        Overlay::Help { scroll } => match command {
            Command::Back | Command::Help => app.overlay = Overlay::None,
            movement => {
                let (height, last) = help_extent(app);
                let scroll = moved(movement, scroll, last, height);
                app.overlay = Overlay::Help { scroll };
            }
        },
        Overlay::Request { scroll } => match command {
            Command::Back => app.overlay = Overlay::None,
            movement => {
                let (height, last) = request_extent(app);
                let scroll = moved(movement, scroll, last, height);
                app.overlay = Overlay::Request { scroll };
            }
        },
        Overlay::Filter { cursor } => {
            let choices = Filter::menu_of(&app.entries.kinds);
            match command {
                Command::Back => app.overlay = Overlay::None,
                Command::Confirm => {
                    apply_filter(app, choices.get(cursor).cloned().unwrap_or_default());
                }
                movement => {
                    let last = choices.len() - 1;
                    let cursor = moved(movement, cursor, last, choices.len());
                    app.overlay = Overlay::Filter { cursor };
                }
            }
        }
        Overlay::Search { text, previous } => match command {
            Command::Back => {
                app.overlay = Overlay::None;
                mark(app, previous);
            }
            Command::Confirm => {
                app.overlay = Overlay::None;
                search(app, &text);
            }
            _ => {}
        },
        Overlay::Recording { cursor, .. } => return proxy::panel_command(app, cursor, command),
        Overlay::ProxyLog { scroll } => proxy::log_command(app, scroll, command),
        Overlay::Timeline {
            timeline,
            at,
            count,
            scroll,
        } => timeline_view::command(app, (timeline, at, count, scroll), command),
        Overlay::Groups { by, cursor } => groups::command(app, by, cursor, command),
        Overlay::Copy { cursor } => match command {
            Command::Back => app.overlay = Overlay::None,
            Command::Confirm | Command::Copy => return copy::copy(app, cursor),
            movement => {
                let last = CopyChoice::ALL.len() - 1;
                let cursor = moved(movement, cursor, last, CopyChoice::ALL.len());
                app.overlay = Overlay::Copy { cursor };
            }
        },
        Overlay::Save(mut dialog) => match command {
            Command::Back => app.overlay = Overlay::None,
            Command::NextChoice | Command::PrevChoice => {
                dialog.move_choice(command == Command::NextChoice);
                app.overlay = Overlay::Save(dialog);
            }
            Command::Confirm => return act::save(app, dialog),
            _ => {}
        },
    }
    Vec::new()
}

/// Typing in the search prompt or the save dialog's name.
pub(super) fn edit(app: &mut App, edit: Edit) {
    if let (Overlay::Timeline { .. }, Edit::Insert(digit)) = (&app.overlay, edit) {
        return timeline_view::digit(app, digit);
    }
    let text = match &mut app.overlay {
        Overlay::Search { text, .. } => text,
        Overlay::Save(dialog) if matches!(dialog.scope, SaveScope::One(_)) => &mut dialog.name,
        _ => return,
    };
    match edit {
        Edit::Insert(ch) => text.push(ch),
        Edit::Backspace => {
            text.pop();
        }
        Edit::Clear => text.clear(),
    }
    match app.overlay.clone() {
        // Incremental: the list and the panes mark matches as the query grows.
        Overlay::Search { text, .. } => mark(app, Query::new(&text)),
        Overlay::Save(mut dialog) => {
            dialog.refresh(&app.settings.fixtures, &app.fixture_names);
            app.overlay = Overlay::Save(dialog);
        }
        _ => {}
    }
}

/// Mark the captures a query matches, without moving or saying anything.
fn mark(app: &mut App, query: Option<Query>) {
    if app.query != query {
        app.query = query;
        app.entries.mark_matches(app.query.as_ref());
    }
}

/// The help overlay's page height and its largest scroll.
fn help_extent(app: &App) -> (usize, usize) {
    let height = usize::from(inner(help_area(app.area)).height);
    let lines = help::lines(&app.settings.help_context()).len();
    (height, lines.saturating_sub(height))
}

/// The request overlay's page height and last scroll position.
fn request_extent(app: &App) -> (usize, usize) {
    let inner = inner(help_area(app.area));
    let height = usize::from(inner.height);
    let lines = app
        .selected_request()
        .map_or(0, |r| request::lines(r, request_width(inner.width)).len());
    (height, lines.saturating_sub(height))
}

fn search(app: &mut App, text: &str) {
    app.query = Query::new(text);
    let count = app.entries.mark_matches(app.query.as_ref());
    app.settle();
    if app.follow_newest && count > 0 {
        app.follow_newest = false;
    }
    match app.query.clone() {
        None => app.say("search cleared"),
        Some(query) if count == 0 => app.warn(format!("no capture matches \"{}\"", query.as_str())),
        Some(query) => {
            let here = app.selected_entry().is_some_and(|entry| entry.matched);
            if !here {
                app.select_next(true, |entry| entry.matched);
            }
            app.say(format!(
                "{count} {} \"{}\" (n next, N previous)",
                if count == 1 {
                    "capture matches"
                } else {
                    "captures match"
                },
                query.as_str()
            ));
        }
    }
}
