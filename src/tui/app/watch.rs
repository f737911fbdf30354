//! Watch mode in the app: which re-reads the watcher asked for, what is new
//! or gone, and the mix when watching started (the footer shows the change).

use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;

use crate::capture::{capture_beside_request, is_capture_name};
use crate::mix::Mix;
use crate::tui::action::{Effect, WatchControl};
use crate::watch::{PathChange, WatchEvent};

use super::App;

#[derive(Debug, Clone, Default)]
pub struct WatchState {
    pub active: bool,
    pub(crate) paused: bool,
    /// "watching", or "watching by polling every 1 s: why".
    pub(crate) status: Option<String>,
    /// The mix when watching started (once the first load was complete).
    pub(crate) baseline: Option<Mix>,
    /// Files the watcher asked to re-read: their captures get the changed mark.
    rereading: HashSet<PathBuf>,
    /// Folders that appeared while watching: the captures read from them are new.
    new_folders: Vec<PathBuf>,
    /// A whole re-read is under way: what it finds new or different is marked.
    pub(crate) rescanning: bool,
    /// Why the root is not being watched now (gone, or replaced by another kind), for
    /// the footer; `None` while it is.
    pub(crate) root_problem: Option<&'static str>,
    /// Whether each capture read since the first load failed, the latest last (at most
    /// [`ARRIVALS_KEPT`]): the sparkline of the failure share.
    pub arrivals: VecDeque<bool>,
}

/// How many arrivals the sparkline remembers.
pub(super) const ARRIVALS_KEPT: usize = 512;
/// How many arrivals each point of the sparkline is the failure share of.
pub const SHARE_WINDOW: usize = 10;

impl WatchState {
    pub(crate) fn new(active: bool) -> WatchState {
        WatchState {
            active,
            ..WatchState::default()
        }
    }

    /// Remember captures that arrived while watching, each failed or not.
    pub(crate) fn arrived(&mut self, failed: impl IntoIterator<Item = bool>) {
        for failed in failed {
            if self.arrivals.len() == ARRIVALS_KEPT {
                self.arrivals.pop_front();
            }
            self.arrivals.push_back(failed);
        }
    }

    /// The failure share, in percent, of the [`SHARE_WINDOW`] arrivals up to each of the
    /// last `points` arrivals (fewer at the start), oldest first.
    pub fn failure_shares(&self, points: usize) -> Vec<u64> {
        let failed: Vec<bool> = self.arrivals.iter().copied().collect();
        let first = failed.len().saturating_sub(points);
        (first..failed.len())
            .map(|end| {
                let window = &failed[(end + 1).saturating_sub(SHARE_WINDOW)..=end];
                let count = window.iter().filter(|f| **f).count();
                (count * 100 / window.len()) as u64
            })
            .collect()
    }

    /// Whether a loaded file was re-read for the watcher (and so marks changes).
    pub(crate) fn take_reread(&mut self, path: &std::path::Path) -> bool {
        self.rereading.remove(path)
            || self.rescanning
            || self
                .new_folders
                .iter()
                .any(|folder| path.starts_with(folder))
    }
}

/// `w`: start or stop watching. Starting re-reads everything, so nothing that
/// changed while not watching is missed.
pub(super) fn toggle(app: &mut App) -> Vec<Effect> {
    if app.watch.active {
        app.watch = WatchState::default();
        app.say("stopped watching");
        return vec![Effect::Watch(WatchControl::Stop)];
    }
    app.watch.active = true;
    app.watch.baseline = Some(app.entries.mix_all.clone());
    app.say("watching: new and changed captures are marked *");
    let mut effects = vec![Effect::Watch(WatchControl::Start)];
    effects.extend(rescan(app));
    effects
}

/// `p`: hold back the watcher's changes, or let them through.
pub(super) fn pause(app: &mut App) -> Vec<Effect> {
    if !app.watch.active {
        app.warn("not watching; press w to watch the folder");
        return Vec::new();
    }
    app.watch.paused = !app.watch.paused;
    if app.watch.paused {
        app.say("watch paused: changes are held until p");
        vec![Effect::Watch(WatchControl::Pause)]
    } else {
        app.say("watch resumed");
        vec![Effect::Watch(WatchControl::Resume)]
    }
}

/// A message from the watcher.
pub(super) fn event(app: &mut App, event: WatchEvent) -> Vec<Effect> {
    if !app.watch.active {
        return Vec::new();
    }
    match event {
        WatchEvent::Changes(changes) => {
            // What was marked gone last time leaves now.
            app.entries.drop_gone();
            let mut paths = Vec::new();
            for change in changes {
                match change {
                    // A request file written beside its capture: the capture's header
                    // shows it, so the capture is read again.
                    PathChange::Changed(path) => match capture_beside_request(&path) {
                        Some(capture) => paths.push(capture),
                        None if is_capture(app, &path) => paths.push(path),
                        None => {}
                    },
                    PathChange::Removed(path) => {
                        app.entries.mark_gone(&path);
                    }
                    PathChange::Folder(path) => {
                        // A file that was at this path is gone; what the folder holds is
                        // read by the loader with the first load's rules.
                        app.entries.mark_file_gone(&path);
                        app.watch.new_folders.push(path.clone());
                        paths.push(path);
                    }
                }
            }
            reread(app, paths)
        }
        WatchEvent::Rescan => rescan(app),
        WatchEvent::Status(status) => {
            app.watch.status = Some(status.to_string());
            Vec::new()
        }
        WatchEvent::Problem(message) => {
            app.warn(message);
            Vec::new()
        }
        WatchEvent::Root(state) => {
            app.watch.root_problem = state.problem(app.settings.root_is_file);
            match app.watch.root_problem {
                Some(problem) => {
                    // Its captures are gone with it.
                    app.entries.mark_gone(&app.settings.root.clone());
                    app.warn(problem);
                }
                None => app.say("the watched path is back; reading it again"),
            }
            Vec::new()
        }
    }
}

/// Re-read every known file and look for new ones.
fn rescan(app: &mut App) -> Vec<Effect> {
    app.progress.files_total = None;
    app.progress.files_done = 0;
    app.progress.captures_read = 0;
    app.watch.rescanning = true;
    vec![Effect::LoadAll {
        options: app.options.clone(),
        known: app.entries.paths(),
    }]
}

fn reread(app: &mut App, paths: Vec<PathBuf>) -> Vec<Effect> {
    if paths.is_empty() {
        return Vec::new();
    }
    // A folder's captures are marked through `new_folders`; only files wait here.
    let files = paths
        .iter()
        .filter(|path| !app.watch.new_folders.contains(path));
    app.watch.rereading.extend(files.cloned());
    vec![Effect::Reload {
        paths,
        options: app.options.clone(),
    }]
}

/// Whether the watcher's path is one the folder walk would have loaded.
fn is_capture(app: &App, path: &std::path::Path) -> bool {
    path == app.settings.root || path.file_name().is_some_and(is_capture_name)
}
