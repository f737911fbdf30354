//! `r`: the request the selected capture was recorded with. A request file can arrive (or
//! be read) after its capture: then the capture is read again and the request opens when
//! it is there, instead of "no request beside this capture".

use std::path::PathBuf;

use crate::capture::request_path;
use crate::tui::action::Effect;

use super::{App, Overlay};

/// Open the selected capture's request; when its file is there but not read yet, read it.
pub(super) fn open(app: &mut App) -> Vec<Effect> {
    if app.selected_request().is_some() {
        app.overlay = Overlay::Request { scroll: 0 };
        return Vec::new();
    }
    let Some(capture) = app.selected_entry().map(|entry| entry.capture.path.clone()) else {
        return Vec::new();
    };
    if !request_path(&capture).is_some_and(|path| path.is_file()) {
        app.warn("no request beside this capture; `jxray record` saves one with each capture");
        return Vec::new();
    }
    app.say("reading the request beside this capture…");
    app.request_wanted = Some(capture.clone());
    vec![Effect::Reload {
        paths: vec![capture],
        options: app.options.clone(),
    }]
}

/// A file was read whole: when it is the capture whose request was asked for and it is
/// still selected, show the request.
pub(super) fn file_read(app: &mut App, path: &PathBuf) {
    if app.request_wanted.as_ref() != Some(path) {
        return;
    }
    app.request_wanted = None;
    app.settle();
    let selected = app.selected_entry().map(|entry| &entry.capture.path);
    if selected != Some(path) || !matches!(app.overlay, Overlay::None) {
        return;
    }
    if app.selected_request().is_some() {
        app.notice = None;
        app.overlay = Overlay::Request { scroll: 0 };
    } else {
        app.warn("the request file beside this capture is gone");
    }
}
