//! One background thread that builds big captures' panes (see `app::big`).
//!
//! Only the newest request waits: holding `j` across several big captures
//! builds the one the user stopped on, not every one passed over.

use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;

use super::action::Action;
use super::detail::DetailJob;
use super::event::Event;

#[derive(Default)]
struct Slot {
    job: Option<DetailJob>,
    closed: bool,
}

pub(crate) struct Builder {
    slot: Arc<(Mutex<Slot>, Condvar)>,
}

impl Builder {
    /// Start the thread; built details go to `events` as [`Action::DetailBuilt`].
    pub(crate) fn start(events: Sender<Event>) -> Builder {
        let slot: Arc<(Mutex<Slot>, Condvar)> = Arc::default();
        let shared = Arc::clone(&slot);
        thread::spawn(move || {
            while let Some(job) = next(&shared) {
                let built = Box::new(job.run());
                if events
                    .send(Event::Action(Action::DetailBuilt(built)))
                    .is_err()
                {
                    break;
                }
            }
        });
        Builder { slot }
    }

    /// Build this next, instead of anything still waiting.
    pub(crate) fn request(&self, job: DetailJob) {
        let (lock, ready) = &*self.slot;
        lock.lock().unwrap_or_else(PoisonError::into_inner).job = Some(job);
        ready.notify_one();
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        let (lock, ready) = &*self.slot;
        lock.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
        ready.notify_one();
    }
}

/// Wait for the next job; `None` once the builder is dropped.
fn next(slot: &(Mutex<Slot>, Condvar)) -> Option<DetailJob> {
    let (lock, ready) = slot;
    let mut slot = lock.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if slot.closed {
            return None;
        }
        if let Some(job) = slot.job.take() {
            return Some(job);
        }
        slot = ready.wait(slot).unwrap_or_else(PoisonError::into_inner);
    }
}
