//! A snapshot's changes and final paths as the reader writes them: every path and every
//! string's characters one after another in one text, each change a few offsets into it.
//! A chunk that adds a value writes its path and spelling there and nothing else: no
//! string per path, no `serde_json::Value` per scalar (a number's spelling is its text),
//! and the next snapshot writes into the same room. A caller reads the changes as
//! borrowed [`DeltaRef`]s, or copies them into owned [`Delta`]s to keep.

use std::fmt;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{Map, Number, Value};

use super::{Delta, Pointer};

/// What a change adds, or that it appends or withdraws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Object,
    Array,
    String,
    Number,
    True,
    False,
    Null,
    Append,
    Withdraw,
}

/// One change: its path is the text from the last change's end to `path_end`, and what it
/// carries (a string's characters, a number's spelling) from there to `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    op: Op,
    path_end: usize,
    end: usize,
}

/// The changes to the value since the last snapshot, in order. Replaying them gives the
/// value ([`super::Replay`]).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Deltas {
    entries: Vec<Entry>,
    text: String,
}

/// A value a change adds, borrowed from its snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part<'a> {
    /// An empty object: its members come as their own changes.
    Object,
    /// An empty array: its items come as their own changes.
    Array,
    /// A string's first characters: the rest come as appends.
    String(&'a str),
    /// A number, spelled as the output spelled it (`1.50` keeps its zero).
    Number(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// One change to the value shown, borrowed from its snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeltaRef<'a> {
    /// A value began at `path` (a JSON Pointer, `""` for the whole value): a number or
    /// literal whose token ended, an empty object or array, or a string's first characters.
    Add {
        /// Where.
        path: &'a str,
        /// What it is so far.
        value: Part<'a>,
    },
    /// More characters of the string at `path`.
    Append {
        /// Where.
        path: &'a str,
        /// The characters.
        text: &'a str,
    },
    /// The candidate being read failed and is dropped: the value is gone.
    Withdraw,
}

impl Part<'_> {
    /// The value, as `serde_json` holds it (a number exactly as spelled).
    pub fn to_value(&self) -> Value {
        match *self {
            Part::Object => Value::Object(Map::new()),
            Part::Array => Value::Array(Vec::new()),
            Part::String(text) => Value::String(text.to_owned()),
            // The reader's grammar checked the spelling whole.
            Part::Number(spelling) => {
                Value::Number(Number::from_string_unchecked(spelling.to_owned()))
            }
            Part::Bool(value) => Value::Bool(value),
            Part::Null => Value::Null,
        }
    }
}

impl DeltaRef<'_> {
    /// The change as an owned [`Delta`], to keep past the next chunk.
    pub fn to_delta(&self) -> Delta {
        match *self {
            DeltaRef::Add { path, value } => Delta::Add {
                path: Pointer::from(path),
                value: value.to_value(),
            },
            DeltaRef::Append { path, text } => Delta::Append {
                path: Pointer::from(path),
                text: text.to_owned(),
            },
            DeltaRef::Withdraw => Delta::Withdraw,
        }
    }
}

impl Deltas {
    /// Each change, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            deltas: self,
            next: 0,
            start: 0,
        }
    }

    /// The changes as owned [`Delta`]s.
    pub fn to_vec(&self) -> Vec<Delta> {
        self.iter().map(|delta| delta.to_delta()).collect()
    }

    /// How many changes there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A change at `path` carrying `carried`.
    pub(super) fn push(&mut self, op: Op, path: &str, carried: &str) {
        self.text.push_str(path);
        let path_end = self.text.len();
        self.text.push_str(carried);
        self.entries.push(Entry {
            op,
            path_end,
            end: self.text.len(),
        });
    }

    /// Whether the last change is a string's addition or an append.
    pub(super) fn ends_in_a_string(&self) -> bool {
        matches!(
            self.entries.last(),
            Some(Entry {
                op: Op::String | Op::Append,
                ..
            })
        )
    }

    /// More characters for the last change (a string's, which it adds or appends to).
    pub(super) fn extend_last(&mut self, more: &str) {
        if let Some(last) = self.entries.last_mut() {
            self.text.push_str(more);
            last.end = self.text.len();
        }
    }

    /// None, the room kept.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.text.clear();
    }
}

impl<'a> IntoIterator for &'a Deltas {
    type Item = DeltaRef<'a>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The changes of a [`Deltas`], in order.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    deltas: &'a Deltas,
    next: usize,
    /// Where the next change's path begins.
    start: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = DeltaRef<'a>;

    fn next(&mut self) -> Option<DeltaRef<'a>> {
        let entry = self.deltas.entries.get(self.next)?;
        let text = &self.deltas.text;
        let path = &text[self.start..entry.path_end];
        let carried = &text[entry.path_end..entry.end];
        self.next += 1;
        self.start = entry.end;
        let value = match entry.op {
            Op::Append => {
                return Some(DeltaRef::Append {
                    path,
                    text: carried,
                })
            }
            Op::Withdraw => return Some(DeltaRef::Withdraw),
            Op::Object => Part::Object,
            Op::Array => Part::Array,
            Op::String => Part::String(carried),
            Op::Number => Part::Number(carried),
            Op::True => Part::Bool(true),
            Op::False => Part::Bool(false),
            Op::Null => Part::Null,
        };
        Some(DeltaRef::Add { path, value })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.deltas.entries.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl fmt::Debug for Deltas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Deltas {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl Serialize for DeltaRef<'_> {
    /// `{"op": "add", "path", "value"}`, `{"op": "append", "path", "text"}` or
    /// `{"op": "withdraw"}`, as an owned [`Delta`] serializes.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            DeltaRef::Add { path, value } => {
                map.serialize_entry("op", "add")?;
                map.serialize_entry("path", path)?;
                map.serialize_entry("value", &value.to_value())?;
            }
            DeltaRef::Append { path, text } => {
                map.serialize_entry("op", "append")?;
                map.serialize_entry("path", path)?;
                map.serialize_entry("text", text)?;
            }
            DeltaRef::Withdraw => map.serialize_entry("op", "withdraw")?,
        }
        map.end()
    }
}

/// Paths, in order (a snapshot's final paths): one text, and where each path ends in it.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Paths {
    text: String,
    ends: Vec<usize>,
}

impl Paths {
    /// Each path (a JSON Pointer, `""` for the whole value), in order.
    pub fn iter(&self) -> PathIter<'_> {
        PathIter {
            paths: self,
            next: 0,
        }
    }

    /// How many paths there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub(super) fn push(&mut self, path: &str) {
        self.text.push_str(path);
        self.ends.push(self.text.len());
    }

    /// None, the room kept.
    pub(super) fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }
}

impl<'a> IntoIterator for &'a Paths {
    type Item = &'a str;
    type IntoIter = PathIter<'a>;

    fn into_iter(self) -> PathIter<'a> {
        self.iter()
    }
}

/// The paths of a [`Paths`], in order.
#[derive(Debug, Clone)]
pub struct PathIter<'a> {
    paths: &'a Paths,
    next: usize,
}

impl<'a> Iterator for PathIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let end = *self.paths.ends.get(self.next)?;
        let start = self
            .next
            .checked_sub(1)
            .map_or(0, |last| self.paths.ends[last]);
        self.next += 1;
        Some(&self.paths.text[start..end])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.paths.ends.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for PathIter<'_> {}

impl fmt::Debug for Paths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Paths {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}
