//! Checking a candidate and writing it as compact JSON, without building a tree.
//!
//! A caller that only writes the value out (`jxray check`) would build a `Value` of a
//! multi-megabyte document just to serialize and drop it. This reads the text with the same
//! serde_json deserializer as [`decode`](super::decode::decode), so it accepts and refuses
//! the same texts, and hands each token straight to serde_json's own serializer: the text
//! is what serializing the decoded tree would write, by construction.
//!
//! What needs the tree makes it give up ([`Compacted::NeedsTree`]) and the caller decodes:
//! a repeated key (serde_json keeps the last value, in the first one's place) and a string
//! that may hold JSON (the stringified-JSON warning reads the tree).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use serde_json::Number;

use super::decode::{exact_number, Spelling, NUMBER_TOKEN};
use super::stringified::looks_like_json;

/// What compacting a valid text gave.
pub(crate) enum Compacted {
    Text(Box<RawValue>),
    /// The value needs the tree: decode it instead.
    NeedsTree,
}

/// Compact `text`, which must be exactly one JSON value (surrounding white space allowed).
///
/// An error means the text is not one valid value; its words are not serde_json's own
/// (they pass through the serializer), so a caller that reports them decodes instead.
pub(crate) fn compact(text: &str) -> Result<Compacted, serde_json::Error> {
    let state = RefCell::new(State {
        spelling: Spelling::new(text),
        needs_tree: false,
    });
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let written = serde_json::value::to_raw_value(&Transcode {
        from: RefCell::new(Some(&mut deserializer)),
        state: &state,
    });
    match written {
        Err(_) if state.borrow().needs_tree => Ok(Compacted::NeedsTree),
        Err(error) => Err(error),
        Ok(json) => {
            deserializer.end()?;
            Ok(Compacted::Text(json))
        }
    }
}

struct State<'t> {
    /// Where the next exponent's spelling is looked for (see `decode`).
    spelling: Spelling<'t>,
    needs_tree: bool,
}

type Shared<'s, 't> = &'s RefCell<State<'t>>;

/// Give up: the value needs the tree.
fn needs_tree<E: de::Error>(state: Shared) -> E {
    state.borrow_mut().needs_tree = true;
    E::custom("the value needs a tree")
}

/// One value still to be read from `from`, serialized as it is read.
struct Transcode<'s, 't, D> {
    from: RefCell<Option<D>>,
    state: Shared<'s, 't>,
}

impl<'de, D: Deserializer<'de>> Serialize for Transcode<'_, '_, D> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        let Some(from) = self.from.borrow_mut().take() else {
            return Err(ser::Error::custom("a value can be read only once"));
        };
        from.deserialize_any(Emit {
            out,
            state: self.state,
        })
        .map_err(ser::Error::custom)
    }
}

/// Writes what the deserializer finds to `out`.
struct Emit<'s, 't, S> {
    out: S,
    state: Shared<'s, 't>,
}

impl<S: Serializer> Emit<'_, '_, S> {
    fn string<E: de::Error>(self, text: &str) -> Result<S::Ok, E> {
        if looks_like_json(text) {
            return Err(needs_tree(self.state));
        }
        self.out.serialize_str(text).map_err(de::Error::custom)
    }

    fn number<E: de::Error>(self, number: Number) -> Result<S::Ok, E> {
        number.serialize(self.out).map_err(de::Error::custom)
    }
}

impl<'de, S: Serializer> Visitor<'de> for Emit<'_, '_, S> {
    type Value = S::Ok;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<S::Ok, E> {
        self.out.serialize_bool(value).map_err(de::Error::custom)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<S::Ok, E> {
        self.number(value.into())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<S::Ok, E> {
        self.number(value.into())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<S::Ok, E> {
        // As the tree holds it: a number that is not finite is `null`.
        match Number::from_f64(value) {
            Some(number) => self.number(number),
            None => self.visit_unit(),
        }
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<S::Ok, E> {
        self.string(value)
    }

    fn visit_unit<E: de::Error>(self) -> Result<S::Ok, E> {
        self.out.serialize_unit().map_err(de::Error::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<S::Ok, A::Error> {
        let mut items = self.out.serialize_seq(None).map_err(de::Error::custom)?;
        let state = self.state;
        while seq
            .next_element_seed(Item {
                items: &mut items,
                state,
            })?
            .is_some()
        {}
        items.end().map_err(de::Error::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<S::Ok, A::Error> {
        let Some(first) = entries.next_key_seed(Key)? else {
            let map = self.out.serialize_map(Some(0)).map_err(de::Error::custom)?;
            return map.end().map_err(de::Error::custom);
        };
        // With exact numbers, serde_json hands every number over as a one-entry map under a
        // private key, holding the digits as written (as `decode` reads it).
        if first == NUMBER_TOKEN {
            let digits: String = entries.next_value()?;
            let number = exact_number(digits, &mut self.state.borrow_mut().spelling)
                .map_err(de::Error::custom)?;
            return self.number(number);
        }
        let state = self.state;
        let mut map = self.out.serialize_map(None).map_err(de::Error::custom)?;
        let mut keys = Keys::default();
        let mut key = Some(first);
        while let Some(name) = key {
            map.serialize_key(name.as_ref())
                .map_err(de::Error::custom)?;
            if !keys.insert(name) {
                return Err(needs_tree(state));
            }
            entries.next_value_seed(Entry {
                map: &mut map,
                state,
            })?;
            key = entries.next_key_seed(Key)?;
        }
        map.end().map_err(de::Error::custom)
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

/// An array item, written as the next element of `items`.
struct Item<'a, 's, 't, Q> {
    items: &'a mut Q,
    state: Shared<'s, 't>,
}

impl<'de, Q: SerializeSeq> DeserializeSeed<'de> for Item<'_, '_, '_, Q> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, from: D) -> Result<(), D::Error> {
        self.items
            .serialize_element(&Transcode {
                from: RefCell::new(Some(from)),
                state: self.state,
            })
            .map_err(de::Error::custom)
    }
}

/// An object member's value, written after its key in `map`.
struct Entry<'a, 's, 't, M> {
    map: &'a mut M,
    state: Shared<'s, 't>,
}

impl<'de, M: SerializeMap> DeserializeSeed<'de> for Entry<'_, '_, '_, M> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, from: D) -> Result<(), D::Error> {
        self.map
            .serialize_value(&Transcode {
                from: RefCell::new(Some(from)),
                state: self.state,
            })
            .map_err(de::Error::custom)
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
