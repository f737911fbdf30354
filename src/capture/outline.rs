//! A JSON log document that does not parse whole because part of it nests deeper than the
//! parser goes (serde_json stops at 128 levels), read as an outline: every part that nests
//! within the limit is parsed as usual, and a part that does not is opened a level at a
//! time, down to [`OUTLINE_DEPTH`] levels, where what is still too deep is left out (as
//! `null`) and its place noted. So one deep record — a model's deeply nested answer kept in
//! a promptfoo result — is that record's failure, and every other record is read.
//!
//! Each level is a pass over its own text, and only [`OUTLINE_DEPTH`] levels are opened,
//! so the work stays linear in the document and nothing recurses without bound.

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::envelope::LogRecord;

/// How many levels of containers are opened, at most, to reach the records.
const OUTLINE_DEPTH: usize = 8;

/// Containers nested deeper than this are not parsed whole (serde_json refuses past 128).
const PARSE_DEPTH: usize = 127;

/// The document, with the parts too deep to read left out, and where they were.
#[derive(Debug)]
pub(super) struct Outline {
    pub(crate) value: Value,
    /// JSON Pointers of the parts left out.
    cuts: Vec<String>,
}

impl Outline {
    /// The outline of `text`, or `None` when it is not one JSON value.
    pub(super) fn read(text: &str) -> Option<Outline> {
        let raw: Box<RawValue> = serde_json::from_str(text).ok()?;
        let mut cuts = Vec::new();
        let value = outline(&raw, 0, &mut String::new(), &mut cuts)?;
        Some(Outline { value, cuts })
    }

    /// Whether the part at `pointer`, or something inside it, was left out.
    pub(super) fn cut_at(&self, pointer: &str) -> bool {
        self.cuts.iter().any(|cut| {
            cut.strip_prefix(pointer)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    /// `records`, one per element of the array at `pointer` in order, each whose element
    /// was cut made that record's failure.
    pub(super) fn mark(&self, pointer: &str, records: Vec<LogRecord>) -> Vec<LogRecord> {
        records
            .into_iter()
            .enumerate()
            .map(
                |(index, record)| match self.cut_at(&format!("{pointer}/{index}")) {
                    true => LogRecord {
                        result: Err(TOO_DEEP.to_string()),
                        ..record
                    },
                    false => record,
                },
            )
            .collect()
    }
}

/// Why a record that was cut is not read.
pub(super) const TOO_DEEP: &str =
    "this record nests deeper than 128 levels, more than jxray reads \
                            in a log document (the file's other records are read); check what \
                            wrote it";

/// The value of `raw` at `pointer`, `depth` levels down: parsed whole when it nests
/// within the limit, else opened, else left out.
fn outline(
    raw: &RawValue,
    depth: usize,
    pointer: &mut String,
    cuts: &mut Vec<String>,
) -> Option<Value> {
    let text = raw.get();
    if nesting(text) <= PARSE_DEPTH {
        return serde_json::from_str(text).ok();
    }
    if depth >= OUTLINE_DEPTH {
        cuts.push(pointer.clone());
        return Some(Value::Null);
    }
    let mut child = |pointer: &mut String, key: &str, raw: &RawValue| {
        let length = pointer.len();
        pointer.push('/');
        pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
        let value = outline(raw, depth + 1, pointer, cuts);
        pointer.truncate(length);
        value
    };
    if text.trim_start().starts_with('[') {
        let items: Vec<Box<RawValue>> = serde_json::from_str(text).ok()?;
        let values = items
            .iter()
            .enumerate()
            .map(|(index, item)| child(pointer, &index.to_string(), item))
            .collect::<Option<Vec<Value>>>()?;
        return Some(Value::Array(values));
    }
    let Members(members) = serde_json::from_str(text).ok()?;
    let mut object = Map::new();
    for (key, item) in members {
        let value = child(pointer, &key, &item)?;
        object.insert(key, value);
    }
    Some(Value::Object(object))
}

/// How deep the containers of a valid JSON text nest (0 for a scalar).
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in text.bytes() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// An object's members in their order, each value unparsed.
struct Members(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Members, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, Box<RawValue>>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(MembersVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(levels: usize) -> String {
        format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn nesting_counts_containers_outside_strings() {
        assert_eq!(nesting("1"), 0);
        assert_eq!(nesting(r#"{"a": [1, {"b": "[[[{"}]}"#), 3);
        assert_eq!(nesting(r#"["\"[", "\\", [[]]]"#), 3);
    }

    #[test]
    fn a_deep_part_is_left_out_and_the_rest_is_read() {
        let text = format!(
            r#"{{"rows": [{{"id": 1}}, {{"id": 2, "out": {}}}], "n": 2}}"#,
            deep(500)
        );
        let outline = Outline::read(&text).unwrap();
        assert_eq!(outline.value["rows"][0]["id"], 1);
        assert_eq!(outline.value["rows"][1]["id"], 2);
        assert_eq!(outline.value["n"], 2);
        assert!(outline.cut_at("/rows/1"));
        assert!(!outline.cut_at("/rows/0"));
        assert!(!outline.cut_at("/row"));
    }

    #[test]
    fn a_document_that_is_not_json_has_no_outline() {
        assert!(Outline::read(&format!("{} trailing", deep(300))).is_none());
        assert!(Outline::read(&deep(300)[1..]).is_none());
    }

    #[test]
    fn a_document_deep_everywhere_is_cut_at_the_outline_depth() {
        let outline = Outline::read(&deep(100_000)).unwrap();
        let mut pointer = String::new();
        for _ in 0..OUTLINE_DEPTH {
            pointer.push_str("/0");
        }
        assert!(outline.cut_at(&pointer));
    }
}
