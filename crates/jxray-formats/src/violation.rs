//! How a value breaks a schema, said the same way whichever validator found it: the CLI's
//! JSON Schema, or a validator the JavaScript package is handed (zod, valibot, any Standard
//! Schema). A value that breaks it is a `schema` failure (contract §1) placed at the start
//! of the accepted span, its message listing every violation.

use jxray_engine::{line_col, Failure, FailureKind, Outcome};
use serde_json::Value;

/// Values and rules longer than this are cut with `…` in a violation.
const QUOTE_LIMIT: usize = 60;

/// One way a value breaks the schema: where, what was there, and which rule.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Violation {
    /// JSON Pointer to the offending value; empty for the whole value.
    pub pointer: String,
    /// The offending value as compact JSON, cut with `…` when long; empty when the value
    /// is not there (a missing key).
    pub value: String,
    /// The schema keyword that failed (`enum`, `type`, `required`, …); empty when the
    /// validator names none.
    pub keyword: String,
    /// The keyword's setting in the schema, as compact JSON, cut when long.
    pub rule: String,
    /// The validator's explanation, on one line.
    pub message: String,
}

impl Violation {
    /// A violation at `pointer` in `value` (quoted from there when it is there), with the
    /// validator's `message` and no keyword.
    pub fn at(value: &Value, pointer: String, message: &str) -> Violation {
        let found = value.pointer(&pointer).map(quote).unwrap_or_default();
        Violation {
            pointer,
            value: found,
            keyword: String::new(),
            rule: String::new(),
            message: one_line(message),
        }
    }

    /// `/priority = "P2": value is not one of … (enum ["low","high"])`.
    pub fn line(&self) -> String {
        let path = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        let mut line = if self.value.is_empty() {
            format!("{path}: {}", self.message)
        } else {
            format!("{path} = {}: {}", self.value, self.message)
        };
        if !self.keyword.is_empty() {
            line.push_str(&format!(" ({} {})", self.keyword, self.rule));
        }
        line
    }
}

/// Turn an ok outcome whose value breaks the schema into a `schema` failure placed at the
/// start of the accepted span in `raw`. The layer, span and value are kept, so a viewer
/// can still show what was decoded. Outcomes that are not ok, and an empty list, are left
/// alone.
pub fn fail(outcome: &mut Outcome, raw: &str, violations: &[Violation]) {
    if !outcome.ok() || violations.is_empty() {
        return;
    }
    let offset = outcome.span.map_or(0, |(start, _)| start);
    let count = violations.len();
    let noun = if count == 1 {
        "violation"
    } else {
        "violations"
    };
    let message = format!(
        "the value breaks the schema ({count} {noun}): {}",
        violations
            .iter()
            .map(Violation::line)
            .collect::<Vec<_>>()
            .join("; ")
    );
    outcome.failure = Some(failure(offset, line_col(raw, offset), message));
}

/// A `schema` failure at `offset` (line and column in the raw text).
pub fn failure(offset: usize, (line, column): (usize, usize), message: String) -> Failure {
    Failure::new(FailureKind::Schema, offset, (line, column), message)
}

/// A JSON Pointer (RFC 6901) of a path of keys and indices.
pub fn pointer<'a>(path: impl IntoIterator<Item = &'a str>) -> String {
    path.into_iter()
        .map(|segment| format!("/{}", segment.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// `text` on one line: runs of whitespace (newlines included) become one space.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A value as compact JSON on one line, cut at 60 characters with `…`.
pub fn quote(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= QUOTE_LIMIT {
        return text;
    }
    let mut cut: String = text.chars().take(QUOTE_LIMIT - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use jxray_engine::Layer;
    use serde_json::json;

    fn ok_outcome(value: Value, span: (usize, usize)) -> Outcome {
        let mut outcome = Outcome::default();
        outcome.layer = Some(Layer::Fenced);
        outcome.value = Some(value);
        outcome.span = Some(span);
        outcome
    }

    #[test]
    fn a_violation_without_a_keyword_says_path_value_and_message() {
        let value = json!({"severity": "urgent", "tags": ["a/b"]});
        let violation = Violation::at(
            &value,
            "/severity".into(),
            "Invalid option:\n expected one of",
        );
        assert_eq!(
            violation.line(),
            "/severity = \"urgent\": Invalid option: expected one of"
        );
        let missing = Violation::at(&value, "/summary".into(), "Required");
        assert_eq!(missing.line(), "/summary: Required");
        assert_eq!(
            Violation::at(&value, String::new(), "bad").line(),
            "(root) = {\"severity\":\"urgent\",\"tags\":[\"a/b\"]}: bad"
        );
    }

    #[test]
    fn pointers_escape_tilde_and_slash() {
        assert_eq!(pointer(["a/b", "m~n", "0"]), "/a~1b/m~0n/0");
        assert_eq!(pointer([]), "");
    }

    #[test]
    fn a_failing_value_becomes_a_schema_failure_at_the_span_start_and_keeps_its_value() {
        let raw = "Here:\n```json\n{\"city\": 1}\n```";
        let value = json!({"city": 1});
        let mut outcome = ok_outcome(value.clone(), (14, 25));
        let violations = [Violation::at(&value, "/city".into(), "Expected string")];
        fail(&mut outcome, raw, &violations);
        let failure = outcome.failure.clone().expect("a schema failure");
        assert_eq!(failure.kind, FailureKind::Schema);
        assert_eq!((failure.line, failure.column, failure.offset), (3, 1, 14));
        assert_eq!(
            failure.message,
            "the value breaks the schema (1 violation): /city = 1: Expected string"
        );
        assert_eq!(outcome.value, Some(value));
    }

    #[test]
    fn no_violation_or_a_failed_outcome_is_left_alone() {
        let mut outcome = ok_outcome(json!(1), (0, 1));
        fail(&mut outcome, "1", &[]);
        assert!(outcome.ok());
        let mut failed = Outcome::unreadable("x");
        fail(
            &mut failed,
            "",
            &[Violation::at(&json!(1), String::new(), "m")],
        );
        assert_eq!(failed.failure.unwrap().kind, FailureKind::Unreadable);
    }
}
