//! The changes a stream makes to the value it shows, in order ([`Delta`]s), and the path
//! helpers the value reader builds them with. The extractor keeps no copy of the value: a
//! caller that wants one replays the changes ([`super::Replay`]), as a binding does in its
//! own language, so a chunk costs the changes it makes and nothing more.

use serde_json::{Map, Value};

use super::{Delta, Pointer};

/// The changes since the last snapshot.
#[derive(Debug, Default)]
pub(super) struct Tree {
    /// The last change is the open string's (its addition or an append): its next
    /// characters go there.
    open_last: bool,
    /// Something has been shown since the candidate began (a withdrawal has to say so).
    shown: bool,
    pub(super) deltas: Vec<Delta>,
    /// The strings and containers that closed: the snapshot's final paths.
    pub(super) finals: Vec<Pointer>,
    /// Kept only for a validator: every value that ended, numbers and literals too.
    pub(super) ended: Option<Vec<Ended>>,
    /// How many candidates were withdrawn: an ended value belongs to the candidate of its
    /// count, and is judged only while that candidate lives.
    pub(super) withdrawals: usize,
    /// Earlier snapshots' appends, emptied, for the next ones: their strings' room, and
    /// their paths' (the path itself while the same string grows).
    spare: Vec<Delta>,
    /// Pointers taken back, for the next values' paths.
    free_pointers: Vec<Pointer>,
    /// String values' room taken back, for the next strings.
    free_strings: Vec<String>,
}

/// How many emptied appends are kept (one string grows per snapshot, a few
/// when several strings close and open in one chunk).
const SPARE_APPENDS: usize = 4;

/// How many pointers taken back are kept (a chunk adds a few values, a large one many).
const FREE_POINTERS: usize = 64;

/// How many string values' room is kept, and the most room one may hold.
const FREE_STRINGS: usize = 16;
const FREE_STRING_ROOM: usize = 1 << 10;

/// A value that ended: its path, the byte after it, and its candidate
/// ([`Tree::withdrawals`] when it ended).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Ended {
    pub(super) path: Pointer,
    pub(super) end: usize,
    pub(super) candidate: usize,
}

impl Tree {
    /// A new value at `path`: a member or item of the container it names the inside of.
    pub(super) fn add(&mut self, path: &str, value: Value) {
        let path = self.pointer(path);
        self.shown = true;
        self.open_last = false;
        self.deltas.push(Delta::Add { path, value });
    }

    /// A string begins at `path`: shown empty, then grown by [`Tree::append`].
    pub(super) fn open_string(&mut self, path: &str) {
        let first = self.free_strings.pop().unwrap_or_default();
        self.add(path, Value::String(first));
        self.open_last = true;
    }

    /// More characters of the string being read (the reader's only appends), at `open`.
    pub(super) fn append(&mut self, text: &str, open: &str) {
        if text.is_empty() {
            return;
        }
        match self.deltas.last_mut().filter(|_| self.open_last) {
            // Pieces of one string in one snapshot are one change.
            Some(Delta::Append { text: more, .. }) => more.push_str(text),
            // The string began in this snapshot: these are its first characters.
            Some(Delta::Add {
                value: Value::String(first),
                ..
            }) => first.push_str(text),
            _ => {
                // An emptied append's string, and its path's room.
                let (path, mut more) = match self.spare.pop() {
                    Some(Delta::Append { mut path, text }) => {
                        write(&mut path, open);
                        (path, text)
                    }
                    _ => (fresh(&mut self.free_pointers, open), String::new()),
                };
                more.push_str(text);
                self.deltas.push(Delta::Append { path, text: more });
                self.open_last = true;
            }
        }
    }

    /// Take the last snapshot's changes back: this chunk's are written into their room,
    /// their appends' strings kept for this chunk's appends. The append of the string
    /// still open at `open`, emptied, stays first: this chunk's characters of that string
    /// go there (a chunk inside a string moves no change around).
    pub(super) fn reuse(&mut self, last: &mut Vec<Delta>, open: Option<&str>) {
        // (The snapshot may have been another extractor's: the path says whose it is.)
        let keep = match (last.first_mut(), open) {
            (Some(Delta::Append { path, text }), Some(open)) if same_text(path, open) => {
                text.clear();
                1
            }
            (None, _) => {
                self.open_last = false;
                return;
            }
            _ => 0,
        };
        self.open_last = keep == 1;
        if last.len() > keep {
            for delta in &mut last[keep..] {
                self.take_room(delta);
            }
            last.truncate(keep);
        }
        if keep == 1 || last.capacity() > self.deltas.capacity() {
            std::mem::swap(&mut self.deltas, last);
        }
    }

    /// The room of a change the last snapshot held, taken for later ones: an append's
    /// string and path, an added value's path and (a string's) room. What is left of the
    /// change is dropped with it.
    fn take_room(&mut self, delta: &mut Delta) {
        match delta {
            Delta::Append { path, text } if self.spare.len() < SPARE_APPENDS => {
                text.clear();
                self.spare.push(Delta::Append {
                    path: std::mem::take(path),
                    text: std::mem::take(text),
                });
            }
            Delta::Add {
                path,
                value: Value::String(text),
            } => {
                self.recycle(std::mem::take(path));
                if self.free_strings.len() < FREE_STRINGS && text.capacity() <= FREE_STRING_ROOM {
                    text.clear();
                    self.free_strings.push(std::mem::take(text));
                }
            }
            Delta::Add { path, .. } | Delta::Append { path, .. } => {
                self.recycle(std::mem::take(path))
            }
            Delta::Withdraw => {}
        }
    }

    /// A pointer holding `text`, written into the room of one taken back if there is one.
    pub(super) fn pointer(&mut self, text: &str) -> Pointer {
        fresh(&mut self.free_pointers, text)
    }

    /// Take `pointer` back: its room serves a later one.
    pub(super) fn recycle(&mut self, pointer: Pointer) {
        if self.free_pointers.len() < FREE_POINTERS {
            self.free_pointers.push(pointer);
        }
    }

    /// The chunk is read: an append kept by [`Tree::reuse`] that got no characters goes.
    pub(super) fn settle(&mut self) {
        if matches!(self.deltas.first(), Some(Delta::Append { text, .. }) if text.is_empty()) {
            let mut empty = self.deltas.remove(0);
            self.take_room(&mut empty);
        }
    }

    /// The open string closed.
    pub(super) fn close_string(&mut self) {
        self.open_last = false;
    }

    /// The string or container at `path` closed; `end` is the byte after it.
    pub(super) fn closed(&mut self, path: &str, end: usize) {
        self.ended(path, end);
        let path = self.pointer(path);
        self.finals.push(path);
    }

    /// The value at `path` ended, at the byte before `end` (kept only for a validator).
    pub(super) fn ended(&mut self, path: &str, end: usize) {
        if let Some(ended) = self.ended.as_mut() {
            ended.push(Ended {
                path: fresh(&mut self.free_pointers, path),
                end,
                candidate: self.withdrawals,
            });
        }
    }

    /// The candidate was dropped: what it showed goes, and the change says so.
    pub(super) fn withdraw(&mut self) {
        self.withdrawals += 1;
        self.close_string();
        if std::mem::take(&mut self.shown) {
            self.deltas.push(Delta::Withdraw);
        }
    }

    /// A new candidate begins with nothing shown.
    pub(super) fn begin(&mut self) {
        self.close_string();
        self.shown = false;
    }
}

/// A pointer holding `text`: one of `free`, or a new one.
fn fresh(free: &mut Vec<Pointer>, text: &str) -> Pointer {
    let mut pointer = free.pop().unwrap_or_default();
    write(&mut pointer, text);
    pointer
}

/// Whether two paths are the same text: a path is short, so compared in line rather
/// than by a call to compare memory.
fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// `pointer` made to hold `text`, in its own room.
fn write(pointer: &mut Pointer, text: &str) {
    let room = pointer.room();
    room.clear();
    room.push_str(text);
}

/// An empty object or array, as a container opens.
pub(super) fn empty(bracket: u8) -> Value {
    if bracket == b'{' {
        Value::Object(Map::new())
    } else {
        Value::Array(Vec::new())
    }
}

/// `/b~1c`: a member's key appended to a JSON Pointer.
pub(super) fn push_key(pointer: &mut String, key: &str) {
    pointer.push('/');
    if !key.bytes().any(|byte| matches!(byte, b'~' | b'/')) {
        return pointer.push_str(key);
    }
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// `/0`: an item's index appended to a JSON Pointer.
pub(super) fn push_index(pointer: &mut String, index: usize) {
    pointer.push('/');
    pointer.push_str(itoa::Buffer::new().format(index));
}
