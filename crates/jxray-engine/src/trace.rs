//! The trace: every candidate looked at, bounded so adversarial input stays small.

use super::outcome::{Attempt, Layer, Verdict};

pub(crate) struct Trace {
    entries: Vec<Attempt>,
    limit: usize,
    omitted: usize,
}

/// Where an entry went: kept at an index, or counted as omitted.
pub(crate) type Slot = Option<usize>;

impl Trace {
    pub(crate) fn new(limit: usize) -> Trace {
        Trace {
            entries: Vec::new(),
            limit,
            omitted: 0,
        }
    }

    /// Whether another entry would be kept (so its label is worth building).
    pub(crate) fn has_room(&self) -> bool {
        self.entries.len() < self.limit
    }

    pub(crate) fn push(
        &mut self,
        layer: Layer,
        span: (usize, usize),
        label: impl FnOnce() -> String,
        verdict: Verdict,
    ) -> Slot {
        if !self.has_room() {
            self.omitted += 1;
            return None;
        }
        self.entries.push(Attempt {
            layer,
            span,
            label: label(),
            verdict,
        });
        Some(self.entries.len() - 1)
    }

    /// Count an entry that is not kept.
    pub(crate) fn omit(&mut self) {
        self.omitted += 1;
    }

    pub(crate) fn set_verdict(&mut self, slot: Slot, verdict: Verdict) {
        if let Some(entry) = slot.and_then(|index| self.entries.get_mut(index)) {
            entry.verdict = verdict;
        }
    }

    pub(crate) fn finish(self) -> (Vec<Attempt>, usize) {
        (self.entries, self.omitted)
    }
}
