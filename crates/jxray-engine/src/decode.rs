//! Building the value, and noticing what serde_json silently drops.
//!
//! serde_json keeps the last of two equal keys without a word; a model that
//! repeats a key has usually said two different things, so the decoder
//! records every duplicate while it builds the value, in the same pass.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::path::push_member;

/// The deepest nesting serde_json decodes (its recursion limit is 128 calls).
pub(crate) const DECODER_DEPTH_LIMIT: usize = 127;

/// The key under which serde_json's `arbitrary_precision` passes a number's digits.
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A key that an object repeats: where, which, and at what byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DuplicateKey {
    /// JSON path of the object, e.g. `$.items[2]`.
    pub path: String,
    pub key: String,
    /// Absolute byte offset of the repeated key's opening quote.
    pub offset: usize,
}

/// Decode a text that must be exactly one JSON value (surrounding whitespace allowed).
///
/// Returns the value and whether any object repeated a key.
pub(crate) fn decode(text: &str) -> Result<(Value, bool), serde_json::Error> {
    let mut state = DecodeState {
        saw_duplicate: false,
        spelling: Spelling::new(text),
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = ValueSeed { state: &mut state }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok((value, state.saw_duplicate))
}

/// Decode one JSON value exactly: numbers keep the digits and the exponent
/// spelling the text has, keys keep their order. For clients that read JSON
/// jxray wrote (fixtures) and must compare it with what the engine gives.
pub fn decode_exact(text: &str) -> Result<Value, serde_json::Error> {
    decode(text).map(|(value, _)| value)
}

struct DecodeState<'t> {
    saw_duplicate: bool,
    spelling: Spelling<'t>,
}

/// Finds a number's spelling in the text. serde_json writes exponents as
/// `e+N`; the model may have written `E5` or `e5`, and the contract promises
/// numbers exactly as written. Numbers reach the visitor in text order, so one
/// cursor that only moves forward finds each exponent's token: linear overall,
/// and free for texts without exponents.
pub(crate) struct Spelling<'t> {
    text: &'t str,
    cursor: usize,
}

impl<'t> Spelling<'t> {
    pub(crate) fn new(text: &'t str) -> Spelling<'t> {
        Spelling { text, cursor: 0 }
    }

    /// The raw token of the next number with an exponent, at or after the cursor.
    fn next_exponent_token(&mut self) -> Option<&'t str> {
        let bytes = self.text.as_bytes();
        let mut i = self.cursor;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => i = skip_string(bytes, i + 1),
                b'e' | b'E' if i > 0 && (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b'.') => {
                    let start = bytes[..i]
                        .iter()
                        .rposition(|&b| !(b.is_ascii_digit() || b == b'.' || b == b'-'))
                        .map_or(0, |p| p + 1);
                    let end = bytes[i + 1..]
                        .iter()
                        .position(|&b| !(b.is_ascii_digit() || b == b'+' || b == b'-'))
                        .map_or(bytes.len(), |p| i + 1 + p);
                    self.cursor = end;
                    return self.text.get(start..end);
                }
                _ => i += 1,
            }
        }
        self.cursor = bytes.len();
        None
    }
}

/// The index just after the string whose content starts at `i`.
pub(crate) fn skip_string(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The number as the text spells it, when that spelling is the same number.
pub(crate) fn exact_number(digits: String, spelling: &mut Spelling) -> Result<Number, String> {
    let number: Number = digits.parse().map_err(|error| format!("{error}"))?;
    Ok(match model_spelling(&digits, spelling) {
        Some(raw) => Number::from_string_unchecked(raw.to_owned()),
        None => number,
    })
}

/// The model's own spelling of a number with an exponent, when it is the same number as
/// serde_json's `digits` (which are kept otherwise).
pub(crate) fn model_spelling<'t>(digits: &str, spelling: &mut Spelling<'t>) -> Option<&'t str> {
    if !digits.contains('e') {
        return None;
    }
    // The token normalises to the digits serde_json read: same number, the model's spelling.
    spelling
        .next_exponent_token()
        .filter(|raw| normalise_exponent(raw) == digits)
}

/// Whether two values are the same JSON value, exactly: every number by its digits (so two
/// different numbers never compare equal, however many digits they share), object members
/// in any order. Only an exponent's spelling may differ (`1E5`, `1e5` and `1e+5` are one
/// number), as it does between a value the engine decoded and the same value written out
/// and read back.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            normalise_exponent(&x.to_string()) == normalise_exponent(&y.to_string())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, p)| y.get(key).is_some_and(|q| same_value(p, q)))
        }
        _ => a == b,
    }
}

/// serde_json's spelling of a number token: `E` lowered, an unsigned exponent
/// given `+`. Two spellings of one number agree once both pass through it.
fn normalise_exponent(raw: &str) -> String {
    let lowered = raw.replace('E', "e");
    match lowered.split_once('e') {
        Some((mantissa, exponent)) if !exponent.starts_with(['+', '-']) => {
            format!("{mantissa}e+{exponent}")
        }
        _ => lowered,
    }
}

struct ValueSeed<'a, 't> {
    state: &'a mut DecodeState<'t>,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(ValueSeed {
            state: &mut *self.state,
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        let mut first = true;
        while let Some(key) = entries.next_key_seed(KeySeed { first })? {
            let key = match key {
                // With exact numbers, serde_json hands every number to a visitor as a
                // one-entry map under a private key, holding the digits as written.
                Key::Number => {
                    let digits: String = entries.next_value()?;
                    let number = exact_number(digits, &mut self.state.spelling)
                        .map_err(serde::de::Error::custom)?;
                    return Ok(Value::Number(number));
                }
                Key::Name(key) => key,
            };
            first = false;
            let value = entries.next_value_seed(ValueSeed {
                state: &mut *self.state,
            })?;
            if map.insert(key, value).is_some() {
                self.state.saw_duplicate = true;
            }
        }
        Ok(Value::Object(map))
    }
}

/// An object's key, or the private key under which a number's digits come (only ever a
/// first key), told apart without allocating the latter.
enum Key {
    Number,
    Name(String),
}

struct KeySeed {
    first: bool,
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_str<E>(self, key: &str) -> Result<Key, E> {
        Ok(match key {
            NUMBER_TOKEN if self.first => Key::Number,
            _ => Key::Name(key.to_owned()),
        })
    }

    fn visit_string<E>(self, key: String) -> Result<Key, E> {
        Ok(match key.as_str() {
            NUMBER_TOKEN if self.first => Key::Number,
            _ => Key::Name(key),
        })
    }
}

/// Find every repeated key in a valid JSON text; `base` is its offset in the raw text.
///
/// Only called when [`decode`] saw a duplicate, so it may be slower than decoding.
pub(crate) fn locate_duplicates(text: &str, base: usize) -> Vec<DuplicateKey> {
    enum Frame {
        Object {
            keys: HashSet<String>,
            current: String,
        },
        Array {
            index: usize,
        },
    }
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut found = Vec::new();
    let mut expecting_key = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                stack.push(Frame::Object {
                    keys: HashSet::new(),
                    current: String::new(),
                });
                expecting_key = true;
            }
            b'[' => {
                stack.push(Frame::Array { index: 0 });
                expecting_key = false;
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { .. }) => expecting_key = true,
                None => {}
            },
            b'"' => {
                let end = string_end(bytes, i);
                if expecting_key {
                    let key: String = serde_json::from_str(&text[i..end]).unwrap_or_default();
                    let path =
                        json_path(
                            &stack[..stack.len().saturating_sub(1)],
                            |frame| match frame {
                                Frame::Object { current, .. } => PathStep::Key(current),
                                Frame::Array { index } => PathStep::Index(*index),
                            },
                        );
                    if let Some(Frame::Object { keys, current }) = stack.last_mut() {
                        if !keys.insert(key.clone()) {
                            found.push(DuplicateKey {
                                path,
                                key: key.clone(),
                                offset: base + i,
                            });
                        }
                        *current = key;
                    }
                    expecting_key = false;
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

enum PathStep<'a> {
    Key(&'a str),
    Index(usize),
}

fn json_path<F, T>(frames: &[T], step: F) -> String
where
    F: Fn(&T) -> PathStep<'_>,
{
    let mut path = String::from("$");
    for frame in frames {
        match step(frame) {
            PathStep::Key(key) => push_member(&mut path, key),
            PathStep::Index(index) => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// The offset after the closing quote of the string that opens at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_in_written_order_and_flags_duplicates() {
        let (value, duplicate) = decode(r#"{"b": 1, "a": [true, null]}"#).unwrap();
        assert_eq!(value.to_string(), r#"{"b":1,"a":[true,null]}"#);
        assert!(!duplicate);
        let (value, duplicate) = decode(r#"{"s": "low", "s": "critical"}"#).unwrap();
        assert_eq!(value["s"], "critical");
        assert!(duplicate);
    }

    #[test]
    fn trailing_text_is_an_error() {
        assert!(decode("{} x").is_err());
        assert!(decode(" {} ").is_ok());
    }

    #[test]
    fn duplicates_are_located_with_path_and_offset() {
        let text = r#"{"items": [{"id": 1, "id": 2}], "note": {"x y": {"k": 1, "k": 2}}}"#;
        let found = locate_duplicates(text, 10);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].path, "$.items[0]");
        assert_eq!(found[0].key, "id");
        assert_eq!(found[0].offset, 10 + text.find(r#""id": 2"#).unwrap());
        assert_eq!(found[1].path, r#"$.note["x y"]"#);
    }

    #[test]
    fn numbers_keep_the_spelling_the_model_wrote() {
        let text = r#"{"big": [18446744073709551616, 18446744073709551617], "e": [1E400, 2e5, 3e-2, 4.5E+1], "s": "1e9 in a string", "t": true, "z": -0, "d": 0.10000000000000000001}"#;
        let (value, _) = decode(text).unwrap();
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"big":[18446744073709551616,18446744073709551617],"e":[1E400,2e5,3e-2,4.5E+1],"s":"1e9 in a string","t":true,"z":-0,"d":0.10000000000000000001}"#
        );
        assert_ne!(value["big"][0], value["big"][1]);
    }
}
