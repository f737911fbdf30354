//! What can happen to the app ([`Action`]) and what the app asks the outside
//! world to do ([`Effect`]). `update` turns one into the other; only the event
//! loop performs effects, so the app state stays testable without a terminal.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use crate::capture::{Capture, RecordedRequest};
use crate::engine::{Options, Outcome};
use crate::fixture::{Fixture, TakenNames};
use crate::watch::WatchEvent;

use super::detail::{Detail, DetailJob};
use super::pacer::Permit;

pub use super::ids::EntryId;

/// Something a key can do. The key table maps keys to these, per mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    Down,
    Up,
    Top,
    Bottom,
    PageDown,
    PageUp,
    HalfDown,
    HalfUp,
    NextPane,
    PrevPane,
    FocusRaw,
    FocusNormalized,
    FocusDecoded,
    Zoom,
    /// Narrow the list (`<`), down to hidden, or widen it (`>`).
    NarrowList,
    WidenList,
    Search,
    SearchNext,
    SearchPrev,
    Filter,
    /// The group view: the captures by model, prompt, provider, folder or day (`b`); in
    /// it, group by the next key.
    Groups,
    Sort,
    NextFailure,
    PrevFailure,
    ToggleLenient,
    /// Make strings that hold JSON the value (`--decode-stringified`), or stop.
    ToggleDecodeStringified,
    /// The copy menu: value, raw text, lenient reading, path.
    Copy,
    /// Keep the newest capture selected (`F`), or stop.
    Follow,
    Edit,
    /// Save the selected capture as a fixture (a dialog first).
    Save,
    /// Save every capture under the filter as fixtures (a dialog first).
    SaveAll,
    /// Start or stop watching the folder.
    ToggleWatch,
    /// Hold back or let through the watcher's changes.
    PauseWatch,
    /// Show the request a recorded capture was asked with (`jxray record`).
    Request,
    /// Select the next attempt of the selected capture's repair chain (wrapping).
    NextInChain,
    /// Show how to point an app at the proxy beside the workbench (`jxray record --tui`).
    PointApp,
    /// Show the proxy's log lines.
    ProxyLog,
    /// Show how a saved stream arrived, chunk by chunk (`T`).
    Timeline,
    /// In the arrival view: the next chunk, or the one before.
    StepForward,
    StepBack,
    /// Another expectation in the save dialog.
    NextChoice,
    PrevChoice,
    Help,
    /// Close an overlay, leave zoom, or return focus to the list.
    Back,
    /// Accept a menu choice or a prompt.
    Confirm,
    Quit,
}

/// An edit to the text of a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    Insert(char),
    Backspace,
    Clear,
}

/// A mouse gesture at a screen cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mouse {
    ScrollDown { column: u16, row: u16 },
    ScrollUp { column: u16, row: u16 },
    Click { column: u16, row: u16 },
}

/// One capture read from disk and extracted.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub capture: Capture,
    pub outcome: Outcome,
    /// The request `jxray record` wrote beside its file, read with it.
    pub request: Option<Arc<RecordedRequest>>,
    /// Its file's modification time when it was read.
    pub modified: Option<SystemTime>,
}

/// What became of one capture that was to be saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    New(PathBuf),
    /// A fixture with the same input exists already; nothing was written.
    Existing(PathBuf),
    Failed(String),
}

/// Everything `update` reacts to.
#[derive(Debug, Clone)]
pub enum Action {
    Command(Command),
    Edit(Edit),
    Mouse(Mouse),
    Resize {
        width: u16,
        height: u16,
    },
    /// The loader found this many capture files.
    Discovered {
        files: usize,
    },
    /// One file was read and its captures extracted under `options`.
    FileLoaded {
        path: PathBuf,
        captures: Vec<Loaded>,
        options: Options,
    },
    /// A part of a file of many captures, in order: `first` starts reading it again,
    /// `last` ends it (a file read whole is one [`Action::FileLoaded`]).
    FilePart {
        path: PathBuf,
        captures: Vec<Loaded>,
        options: Options,
        first: bool,
        last: bool,
        /// With the first part: about how many captures the file holds, to make room once.
        expected: usize,
        /// Its place in the queue: the loader reads on when it is dropped.
        permit: Permit,
    },
    /// The loader could not walk the root at all.
    LoadFailed {
        message: String,
    },
    /// Re-extracted outcomes (after `l`); stale generations are ignored.
    Extracted {
        generation: u64,
        outcomes: Vec<(EntryId, Outcome)>,
    },
    /// These files may have changed (the watcher, or the editor returning): re-read them.
    FilesChanged(Vec<PathBuf>),
    /// Fixtures were written (or not).
    SaveDone {
        results: Vec<(EntryId, Saved)>,
    },
    /// The fixtures folder holds these inputs (by hash): their captures get the saved mark.
    FixturesFound {
        inputs: HashMap<u64, PathBuf>,
        /// Every name the folder holds (fixtures or not): where a new one may go.
        names: TakenNames,
    },
    /// What the file watcher saw (or how it watches).
    Watch(WatchEvent),
    /// A message for the footer (the result of an effect).
    Notice {
        text: String,
        error: bool,
    },
    /// A termination signal: leave cleanly.
    Terminate,
    /// The syntax colours have loaded: draw again to show them.
    SyntaxesLoaded,
    /// A big capture's panes, built in the background.
    DetailBuilt(Box<Detail>),
    /// What the recording proxy beside the workbench said (`jxray record --tui`).
    Proxy(ProxyNote),
}

/// One note from the recording proxy, its text one escaped line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProxyNote {
    /// A call ended with its capture written (the log line).
    Kept(String),
    /// The same, its stream ended early by `--stop-on`.
    Stopped(String),
    /// A call ended without a capture (the reason).
    NotKept(String),
    /// Any other log line.
    Line(String),
    /// A streamed call in flight, numbered `call`: where it stands, or `None` once it
    /// ended.
    InFlight { call: u64, line: Option<String> },
}

/// Work for the event loop.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Discover and read every capture under the root; files in `known` that
    /// are not found any more are reported gone.
    LoadAll {
        options: Options,
        known: Vec<PathBuf>,
    },
    /// Re-read these files (a missing file means its captures are gone).
    Reload {
        paths: Vec<PathBuf>,
        options: Options,
    },
    /// Re-extract these captures under a new generation.
    Extract {
        generation: u64,
        captures: Vec<(EntryId, Arc<Capture>)>,
        options: Options,
    },
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Open a file in the user's editor, then re-read it.
    Edit { path: PathBuf, line: Option<usize> },
    /// Write fixtures into `dir`, skipping inputs that are fixtures already.
    SaveFixtures {
        dir: PathBuf,
        fixtures: Vec<(EntryId, Fixture)>,
    },
    /// Find which inputs the fixtures folder already holds.
    IndexFixtures { dir: PathBuf },
    /// Start, stop, pause or resume the file watcher.
    Watch(WatchControl),
    /// Build a big capture's panes in the background; they come back as `DetailBuilt`.
    BuildDetail(Box<DetailJob>),
}

/// What the event loop does with the file watcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchControl {
    Start,
    Stop,
    Pause,
    Resume,
}
