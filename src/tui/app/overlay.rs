//! Keys while an overlay is open: help, the filter menu, the search prompt
//! and the save dialog.

use crate::tui::action::{Command, Edit, Effect};
use crate::tui::help;
use crate::tui::layout::{help_area, inner};
use crate::tui::search::Query;

use super::filter::Filter;
use super::navigate::moved;
use super::{act, App, Overlay, SaveScope};

pub fn command(app: &mut App, command: Command) -> Vec<Effect> {
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
        Overlay::Filter { cursor } => {
            let choices = Filter::choices();
            match command {
                Command::Back => app.overlay = Overlay::None,
                Command::Confirm => {
                    let filter = choices.get(cursor).copied().unwrap_or_default();
                    app.entries.set_filter(filter);
                    app.overlay = Overlay::None;
                    app.settle();
                    app.say(format!(
                        "filter: {} ({} of {})",
                        filter.label(),
                        app.entries.view.len(),
                        app.entries.len()
                    ));
                }
                movement => {
                    let last = choices.len() - 1;
                    let cursor = moved(movement, cursor, last, choices.len());
                    app.overlay = Overlay::Filter { cursor };
                }
            }
        }
        Overlay::Search { text } => match command {
            Command::Back => app.overlay = Overlay::None,
            Command::Confirm => {
                app.overlay = Overlay::None;
                search(app, &text);
            }
            _ => {}
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
pub fn edit(app: &mut App, edit: Edit) {
    let text = match &mut app.overlay {
        Overlay::Search { text } => text,
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
}

/// The help overlay's page height and its largest scroll.
fn help_extent(app: &App) -> (usize, usize) {
    let height = usize::from(inner(help_area(app.area)).height);
    let lines = help::lines(&app.settings).len();
    (height, lines.saturating_sub(height))
}

fn search(app: &mut App, text: &str) {
    app.query = Query::new(text);
    let count = app.entries.mark_matches(app.query.as_ref());
    app.settle();
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
