//! Building the value, and noticing what serde_json silently drops.
//!
//! serde_json keeps the last of two equal keys without a word; a model that
//! repeats a key has usually said two different things, so the decoder
//! records every duplicate while it builds the value, in the same pass.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// The deepest nesting serde_json decodes (its recursion limit is 128 calls).
pub(crate) const DECODER_DEPTH_LIMIT: usize = 127;

/// The key under which serde_json's `arbitrary_precision` passes a number's digits.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

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
    let mut saw_duplicate = false;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = ValueSeed {
        saw_duplicate: &mut saw_duplicate,
    }
    .deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok((value, saw_duplicate))
}

struct ValueSeed<'a> {
    saw_duplicate: &'a mut bool,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
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
            saw_duplicate: &mut *self.saw_duplicate,
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        let mut first = true;
        while let Some(key) = entries.next_key::<String>()? {
            // With exact numbers, serde_json hands every number to a visitor as a
            // one-entry map under a private key, holding the digits as written.
            if first && key == NUMBER_TOKEN {
                let digits: String = entries.next_value()?;
                let number: Number = digits.parse().map_err(serde::de::Error::custom)?;
                return Ok(Value::Number(number));
            }
            first = false;
            let value = entries.next_value_seed(ValueSeed {
                saw_duplicate: &mut *self.saw_duplicate,
            })?;
            if map.insert(key, value).is_some() {
                *self.saw_duplicate = true;
            }
        }
        Ok(Value::Object(map))
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
            PathStep::Key(key) if is_identifier(key) => {
                path.push('.');
                path.push_str(key);
            }
            PathStep::Key(key) => {
                path.push('[');
                path.push_str(&Value::String(key.to_owned()).to_string());
                path.push(']');
            }
            PathStep::Index(index) => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
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
}
