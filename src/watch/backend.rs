//! Where hints come from: the platform watcher, or the poller when it fails.

use std::path::Path;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher as _};

use super::event::WatchStatus;
use super::ignore::IgnoreRules;
use super::inbox::Msg;
use super::notify_map::fallback_reason;
use super::scan::Poller;

/// The source of hints; dropping it stops watching.
pub(crate) enum Backend {
    /// notify's platform watcher; its events arrive as [`Msg::Fs`]. Held
    /// only so that dropping the backend drops it and ends the watch.
    Native {
        _watcher: notify::RecommendedWatcher,
    },
    /// Scans run by the worker thread itself.
    Polling(Poller),
}

/// A backend ready to run, how it watches, and folders it could not list.
pub(crate) struct Started {
    pub(crate) backend: Backend,
    pub(crate) status: WatchStatus,
    pub(crate) problems: Vec<String>,
}

impl Backend {
    /// The native watcher, or polling when it is forced or cannot start.
    /// Returns once the watch is in place, so nothing written after this
    /// call returns can be missed.
    pub(crate) fn start(
        rules: &IgnoreRules,
        force_polling: bool,
        poll_interval: Duration,
        inbox: Sender<Msg>,
    ) -> Started {
        if force_polling {
            return Backend::polling(rules, poll_interval, "polling was asked for");
        }
        match native(rules, inbox) {
            Ok(watcher) => Started {
                backend: Backend::Native { _watcher: watcher },
                status: WatchStatus::native(),
                problems: Vec::new(),
            },
            Err(error) => Backend::polling(rules, poll_interval, fallback_reason(&error)),
        }
    }

    /// Start polling now; the first scan happens one interval from now.
    pub(crate) fn polling(
        rules: &IgnoreRules,
        interval: Duration,
        reason: impl Into<String>,
    ) -> Started {
        let (poller, problems) = Poller::start(rules.clone(), interval, Instant::now());
        Started {
            backend: Backend::Polling(poller),
            status: WatchStatus::polling(interval, reason),
            problems,
        }
    }

    pub(crate) fn is_polling(&self) -> bool {
        matches!(self, Backend::Polling(_))
    }
}

/// Watch the root folder recursively; a single file is watched through its
/// folder, because editors replace files by rename and a watch on the old
/// file would go quiet.
fn native(rules: &IgnoreRules, inbox: Sender<Msg>) -> notify::Result<notify::RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |result| {
        // The worker is gone only when watching stopped; nothing to tell then.
        let _ = inbox.send(Msg::Fs(result));
    })?;
    let root = rules.root();
    if rules.is_single_file() {
        let folder = root
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        watcher.watch(folder, RecursiveMode::NonRecursive)?;
    } else {
        watcher.watch(root, RecursiveMode::Recursive)?;
    }
    Ok(watcher)
}
