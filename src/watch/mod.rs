//! Watch mode: turn file-system noise into "re-read these paths" batches.
//!
//! The pieces, each testable on its own:
//!
//! - [`IgnoreRules`] decides which paths are never worth a look: editor
//!   temporaries, hidden and build folders, jxray's own fixture writes.
//! - [`Coalescer`] is pure: it takes [`Hint`]s stamped with a time the caller
//!   supplies and yields a [`Batch`] once the paths have been quiet for a
//!   window, or when a burst has run for the maximum latency.
//! - Events are only hints. A batch is *re-stat'ed*: a path that exists is
//!   [`PathChange::Changed`] (re-read it), a path that is gone is
//!   [`PathChange::Removed`], and a folder that appeared is [`PathChange::Folder`], which
//!   the caller reads with its own rules (the first load's), so that a folder
//!   moved in shows its files and a link back up the tree is not followed.
//! - [`Watcher`] owns the platform watcher (or the polling fallback) and a
//!   thread that runs the coalescer; it sends [`WatchEvent`]s into the
//!   caller's channel through a mapping closure, so a UI can wrap them in its
//!   own event type.
//!
//! The flow is one way: notify (or the poller) → hints → coalescer → re-stat →
//! caller. Nothing here knows about captures or terminals; the caller re-reads
//! changed paths with the capture loader.

mod backend;
mod coalesce;
mod event;
mod ignore;
mod inbox;
mod notify_map;
mod restat;
mod scan;
mod walk;
mod watcher;
mod worker;

pub use coalesce::{Batch, Coalescer, Hint, HintKind, Timing, Touched};
pub use event::{PathChange, RootState, WatchEvent, WatchMode, WatchStatus};
pub use ignore::{IgnoreRules, TEMP_FILE_PREFIX};
pub use restat::restat;
pub use watcher::{WatchError, WatchOptions, Watcher};
