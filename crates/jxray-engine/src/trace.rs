//! The trace: every candidate looked at, bounded so adversarial input stays small.

use super::candidate::Rejection;
use super::outcome::{Attempt, Layer, Verdict};

pub(crate) struct Trace {
    entries: Vec<Attempt>,
    /// Rejected entries whose verdict is worded when the trace is finished: an outcome
    /// that is never finished (a failure nobody asked to explain) never words them.
    unworded: Vec<(usize, Rejection)>,
    limit: usize,
    omitted: usize,
}

/// Where an entry went: kept at an index, or counted as omitted.
pub(crate) type Slot = Option<usize>;

impl Trace {
    pub(crate) fn new(limit: usize) -> Trace {
        Trace {
            entries: Vec::new(),
            unworded: Vec::new(),
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

    /// A rejected candidate, its verdict worded when the trace is finished.
    pub(crate) fn push_rejected(
        &mut self,
        layer: Layer,
        span: (usize, usize),
        label: impl FnOnce() -> String,
        rejection: &Rejection,
    ) {
        let unworded = Verdict::Skipped {
            reason: String::new(),
        };
        if let Some(index) = self.push(layer, span, label, unworded) {
            self.unworded.push((index, rejection.clone()));
        }
    }

    /// Count an entry that is not kept.
    pub(crate) fn omit(&mut self) {
        self.omitted += 1;
    }

    pub(crate) fn set_verdict(&mut self, slot: Slot, verdict: Verdict) {
        if let Some(index) = slot.filter(|&index| index < self.entries.len()) {
            self.entries[index].verdict = verdict;
            self.unworded.retain(|&(unworded, _)| unworded != index);
        }
    }

    /// The entries, each rejection worded by `word`, and how many were omitted.
    pub(crate) fn finish(mut self, word: impl Fn(&Rejection) -> Verdict) -> (Vec<Attempt>, usize) {
        for (index, rejection) in &self.unworded {
            self.entries[*index].verdict = word(rejection);
        }
        (self.entries, self.omitted)
    }
}
