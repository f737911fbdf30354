//! A quote met inside a string: its end, a quote meant as text, the sign that the
//! string's own closing quote went missing before a comma, or a guess refused.

use super::rewriter::Rewriter;
use super::string::{Body, Quote};
use crate::outcome::{Defect, RepairKind};

/// What a quote met inside a string is.
enum Reading {
    Closes,
    /// Text: the model meant a quote character.
    Inner,
    /// The string's closing quote is missing before the comma at this offset.
    MissedBefore,
    Ambiguous(&'static str),
}

impl Rewriter<'_> {
    /// A quote of the string's kind at `j` (`len` bytes): `Some(end)` when the string (or
    /// the reading) ends, `None` when the quote is text and the string goes on.
    pub(super) fn at_quote(
        &mut self,
        j: usize,
        len: usize,
        string: Body,
        last_comma: Option<(usize, usize)>,
    ) -> Option<usize> {
        match self.read_quote(j + len, string.key) {
            Reading::Closes => {
                if self.inner_quotes_pair(string, j) {
                    self.out.push(b'"');
                    self.end_item(j + len);
                }
                Some(j + len)
            }
            Reading::Inner => {
                if string.quote == Quote::Double {
                    self.fix(RepairKind::Lenient(Defect::UnescapedQuote), j);
                }
                match self.bytes[j] {
                    b'"' => self.out.extend_from_slice(b"\\\""),
                    _ => self.out.extend_from_slice(&self.bytes[j..j + len]),
                }
                None
            }
            Reading::MissedBefore if string.key => {
                self.refuse(j, "a quote inside a key");
                Some(j)
            }
            Reading::MissedBefore => Some(self.missed_before(j, string, last_comma)),
            Reading::Ambiguous(reason) => {
                self.guess(j, reason);
                Some(j)
            }
        }
    }

    /// `"x, "b": …`: the string should have closed before the comma (at `last_comma`).
    fn missed_before(
        &mut self,
        j: usize,
        string: Body,
        last_comma: Option<(usize, usize)>,
    ) -> usize {
        let Some((raw, place)) = last_comma else {
            self.guess(j, "a quote inside a string that could end it or be text");
            return j;
        };
        if self.escaped_quote_before(raw) {
            self.guess(
                raw,
                "an escaped quote just before the place the closing quote belongs: it may have been meant to close the string",
            );
            return j;
        }
        if !self.inner_quotes_pair(string, raw) {
            return j;
        }
        self.out.truncate(place);
        self.out.push(b'"');
        self.fix(RepairKind::Lenient(Defect::UnterminatedString), raw);
        self.end_item(raw);
        raw
    }

    /// Whether the text just before `at` (white space aside) is an escaped quote (`\"`).
    pub(super) fn escaped_quote_before(&self, at: usize) -> bool {
        let text = &self.bytes[..at];
        let end = text
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |last| last + 1);
        end >= 2 && matches!(text[end - 1], b'"' | b'\'') && text[end - 2] == b'\\'
    }

    /// Read a quote met inside a string, from the text after it.
    fn read_quote(&self, after: usize, key: bool) -> Reading {
        let (next, at) = self.peek(after);
        let gap = at > after;
        let Some(next) = next else {
            return Reading::Closes;
        };
        if key {
            // `"a" 1`, `"a"2`: a key followed by its value, the colon left out.
            return if next == b':' || self.starts_clear_value(at) {
                Reading::Closes
            } else {
                Reading::Inner
            };
        }
        let in_object = self.stack.last().is_some_and(|f| f.closer == b'}');
        match next {
            b',' => self.read_comma_after_quote(at, in_object),
            b'}' | b']' => self.read_closer_after_quote(at),
            b':' => Reading::Ambiguous("a quote before a colon inside a string value"),
            // `["a" 2]`, `{"a": "x" "b": 1}`: the string ended; the comma was left out.
            _ if gap && self.starts_clear_value(at) => Reading::Closes,
            b'+' | b'*' | b'/' | b'=' | b'&' | b'|' | b'<' | b'>' if gap => Reading::Ambiguous(
                "a quote, then an operator: a string and an expression (`'a' + 'b'`), or text",
            ),
            _ if in_object && self.looks_like_key(after) => Reading::MissedBefore,
            _ => Reading::Inner,
        }
    }

    /// A quote followed by a comma: the end of the string, unless what follows the
    /// comma cannot start the next item.
    fn read_comma_after_quote(&self, at: usize, in_object: bool) -> Reading {
        let (after_comma, next_at) = self.peek(at + 1);
        let fits = match after_comma {
            None => true,
            Some(b'"' | b'\'' | b'}') => true,
            Some(b) if b >= 0x80 => self.quote_at(next_at).is_some(),
            Some(b) if in_object => b.is_ascii_alphanumeric() || b == b'_' || b == b'$',
            Some(_) => true,
        };
        if fits {
            Reading::Closes
        } else {
            Reading::Inner
        }
    }

    /// A quote followed by a closer: the end of the string, unless the text
    /// after the closer carries on the JSON it would close.
    fn read_closer_after_quote(&self, at: usize) -> Reading {
        let Some(top) = self.stack.last() else {
            return Reading::Closes;
        };
        if self.bytes[at] != top.closer {
            return Reading::Closes;
        }
        let (next, next_at) = self.peek(at + 1);
        let carries_on = if self.stack.len() == 1 {
            matches!(next, Some(b',' | b':' | b'"' | b'}' | b']'))
        } else {
            // On a new line, the next item with its comma left out.
            let next_line = self.bytes[at + 1..next_at].contains(&b'\n');
            !(matches!(next, None | Some(b',' | b'}' | b']')) || next_line)
        };
        if carries_on {
            Reading::Inner
        } else {
            Reading::Closes
        }
    }

    /// Whether a value that needs no guess starts at `at`: a string, bracket,
    /// number or literal.
    pub(super) fn starts_clear_value(&self, at: usize) -> bool {
        let rest = &self.bytes[at.min(self.limit)..self.limit];
        let word_end = rest
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        match rest.first() {
            Some(b'"' | b'\'' | b'{' | b'[' | b'-' | b'0'..=b'9') => true,
            Some(&b) if b >= 0x80 => self.quote_at(at).is_some(),
            Some(_) => super::word::is_literal(&self.text[at..at + word_end]),
            None => false,
        }
    }

    /// `b": …` right after a quote: the quote opens a key, so the string
    /// before it lost its closing quote.
    fn looks_like_key(&self, from: usize) -> bool {
        let word_end = self.bytes[from..self.limit]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'$' | b' ')))
            .map_or(self.limit, |at| from + at);
        word_end > from
            && self.bytes.get(word_end) == Some(&b'"')
            && self.peek(word_end + 1).0 == Some(b':')
    }
}
