//! A strict RFC 8259 validator that says exactly where and why a value ends.
//!
//! It is iterative (an explicit stack, bounded by `max_depth`), runs in one
//! pass over the bytes, and reports three things serde_json cannot: where a
//! value ends inside a longer text, which lossless repairs it needed, and
//! which `{` / `[` were structural parts of the value (so the scanned layer
//! never offers a fragment of a larger value as an answer).

use super::outcome::RepairKind;
use super::space::skip_json_space;
use token::scan_string;
pub(crate) use token::{plain_end, scan_number};

mod token;

/// What the validator was waiting for when it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    Value,
    ValueOrClose,
    Key,
    KeyOrClose,
    Colon,
    CommaOrClose,
}

/// The kind of token or container that was still open at end of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Open {
    String,
    Object,
    Array,
    Literal,
}

impl Open {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Open::String => "string",
            Open::Object => "object",
            Open::Array => "array",
            Open::Literal => "number or literal",
        }
    }
}

/// Why a candidate is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Problem {
    Unexpected(Expect),
    BadEscape,
    ControlChar,
    BadNumber,
    /// `007`: a zero followed by more digits.
    LeadingZero,
    /// A `}` closing a `[`, or a `]` closing a `{`.
    MismatchedBracket,
    TooDeep,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScanEnd {
    /// A whole value ends at `end` (exclusive).
    Complete { end: usize },
    /// End of input inside an open token or container that opened at `opened_at`.
    Truncated { inside: Open, opened_at: usize },
    /// The first byte that cannot continue a JSON value.
    Invalid {
        at: usize,
        problem: Problem,
        after_comma: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Scan {
    pub end: ScanEnd,
    /// Lossless repairs needed, at absolute byte offsets.
    pub repairs: Vec<(RepairKind, usize)>,
    /// The input ended right after a whole item inside open brackets: only closers are
    /// missing (`{"a": [1, 2`), not a piece of a token or a member.
    pub closable: bool,
    /// The most containers open at once.
    pub deepest: usize,
}

/// A set of byte offsets: the `{` / `[` that were part of an earlier candidate.
pub(crate) struct OffsetSet {
    words: Vec<u64>,
}

impl OffsetSet {
    pub(crate) fn new(len: usize) -> OffsetSet {
        OffsetSet {
            words: vec![0; len / 64 + 1],
        }
    }

    pub(crate) fn insert(&mut self, offset: usize) {
        if let Some(word) = self.words.get_mut(offset / 64) {
            *word |= 1 << (offset % 64);
        }
    }

    pub(crate) fn contains(&self, offset: usize) -> bool {
        self.words
            .get(offset / 64)
            .is_some_and(|word| word & (1 << (offset % 64)) != 0)
    }
}

/// Validate one JSON value that starts at `start` and may not run past `limit`.
///
/// `structural`, when given, receives the offset of every `{` / `[` that was
/// opened as part of this value.
pub(crate) fn scan_value(
    bytes: &[u8],
    start: usize,
    limit: usize,
    max_depth: usize,
    structural: Option<&mut OffsetSet>,
) -> Scan {
    scan_value_with(bytes, start, limit, max_depth, structural, &mut Vec::new())
}

/// [`scan_value`] with a caller-owned stack, so a scan of a million
/// candidates does not allocate a million times.
pub(crate) fn scan_value_with(
    bytes: &[u8],
    start: usize,
    limit: usize,
    max_depth: usize,
    structural: Option<&mut OffsetSet>,
    stack: &mut Vec<(u8, usize)>,
) -> Scan {
    stack.clear();
    let mut validator = Validator {
        // Cut at the limit: every read is then bounded by the slice's length alone.
        bytes: &bytes[..limit.min(bytes.len())],
        start,
        max_depth,
        structural,
        stack,
        repairs: Vec::new(),
        expect: Expect::Value,
        after_comma: false,
        i: start,
        deepest: 0,
    };
    let end = validator.run();
    let closable = matches!(end, ScanEnd::Truncated { .. })
        && validator.expect == Expect::CommaOrClose
        && !validator.stack.is_empty();
    Scan {
        end,
        repairs: validator.repairs,
        closable,
        deepest: validator.deepest,
    }
}

/// What one token did to the value being validated.
enum Step {
    /// The grammar moved on; read the next token.
    Next,
    /// A value (scalar or container) just ended.
    ValueDone,
    /// The scan is over.
    End(ScanEnd),
}

/// The validator's state: where it is, what it expects, and what is open.
struct Validator<'b, 's> {
    /// The bytes up to the limit the scan may not run past.
    bytes: &'b [u8],
    start: usize,
    max_depth: usize,
    structural: Option<&'s mut OffsetSet>,
    /// Each open container: its bracket and where it opened.
    stack: &'s mut Vec<(u8, usize)>,
    repairs: Vec<(RepairKind, usize)>,
    expect: Expect,
    after_comma: bool,
    i: usize,
    deepest: usize,
}

impl Validator<'_, '_> {
    fn run(&mut self) -> ScanEnd {
        loop {
            let Some(byte) = self.next_byte() else {
                return self.out_of_input();
            };
            let step = match self.expect {
                Expect::Colon => self.colon(byte),
                Expect::CommaOrClose => self.comma_or_close(byte),
                Expect::Key | Expect::KeyOrClose => self.key(byte),
                Expect::Value | Expect::ValueOrClose => self.value(byte),
            };
            match step {
                Step::Next => {}
                Step::End(end) => return end,
                Step::ValueDone => {
                    if let Some(end) = self.after_value() {
                        return end;
                    }
                }
            }
        }
    }

    /// After a whole value: the commas and closers that follow it, read here up to where
    /// the next key or value is expected (`None`), or to the end of the scan.
    fn after_value(&mut self) -> Option<ScanEnd> {
        loop {
            self.after_comma = false;
            if self.stack.is_empty() {
                return Some(ScanEnd::Complete { end: self.i });
            }
            self.expect = Expect::CommaOrClose;
            let Some(byte) = self.next_byte() else {
                return Some(self.out_of_input());
            };
            match self.comma_or_close(byte) {
                // A closer: its container is another whole value.
                Step::ValueDone => {}
                Step::Next => return None,
                Step::End(end) => return Some(end),
            }
        }
    }

    /// The next byte that is not white space, `self.i` moved to it; `None` at the limit.
    fn next_byte(&mut self) -> Option<u8> {
        // Tokens most often follow one another with no space between them.
        match self.bytes.get(self.i) {
            Some(&byte) if byte > b' ' => Some(byte),
            _ => {
                self.i = skip_json_space(self.bytes, self.i, self.bytes.len());
                self.bytes.get(self.i).copied()
            }
        }
    }

    /// The input ended inside whatever is open.
    fn out_of_input(&self) -> ScanEnd {
        let (inside, opened_at) = match self.stack.last() {
            Some(&(b'{', at)) => (Open::Object, at),
            Some(&(_, at)) => (Open::Array, at),
            // Nothing at all where a value was expected.
            None => (Open::Literal, self.start),
        };
        ScanEnd::Truncated { inside, opened_at }
    }

    fn invalid(&self, problem: Problem, after_comma: bool) -> Step {
        Step::End(ScanEnd::Invalid {
            at: self.i,
            problem,
            after_comma,
        })
    }

    fn colon(&mut self, byte: u8) -> Step {
        if byte != b':' {
            return self.invalid(Problem::Unexpected(self.expect), false);
        }
        self.i += 1;
        self.expect = Expect::Value;
        Step::Next
    }

    fn comma_or_close(&mut self, byte: u8) -> Step {
        let top = self.stack.last().map_or(b'[', |&(bracket, _)| bracket);
        match byte {
            b',' => {
                self.i += 1;
                self.expect = if top == b'{' {
                    Expect::Key
                } else {
                    Expect::Value
                };
                self.after_comma = true;
                Step::Next
            }
            b'}' if top == b'{' => self.close(),
            b']' if top == b'[' => self.close(),
            b'}' | b']' => self.invalid(Problem::MismatchedBracket, false),
            _ => self.invalid(Problem::Unexpected(self.expect), false),
        }
    }

    fn close(&mut self) -> Step {
        self.stack.pop();
        self.i += 1;
        Step::ValueDone
    }

    fn key(&mut self, byte: u8) -> Step {
        match byte {
            b'"' => match self.string() {
                Ok(()) => {
                    self.expect = Expect::Colon;
                    self.after_comma = false;
                    // The colon, read at once (a turn of the loop less per member).
                    match self.next_byte() {
                        Some(byte) => self.colon(byte),
                        None => Step::Next,
                    }
                }
                Err(end) => Step::End(end),
            },
            b'}' if self.expect == Expect::KeyOrClose => self.close(),
            b']' if self.expect == Expect::KeyOrClose => {
                self.invalid(Problem::MismatchedBracket, false)
            }
            _ => self.invalid(Problem::Unexpected(self.expect), self.after_comma),
        }
    }

    fn value(&mut self, byte: u8) -> Step {
        match byte {
            b'{' | b'[' => self.open(byte),
            b']' if self.expect == Expect::ValueOrClose => self.close(),
            b'}' if self.expect == Expect::ValueOrClose => {
                self.invalid(Problem::MismatchedBracket, false)
            }
            b'"' => match self.string() {
                Ok(()) => Step::ValueDone,
                Err(end) => Step::End(end),
            },
            b'-' | b'0'..=b'9' => match scan_number(self.bytes, self.i, self.bytes.len()) {
                Ok(end) => {
                    self.i = end;
                    Step::ValueDone
                }
                Err(end) => Step::End(end),
            },
            b't' | b'f' | b'n' => self.literal(byte),
            _ => self.invalid(Problem::Unexpected(self.expect), self.after_comma),
        }
    }

    fn open(&mut self, byte: u8) -> Step {
        if self.stack.len() >= self.max_depth {
            return self.invalid(Problem::TooDeep, false);
        }
        if let Some(set) = self.structural.as_deref_mut() {
            set.insert(self.i);
        }
        self.stack.push((byte, self.i));
        self.deepest = self.deepest.max(self.stack.len());
        self.expect = if byte == b'{' {
            Expect::KeyOrClose
        } else {
            Expect::ValueOrClose
        };
        self.after_comma = false;
        self.i += 1;
        Step::Next
    }

    // Inlined into its two callers: the string's fast path is most of the grammar's work.
    #[inline(always)]
    fn string(&mut self) -> Result<(), ScanEnd> {
        // Most strings are plain bytes and a closing quote: read here, without a call.
        let plain = plain_end(self.bytes, self.i + 1, self.bytes.len());
        if self.bytes.get(plain) == Some(&b'"') {
            self.i = plain + 1;
            return Ok(());
        }
        self.i = scan_string(
            self.bytes,
            self.i,
            plain,
            self.bytes.len(),
            &mut self.repairs,
        )?;
        Ok(())
    }

    /// `true`, `false` or `null`, starting with `byte`.
    fn literal(&mut self, byte: u8) -> Step {
        let word: &[u8] = match byte {
            b't' => b"true",
            b'f' => b"false",
            _ => b"null",
        };
        for (k, &expected) in word.iter().enumerate() {
            if self.i + k >= self.bytes.len() {
                return Step::End(ScanEnd::Truncated {
                    inside: Open::Literal,
                    opened_at: self.i,
                });
            }
            if self.bytes[self.i + k] != expected {
                return self.invalid(Problem::Unexpected(self.expect), self.after_comma);
            }
        }
        self.i += word.len();
        Step::ValueDone
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Scan {
        scan_value(text.as_bytes(), 0, text.len(), 128, None)
    }

    #[test]
    fn complete_values_end_where_they_end() {
        assert_eq!(
            scan("{\"a\": [1, 2.5e3, true]} tail").end,
            ScanEnd::Complete { end: 23 }
        );
        assert_eq!(scan("-0.5").end, ScanEnd::Complete { end: 4 });
        assert_eq!(scan("\"x\"").end, ScanEnd::Complete { end: 3 });
        assert_eq!(scan("[]").end, ScanEnd::Complete { end: 2 });
    }

    #[test]
    fn end_of_input_inside_anything_is_truncation() {
        let cases = [
            ("{\"a\": \"unfinished", Open::String, 6),
            ("{\"a\": [1, 2,", Open::Array, 6),
            ("{\"a\": 1", Open::Object, 0),
            ("[tr", Open::Literal, 1),
            ("[1, -", Open::Literal, 4),
            ("[\"a\\", Open::String, 1),
        ];
        for (text, inside, opened_at) in cases {
            assert_eq!(
                scan(text).end,
                ScanEnd::Truncated { inside, opened_at },
                "{text}"
            );
        }
    }

    #[test]
    fn invalid_bytes_are_located() {
        let end = scan("{\"total\": 1240,}").end;
        assert_eq!(
            end,
            ScanEnd::Invalid {
                at: 15,
                problem: Problem::Unexpected(Expect::Key),
                after_comma: true
            }
        );
        assert!(matches!(
            scan("[01]").end,
            ScanEnd::Invalid {
                at: 1,
                problem: Problem::LeadingZero,
                ..
            }
        ));
        assert!(matches!(
            scan("[1}").end,
            ScanEnd::Invalid {
                at: 2,
                problem: Problem::MismatchedBracket,
                ..
            }
        ));
        assert!(matches!(
            scan("[\"\\x\"]").end,
            ScanEnd::Invalid {
                at: 2,
                problem: Problem::BadEscape,
                ..
            }
        ));
    }

    #[test]
    fn lossless_repairs_are_recorded_at_their_offsets() {
        let result = scan("{\"a\": \"x\ny\\`z\"}");
        assert_eq!(result.end, ScanEnd::Complete { end: 15 });
        assert_eq!(
            result.repairs,
            vec![
                (RepairKind::RawControlChar, 8),
                (RepairKind::EscapedBacktick, 10)
            ]
        );
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(200);
        let result = scan_value(deep.as_bytes(), 0, deep.len(), 128, None);
        assert_eq!(
            result.end,
            ScanEnd::Invalid {
                at: 128,
                problem: Problem::TooDeep,
                after_comma: false
            }
        );
    }

    #[test]
    fn structural_openers_are_marked() {
        let text = "{\"a\": {\"b\": \"{\"}}";
        let mut set = OffsetSet::new(text.len());
        scan_value(text.as_bytes(), 0, text.len(), 128, Some(&mut set));
        assert!(set.contains(0));
        assert!(set.contains(6));
        assert!(
            !set.contains(13),
            "a brace inside a string is not structural"
        );
    }
}
