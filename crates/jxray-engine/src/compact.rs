//! Checking a candidate and writing it as compact JSON, without building a tree.
//!
//! A caller that only writes the value out (`jxray check`) would build a `Value` of a
//! multi-megabyte document just to serialize and drop it. This reads the text with the same
//! serde_json deserializer as [`decode`](super::decode::decode), so it accepts and refuses
//! the same texts, and writes each token as serde_json's compact serializer writes it: the
//! text is what serializing the decoded tree would write. A string the deserializer could
//! borrow held no escape (and JSON forbids raw control characters), so it is copied as it
//! is; only strings that held escapes are escaped again.
//!
//! What needs the tree makes it give up ([`Compacted::NeedsTree`]) and the caller decodes:
//! a repeated key (serde_json keeps the last value, in the first one's place) and a string
//! that may hold JSON (the stringified-JSON warning reads the tree).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Number;

use super::decode::{model_spelling, Spelling, NUMBER_TOKEN};
use super::outcome::JsonText;
use super::stringified::looks_like_json;

/// What compacting a valid text gave.
pub(crate) enum Compacted {
    Text(JsonText),
    /// The value needs the tree: decode it instead.
    NeedsTree,
}

/// Compact `text`, which must be exactly one JSON value (surrounding white space allowed).
///
/// An error means the text is not one valid value; its words are not serde_json's own
/// (they pass through the writer), so a caller that reports them decodes instead.
pub(crate) fn compact(text: &str) -> Result<Compacted, serde_json::Error> {
    // Compact text is rarely longer than its source: white space goes, and no escape is
    // written longer than the model could have written it.
    let mut writer = Writer {
        out: String::with_capacity(text.len()),
        spelling: Spelling::new(text),
        needs_tree: false,
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    match deserializer.deserialize_any(Emit(&mut writer)) {
        Err(_) if writer.needs_tree => Ok(Compacted::NeedsTree),
        Err(error) => Err(error),
        Ok(()) => {
            deserializer.end()?;
            // Checked again as one value by serde_json: the price of handing out a
            // `RawValue`, which has no unchecked constructor.
            RawValue::from_string(writer.out).map(|json| Compacted::Text(JsonText::new(json)))
        }
    }
}

/// The compact text so far.
struct Writer<'t> {
    out: String,
    /// Where the next exponent's spelling is looked for (see `decode`).
    spelling: Spelling<'t>,
    needs_tree: bool,
}

impl Writer<'_> {
    /// Give up: the value needs the tree.
    fn needs_tree<E: de::Error>(&mut self) -> E {
        self.needs_tree = true;
        E::custom("the value needs a tree")
    }

    /// A string (or key) as serde_json writes it; `borrowed`: it held no escape.
    fn string(&mut self, text: &str, borrowed: bool) {
        self.out.push('"');
        if borrowed {
            self.out.push_str(text);
        } else {
            escape_into(&mut self.out, text);
        }
        self.out.push('"');
    }

    fn display(&mut self, value: impl fmt::Display) {
        // Writing to a `String` cannot fail.
        let _ = write!(self.out, "{value}");
    }
}

/// `text` escaped as serde_json's serializer escapes it: quote, backslash, and control
/// characters (short forms where JSON has them, else `\u00xx`); nothing else.
pub(crate) fn escape_into(out: &mut String, text: &str) {
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

/// Reads one value and writes it.
struct Emit<'w, 't>(&'w mut Writer<'t>);

impl Emit<'_, '_> {
    fn string<E: de::Error>(self, text: &str, borrowed: bool) -> Result<(), E> {
        if looks_like_json(text) {
            return Err(self.0.needs_tree());
        }
        self.0.string(text, borrowed);
        Ok(())
    }
}

impl<'de> Visitor<'de> for Emit<'_, '_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        self.0.out.push_str(if value { "true" } else { "false" });
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        self.0.display(value);
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        self.0.display(value);
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        // As the tree holds it: a number that is not finite is `null`.
        match Number::from_f64(value) {
            Some(number) => self.0.display(number),
            None => self.0.out.push_str("null"),
        }
        Ok(())
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<(), E> {
        self.string(value, true)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        self.string(value, false)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.out.push_str("null");
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let writer = self.0;
        writer.out.push('[');
        let mut first = true;
        while seq.next_element_seed(Item { writer, first })?.is_some() {
            first = false;
        }
        writer.out.push(']');
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<(), A::Error> {
        let writer = self.0;
        let Some(first) = entries.next_key_seed(Key)? else {
            writer.out.push_str("{}");
            return Ok(());
        };
        // With exact numbers, serde_json hands every number over as a one-entry map under a
        // private key, holding the digits as written (as `decode` reads it). The tree keeps
        // those digits, or the model's spelling of an exponent.
        if first == NUMBER_TOKEN {
            let digits: String = entries.next_value()?;
            match model_spelling(&digits, &mut writer.spelling) {
                Some(raw) => writer.out.push_str(raw),
                None => writer.out.push_str(&digits),
            }
            return Ok(());
        }
        writer.out.push('{');
        let mut keys = Keys::default();
        let mut key = Some(first);
        while let Some(name) = key {
            if keys.len() > 0 {
                writer.out.push(',');
            }
            writer.string(&name, matches!(name, Cow::Borrowed(_)));
            writer.out.push(':');
            if !keys.insert(name) {
                return Err(writer.needs_tree());
            }
            entries.next_value_seed(Entry(&mut *writer))?;
            key = entries.next_key_seed(Key)?;
        }
        writer.out.push('}');
        Ok(())
    }
}

/// The keys of one object so far: a short list is searched, a long one hashed.
#[derive(Default)]
struct Keys<'de> {
    few: Vec<Cow<'de, str>>,
    many: HashSet<Cow<'de, str>>,
}

/// Objects with more keys than this hash them.
const FEW_KEYS: usize = 16;

impl<'de> Keys<'de> {
    fn len(&self) -> usize {
        self.few.len() + self.many.len()
    }

    /// False when the key was there already.
    fn insert(&mut self, key: Cow<'de, str>) -> bool {
        if !self.many.is_empty() {
            return self.many.insert(key);
        }
        if self.few.contains(&key) {
            return false;
        }
        self.few.push(key);
        if self.few.len() > FEW_KEYS {
            self.many.extend(self.few.drain(..));
        }
        true
    }
}

/// A key, borrowed from the text when it holds no escape.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, from: D) -> Result<Cow<'de, str>, D::Error> {
        from.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(key.to_owned()))
    }

    fn visit_string<E: de::Error>(self, key: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(key))
    }
}

/// An array item, written after a comma unless it is the first.
struct Item<'w, 't> {
    writer: &'w mut Writer<'t>,
    first: bool,
}

impl<'de> DeserializeSeed<'de> for Item<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, from: D) -> Result<(), D::Error> {
        if !self.first {
            self.writer.out.push(',');
        }
        from.deserialize_any(Emit(self.writer))
    }
}

/// An object member's value, written after its key.
struct Entry<'w, 't>(&'w mut Writer<'t>);

impl<'de> DeserializeSeed<'de> for Entry<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, from: D) -> Result<(), D::Error> {
        from.deserialize_any(Emit(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;

    /// The compact text, or `None` when the tree is needed.
    fn compacted(text: &str) -> Option<String> {
        match compact(text).expect("valid JSON") {
            Compacted::Text(json) => Some(json.get().to_owned()),
            Compacted::NeedsTree => None,
        }
    }

    /// What serializing the decoded tree writes.
    fn serialized(text: &str) -> String {
        serde_json::to_string(&decode(text).unwrap().0).unwrap()
    }

    #[test]
    fn writes_what_serializing_the_tree_writes() {
        for text in [
            r#" { "b" : 1 , "a" : [ true , null , false ] , "e" : { } , "f" : [ ] } "#,
            r#"{"big": 18446744073709551617, "e": [1E400, 2e5, 3e-2, 4.5E+1], "z": -0, "d": 0.100}"#,
            r#"{"esc": "a\"b\\c\/d\u00e9\ud83d\ude00\b\f\n\r\t\u0001\u001F\u007f", "k\u0041": 1}"#,
            r#""just a string""#,
            "  42  ",
            r#"[[], [[]], {"a": {"b": {"c": []}}}]"#,
            r#"{"s": "not {json", "t": "[1] and more"}"#,
        ] {
            assert_eq!(
                compacted(text).as_deref(),
                Some(serialized(text).as_str()),
                "{text}"
            );
        }
    }

    #[test]
    fn a_repeated_key_or_a_string_holding_json_needs_the_tree() {
        assert_eq!(compacted(r#"{"a": 1, "b": 2, "a": 3}"#), None);
        assert_eq!(compacted(r#"{"a": "x", "\u0061": "y"}"#), None);
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        let repeated = format!("{{{}, \"k7\": 0}}", many.join(", "));
        assert_eq!(compacted(&repeated), None);
        let distinct = format!("{{{}}}", many.join(", "));
        assert_eq!(compacted(&distinct), Some(serialized(&distinct)));
        assert_eq!(compacted(r#"{"args": " {\"q\": 1} "}"#), None);
        assert_eq!(compacted(r#"["[1, 2]"]"#), None);
    }

    #[test]
    fn refuses_what_decoding_refuses() {
        for text in [
            "{} x",
            r#"{"a": 1,}"#,
            r#""\ud800""#,
            "[1, 2",
            r#"{"$serde_json::private::Number": 1}"#,
            &format!("{}{}", "[".repeat(200), "]".repeat(200)),
        ] {
            assert!(decode(text).is_err(), "{text}");
            assert!(compact(text).is_err(), "{text}");
        }
    }
}
