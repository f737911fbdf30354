//! The lost opening: text that begins inside an object (`key": "v"}`,
//! `"a": 1, "b": 2}`) because a client or serving layer dropped its first
//! tokens. The openers are restored from the closers the text ends with.

use super::rewriter::{Frame, Rewriter, Want};
use super::string::{Body, Quote};
use crate::outcome::{Defect, RepairKind};

impl Rewriter<'_> {
    /// Restore the opening of a value whose text begins at `i` with a key;
    /// returns where the reading goes on.
    pub(super) fn restore_start(&mut self, i: usize) -> usize {
        let Some((key_end, mid_key)) = self.key_at_start(i) else {
            self.refuse(
                i,
                "the text begins inside a value, and what was lost cannot be told",
            );
            return i;
        };
        let closers = self.unmatched_closers(key_end);
        if closers.first() != Some(&b'}') {
            self.refuse(
                i,
                "the text begins inside a value, and what was lost cannot be told",
            );
            return i;
        }
        self.fix(RepairKind::Lenient(Defect::MissingStart), i);
        for &closer in closers.iter().rev() {
            self.out.push(if closer == b'}' { b'{' } else { b'[' });
            self.push(Frame {
                closer,
                empty: false,
            });
        }
        self.want = Want::Key;
        if !mid_key {
            return i;
        }
        // `key": …`: the key's opening quote went with the brace.
        self.begin_item(i);
        self.out.push(b'"');
        self.key_quoted = true;
        let key = Body {
            quote: Quote::Double,
            key: true,
            doubled: false,
            inner: 0,
        };
        self.body(i, key, self.limit)
    }

    /// A key at `i` (`"key":` or `key":`): where it ends, and whether its
    /// opening quote is missing.
    fn key_at_start(&self, i: usize) -> Option<(usize, bool)> {
        let bytes = &self.bytes[i..self.limit];
        let (quote_at, mid_key) = if bytes.first() == Some(&b'"') {
            (
                1 + bytes[1..].iter().position(|&b| b == b'"' || b == b'\\')?,
                false,
            )
        } else {
            let word = bytes
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'$')))?;
            (word, true)
        };
        let end = i + quote_at + 1;
        (word_ok(quote_at, mid_key)
            && bytes.get(quote_at) == Some(&b'"')
            && self.peek(end).0 == Some(b':'))
        .then_some((end, mid_key))
    }

    /// The closers after `from` that close something opened before the text
    /// began, innermost first, while the text carries on after each.
    fn unmatched_closers(&self, from: usize) -> Vec<u8> {
        let mut closers = Vec::new();
        let (mut depth, mut in_string) = (0usize, false);
        let mut j = from;
        while j < self.limit {
            let byte = self.bytes[j];
            match byte {
                b'\\' if in_string => j += 1,
                b'"' => in_string = !in_string,
                _ if in_string => {}
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => depth -= 1,
                b'}' | b']' => {
                    closers.push(byte);
                    if !matches!(self.peek(j + 1).0, Some(b',' | b'}' | b']')) {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        closers
    }
}

/// A key cut inside must still have a word left of it.
fn word_ok(len: usize, mid_key: bool) -> bool {
    !mid_key || len > 0
}
