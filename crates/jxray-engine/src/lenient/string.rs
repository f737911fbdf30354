//! Strings: any quote style in, a double-quoted JSON string out. A quote in
//! the middle of a string ends it only where the structure after it says a
//! string ends there (`quote.rs`); otherwise it was meant as text and is escaped.

use super::rewriter::{Rewriter, Want};
use crate::outcome::{Defect, RepairKind};

/// How a string was quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quote {
    Double,
    Single,
    /// `“…”` (or `„…“`).
    CurlyDouble,
    /// `‘…’`.
    CurlySingle,
}

impl Quote {
    /// Whether the character at the start of `rest` can close a string opened with `self`.
    fn closer_len(self, rest: &str) -> Option<usize> {
        let c = rest.chars().next()?;
        let closes = match self {
            Quote::Double => c == '"',
            Quote::Single => c == '\'',
            Quote::CurlyDouble => matches!(c, '\u{201d}' | '\u{201c}' | '"'),
            Quote::CurlySingle => matches!(c, '\u{2019}' | '\u{2018}'),
        };
        closes.then(|| c.len_utf8())
    }

    /// The straight quote a doubled string (`""x""`, `''x''`) is written with.
    fn straight(self) -> Option<u8> {
        match self {
            Quote::Double => Some(b'"'),
            Quote::Single => Some(b'\''),
            _ => None,
        }
    }
}

/// The string being read: how it was quoted, whether it is a key, whether its quotes
/// were doubled, and how many quotes of its kind it holds as text so far.
#[derive(Debug, Clone, Copy)]
pub(super) struct Body {
    pub quote: Quote,
    pub key: bool,
    pub doubled: bool,
    pub inner: usize,
}

impl Rewriter<'_> {
    /// The quote a string may start with at `i`, if any.
    pub(super) fn quote_at(&self, i: usize) -> Option<Quote> {
        match self.bytes[i] {
            b'"' => Some(Quote::Double),
            b'\'' => Some(Quote::Single),
            b if b >= 0x80 => match self.char_at(i)? {
                '\u{201c}' | '\u{201d}' | '\u{201e}' => Some(Quote::CurlyDouble),
                '\u{2018}' | '\u{2019}' => Some(Quote::CurlySingle),
                _ => None,
            },
            _ => None,
        }
    }

    /// A string token at `open`, as a key or value.
    pub(super) fn string(&mut self, open: usize, quote: Quote) -> usize {
        let key = self.begin_item(open) == Want::Key;
        match quote {
            Quote::Double => {}
            Quote::Single => self.fix(RepairKind::Lenient(Defect::SingleQuotes), open),
            Quote::CurlyDouble | Quote::CurlySingle => {
                self.fix(RepairKind::Lenient(Defect::SmartQuotes), open)
            }
        }
        self.evidence = true;
        if key {
            self.key_quoted = true;
        }
        let open_len = self.char_at(open).map_or(1, char::len_utf8);
        let mut body = open + open_len;
        let mut doubled = false;
        let straight = quote.straight();
        if straight.is_some()
            && self.bytes.get(body).copied() == straight
            && body + 1 < self.limit
            && !self.ends_token(body + 1, key)
        {
            // `""x""`: the quotes were doubled.
            self.fix(RepairKind::Lenient(Defect::DoubledQuotes), open);
            doubled = true;
            body += 1;
        }
        self.out.push(b'"');
        let string = Body {
            quote,
            key,
            doubled,
            inner: 0,
        };
        self.body(body, string, self.limit)
    }

    /// Whether a string closed just before `at` would end its token there.
    fn ends_token(&self, at: usize, key: bool) -> bool {
        let (next, _) = self.peek(at);
        match next {
            None => true,
            Some(b':') => key,
            Some(b',' | b'}' | b']') => !key,
            _ => false,
        }
    }

    /// Copy the body of a string from `from`, up to its closing quote (or to
    /// `stop`, where a missing quote is put).
    pub(super) fn body(&mut self, from: usize, mut string: Body, stop: usize) -> usize {
        let marks = (self.out.len(), self.repairs.len());
        let mut last_comma: Option<(usize, usize)> = None;
        let mut j = from;
        while j < stop {
            let plain = plain_run(&self.bytes[j..stop]);
            if plain > 0 {
                // Text that needs no decision is copied as it is, a run at a time.
                let run = &self.bytes[j..j + plain];
                if run.iter().any(|&b| b != b' ') {
                    last_comma = None;
                }
                self.out.extend_from_slice(run);
                j += plain;
                continue;
            }
            let byte = self.bytes[j];
            if byte == b'\\' {
                match self.backslash(j, from, string, stop) {
                    Ok(next) => {
                        j = next;
                        last_comma = None;
                        continue;
                    }
                    Err(end) => return end,
                }
            }
            // A colon that opens a key is its text: a key that lost its closing quote had a
            // name before the colon (`{":\u{feff}": null}` is the key `:` and a space, never
            // an empty key).
            if string.key && byte == b':' && j > from && self.key_ends_at_colon(j, string) {
                return j;
            }
            if string.doubled && Some(byte) == string.quote.straight() {
                if self.bytes.get(j + 1) != Some(&byte) {
                    self.guess(j, "a string opened with doubled quotes holds a single one: where it ends is a guess");
                    return j;
                }
                let at = j + 2;
                self.out.push(b'"');
                self.end_item(at);
                return at;
            }
            if let Some(len) = self.closer_len_at(j, string.quote) {
                match self.at_quote(j, len, string, last_comma) {
                    Some(end) => return end,
                    None => {
                        string.inner += usize::from(byte == b'"');
                        j += len;
                        last_comma = None;
                        continue;
                    }
                }
            }
            if byte == 0xe2 && string.quote == Quote::Double && self.curly_double_at(j) {
                // `„autocritică"`: a typographic quote pairs with a straight one.
                string.inner += 1;
            }
            if !self.copy_text_byte(j, &mut last_comma) {
                return j;
            }
            j += 1;
        }
        if stop < self.limit {
            // The place chosen for the missing quote.
            if !self.inner_quotes_pair(string, stop) {
                return stop;
            }
            self.fix(RepairKind::Lenient(Defect::UnterminatedString), stop);
            self.out.push(b'"');
            self.end_item(stop);
            return stop;
        }
        self.unterminated(from, string, marks)
    }

    /// A backslash in a string body at `j`: an escaped closing quote ends the string, else
    /// the escape is read. `Err(end)` when the body ends here, `Ok(next)` where it goes on.
    fn backslash(
        &mut self,
        j: usize,
        from: usize,
        string: Body,
        stop: usize,
    ) -> Result<usize, usize> {
        if self.escaped_close_at(j, from, string) {
            return Err(self.close_escaped(j));
        }
        if self.refused.is_some() {
            return Err(j);
        }
        if j + 1 >= stop && stop < self.limit {
            self.guess(
                j,
                "a backslash just before the place the closing quote belongs",
            );
            return Err(j);
        }
        let next = self.escape(j, string.quote);
        if self.refused.is_some() {
            return Err(next);
        }
        Ok(next)
    }

    /// Where a string of straight double quotes ends, the quotes it holds as text (straight
    /// or typographic) must pair up (`"a "big" deal"`); an odd one out may have been where
    /// it ended.
    pub(super) fn inner_quotes_pair(&mut self, string: Body, at: usize) -> bool {
        if string.quote != Quote::Double || string.inner.is_multiple_of(2) {
            return true;
        }
        self.guess(
            at,
            "an odd number of `\"` inside the string: one of them may be where it ends",
        );
        false
    }

    /// Copy one byte of a string's text, escaping what JSON needs escaped; false when the
    /// byte cannot be in a string (the reading is refused).
    fn copy_text_byte(&mut self, j: usize, last_comma: &mut Option<(usize, usize)>) -> bool {
        let byte = self.bytes[j];
        match byte {
            b'\n' | b'\r' | b'\t' => {
                self.fix(RepairKind::RawControlChar, j);
                self.out.extend_from_slice(match byte {
                    b'\n' => b"\\n",
                    b'\r' => b"\\r",
                    _ => b"\\t",
                });
            }
            0..=0x1f => {
                self.refuse(j, "a raw control character inside a string");
                return false;
            }
            b'"' => self.out.extend_from_slice(b"\\\""),
            b',' => {
                *last_comma = Some((j, self.out.len()));
                self.out.push(b',');
            }
            _ => {
                if !byte.is_ascii_whitespace() {
                    *last_comma = None;
                }
                self.out.push(byte);
            }
        }
        true
    }

    fn curly_double_at(&self, j: usize) -> bool {
        matches!(self.char_at(j), Some('\u{201c}' | '\u{201d}' | '\u{201e}'))
    }

    fn closer_len_at(&self, j: usize, quote: Quote) -> Option<usize> {
        self.text
            .get(j..self.limit)
            .and_then(|rest| quote.closer_len(rest))
    }

    /// A backslash escape inside a string.
    fn escape(&mut self, j: usize, quote: Quote) -> usize {
        let Some(&escaped) = self.bytes.get(j + 1).filter(|_| j + 1 < self.limit) else {
            self.out.push(b'\\');
            return j + 1;
        };
        match escaped {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.out.extend_from_slice(&[b'\\', escaped]);
            }
            b'u' => {
                let hex = self.bytes.get(j + 2..j + 6).filter(|_| j + 6 <= self.limit);
                if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                    self.refuse(j, "`\\u` without four hex digits");
                    return j;
                }
                self.out.extend_from_slice(&self.bytes[j..j + 6]);
                return j + 6;
            }
            b'`' => {
                self.fix(RepairKind::EscapedBacktick, j);
                self.out.push(b'`');
            }
            b'\'' if quote == Quote::Single => self.out.push(b'\''),
            b'\'' | b'_' | b'*' | b'[' | b']' | b'(' | b')' | b'#' | b'+' | b'-' | b'!' | b'>'
            | b'<' | b'|' | b'~' | b'{' | b'}' | b'.' | b'&' | b'$' | b'%' | b'@' | b',' | b';'
            | b':' | b'=' | b'?' => {
                // Markdown (or JavaScript) escaped a character that needs none.
                self.fix(RepairKind::Lenient(Defect::InvalidEscape), j);
                self.out.push(escaped);
            }
            0x80.. if matches!(self.char_at(j + 1), Some('\u{2018}'..='\u{201f}')) => {
                // `\„`: a typographic quote escaped as if it could end the string.
                self.fix(RepairKind::Lenient(Defect::InvalidEscape), j);
                let len = self.char_at(j + 1).map_or(1, char::len_utf8);
                self.out.extend_from_slice(&self.bytes[j + 1..j + 1 + len]);
                return j + 1 + len;
            }
            _ => {
                // `\d`, `C:\Users`: a backslash meant literally, or a letter
                // escaped for no reason? Two readings.
                self.guess(
                    j,
                    "a backslash before a letter or digit: a literal backslash or a stray escape",
                );
                return j;
            }
        }
        j + 2
    }
}

/// How many bytes at the start of `bytes` a string body copies unchanged with nothing to
/// decide: no escape, quote (straight, or the lead byte of a typographic one), colon,
/// comma or control character.
fn plain_run(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b < 0x20 || matches!(b, b'"' | b'\'' | b'\\' | b':' | b',' | 0xe2))
        .unwrap_or(bytes.len())
}
