//! Commands that reach outside the app: re-extraction, the clipboard, the
//! editor and fixtures. Each returns the effects the event loop performs.

use std::sync::Arc;

use crate::text::count_of;
use crate::tui::action::{Effect, EntryId, Saved};

use super::save::summary;
use super::{App, Overlay, SaveDialog, SaveScope};

pub(super) fn toggle_lenient(app: &mut App) -> Vec<Effect> {
    app.options.accept_lenient = !app.options.accept_lenient;
    let state = on_off(app.options.accept_lenient);
    reextract_all(app, &format!("lenient acceptance {state}"))
}

pub(super) fn toggle_decode_stringified(app: &mut App) -> Vec<Effect> {
    app.options.decode_stringified = !app.options.decode_stringified;
    let state = on_off(app.options.decode_stringified);
    reextract_all(app, &format!("decoding stringified JSON {state}"))
}

fn on_off(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

/// After an option changed: extract every capture again, dropping results still under way.
fn reextract_all(app: &mut App, what: &str) -> Vec<Effect> {
    app.generation += 1;
    app.progress.extract_total = 0;
    app.progress.extract_done = 0;
    let ids: Vec<_> = app.entries.iter().map(|entry| entry.id).collect();
    app.say(format!(
        "{what}: re-extracting {}",
        count_of(ids.len(), "capture")
    ));
    reextract(app, ids)
}

/// Extract these entries again under the current options and generation.
pub(super) fn reextract(app: &mut App, ids: Vec<EntryId>) -> Vec<Effect> {
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

pub(super) fn edit(app: &mut App) -> Vec<Effect> {
    let Some(entry) = app.selected_entry() else {
        app.warn("nothing to open: the list is empty");
        return Vec::new();
    };
    let path = entry.capture.path.clone();
    let line = entry.capture.line;
    if let Some(line) = line {
        let editor = app.settings.editor.as_deref();
        if !crate::tui::editor::knows_lines(editor) {
            let editor = editor.unwrap_or_default().to_string();
            app.say(format!(
                "the capture is on line {line}; {editor} is not known to take a line, so it opens at the top"
            ));
        }
    }
    vec![Effect::Edit { path, line }]
}

/// `s` (one) or `S` (all): open the save dialog, and look at the fixtures folder again
/// (a fixture deleted since loses its mark; the dialog's planned name is checked anew).
pub(super) fn open_save(app: &mut App, all: bool) -> Vec<Effect> {
    let dialog = if all {
        SaveDialog::all(app)
    } else {
        match app.selected_entry() {
            Some(entry) => SaveDialog::one(entry),
            None => Err("nothing to save: the list is empty".to_string()),
        }
    };
    match dialog {
        Ok(mut dialog) => {
            dialog.refresh(&app.settings.fixtures, &app.fixture_names);
            app.overlay = Overlay::Save(dialog);
            vec![Effect::IndexFixtures {
                dir: app.settings.fixtures.clone(),
            }]
        }
        Err(message) => {
            app.warn(message);
            Vec::new()
        }
    }
}

/// Enter in the save dialog.
pub(super) fn save(app: &mut App, mut dialog: SaveDialog) -> Vec<Effect> {
    if matches!(dialog.scope, SaveScope::One(_)) {
        dialog.refresh(&app.settings.fixtures, &app.fixture_names);
        if let Some(Err(problem)) = &dialog.planned {
            // Said in the dialog, before anything is attempted.
            dialog.error = Some(problem.clone());
            app.overlay = Overlay::Save(dialog);
            return Vec::new();
        }
    }
    match dialog.fixtures(app) {
        Err(message) => {
            dialog.error = Some(message);
            app.overlay = Overlay::Save(dialog);
            Vec::new()
        }
        Ok(fixtures) => {
            app.overlay = Overlay::None;
            app.pending_save = Some(dialog);
            app.say(format!("saving {} fixture(s)…", fixtures.len()));
            vec![Effect::SaveFixtures {
                dir: app.settings.fixtures.clone(),
                fixtures,
            }]
        }
    }
}

/// The fixtures were written (or not): marks, the summary, and the dialog
/// again when a single save failed, so the name can be fixed.
pub(super) fn save_done(app: &mut App, results: Vec<(EntryId, Saved)>) {
    for (id, saved) in &results {
        match saved {
            Saved::New(path) => {
                app.saved_paths.push(path.clone());
                app.entries.set_saved(*id, path.clone());
            }
            Saved::Existing(path) => app.entries.set_saved(*id, path.clone()),
            Saved::Failed(_) => {}
        }
    }
    let (text, error) = summary(&results);
    let pending = app.pending_save.take();
    match (pending, results.as_slice()) {
        (Some(mut dialog), [(_, Saved::Failed(message))]) => {
            // The dialog says what went wrong; "saving…" is over.
            app.notice = None;
            dialog.error = Some(message.clone());
            dialog.refresh(&app.settings.fixtures, &app.fixture_names);
            app.overlay = Overlay::Save(dialog);
        }
        _ if error => app.warn(text),
        _ => app.say(text),
    }
}
