//! A strict RFC 8259 validator that says exactly where and why a value ends.
//!
//! It is iterative (an explicit stack, bounded by `max_depth`), runs in one
//! pass over the bytes, and reports three things serde_json cannot: where a
//! value ends inside a longer text, which lossless repairs it needed, and
//! which `{` / `[` were structural parts of the value (so the scanned layer
//! never offers a fragment of a larger value as an answer).

use super::outcome::RepairKind;
use super::space::skip_json_space;

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
    mut structural: Option<&mut OffsetSet>,
    stack: &mut Vec<(u8, usize)>,
) -> Scan {
    let limit = limit.min(bytes.len());
    let mut repairs = Vec::new();
    // Each open container: its bracket and where it opened.
    stack.clear();
    let mut expect = Expect::Value;
    let mut after_comma = false;
    let mut i = start;

    let invalid = |at, problem, after_comma, repairs| Scan {
        end: ScanEnd::Invalid {
            at,
            problem,
            after_comma,
        },
        repairs,
    };

    loop {
        i = skip_json_space(bytes, i, limit);
        if i >= limit {
            let (inside, opened_at) = match stack.last() {
                Some(&(b'{', at)) => (Open::Object, at),
                Some(&(_, at)) => (Open::Array, at),
                // Nothing at all where a value was expected.
                None => (Open::Literal, start),
            };
            return Scan {
                end: ScanEnd::Truncated { inside, opened_at },
                repairs,
            };
        }
        let byte = bytes[i];
        let value_done: bool;
        match expect {
            Expect::Colon => {
                if byte != b':' {
                    return invalid(i, Problem::Unexpected(expect), false, repairs);
                }
                i += 1;
                expect = Expect::Value;
                continue;
            }
            Expect::CommaOrClose => {
                let top = stack.last().map_or(b'[', |&(bracket, _)| bracket);
                match byte {
                    b',' => {
                        i += 1;
                        expect = if top == b'{' {
                            Expect::Key
                        } else {
                            Expect::Value
                        };
                        after_comma = true;
                        continue;
                    }
                    b'}' if top == b'{' => {}
                    b']' if top == b'[' => {}
                    b'}' | b']' => return invalid(i, Problem::MismatchedBracket, false, repairs),
                    _ => return invalid(i, Problem::Unexpected(expect), false, repairs),
                }
                stack.pop();
                i += 1;
                value_done = true;
            }
            Expect::Key | Expect::KeyOrClose => match byte {
                b'"' => {
                    match scan_string(bytes, i, limit, &mut repairs) {
                        Ok(end) => i = end,
                        Err(end) => return Scan { end, repairs },
                    }
                    expect = Expect::Colon;
                    after_comma = false;
                    continue;
                }
                b'}' if expect == Expect::KeyOrClose => {
                    stack.pop();
                    i += 1;
                    value_done = true;
                }
                b']' if expect == Expect::KeyOrClose => {
                    return invalid(i, Problem::MismatchedBracket, false, repairs)
                }
                _ => return invalid(i, Problem::Unexpected(expect), after_comma, repairs),
            },
            Expect::Value | Expect::ValueOrClose => match byte {
                b'{' | b'[' => {
                    if stack.len() >= max_depth {
                        return invalid(i, Problem::TooDeep, false, repairs);
                    }
                    if let Some(set) = structural.as_deref_mut() {
                        set.insert(i);
                    }
                    stack.push((byte, i));
                    expect = if byte == b'{' {
                        Expect::KeyOrClose
                    } else {
                        Expect::ValueOrClose
                    };
                    after_comma = false;
                    i += 1;
                    continue;
                }
                b']' if expect == Expect::ValueOrClose => {
                    stack.pop();
                    i += 1;
                    value_done = true;
                }
                b'}' if expect == Expect::ValueOrClose => {
                    return invalid(i, Problem::MismatchedBracket, false, repairs)
                }
                b'"' => {
                    match scan_string(bytes, i, limit, &mut repairs) {
                        Ok(end) => i = end,
                        Err(end) => return Scan { end, repairs },
                    }
                    value_done = true;
                }
                b'-' | b'0'..=b'9' => {
                    match scan_number(bytes, i, limit) {
                        Ok(end) => i = end,
                        Err(end) => return Scan { end, repairs },
                    }
                    value_done = true;
                }
                b't' | b'f' | b'n' => {
                    let word: &[u8] = match byte {
                        b't' => b"true",
                        b'f' => b"false",
                        _ => b"null",
                    };
                    for (k, &expected) in word.iter().enumerate() {
                        if i + k >= limit {
                            return Scan {
                                end: ScanEnd::Truncated {
                                    inside: Open::Literal,
                                    opened_at: i,
                                },
                                repairs,
                            };
                        }
                        if bytes[i + k] != expected {
                            return invalid(i, Problem::Unexpected(expect), after_comma, repairs);
                        }
                    }
                    i += word.len();
                    value_done = true;
                }
                _ => return invalid(i, Problem::Unexpected(expect), after_comma, repairs),
            },
        }
        if value_done {
            after_comma = false;
            if stack.is_empty() {
                return Scan {
                    end: ScanEnd::Complete { end: i },
                    repairs,
                };
            }
            expect = Expect::CommaOrClose;
        }
    }
}

/// Scan a string that opens at `start`; `Ok` is the offset after its closing quote.
fn scan_string(
    bytes: &[u8],
    start: usize,
    limit: usize,
    repairs: &mut Vec<(RepairKind, usize)>,
) -> Result<usize, ScanEnd> {
    let truncated = ScanEnd::Truncated {
        inside: Open::String,
        opened_at: start,
    };
    let mut j = start + 1;
    loop {
        // Plain bytes are the common case: skip them in a tight loop.
        while j < limit && !matches!(bytes[j], b'"' | b'\\' | 0..=0x1f) {
            j += 1;
        }
        if j >= limit {
            return Err(truncated);
        }
        match bytes[j] {
            b'"' => return Ok(j + 1),
            b'\\' => {
                let Some(&escaped) = bytes.get(j + 1).filter(|_| j + 1 < limit) else {
                    return Err(truncated);
                };
                match escaped {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                    b'`' => {
                        repairs.push((RepairKind::EscapedBacktick, j));
                        j += 2;
                    }
                    b'u' => {
                        for k in 2..6 {
                            if j + k >= limit {
                                return Err(truncated);
                            }
                            if !bytes[j + k].is_ascii_hexdigit() {
                                return Err(bad(j, Problem::BadEscape));
                            }
                        }
                        j += 6;
                    }
                    _ => return Err(bad(j, Problem::BadEscape)),
                }
            }
            b'\n' | b'\r' | b'\t' => {
                repairs.push((RepairKind::RawControlChar, j));
                j += 1;
            }
            _ => return Err(bad(j, Problem::ControlChar)),
        }
    }
}

fn bad(at: usize, problem: Problem) -> ScanEnd {
    ScanEnd::Invalid {
        at,
        problem,
        after_comma: false,
    }
}

/// Scan a number that starts at `start`; `Ok` is the offset after it.
fn scan_number(bytes: &[u8], start: usize, limit: usize) -> Result<usize, ScanEnd> {
    let truncated = ScanEnd::Truncated {
        inside: Open::Literal,
        opened_at: start,
    };
    let digits = |mut j: usize| -> Result<usize, ScanEnd> {
        if j >= limit {
            return Err(truncated);
        }
        if !bytes[j].is_ascii_digit() {
            return Err(bad(j, Problem::BadNumber));
        }
        while j < limit && bytes[j].is_ascii_digit() {
            j += 1;
        }
        Ok(j)
    };
    let mut j = start;
    if bytes[j] == b'-' {
        j += 1;
    }
    if j >= limit {
        return Err(truncated);
    }
    if bytes[j] == b'0' {
        j += 1;
        if j < limit && bytes[j].is_ascii_digit() {
            return Err(bad(start, Problem::LeadingZero));
        }
    } else {
        j = digits(j)?;
    }
    if j < limit && bytes[j] == b'.' {
        j = digits(j + 1)?;
    }
    if j < limit && matches!(bytes[j], b'e' | b'E') {
        j += 1;
        if j < limit && matches!(bytes[j], b'+' | b'-') {
            j += 1;
        }
        j = digits(j)?;
    }
    Ok(j)
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
