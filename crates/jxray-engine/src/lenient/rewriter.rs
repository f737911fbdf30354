//! The structure: brackets, commas and colons, with the state a JSON parser
//! keeps, so that a missing or extra separator is seen where it happens.

use std::cell::Cell;

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
    objects_open: usize,
    pub want: Want,
    /// The comma last written (raw offset, place in `out`), until an item follows it.
    pending_comma: Option<(usize, usize)>,
    /// Where the last key or value ended, in the raw text and in `out`: a
    /// missing comma or colon goes there.
    item_end: (usize, usize),
    pub refused: Option<Refusal>,
    done: bool,
    /// The output is finished: brackets still open at the limit are closed there.
    close_open: bool,
    /// The last searches for a comment's end: see [`Rewriter::comment_end`].
    line_end: Cell<(usize, Option<usize>)>,
    block_end: Cell<(usize, Option<usize>)>,
}

/// Unicode spaces that models emit as white space between tokens.
pub(super) fn unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{1680}' | '\u{2000}'
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
            refused: None,
            done: false,
            close_open: false,
            line_end: Cell::new((usize::MAX, None)),
            block_end: Cell::new((usize::MAX, None)),
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

    pub(super) fn refuse(&mut self, offset: usize, reason: &'static str) {
        if self.refused.is_none() {
            self.refused = Some(Refusal { offset, reason });
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

    pub(super) fn push(&mut self, frame: Frame) {
        self.objects_open += usize::from(frame.closer == b'}');
        self.stack.push(frame);
    }

    fn pop(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        self.objects_open -= usize::from(frame.closer == b'}');
        Some(frame)
    }

    fn top_is_object(&self) -> bool {
        self.stack.last().is_some_and(|frame| frame.closer == b'}')
    }

    /// Make room for an item starting at `at`: insert the comma or colon the
    /// text left out. Returns what the grammar now expects.
    pub(super) fn begin_item(&mut self, at: usize) -> Want {
        match self.want {
            Want::Next if !self.stack.is_empty() => {
                let (raw, place) = self.item_end;
                self.out.insert(place, b',');
                self.fix(RepairKind::Lenient(Defect::MissingComma), raw.min(at));
                self.want = if self.top_is_object() {
                    Want::Key
                } else {
                    Want::Value
                };
            }
            Want::Colon => {
                let (raw, place) = self.item_end;
                self.out.insert(place, b':');
                self.fix(RepairKind::Lenient(Defect::MissingColon), raw.min(at));
                self.want = Want::Value;
            }
            _ => {}
        }
        self.pending_comma = None;
        if let Some(frame) = self.stack.last_mut() {
            frame.empty = false;
        }
        self.want
    }

    /// A key or value ended at raw `end`: what comes next.
    pub(super) fn end_item(&mut self, end: usize) {
        self.item_end = (end, self.out.len());
        self.want = match self.want {
            Want::Key => Want::Colon,
            _ if self.stack.is_empty() => {
                self.done = true;
                Want::Next
            }
            _ => Want::Next,
        };
    }

    fn open(&mut self, i: usize) -> usize {
        match self.begin_item(i) {
            Want::Value => {}
            _ => {
                self.refuse(i, "a bracket where a key belongs");
                return i;
            }
        }
        let opener = self.bytes[i];
        self.out.push(opener);
        self.push(Frame {
            closer: if opener == b'{' { b'}' } else { b']' },
            empty: true,
        });
        self.want = if opener == b'{' {
            Want::Key
        } else {
            Want::Value
        };
        i + 1
    }

    fn close(&mut self, i: usize) -> usize {
        let Some(top) = self.stack.last().copied() else {
            self.refuse(i, "a closing bracket that nothing opened");
            return i;
        };
        match self.want {
            Want::Next => {}
            Want::Key | Want::Value if top.empty => {}
            Want::Key | Want::Value if self.pending_comma.is_some() => {
                let (raw, place) = self.pending_comma.take().unwrap_or_default();
                self.out.remove(place);
                self.fix(RepairKind::Lenient(Defect::TrailingComma), raw);
            }
            _ => {
                self.refuse(i, "a key or value is missing before the closing bracket");
                return i;
            }
        }
        let written = self.bytes[i];
        if written != top.closer {
            // The top does not close with `written`, so any frame that does is deeper.
            let deeper = if written == b'}' {
                self.objects_open > 0
            } else {
                self.objects_open < self.stack.len()
            };
            let (next, _) = self.peek(i + 1);
            if deeper && !matches!(next, Some(b',' | b'}' | b']')) {
                // `[{"a": 1]`: the inner closers were left out; this one closes further out.
                self.fix(RepairKind::Lenient(Defect::MismatchedBracket), i);
                while self.stack.last().is_some_and(|f| f.closer != written) {
                    let frame = self.pop().unwrap_or(top);
                    self.out.push(frame.closer);
                }
            } else {
                // `[1, 2}`: the closer was written wrong.
                self.fix(RepairKind::Lenient(Defect::MismatchedBracket), i);
            }
        }
        let frame = self.pop().unwrap_or(top);
        self.out.push(frame.closer);
        self.want = Want::Next;
        self.end_item(i + 1);
        i + 1
    }

    fn comma(&mut self, i: usize) -> usize {
        match self.want {
            Want::Next if !self.stack.is_empty() => {
                self.pending_comma = Some((i, self.out.len()));
                self.out.push(b',');
                self.want = if self.top_is_object() {
                    Want::Key
                } else {
                    Want::Value
                };
            }
            Want::Key | Want::Value if self.stack.last().is_some_and(|f| f.empty) => {
                self.fix(RepairKind::Lenient(Defect::LeadingComma), i);
                // A second one would be an empty item: no longer a leading comma.
                if let Some(frame) = self.stack.last_mut() {
                    frame.empty = false;
                }
            }
            _ => self.refuse(
                i,
                "two commas in a row (an empty item) or a comma out of place",
            ),
        }
        i + 1
    }

    fn colon(&mut self, i: usize) -> usize {
        if self.want == Want::Colon {
            self.out.push(b':');
            self.want = Want::Value;
        } else {
            self.refuse(i, "a colon where no key stands before it");
        }
        i + 1
    }

    /// A string, number or bare word.
    fn token(&mut self, i: usize) -> usize {
        if let Some(quote) = self.quote_at(i) {
            return self.string(i, quote);
        }
        let byte = self.bytes[i];
        let key_like = byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'$' | b'-');
        match self.want {
            Want::Key if key_like => self.key_word(i),
            Want::Key => {
                self.refuse(i, "a key that is neither quoted nor a plain word");
                i
            }
            _ if byte.is_ascii_digit() || matches!(byte, b'-' | b'+' | b'.') => self.number(i),
            _ if byte.is_ascii_alphabetic() || matches!(byte, b'_' | b'$') => self.value_word(i),
            _ => {
                self.refuse(i, "a character that starts no JSON value");
                i
            }
        }
    }

    /// `missing-closer`: after a whole item, every bracket still open is closed, innermost
    /// first, where the last item ended. Anywhere else (inside a member, after a comma) the
    /// text is not only missing its closers, and nothing is added.
    fn add_closers(&mut self) {
        if self.want != Want::Next || self.stack.is_empty() {
            return;
        }
        let (raw, place) = self.item_end;
        let closers: Vec<u8> = self.stack.iter().rev().map(|frame| frame.closer).collect();
        self.out.splice(place..place, closers);
        self.fix(RepairKind::Lenient(Defect::MissingCloser), raw);
        self.stack.clear();
        self.objects_open = 0;
        self.done = true;
    }

    /// After the value closed: more of the same JSON means a defect inside
    /// it cut it short, and the reading would be a fragment.
    fn check_nothing_follows(&mut self, end: usize) {
        let (next, at) = self.peek(end);
        if matches!(next, Some(b',' | b':' | b'}' | b']' | b'"')) {
            self.refuse(
                at,
                "the text goes on with more of the same JSON after the value closes",
            );
        }
    }
}
