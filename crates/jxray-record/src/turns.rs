//! Recordings in the order they started. A request's chain link (see [`crate::Chains`])
//! is looked up once every recording that started before its own has been written: a
//! re-ask sent the moment its earlier answer arrived still finds that answer's capture,
//! although the two recordings run on different threads.

use std::collections::BTreeSet;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a link waits for earlier recordings (a recording takes milliseconds; a
/// stuck disk must not hold the later one's files back for good).
pub const LINK_WAIT: Duration = Duration::from_secs(5);

#[derive(Debug, Default)]
pub struct Turns {
    state: Mutex<Open>,
    ended: Condvar,
}

#[derive(Debug, Default)]
struct Open {
    next: u64,
    open: BTreeSet<u64>,
}

/// One recording's place in the order; its end is told when this is dropped.
#[derive(Debug)]
pub struct Turn {
    turns: Arc<Turns>,
    number: u64,
}

impl Turns {
    /// A recording starts now.
    pub fn begin(self: &Arc<Self>) -> Turn {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let number = state.next;
        state.next += 1;
        state.open.insert(number);
        Turn {
            turns: Arc::clone(self),
            number,
        }
    }
}

impl Turn {
    /// Wait until every recording that started before this one has ended (at most `limit`).
    pub fn wait_for_earlier(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        let mut state = self
            .turns
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        while state.open.first().is_some_and(|first| *first < self.number) {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return;
            };
            state = self
                .turns
                .ended
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut state = self
            .turns
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        state.open.remove(&self.number);
        self.turns.ended.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_later_turn_waits_for_the_earlier_ones_only() {
        let turns = Arc::new(Turns::default());
        let first = turns.begin();
        let second = turns.begin();
        let (sender, received) = std::sync::mpsc::channel();
        let waiting = {
            let turns = turns.clone();
            std::thread::spawn(move || {
                let third = turns.begin();
                third.wait_for_earlier(LINK_WAIT);
                sender.send(()).unwrap();
            })
        };
        // The earlier turns never wait for later ones.
        second.wait_for_earlier(Duration::from_millis(1));
        drop(second);
        assert!(received.recv_timeout(Duration::from_millis(100)).is_err());
        drop(first);
        received.recv_timeout(LINK_WAIT).unwrap();
        waiting.join().unwrap();
    }

    #[test]
    fn the_wait_is_bounded() {
        let turns = Arc::new(Turns::default());
        let _stuck = turns.begin();
        let later = turns.begin();
        let started = Instant::now();
        later.wait_for_earlier(Duration::from_millis(50));
        assert!(started.elapsed() >= Duration::from_millis(50));
    }
}
