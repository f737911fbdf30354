//! The value a stream's changes build, replayed from its snapshots' changes (or owned
//! [`Delta`]s): what a caller that wants the whole partial value keeps, and the reference
//! for a binding that replays them into its own language's objects.

use serde_json::Value;

use super::{Delta, DeltaRef, Deltas};

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
            Delta::Add { path, value } => self.add(path, || value.clone()),
            Delta::Append { path, text } => self.append(path, text),
            Delta::Withdraw => self.withdraw(),
        }
    }

    /// The same, for a change borrowed from a snapshot.
    pub fn apply_ref(&mut self, delta: DeltaRef<'_>) -> bool {
        match delta {
            DeltaRef::Add { path, value } => self.add(path, || value.to_value()),
            DeltaRef::Append { path, text } => self.append(path, text),
            DeltaRef::Withdraw => self.withdraw(),
        }
    }

    /// Apply every change of a snapshot, in order.
    pub fn apply_all(&mut self, deltas: &Deltas) {
        for delta in deltas {
            self.apply_ref(delta);
        }
    }

    fn add(&mut self, path: &str, value: impl FnOnce() -> Value) -> bool {
        if path.is_empty() {
            self.value = Some(value());
            return true;
        }
        let (parent, last) = path.rsplit_once('/').unwrap_or(("", path));
        match self
            .value
            .as_mut()
            .and_then(|root| root.pointer_mut(parent))
        {
            Some(Value::Object(members)) => {
                members.insert(unescape(last), value());
            }
            Some(Value::Array(items)) if last.parse() == Ok(items.len()) => items.push(value()),
            _ => return false,
        }
        true
    }

    fn append(&mut self, path: &str, text: &str) -> bool {
        match self.value.as_mut().and_then(|root| root.pointer_mut(path)) {
            Some(Value::String(string)) => {
                string.push_str(text);
                true
            }
            _ => false,
        }
    }

    fn withdraw(&mut self) -> bool {
        self.value = None;
        true
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
