//! JSON Schema validation of extracted values: valid JSON that breaks the
//! user's contract is a `schema` failure (contract §1), a different fix from
//! a formatting problem.

use crate::text::shown_path;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::capture::{read_regular_text, Capture};
use jxray_formats::judge::Validator;
use jxray_formats::violation::{one_line, quote};

mod items;

pub use crate::capture::MAX_SCHEMA_BYTES;

/// A compiled JSON Schema, and the document it came from (to quote its rules).
pub struct Schema {
    validator: jsonschema::Validator,
    document: Value,
    /// The host language's own validation, which then decides instead of the JSON Schema
    /// (Python's Pydantic model: its field and model validators run on each candidate).
    host: Option<HostCheck>,
    /// The parts that rule a stream's values as they close, compiled on first use.
    parts: items::Parts,
}

/// A host language's validation of a value: every violation it finds, none when the value
/// is accepted. The JSON Schema document stays what the schema says it asks for (the
/// repair request's required keys, a fixture's schema).
pub type HostCheck = Arc<dyn Fn(&Value) -> Vec<Violation> + Send + Sync>;

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schema")
            .field("document", &self.document)
            .finish_non_exhaustive()
    }
}

pub use jxray_formats::violation::Violation;

/// Why a schema could not be used; the message names the file and the fix.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    #[error("{origin}: cannot read the schema given to --schema: {message}")]
    Read { origin: String, message: String },
    #[error("{origin}: the schema is not JSON: {message}; fix the schema file")]
    NotJson { origin: String, message: String },
    #[error("{origin}: not a valid JSON Schema: {message}; fix the schema file")]
    Invalid { origin: String, message: String },
}

impl Schema {
    /// Read and compile a schema file: a regular file only, never a FIFO or device.
    pub fn from_file(path: &Path) -> Result<Schema, SchemaError> {
        let origin = shown_path(&path).to_string();
        let size_fix = |_| "a schema that large is not supported; check the path".to_string();
        let text = read_regular_text(path, MAX_SCHEMA_BYTES, &size_fix).map_err(|unreadable| {
            SchemaError::Read {
                origin: origin.clone(),
                message: unreadable.message,
            }
        })?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let value: Value = serde_json::from_str(text).map_err(|error| SchemaError::NotJson {
            origin: origin.clone(),
            message: error.to_string(),
        })?;
        Schema::from_value(&value, &origin)
    }

    /// Compile a schema; `origin` names it in errors.
    pub fn from_value(schema: &Value, origin: &str) -> Result<Schema, SchemaError> {
        let validator =
            jsonschema::validator_for(schema).map_err(|error| SchemaError::Invalid {
                origin: origin.to_string(),
                message: one_line(&error.to_string()),
            })?;
        Ok(Schema {
            validator,
            document: schema.clone(),
            host: None,
            parts: items::Parts::default(),
        })
    }

    /// This schema with the host language's validation deciding what fits it (see
    /// [`HostCheck`]).
    pub fn with_host_check(mut self, check: HostCheck) -> Schema {
        self.host = Some(check);
        self
    }

    /// The schema document, as a fixture records it.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// Every violation, in the validator's order (the host's, when it validates).
    pub fn violations(&self, value: &Value) -> Vec<Violation> {
        if let Some(check) = &self.host {
            return check(value);
        }
        violations(&self.validator, &self.document, value, "")
    }
}

/// The schema as the judge asks it: the first candidate that validates is the answer (one
/// that breaks it is taken only when none validates), and a stream's values are judged by
/// the part of the schema that rules their path as they close.
impl Validator for Schema {
    fn accepts(&self, value: &Value) -> bool {
        match &self.host {
            Some(check) => check(value).is_empty(),
            None => self.validator.is_valid(value),
        }
    }

    fn violations(&self, value: &Value) -> Result<Vec<Violation>, String> {
        Ok(Schema::violations(self, value))
    }

    fn closed(&self, path: &str, value: &Value) -> Vec<Violation> {
        if path.is_empty() {
            return Schema::violations(self, value);
        }
        self.parts.closed(&self.document, path, value)
    }
}

/// What `validator` (compiled from `document`) finds in `value`, which sits at `at` in the
/// whole value: the pointers are the whole value's.
fn violations(
    validator: &jsonschema::Validator,
    document: &Value,
    value: &Value,
    at: &str,
) -> Vec<Violation> {
    validator
        .iter_errors(value)
        .map(|error| {
            let keyword = error.kind().keyword().to_string();
            let rule = document
                .pointer(error.schema_path().as_str())
                .map(quote)
                .unwrap_or_default();
            Violation {
                pointer: format!("{at}{}", error.instance_path().as_str()),
                value: quote(error.instance()),
                keyword,
                rule,
                message: one_line(&error.masked().to_string()),
            }
        })
        .collect()
}

/// The schemas that captures carry from the logs that recorded them (`llm --schema`,
/// promptfoo `is-json`), each compiled once however many captures share it.
///
/// The one place that decides which schema a capture is checked against: `--schema` when
/// given, else the one its log recorded. Checking (the checker) and showing the violations
/// ([`CaptureSchemas::checked_against`], the TUI's Decoded pane) both ask here, so they always tell of the same schema.
#[derive(Debug, Default)]
pub struct CaptureSchemas {
    compiled: Mutex<HashMap<String, Result<Arc<Schema>, String>>>,
}

impl CaptureSchemas {
    /// The schema `capture` is checked against: `explicit` (`--schema`) when given, else
    /// the one its log recorded, compiled (or why that one cannot be used); `None` when
    /// there is neither.
    pub(crate) fn chosen(
        &self,
        explicit: Option<&Arc<Schema>>,
        capture: &Capture,
    ) -> Option<Result<Arc<Schema>, String>> {
        if let Some(schema) = explicit {
            return Some(Ok(Arc::clone(schema)));
        }
        let recorded = capture.schema.as_ref()?;
        Some(self.compiled(recorded))
    }

    /// The schema `capture` is checked against, when it is one that compiles.
    pub(crate) fn checked_against(
        &self,
        explicit: Option<&Arc<Schema>>,
        capture: &Capture,
    ) -> Option<Arc<Schema>> {
        self.chosen(explicit, capture)?.ok()
    }

    fn compiled(&self, schema: &Value) -> Result<Arc<Schema>, String> {
        let key = schema.to_string();
        // A poisoned lock only means another thread panicked mid-insert: the map is intact.
        let mut compiled = self
            .compiled
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let entry = compiled.entry(key).or_insert_with(|| {
            Schema::from_value(schema, "the schema the log recorded")
                .map(Arc::new)
                .map_err(|e| {
                    format!("{e}; or pass --schema to check against another")
                        .replace("; fix the schema file", "")
                })
        });
        entry.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Checker;
    use crate::engine::{FailureKind, Options, Outcome};
    use serde_json::json;

    fn checked(schema: Option<Schema>, capture: &Capture) -> Outcome {
        let checker = Checker::new(Options::default(), schema.map(Arc::new));
        checker.outcome(capture)
    }

    fn city_schema() -> Schema {
        Schema::from_value(
            &json!({
                "type": "object",
                "required": ["city", "population"],
                "properties": {"city": {"type": "string"}, "population": {"type": "integer"}}
            }),
            "test",
        )
        .unwrap()
    }

    #[test]
    fn a_host_check_decides_which_candidate_fits_and_names_the_violations() {
        // The host accepts an even population only, which the JSON Schema cannot say.
        let host: HostCheck = Arc::new(|value: &Value| {
            let odd = value["population"].as_i64().is_some_and(|n| n % 2 == 1);
            if odd {
                vec![Violation::at(
                    value,
                    "/population".into(),
                    "Value error, must be even",
                )]
            } else {
                Vec::new()
            }
        });
        let schema = Arc::new(city_schema().with_host_check(host));
        let checker = Checker::new(Options::default(), Some(schema));
        let capture = Capture::from_text(
            "-",
            "{\"city\": \"A\", \"population\": 3} or {\"city\": \"B\", \"population\": 4}",
        );
        let outcome = checker.outcome(&capture);
        assert_eq!(outcome.value, Some(json!({"city": "B", "population": 4})));
        let capture = Capture::from_text("-", "{\"city\": \"A\", \"population\": 3}");
        let failure = checker.outcome(&capture).failure.expect("a schema failure");
        assert_eq!(failure.kind, FailureKind::Schema);
        assert!(
            failure
                .message
                .contains("/population = 3: Value error, must be even"),
            "{}",
            failure.message
        );
    }

    #[test]
    fn every_failing_path_is_listed_at_the_span_start() {
        let raw = "Here:\n```json\n{\"city\": 1}\n```";
        let outcome = checked(Some(city_schema()), &Capture::from_text("-", raw));
        let failure = outcome.failure.clone().expect("a schema failure");
        assert_eq!(failure.kind, FailureKind::Schema);
        assert_eq!((failure.line, failure.column, failure.offset), (3, 1, 14));
        for needle in [
            "2 violations",
            "/city = 1: ",
            "(type \"string\")",
            "(root) = {",
            "population",
        ] {
            assert!(failure.message.contains(needle), "{}", failure.message);
        }
        assert!(!outcome.ok());
        assert_eq!(outcome.value, Some(json!({"city": 1})), "the value is kept");
    }

    #[test]
    fn a_violation_names_the_path_the_offending_value_and_the_rule() {
        let schema = Schema::from_value(
            &json!({"properties": {"priority": {"enum": ["low", "medium", "high", "urgent"]}}}),
            "test",
        )
        .unwrap();
        let violations = schema.violations(&json!({"priority": "P2"}));
        assert_eq!(violations.len(), 1);
        let violation = &violations[0];
        assert_eq!(violation.pointer, "/priority");
        assert_eq!(violation.value, "\"P2\"");
        assert_eq!(violation.keyword, "enum");
        assert_eq!(violation.rule, r#"["low","medium","high","urgent"]"#);
        assert!(violation.line().starts_with("/priority = \"P2\": "));
        let long = json!({"priority": "x".repeat(200)});
        let cut = &schema.violations(&long)[0].value;
        assert_eq!(cut.chars().count(), 60);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn valid_values_and_failures_are_left_alone() {
        let fits = Capture::from_text("-", "{\"city\": \"Paris\", \"population\": 2}");
        assert!(checked(Some(city_schema()), &fits).ok());
        let failed = Capture::from_text("-", "{\"city\": ");
        let before = checked(None, &failed);
        assert_eq!(checked(Some(city_schema()), &failed), before);
    }

    #[test]
    fn a_capture_is_checked_against_its_own_schema_unless_one_is_given() {
        let schemas = CaptureSchemas::default();
        let mut capture = Capture::from_text("logs.db#1", "{\"city\": 1}");
        capture.schema = Some(Arc::new(
            json!({"properties": {"city": {"type": "string"}}}),
        ));
        let outcome = checked(None, &capture);
        assert_eq!(outcome.failure.map(|f| f.kind), Some(FailureKind::Schema));
        assert!(schemas.checked_against(None, &capture).is_some());

        let loose = Schema::from_value(&json!({"type": "object"}), "given").unwrap();
        let outcome = checked(Some(loose), &capture);
        assert!(outcome.ok(), "--schema wins over the recorded one");

        capture.schema = Some(Arc::new(json!({"type": 12})));
        assert!(schemas.checked_against(None, &capture).is_none());
        let outcome = checked(None, &capture);
        let message = outcome.failure.unwrap().message;
        assert!(message.contains("the schema the log recorded"), "{message}");
    }

    #[test]
    fn bad_schemas_are_named_errors() {
        let dir = tempfile::tempdir().unwrap();
        let missing = Schema::from_file(&dir.path().join("none.json"))
            .err()
            .unwrap();
        assert!(matches!(missing, SchemaError::Read { .. }));
        let path = dir.path().join("broken.json");
        std::fs::write(&path, "{not json").unwrap();
        let broken = Schema::from_file(&path).err().unwrap();
        assert!(matches!(broken, SchemaError::NotJson { .. }));
        assert!(broken
            .to_string()
            .starts_with(&shown_path(&path).to_string()));
        let invalid = Schema::from_value(&json!({"type": 12}), "s.json")
            .err()
            .unwrap();
        assert!(matches!(invalid, SchemaError::Invalid { .. }), "{invalid}");
    }
}
