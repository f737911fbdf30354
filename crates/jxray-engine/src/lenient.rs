//! The lenient reading: what the model meant, if the meaning-changing fixes
//! (trailing commas, single quotes, unquoted keys, Python literals, comments)
//! are allowed.
//!
//! It rewrites one value in a single forward pass and records every fix at
//! its byte offset. It never adds a closing bracket: truncated input stays
//! truncated, however lenient the reading.

use super::outcome::{Repair, RepairKind};

/// A rewritten candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LenientText {
    /// Where the value ends in the raw text (exclusive).
    pub end: usize,
    pub text: String,
    /// Every fix (lenient and lossless), at absolute offsets, in order.
    pub repairs: Vec<Repair>,
}

/// Rewrite the value that starts at `start`, reading no further than `limit`.
pub(crate) fn rewrite(text: &str, start: usize, limit: usize) -> LenientText {
    Rewriter {
        bytes: text.as_bytes(),
        limit: limit.min(text.len()),
        out: Vec::with_capacity(limit.saturating_sub(start) + 16),
        repairs: Vec::new(),
    }
    .run(start)
}

struct Rewriter<'a> {
    bytes: &'a [u8],
    limit: usize,
    out: Vec<u8>,
    repairs: Vec<Repair>,
}

impl Rewriter<'_> {
    fn fix(&mut self, kind: RepairKind, offset: usize) {
        self.repairs.push(Repair { kind, offset });
    }

    fn run(mut self, start: usize) -> LenientText {
        let mut stack: Vec<u8> = Vec::new();
        let mut expect_key = false;
        let mut i = start;
        while i < self.limit {
            let byte = self.bytes[i];
            match byte {
                b'"' | b'\'' => {
                    i = self.string(i, byte);
                    expect_key = false;
                    if stack.is_empty() {
                        break;
                    }
                    continue;
                }
                b'/' if matches!(self.bytes.get(i + 1), Some(b'/' | b'*')) => {
                    i = self.skip_comment(i);
                    continue;
                }
                b'#' => {
                    i = self.skip_comment(i);
                    continue;
                }
                b',' if matches!(self.next_significant(i + 1), Some(b'}' | b']')) => {
                    self.fix(RepairKind::TrailingComma, i);
                    i += 1;
                    continue;
                }
                b',' => expect_key = stack.last() == Some(&b'{'),
                b'{' | b'[' => {
                    stack.push(byte);
                    expect_key = byte == b'{';
                }
                b'}' | b']' => {
                    stack.pop();
                    expect_key = false;
                    self.out.push(byte);
                    i += 1;
                    if stack.is_empty() {
                        break;
                    }
                    continue;
                }
                b':' => expect_key = false,
                b if b.is_ascii_alphabetic() || b == b'_' || b == b'$' => {
                    i = self.word(i, expect_key);
                    expect_key = false;
                    if stack.is_empty() {
                        break;
                    }
                    continue;
                }
                _ => {}
            }
            self.out.push(byte);
            i += 1;
        }
        LenientText {
            end: i,
            text: String::from_utf8(self.out)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            repairs: self.repairs,
        }
    }

    /// The next byte that is not white space or inside a comment.
    fn next_significant(&self, mut i: usize) -> Option<u8> {
        while i < self.limit {
            match self.bytes[i] {
                b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                b'/' if self.bytes.get(i + 1) == Some(&b'/') => i = self.comment_end(i),
                b'/' if self.bytes.get(i + 1) == Some(&b'*') => i = self.comment_end(i),
                b'#' => i = self.comment_end(i),
                other => return Some(other),
            }
        }
        None
    }

    fn comment_end(&self, i: usize) -> usize {
        let rest = &self.bytes[i..self.limit];
        if rest.starts_with(b"/*") {
            rest.windows(2)
                .skip(2)
                .position(|w| w == b"*/")
                .map_or(self.limit, |at| i + 2 + at + 2)
        } else {
            rest.iter()
                .position(|&b| b == b'\n')
                .map_or(self.limit, |at| i + at)
        }
    }

    fn skip_comment(&mut self, i: usize) -> usize {
        self.fix(RepairKind::Comment, i);
        self.comment_end(i)
    }

    /// Copy a string quoted with `quote`, as a double-quoted JSON string.
    fn string(&mut self, start: usize, quote: u8) -> usize {
        if quote == b'\'' {
            self.fix(RepairKind::SingleQuotes, start);
        }
        self.out.push(b'"');
        let mut j = start + 1;
        while j < self.limit {
            let byte = self.bytes[j];
            match byte {
                b'\\' if j + 1 < self.limit => {
                    let escaped = self.bytes[j + 1];
                    match escaped {
                        b'`' => {
                            self.fix(RepairKind::EscapedBacktick, j);
                            self.out.push(b'`');
                        }
                        b'\'' if quote == b'\'' => self.out.push(b'\''),
                        _ => self.out.extend_from_slice(&[b'\\', escaped]),
                    }
                    j += 2;
                    continue;
                }
                b'\n' | b'\r' | b'\t' => {
                    self.fix(RepairKind::RawControlChar, j);
                    self.out.extend_from_slice(match byte {
                        b'\n' => b"\\n",
                        b'\r' => b"\\r",
                        _ => b"\\t",
                    });
                }
                b'"' if quote == b'\'' => self.out.extend_from_slice(b"\\\""),
                _ if byte == quote => {
                    self.out.push(b'"');
                    return j + 1;
                }
                _ => self.out.push(byte),
            }
            j += 1;
        }
        j
    }

    /// A bare word: a key to quote, a Python literal to respell, or copied as is.
    fn word(&mut self, start: usize, is_key: bool) -> usize {
        let end = self.bytes[start..self.limit]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-'))
            .map_or(self.limit, |at| start + at);
        let word = &self.bytes[start..end];
        if is_key {
            self.fix(RepairKind::UnquotedKey, start);
            self.out.push(b'"');
            self.out.extend_from_slice(word);
            self.out.push(b'"');
            return end;
        }
        let respelled: Option<&[u8]> = match word {
            b"True" => Some(b"true"),
            b"False" => Some(b"false"),
            b"None" => Some(b"null"),
            _ => None,
        };
        match respelled {
            Some(json) => {
                self.fix(RepairKind::PythonLiteral, start);
                self.out.extend_from_slice(json);
            }
            None => self.out.extend_from_slice(word),
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (String, Vec<RepairKind>) {
        let result = rewrite(text, 0, text.len());
        (result.text, result.repairs.iter().map(|r| r.kind).collect())
    }

    #[test]
    fn each_fix_is_made_and_recorded() {
        use RepairKind::*;
        assert_eq!(
            read("{\"a\": 1,}"),
            ("{\"a\": 1}".into(), vec![TrailingComma])
        );
        assert_eq!(
            read("{'a': 'it\\'s \"x\"'}"),
            (
                "{\"a\": \"it's \\\"x\\\"\"}".into(),
                vec![SingleQuotes, SingleQuotes]
            )
        );
        assert_eq!(
            read("{city: \"Paris\"}"),
            ("{\"city\": \"Paris\"}".into(), vec![UnquotedKey])
        );
        assert_eq!(
            read("[True, False, None, true]"),
            ("[true, false, null, true]".into(), vec![PythonLiteral; 3])
        );
        assert_eq!(
            read("{\"a\": 1 // c\n, /* d */ \"b\": 2 # e\n}"),
            ("{\"a\": 1 \n,  \"b\": 2 \n}".into(), vec![Comment; 3])
        );
        assert_eq!(
            read("[1, 2, // last\n]"),
            ("[1, 2 \n]".into(), vec![TrailingComma, Comment])
        );
    }

    #[test]
    fn stops_at_the_end_of_the_value_and_never_closes_truncated_input() {
        let text = "{a: 1} trailing {b: 2}";
        let result = rewrite(text, 0, text.len());
        assert_eq!(result.end, 6);
        assert_eq!(result.text, "{\"a\": 1}");
        assert_eq!(read("[1, 2,").0, "[1, 2,");
    }

    #[test]
    fn offsets_are_absolute() {
        let text = "xx {'a': 1}";
        let result = rewrite(text, 3, text.len());
        assert_eq!(
            result.repairs[0],
            Repair {
                kind: RepairKind::SingleQuotes,
                offset: 4
            }
        );
    }
}
