//! Keeping the loader a step ahead of the event loop, not a whole file ahead.
//!
//! Keys and background results share one queue, in order: if the loader sent
//! a million captures' worth of parts at once, a key pressed meanwhile would
//! wait behind all of them. Each part carries a [`Permit`]; the loader waits
//! while [`AHEAD`] parts are unread, and applying a part drops its permit.

use std::fmt;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Parts that may wait in the queue at once.
const AHEAD: usize = 2;

#[derive(Clone, Default)]
pub(crate) struct Pacer {
    waiting: Arc<(Mutex<usize>, Condvar)>,
}

impl Pacer {
    /// Wait until fewer than [`AHEAD`] parts are unread, and take a place.
    pub(crate) fn permit(&self) -> Permit {
        let (lock, freed) = &*self.waiting;
        let mut waiting = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while *waiting >= AHEAD {
            waiting = freed.wait(waiting).unwrap_or_else(PoisonError::into_inner);
        }
        *waiting += 1;
        Permit {
            pacer: Some(self.clone()),
        }
    }
}

/// A place in the queue, given back when dropped. A default permit holds none
/// (tests and `load_now` build parts by hand).
#[derive(Default)]
pub struct Permit {
    pacer: Option<Pacer>,
}

impl Clone for Permit {
    /// A copy holds a place of its own (it does not wait for one).
    fn clone(&self) -> Permit {
        if let Some(pacer) = &self.pacer {
            let (lock, _) = &*pacer.waiting;
            *lock.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        }
        Permit {
            pacer: self.pacer.clone(),
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(pacer) = &self.pacer {
            let (lock, freed) = &*pacer.waiting;
            let mut waiting = lock.lock().unwrap_or_else(PoisonError::into_inner);
            *waiting = waiting.saturating_sub(1);
            freed.notify_all();
        }
    }
}

impl fmt::Debug for Permit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Permit")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    #[test]
    fn the_producer_waits_until_a_part_is_read() {
        let pacer = Pacer::default();
        let (parts, inbox) = mpsc::channel();
        let producer = {
            let pacer = pacer.clone();
            thread::spawn(move || {
                for n in 0..AHEAD + 1 {
                    parts.send((n, pacer.permit())).unwrap();
                }
            })
        };
        let first: Vec<_> = (0..AHEAD).map(|_| inbox.recv().unwrap()).collect();
        // The next one waits for a place.
        assert!(inbox.recv_timeout(Duration::from_millis(200)).is_err());
        drop(first);
        assert_eq!(inbox.recv().unwrap().0, AHEAD);
        producer.join().unwrap();
    }
}
