//! The search: which captures the query matches, by source, raw text, decoded value, or
//! the question a recorded capture answers (which the list may name it by).

use crate::capture::Capture;
use crate::engine::Outcome;
use crate::tui::search::Query;

use super::Entries;

impl Entries {
    /// Re-run the search over every entry; returns how many match.
    pub(crate) fn mark_matches(&mut self, query: Option<&Query>) -> usize {
        let mut count = 0;
        for entry in self.all.iter_mut().filter(|entry| !entry.removed) {
            let asked = entry.question();
            entry.matched =
                query.is_some_and(|q| matches(q, &entry.capture, &entry.outcome, asked));
            count += usize::from(entry.matched);
        }
        self.touch();
        count
    }
}

/// Whether a search query matches a capture's source, raw text or decoded value (whose
/// strings may differ from the raw text by their escapes: `\u00e9` is `é`), or the question
/// it was `asked`.
pub(super) fn matches(
    query: &Query,
    capture: &Capture,
    outcome: &Outcome,
    asked: Option<&str>,
) -> bool {
    query.is_in(&capture.source)
        || asked.is_some_and(|asked| query.is_in(asked))
        || capture.text.as_deref().is_ok_and(|text| query.is_in(text))
        || outcome
            .value
            .as_ref()
            .is_some_and(|value| value_matches(query, value))
}
/// Whether a key, string, or number of the value holds the query. Iterative:
/// a deeply nested value cannot overflow the stack.
fn value_matches(query: &Query, value: &serde_json::Value) -> bool {
    use serde_json::Value;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) if query.is_in(text) => return true,
            Value::Number(number) if query.is_in(&number.to_string()) => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (key, item) in map {
                    if query.is_in(key) {
                        return true;
                    }
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    false
}
