//! The reader's state and its white space: one forward pass over the candidate,
//! with the state a JSON parser keeps (the structure itself is `structure.rs`).

use std::borrow::Cow;
use std::cell::Cell;

use super::fork::Fork;
use super::{LenientText, Refusal};
use crate::outcome::{Defect, Repair, RepairKind};

/// What the grammar expects next in the innermost container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    Value,
    Key,
    Colon,
    /// A comma or the closer.
    Next,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    pub closer: u8,
    /// No item yet: a comma here is a leading comma.
    pub empty: bool,
}

pub(super) struct Rewriter<'a> {
    pub text: &'a str,
    pub bytes: &'a [u8],
    pub limit: usize,
    pub out: Vec<u8>,
    pub repairs: Vec<Repair>,
    pub stack: Vec<Frame>,
    /// How many frames of the stack close with `}` (the rest close with `]`).
    pub objects_open: usize,
    pub want: Want,
    /// The comma last written (raw offset, place in `out`), until an item follows it.
    pub pending_comma: Option<(usize, usize)>,
    /// Where the last key or value ended, in the raw text and in `out`: a
    /// missing comma or colon goes there.
    pub item_end: (usize, usize),
    /// Whether the last key was quoted (a bare key needs its colon to be a key).
    pub key_quoted: bool,
    pub refused: Option<Refusal>,
    pub done: bool,
    /// The output is finished: brackets still open at the limit are closed there.
    close_open: bool,
    /// Choices this reading must make the other way (see `alternatives.rs`).
    pub forced: Vec<Fork>,
    /// The choices this reading made where another was possible.
    pub forks: Vec<Fork>,
    /// A quoted string, number or literal was read: the text is JSON, not words in brackets.
    pub evidence: bool,
    /// The first value read as a bare word (`"status": active`), if any.
    pub first_bare: Option<usize>,
    /// The last searches for a comment's end: see [`Rewriter::comment_end`].
    line_end: Cell<(usize, Option<usize>)>,
    block_end: Cell<(usize, Option<usize>)>,
    /// The last search for a quote (see [`Rewriter::next_closing_quote`]).
    quote_ahead: Cell<(usize, Option<usize>)>,
}

/// Unicode spaces that models emit as white space between tokens.
pub(super) fn unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{1680}' | '\u{180e}' | '\u{2000}'
            ..='\u{200b}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

impl<'a> Rewriter<'a> {
    pub(super) fn new(text: &'a str, limit: usize) -> Self {
        let limit = limit.min(text.len());
        Rewriter {
            text,
            bytes: text.as_bytes(),
            limit,
            out: Vec::new(),
            repairs: Vec::new(),
            stack: Vec::new(),
            objects_open: 0,
            want: Want::Value,
            pending_comma: None,
            item_end: (0, 0),
            key_quoted: false,
            refused: None,
            done: false,
            close_open: false,
            forced: Vec::new(),
            forks: Vec::new(),
            evidence: false,
            first_bare: None,
            line_end: Cell::new((usize::MAX, None)),
            block_end: Cell::new((usize::MAX, None)),
            quote_ahead: Cell::new((usize::MAX, None)),
        }
    }

    /// A rewriter that closes what is still open at the limit (see `rewrite_closing`).
    pub(super) fn closing(mut self) -> Self {
        self.close_open = true;
        self
    }

    pub(super) fn fix(&mut self, kind: RepairKind, offset: usize) {
        self.repairs.push(Repair { kind, offset });
    }

    /// A reading that makes the choices in `forced` the other way.
    pub(super) fn forcing(mut self, forced: Vec<Fork>) -> Self {
        self.forced = forced;
        self
    }

    /// No reading: the text fits none.
    pub(super) fn refuse(&mut self, offset: usize, reason: impl Into<Cow<'static, str>>) {
        self.refusal(offset, reason.into(), false);
    }

    /// No reading: the text fits more than one, and which was meant is a guess.
    pub(super) fn guess(&mut self, offset: usize, reason: impl Into<Cow<'static, str>>) {
        self.refusal(offset, reason.into(), true);
    }

    fn refusal(&mut self, offset: usize, reason: Cow<'static, str>, guess: bool) {
        if self.refused.is_none() {
            self.refused = Some(Refusal {
                offset,
                reason,
                guess,
            });
        }
    }

    pub(super) fn run(mut self, start: usize) -> LenientText {
        let start = self.skip_plain_space(start);
        self.out.reserve(self.limit.saturating_sub(start) + 16);
        // A comment before the value (`// the answer`) is dropped like any other.
        let mut i = self.space(start);
        if i < self.limit && !matches!(self.bytes[i], b'{' | b'[') {
            i = self.restore_start(i);
        }
        while self.refused.is_none() && !self.done {
            i = self.space(i);
            if i >= self.limit {
                break;
            }
            i = match self.bytes[i] {
                b'{' | b'[' => self.open(i),
                b'}' | b']' => self.close(i),
                b',' => self.comma(i),
                b':' => self.colon(i),
                _ => self.token(i),
            };
        }
        if self.close_open && !self.done && self.refused.is_none() {
            self.add_closers();
        }
        if self.done {
            self.check_nothing_follows(i);
        }
        if let (Some(at), false) = (self.first_bare, self.evidence) {
            // `[json]`, `{name: value}`: words in brackets, no quoted string or number.
            self.refuse(
                at,
                "only bare words in brackets (no quoted string, number or literal): prose or a placeholder, not JSON",
            );
        }
        // A trailing comma is only known at the closer, after what follows it.
        self.repairs.sort_by_key(|repair| repair.offset);
        let text = String::from_utf8(self.out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        LenientText {
            start,
            end: i.min(self.limit),
            text,
            repairs: self.repairs,
            refused: self.refused,
            forks: self.forks,
            cost: i.min(self.limit).saturating_sub(start) + 1,
        }
    }

    fn skip_plain_space(&self, mut i: usize) -> usize {
        while i < self.limit && self.bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    }

    /// Copy white space (Unicode spaces made ASCII) and drop comments.
    fn space(&mut self, mut i: usize) -> usize {
        while i < self.limit {
            let byte = self.bytes[i];
            match byte {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.out.push(byte);
                    i += 1;
                }
                b'/' if matches!(self.bytes.get(i + 1), Some(b'/' | b'*')) => {
                    self.fix(RepairKind::Lenient(Defect::Comment), i);
                    i = self.comment_end(i);
                }
                b'#' => {
                    self.fix(RepairKind::Lenient(Defect::Comment), i);
                    i = self.comment_end(i);
                }
                _ if byte >= 0x80 => match self.char_at(i) {
                    Some(c) if unicode_space(c) => {
                        self.fix(RepairKind::Lenient(Defect::UnicodeSpace), i);
                        self.out.push(b' ');
                        i += c.len_utf8();
                    }
                    _ => break,
                },
                _ => break,
            }
        }
        i
    }

    pub(super) fn char_at(&self, i: usize) -> Option<char> {
        self.text.get(i..self.limit)?.chars().next()
    }

    /// The next place after `i` that is not white space (ASCII or Unicode) or a comment.
    pub(super) fn skip_space(&self, mut i: usize) -> usize {
        while i < self.limit {
            match self.bytes[i] {
                b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                b'/' if matches!(self.bytes.get(i + 1), Some(b'/' | b'*')) => {
                    i = self.comment_end(i);
                }
                b'#' => i = self.comment_end(i),
                byte if byte >= 0x80 => match self.char_at(i) {
                    Some(c) if unicode_space(c) => i += c.len_utf8(),
                    _ => break,
                },
                _ => break,
            }
        }
        i
    }

    /// The byte at the next significant place after `i`, and that place.
    pub(super) fn peek(&self, i: usize) -> (Option<u8>, usize) {
        let at = self.skip_space(i);
        (self.bytes.get(at).copied().filter(|_| at < self.limit), at)
    }

    /// Where the comment at `i` ends. Look-ahead calls this from inside
    /// strings too (`"a" /*"b" /*…`), so the last search for each kind of end
    /// is remembered: no stretch of text is searched twice.
    fn comment_end(&self, i: usize) -> usize {
        if self.bytes[i..self.limit].starts_with(b"/*") {
            let found = self.find_after(&self.block_end, i + 2, b"*/");
            found.map_or(self.limit, |at| at + 2)
        } else {
            self.find_after(&self.line_end, i, b"\n")
                .unwrap_or(self.limit)
        }
    }

    /// The first `"` at or after `from` that no backslash escapes, where a double-quoted
    /// string being read would close (remembered: no stretch is searched twice).
    pub(super) fn next_closing_quote(&self, from: usize) -> Option<usize> {
        let (searched_from, found) = self.quote_ahead.get();
        if from >= searched_from && found.is_none_or(|at| from <= at) {
            return found;
        }
        let bytes = &self.bytes[..self.limit];
        let escaped = |at: usize| {
            let backslashes = bytes[..at].iter().rev().take_while(|&&b| b == b'\\');
            backslashes.count() % 2 == 1
        };
        let found = memchr::memchr_iter(b'"', &bytes[from.min(self.limit)..])
            .map(|at| from + at)
            .find(|&at| !escaped(at));
        self.quote_ahead.set((from, found));
        found
    }

    /// The first `needle` at or after `from`, remembered in `memo` as
    /// (searched from, found at).
    fn find_after(
        &self,
        memo: &Cell<(usize, Option<usize>)>,
        from: usize,
        needle: &[u8],
    ) -> Option<usize> {
        let (searched_from, found) = memo.get();
        if from >= searched_from && found.is_none_or(|at| from <= at) {
            return found;
        }
        let found = self.bytes[from.min(self.limit)..self.limit]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|at| from + at);
        memo.set((from, found));
        found
    }

    pub(super) fn pop(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        self.objects_open -= usize::from(frame.closer == b'}');
        Some(frame)
    }

    pub(super) fn top_is_object(&self) -> bool {
        self.stack.last().is_some_and(|frame| frame.closer == b'}')
    }

    pub(super) fn push(&mut self, frame: Frame) {
        self.objects_open += usize::from(frame.closer == b'}');
        self.stack.push(frame);
    }
}
