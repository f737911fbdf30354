//! The partial value a stream has shown so far, and the changes that built it.
//!
//! Every change is made through [`Tree`], which records it as a [`Delta`], so what a
//! binding replays from the deltas is exactly the value held here.

use serde_json::{Map, Value};

use super::Delta;

/// One step of a path: a member's key or an item's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// The value read so far, with the changes since the last snapshot.
#[derive(Debug, Default)]
pub(super) struct Tree {
    pub(super) root: Option<Value>,
    pub(super) deltas: Vec<Delta>,
}

impl Tree {
    /// A new value at `path` under `steps` (the root when `steps` is empty): a member of the
    /// object, or the next item of the array, that `steps` leads to.
    pub(super) fn add(&mut self, steps: &[Step], path: &str, value: Value) {
        self.deltas.push(Delta::Add {
            path: path.to_owned(),
            value: value.clone(),
        });
        let Some((last, parents)) = steps.split_last() else {
            self.root = Some(value);
            return;
        };
        match (self.container(parents), last) {
            (Some(Value::Object(members)), Step::Key(key)) => {
                members.insert(key.clone(), value);
            }
            (Some(Value::Array(items)), Step::Index(_)) => items.push(value),
            _ => {}
        }
    }

    /// More characters of the open string at `path`.
    pub(super) fn append(&mut self, steps: &[Step], path: &str, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.deltas.last_mut() {
            // Pieces of one string in one snapshot are one change.
            Some(Delta::Append {
                path: last,
                text: more,
            }) if last == path => more.push_str(text),
            _ => self.deltas.push(Delta::Append {
                path: path.to_owned(),
                text: text.to_owned(),
            }),
        }
        if let Some(Value::String(string)) = self.at(steps) {
            string.push_str(text);
        }
    }

    /// The candidate was dropped: the value goes, and the change says so.
    pub(super) fn withdraw(&mut self) {
        if self.root.take().is_some() {
            self.deltas.push(Delta::Withdraw);
        }
    }

    fn at(&mut self, steps: &[Step]) -> Option<&mut Value> {
        let mut value = self.root.as_mut()?;
        for step in steps {
            value = match (value, step) {
                (Value::Object(members), Step::Key(key)) => members.get_mut(key)?,
                (Value::Array(items), Step::Index(index)) => items.get_mut(*index)?,
                _ => return None,
            };
        }
        Some(value)
    }

    fn container(&mut self, steps: &[Step]) -> Option<&mut Value> {
        self.at(steps)
            .filter(|value| matches!(value, Value::Object(_) | Value::Array(_)))
    }
}

/// An empty object or array, as a container opens.
pub(super) fn empty(bracket: u8) -> Value {
    if bracket == b'{' {
        Value::Object(Map::new())
    } else {
        Value::Array(Vec::new())
    }
}

/// `/a/0/b~1c`: a JSON Pointer segment appended to `pointer`.
pub(super) fn push_segment(pointer: &mut String, step: &Step) {
    pointer.push('/');
    match step {
        Step::Key(key) => {
            for c in key.chars() {
                match c {
                    '~' => pointer.push_str("~0"),
                    '/' => pointer.push_str("~1"),
                    c => pointer.push(c),
                }
            }
        }
        Step::Index(index) => pointer.push_str(&index.to_string()),
    }
}
