//! The app state. `update` (in [`update`]) is the only thing that changes it;
//! rendering reads it.

mod act;
mod big;
mod chains;
pub(crate) use chains::ChainPlace;
mod checks;
mod copy;
mod entries;
mod filter;
pub(crate) mod groups;
mod navigate;
mod overlay;
mod overlay_keys;
mod proxy;
mod request_view;
mod save;
mod slim;
mod timeline_view;
mod update;
mod watch;

use crate::text::shown_path;
use std::path::PathBuf;
use std::sync::Arc;

use ratatui::layout::Rect;

use crate::check::Checker;
use crate::engine::Options;
use crate::schema::Schema;

use super::action::EntryId;
use super::keys::KeyMode;
use super::layout::{layout, ListWidth, PaneId, Screen, View};
use super::search::Query;
use super::theme::Theme;

pub use crate::tui::detail::DetailJob;
pub use crate::tui::detail::{Detail, PaneState, Subject};
pub(crate) use big::BigPanes;
pub use checks::Checks;
pub(crate) use copy::{size as copy_size, CopyChoice, OSC52_LIMIT};
pub(crate) use entries::{Entries, Entry};
pub use filter::{ChainRole, Filter, Sort};
pub use overlay::{request_width, Overlay};
pub(crate) use proxy::ProxyState;
pub use save::{Expect, SaveDialog, SaveScope};
pub use watch::SHARE_WINDOW;

/// Rows of the watch sparkline under the list (its border included).
pub(crate) const SPARKLINE_ROWS: u16 = 3;
pub use update::update;
pub use watch::WatchState;

/// What does not change while the app runs.
#[derive(Debug, Clone)]
pub struct TuiSettings {
    /// The file or folder the captures come from.
    pub root: PathBuf,
    /// Where fixtures are saved.
    pub fixtures: PathBuf,
    /// The config file's path, as help shows it.
    pub config_path: String,
    pub mouse: bool,
    pub watch: bool,
    /// What each capture is checked against beyond extraction.
    pub checks: Checks,
    /// The user's editor (`$VISUAL`, else `$EDITOR`), read at start-up.
    pub editor: Option<String>,
    /// Whether the root is a file (a folder otherwise), as it was at start-up.
    pub root_is_file: bool,
    /// The recording proxy beside the workbench (`jxray record --tui`).
    pub recording: Option<crate::tui::recording::Recording>,
}

/// Where keys go: the list, or the current pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    #[default]
    List,
    Pane,
}

/// A message in the footer until the next key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
}

/// Background work still running, for the footer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Capture files found, once the walk is done.
    pub(crate) files_total: Option<usize>,
    pub(crate) files_done: usize,
    /// Captures read while loading, so that one large file is seen to move.
    pub(crate) captures_read: usize,
    pub(crate) extract_total: usize,
    pub(crate) extract_done: usize,
}

impl Progress {
    pub fn loading(&self) -> bool {
        match self.files_total {
            None => true,
            Some(total) => self.files_done < total,
        }
    }

    pub fn extracting(&self) -> bool {
        self.extract_done < self.extract_total
    }
}

#[derive(Debug)]
pub struct App {
    pub settings: TuiSettings,
    pub theme: Theme,
    pub options: Options,
    pub area: Rect,
    pub entries: Entries,
    pub selected: Option<EntryId>,
    /// The selected row's position in the list.
    pub cursor: usize,
    /// The first list row on screen.
    pub(crate) list_offset: usize,
    pub focus: Focus,
    /// The pane shown as a tab, zoomed, or focused.
    pub pane: PaneId,
    pub zoom: bool,
    /// How wide the list is (`<` and `>`).
    pub(crate) list_width: ListWidth,
    pub overlay: Overlay,
    pub query: Option<Query>,
    pub detail: Option<Detail>,
    pub notice: Option<Notice>,
    pub progress: Progress,
    /// Bumped on each full re-extraction; older results are dropped.
    pub(crate) generation: u64,
    /// Whether the initial walk failed (the footer says why).
    pub(crate) load_error: Option<String>,
    /// The save dialog whose fixtures are being written (reopened if that fails).
    pub(crate) pending_save: Option<SaveDialog>,
    /// The capture whose request `r` asked for while its file was still to be read.
    pub(crate) request_wanted: Option<PathBuf>,
    /// Fixtures written this session, for the exit summary.
    pub saved_paths: Vec<PathBuf>,
    pub watch: WatchState,
    /// Until the user moves, the first row stays selected while results arrive in any order.
    pub(crate) follow_top: bool,
    /// `F`: keep the newest capture selected as captures arrive.
    pub follow_newest: bool,
    /// Syntax colours of the Raw pane, parsed as far as it has been shown.
    pub highlight: super::highlight::Highlight,
    /// Big captures' panes: built in the background, the last few kept.
    pub big: BigPanes,
    /// The fixtures folder's names as last listed: where the save dialog's name would go.
    pub(crate) fixture_names: crate::fixture::TakenNames,
    /// What the recording proxy beside the workbench said.
    pub(crate) proxy: ProxyState,
    /// How a capture is judged (`--schema`, else its log's): the loader judges with a
    /// clone of it, so the schemas logs recorded are compiled once for both.
    checker: Checker,
    pub quit: bool,
}

impl App {
    pub fn new(settings: TuiSettings, theme: Theme, options: Options, area: Rect) -> App {
        let watching = settings.watch;
        let checker = Checker::new(options.clone(), settings.checks.schema.clone());
        let notice = settings.checks.offered_schema.as_ref().map(|path| Notice {
            text: format!(
                "{} is beside the captures; run with --schema {} to check every value against it",
                shown_path(&path),
                shown_path(&path)
            ),
            error: false,
        });
        // Recording: where to point the app comes first, until the first call.
        let overlay = match settings.recording {
            Some(_) => Overlay::Recording {
                cursor: 0,
                auto: true,
            },
            None => Overlay::None,
        };
        App {
            settings,
            theme,
            options,
            area,
            entries: Entries::default(),
            selected: None,
            cursor: 0,
            list_offset: 0,
            focus: Focus::List,
            pane: PaneId::Raw,
            zoom: false,
            list_width: ListWidth::Normal,
            overlay,
            query: None,
            detail: None,
            notice,
            progress: Progress::default(),
            generation: 0,
            load_error: None,
            pending_save: None,
            request_wanted: None,
            watch: WatchState::new(watching),
            saved_paths: Vec::new(),
            follow_top: true,
            follow_newest: false,
            highlight: Default::default(),
            big: BigPanes::default(),
            fixture_names: Default::default(),
            proxy: ProxyState::default(),
            checker,
            quit: false,
        }
    }

    /// Which keys are live.
    pub fn mode(&self) -> KeyMode {
        match self.overlay {
            Overlay::None => KeyMode::Normal,
            Overlay::Help { .. } | Overlay::Request { .. } | Overlay::ProxyLog { .. } => {
                KeyMode::Help
            }
            Overlay::Filter { .. }
            | Overlay::Copy { .. }
            | Overlay::Recording { .. }
            | Overlay::Groups { .. } => KeyMode::Menu,
            Overlay::Search { .. } | Overlay::Save(_) => KeyMode::Prompt,
            Overlay::Timeline { .. } => KeyMode::Timeline,
        }
    }

    pub fn screen(&self) -> Screen {
        layout(self.area, self.zoom, self.pane, self.list_width)
    }

    /// What the panes are wrapped for now.
    pub(crate) fn view(&self) -> View {
        (self.area, self.zoom, self.pane, self.list_width)
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.selected.and_then(|id| self.entries.get(id))
    }

    /// The request the selected capture was recorded with, when one is beside it.
    /// The selected capture's request, as its entry has it now (a request file read after
    /// the panes were built is there too).
    pub(crate) fn selected_request(&self) -> Option<&crate::capture::RecordedRequest> {
        self.selected_entry()?.request.as_deref()
    }

    /// Rows of the list on screen (inside its border).
    pub(crate) fn list_height(&self) -> usize {
        self.screen().list.map_or(0, |rect| {
            let height = rect.height.saturating_sub(self.sparkline_rows(rect.height));
            usize::from(height.saturating_sub(2))
        })
    }

    /// Rows the watch sparkline takes under a list `height` rows high: while watching,
    /// once captures have arrived, when the list has room.
    pub(crate) fn sparkline_rows(&self, height: u16) -> u16 {
        let shown = self.watch.active && !self.watch.arrivals.is_empty() && height >= 12;
        if shown {
            SPARKLINE_ROWS
        } else {
            0
        }
    }

    /// Load whole captures at once, through the same actions the background
    /// loader sends (one `FileLoaded` a file, with all of its captures), extracting
    /// each with the app's options (tests, benchmarks, the docs' screenshot).
    pub fn load_now(&mut self, captures: Vec<crate::capture::Capture>) {
        use super::action::{Action, Loaded};
        let mut files: Vec<(std::path::PathBuf, Vec<Loaded>)> = Vec::new();
        let checker = self.checker.with_options(self.options.clone());
        for capture in captures {
            let request = crate::capture::RecordedRequest::shared_beside(&capture.path);
            let capture = crate::tui::loader::asked_of(capture, request.as_deref(), &checker);
            let outcome = checker.outcome(&capture);
            let loaded = Loaded {
                request,
                modified: std::fs::metadata(&capture.path)
                    .and_then(|m| m.modified())
                    .ok(),
                capture,
                outcome,
            };
            match files.last_mut() {
                Some((path, file)) if *path == loaded.capture.path => file.push(loaded),
                _ => files.push((loaded.capture.path.clone(), vec![loaded])),
            }
        }
        update(self, Action::Discovered { files: files.len() });
        for (path, captures) in files {
            let options = self.options.clone();
            update(
                self,
                Action::FileLoaded {
                    path,
                    captures,
                    options,
                },
            );
        }
        self.settle();
    }

    /// [`settle`](App::settle) before a frame, and the effects it asks for: the event loop
    /// performs them (a big capture's panes to build in the background).
    pub fn frame_effects(&mut self) -> Vec<super::Effect> {
        self.settle();
        let job = self.big.take_job();
        job.map(|job| super::Effect::BuildDetail(Box::new(job)))
            .into_iter()
            .collect()
    }

    /// Bring the view, the selection, the panes and the scroll positions in line
    /// with the data. Cheap when nothing changed; the event loop calls it once
    /// per burst of events, before drawing.
    pub fn settle(&mut self) {
        self.entries.settle();
        let len = self.entries.view.len();
        if self.follow_top {
            self.selected = None;
            self.cursor = 0;
        }
        if self.follow_newest {
            if let Some(newest) = self.entries.newest() {
                self.selected = None;
                self.cursor = newest;
            }
        }
        if let Some(position) = self.selected.and_then(|id| self.entries.position(id)) {
            self.cursor = position;
        } else {
            self.cursor = self.cursor.min(len.saturating_sub(1));
        }
        self.selected = self.entries.at(self.cursor).map(|entry| entry.id);
        let height = self.list_height().max(1);
        if self.cursor < self.list_offset {
            self.list_offset = self.cursor;
        } else if self.cursor >= self.list_offset + height {
            self.list_offset = self.cursor + 1 - height;
        }
        self.list_offset = self.list_offset.min(len.saturating_sub(height));
        self.bring_detail();
        let view = self.view();
        if let Some(detail) = &mut self.detail {
            detail.fit(view);
            // Colour the raw text down to a page past what is on screen.
            let raw = detail.pane(PaneId::Raw);
            let bottom = (raw.scroll + raw.height * 2).min(raw.rows.rows.len());
            let upto = raw
                .rows
                .rows
                .get(bottom.saturating_sub(1))
                .map_or(0, |row| row.line + 1);
            self.highlight
                .extend(detail.entry, &raw.doc.text, &raw.doc.lines, upto);
        }
        // Looking at a changed capture is what clears its mark.
        if let Some(id) = self.selected {
            if self.entries.get(id).is_some_and(|e| e.changed) {
                if let Some(entry) = self.entries.get_mut(id) {
                    entry.changed = false;
                }
                self.entries.settle();
            }
        }
        if self.watch.active && !self.progress.loading() {
            self.watch.rescanning = false;
            if self.watch.baseline.is_none() {
                self.watch.baseline = Some(self.entries.mix_all.clone());
            }
        }
    }

    /// Make `detail` show the selected capture as it is now: built here for a small
    /// capture; for a big one, kept from before or shown as a preview while it is built.
    fn bring_detail(&mut self) {
        let slim = self.selected_entry().filter(|entry| entry.slim);
        if let Some(entry) = slim {
            let (id, outcome) = (entry.id, self.whole_outcome(entry));
            self.entries.expand(id, outcome);
        }
        let query = self.query.as_ref();
        let Some(entry) = self.selected.and_then(|id| self.entries.get(id)) else {
            self.detail = None;
            return;
        };
        let screen = self.view();
        let shown = self
            .detail
            .as_ref()
            .filter(|d| d.shows(entry.id, &entry.outcome, query));
        if let Some(shown) = shown {
            // A big capture's panes are wrapped again off the UI thread (a zoom, a resize).
            if shown.building || !big::is_big(entry) || shown.fits(screen) {
                return;
            }
        }
        let old = self.detail.take();
        // Only a big capture's panes are worth keeping: they take long to build.
        let keep_old = old
            .as_ref()
            .is_some_and(|d| self.entries.get(d.entry).is_some_and(big::is_big));
        let detail = if !big::is_big(entry) {
            let schema = self.checked_against(entry);
            let mut detail = Detail::build(&entry.subject(), query, schema.as_deref());
            if let Some(old) = old.as_ref().filter(|d| d.entry == entry.id) {
                // A re-extraction or a new search keeps the user's place.
                detail.keep_place(old);
            }
            detail
        } else if let Some(kept) = self.big.take(entry, query, screen) {
            kept
        } else {
            let schema = self.checked_against(entry);
            self.big.ask(entry, query, schema.as_ref(), screen);
            Detail::preview(&entry.subject(), query)
        };
        if let Some(old) = old.filter(|_| keep_old) {
            self.big.keep(old);
        }
        self.detail = Some(detail);
    }

    /// How captures are judged here; the loader takes a clone (one schema cache for both).
    pub(crate) fn checker(&self) -> &Checker {
        &self.checker
    }

    /// The schema `entry` is checked against (`--schema`, else its log's), for the panes
    /// to show the same violations the outcome counts.
    fn checked_against(&self, entry: &Entry) -> Option<Arc<Schema>> {
        let explicit = self.checker.schema();
        self.checker
            .recorded_schemas()
            .checked_against(explicit, &entry.capture)
    }

    /// An entry's outcome as extraction gives it, extracting a slim one again.
    pub(crate) fn whole_outcome(&self, entry: &Entry) -> Arc<crate::engine::Outcome> {
        if !entry.slim {
            return Arc::clone(&entry.outcome);
        }
        let checker = self.checker.with_options(self.options.clone());
        Arc::new(checker.outcome(&entry.capture))
    }

    /// A big capture's panes, built in the background: shown if still selected, else kept.
    pub(crate) fn detail_built(&mut self, mut built: Detail) {
        self.big.arrived(&built);
        let query = self.query.as_ref();
        let current = self.selected.and_then(|id| self.entries.get(id));
        let showing = self.detail.as_ref().filter(|d| d.building);
        match (current, showing) {
            (Some(entry), Some(preview)) if built.shows(entry.id, &entry.outcome, query) => {
                built.keep_scrolled_place(preview);
                self.detail = Some(built);
            }
            _ => self.big.keep(built),
        }
    }

    /// What the event loop does first: load the captures, and find which are fixtures already.
    pub fn start(&self) -> Vec<super::Effect> {
        let mut effects = Vec::new();
        if self.watch.active {
            // Watch first, then load: nothing can change unseen in between.
            effects.push(super::Effect::Watch(super::action::WatchControl::Start));
        }
        effects.extend([
            super::Effect::LoadAll {
                options: self.options.clone(),
                known: Vec::new(),
            },
            super::Effect::IndexFixtures {
                dir: self.settings.fixtures.clone(),
            },
        ]);
        effects
    }
}
