//! The structure: brackets, commas and colons, so that a missing or extra
//! separator, or a closer written wrong, is seen where it happens.

use super::fork::Choice;
use super::rewriter::{Frame, Rewriter, Want};
use crate::outcome::{Defect, RepairKind};

impl Rewriter<'_> {
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
            Want::Colon if !self.key_quoted && !self.starts_clear_value(at) => {
                // `{the pump}`: two bare words are no key and value.
                self.refuse(
                    at,
                    "a bare word after a bare key, with no colon between them",
                );
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

    pub(super) fn open(&mut self, i: usize) -> usize {
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

    pub(super) fn close(&mut self, i: usize) -> usize {
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
        if self.is_extra_brace(i, written, top.closer) {
            self.fix(RepairKind::Lenient(Defect::MismatchedBracket), i);
            return i + 1;
        }
        if written != top.closer {
            self.fix(RepairKind::Lenient(Defect::MismatchedBracket), i);
            if self.closes_deeper(i, written) {
                // `[{"a": 1]`: the inner closers were left out; this one closes further out.
                while self.stack.last().is_some_and(|f| f.closer != written) {
                    let frame = self.pop().unwrap_or(top);
                    self.out.push(frame.closer);
                }
            }
            // Otherwise (`[1, 2}`) the closer was written wrong.
        }
        let frame = self.pop().unwrap_or(top);
        self.out.push(frame.closer);
        self.want = Want::Next;
        self.end_item(i + 1);
        i + 1
    }

    /// `[{"a": 1} } ]`: a `}` among an array's items, right before the array's own `]`. No
    /// lost `{` could pair with it (an object cannot hold a bare item), and read as the
    /// array's `]` written wrong, the `]` after it would close nothing it can: it is extra,
    /// and dropping it is the only reading.
    fn is_extra_brace(&self, i: usize, written: u8, expected: u8) -> bool {
        // In an array of arrays (`[[1, 2} ]`) the brace is the inner `]` written wrong.
        let below = self
            .stack
            .len()
            .checked_sub(2)
            .map(|k| self.stack[k].closer);
        written == b'}'
            && expected == b']'
            && below != Some(b']')
            && self.want == Want::Next
            && self.peek(i + 1).0 == Some(b']')
    }

    /// A closer that is not the innermost frame's: does it close the frames inside the one
    /// it matches (`]` for `}]`), or is it the innermost one's, written wrong (`}` for `]`)?
    /// The text after it suggests one; the other is read too (see `alternatives.rs`).
    fn closes_deeper(&mut self, i: usize, written: u8) -> bool {
        // The top does not close with `written`, so any frame that does is deeper.
        let deeper = if written == b'}' {
            self.objects_open > 0
        } else {
            self.objects_open < self.stack.len()
        };
        if !deeper {
            return false;
        }
        let (next, _) = self.peek(i + 1);
        let (first, other) = if matches!(next, Some(b',' | b'}' | b']')) {
            (Choice::WrittenWrong, Choice::ClosesDeeper)
        } else {
            (Choice::ClosesDeeper, Choice::WrittenWrong)
        };
        self.decide(i, first, other, true) == Choice::ClosesDeeper
    }

    pub(super) fn comma(&mut self, i: usize) -> usize {
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

    pub(super) fn colon(&mut self, i: usize) -> usize {
        if self.want == Want::Colon {
            self.out.push(b':');
            self.want = Want::Value;
        } else {
            self.refuse(i, "a colon where no key stands before it");
        }
        i + 1
    }

    /// A string, number or bare word.
    pub(super) fn token(&mut self, i: usize) -> usize {
        if let Some(quote) = self.quote_at(i) {
            return self.string(i, quote);
        }
        let byte = self.bytes[i];
        // After an item with its comma left out, the next item is a key in an object.
        let expect = match self.want {
            Want::Next if self.top_is_object() => Want::Key,
            Want::Next => Want::Value,
            want => want,
        };
        let key_like = byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'$' | b'-');
        match expect {
            Want::Key if key_like => self.key_word(i),
            Want::Key => {
                self.refuse(i, "a key that is neither quoted nor a plain word");
                i
            }
            _ if byte.is_ascii_digit() || matches!(byte, b'-' | b'+' | b'.') => self.number(i),
            _ if byte.is_ascii_alphabetic() || matches!(byte, b'_' | b'$') => self.value_word(i),
            _ if self.char_at(i).is_some_and(char::is_alphabetic) => self.bare_value(i),
            _ => {
                self.refuse(i, "a character that starts no JSON value");
                i
            }
        }
    }

    /// `missing-closer`: after a whole item, every bracket still open is closed, innermost
    /// first, where the last item ended. Anywhere else (inside a member, after a comma) the
    /// text is not only missing its closers, and nothing is added.
    pub(super) fn add_closers(&mut self) {
        if self.want != Want::Next || self.stack.is_empty() {
            return;
        }
        let (raw, place) = self.item_end;
        let closers: Vec<u8> = self.stack.iter().rev().map(|frame| frame.closer).collect();
        self.out.splice(place..place, closers);
        // After the last item; at the text's last byte when the text ends there.
        let offset = raw.min(self.text.len().saturating_sub(1));
        self.fix(RepairKind::Lenient(Defect::MissingCloser), offset);
        self.stack.clear();
        self.objects_open = 0;
        self.done = true;
    }

    /// After the value closed: more of the same JSON means a defect inside
    /// it cut it short, and the reading would be a fragment.
    pub(super) fn check_nothing_follows(&mut self, end: usize) {
        let (next, at) = self.peek(end);
        if matches!(next, Some(b',' | b':' | b'}' | b']' | b'"')) {
            self.refuse(
                at,
                "the text goes on with more of the same JSON after the value closes",
            );
        }
    }
}
