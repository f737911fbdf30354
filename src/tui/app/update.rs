//! `update`: one action in, state changed, effects out.

use ratatui::layout::Rect;

use crate::tui::action::{Action, Command, Effect};
use crate::tui::layout::PaneId;

use super::filter::Filter;
use super::{act, overlay_keys, proxy, request_view, watch, App, Focus, Overlay};

/// Apply one action. Results from background work (`FileLoaded`, `Extracted`)
/// only mark the list dirty, so a burst of them costs one re-sort: call
/// [`App::settle`] after a burst (the event loop does, before each frame).
/// Everything a user does settles first, so keys always see the current list.
pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::FileLoaded {
            path,
            captures,
            options,
        } => {
            let effects = file_part(app, path.clone(), captures, options, (true, true));
            request_view::file_read(app, &path);
            effects
        }
        Action::FilePart {
            path,
            captures,
            options,
            first,
            last,
            expected,
            permit: _,
        } => {
            app.entries.make_room(expected);
            let effects = file_part(app, path.clone(), captures, options, (first, last));
            if last {
                request_view::file_read(app, &path);
            }
            effects
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
        Action::FixturesFound { inputs, names } => {
            app.entries.set_fixtures(inputs);
            app.fixture_names = names;
            if let Overlay::Save(dialog) = &mut app.overlay {
                dialog.refresh(&app.settings.fixtures, &app.fixture_names);
            }
            Vec::new()
        }
        Action::DetailBuilt(detail) => {
            app.detail_built(*detail);
            Vec::new()
        }
        Action::Proxy(note) => {
            proxy::note(app, note);
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

/// Captures read from `path`: all of them, or a part (`first` and `last` say which).
fn file_part(
    app: &mut App,
    path: std::path::PathBuf,
    captures: Vec<crate::tui::action::Loaded>,
    options: crate::engine::Options,
    (first, last): (bool, bool),
) -> Vec<Effect> {
    if first {
        let mark_changes = app.watch.take_reread(&path);
        app.entries.begin_file(&path, mark_changes);
    }
    if app.progress.loading() {
        app.progress.captures_read += captures.len();
    }
    // A file of many captures keeps slim outcomes; one read whole keeps them whole.
    let slim = !(first && last);
    let ids = app
        .entries
        .add_to_file(&path, captures, app.query.as_ref(), slim);
    let arrived = std::mem::take(&mut app.entries.arrived);
    if app.watch.active {
        app.watch.arrived(arrived);
    }
    if last {
        app.entries.end_file(&path);
        if app.progress.loading() {
            app.progress.files_done += 1;
        }
    }
    if options != app.options && !ids.is_empty() {
        // Read before `l` or `d` was pressed: extract again under the current options.
        return act::reextract(app, ids);
    }
    Vec::new()
}

/// Actions that come from the user (or stand for them).
fn interact(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Command(command) => {
            app.notice = None;
            app.follow_top = false;
            if command == Command::Quit {
                app.quit = true;
                return Vec::new();
            }
            if app.overlay == Overlay::None {
                command_on_main(app, command)
            } else {
                overlay_keys::command(app, command)
            }
        }
        Action::Edit(edit) => {
            overlay_keys::edit(app, edit);
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
        Action::Watch(event) => watch::event(app, event),
        Action::SaveDone { results } => {
            act::save_done(app, results);
            Vec::new()
        }
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
        Action::SyntaxesLoaded => Vec::new(),
        Action::FileLoaded { .. }
        | Action::FilePart { .. }
        | Action::Extracted { .. }
        | Action::Discovered { .. }
        | Action::LoadFailed { .. }
        | Action::FixturesFound { .. }
        | Action::DetailBuilt(_)
        | Action::Proxy(_) => Vec::new(),
    }
}

fn command_on_main(app: &mut App, command: Command) -> Vec<Effect> {
    if app.follow_newest && moves_selection(app, command) {
        // Choosing a capture by hand is what ends following.
        app.follow_newest = false;
        app.say("stopped following the newest capture (F follows again)");
    }
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
        Command::Zoom => toggle_zoom(app),
        Command::NarrowList => narrow_list(app),
        Command::WidenList => app.list_width = app.list_width.wider(),
        Command::Back => back(app),
        Command::Search => {
            app.overlay = Overlay::Search {
                text: String::new(),
                previous: app.query.clone(),
            }
        }
        Command::SearchNext => app.next_match(true),
        Command::SearchPrev => app.next_match(false),
        Command::Filter => open_filter(app),
        Command::Groups => super::groups::open(app),
        Command::Sort => {
            let sort = app.entries.sort.toggled();
            app.entries.set_sort(sort);
            app.say(format!("sorted {}", sort.label()));
        }
        Command::NextFailure => app.next_failure(true),
        Command::PrevFailure => app.next_failure(false),
        Command::ToggleLenient => return act::toggle_lenient(app),
        Command::ToggleDecodeStringified => return act::toggle_decode_stringified(app),
        Command::Copy => open_copy(app),
        Command::Follow => toggle_follow(app),
        Command::Edit => return act::edit(app),
        Command::ToggleWatch => return watch::toggle(app),
        Command::PauseWatch => return watch::pause(app),
        Command::Save => return act::open_save(app, false),
        Command::SaveAll => return act::open_save(app, true),
        Command::Help => app.overlay = Overlay::Help { scroll: 0 },
        Command::Request => return request_view::open(app),
        Command::NextInChain => app.next_in_chain(),
        Command::PointApp => proxy::open_panel(app),
        Command::ProxyLog => proxy::open_log(app),
        Command::Timeline => super::timeline_view::open(app),
        Command::Confirm
        | Command::Quit
        | Command::NextChoice
        | Command::PrevChoice
        | Command::StepForward
        | Command::StepBack => {}
    }
    Vec::new()
}

fn toggle_zoom(app: &mut App) {
    app.zoom = !app.zoom;
    if app.zoom {
        app.focus = Focus::Pane;
    }
}

fn narrow_list(app: &mut App) {
    app.list_width = app.list_width.narrower();
    // Keys for a hidden list would move a selection no one sees.
    if app.list_width == crate::tui::layout::ListWidth::Hidden {
        app.focus = Focus::Pane;
    }
}

/// Esc on the main screen: leave the zoom, else go back to the list.
fn back(app: &mut App) {
    if app.zoom {
        app.zoom = false;
    } else {
        app.focus = Focus::List;
    }
}

/// The filter menu, its cursor on the filter in force.
fn open_filter(app: &mut App) {
    let current = Filter::menu_of(&app.entries.kinds)
        .iter()
        .position(|f| *f == app.entries.filter)
        .unwrap_or(0);
    app.overlay = Overlay::Filter { cursor: current };
}

fn open_copy(app: &mut App) {
    // An accepted value is what is usually wanted; otherwise the raw text.
    let ok = app.selected_entry().is_some_and(|e| e.outcome.ok());
    app.overlay = Overlay::Copy {
        cursor: usize::from(!ok),
    };
}

fn toggle_follow(app: &mut App) {
    app.follow_newest = !app.follow_newest;
    if app.follow_newest {
        app.say("following the newest capture (F or a move stops)");
    } else {
        app.say("stopped following");
    }
}

/// Whether a command picks another capture.
fn moves_selection(app: &App, command: Command) -> bool {
    match command {
        Command::Down
        | Command::Up
        | Command::Top
        | Command::Bottom
        | Command::PageDown
        | Command::PageUp
        | Command::HalfDown
        | Command::HalfUp => app.focus == Focus::List,
        Command::NextFailure
        | Command::PrevFailure
        | Command::SearchNext
        | Command::SearchPrev
        | Command::NextInChain => true,
        _ => false,
    }
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
