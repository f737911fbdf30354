//! The value a stream's changes build, replayed from its [`Delta`]s: what a caller that
//! wants the whole partial value keeps, and the reference for a binding that replays them
//! into its own language's objects.

use serde_json::Value;

use super::Delta;

/// A value built from deltas, in the order snapshots gave them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    value: Option<Value>,
}

impl Replay {
    /// An empty replay: no value yet.
    pub fn new() -> Replay {
        Replay::default()
    }

    /// Apply one change; whether it fit the value (a change from another stream, or out
    /// of order, does not, and is left out).
    pub fn apply(&mut self, delta: &Delta) -> bool {
        match delta {
            Delta::Add { path, value } if path.is_empty() => self.value = Some(value.clone()),
            Delta::Add { path, value } => {
                let (parent, last) = path.rsplit_once('/').unwrap_or(("", path));
                match self
                    .value
                    .as_mut()
                    .and_then(|root| root.pointer_mut(parent))
                {
                    Some(Value::Object(members)) => {
                        members.insert(unescape(last), value.clone());
                    }
                    Some(Value::Array(items)) if last.parse() == Ok(items.len()) => {
                        items.push(value.clone())
                    }
                    _ => return false,
                }
            }
            Delta::Append { path, text } => {
                match self.value.as_mut().and_then(|root| root.pointer_mut(path)) {
                    Some(Value::String(string)) => string.push_str(text),
                    _ => return false,
                }
            }
            Delta::Withdraw => self.value = None,
        }
        true
    }

    /// Apply every change of a snapshot, in order.
    pub fn apply_all<'d>(&mut self, deltas: impl IntoIterator<Item = &'d Delta>) {
        for delta in deltas {
            self.apply(delta);
        }
    }

    /// The value so far.
    pub fn value(&self) -> Option<&Value> {
        self.value.as_ref()
    }
}

/// A JSON Pointer segment's key (`~1` is `/`, `~0` is `~`).
fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}
