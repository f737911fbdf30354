//! Strings: any quote style in, a double-quoted JSON string out. A quote in
//! the middle of a string ends it only where the structure after it says a
//! string ends there; otherwise it was meant as text and is escaped.

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
}

/// What a quote met inside a string is.
enum Reading {
    Closes,
    /// Text: the model meant a quote character.
    Inner,
    /// The string's closing quote is missing before the comma at this offset.
    MissedBefore,
    Ambiguous(&'static str),
}

/// What a quote met inside a string turned out to be.
enum QuoteMet {
    /// Text: the string goes on after it.
    Text,
    /// The string (or the reading) ends; go on from here.
    Ends(usize),
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
        let open_len = self.char_at(open).map_or(1, char::len_utf8);
        let mut body = open + open_len;
        let mut doubled = false;
        if quote == Quote::Double
            && self.bytes.get(body) == Some(&b'"')
            && body + 1 < self.limit
            && !self.ends_token(body + 1, key)
        {
            // `""x""`: the quotes were doubled.
            self.fix(RepairKind::Lenient(Defect::DoubledQuotes), open);
            doubled = true;
            body += 1;
        }
        self.out.push(b'"');
        self.body(body, quote, key, doubled, self.limit)
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
    pub(super) fn body(
        &mut self,
        from: usize,
        quote: Quote,
        key: bool,
        doubled: bool,
        stop: usize,
    ) -> usize {
        let (out_start, repairs_start) = (self.out.len(), self.repairs.len());
        let mut last_comma: Option<(usize, usize)> = None;
        let mut j = from;
        while j < stop {
            let byte = self.bytes[j];
            if byte == b'\\' {
                if j + 1 >= stop && stop < self.limit {
                    self.refuse(
                        j,
                        "a backslash just before the place the closing quote belongs",
                    );
                    return j;
                }
                j = self.escape(j, quote);
                if self.refused.is_some() {
                    return j;
                }
                last_comma = None;
                continue;
            }
            if let Some(len) = self.closer_len_at(j, quote, doubled) {
                match self.at_quote(j, len, quote, key, last_comma) {
                    QuoteMet::Text => {
                        j += len;
                        last_comma = None;
                        continue;
                    }
                    QuoteMet::Ends(at) => return at,
                }
            }
            if !self.copy_text_byte(j, &mut last_comma) {
                return j;
            }
            j += 1;
        }
        if stop < self.limit {
            // The place chosen for the missing quote.
            self.fix(RepairKind::Lenient(Defect::UnterminatedString), stop);
            self.out.push(b'"');
            self.end_item(stop);
            return stop;
        }
        self.unterminated(from, quote, key, doubled, (out_start, repairs_start))
    }

    /// A quote of the string's kind at `j` (`len` bytes): the end of the string, text, a
    /// closing quote missing before the last comma, or a guess refused.
    fn at_quote(
        &mut self,
        j: usize,
        len: usize,
        quote: Quote,
        key: bool,
        last_comma: Option<(usize, usize)>,
    ) -> QuoteMet {
        match self.read_quote(j + len, key) {
            Reading::Closes => {
                self.out.push(b'"');
                self.end_item(j + len);
                QuoteMet::Ends(j + len)
            }
            Reading::Inner => {
                if quote == Quote::Double {
                    self.fix(RepairKind::Lenient(Defect::UnescapedQuote), j);
                }
                self.push_inner_quote(j, len);
                QuoteMet::Text
            }
            Reading::MissedBefore if key => {
                self.refuse(j, "a quote inside a key");
                QuoteMet::Ends(j)
            }
            Reading::MissedBefore => match last_comma {
                Some((raw, place)) => {
                    // `"x, "b": …`: the string should have closed before the comma.
                    self.out.truncate(place);
                    self.out.push(b'"');
                    self.fix(RepairKind::Lenient(Defect::UnterminatedString), raw);
                    self.end_item(raw);
                    QuoteMet::Ends(raw)
                }
                None => {
                    self.refuse(j, "a quote inside a string that could end it or be text");
                    QuoteMet::Ends(j)
                }
            },
            Reading::Ambiguous(reason) => {
                self.refuse(j, reason);
                QuoteMet::Ends(j)
            }
        }
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

    fn closer_len_at(&self, j: usize, quote: Quote, doubled: bool) -> Option<usize> {
        let len = self
            .text
            .get(j..self.limit)
            .and_then(|rest| quote.closer_len(rest))?;
        if doubled {
            return (self.bytes.get(j + 1) == Some(&b'"')).then_some(2);
        }
        Some(len)
    }

    fn push_inner_quote(&mut self, j: usize, len: usize) {
        match self.bytes[j] {
            b'"' => self.out.extend_from_slice(b"\\\""),
            _ => self.out.extend_from_slice(&self.bytes[j..j + len]),
        }
    }

    /// Read a quote met inside a string, from the text after it.
    fn read_quote(&self, after: usize, key: bool) -> Reading {
        let (next, at) = self.peek(after);
        let gap = at > after;
        let Some(next) = next else {
            return Reading::Closes;
        };
        if key {
            // `"a" 1`, `"a" true`: a key followed by its value, the colon left out.
            return if next == b':' || (gap && self.starts_clear_value(at)) {
                Reading::Closes
            } else {
                Reading::Inner
            };
        }
        let in_object = self.stack.last().is_some_and(|f| f.closer == b'}');
        match next {
            b',' => {
                let (after_comma, _) = self.peek(at + 1);
                let fits = match after_comma {
                    None => true,
                    Some(b'"' | b'\'' | b'}') => true,
                    Some(b) if b >= 0x80 => self.quote_at(self.peek(at + 1).1).is_some(),
                    Some(b) if in_object => b.is_ascii_alphanumeric() || b == b'_' || b == b'$',
                    Some(_) => true,
                };
                if fits {
                    Reading::Closes
                } else {
                    Reading::Inner
                }
            }
            b'}' | b']' => self.read_closer_after_quote(at),
            b':' => Reading::Ambiguous("a quote before a colon inside a string value"),
            b'"' | b'\'' | b'{' | b'[' if gap => Reading::Closes,
            b if b >= 0x80 && gap && self.quote_at(at).is_some() => Reading::Closes,
            _ if in_object && self.looks_like_key(after) => Reading::MissedBefore,
            _ => Reading::Inner,
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
    fn starts_clear_value(&self, at: usize) -> bool {
        let rest = &self.bytes[at..self.limit];
        let word_end = rest
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        match rest.first() {
            Some(b'"' | b'{' | b'[' | b'-' | b'0'..=b'9') => true,
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
            _ => {
                // `\d`, `C:\Users`: a backslash meant literally, or a letter
                // escaped for no reason? Two readings.
                self.refuse(
                    j,
                    "a backslash before a letter or digit: a literal backslash or a stray escape",
                );
                return j;
            }
        }
        j + 2
    }

    /// The string ran to the end of the candidate: if its text then closes
    /// every open bracket, the closing quote belongs before those closers.
    fn unterminated(
        &mut self,
        from: usize,
        quote: Quote,
        key: bool,
        doubled: bool,
        (out_start, repairs_start): (usize, usize),
    ) -> usize {
        let Some(suffix) = self.closing_suffix(from).filter(|_| !key) else {
            return self.limit;
        };
        let content = &self.bytes[from..suffix];
        let quote_by_separator = content
            .windows(2)
            .any(|w| matches!(w, [b'\'' | b'"', b',' | b':'] | [b',' | b':', b'\'' | b'"']))
            || content.windows(3).any(|w| {
                matches!(
                    w,
                    [b'\'' | b'"', b' ', b',' | b':'] | [b',' | b':', b' ', b'\'' | b'"']
                )
            });
        if quote_by_separator {
            self.refuse(
                from,
                "a string without its closing quote whose text holds more keys or items",
            );
            return self.limit;
        }
        self.out.truncate(out_start);
        self.repairs.truncate(repairs_start);
        self.body(from, quote, key, doubled, suffix)
    }

    /// Where the text from `from` to the end is white space and exactly the
    /// closers of every open bracket, innermost first.
    fn closing_suffix(&self, from: usize) -> Option<usize> {
        let mut at = self.limit;
        let mut frames = self.stack.iter();
        while at > from {
            let byte = self.bytes[at - 1];
            at -= 1;
            if byte.is_ascii_whitespace() {
                continue;
            }
            if byte != frames.next()?.closer {
                return None;
            }
            if frames.len() == 0 {
                return (at > from).then_some(at);
            }
        }
        None
    }
}
