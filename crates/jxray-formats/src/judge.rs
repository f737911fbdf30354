//! How one text is judged, once for every front end: the engine run with what the capture's
//! reader said of it (stop reason, refusal mark, warnings), the app's contract asked about
//! each candidate (the first that fits wins) and about the value finally taken (a value
//! that still breaks it is a `schema` failure listing each violation).
//!
//! The contract is a [`Validator`]: a JSON Schema in the native builds, the host's
//! validator (zod, valibot, any Standard Schema) in WebAssembly, a Pydantic model in
//! Python. The CLI's `Checker`, the wasm crate and the Python crate all judge here, so a
//! value fits or breaks the same way everywhere; the violations come back with the outcome,
//! so a repair decision about it asks the validator nothing again.
//!
//! The streaming extractor sits behind the same trait: [`items`] turns a validator into the
//! engine's judge of each value as it closes.

use std::sync::Arc;

use jxray_engine::{
    extract, extract_accepted, Acceptor, FailureKind, ItemFinding, ItemValidator, Options, Outcome,
    Warning, WarningKind,
};
use serde_json::Value;

use crate::violation::{self, Violation};

/// The app's contract for a value.
pub trait Validator: Send + Sync {
    /// Whether `value` fits (asked of each candidate, so it should be cheap).
    fn accepts(&self, value: &Value) -> bool;

    /// Every way `value` breaks the contract, in the validator's order; none when it fits.
    /// An error is the validator's own failure (a host's answer that cannot be read), which
    /// is the caller's error, not the capture's.
    fn violations(&self, value: &Value) -> Result<Vec<Violation>, String>;

    /// What is wrong with `value`, which closed at `path` (a JSON Pointer, `""` for the
    /// whole value) while the output streams in; each pointer is the whole value's. None
    /// when the rules at `path` cannot be known from the path alone: the end judges the
    /// whole value in any case. A validator that cannot judge parts says nothing.
    fn closed(&self, path: &str, value: &Value) -> Vec<Violation> {
        if path.is_empty() {
            return self.violations(value).unwrap_or_default();
        }
        Vec::new()
    }
}

/// What a capture's reader said of its text.
#[derive(Clone, Copy, Default)]
pub struct Reading<'a> {
    /// The stop reason the response or log gave, when it gave one.
    pub stop_reason: Option<&'a str>,
    /// The response marked the answer a refusal.
    pub refused: bool,
    /// The reader's warnings (an envelope's), added to the outcome's.
    pub warnings: &'a [Warning],
    /// What only the capture's place can tell (the serving layer's doing), said of the
    /// outcome before the value is validated, since it may change the value.
    pub notes: Option<&'a Notes<'a>>,
}

/// What a reader adds to an outcome from what only it knows (see [`Reading::notes`]).
pub type Notes<'a> = dyn Fn(&Options, &mut Outcome) + 'a;

/// An outcome and how its value breaks the contract.
#[derive(Debug, Clone)]
pub struct Judgement {
    pub outcome: Outcome,
    /// The violations that made it a `schema` failure; empty otherwise.
    pub violations: Vec<Violation>,
}

/// Judge `text` with `options`, what `reading` says of it, and `validator` when given.
pub fn judge(
    text: &str,
    options: &Options,
    reading: &Reading<'_>,
    validator: Option<&Arc<dyn Validator>>,
) -> Result<Judgement, String> {
    let options = options_for(options, reading, validator);
    finish(text, extract(text, &options), &options, reading, validator)
}

/// [`judge`] when the engine accepts a value (it may still break the contract); `None`
/// when extraction fails, decided without explaining why (see [`extract_accepted`]).
pub fn judge_accepted(
    text: &str,
    options: &Options,
    reading: &Reading<'_>,
    validator: Option<&Arc<dyn Validator>>,
) -> Result<Option<Judgement>, String> {
    let options = options_for(options, reading, validator);
    extract_accepted(text, &options)
        .map(|outcome| finish(text, outcome, &options, reading, validator))
        .transpose()
}

/// The engine's judge of each value of a stream as it closes, asking `validator`.
pub fn items(validator: Arc<dyn Validator>) -> Arc<dyn ItemValidator> {
    Arc::new(Items(validator))
}

struct Items(Arc<dyn Validator>);

impl ItemValidator for Items {
    fn closed(&self, path: &str, value: &Value) -> Vec<ItemFinding> {
        self.0
            .closed(path, value)
            .into_iter()
            .map(|violation| ItemFinding {
                message: violation.line(),
                pointer: violation.pointer,
            })
            .collect()
    }
}

/// `options` with the reading's stop reason and refusal mark, and the validator as the
/// engine's test of a candidate.
fn options_for(
    options: &Options,
    reading: &Reading<'_>,
    validator: Option<&Arc<dyn Validator>>,
) -> Options {
    let mut options = options.clone();
    if let Some(stop_reason) = reading.stop_reason {
        options.stop_reason = Some(stop_reason.to_owned());
    }
    options.refused |= reading.refused;
    if let Some(validator) = validator {
        let validator = Arc::clone(validator);
        options = options.with_acceptor(Some(Acceptor::new(move |value| validator.accepts(value))));
    }
    options
}

/// The reader's warnings and notes added, and the value taken checked against the contract.
fn finish(
    text: &str,
    mut outcome: Outcome,
    options: &Options,
    reading: &Reading<'_>,
    validator: Option<&Arc<dyn Validator>>,
) -> Result<Judgement, String> {
    outcome.warnings.extend(reading.warnings.iter().cloned());
    if let Some(notes) = reading.notes {
        notes(options, &mut outcome);
    }
    let violations = match (validator, outcome.value.as_ref()) {
        (Some(validator), Some(value)) if outcome.ok() => validator.violations(value)?,
        _ => Vec::new(),
    };
    violation::fail(&mut outcome, text, &violations);
    say_schema_returned(&mut outcome);
    Ok(Judgement {
        outcome,
        violations,
    })
}

/// A value that is itself a JSON Schema (the engine's `schema-echo` on the accepted value)
/// and breaks the schema asked for: the failure says the model returned the schema's shape,
/// which a list of instance paths alone would hide.
fn say_schema_returned(outcome: &mut Outcome) {
    let echoed = outcome
        .warnings
        .iter()
        .any(|warning| warning.kind == WarningKind::SchemaEcho);
    if let Some(failure) = outcome
        .failure
        .as_mut()
        .filter(|failure| echoed && failure.kind == FailureKind::Schema)
    {
        failure.message = format!(
            "the model returned the schema's shape instead of an instance of it; {}",
            failure.message
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Fits objects with a string `city`, as a zod object would.
    struct City;

    impl Validator for City {
        fn accepts(&self, value: &Value) -> bool {
            value.get("city").is_some_and(Value::is_string)
        }
        fn violations(&self, value: &Value) -> Result<Vec<Violation>, String> {
            if self.accepts(value) {
                return Ok(Vec::new());
            }
            Ok(vec![Violation::at(
                value,
                "/city".into(),
                "expected a string",
            )])
        }
    }

    fn city() -> Option<Arc<dyn Validator>> {
        Some(Arc::new(City))
    }

    #[test]
    fn the_first_candidate_that_fits_wins() {
        let text = "Draft: {\"city\": 1}\nFinal: {\"city\": \"Paris\"}";
        let judged = judge(
            text,
            &Options::default(),
            &Reading::default(),
            city().as_ref(),
        );
        let judged = judged.unwrap();
        assert!(judged.outcome.ok());
        assert_eq!(judged.outcome.value, Some(json!({"city": "Paris"})));
        assert!(judged.violations.is_empty());
    }

    #[test]
    fn a_value_that_never_fits_is_a_schema_failure_with_its_violations() {
        let text = "{\"city\": 1}";
        let judged = judge(
            text,
            &Options::default(),
            &Reading::default(),
            city().as_ref(),
        );
        let judged = judged.unwrap();
        let failure = judged.outcome.failure.expect("a schema failure");
        assert_eq!(failure.kind, FailureKind::Schema);
        assert_eq!(
            failure.message,
            "the value breaks the schema (1 violation): /city = 1: expected a string"
        );
        assert_eq!(judged.violations.len(), 1);
    }

    #[test]
    fn the_reading_is_heard_before_the_value_is_checked() {
        let warnings = [Warning::new(
            WarningKind::SchemaEcho,
            None,
            "an envelope's warning",
        )];
        let notes = |_: &Options, outcome: &mut Outcome| {
            outcome.value = Some(json!({"city": 2}));
        };
        let reading = Reading {
            stop_reason: Some("stop"),
            refused: false,
            warnings: &warnings,
            notes: Some(&notes),
        };
        let judged = judge(
            "{\"city\": \"Oslo\"}",
            &Options::default(),
            &reading,
            city().as_ref(),
        );
        let outcome = judged.unwrap().outcome;
        // The note changed the value, the validator judged the changed one, and the
        // reader's schema-echo warning made the failure say so.
        let failure = outcome.failure.expect("a schema failure");
        assert!(
            failure
                .message
                .starts_with("the model returned the schema's shape"),
            "{}",
            failure.message
        );
    }

    #[test]
    fn a_failure_is_decided_without_the_validator_when_only_the_value_is_wanted() {
        let judged = judge_accepted(
            "{\"city\": [1,",
            &Options::default(),
            &Reading::default(),
            city().as_ref(),
        );
        assert!(judged.unwrap().is_none());
    }

    #[test]
    fn a_validator_error_is_the_callers() {
        struct Broken;
        impl Validator for Broken {
            fn accepts(&self, _: &Value) -> bool {
                false
            }
            fn violations(&self, _: &Value) -> Result<Vec<Violation>, String> {
                Err("unreadable".into())
            }
        }
        let broken: Arc<dyn Validator> = Arc::new(Broken);
        let judged = judge(
            "{}",
            &Options::default(),
            &Reading::default(),
            Some(&broken),
        );
        assert_eq!(judged.unwrap_err(), "unreadable");
    }

    #[test]
    fn a_stream_item_is_judged_by_the_same_validator() {
        struct Positive;
        impl Validator for Positive {
            fn accepts(&self, _: &Value) -> bool {
                true
            }
            fn violations(&self, _: &Value) -> Result<Vec<Violation>, String> {
                Ok(Vec::new())
            }
            fn closed(&self, path: &str, value: &Value) -> Vec<Violation> {
                match value.as_i64() {
                    Some(number) if number < 0 => {
                        vec![Violation::at(value, path.to_owned(), "must be positive")]
                    }
                    _ => Vec::new(),
                }
            }
        }
        let items = items(Arc::new(Positive));
        let found = items.closed("/1", &json!(-2));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "/1");
        assert!(items.closed("/0", &json!(3)).is_empty());
    }
}
