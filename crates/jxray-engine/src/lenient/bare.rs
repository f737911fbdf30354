//! Bare words as values: `"status": active`, `"id": 3f2a9c1e-…`, `"mode": read-only`.
//! An unquoted run that is no literal, number or bracket is quoted up to the next `,`
//! `}` `]` or the end of its line, unless where it ends would be a guess: a run holding
//! a quote, a colon, a bracket or a comment, or a line that goes on with more words.

use super::rewriter::{Rewriter, Want};
use crate::outcome::{Defect, RepairKind};

impl Rewriter<'_> {
    /// An unquoted string where a value belongs, starting at `start`.
    pub(super) fn bare_value(&mut self, start: usize) -> usize {
        let (end, next) = match self.bare_extent(start) {
            Ok(extent) => extent,
            Err(reason) => {
                self.guess(start, reason);
                return start;
            }
        };
        if next > end && super::number::respell(&self.text[start..end]).is_some() {
            // `12345"`: a string whose opening quote is lost, or a number and a stray quote.
            self.guess(
                start,
                "a number followed by a quote: the number, or a string whose opening quote is missing",
            );
            return start;
        }
        if self.begin_item(start) != Want::Value {
            self.refuse(start, "a value where a key belongs");
            return start;
        }
        self.fix(RepairKind::Lenient(Defect::UnquotedValue), start);
        self.out.push(b'"');
        for &byte in &self.bytes[start..end] {
            match byte {
                b'\t' => self.out.extend_from_slice(b"\\t"),
                _ => self.out.push(byte),
            }
        }
        self.out.push(b'"');
        if next > end {
            // `foo"`: the closing quote was written, so the text is quoted JSON.
            self.evidence = true;
        } else {
            self.first_bare.get_or_insert(start);
        }
        self.end_item(next);
        next
    }

    /// Where the bare run at `start` ends (its text trimmed), and where the reading goes on
    /// (past its closing quote when only the opening one is missing).
    fn bare_extent(&self, start: usize) -> Result<(usize, usize), &'static str> {
        let mut j = start;
        while j < self.limit {
            let byte = self.bytes[j];
            match byte {
                b',' | b'}' | b']' | b'\n' | b'\r' => break,
                b'"' if self.trimmed_end(start, j) == j && self.closes_item_at(j + 1) => {
                    // `"a": foo"`: the value's opening quote is missing; this is its closing one.
                    return Ok((j, j + 1));
                }
                b'"' => {
                    return Err(
                        "a bare word holding a quote: where the string starts and ends is a guess",
                    )
                }
                // `https://…`, `18:35`: a colon inside a word is text.
                b':' if self.bytes.get(j + 1..j + 3) == Some(b"//") => j += 2,
                b':' if self.digit_at(j.wrapping_sub(1)) && self.digit_at(j + 1) => {}
                b':' => return Err("a bare word holding a colon: a key of its own, or text"),
                b'{' | b'[' | b'`' | b'\\' | b'#' => {
                    return Err(
                        "a bare word holding a bracket, backtick, backslash or `#`: not plain text",
                    )
                }
                b'/' if matches!(self.bytes.get(j + 1), Some(b'/' | b'*')) => {
                    return Err("a bare word running into a comment: where it ends is a guess")
                }
                b'\t' | b' ' => {}
                0..=0x1f | 0x7f => return Err("a control character in a bare word"),
                b'\'' if !self.between_letters(j, 1) => {
                    return Err(
                        "a bare word holding a quote: where the string starts and ends is a guess",
                    )
                }
                _ if byte >= 0x80 => {
                    let c = self.char_at(j).unwrap_or(' ');
                    let apostrophe =
                        matches!(c, '\u{2019}') && self.between_letters(j, c.len_utf8());
                    if self.quote_at(j).is_some() && !apostrophe {
                        return Err("a bare word holding a quote: where the string starts and ends is a guess");
                    }
                    j += c.len_utf8();
                    continue;
                }
                _ => {}
            }
            j += 1;
        }
        let end = self.trimmed_end(start, j);
        let line_ends = j < self.limit && matches!(self.bytes[j], b'\n' | b'\r');
        if line_ends && !self.next_line_starts_item(j) {
            return Err(
                "a bare word at the end of a line, and the next line goes on with more text: where the value ends is a guess",
            );
        }
        Ok((end, end))
    }

    fn digit_at(&self, at: usize) -> bool {
        at < self.limit && self.bytes[at].is_ascii_digit()
    }

    /// `start..end` without its trailing white space.
    fn trimmed_end(&self, start: usize, end: usize) -> usize {
        self.bytes[start..end]
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\t'))
            .map_or(start, |last| start + last + 1)
    }

    /// Whether the next significant text after `at` ends the item: a comma, a closer, the end.
    fn closes_item_at(&self, at: usize) -> bool {
        matches!(self.peek(at).0, None | Some(b',' | b'}' | b']'))
    }

    /// The `len`-byte character at `at` has a letter on both sides (`don't`, `O’Brien`).
    fn between_letters(&self, at: usize, len: usize) -> bool {
        let before = self.text[..at].chars().next_back();
        let after = self
            .text
            .get(at + len..self.limit)
            .and_then(|s| s.chars().next());
        before.is_some_and(char::is_alphabetic) && after.is_some_and(char::is_alphabetic)
    }

    /// After a bare word's line ends at `at`: does the next line start the next item
    /// (its comma left out) or close the structure, rather than go on with the value?
    fn next_line_starts_item(&self, at: usize) -> bool {
        let (next, next_at) = self.peek(at);
        let Some(next) = next else { return true };
        if matches!(next, b',' | b'}' | b']') {
            return true;
        }
        if self.top_is_object() {
            // A key: quoted, or a bare word with its colon.
            let word_end = self.bytes[next_at..self.limit]
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'$')))
                .map_or(self.limit, |n| next_at + n);
            return self.quote_at(next_at).is_some()
                || (word_end > next_at && self.peek(word_end).0 == Some(b':'));
        }
        self.starts_clear_value(next_at)
    }
}
