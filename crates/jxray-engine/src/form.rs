//! A parsed candidate's value: its tree, or its compact text when the caller asked for text
//! ([`ValueForm::Text`]) and nothing needed the tree.

use std::borrow::Cow;
use std::sync::LazyLock;

use memchr::memmem;

use serde_json::Value;

use super::decode::{decode, skip_string, DECODER_DEPTH_LIMIT};
use super::options::{Acceptor, ValueForm};
use super::outcome::JsonText;
use super::outcome::RepairKind;
use super::plain::{compact_mending, compact_strict, Strict};
use super::scan::{scan_value, scan_value_with, Problem, Scan, ScanEnd};
use super::stringified::holds_json_string;

/// The keys that may make a value a JSON Schema, searched for in compact text with
/// searchers built once.
static SCHEMA_KEY: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new("\"$schema\""));
static PROPERTIES_KEY: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new("\"properties\""));

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decoded {
    Tree(Value),
    Text(JsonText),
}

/// Decode `text`, which must be exactly one JSON value, in the form asked for; with
/// whether any object repeated a key. Errors are serde_json's own words.
pub(crate) fn decode_as(text: &str, form: ValueForm) -> Result<(Decoded, bool), serde_json::Error> {
    match checked(text, form) {
        Strict::Written(json) => Ok((Decoded::Text(json), false)),
        // The decoder decides, and words the error of a text that is not JSON.
        _ => decode_in(text, form),
    }
}

/// What the fast path made of a candidate.
pub(crate) enum Fast {
    /// Its value, in the form asked for, and whether an object repeated a key.
    Decoded(Decoded, bool),
    /// Not strict JSON as written: the grammar's reading of it, as a scan at the decoder's
    /// depth would read it (the caller's stack holds what it left open).
    Scanned(Scan),
    /// With [`ValueForm::Text`], the compact text of the candidate once its lossless repairs
    /// are made, and the repairs at offsets in the candidate (as the grammar finds them).
    Mended(JsonText, Vec<(RepairKind, usize)>),
    /// Not decoded, and not read by the grammar either.
    Unread,
}

/// Decode `text[start..end]` unless it is invalid, in the form asked for: the fast path of
/// a clean candidate, where an invalid one goes on to be diagnosed (and its error is not
/// needed). With [`ValueForm::Span`] the grammar's reading of an invalid candidate comes
/// back, so that it is not read twice; with [`ValueForm::Text`] a candidate that needs only
/// lossless repairs comes back compact and repaired, read once.
pub(crate) fn try_decode_as(
    text: &str,
    (start, end): (usize, usize),
    form: ValueForm,
    stack: &mut Vec<(u8, usize)>,
) -> Fast {
    let candidate = &text[start..end];
    let strict = match form {
        ValueForm::Span if !has_escape(candidate) => {
            let scan = scan_value_with(
                text.as_bytes(),
                start,
                end,
                DECODER_DEPTH_LIMIT - 1,
                None,
                stack,
            );
            match span_reading(candidate, &scan, end) {
                // A scan that never went deeper than this one could reads alike at the
                // decoder's own depth.
                Strict::Invalid if !too_deep(&scan) => return Fast::Scanned(scan),
                strict => strict,
            }
        }
        ValueForm::Text => {
            let mut mended = Vec::new();
            match compact_mending(candidate, &mut mended) {
                Strict::Written(json) if !mended.is_empty() => return Fast::Mended(json, mended),
                // A raw control character or an escaped backtick: serde_json refuses it too.
                _ if !mended.is_empty() => return Fast::Unread,
                strict => strict,
            }
        }
        _ => checked(candidate, form),
    };
    match strict {
        Strict::Written(json) => Fast::Decoded(Decoded::Text(json), false),
        Strict::Invalid => Fast::Unread,
        Strict::Other => match decode_in(candidate, form) {
            Ok((value, duplicate_keys)) => Fast::Decoded(value, duplicate_keys),
            Err(_) => Fast::Unread,
        },
    }
}

/// With [`ValueForm::Span`], `text` as written when it is strict JSON that serde_json
/// reads exactly as the grammar does — no `\u` escape (so no surrogate to refuse, and no
/// key spelled other than it reads), no lossless repair, and a depth within the decoder's;
/// otherwise (and with [`ValueForm::Text`]) its compact text when that can be written
/// without serde_json ([`compact_strict`], which reads the text itself).
fn checked(text: &str, form: ValueForm) -> Strict {
    match form {
        ValueForm::Span if !has_escape(text) => {
            let bytes = text.as_bytes();
            let scan = scan_value(bytes, 0, bytes.len(), DECODER_DEPTH_LIMIT - 1, None);
            span_reading(text, &scan, bytes.len())
        }
        ValueForm::Span | ValueForm::Text => compact_strict(text),
        ValueForm::Tree => Strict::Other,
    }
}

/// [`checked`]'s verdict on `text`, which has no `\u` escape, from the grammar's reading of
/// it at one level less than the decoder's depth (the text ends at `end` in the scan's bytes).
fn span_reading(text: &str, scan: &Scan, end: usize) -> Strict {
    match scan.end {
        ScanEnd::Complete { end: at } if at == end && scan.repairs.is_empty() => {
            Strict::Written(JsonText::as_written(text))
        }
        // Deeper than the grammar was asked to read: the decoder may still read it.
        _ if too_deep(scan) => compact_strict(text),
        // Not JSON by the grammar serde_json reads too (and refuses what a lossless
        // repair would mend).
        _ => Strict::Invalid,
    }
}

fn too_deep(scan: &Scan) -> bool {
    matches!(
        scan.end,
        ScanEnd::Invalid {
            problem: Problem::TooDeep,
            ..
        }
    )
}

/// [`checked`] for a candidate the grammar has already read whole, without repairs,
/// within the extraction's depth (never past the decoder's).
pub(crate) fn scanned_checked(text: &str, form: ValueForm) -> Option<JsonText> {
    let strict = match form {
        ValueForm::Span if !has_escape(text) => return Some(JsonText::as_written(text)),
        ValueForm::Span | ValueForm::Text => compact_strict(text),
        ValueForm::Tree => return None,
    };
    match strict {
        Strict::Written(json) => Some(json),
        _ => None,
    }
}

/// [`checked`] for a candidate the grammar read whole, at most `deepest` levels deep, once
/// its lossless repairs are made: a raw control character escaped and a backtick unescaped
/// leave a text the grammar reads whole without repairs at the same depth, so with
/// [`ValueForm::Span`] it is kept as written when it has no `\u` escape and is within the
/// decoder's depth (anything else is [`decode_as`]'s to decide).
pub(crate) fn repaired_checked(
    repaired: &str,
    form: ValueForm,
    deepest: usize,
) -> Option<JsonText> {
    let as_written =
        form == ValueForm::Span && deepest < DECODER_DEPTH_LIMIT && !has_escape(repaired);
    as_written.then(|| JsonText::as_written(repaired))
}

/// The decoder's reading of `text`: as a tree, or as the compact text serializing the tree
/// writes when a text is asked for and nothing needs the tree (a repeated key, a string
/// that may hold JSON: the warnings about them read it).
fn decode_in(text: &str, form: ValueForm) -> Result<(Decoded, bool), serde_json::Error> {
    let (value, duplicate) = decode(text)?;
    if form == ValueForm::Tree || duplicate || holds_json_string(&value) {
        return Ok((Decoded::Tree(value), duplicate));
    }
    Ok((Decoded::Text(JsonText::compacted(value.to_string())), false))
}

/// The length of the value's compact text: equal for two texts of one value.
fn compact_len(json: &JsonText) -> usize {
    json.written()
        .map_or(json.get().len(), super::plain::compact_len)
}

/// Whether `text` holds a `\u` escape (or what looks like one after an escaped backslash).
fn has_escape(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), b"\\u").is_some()
}

impl Decoded {
    /// Whether two values are the same value (as trees compare: keys in any order).
    pub(crate) fn same_as(&self, other: &Decoded) -> bool {
        if let (Decoded::Text(a), Decoded::Text(b)) = (self, other) {
            if a == b {
                return true;
            }
            // Compact texts of one value hold the same bytes, at most its members in another
            // order: values whose compact texts differ in length differ, with no tree built.
            if compact_len(a) != compact_len(b) {
                return false;
            }
        }
        match (self.tree(), other.tree()) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// An array whose items are neither arrays nor objects (`[1]`, `["a", 2]`).
    pub(crate) fn is_scalar_array(&self) -> bool {
        match self {
            Decoded::Tree(value) => value.as_array().is_some_and(|items| {
                items
                    .iter()
                    .all(|item| !item.is_array() && !item.is_object())
            }),
            Decoded::Text(json) => holds_no_container(json.get()),
        }
    }

    /// Whether the value is a JSON Schema document (`$schema`, or `type` with
    /// `properties`): the prompt's schema echoed, not an answer.
    pub(crate) fn is_json_schema(&self) -> bool {
        if let Decoded::Text(json) = self {
            // Compact text that names neither key cannot be one: no tree is built.
            let text = json.get();
            if SCHEMA_KEY.find(text.as_bytes()).is_none()
                && PROPERTIES_KEY.find(text.as_bytes()).is_none()
            {
                return false;
            }
        }
        self.tree().is_some_and(|value| {
            value.as_object().is_some_and(|object| {
                object.contains_key("$schema")
                    || (object.contains_key("type")
                        && object.get("properties").is_some_and(Value::is_object))
            })
        })
    }

    /// Whether the value is a schema document by its keywords' values, not only their
    /// names: `$schema`, or `type: "object"` with `properties` (an object). GeoJSON's
    /// `{"type": "Feature", "properties": {…}}` is not one.
    pub(crate) fn is_schema_document(&self) -> bool {
        match self {
            Decoded::Tree(value) => value.as_object().is_some_and(|object| {
                object.contains_key("$schema")
                    || (object.get("type").and_then(Value::as_str) == Some("object")
                        && object.get("properties").is_some_and(Value::is_object))
            }),
            // Read the top level's keywords only, without building the tree again.
            Decoded::Text(json) => {
                let text = json.get();
                // serde would read a list as the struct's fields, in order.
                if !text.starts_with('{')
                    || (SCHEMA_KEY.find(text.as_bytes()).is_none()
                        && PROPERTIES_KEY.find(text.as_bytes()).is_none())
                {
                    return false;
                }
                serde_json::from_str::<SchemaKeywords>(text).is_ok_and(|top| {
                    top.dollar_schema.is_some()
                        || (top.kind.as_deref() == Some("object") && top.properties.is_some())
                })
            }
        }
    }

    /// Whether the caller's test passes the value.
    pub(crate) fn passes(&self, acceptor: &Acceptor) -> bool {
        self.tree().is_some_and(|value| acceptor.accepts(&value))
    }

    /// The value as a tree: the one held, or the compact text decoded again.
    pub(crate) fn tree(&self) -> Option<Cow<'_, Value>> {
        match self {
            Decoded::Tree(value) => Some(Cow::Borrowed(value)),
            Decoded::Text(json) => decode(json.get()).ok().map(|(value, _)| Cow::Owned(value)),
        }
    }
}

/// The keywords that make an object a schema document, read from its top level (anything
/// else is skipped; a `type` that is not a string, or a `properties` that is not an object,
/// makes the reading fail, and then it is not one).
#[derive(serde::Deserialize)]
struct SchemaKeywords<'a> {
    #[serde(rename = "$schema")]
    dollar_schema: Option<serde::de::IgnoredAny>,
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    properties: Option<std::collections::HashMap<String, serde::de::IgnoredAny>>,
}

/// Whether compact JSON text is an array with no `[` or `{` inside it outside strings
/// (an item that is a container would open with one).
fn holds_no_container(json: &str) -> bool {
    let bytes = json.as_bytes();
    if bytes.first() != Some(&b'[') {
        return false;
    }
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_string(bytes, i + 1),
            b'[' | b'{' => return false,
            _ => i += 1,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(json: &str) -> Decoded {
        decode_as(json, ValueForm::Text).unwrap().0
    }

    fn tree(json: &str) -> Decoded {
        decode_as(json, ValueForm::Tree).unwrap().0
    }

    #[test]
    fn text_and_tree_compare_as_trees_do() {
        assert!(matches!(text(r#"{"a": 1}"#), Decoded::Text(_)));
        assert!(text(r#"{"a": 1, "b": 2}"#).same_as(&text(r#"{"b":2,"a":1}"#)));
        assert!(text(r#"{"a": 1}"#).same_as(&tree(r#"{"a":1}"#)));
        assert!(!text(r#"{"a": 1}"#).same_as(&text(r#"{"a": 1.0}"#)));
        assert!(!tree("[1]").same_as(&text("[2]")));
    }

    #[test]
    fn scalar_arrays_read_alike_as_text_and_tree() {
        for json in [
            "[1, 2]",
            r#"["[x", "{"]"#,
            "[]",
            "[[1]]",
            r#"[1, {"a": 2}]"#,
            r#"{"a": 1}"#,
            "3",
        ] {
            assert_eq!(
                text(json).is_scalar_array(),
                tree(json).is_scalar_array(),
                "{json}"
            );
        }
    }

    #[test]
    fn a_repeated_key_comes_as_a_tree_and_is_flagged() {
        let (value, duplicate) = decode_as(r#"{"a": 1, "a": 2}"#, ValueForm::Text).unwrap();
        assert!(matches!(value, Decoded::Tree(_)));
        assert!(duplicate);
        for form in [ValueForm::Text, ValueForm::Tree] {
            let fast = try_decode_as("[1,", (0, 3), form, &mut Vec::new());
            assert!(matches!(fast, Fast::Unread));
        }
        // With `Span` the grammar's reading comes back, its stack left as it ended.
        let mut stack = Vec::new();
        let fast = try_decode_as("x [1,", (2, 5), ValueForm::Span, &mut stack);
        assert!(matches!(
            fast,
            Fast::Scanned(Scan {
                end: ScanEnd::Truncated { opened_at: 2, .. },
                ..
            })
        ));
        assert_eq!(stack, [(b'[', 2)]);
    }

    #[test]
    fn what_the_engine_does_not_write_comes_as_the_tree_serialized() {
        for json in [
            r#"{"x": 2.5E-3, "y": [1e5]}"#,
            r#"{"k\n": 1}"#,
            r#""\ud83d\ude00""#,
        ] {
            let Decoded::Text(written) = text(json) else {
                panic!("{json} came as a tree");
            };
            assert_eq!(written.get(), decode(json).unwrap().0.to_string(), "{json}");
        }
        let (value, _) = decode_as(r#"{"s": " [1] "}"#, ValueForm::Text).unwrap();
        assert!(matches!(value, Decoded::Tree(_)));
    }
}
