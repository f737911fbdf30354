//! Any JSON or JSONL log, read through field paths: `--text-path`, `--stop-path`,
//! `--id-path`, `--model-path`, or a `--preset` that names the usual paths of a tool.
//!
//! Each record is one capture named `FILE#ID` (the id path's value; `FILE:LINE` or
//! `FILE#N` when a record has none). The text path may lead to a string (the text), to a
//! provider envelope (OpenAI, Anthropic, Gemini, …: its text, tool calls and stop reason are
//! read as usual), or to other JSON (its compact text). A record where the text path leads
//! nowhere, or to an empty object, is unreadable and says which path was looked at: logging
//! tools often keep no content unless told to.

mod path;
mod preset;

use serde_json::Value;

use super::envelope::{self, Contents, LogRecord, Outputs};
use super::Provider;

pub use path::{FieldPath, PathError};
pub use preset::Preset;

/// Where a record's text, stop reason, id and model are. Each field lists alternatives:
/// the first that leads somewhere wins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldMap {
    /// Named in messages: `--text-path` or the preset's name.
    pub(crate) origin: String,
    /// Where the records are inside one JSON document (`[*]` for a top-level list).
    pub(crate) records: Vec<FieldPath>,
    pub(crate) text: Vec<FieldPath>,
    pub(crate) stop: Vec<FieldPath>,
    pub(crate) id: Vec<FieldPath>,
    pub(crate) model: Vec<FieldPath>,
    /// Which records are model outputs, where a log also holds other things
    /// (OpenTelemetry spans that are not model calls, Langfuse spans and events).
    pub(crate) only: Option<Condition>,
}

/// Paths named on the command line, each replacing its preset's.
#[derive(Debug, Clone, Default)]
pub struct PathFlags {
    pub preset: Option<Preset>,
    pub text: Option<FieldPath>,
    pub stop: Option<FieldPath>,
    pub id: Option<FieldPath>,
    pub model: Option<FieldPath>,
}

/// `--stop-path` and friends without `--text-path` or `--preset`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{flag} needs --text-path or --preset: without them each file is read in its own format")]
pub struct NoTextPath {
    flag: &'static str,
}

impl PathFlags {
    /// The field map these flags describe; `None` when none was given.
    pub fn field_map(self) -> Result<Option<FieldMap>, NoTextPath> {
        let mut fields = match (self.preset, &self.text) {
            (Some(preset), _) => preset.fields(),
            (None, Some(_)) => FieldMap {
                origin: "--text-path".to_string(),
                ..FieldMap::default()
            },
            (None, None) => {
                let given = [
                    ("--stop-path", self.stop.is_some()),
                    ("--id-path", self.id.is_some()),
                    ("--model-path", self.model.is_some()),
                ];
                return match given.into_iter().find(|(_, given)| *given) {
                    Some((flag, _)) => Err(NoTextPath { flag }),
                    None => Ok(None),
                };
            }
        };
        let slots = [
            (self.text, &mut fields.text),
            (self.stop, &mut fields.stop),
            (self.id, &mut fields.id),
            (self.model, &mut fields.model),
        ];
        for (flag, slot) in slots {
            if let Some(path) = flag {
                *slot = vec![path];
            }
        }
        Ok(Some(fields))
    }
}

/// Which records of a log are model outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// Those where one of these paths leads somewhere.
    Has(Vec<FieldPath>),
    /// Those whose value at the path is this, or that lack the path.
    EqualsWhenPresent(FieldPath, &'static str),
}

impl FieldMap {
    /// The records of a whole JSON document: at the records path, a top-level list's
    /// elements, or the document itself.
    pub(crate) fn records(&self, document: Value) -> Vec<Value> {
        for path in &self.records {
            let found = path.all(&document);
            if !found.is_empty() {
                return found;
            }
        }
        match document {
            Value::Array(items) => items,
            other => vec![other],
        }
    }

    /// Whether `record` is a model output at all (see [`FieldMap::only`]).
    pub(crate) fn is_output(&self, record: &Value) -> bool {
        match &self.only {
            None => true,
            Some(Condition::Has(paths)) => first(paths, record).is_some(),
            Some(Condition::EqualsWhenPresent(path, wanted)) => match path.first(record) {
                Some(Value::String(found)) => found == *wanted,
                Some(_) => false,
                None => true,
            },
        }
    }

    /// What one record holds.
    pub(crate) fn read(&self, record: &Value) -> LogRecord {
        LogRecord {
            id: first(&self.id, record).and_then(|id| scalar(&id)),
            result: self.decode(record),
        }
    }

    /// Whether the text path leads somewhere in `record`.
    pub(crate) fn finds_text(&self, record: &Value) -> bool {
        first(&self.text, record).is_some()
    }

    fn decode(&self, record: &Value) -> Result<Contents, String> {
        let tried = || {
            let paths: Vec<String> = self.text.iter().map(ToString::to_string).collect();
            paths.join(" or ")
        };
        let Some(found) = first(&self.text, record) else {
            return Err(format!(
                "no output at {} ({}); check the path, or turn on content logging in the tool",
                tried(),
                self.origin
            ));
        };
        let stop_reason = first(&self.stop, record).and_then(|stop| scalar(&stop));
        let model = first(&self.model, record).and_then(|model| scalar(&model));
        let decoded = match &found {
            Value::String(text) => Contents {
                provider: Some(Provider::Log),
                outputs: Outputs::text(text.clone()),
                ..Contents::default()
            },
            Value::Null => return Err(empty(&tried())),
            Value::Object(object) if object.is_empty() => return Err(empty(&tried())),
            other => match envelope::detect(other) {
                Some(detected) => detected?,
                None => Contents {
                    provider: Some(Provider::Log),
                    outputs: Outputs::text(envelope::compact(other)),
                    ..Contents::default()
                },
            },
        };
        Ok(Contents {
            stop_reason: stop_reason.or(decoded.stop_reason),
            model: model.or(decoded.model),
            ..decoded
        })
    }
}

fn empty(paths: &str) -> String {
    format!(
        "the log keeps no output: {paths} is empty; turn on content logging in the tool \
         that wrote it"
    )
}

/// The value at the first path that leads somewhere.
fn first(paths: &[FieldPath], record: &Value) -> Option<Value> {
    paths.iter().find_map(|path| path.first(record))
}

/// A short scalar as text (ids may be numbers); lists take their first element
/// (`gen_ai.response.finish_reasons`).
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Array(items) => items.first().map(path::unwrap_typed).and_then(scalar),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(text: &str) -> FieldMap {
        FieldMap {
            origin: "--text-path".into(),
            text: vec![text.parse().unwrap()],
            stop: vec!["finish".parse().unwrap()],
            id: vec!["id".parse().unwrap()],
            ..FieldMap::default()
        }
    }

    #[test]
    fn a_string_is_the_text_with_the_stop_reason_and_id() {
        let mapped = map("out").read(&json!({"id": 7, "out": "{\"a\":1}", "finish": "length"}));
        assert_eq!(mapped.id.as_deref(), Some("7"));
        let decoded = mapped.result.unwrap();
        assert_eq!(decoded.outputs, Outputs::text("{\"a\":1}"));
        assert_eq!(decoded.stop_reason.as_deref(), Some("length"));
        assert_eq!(decoded.provider, Some(Provider::Log));
    }

    #[test]
    fn an_envelope_at_the_path_is_read_as_one() {
        let record = json!({"body": {"object": "chat.completion", "model": "gpt-4o", "choices": [
            {"message": {"role": "assistant", "content": "[1]"}, "finish_reason": "stop"}]}});
        let decoded = map("body").read(&record).result.unwrap();
        assert_eq!(decoded.provider, Some(Provider::OpenaiChat));
        assert_eq!(decoded.stop_reason.as_deref(), Some("stop"));
        assert_eq!(decoded.model.as_deref(), Some("gpt-4o"));
    }

    #[test]
    fn missing_and_empty_outputs_name_the_path() {
        let missing = map("response.text")
            .read(&json!({"x": 1}))
            .result
            .unwrap_err();
        assert!(missing.contains("response.text"), "{missing}");
        let empty = map("response")
            .read(&json!({"response": {}}))
            .result
            .unwrap_err();
        assert!(empty.contains("keeps no output"), "{empty}");
    }
}
