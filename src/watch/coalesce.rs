//! The pure heart of watch mode: hints in, quiet batches out.
//!
//! The coalescer never reads a clock: every call takes `now`, so tests drive
//! it with a fake timeline and the watcher thread with `Instant::now()`.
//!
//! Rules:
//! - Ignored paths (see [`IgnoreRules`]) are dropped on entry.
//! - Hints for the same path merge; a batch holds each path once, sorted.
//! - A batch is due when no hint arrived for [`Timing::quiet`], or when its
//!   first hint is [`Timing::max_latency`] old, so a continuous burst (a
//!   thousand files, a model streaming into a file) still shows up promptly.
//! - Any hint after a batch was taken starts a new batch, so the last write to
//!   a file is always followed by one more batch: a half-written file that
//!   was delivered early is delivered again once complete.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::ignore::IgnoreRules;

/// How long to wait before delivering a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// Deliver once no hint arrived for this long.
    pub quiet: Duration,
    /// Deliver at the latest this long after the batch's first hint.
    pub max_latency: Duration,
}

impl Default for Timing {
    /// 200 ms of quiet absorbs an editor's rename-save dance without feeling
    /// laggy; 500 ms bounds a continuous burst well inside one second.
    fn default() -> Timing {
        Timing {
            quiet: Duration::from_millis(200),
            max_latency: Duration::from_millis(500),
        }
    }
}

/// What the file system said happened; only a hint, the path is re-read anyway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HintKind {
    Created,
    Modified,
    Removed,
    /// Renamed from or to this path.
    Renamed,
    /// The platform did not say.
    Any,
}

impl HintKind {
    /// Whether something new may now be at the path. A folder that was only
    /// modified just had its listing change, which its entries report
    /// themselves; a folder created, moved in or of unknown history is listed.
    fn may_appear(self) -> bool {
        !matches!(self, HintKind::Modified)
    }
}

/// One raw file-system hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub(crate) path: PathBuf,
    pub(crate) kind: HintKind,
}

impl Hint {
    pub fn new(path: impl Into<PathBuf>, kind: HintKind) -> Hint {
        Hint {
            path: path.into(),
            kind,
        }
    }
}

/// A path in a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touched {
    pub path: PathBuf,
    /// Created, removed, renamed or unknown: a folder found here is listed.
    pub appeared: bool,
}

/// Paths that were quiet long enough, in path order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Batch {
    pub touched: Vec<Touched>,
    /// Events were lost (kernel queue overflow, change of backend): the
    /// whole tree must be reloaded, whatever `touched` says.
    pub rescan: bool,
}

/// Merges hints into batches; see the module documentation for the rules.
#[derive(Debug, Clone)]
pub struct Coalescer {
    timing: Timing,
    rules: IgnoreRules,
    /// Pending paths and whether something may have appeared at each.
    pending: BTreeMap<PathBuf, bool>,
    rescan: bool,
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Coalescer {
    pub fn new(timing: Timing, rules: IgnoreRules) -> Coalescer {
        Coalescer {
            timing,
            rules,
            pending: BTreeMap::new(),
            rescan: false,
            first: None,
            last: None,
        }
    }

    /// The rules hints are filtered with.
    pub(crate) fn rules(&self) -> &IgnoreRules {
        &self.rules
    }

    /// Take a hint seen at `now`; returns false when its path is ignored.
    pub fn push(&mut self, hint: Hint, now: Instant) -> bool {
        let Some(path) = self.rules.admit(&hint.path) else {
            return false;
        };
        *self.pending.entry(path).or_insert(false) |= hint.kind.may_appear();
        self.stamp(now);
        true
    }

    /// Note that events were lost at `now`; the next batch asks for a rescan.
    pub fn push_rescan(&mut self, now: Instant) {
        self.rescan = true;
        self.stamp(now);
    }

    fn stamp(&mut self, now: Instant) {
        self.first.get_or_insert(now);
        // A clock that steps back must not make the batch wait longer.
        self.last = Some(self.last.map_or(now, |last| last.max(now)));
    }

    /// When the pending batch becomes due, if anything is pending.
    pub fn deadline(&self) -> Option<Instant> {
        let quiet_end = self.last? + self.timing.quiet;
        let latest = self.first? + self.timing.max_latency;
        Some(quiet_end.min(latest))
    }

    /// The pending batch, if it is due at `now`.
    pub fn take_due(&mut self, now: Instant) -> Option<Batch> {
        if self.deadline()? <= now {
            self.take_all()
        } else {
            None
        }
    }

    /// Everything pending, due or not (used on resume after a pause).
    pub fn take_all(&mut self) -> Option<Batch> {
        self.first = None;
        self.last = None;
        if self.pending.is_empty() && !self.rescan {
            return None;
        }
        let touched = std::mem::take(&mut self.pending)
            .into_iter()
            .map(|(path, appeared)| Touched { path, appeared })
            .collect();
        Some(Batch {
            touched,
            rescan: std::mem::take(&mut self.rescan),
        })
    }

    /// How many paths are waiting (shown as "N changes" while paused).
    pub fn pending(&self) -> usize {
        self.pending.len()
    }
}
