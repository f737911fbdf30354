//! A JSON Schema judging each value of a stream as it closes (contract §7): the rules at an
//! item's or member's path, found by walking the schema along the path, compiled once per
//! place in the schema.
//!
//! Only rules that apply whatever the rest of the value holds are walked: `properties`,
//! `additionalProperties`, `items`, `prefixItems`, `additionalItems` and `$ref`s to the
//! schema's own definitions. Where the path alone cannot decide (`patternProperties`, a
//! reference elsewhere) nothing is judged early, so what is found is never a false alarm;
//! the end judges the whole value against the whole schema in any case.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};

use super::{violations, Violation};

/// The parts of one schema that rule the paths a stream's values closed at, each compiled
/// on first use (a schema's own cache: every stream judged by it shares them).
#[derive(Debug, Default)]
pub(super) struct Parts {
    /// By the place in the schema: the rules compiled on their own, or none when they
    /// cannot stand alone.
    compiled: Mutex<HashMap<String, Option<Arc<Part>>>>,
}

/// A part of the schema compiled as a schema of its own.
struct Part {
    validator: jsonschema::Validator,
    document: Value,
}

impl std::fmt::Debug for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part")
            .field("document", &self.document)
            .finish_non_exhaustive()
    }
}

/// How many `$ref`s one step may follow (a reference cycle ends here).
const MAX_REFS: usize = 32;

impl Parts {
    /// What the rules of `root` at `path` find in `value`, which closed there; nothing
    /// when the path alone cannot decide which rules apply.
    pub(super) fn closed(&self, root: &Value, path: &str, value: &Value) -> Vec<Violation> {
        match self.part(root, path) {
            Some(part) => violations(&part.validator, &part.document, value, path),
            None => Vec::new(),
        }
    }

    /// The part of the schema that rules `path`, compiled; none when the path alone
    /// cannot decide it.
    fn part(&self, root: &Value, path: &str) -> Option<Arc<Part>> {
        let (place, rules) = rules_at(root, path)?;
        // A poisoned lock only means another thread panicked mid-insert: the map is intact.
        let mut compiled = self
            .compiled
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        compiled
            .entry(place)
            .or_insert_with(|| standalone(root, rules).map(Arc::new))
            .clone()
    }
}

/// The rules for the value at `path` (a JSON Pointer into the instance), and their place
/// in `root` (a JSON Pointer into the schema).
fn rules_at<'s>(root: &'s Value, path: &str) -> Option<(String, &'s Value)> {
    let mut place = String::new();
    let mut node = resolve(root, root, &mut place)?;
    for segment in path.split('/').skip(1) {
        let key = segment.replace("~1", "/").replace("~0", "~");
        let rules = node.as_object()?;
        let (step, next) = step(rules, &key)?;
        place.push_str(&step);
        node = resolve(root, next, &mut place)?;
    }
    Some((place, node))
}

/// Where the rules for a member `key` (or an item, when `key` is an index) are, among
/// `rules`: the step into the schema and what it reaches.
fn step<'s>(rules: &'s Map<String, Value>, key: &str) -> Option<(String, &'s Value)> {
    if let Some(member) = rules.get("properties").and_then(|p| p.get(key)) {
        return Some((format!("/properties/{}", escape(key)), member));
    }
    if let Ok(index) = key.parse::<usize>() {
        if let Some(found) = item_step(rules, index) {
            return Some(found);
        }
    }
    // A pattern may rule the key too: the path alone does not say which rules apply.
    if rules.contains_key("patternProperties") {
        return None;
    }
    let extra = rules
        .get("additionalProperties")
        .filter(|s| s.is_object())?;
    Some(("/additionalProperties".to_owned(), extra))
}

/// The rules for item `index`.
fn item_step(rules: &Map<String, Value>, index: usize) -> Option<(String, &Value)> {
    let tuple = |name: &str| rules.get(name).and_then(Value::as_array);
    let (tuple_name, rest_name) = if rules.contains_key("prefixItems") {
        ("prefixItems", "items")
    } else if tuple("items").is_some() {
        ("items", "additionalItems")
    } else {
        ("", "items")
    };
    if let Some(at) = tuple(tuple_name).and_then(|items| items.get(index)) {
        return Some((format!("/{tuple_name}/{index}"), at));
    }
    let rest = rules.get(rest_name).filter(|s| s.is_object())?;
    Some((format!("/{rest_name}"), rest))
}

/// Follow `node`'s `$ref`s to the schema's own places, moving `place` along.
fn resolve<'s>(root: &'s Value, mut node: &'s Value, place: &mut String) -> Option<&'s Value> {
    for _ in 0..MAX_REFS {
        let Some(reference) = node.get("$ref") else {
            return Some(node);
        };
        let pointer = reference.as_str()?.strip_prefix('#')?;
        node = root.pointer(pointer)?;
        *place = pointer.to_owned();
    }
    None
}

/// `rules` as a schema of its own: the root's definitions and draft beside it. None when
/// it refers to anything else (the root, a sibling, another document), which it could not
/// reach alone, or when it does not compile.
fn standalone(root: &Value, rules: &Value) -> Option<Part> {
    if !refers_only_to_definitions(rules) {
        return None;
    }
    let mut document = rules.clone();
    if let Value::Object(own) = &mut document {
        for key in ["$defs", "definitions", "$schema"] {
            match (own.get(key), root.get(key)) {
                (None, Some(shared)) => {
                    own.insert(key.to_owned(), shared.clone());
                }
                (Some(mine), Some(shared)) if mine != shared => return None,
                _ => {}
            }
        }
    }
    let validator = jsonschema::validator_for(&document).ok()?;
    Some(Part {
        validator,
        document,
    })
}

/// Whether every `$ref` in `rules` points into `#/$defs/` or `#/definitions/`.
fn refers_only_to_definitions(rules: &Value) -> bool {
    let mut stack = vec![rules];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(members) => {
                for (key, member) in members {
                    if key == "$ref" || key == "$dynamicRef" || key == "$recursiveRef" {
                        let inside = member.as_str().is_some_and(|to| {
                            to.starts_with("#/$defs/") || to.starts_with("#/definitions/")
                        });
                        if !inside {
                            return false;
                        }
                    }
                    stack.push(member);
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    true
}

/// A key as a JSON Pointer segment.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    use crate::schema::Schema;
    use jxray_formats::judge::{self, Validator as _};

    fn items(schema: Value) -> Schema {
        Schema::from_value(&schema, "test").unwrap()
    }

    fn pointers(items: &Schema, path: &str, value: Value) -> Vec<String> {
        let found = items.closed(path, &value);
        found.into_iter().map(|finding| finding.pointer).collect()
    }

    #[test]
    fn an_item_is_judged_by_the_rules_its_path_leads_to() {
        let schema = items(json!({
            "$defs": {"Line": {
                "type": "object",
                "required": ["sku", "qty"],
                "properties": {"qty": {"type": "integer", "minimum": 1}}
            }},
            "type": "object",
            "properties": {"lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}}}
        }));
        assert_eq!(
            pointers(&schema, "/lines/3/qty", json!(0)),
            ["/lines/3/qty"]
        );
        assert_eq!(
            pointers(&schema, "/lines/3", json!({"qty": 2})),
            ["/lines/3"]
        );
        assert!(pointers(&schema, "/lines/3", json!({"sku": "a", "qty": 2})).is_empty());
        let found = schema.closed("/lines/0/qty", &json!(0));
        assert!(
            found[0].line().starts_with("/lines/0/qty = 0: "),
            "{found:?}"
        );
        // The whole value, by the whole schema.
        assert_eq!(pointers(&schema, "", json!({"lines": 1})), ["/lines"]);
    }

    #[test]
    fn tuples_extra_members_and_old_drafts_lead_where_they_say() {
        let schema = items(json!({
            "type": "object",
            "properties": {
                "pair": {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}
            },
            "additionalProperties": {"type": "number"}
        }));
        assert_eq!(pointers(&schema, "/pair/0", json!(1)), ["/pair/0"]);
        assert_eq!(pointers(&schema, "/pair/5", json!("x")), ["/pair/5"]);
        assert_eq!(pointers(&schema, "/other", json!("x")), ["/other"]);
        // Draft 7's tuples: the part is compiled in the root's draft.
        let old = items(json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {
                "old": {"items": [{"type": "string"}], "additionalItems": {"type": "boolean"}}
            }
        }));
        assert_eq!(pointers(&old, "/old/0", json!(true)), ["/old/0"]);
        assert_eq!(pointers(&old, "/old/1", json!("x")), ["/old/1"]);
        assert!(pointers(&old, "/old/1", json!(false)).is_empty());
    }

    #[test]
    fn where_the_path_alone_cannot_decide_nothing_is_said_early() {
        let schema = items(json!({
            "type": "object",
            "properties": {
                "tree": {"type": "object", "properties": {"kids": {"items": {"$ref": "#"}}}},
                "any": {"anyOf": [{"properties": {"n": {"type": "string"}}}, {"type": "array"}]}
            },
            "patternProperties": {"^x-": {"type": "string"}},
            "additionalProperties": {"type": "integer"}
        }));
        // A pattern may rule an unknown key; a reference to the root cannot stand alone;
        // a branch of anyOf is not walked.
        assert!(pointers(&schema, "/x-note", json!(1)).is_empty());
        assert!(pointers(&schema, "/tree", json!({"kids": [{"tree": 1}]})).is_empty());
        assert!(pointers(&schema, "/any/n", json!(1)).is_empty());
        // A reference cycle ends.
        let cycle = items(
            json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
            "properties": {"x": {"$ref": "#/$defs/a"}}}),
        );
        assert!(pointers(&cycle, "/x", json!(1)).is_empty());
    }

    #[test]
    fn a_stream_names_the_failing_item_before_it_ends() {
        use crate::engine::{Extractor, Options, SignalKind};
        let schema = judge::items(Arc::new(items(json!({
            "type": "array",
            "items": {"type": "object", "properties": {"severity": {"enum": ["low", "high"]}}}
        }))));
        let text = "```json\n[{\"severity\": \"low\"}, {\"severity\": \"urgent\"}, {\"severity\": \"high\"}]\n```";
        let mut extractor = Extractor::new(Options::default()).with_validator(schema);
        let mut seen = Vec::new();
        for (i, byte) in text.as_bytes().chunks(1).enumerate() {
            for signal in extractor.feed(byte).signals {
                seen.push((i, signal));
            }
        }
        let [(at, signal)] = &seen[..] else {
            panic!("one signal: {seen:?}");
        };
        assert_eq!(signal.kind, SignalKind::Schema);
        assert_eq!(signal.path.as_deref(), Some("/1/severity"));
        assert_eq!(
            *at,
            text.find("\"urgent\"").unwrap() + 7,
            "as its string closed"
        );
        assert!(signal.message.contains("\"urgent\""), "{}", signal.message);
    }
}
