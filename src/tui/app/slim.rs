//! Outcomes kept small for files read in parts (a log of a million lines).
//!
//! The list, its counts, filters, the mix and comparisons need only what kind of
//! outcome each capture has: its layer, failure kind, cause and defects, the kinds
//! of its warnings and repairs, its stop class. A slim outcome keeps exactly
//! that, so the many captures that came out the same way share one; the value,
//! the texts and the trace are left out, and a capture is extracted again in
//! full when it is selected or saved.

use std::sync::Arc;

use crate::engine::{DefectAt, Failure, Outcome, Repair, Warning};

/// Distinct slim outcomes shared at most (a log has a few dozen at most).
const SHARED: usize = 256;

/// What the list needs of `outcome`, and nothing that differs from capture to capture.
pub(super) fn slim(outcome: &Outcome) -> Outcome {
    let mut warnings: Vec<Warning> = Vec::new();
    for warning in &outcome.warnings {
        if !warnings.iter().any(|kept| kept.kind == warning.kind) {
            warnings.push(Warning::new(warning.kind, None, String::new()));
        }
    }
    let mut repairs: Vec<Repair> = Vec::new();
    for repair in &outcome.repairs {
        if !repairs.iter().any(|kept| kept.kind == repair.kind) {
            repairs.push(Repair::new(repair.kind, 0));
        }
    }
    let failure = outcome.failure.as_ref().map(|failure| {
        let defects = failure
            .defects
            .iter()
            .map(|defect| DefectAt::new(defect.kind, 0, (0, 0), String::new()))
            .collect();
        Failure::new(failure.kind, 0, (0, 0), String::new())
            .with_defect(failure.defect)
            .with_cause(failure.cause)
            .with_defects(defects)
    });
    let mut slim = Outcome::default();
    slim.layer = outcome.layer;
    // Only whether there is one: `ok()` and the filters ask no more.
    slim.value = outcome.value.as_ref().map(|_| serde_json::Value::Null);
    slim.repairs = repairs;
    slim.warnings = warnings;
    slim.failure = failure;
    slim.stop = outcome.stop;
    slim
}

/// One shared copy of each slim outcome seen.
#[derive(Debug, Default)]
pub(super) struct Shared {
    kept: Vec<Arc<Outcome>>,
}

impl Shared {
    /// The shared copy of `outcome`, kept if it is new and there is room.
    pub(super) fn get(&mut self, outcome: Outcome) -> Arc<Outcome> {
        if let Some(kept) = self.kept.iter().find(|kept| ***kept == outcome) {
            return Arc::clone(kept);
        }
        let outcome = Arc::new(outcome);
        if self.kept.len() < SHARED {
            self.kept.push(Arc::clone(&outcome));
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{extract, Options};

    #[test]
    fn a_slim_outcome_keeps_what_the_list_asks() {
        let options = Options::default();
        for text in [
            "{\"n\": 1, \"ok\": true}",
            "```json\n{\"n\": 1}\n```",
            "{\"n\": 1, \"items\": [1, 2,",
            "{'n': 1,}",
            "I'm sorry, but I can't help with that.",
            "{\"a\": 1, \"a\": 2}",
        ] {
            let full = extract(text, &options);
            let slim = slim(&full);
            assert_eq!(slim.ok(), full.ok(), "{text}");
            assert_eq!(slim.badge(), full.badge(), "{text}");
            assert_eq!(slim.layer, full.layer);
            assert_eq!(slim.warning_kinds(), full.warning_kinds());
            assert_eq!(slim.repairs.is_empty(), full.repairs.is_empty());
            let kind = |o: &Outcome| o.failure.as_ref().map(|f| (f.kind, f.defect, f.cause));
            assert_eq!(kind(&slim), kind(&full));
            assert!(slim.trace.is_empty() && slim.lenient.is_none());
        }
    }

    #[test]
    fn outcomes_that_came_out_the_same_way_share_one_slim_copy() {
        let options = Options::default();
        let mut shared = Shared::default();
        let a = shared.get(slim(&extract("{\"n\": 1}", &options)));
        let b = shared.get(slim(&extract("{\"n\": 2, \"m\": [3]}", &options)));
        let c = shared.get(slim(&extract("```json\n{\"n\": 1}\n```", &options)));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
    }
}
