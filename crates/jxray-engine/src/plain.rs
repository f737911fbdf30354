//! Compact text written in one pass from a candidate that is strict JSON (no number with
//! an exponent, no key with an escape, no repeated key, no string that may hold JSON, no lone
//! surrogate, no object of more than [`KEYS`] members, at most [`DEPTH`] levels deep),
//! without serde_json reading it and handing each token to a visitor.
//!
//! Such a text is what serializing its tree writes once the white space between tokens is
//! dropped: a string without an escape is written as the model wrote it, one with escapes as
//! serde_json escapes what it reads, and a number without an exponent keeps its digits.
//! Anything else valid is left to the decoder ([`Strict::Other`]), and a text that is not
//! JSON at all is said to be so ([`Strict::Invalid`]).

use std::fmt::Write as _;

use super::outcome::{JsonText, RepairKind};
use super::scan::{plain_end, scan_number};
use super::space::{is_json_space, skip_json_space};
use super::stringified::looks_like_json;

/// Deeper text is left to the decoder (serde_json's own limit is 128).
const DEPTH: usize = 126;
/// An object with more members is left to the decoder (its keys are compared one by one).
const KEYS: usize = 32;

/// What [`compact_strict`] made of a text.
pub(crate) enum Strict {
    /// Its compact text.
    Written(JsonText),
    /// Not JSON: serde_json refuses it too.
    Invalid,
    /// JSON this does not write (see the module's words), or may be: the decoder decides.
    Other,
}

/// Why a text is not written here.
enum Leave {
    Invalid,
    Other,
}

/// The compact text of `text`, when it is strict JSON of the shape above.
pub(crate) fn compact_strict(text: &str) -> Strict {
    verdict(write(text, None))
}

/// [`compact_strict`] of `text` once its lossless repairs are made — a raw tab, line feed or
/// carriage return in a string value escaped, an escaped backtick in one unescaped — with
/// the repairs added to `mended` at their offsets, as the grammar finds them: the text is
/// read once, not checked, read by the grammar and repaired first.
pub(crate) fn compact_mending(text: &str, mended: &mut Vec<(RepairKind, usize)>) -> Strict {
    verdict(write(text, Some(mended)))
}

fn verdict(written: Result<JsonText, Leave>) -> Strict {
    match written {
        Ok(json) => Strict::Written(json),
        Err(Leave::Invalid) => Strict::Invalid,
        Err(Leave::Other) => Strict::Other,
    }
}

fn write(text: &str, mut mend: Option<&mut Vec<(RepairKind, usize)>>) -> Result<JsonText, Leave> {
    let bytes = text.as_bytes();
    // Compact text is never longer: white space goes, and an escape is written back no
    // longer than it was.
    let mut out = String::with_capacity(bytes.len());
    // The open containers (`{` or `[`), and the keys of the open objects with their depth,
    // innermost last.
    // (Room for a usual value's nesting and keys, so that neither grows while it is read.)
    let mut open: Vec<u8> = Vec::with_capacity(16);
    let mut keys: Vec<(usize, &str)> = Vec::with_capacity(64);
    // What an escaped string reads as, one string at a time.
    let mut read = String::new();
    let mut i = skip_space(bytes, 0);
    'value: loop {
        match at(bytes, i)? {
            opener @ (b'{' | b'[') => {
                if open.len() == DEPTH {
                    return Err(Leave::Other);
                }
                open.push(opener);
                out.push_str(bracket(opener));
                i = skip_space(bytes, i + 1);
                // `}` and `]` are two past their openers.
                if bytes.get(i) == Some(&(opener + 2)) {
                    open.pop();
                    out.push_str(bracket(opener + 2));
                    i += 1;
                } else {
                    if opener == b'{' {
                        i = key(text, i, open.len(), &mut keys, &mut out)?;
                    }
                    continue 'value;
                }
            }
            b'"' => i = string_value(text, i, &mut out, &mut read, mend.as_deref_mut())?,
            b't' => i = literal(bytes, i, "true", &mut out)?,
            b'f' => i = literal(bytes, i, "false", &mut out)?,
            b'n' => i = literal(bytes, i, "null", &mut out)?,
            _ => i = number(text, i, &mut out)?,
        }
        // After a value: a comma and the next one, or closers.
        loop {
            i = skip_space(bytes, i);
            let Some(&top) = open.last() else {
                break 'value;
            };
            match at(bytes, i)? {
                b',' => {
                    out.push(',');
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
                    out.push_str(bracket(closer));
                    i += 1;
                }
                _ => return Err(Leave::Invalid),
            }
        }
    }
    if i != bytes.len() {
        return Err(Leave::Invalid);
    }
    Ok(JsonText::compacted(out))
}

/// A bracket as text (pushed as a one-byte string: no character to encode).
fn bracket(byte: u8) -> &'static str {
    match byte {
        b'{' => "{",
        b'}' => "}",
        b'[' => "[",
        _ => "]",
    }
}

/// The byte at `i`; the text ends too soon without one.
fn at(bytes: &[u8], i: usize) -> Result<u8, Leave> {
    bytes.get(i).copied().ok_or(Leave::Invalid)
}

fn skip_space(bytes: &[u8], i: usize) -> usize {
    skip_json_space(bytes, i, bytes.len())
}

/// A key without an escape at `start`, in the object `depth` deep, and its colon: where its
/// value starts, unless it repeats a key of its object or the object has too many.
fn key<'t>(
    text: &'t str,
    start: usize,
    depth: usize,
    keys: &mut Vec<(usize, &'t str)>,
    out: &mut String,
) -> Result<usize, Leave> {
    let bytes = text.as_bytes();
    if at(bytes, start)? != b'"' {
        return Err(Leave::Invalid);
    }
    let end = plain_end(bytes, start + 1, bytes.len());
    match at(bytes, end)? {
        b'"' => {}
        b'\\' => return Err(Leave::Other),
        _ => return Err(Leave::Invalid),
    }
    let name = &text[start + 1..end];
    let siblings = keys.iter().rev().take_while(|&&(at, _)| at == depth);
    for (count, &(_, sibling)) in siblings.enumerate() {
        if sibling == name || count == KEYS {
            return Err(Leave::Other);
        }
    }
    keys.push((depth, name));
    out.push_str(&text[start..=end]);
    let colon = skip_space(bytes, end + 1);
    if at(bytes, colon)? != b':' {
        return Err(Leave::Invalid);
    }
    out.push(':');
    Ok(skip_space(bytes, colon + 1))
}

/// `true`, `false` or `null` at `start`: where it ends.
fn literal(bytes: &[u8], start: usize, word: &str, out: &mut String) -> Result<usize, Leave> {
    let end = start + word.len();
    if bytes.get(start..end) != Some(word.as_bytes()) {
        return Err(Leave::Invalid);
    }
    out.push_str(word);
    Ok(end)
}

/// A number without an exponent at `start`, by the grammar's own number rule: where it
/// ends (one with an exponent is the decoder's to spell).
fn number(text: &str, start: usize, out: &mut String) -> Result<usize, Leave> {
    let end = scan_number(text.as_bytes(), start, text.len()).map_err(|_| Leave::Invalid)?;
    let token = &text[start..end];
    if token.bytes().any(|byte| matches!(byte, b'e' | b'E')) {
        return Err(Leave::Other);
    }
    out.push_str(token);
    Ok(end)
}

/// A string value at `start`: where it ends, unless it may hold JSON.
fn string_value(
    text: &str,
    start: usize,
    out: &mut String,
    read: &mut String,
    mend: Option<&mut Vec<(RepairKind, usize)>>,
) -> Result<usize, Leave> {
    let bytes = text.as_bytes();
    let end = plain_end(bytes, start + 1, bytes.len());
    if at(bytes, end)? != b'"' {
        return escaped_value(text, (start, end), out, read, mend);
    }
    let body = &text[start + 1..end];
    if may_look_like_json(body) && looks_like_json(body) {
        return Err(Leave::Other);
    }
    out.push_str(&text[start..=end]);
    Ok(end + 1)
}

/// Whether a string may look like JSON: not when it starts with an ASCII character that is
/// neither white space nor an opener (trimming could not move past it).
fn may_look_like_json(read: &str) -> bool {
    read.as_bytes()
        .first()
        .is_some_and(|&b| !b.is_ascii() || matches!(b, b'{' | b'[' | b'\t'..=b'\r' | b' '))
}

/// A string value at `start` whose plain bytes end at `end` on an escape or a control
/// character: what it reads as, written as serde_json writes it; where it ends. With
/// `mend`, a raw tab, line feed or carriage return reads as itself and an escaped backtick
/// as a backtick, each recorded as its repair.
fn escaped_value(
    text: &str,
    (start, mut end): (usize, usize),
    out: &mut String,
    read: &mut String,
    mut mend: Option<&mut Vec<(RepairKind, usize)>>,
) -> Result<usize, Leave> {
    let bytes = text.as_bytes();
    read.clear();
    let mut copied = start + 1;
    loop {
        let (c, len) = match (at(bytes, end)?, mend.as_deref_mut()) {
            (b'\\', Some(mended)) if bytes.get(end + 1) == Some(&b'`') => {
                mended.push((RepairKind::EscapedBacktick, end));
                ('`', 2)
            }
            (b'\\', _) => escape(bytes, end)?,
            (raw @ (b'\t' | b'\n' | b'\r'), Some(mended)) => {
                mended.push((RepairKind::RawControlChar, end));
                (char::from(raw), 1)
            }
            _ => break,
        };
        read.push_str(&text[copied..end]);
        read.push(c);
        copied = end + len;
        end = plain_end(bytes, copied, bytes.len());
    }
    if at(bytes, end)? != b'"' {
        return Err(Leave::Invalid);
    }
    read.push_str(&text[copied..end]);
    if looks_like_json(read) {
        return Err(Leave::Other);
    }
    out.push('"');
    escape_into(out, read);
    out.push('"');
    Ok(end + 1)
}

/// `text` escaped as serde_json's serializer escapes it: quote, backslash, and control
/// characters (short forms where JSON has them, else `\u00xx`); nothing else.
fn escape_into(out: &mut String, text: &str) {
    let mut start = 0;
    for (at, byte) in text.bytes().enumerate() {
        let short = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "", // `\u00xx`, below
            _ => continue,
        };
        out.push_str(&text[start..at]);
        if short.is_empty() {
            let _ = write!(out, "\\u{byte:04x}");
        } else {
            out.push_str(short);
        }
        start = at + 1;
    }
    out.push_str(&text[start..]);
}

/// The character the escape at `at` stands for, and the escape's length.
fn escape(bytes: &[u8], at: usize) -> Result<(char, usize), Leave> {
    let c = match bytes.get(at + 1).ok_or(Leave::Invalid)? {
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return unicode(bytes, at),
        &b @ (b'"' | b'\\' | b'/') => char::from(b),
        _ => return Err(Leave::Invalid),
    };
    Ok((c, 2))
}

/// The character a `\u` escape at `at` stands for (two, for a surrogate pair), and their
/// length; a lone surrogate is left to the decoder.
fn unicode(bytes: &[u8], at: usize) -> Result<(char, usize), Leave> {
    let unit = |at: usize| {
        let hex = bytes.get(at + 2..at + 6).ok_or(Leave::Invalid)?;
        hex.iter().try_fold(0u32, |unit, &b| {
            let digit = char::from(b).to_digit(16).ok_or(Leave::Invalid)?;
            Ok(unit * 16 + digit)
        })
    };
    let first = unit(at)?;
    if !(0xd800..0xe000).contains(&first) {
        return char::from_u32(first).map(|c| (c, 6)).ok_or(Leave::Other);
    }
    if first >= 0xdc00 || bytes.get(at + 6..at + 8) != Some(b"\\u") {
        return Err(Leave::Other);
    }
    let second = unit(at + 6)?;
    if !(0xdc00..0xe000).contains(&second) {
        return Err(Leave::Other);
    }
    char::from_u32(0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00))
        .map(|c| (c, 12))
        .ok_or(Leave::Other)
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
            len += usize::from(!is_json_space(byte));
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
    use crate::decode::decode;

    /// What serializing the decoded tree writes.
    fn serialized(text: &str) -> String {
        decode(text).expect("valid JSON").0.to_string()
    }

    fn written(text: &str) -> Option<String> {
        match compact_strict(text) {
            Strict::Written(json) => Some(json.get().to_owned()),
            _ => None,
        }
    }

    #[test]
    fn writes_what_serializing_the_tree_writes() {
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
            let ours = written(text);
            assert_eq!(ours.as_deref(), Some(serialized(text).as_str()), "{text}");
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
    fn leaves_to_the_decoder_what_needs_the_tree_an_exponent_or_a_lone_surrogate() {
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        let many = format!("{{{}}}", many.join(", "));
        let deep = format!("{}{}", "[".repeat(127), "]".repeat(127));
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
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            &many,
            &deep,
        ] {
            assert!(matches!(compact_strict(text), Strict::Other), "{text}");
        }
    }

    #[test]
    fn mending_writes_what_the_repaired_text_writes() {
        for text in [
            "{\"a\": \"x\ny\", \"b\": [\"t\tu\\`v\"]}",
            "[\"\\`\", \"\r\", 1]",
            "{\"k\": \"a\\`b\\n\\u00e9\nc\"}",
        ] {
            let scan = crate::scan::scan_value(text.as_bytes(), 0, text.len(), DEPTH, None);
            let repairs: Vec<crate::outcome::Repair> = scan
                .repairs
                .iter()
                .map(|&(kind, offset)| crate::outcome::Repair { kind, offset })
                .collect();
            let repaired = crate::candidate::apply_lossless(text, 0, text.len(), &repairs);
            let mut mended = Vec::new();
            let Strict::Written(json) = compact_mending(text, &mut mended) else {
                panic!("{text:?} was not written");
            };
            assert!(!mended.is_empty(), "{text:?}");
            assert_eq!(mended, scan.repairs, "{text:?}");
            assert_eq!(Some(json.get().to_owned()), written(&repaired), "{text:?}");
            assert!(matches!(compact_strict(text), Strict::Invalid), "{text:?}");
        }
        // A key is never mended (the grammar's way through it is left to it).
        let mut mended = Vec::new();
        let key = compact_mending("{\"a\nb\": 1}", &mut mended);
        assert!(matches!(key, Strict::Invalid) && mended.is_empty());
    }

    #[test]
    fn says_what_is_not_json() {
        for text in [
            "",
            "[1,]",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "01",
            "1.",
            "-",
            "+1",
            "[",
            "[1 2]",
            "{} x",
            "tru",
            "\"a\tb\"",
            "\"a",
            r#""\x""#,
            r#""\u12""#,
            r#"{"a": 1}}"#,
            "[}",
        ] {
            assert!(decode(text).is_err(), "{text}");
            assert!(matches!(compact_strict(text), Strict::Invalid), "{text}");
        }
    }
}
