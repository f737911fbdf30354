//! The handle a UI keeps: start, pause, resume, status; dropping it stops.
//!
//! The handle owns the watch thread, and the thread owns the platform watcher
//! (it must, to swap it for the poller when the platform watcher fails).
//! Dropping the handle stops the thread and waits for it, which drops the
//! platform watcher: nothing is leaked or forgotten.

use crate::text::shown_path;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::backend::Backend;
use super::coalesce::{Coalescer, Timing};
use super::event::{WatchEvent, WatchStatus};
use super::ignore::IgnoreRules;
use super::inbox::Msg;
use super::worker::{Shared, Sink, Worker};

/// How to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchOptions {
    pub timing: Timing,
    /// Folders whose changes are never reported, absolute or relative to the
    /// current directory: the fixtures folder, so that saving a fixture does
    /// not wake the watcher. Folders outside the root need not be listed.
    pub ignore_folders: Vec<PathBuf>,
    /// Poll even though native notifications work (network file systems,
    /// containers, tests of the fallback).
    pub force_polling: bool,
    /// How often the poller scans the tree.
    pub poll_interval: Duration,
}

impl Default for WatchOptions {
    fn default() -> WatchOptions {
        WatchOptions {
            timing: Timing::default(),
            ignore_folders: Vec::new(),
            force_polling: false,
            poll_interval: Duration::from_secs(1),
        }
    }
}

/// Why watching could not start at all (a failing native watcher is not an
/// error: polling takes over and [`Watcher::status`] says why).
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot watch {}: {source}; give an existing file or folder", shown_path(&path))]
    Root {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot start the watch thread: {0}")]
    Thread(#[source] io::Error),
}

/// A running watch on one root (a folder, recursively, or a single file).
#[derive(Debug)]
pub struct Watcher {
    root: PathBuf,
    control: Sender<Msg>,
    thread: Option<JoinHandle<()>>,
    shared: Arc<Shared>,
    paused: AtomicBool,
}

impl Watcher {
    /// Start watching `root`, sending every [`WatchEvent`] through `map` into
    /// `sender`. Returns once the watch is in place: load the tree *after*
    /// this returns, so that no change can fall between the load and the watch.
    /// When the native watcher cannot start, polling is used and
    /// [`Watcher::status`] says why (a later fallback arrives as
    /// [`WatchEvent::Status`]). Watching stops when the `Watcher` is dropped
    /// or the receiver is.
    pub fn start<T, F>(
        root: &Path,
        options: WatchOptions,
        sender: Sender<T>,
        map: F,
    ) -> Result<Watcher, WatchError>
    where
        T: Send + 'static,
        F: Fn(WatchEvent) -> T + Send + 'static,
    {
        fs::metadata(root).map_err(|source| WatchError::Root {
            path: root.to_path_buf(),
            source,
        })?;
        let rules = IgnoreRules::for_root(root, &options.ignore_folders);
        let (control, inbox) = mpsc::channel();
        let started = Backend::start(
            &rules,
            options.force_polling,
            options.poll_interval,
            control.clone(),
        );
        let shared = Arc::new(Shared::new(started.status.clone()));
        let sink: Sink = Box::new(move |event| sender.send(map(event)).is_ok());
        let worker = Worker::new(
            Coalescer::new(options.timing, rules),
            started,
            options.poll_interval,
            sink,
            Arc::clone(&shared),
            (options.force_polling, control.clone()),
        );
        let thread = thread::Builder::new()
            .name("jxray-watch".to_string())
            .spawn(move || worker.run(inbox))
            .map_err(WatchError::Thread)?;
        Ok(Watcher {
            root: root.to_path_buf(),
            control,
            thread: Some(thread),
            shared,
            paused: AtomicBool::new(false),
        })
    }

    /// The root as given to [`Watcher::start`]; reported paths start with it.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Native or polling, and why polling.
    pub fn status(&self) -> WatchStatus {
        self.shared.status()
    }

    /// Hold back deliveries; changes keep accumulating.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::Relaxed);
        // Fails only when the thread has ended, and then there is nothing to pause.
        let _ = self.control.send(Msg::Pause);
    }

    /// Deliver what accumulated while paused, and carry on.
    pub fn resume(&self) {
        self.paused.store(false, Ordering::Relaxed);
        let _ = self.control.send(Msg::Resume);
    }

    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    /// How many paths are waiting to be delivered (while paused, the count of
    /// changes the user has not seen yet).
    pub fn pending(&self) -> usize {
        self.shared.pending()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.control.send(Msg::Stop);
        if let Some(thread) = self.thread.take() {
            // A panic on the watch thread has already been reported by the
            // panic hook; dropping must not panic in turn.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::Receiver;

    fn quick() -> WatchOptions {
        WatchOptions {
            timing: Timing {
                quiet: Duration::from_millis(50),
                max_latency: Duration::from_millis(200),
            },
            poll_interval: Duration::from_millis(50),
            ..WatchOptions::default()
        }
    }

    fn next(events: &Receiver<WatchEvent>) -> WatchEvent {
        events
            .recv_timeout(Duration::from_secs(10))
            .expect("an event within 10 s")
    }

    #[test]
    fn a_native_watcher_failing_at_run_time_falls_back_to_polling() {
        let temp = tempfile::tempdir().expect("temp dir");
        let (sender, events) = mpsc::channel();
        let watcher = Watcher::start(temp.path(), quick(), sender, |event| event).expect("start");
        assert_eq!(watcher.status(), WatchStatus::native());

        // What inotify sends when a new folder exceeds the watch limit.
        let limit = notify::Error::new(notify::ErrorKind::MaxFilesWatch);
        watcher.control.send(Msg::Fs(Err(limit))).expect("inject");

        match next(&events) {
            WatchEvent::Status(status) => {
                assert!(status.is_polling());
                let text = status.to_string();
                assert!(
                    text.contains("sysctl fs.inotify.max_user_watches="),
                    "{text}"
                );
            }
            other => panic!("expected the polling status, got {other:?}"),
        }
        assert_eq!(next(&events), WatchEvent::Rescan);
        assert!(watcher.status().is_polling());

        let file = temp.path().join("after.txt");
        fs::write(&file, "{}").expect("write");
        assert_eq!(
            next(&events),
            WatchEvent::Changes(vec![super::super::PathChange::Changed(file)])
        );
    }

    #[test]
    fn a_missing_root_is_a_clear_error() {
        let temp = tempfile::tempdir().expect("temp dir");
        let (sender, _events) = mpsc::channel::<WatchEvent>();
        let error = Watcher::start(&temp.path().join("nope"), quick(), sender, |event| event)
            .expect_err("missing root");
        let message = error.to_string();
        assert!(message.starts_with("cannot watch "), "{message}");
        assert!(message.contains("nope"), "{message}");
    }
}
