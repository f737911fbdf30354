//! What the watcher tells its caller.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What re-stat'ing a path found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathChange {
    /// The file exists (new or modified): re-read it. It may still be being
    /// written; a later write brings another `Changed`.
    Changed(PathBuf),
    /// Nothing is at this path any more. If it was a folder (deleted or moved
    /// out), everything that was below it is gone too: a vanished folder
    /// cannot be listed, so its files are not named one by one.
    Removed(PathBuf),
    /// A folder appeared at this path (made, moved in, linked, or put where a file
    /// was): a file that was at this very path is gone, and the folder is to be read
    /// with the rules of the first load (which files are captures, which links are
    /// followed), which are the caller's, not the watcher's.
    Folder(PathBuf),
}

impl PathChange {
    pub fn path(&self) -> &Path {
        match self {
            PathChange::Changed(path) | PathChange::Removed(path) | PathChange::Folder(path) => {
                path
            }
        }
    }
}

/// One message from the watcher thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEvent {
    /// One coalesced batch, sorted by path, never empty.
    Changes(Vec<PathChange>),
    /// Events were lost (kernel queue overflow, or the switch to polling):
    /// reload the whole root.
    Rescan,
    /// The way of watching changed (the native watcher failed at run time).
    Status(WatchStatus),
    /// Something watching could not do but that does not stop it, such as a
    /// folder that cannot be listed. The same message is not repeated.
    Problem(String),
    /// The watched root went away, changed kind, or came back (and is watched again;
    /// a [`WatchEvent::Rescan`] follows).
    Root(RootState),
}

/// Whether the watched root is there as it was when watching started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootState {
    /// There, of the kind it was: watched.
    Present,
    /// Nothing at its path: checked again every poll interval.
    Gone,
    /// Something of another kind in its place (a file where the folder was).
    KindChanged,
}

impl RootState {
    /// A footer line when the root is not being watched, `None` when it is. `file_now`:
    /// whether a file is at the root's path now.
    pub(crate) fn problem(self, file_now: bool) -> Option<&'static str> {
        match (self, file_now) {
            (RootState::Present, _) => None,
            (RootState::Gone, _) => Some("the watched path is gone; waiting for it to come back"),
            (RootState::KindChanged, true) => {
                Some("the watched folder was replaced by a file; waiting for a folder")
            }
            (RootState::KindChanged, false) => {
                Some("the watched file was replaced by a folder; waiting for a file")
            }
        }
    }
}

/// How changes are noticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchMode {
    /// The platform's notifications (inotify, FSEvents, ReadDirectoryChangesW).
    Native,
    /// Scanning the tree for changed sizes and modification times.
    Polling { interval: Duration },
}

/// The way of watching and, when it is not the native one, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchStatus {
    pub(crate) mode: WatchMode,
    /// Why polling is used, with the fix when one is known.
    pub(crate) reason: Option<String>,
}

impl WatchStatus {
    pub fn native() -> WatchStatus {
        WatchStatus {
            mode: WatchMode::Native,
            reason: None,
        }
    }

    pub(crate) fn polling(interval: Duration, reason: impl Into<String>) -> WatchStatus {
        WatchStatus {
            mode: WatchMode::Polling { interval },
            reason: Some(reason.into()),
        }
    }

    pub fn is_polling(&self) -> bool {
        matches!(self.mode, WatchMode::Polling { .. })
    }
}

impl fmt::Display for WatchStatus {
    /// One line for a footer: `watching` or `watching by polling every 1 s: why`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mode {
            WatchMode::Native => f.write_str("watching")?,
            WatchMode::Polling { interval } => {
                let millis = interval.as_millis();
                if millis % 1000 == 0 {
                    write!(f, "watching by polling every {} s", millis / 1000)?;
                } else {
                    write!(f, "watching by polling every {millis} ms")?;
                }
            }
        }
        match &self.reason {
            Some(reason) => write!(f, ": {reason}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_reads_as_one_footer_line() {
        assert_eq!(WatchStatus::native().to_string(), "watching");
        assert_eq!(
            WatchStatus::polling(Duration::from_secs(1), "forced").to_string(),
            "watching by polling every 1 s: forced"
        );
        assert_eq!(
            WatchStatus::polling(Duration::from_millis(250), "x").to_string(),
            "watching by polling every 250 ms: x"
        );
    }
}
