//! The exchanges still being written, so that stopping the proxy can wait for them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::Notify;

/// How many exchanges are between their response's head and their files on disk.
#[derive(Default)]
pub struct Tracker {
    count: AtomicUsize,
    idle: Notify,
}

/// One exchange being tracked; dropping it (its files written, or not) ends it.
pub struct Pending {
    tracker: Arc<Tracker>,
}

impl Tracker {
    pub fn enter(self: &Arc<Tracker>) -> Pending {
        self.count.fetch_add(1, Ordering::SeqCst);
        Pending {
            tracker: self.clone(),
        }
    }

    pub fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Wait until no exchange is pending.
    pub async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if self.tracker.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.tracker.idle.notify_waiters();
        }
    }
}
