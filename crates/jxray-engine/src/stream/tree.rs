//! The changes a stream makes to the value it shows, in order, and the path helpers the
//! value reader builds them with. The extractor keeps no copy of the value: a caller that
//! wants one replays the changes ([`super::Replay`]), as a binding does in its own
//! language, so a chunk costs the changes it makes and nothing more.

use super::deltas::{Deltas, Op, Paths};
use super::Pointer;

/// The changes since the last snapshot.
#[derive(Debug, Default)]
pub(super) struct Tree {
    /// Something has been shown since the candidate began (a withdrawal has to say so).
    shown: bool,
    pub(super) deltas: Deltas,
    /// The strings and containers that closed: the snapshot's final paths.
    pub(super) finals: Paths,
    /// Kept only for a validator: every value that ended, numbers and literals too.
    pub(super) ended: Option<Vec<Ended>>,
    /// How many candidates were withdrawn: an ended value belongs to the candidate of its
    /// count, and is judged only while that candidate lives.
    pub(super) withdrawals: usize,
}

/// A value that ended: its path, the byte after it, and its candidate
/// ([`Tree::withdrawals`] when it ended).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Ended {
    pub(super) path: Pointer,
    pub(super) end: usize,
    pub(super) candidate: usize,
}

impl Tree {
    /// A new value at `path`: a member or item of the container it names the inside of;
    /// `spelling` is a number's.
    pub(super) fn add(&mut self, path: &str, op: Op, spelling: &str) {
        self.shown = true;
        self.deltas.push(op, path, spelling);
    }

    /// A string begins at `path`: shown with the characters [`Tree::append`] gives it.
    pub(super) fn open_string(&mut self, path: &str) {
        self.add(path, Op::String, "");
    }

    /// More characters of the string being read (the reader's only appends), at `open`.
    pub(super) fn append(&mut self, text: &str, open: &str) {
        if text.is_empty() {
            return;
        }
        // The open string is the last value begun: when this snapshot has a change of it,
        // that change is the last one, and pieces of one string in one snapshot are one.
        if self.deltas.ends_in_a_string() {
            self.deltas.extend_last(text);
        } else {
            self.deltas.push(Op::Append, open, text);
        }
    }

    /// Take the last snapshot's changes and final paths back, emptied: this chunk's are
    /// written into their room.
    pub(super) fn reuse(&mut self, deltas: &mut Deltas, finals: &mut Paths) {
        std::mem::swap(&mut self.deltas, deltas);
        self.deltas.clear();
        std::mem::swap(&mut self.finals, finals);
        self.finals.clear();
    }

    /// The string or container at `path` closed; `end` is the byte after it.
    pub(super) fn closed(&mut self, path: &str, end: usize) {
        self.ended(path, end);
        self.finals.push(path);
    }

    /// The value at `path` ended, at the byte before `end` (kept only for a validator).
    pub(super) fn ended(&mut self, path: &str, end: usize) {
        if let Some(ended) = self.ended.as_mut() {
            ended.push(Ended {
                path: Pointer::from(path),
                end,
                candidate: self.withdrawals,
            });
        }
    }

    /// The candidate was dropped: what it showed goes, and the change says so.
    pub(super) fn withdraw(&mut self) {
        self.withdrawals += 1;
        if std::mem::take(&mut self.shown) {
            self.deltas.push(Op::Withdraw, "", "");
        }
    }

    /// A new candidate begins with nothing shown.
    pub(super) fn begin(&mut self) {
        self.shown = false;
    }
}

/// An empty object or array, as a container opens.
pub(super) fn empty(bracket: u8) -> Op {
    if bracket == b'{' {
        Op::Object
    } else {
        Op::Array
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
