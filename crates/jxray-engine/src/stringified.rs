//! Stringified JSON: a string in the value that itself holds a JSON object or
//! array (double-encoded tool arguments are the common case).
//!
//! Found by walking the decoded value with an explicit stack (the decoder
//! already bounds its depth), so the cost is linear in the value.

use serde_json::Value;

use super::decode::decode;
use super::path::member_path;

/// One string that holds JSON: its path and the value it decodes to.
#[derive(Debug, Clone, PartialEq)]
pub struct Stringified {
    /// `$`, `$.args`, `$.calls[0].arguments`.
    pub path: String,
    /// The value the string decodes to.
    pub decoded: Value,
}

/// Every string in `value` that holds a JSON object or array, in document order.
///
/// A path is spelled out only for a string that is found: the walk keeps the steps from the
/// root (a key or an index each), so a large value with no stringified JSON costs no
/// allocation per node.
pub fn find_stringified(value: &Value) -> Vec<Stringified> {
    let mut found = Vec::new();
    // Each node with its depth and the step that led to it; `steps[..depth]` is the way
    // from the root to its parent.
    let mut stack: Vec<(&Value, usize, Option<Step>)> = vec![(value, 0, None)];
    let mut steps: Vec<Step> = Vec::new();
    while let Some((node, depth, step)) = stack.pop() {
        steps.truncate(depth);
        if let Some(step) = step {
            steps.push(step);
        }
        match node {
            Value::String(text) => {
                if let Some(decoded) = holds_json(text) {
                    found.push(Stringified {
                        path: spell(&steps),
                        decoded,
                    });
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((item, steps.len(), Some(Step::Index(index))));
                }
            }
            Value::Object(entries) => {
                for (key, item) in entries.iter().rev() {
                    stack.push((item, steps.len(), Some(Step::Key(key))));
                }
            }
            _ => {}
        }
    }
    found
}

/// One step down from a container.
#[derive(Debug, Clone, Copy)]
enum Step<'a> {
    Index(usize),
    Key(&'a str),
}

/// `$`, `$.args`, `$.calls[0].arguments` for the steps from the root.
fn spell(steps: &[Step]) -> String {
    let mut path = "$".to_owned();
    for step in steps {
        path = match step {
            Step::Index(index) => format!("{path}[{index}]"),
            Step::Key(key) => member_path(&path, key),
        };
    }
    path
}

/// Replace every stringified value by what it decodes to; returns the paths replaced.
pub(crate) fn decode_stringified(value: &mut Value) -> Vec<String> {
    let mut replaced = Vec::new();
    let mut stack: Vec<(&mut Value, String)> = vec![(value, "$".to_owned())];
    while let Some((node, path)) = stack.pop() {
        match node {
            Value::String(text) => {
                if let Some(decoded) = holds_json(text) {
                    *node = decoded;
                    replaced.push(path);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate().rev() {
                    stack.push((item, format!("{path}[{index}]")));
                }
            }
            Value::Object(entries) => {
                let children: Vec<_> = entries.iter_mut().collect();
                for (key, item) in children.into_iter().rev() {
                    let child = member_path(&path, key);
                    stack.push((item, child));
                }
            }
            _ => {}
        }
    }
    replaced
}

/// The JSON object or array a string holds, if it holds exactly one.
fn holds_json(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if !looks_like_json(trimmed) {
        return None;
    }
    decode(trimmed).ok().map(|(value, _)| value)
}

/// Whether any string in `value` (not a key) is shaped like a JSON object or array.
pub(crate) fn holds_json_string(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node {
            Value::String(text) if looks_like_json(text) => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(entries) => stack.extend(entries.values()),
            _ => {}
        }
    }
    false
}

/// Whether a string is shaped like a JSON object or array (it may hold one).
pub(crate) fn looks_like_json(text: &str) -> bool {
    let trimmed = text.trim();
    (trimmed.starts_with('{') && trimmed.ends_with('}'))
        || (trimmed.starts_with('[') && trimmed.ends_with(']'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_strings_holding_json_at_any_path() {
        let value =
            json!({"name": "f", "args": "{\"q\": 1}", "list": ["x", " [1, 2] "], "odd key": "{}"});
        let paths: Vec<String> = find_stringified(&value)
            .into_iter()
            .map(|s| s.path)
            .collect();
        assert_eq!(paths, vec!["$.args", "$.list[1]", "$[\"odd key\"]"]);
        assert!(find_stringified(&json!("{\"k\": [1, 2]}"))[0].path == "$");
        assert!(find_stringified(&json!({"a": "{not json}", "b": "[1, 2"})).is_empty());
        let nested = json!({"a": [{"b": "{}"}, {"x": 1}], "c": {"d": "[1]"}, "e": ["[]"]});
        let paths: Vec<String> = find_stringified(&nested)
            .into_iter()
            .map(|s| s.path)
            .collect();
        assert_eq!(paths, vec!["$.a[0].b", "$.c.d", "$.e[0]"]);
    }

    #[test]
    fn decoding_replaces_the_strings() {
        let mut value = json!({"args": "{\"q\": 1}", "n": 2});
        assert_eq!(decode_stringified(&mut value), vec!["$.args"]);
        assert_eq!(value, json!({"args": {"q": 1}, "n": 2}));
    }
}
