//! How far reading may run ahead of writing: a count of records and a budget of bytes.

use std::sync::{Condvar, Mutex, PoisonError};

/// Records read but not yet written, bounded in number and in text bytes. One record is
/// always let in, however large, so a capture bigger than the budget still gets through.
pub(crate) struct Window {
    max_records: usize,
    max_bytes: usize,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    records: usize,
    bytes: usize,
    closed: bool,
}

impl Window {
    pub(crate) fn new(max_records: usize, max_bytes: usize) -> Window {
        Window {
            max_records: max_records.max(1),
            max_bytes,
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        }
    }

    /// Wait for room for a record of `bytes`; false when the window was closed.
    pub(crate) fn enter(&self, bytes: usize) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while !state.closed
            && state.records > 0
            && (state.records >= self.max_records || state.bytes + bytes > self.max_bytes)
        {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.closed {
            return false;
        }
        state.records += 1;
        state.bytes += bytes;
        true
    }

    /// `records` records of `bytes` in all were written and dropped.
    pub(crate) fn leave(&self, records: usize, bytes: usize) {
        if records == 0 {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.records = state.records.saturating_sub(records);
        state.bytes = state.bytes.saturating_sub(bytes);
        self.changed.notify_all();
    }

    /// Nothing more will be written: let a waiting reader go, and stop it.
    pub(crate) fn close(&self) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.closed = true;
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::thread;
    use std::time::Duration;

    #[test]
    fn a_full_window_waits_until_a_record_leaves() {
        let window = Arc::new(Window::new(2, 100));
        assert!(window.enter(10));
        assert!(window.enter(10));
        let waiting = {
            let window = Arc::clone(&window);
            thread::spawn(move || window.enter(10))
        };
        thread::sleep(Duration::from_millis(50));
        assert!(!waiting.is_finished(), "entered a full window");
        window.leave(1, 10);
        assert!(waiting.join().unwrap());
    }

    #[test]
    fn the_byte_budget_lets_one_oversized_record_in_alone() {
        let window = Window::new(10, 100);
        assert!(window.enter(500), "an empty window takes any record");
        window.leave(1, 500);
        assert!(window.enter(60));
        let window = Arc::new(window);
        let waiting = {
            let window = Arc::clone(&window);
            thread::spawn(move || window.enter(60))
        };
        thread::sleep(Duration::from_millis(50));
        assert!(!waiting.is_finished(), "went over the byte budget");
        window.close();
        assert!(!waiting.join().unwrap(), "a closed window admits nothing");
    }
}
