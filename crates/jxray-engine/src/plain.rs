//! Compact text written in one pass from a candidate that is strict JSON (no number with
//! an exponent, no key with an escape, no repeated key, no string that may hold JSON, no lone
//! surrogate, no object of more than [`KEYS`] members, at most [`DEPTH`] levels deep): the
//! text [`compact`](super::compact::compact) writes for it, without serde_json reading it
//! and handing each token to a visitor, and without checking its own output again.
//!
//! Such a text is what serializing its tree writes once the white space between tokens is
//! dropped: a string without an escape is written as the model wrote it, one with escapes as
//! serde_json escapes what it reads, and a number without an exponent keeps its digits.
//! Anything else, valid or not, is left to `compact` (`None`), which decides as it always has.

use super::compact::escape_into;
use super::outcome::JsonText;
use super::scan::plain_end;
use super::stringified::looks_like_json;

/// Deeper text is left to `compact` (serde_json's own limit is 128).
const DEPTH: usize = 126;
/// An object with more members is left to `compact` (its keys are compared one by one).
const KEYS: usize = 32;

/// The compact text of `text`, when it is strict JSON of the shape above; `None` leaves
/// `text` to [`compact`](super::compact::compact).
pub(crate) fn compact_strict(text: &str) -> Option<JsonText> {
    let bytes = text.as_bytes();
    // Compact text is never longer: white space goes, and an escape is written back no
    // longer than it was.
    let mut out = Vec::with_capacity(bytes.len());
    // The open containers (`{` or `[`), and the keys of the open objects with their depth,
    // innermost last.
    let mut open: Vec<u8> = Vec::new();
    let mut keys: Vec<(usize, &str)> = Vec::new();
    let mut i = skip_space(bytes, 0);
    'value: loop {
        match *bytes.get(i)? {
            opener @ (b'{' | b'[') if open.len() < DEPTH => {
                open.push(opener);
                out.push(opener);
                i = skip_space(bytes, i + 1);
                // `}` and `]` are two past their openers.
                if bytes.get(i) == Some(&(opener + 2)) {
                    open.pop();
                    out.push(opener + 2);
                    i += 1;
                } else {
                    if opener == b'{' {
                        i = key(text, i, open.len(), &mut keys, &mut out)?;
                    }
                    continue 'value;
                }
            }
            b'"' => i = string_value(text, i, &mut out)?,
            b't' => i = literal(bytes, i, b"true", &mut out)?,
            b'f' => i = literal(bytes, i, b"false", &mut out)?,
            b'n' => i = literal(bytes, i, b"null", &mut out)?,
            _ => i = number(bytes, i, &mut out)?,
        }
        // After a value: a comma and the next one, or closers.
        loop {
            i = skip_space(bytes, i);
            let Some(&top) = open.last() else {
                break 'value;
            };
            match *bytes.get(i)? {
                b',' => {
                    out.push(b',');
                    i = skip_space(bytes, i + 1);
                    if top == b'{' {
                        i = key(text, i, open.len(), &mut keys, &mut out)?;
                    }
                    continue 'value;
                }
                closer if closer == top + 2 => {
                    let depth = open.len();
                    while keys.last().is_some_and(|&(at, _)| at == depth) {
                        keys.pop();
                    }
                    open.pop();
                    out.push(closer);
                    i += 1;
                }
                _ => return None,
            }
        }
    }
    if i != bytes.len() {
        return None;
    }
    String::from_utf8(out).ok().map(JsonText::compacted)
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// A key without an escape at `start`, in the object `depth` deep, and its colon: where its
/// value starts, unless it repeats a key of its object or the object has too many.
fn key<'t>(
    text: &'t str,
    start: usize,
    depth: usize,
    keys: &mut Vec<(usize, &'t str)>,
    out: &mut Vec<u8>,
) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.get(start) != Some(&b'"') {
        return None;
    }
    let end = plain_end(bytes, start + 1, bytes.len());
    if bytes.get(end) != Some(&b'"') {
        return None;
    }
    let name = &text[start + 1..end];
    let siblings = keys.iter().rev().take_while(|&&(at, _)| at == depth);
    for (count, &(_, sibling)) in siblings.enumerate() {
        if sibling == name || count == KEYS {
            return None;
        }
    }
    keys.push((depth, name));
    out.extend_from_slice(&bytes[start..=end]);
    let colon = skip_space(bytes, end + 1);
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    out.push(b':');
    Some(skip_space(bytes, colon + 1))
}

/// `true`, `false` or `null` at `start`: where it ends.
fn literal(bytes: &[u8], start: usize, word: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    let end = start + word.len();
    (bytes.get(start..end) == Some(word)).then(|| {
        out.extend_from_slice(word);
        end
    })
}

/// A number without an exponent (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`) at `start`: where it ends.
fn number(bytes: &[u8], start: usize, out: &mut Vec<u8>) -> Option<usize> {
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |at| from + at)
    };
    let mut i = start + usize::from(bytes[start] == b'-');
    i = match bytes.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(i + 1),
        _ => return None,
    };
    if bytes.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return None;
        }
        i = end;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E' | b'0'..=b'9')) {
        return None;
    }
    out.extend_from_slice(&bytes[start..i]);
    Some(i)
}

/// A string value at `start`: where it ends, unless it may hold JSON (or is not strict).
fn string_value(text: &str, start: usize, out: &mut Vec<u8>) -> Option<usize> {
    let bytes = text.as_bytes();
    let end = plain_end(bytes, start + 1, bytes.len());
    if bytes.get(end) != Some(&b'"') {
        return escaped_value(text, start, end, out);
    }
    let body = &text[start + 1..end];
    if may_look_like_json(body) && looks_like_json(body) {
        return None;
    }
    out.extend_from_slice(&bytes[start..=end]);
    Some(end + 1)
}

/// Whether a string may look like JSON: not when it starts with an ASCII character that is
/// neither white space nor an opener (trimming could not move past it).
fn may_look_like_json(read: &str) -> bool {
    read.as_bytes()
        .first()
        .is_some_and(|&b| !b.is_ascii() || matches!(b, b'{' | b'[' | b'\t'..=b'\r' | b' '))
}

/// A string value at `start` whose plain bytes end at `end` on an escape: what it reads as,
/// written as serde_json writes it; where it ends. `None` for a control character, an
/// escape JSON does not have, a lone surrogate, or a string that may hold JSON.
fn escaped_value(text: &str, start: usize, mut end: usize, out: &mut Vec<u8>) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut read = String::new();
    let mut copied = start + 1;
    while bytes.get(end)? == &b'\\' {
        read.push_str(&text[copied..end]);
        let (c, len) = escape(bytes, end)?;
        read.push(c);
        copied = end + len;
        end = plain_end(bytes, copied, bytes.len());
    }
    if bytes.get(end)? != &b'"' {
        return None;
    }
    read.push_str(&text[copied..end]);
    if looks_like_json(&read) {
        return None;
    }
    let mut written = String::with_capacity(read.len() + 2);
    written.push('"');
    escape_into(&mut written, &read);
    written.push('"');
    out.extend_from_slice(written.as_bytes());
    Some(end + 1)
}

/// The character the escape at `at` stands for, and the escape's length.
fn escape(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let c = match bytes.get(at + 1)? {
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return unicode(bytes, at),
        &b @ (b'"' | b'\\' | b'/') => char::from(b),
        _ => return None,
    };
    Some((c, 2))
}

/// The character a `\u` escape at `at` stands for (two, for a surrogate pair), and their
/// length.
fn unicode(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let unit = |at: usize| {
        let hex = bytes.get(at + 2..at + 6)?;
        let hex = std::str::from_utf8(hex).ok()?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(hex, 16).ok()
    };
    let first = unit(at)?;
    if !(0xd800..0xdc00).contains(&first) {
        return char::from_u32(first).map(|c| (c, 6));
    }
    if bytes.get(at + 6..at + 8) != Some(b"\\u") {
        return None;
    }
    let second = unit(at + 6).filter(|low| (0xdc00..0xe000).contains(low))?;
    char::from_u32(0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00)).map(|c| (c, 12))
}

/// The length of `text`'s compact form, when `text` is strict JSON without a `\u` escape:
/// its bytes less the white space between tokens and the backslash of each `\/` (the only
/// escape such a text may write two ways). Two texts of one value have the same.
pub(crate) fn compact_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut len = 0;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if byte != b'"' {
            len += usize::from(!matches!(byte, b' ' | b'\t' | b'\n' | b'\r'));
            i += 1;
            continue;
        }
        let start = i;
        i = plain_end(bytes, i + 1, bytes.len());
        while bytes.get(i) == Some(&b'\\') {
            len -= usize::from(bytes.get(i + 1) == Some(&b'/'));
            i = plain_end(bytes, i + 2, bytes.len());
        }
        i += 1;
        len += i.min(bytes.len()) - start;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compact::{compact, Compacted};

    fn serde_compact(text: &str) -> Option<String> {
        match compact(text).expect("valid JSON") {
            Compacted::Text(json) => Some(json.get().to_owned()),
            Compacted::NeedsTree => None,
        }
    }

    #[test]
    fn writes_what_compact_writes() {
        for text in [
            r#" { "b" : 1 , "a" : [ true , null , false ] , "e" : { } , "f" : [ ] } "#,
            r#"{"big": 18446744073709551617, "z": -0, "d": 0.100, "n": -12.5, "i": -3}"#,
            r#"{"esc": "a\"b\\c\/d\b\f\n\r\t \\/ \\\/", "k/": 1, "x": "\\"}"#,
            r#""just a string""#,
            "  42  ",
            "true",
            r#"[[], [[]], {"a": {"b": {"c": []}}}]"#,
            "{\"s\": \"not {json\", \"t\": \"[1] and more\", \"u\": \"é ü 😀 \u{7f}\"}",
            r#"[{"a": 1}, {"a": 2}, {"b": {"a": 3}}]"#,
            r#"{"u": "\u00e9\ud83d\ude00\u0001\u001F\u007f\u0022\u005c\u002f\u0000", "kA": 1}"#,
            r#"["\u005b1", " \u007b", "{\u0020"]"#,
        ] {
            let ours = compact_strict(text).map(|json| json.get().to_owned());
            assert_eq!(ours, serde_compact(text), "{text}");
            assert!(ours.is_some(), "{text}");
            if !text.contains("\\u") {
                assert_eq!(
                    compact_len(text),
                    ours.map_or(0, |json| json.len()),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn leaves_to_compact_what_needs_the_tree_or_an_exponent() {
        for text in [
            r#"{"a": 1, "b": 2, "a": 3}"#,
            r#"{"a\/": 1, "a/": 2}"#,
            r#"{"args": " {\"q\": 1} "}"#,
            r#"["\n[1, 2]\t"]"#,
            r#""{}""#,
            "[1e5]",
            r#"{"x": 2.5E-3}"#,
            r#"{"a": "x", "\u0061": "y"}"#,
            r#"{"k\n": 1}"#,
            r#"["\u005b1]"]"#,
            r#"[" \u007b\u007d\t"]"#,
        ] {
            assert!(compact_strict(text).is_none(), "{text}");
        }
        for invalid in [
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "-",
            "[",
            r#""\u12""#,
        ] {
            assert!(compact_strict(invalid).is_none(), "{invalid}");
        }
    }
}
