//! `update`: one action in, state changed, effects out.

use std::sync::Arc;

use ratatui::layout::Rect;

use crate::tui::action::{Action, Command, Edit, Effect};
use crate::tui::detail::pretty;
use crate::tui::help;
use crate::tui::layout::{help_area, inner, PaneId};
use crate::tui::search::Query;

use super::filter::Filter;
use super::{App, Focus, Overlay};

/// Apply one action. Results from background work (`FileLoaded`, `Extracted`)
/// only mark the list dirty, so a burst of them costs one re-sort: call
/// [`App::settle`] after a burst (the event loop does, before each frame).
/// Everything a user does settles first, so keys always see the current list.
pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::FileLoaded {
            path,
            captures,
            lenient,
        } => {
            let counted = app.progress.loading();
            let ids = app
                .entries
                .replace_file(&path, captures, app.query.as_ref());
            if counted {
                app.progress.files_done += 1;
            }
            if lenient != app.options.accept_lenient && !ids.is_empty() {
                // Read before `l` was pressed: extract again under the current setting.
                return reextract(app, ids);
            }
            Vec::new()
        }
        Action::Extracted {
            generation,
            outcomes,
        } => {
            if generation == app.generation {
                app.progress.extract_done += outcomes.len();
                for (id, outcome) in outcomes {
                    app.entries.set_outcome(id, outcome);
                }
            }
            Vec::new()
        }
        Action::Discovered { files } => {
            app.progress.files_total = Some(files);
            Vec::new()
        }
        Action::LoadFailed { message } => {
            app.progress.files_total = Some(0);
            app.warn(message.clone());
            app.load_error = Some(message);
            Vec::new()
        }
        other => {
            app.settle();
            let effects = interact(app, other);
            app.settle();
            effects
        }
    }
}

/// Actions that come from the user (or stand for them).
fn interact(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Command(command) => {
            app.notice = None;
            app.follow_top = false;
            command_in_mode(app, command)
        }
        Action::Edit(edit) => {
            if let Overlay::Search { text } = &mut app.overlay {
                match edit {
                    Edit::Insert(ch) => text.push(ch),
                    Edit::Backspace => {
                        text.pop();
                    }
                    Edit::Clear => text.clear(),
                }
            }
            Vec::new()
        }
        Action::Mouse(mouse) => {
            app.follow_top = false;
            if app.overlay == Overlay::None {
                app.mouse(mouse);
            }
            Vec::new()
        }
        Action::Resize { width, height } => {
            app.area = Rect::new(0, 0, width, height);
            Vec::new()
        }
        Action::FilesChanged(paths) => vec![Effect::Reload {
            paths,
            options: app.options.clone(),
        }],
        Action::Notice { text, error } => {
            if error {
                app.warn(text);
            } else {
                app.say(text);
            }
            Vec::new()
        }
        Action::Terminate => {
            app.quit = true;
            Vec::new()
        }
        Action::FileLoaded { .. }
        | Action::Extracted { .. }
        | Action::Discovered { .. }
        | Action::LoadFailed { .. } => Vec::new(),
    }
}

fn command_in_mode(app: &mut App, command: Command) -> Vec<Effect> {
    if command == Command::Quit {
        app.quit = true;
        return Vec::new();
    }
    match app.overlay.clone() {
        Overlay::None => command_on_main(app, command),
        Overlay::Help { scroll } => {
            match command {
                Command::Back | Command::Help => app.overlay = Overlay::None,
                movement => {
                    let (height, last) = help_extent(app);
                    let scroll = super::navigate::moved(movement, scroll, last, height);
                    app.overlay = Overlay::Help { scroll };
                }
            }
            Vec::new()
        }
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
                    let cursor = super::navigate::moved(movement, cursor, last, choices.len());
                    app.overlay = Overlay::Filter { cursor };
                }
            }
            Vec::new()
        }
        Overlay::Search { text } => {
            match command {
                Command::Back => app.overlay = Overlay::None,
                Command::Confirm => {
                    app.overlay = Overlay::None;
                    search(app, &text);
                }
                _ => {}
            }
            Vec::new()
        }
    }
}

fn command_on_main(app: &mut App, command: Command) -> Vec<Effect> {
    match command {
        Command::Down
        | Command::Up
        | Command::Top
        | Command::Bottom
        | Command::PageDown
        | Command::PageUp
        | Command::HalfDown
        | Command::HalfUp => app.move_focus(command),
        Command::NextPane => cycle_focus(app, true),
        Command::PrevPane => cycle_focus(app, false),
        Command::FocusRaw => focus_pane(app, PaneId::Raw),
        Command::FocusNormalized => focus_pane(app, PaneId::Normalized),
        Command::FocusDecoded => focus_pane(app, PaneId::Decoded),
        Command::Zoom => {
            app.zoom = !app.zoom;
            if app.zoom {
                app.focus = Focus::Pane;
            }
        }
        Command::Back => {
            if app.zoom {
                app.zoom = false;
            } else {
                app.focus = Focus::List;
            }
        }
        Command::Search => {
            app.overlay = Overlay::Search {
                text: String::new(),
            }
        }
        Command::SearchNext => app.next_match(true),
        Command::SearchPrev => app.next_match(false),
        Command::Filter => {
            let current = Filter::choices()
                .iter()
                .position(|&f| f == app.entries.filter)
                .unwrap_or(0);
            app.overlay = Overlay::Filter { cursor: current };
        }
        Command::Sort => {
            let sort = app.entries.sort.toggled();
            app.entries.set_sort(sort);
            app.say(format!("sorted {}", sort.label()));
        }
        Command::NextFailure => app.next_failure(true),
        Command::PrevFailure => app.next_failure(false),
        Command::ToggleLenient => return toggle_lenient(app),
        Command::Copy => return copy(app),
        Command::Edit => return edit(app),
        Command::Help => app.overlay = Overlay::Help { scroll: 0 },
        Command::Confirm | Command::Quit => {}
    }
    Vec::new()
}

/// The help overlay's page height and its largest scroll.
fn help_extent(app: &App) -> (usize, usize) {
    let height = usize::from(inner(help_area(app.area)).height);
    let lines = help::lines(&app.settings).len();
    (height, lines.saturating_sub(height))
}

fn cycle_focus(app: &mut App, forward: bool) {
    let order = [
        None,
        Some(PaneId::Raw),
        Some(PaneId::Normalized),
        Some(PaneId::Decoded),
    ];
    let now = match app.focus {
        Focus::List => 0,
        Focus::Pane => 1 + app.pane.index(),
    };
    let mut next = if forward {
        (now + 1) % 4
    } else {
        (now + 3) % 4
    };
    if app.zoom && next == 0 {
        // A zoomed screen has no list to focus.
        next = if forward { 1 } else { 3 };
    }
    match order[next] {
        None => app.focus = Focus::List,
        Some(pane) => focus_pane(app, pane),
    }
}

fn focus_pane(app: &mut App, pane: PaneId) {
    app.pane = pane;
    app.focus = Focus::Pane;
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

fn toggle_lenient(app: &mut App) -> Vec<Effect> {
    app.options.accept_lenient = !app.options.accept_lenient;
    app.generation += 1;
    app.progress.extract_total = 0;
    app.progress.extract_done = 0;
    let ids: Vec<_> = app.entries.iter().map(|entry| entry.id).collect();
    let state = if app.options.accept_lenient {
        "on"
    } else {
        "off"
    };
    app.say(format!(
        "lenient acceptance {state}: re-extracting {} captures",
        ids.len()
    ));
    reextract(app, ids)
}

/// Extract these entries again under the current options and generation.
fn reextract(app: &mut App, ids: Vec<u64>) -> Vec<Effect> {
    let captures: Vec<_> = ids
        .into_iter()
        .filter_map(|id| app.entries.get(id).map(|e| (id, Arc::clone(&e.capture))))
        .collect();
    if captures.is_empty() {
        return Vec::new();
    }
    app.progress.extract_total += captures.len();
    vec![Effect::Extract {
        generation: app.generation,
        captures,
        options: app.options.clone(),
    }]
}

fn copy(app: &mut App) -> Vec<Effect> {
    let Some(entry) = app.selected_entry() else {
        app.warn("nothing to copy: the list is empty");
        return Vec::new();
    };
    match entry.outcome.value.as_ref().filter(|_| entry.outcome.ok()) {
        None => {
            app.warn("nothing to copy: this capture has no decoded value");
            Vec::new()
        }
        Some(value) => {
            let text = pretty(value);
            app.say(format!(
                "copied the decoded value ({} bytes) with OSC 52; the terminal must allow clipboard access",
                text.len()
            ));
            vec![Effect::Copy(text)]
        }
    }
}

fn edit(app: &mut App) -> Vec<Effect> {
    let Some(entry) = app.selected_entry() else {
        app.warn("nothing to open: the list is empty");
        return Vec::new();
    };
    vec![Effect::Edit {
        path: entry.capture.path.clone(),
        line: entry.capture.line,
    }]
}
