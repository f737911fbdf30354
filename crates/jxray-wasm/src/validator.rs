//! A validator the host holds (a Standard Schema such as zod or valibot), as the judge asks
//! it (`jxray_formats::judge`): about each candidate value, so the first one that validates
//! wins, as with `--schema` in the CLI, and for its issues about the value that is finally
//! taken when none validates.

use std::sync::Arc;

use jxray_formats::judge;
use jxray_formats::violation::{self, Violation};
use serde::Deserialize;
use serde_json::Value;

use crate::bigints::unsafe_integers;

/// The host's validator, reached through the boundary on wasm32 ([`crate::host`]) and
/// through a closure in tests: it is sent values as JSON text.
pub trait HostValidator: Send + Sync {
    /// Whether the value (compact JSON) validates.
    fn valid(&self, value: &str) -> bool;
    /// The validator's issues about the value (compact JSON), as a JSON array of
    /// `{"path": [key or index, …], "message": "…"}`; empty when it validates.
    fn issues(&self, value: &str) -> String;
    /// The issues about a part of a streamed value that closed at `path` (a JSON Pointer),
    /// judged by the rules for that part alone, each issue's path the part's own; empty
    /// when it validates or when the rules at `path` cannot be known from the path alone.
    fn closed_issues(&self, _path: &str, _value: &str) -> String {
        String::new()
    }
}

/// One issue as the host reports it.
#[derive(Debug, Deserialize)]
struct Issue {
    #[serde(default)]
    path: Vec<Value>,
    message: String,
}

/// The host's validator as the judge's: with `bigints`, it is sent the exact integers too
/// ([`wire`]), so it judges the value the host will return.
pub fn wired(host: Arc<dyn HostValidator>, bigints: bool) -> Arc<dyn judge::Validator> {
    Arc::new(Wired { host, bigints })
}

struct Wired {
    host: Arc<dyn HostValidator>,
    bigints: bool,
}

impl judge::Validator for Wired {
    fn accepts(&self, value: &Value) -> bool {
        self.host.valid(&wire(value, self.bigints))
    }

    /// Each issue at its path, as a JSON Schema's violations are listed.
    fn violations(&self, value: &Value) -> Result<Vec<Violation>, String> {
        read_issues(&self.host.issues(&wire(value, self.bigints)), value, "")
    }

    /// A streamed value's part that closed (the whole value too, at `""`), as the host
    /// judges it by that part's rules (an unreadable answer says nothing early: the end
    /// judges the whole value).
    fn closed(&self, path: &str, value: &Value) -> Vec<Violation> {
        let reply = self.host.closed_issues(path, &wire(value, self.bigints));
        read_issues(&reply, value, path).unwrap_or_default()
    }
}

/// The host's issues about `value`, which sits at `at` in the whole value: the pointers
/// are the whole value's.
fn read_issues(reply: &str, value: &Value, at: &str) -> Result<Vec<Violation>, String> {
    if reply.is_empty() {
        return Ok(Vec::new());
    }
    let issues: Vec<Issue> = serde_json::from_str(reply)
        .map_err(|error| format!("jxray: the validator's issues are not readable: {error}"))?;
    Ok(issues
        .iter()
        .map(|issue| {
            let steps: Vec<String> = issue.path.iter().map(step).collect();
            let inside = violation::pointer(steps.iter().map(String::as_str));
            let mut violation = Violation::at(value, inside, &issue.message);
            violation.pointer.insert_str(0, at);
            violation
        })
        .collect())
}

/// A value as the host's validator is sent it: compact JSON and, with `bigints` and when
/// there are any, a newline and the integers a JavaScript number cannot hold (the quick
/// reply's form, see [`crate::reply::quick`]), which the host puts in place before asking.
pub fn wire(value: &Value, bigints: bool) -> String {
    let mut text = value.to_string();
    if bigints {
        let found = unsafe_integers(value);
        if !found.is_empty() {
            text.push('\n');
            text.push_str(&serde_json::to_string(&found).expect("integers serialize to JSON"));
        }
    }
    text
}

/// A path step as text: a key as it is, an index in digits (Standard Schema allows
/// `{key}` objects too).
fn step(step: &Value) -> String {
    match step {
        Value::String(key) => key.clone(),
        Value::Object(object) => object.get("key").map_or_else(String::new, |key| match key {
            Value::String(key) => key.clone(),
            other => other.to_string(),
        }),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jxray_engine::{FailureKind, Options};
    use jxray_formats::judge::{judge, Reading};

    /// Accepts objects with a string `city`, as a zod object would.
    struct City;

    impl HostValidator for City {
        fn valid(&self, value: &str) -> bool {
            let value: Value = serde_json::from_str(value).unwrap();
            value.get("city").is_some_and(Value::is_string)
        }
        fn issues(&self, value: &str) -> String {
            if self.valid(value) {
                String::new()
            } else {
                r#"[{"path":["city"],"message":"Invalid input: expected string"},{"path":[{"key":"tags"},0],"message":"Too small"}]"#.into()
            }
        }
    }

    #[test]
    fn the_first_candidate_that_validates_wins() {
        let raw = "Draft: {\"city\": 1}\nFinal: {\"city\": \"Paris\"}";
        let city = wired(Arc::new(City), false);
        let judged = judge(raw, &Options::default(), &Reading::default(), Some(&city));
        let outcome = judged.unwrap().outcome;
        assert!(outcome.ok());
        assert_eq!(outcome.value, Some(serde_json::json!({"city": "Paris"})));
    }

    #[test]
    fn with_bigints_the_validator_is_sent_the_exact_integers() {
        let value: Value = serde_json::from_str(r#"{"id":12345678901234567890,"n":1}"#).unwrap();
        assert_eq!(wire(&value, false), r#"{"id":12345678901234567890,"n":1}"#);
        assert_eq!(
            wire(&value, true),
            "{\"id\":12345678901234567890,\"n\":1}\n[{\"path\":[\"id\"],\"digits\":\"12345678901234567890\"}]"
        );
        assert_eq!(wire(&serde_json::json!([1]), true), "[1]");
    }

    #[test]
    fn a_value_that_never_validates_is_a_schema_failure_with_each_issue() {
        let raw = "{\"city\": 1, \"tags\": [\"\"]}";
        let city = wired(Arc::new(City), false);
        let judged = judge(raw, &Options::default(), &Reading::default(), Some(&city));
        let outcome = judged.unwrap().outcome;
        let failure = outcome.failure.expect("a schema failure");
        assert_eq!(failure.kind, FailureKind::Schema);
        assert_eq!(
            failure.message,
            "the value breaks the schema (2 violations): /city = 1: Invalid input: expected string; /tags/0 = \"\": Too small"
        );
    }
}
