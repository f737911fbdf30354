//! Dotted field paths into a JSON record: `response.choices[0].message.content`.
//!
//! - `a.b` steps into object keys, `[N]` into array elements, `[*]` into every element;
//! - `["gen_ai.output.messages"]` is a key that holds dots;
//! - a string met before the path ends is decoded as JSON and the path goes on inside it
//!   (logs often store a message as JSON text: Langfuse `output`, MLflow span attributes);
//! - a key applied to a list of `{"key": …, "value": …}` pairs (OpenTelemetry attributes)
//!   picks the pair with that key, and OpenTelemetry's typed values (`{"stringValue": …}`)
//!   are unwrapped.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

/// One parsed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldPath {
    text: String,
    steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
    Every,
}

/// Why a path could not be parsed; the message shows the path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field path {path:?}: {problem}; write it like response.choices[0].message.content")]
pub struct PathError {
    path: String,
    problem: String,
}

impl FromStr for FieldPath {
    type Err = PathError;

    fn from_str(text: &str) -> Result<FieldPath, PathError> {
        let fail = |problem: &str| PathError {
            path: text.to_string(),
            problem: problem.to_string(),
        };
        let mut steps = Vec::new();
        let mut rest = text;
        // A key is expected at the start and after each dot; a bracket may follow anything.
        let mut want_key = true;
        while !rest.is_empty() {
            if let Some(inside) = rest.strip_prefix('[') {
                let close = inside
                    .find(']')
                    .ok_or_else(|| fail("a `[` is never closed"))?;
                let (step, consumed) = bracket(&inside[..close], inside)
                    .ok_or_else(|| fail("inside `[…]` write a number, `*` or a quoted key"))?;
                steps.push(step);
                rest = &inside[consumed..];
                want_key = false;
            } else if let Some(after) = rest.strip_prefix('.') {
                if want_key {
                    return Err(fail("an empty name before a `.`"));
                }
                rest = after;
                want_key = true;
                if rest.is_empty() {
                    return Err(fail("it ends with a `.`"));
                }
            } else if want_key {
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                steps.push(Step::Key(rest[..end].to_string()));
                rest = &rest[end..];
                want_key = false;
            } else {
                return Err(fail("expected `.` or `[` between names"));
            }
        }
        if steps.is_empty() {
            return Err(fail("it is empty"));
        }
        Ok(FieldPath {
            text: text.to_string(),
            steps,
        })
    }
}

/// The step inside `[…]` and how many bytes of `after_open` it used (through the `]`).
/// A quoted key may hold `]`, so it is scanned to its closing quote first.
fn bracket(inside: &str, after_open: &str) -> Option<(Step, usize)> {
    if let Some(quoted) = after_open.strip_prefix('"') {
        let end = quoted.find('"')?;
        let consumed = 1 + end + 1;
        if !after_open[consumed..].starts_with(']') {
            return None;
        }
        return Some((Step::Key(quoted[..end].to_string()), consumed + 1));
    }
    let step = match inside.trim() {
        "*" => Step::Every,
        number => Step::Index(number.parse().ok()?),
    };
    Some((step, inside.len() + 1))
}

impl fmt::Display for FieldPath {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(&self.text)
    }
}

impl FieldPath {
    /// The first value at this path (with `[*]`, the first match), if any.
    pub(crate) fn first(&self, record: &Value) -> Option<Value> {
        self.all(record).into_iter().next()
    }

    /// Every value at this path, in order.
    pub(crate) fn all(&self, record: &Value) -> Vec<Value> {
        let mut current = vec![unwrap_typed(record).clone()];
        for step in &self.steps {
            let mut next = Vec::new();
            for value in current {
                let value = match value {
                    // A string met mid-path is JSON text: the path goes on inside it.
                    Value::String(text) => match serde_json::from_str(&text) {
                        Ok(decoded) => decoded,
                        Err(_) => continue,
                    },
                    other => other,
                };
                step.apply(value, &mut next);
            }
            current = next;
        }
        current
    }
}

impl Step {
    fn apply(&self, value: Value, out: &mut Vec<Value>) {
        let push = |out: &mut Vec<Value>, value: Value| out.push(unwrap_typed(&value).clone());
        match (self, value) {
            (Step::Key(key), Value::Object(mut object)) => {
                if let Some(found) = object.swap_remove(key) {
                    push(out, found);
                }
            }
            (Step::Key(key), Value::Array(pairs)) => {
                let found = pairs
                    .into_iter()
                    .find(|pair| pair.get("key").and_then(Value::as_str) == Some(key.as_str()));
                if let Some(value) =
                    found.and_then(|mut pair| pair.get_mut("value").map(Value::take))
                {
                    push(out, value);
                }
            }
            (Step::Index(index), Value::Array(mut items)) if *index < items.len() => {
                push(out, items.swap_remove(*index));
            }
            (Step::Every, Value::Array(items)) => {
                for item in items {
                    push(out, item);
                }
            }
            _ => {}
        }
    }
}

/// OpenTelemetry's typed value (`{"stringValue": "x"}`, `{"arrayValue": {"values": […]}}`)
/// as the plain value it holds; anything else as it is.
pub(super) fn unwrap_typed(value: &Value) -> &Value {
    const SCALARS: [&str; 5] = [
        "stringValue",
        "intValue",
        "doubleValue",
        "boolValue",
        "bytesValue",
    ];
    let Some(object) = value.as_object().filter(|object| object.len() == 1) else {
        return value;
    };
    let Some((key, inner)) = object.iter().next() else {
        return value;
    };
    if SCALARS.contains(&key.as_str()) {
        return inner;
    }
    match key.as_str() {
        "arrayValue" | "kvlistValue" => inner.get("values").unwrap_or(inner),
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(text: &str) -> FieldPath {
        text.parse().unwrap()
    }

    #[test]
    fn keys_indexes_and_quoted_keys() {
        let record = json!({"response": {"choices": [{"message": {"content": "hi"}}]},
                            "attributes": {"gen_ai.system": "openai"}});
        assert_eq!(
            path("response.choices[0].message.content").first(&record),
            Some(json!("hi"))
        );
        assert_eq!(
            path(r#"attributes["gen_ai.system"]"#).first(&record),
            Some(json!("openai"))
        );
        assert_eq!(path("response.choices[1]").first(&record), None);
        assert_eq!(path("missing").first(&record), None);
    }

    #[test]
    fn a_string_holding_json_is_decoded_mid_path() {
        let record =
            json!({"output": "{\"role\": \"assistant\", \"content\": \"{\\\"a\\\": 1}\"}"});
        assert_eq!(
            path("output.content").first(&record),
            Some(json!("{\"a\": 1}"))
        );
        let plain = json!({"output": "just words"});
        assert_eq!(path("output.content").first(&plain), None);
        assert_eq!(path("output").first(&plain), Some(json!("just words")));
    }

    #[test]
    fn every_element_and_opentelemetry_attribute_lists() {
        let span = json!({"attributes": [
            {"key": "gen_ai.response.model", "value": {"stringValue": "gpt-4o"}},
            {"key": "gen_ai.response.finish_reasons",
             "value": {"arrayValue": {"values": [{"stringValue": "length"}]}}}
        ]});
        assert_eq!(
            path(r#"attributes["gen_ai.response.model"]"#).first(&span),
            Some(json!("gpt-4o"))
        );
        assert_eq!(
            path(r#"attributes["gen_ai.response.finish_reasons"][0]"#).first(&span),
            Some(json!("length"))
        );
        let document = json!({"spans": [{"id": 1}, {"id": 2}]});
        assert_eq!(path("spans[*].id").all(&document), vec![json!(1), json!(2)]);
    }

    #[test]
    fn bad_paths_say_what_is_wrong() {
        for bad in ["", "a..b", "a.", "a[", "a[x]", ".a", "a[0]b"] {
            let error = bad.parse::<FieldPath>().unwrap_err().to_string();
            assert!(error.starts_with("field path"), "{bad}: {error}");
        }
        assert_eq!(
            path(r#"a["x]y"].b"#).first(&json!({"a": {"x]y": {"b": 2}}})),
            Some(json!(2))
        );
    }
}
