//! A cheap look at a large JSON text's top-level keys, to decide whether it could be a
//! provider envelope before building the whole tree.
//!
//! Scanning with `IgnoredAny` allocates nothing for values, so a multi-megabyte raw JSON
//! output (the common case) costs one quick pass instead of a second full parse.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Keys that every envelope format and log document (promptfoo `evalId`, Inspect `eval`,
/// OTLP `resourceSpans`) has at its top level (or in its first array element).
const ENVELOPE_KEYS: [&str; 11] = [
    "evalId",
    "eval",
    "resourceSpans",
    "object",
    "choices",
    "type",
    "candidates",
    "promptFeedback",
    "done",
    "custom_id",
    "output",
];

/// Whether `text` is a JSON object or array whose top level has an envelope key.
pub(super) fn may_be_envelope(text: &str) -> bool {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer
        .deserialize_any(TopLevel { depth: 0 })
        .unwrap_or(false)
}

/// Looks at the keys of the top-level object, or of the first element of a top-level array.
struct TopLevel {
    depth: u8,
}

impl<'de> Visitor<'de> for TopLevel {
    type Value = bool;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON object or array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut found = false;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            found |= ENVELOPE_KEYS.contains(&key.as_ref());
            map.next_value::<IgnoredAny>()?;
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let first = if self.depth == 0 {
            seq.next_element_seed(TopLevel { depth: 1 })?
        } else {
            seq.next_element::<IgnoredAny>()?.map(|_| false)
        };
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(first.unwrap_or(false))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
}

impl<'de> de::DeserializeSeed<'de> for TopLevel {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}
