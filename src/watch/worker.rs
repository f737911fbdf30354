//! The watch thread: hints in, coalesced and re-stat'ed events out.
//!
//! The thread sleeps in a blocking `recv` while nothing is pending and the
//! backend is native, so an idle watch costs no CPU; it wakes only for a
//! message, a due batch or (when polling) the next scan.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::backend::{Backend, Started};
use super::coalesce::{Batch, Coalescer, Hint, HintKind};
use super::event::{RootState, WatchEvent, WatchStatus};
use super::inbox::Msg;
use super::notify_map::{classify, hints, ErrorAction};
use super::restat::restat;

/// State the [`Watcher`](super::Watcher) handle reads.
#[derive(Debug)]
pub(crate) struct Shared {
    status: Mutex<WatchStatus>,
    pending: AtomicUsize,
}

impl Shared {
    pub(crate) fn new(status: WatchStatus) -> Shared {
        Shared {
            status: Mutex::new(status),
            pending: AtomicUsize::new(0),
        }
    }

    pub(crate) fn status(&self) -> WatchStatus {
        self.status
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn set_status(&self, status: WatchStatus) {
        *self.status.lock().unwrap_or_else(PoisonError::into_inner) = status;
    }

    pub(crate) fn pending(&self) -> usize {
        self.pending.load(Ordering::Relaxed)
    }
}

/// Hands an event to the caller; false once the caller stopped listening.
pub(crate) type Sink = Box<dyn FnMut(WatchEvent) -> bool + Send>;

pub(crate) struct Worker {
    coalescer: Coalescer,
    backend: Backend,
    poll_interval: Duration,
    sink: Sink,
    shared: Arc<Shared>,
    paused: bool,
    /// Problems already told, so a poller does not repeat them every scan.
    reported: BTreeSet<String>,
    /// Problems found while starting, told first thing.
    startup_problems: Vec<String>,
    /// Whether the root is there as it was; while it is not, it is looked for every poll
    /// interval and watched again when it is back.
    root: RootState,
    /// How the backend was started, to start it again when the root comes back.
    force_polling: bool,
    inbox: Sender<Msg>,
}

impl Worker {
    pub(crate) fn new(
        coalescer: Coalescer,
        started: Started,
        poll_interval: Duration,
        sink: Sink,
        shared: Arc<Shared>,
        restart: (bool, Sender<Msg>),
    ) -> Worker {
        let (force_polling, inbox) = restart;
        Worker {
            coalescer,
            backend: started.backend,
            poll_interval,
            sink,
            shared,
            paused: false,
            reported: BTreeSet::new(),
            startup_problems: started.problems,
            root: RootState::Present,
            force_polling,
            inbox,
        }
    }

    /// Run until told to stop or until the caller stops listening; the
    /// backend is dropped (and watching ends) when this returns.
    pub(crate) fn run(mut self, inbox: Receiver<Msg>) {
        let startup = std::mem::take(&mut self.startup_problems);
        if !self.report(startup) {
            return;
        }
        loop {
            let received = match self.wake_at() {
                None => inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(at) => inbox.recv_timeout(at.saturating_duration_since(Instant::now())),
            };
            let now = Instant::now();
            let alive = match received {
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => true,
                Ok(Msg::Fs(result)) => self.on_notify(result, now),
                Ok(Msg::Pause) => {
                    self.paused = true;
                    true
                }
                Ok(Msg::Resume) => {
                    self.paused = false;
                    // What accumulated while paused is delivered at once.
                    match self.coalescer.take_all() {
                        Some(batch) => self.deliver(batch),
                        None => true,
                    }
                }
            };
            if !alive || !self.tick(now) {
                return;
            }
        }
    }

    /// The next time something is due, or `None` to sleep until a message.
    fn wake_at(&self) -> Option<Instant> {
        if self.root != RootState::Present {
            return Some(Instant::now() + self.poll_interval);
        }
        let flush = (!self.paused).then(|| self.coalescer.deadline()).flatten();
        let scan = match &self.backend {
            Backend::Polling(poller) => Some(poller.next_scan()),
            Backend::Native { .. } => None,
        };
        match (flush, scan) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Scan when polling is due, deliver a batch when one is due.
    fn tick(&mut self, now: Instant) -> bool {
        if self.root != RootState::Present {
            return self.check_root(now);
        }
        let mut alive = true;
        if let Backend::Polling(poller) = &mut self.backend {
            if poller.next_scan() <= now {
                let (found, problems) = poller.scan(now);
                for hint in found {
                    self.coalescer.push(hint, now);
                }
                alive = self.report(problems);
            }
        }
        if alive && !self.paused {
            if let Some(batch) = self.coalescer.take_due(now) {
                alive = self.deliver(batch);
            }
        }
        self.shared
            .pending
            .store(self.coalescer.pending(), Ordering::Relaxed);
        alive
    }

    fn on_notify(&mut self, result: notify::Result<notify::Event>, now: Instant) -> bool {
        match result {
            Ok(event) => {
                if event.need_rescan() {
                    self.coalescer.push_rescan(now);
                }
                for hint in hints(&event) {
                    self.coalescer.push(hint, now);
                }
                true
            }
            Err(error) => match classify(&error) {
                ErrorAction::FallBack(reason) => self.fall_back(reason, now),
                ErrorAction::Hint(paths) => {
                    for path in paths {
                        self.coalescer.push(Hint::new(path, HintKind::Any), now);
                    }
                    true
                }
                ErrorAction::Report(message) => self.report(vec![message]),
            },
        }
    }

    /// Replace a failing native watcher by polling. Events may have been lost
    /// between the failure and the first snapshot, so a rescan is asked for.
    fn fall_back(&mut self, reason: String, now: Instant) -> bool {
        if self.backend.is_polling() {
            // A late message from the native watcher already replaced.
            return true;
        }
        let started = Backend::polling(self.coalescer.rules(), self.poll_interval, reason);
        self.backend = started.backend;
        self.shared.set_status(started.status.clone());
        self.coalescer.push_rescan(now);
        (self.sink)(WatchEvent::Status(started.status)) && self.report(started.problems)
    }

    fn deliver(&mut self, batch: Batch) -> bool {
        if batch.rescan {
            return (self.sink)(WatchEvent::Rescan);
        }
        let changes = restat(&batch);
        let root = self.coalescer.rules().root().to_path_buf();
        let touches_root = changes.iter().any(|change| root.starts_with(change.path()));
        if !changes.is_empty() && !(self.sink)(WatchEvent::Changes(changes)) {
            return false;
        }
        !touches_root || self.check_root(Instant::now())
    }

    /// Look at the root: tell the caller when it went away or changed kind, and when it is
    /// back, watch it again (a new platform watch: the old one died with the folder) and
    /// ask for a rescan, since anything may have been written into it meanwhile.
    fn check_root(&mut self, now: Instant) -> bool {
        let rules = self.coalescer.rules();
        let state = match std::fs::metadata(rules.root()) {
            Err(_) => RootState::Gone,
            Ok(metadata) if metadata.is_dir() == rules.is_single_file() => RootState::KindChanged,
            Ok(_) => RootState::Present,
        };
        if state == self.root {
            return true;
        }
        self.root = state;
        if state == RootState::Present {
            let started = Backend::start(
                rules,
                self.force_polling,
                self.poll_interval,
                self.inbox.clone(),
            );
            self.backend = started.backend;
            self.shared.set_status(started.status);
            self.coalescer.push_rescan(now);
        }
        (self.sink)(WatchEvent::Root(state))
    }

    fn report(&mut self, problems: Vec<String>) -> bool {
        for problem in problems {
            if self.reported.insert(problem.clone()) && !(self.sink)(WatchEvent::Problem(problem)) {
                return false;
            }
        }
        true
    }
}
