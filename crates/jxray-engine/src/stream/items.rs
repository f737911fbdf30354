//! With a schema, each value is judged as it closes (contract §7): an array's item, an
//! object's member, the whole value. The engine knows no schema language; the caller's
//! [`ItemValidator`] does (JSON Schema in the native builds), and is asked only about
//! values that can no longer change, so what it finds is certain at once.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;

use super::tree::Ended;
use super::{DeltaRef, Deltas, Replay};

/// Judges a value that closed while the output streams in.
pub trait ItemValidator: Send + Sync {
    /// What is wrong with `value`, which closed at `path` (a JSON Pointer, `""` for the
    /// whole value): each finding's pointer is the whole value's, not `value`'s. Nothing
    /// when it is fine, or when the rules at `path` cannot be known from the path alone
    /// (the end judges the whole value in any case).
    fn closed(&self, path: &str, value: &Value) -> Vec<ItemFinding>;
}

/// One problem with a closed value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ItemFinding {
    /// Where, in the whole value (a JSON Pointer).
    pub pointer: String,
    /// One line for a person: the value and the rule it breaks.
    pub message: String,
}

/// A finding, with the byte after the value that closed.
pub(super) struct Found {
    pub(super) end: usize,
    pub(super) finding: ItemFinding,
}

/// The validator, and the value it is shown: built from the same deltas a caller gets.
pub(super) struct ItemCheck {
    validator: Arc<dyn ItemValidator>,
    value: Replay,
    /// Findings already said for the live candidate: a container's judgment repeats its
    /// items'.
    said: HashSet<ItemFinding>,
}

impl std::fmt::Debug for ItemCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ItemCheck")
            .field("said", &self.said.len())
            .finish_non_exhaustive()
    }
}

impl ItemCheck {
    pub(super) fn new(validator: Arc<dyn ItemValidator>) -> ItemCheck {
        ItemCheck {
            validator,
            value: Replay::new(),
            said: HashSet::new(),
        }
    }

    /// Take a snapshot's changes, then judge the values that ended among them; `live` is
    /// the candidate being read (values of one withdrawn since are not judged).
    pub(super) fn judge(&mut self, deltas: &Deltas, ended: Vec<Ended>, live: usize) -> Vec<Found> {
        for delta in deltas {
            if delta == DeltaRef::Withdraw {
                self.said.clear();
            }
            self.value.apply_ref(delta);
        }
        let mut found = Vec::new();
        for closed in ended.into_iter().filter(|closed| closed.candidate == live) {
            let Some(value) = self
                .value
                .value()
                .and_then(|root| root.pointer(&closed.path))
            else {
                // Not shown yet: a value held back until what follows decides.
                continue;
            };
            for finding in self.validator.closed(&closed.path, value) {
                if self.said.insert(finding.clone()) {
                    found.push(Found {
                        end: closed.end,
                        finding,
                    });
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::stream::{Extractor, SignalKind, Snapshot};
    use crate::Options;

    /// Negative numbers are wrong anywhere; an object needs an `id`.
    struct NoNegatives;

    impl ItemValidator for NoNegatives {
        fn closed(&self, path: &str, value: &Value) -> Vec<ItemFinding> {
            let mut found = Vec::new();
            walk(path, value, &mut found);
            found
        }
    }

    fn walk(path: &str, value: &Value, found: &mut Vec<ItemFinding>) {
        match value {
            Value::Number(n) if n.as_f64().is_some_and(|n| n < 0.0) => found.push(ItemFinding {
                pointer: path.to_owned(),
                message: format!("{path} = {n}: less than 0"),
            }),
            Value::Object(members) => {
                if !members.contains_key("id") {
                    found.push(ItemFinding {
                        pointer: path.to_owned(),
                        message: format!("{path}: \"id\" is required"),
                    });
                }
                for (key, member) in members {
                    walk(&format!("{path}/{key}"), member, found);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(&format!("{path}/{i}"), item, found);
                }
            }
            _ => {}
        }
    }

    fn schema_signals(text: &str, size: usize) -> Vec<(usize, String, String)> {
        let mut extractor =
            Extractor::new(Options::default()).with_validator(Arc::new(NoNegatives));
        let snapshots: Vec<Snapshot> = text
            .as_bytes()
            .chunks(size)
            .map(|chunk| extractor.feed(chunk))
            .collect();
        snapshots
            .iter()
            .flat_map(|snapshot| &snapshot.signals)
            .filter(|signal| signal.kind == SignalKind::Schema)
            .map(|signal| {
                let path = signal.path.clone().unwrap_or_default();
                (signal.byte, path, signal.message.clone())
            })
            .collect()
    }

    #[test]
    fn an_item_that_breaks_the_rules_is_named_by_its_path_as_it_closes() {
        let text = r#"{"id": 1, "items": [{"id": 2, "qty": -3}, {"qty": 4}], "total": -1}"#;
        let closes = |needle: &str| text.find(needle).unwrap() + needle.len() - 1;
        for size in [1, 2, 7, 64, text.len()] {
            let found = schema_signals(text, size);
            let paths: Vec<&str> = found.iter().map(|(_, path, _)| path.as_str()).collect();
            assert_eq!(paths, ["/items/0/qty", "/items/1", "/total"], "{size}");
            if size == 1 {
                // At the byte where each became certain: the number's token ended (the
                // byte after it arrived), the object's brace.
                assert_eq!(found[0].0, closes("-3"));
                assert_eq!(found[1].0, closes("{\"qty\": 4}"));
                assert_eq!(found[2].0, closes("-1"));
            }
        }
    }

    #[test]
    fn nothing_is_said_twice_and_a_withdrawn_candidate_takes_its_findings_along() {
        // The first bracket is a sentence's, withdrawn: its item's finding was said while
        // it lived; the second candidate's repeat of it is said again, once.
        let text = "Note [-1 is not] it. Answer: [-1, -1]";
        let found = schema_signals(text, 1);
        let paths: Vec<&str> = found.iter().map(|(_, path, _)| path.as_str()).collect();
        assert_eq!(paths, ["/0", "/0", "/1"], "{found:?}");
    }

    #[test]
    fn without_a_validator_nothing_is_judged() {
        let mut extractor = Extractor::new(Options::default());
        let snapshot = extractor.feed(br#"{"qty": -3}"#);
        assert!(snapshot.signals.is_empty());
        assert_eq!(snapshot.final_paths.iter().collect::<Vec<_>>(), [""]);
        assert_eq!(
            extractor.end(None).value,
            Some(json!({"qty": -3})),
            "the end judges as extract does"
        );
    }
}
