//! The Decoded pane: the value pretty-printed and coloured, the warnings with
//! their detail, and the trace of every candidate tried.

use crate::engine::{find_stringified, FailureKind, Outcome, WarningKind};
use crate::schema::Violation;
use crate::text::count_of;
use crate::tui::doc::{Doc, DocBuilder, Paint};

use super::{json, trace, LineIndex};

/// The pane; `violations` are the schema's, for a `schema` failure.
pub(super) fn doc(lines: &LineIndex, outcome: &Outcome, violations: &[Violation]) -> Doc {
    let mut builder = DocBuilder::new();
    let title = match (&outcome.value, &outcome.failure) {
        (Some(value), None) => {
            json::write(&mut builder, value);
            value_title(value)
        }
        (Some(value), Some(failure)) if failure.kind == FailureKind::Schema => {
            schema_failure(&mut builder, value, violations)
        }
        (_, Some(failure)) => {
            builder.push(&format!("no value: {}", failure.kind.as_str()), Paint::Bad);
            if let Some(defect) = failure.defect {
                builder.push(&format!(" ({})", defect.as_str()), Paint::Bad);
            }
            if let Some(cause) = failure.cause {
                builder.push(&format!(" cause: {}", cause.as_str()), Paint::Bad);
            }
            builder.blank();
            builder.push_lines(&failure.message, Paint::Plain);
            let listed = failure.defects.len() > 1
                || (failure.defect.is_none() && !failure.defects.is_empty());
            if listed {
                heading(&mut builder, "defects, in text order");
                for defect in &failure.defects {
                    builder.push(&format!("✗ {}", defect.kind.as_str()), Paint::Bad);
                    builder.push(
                        &format!(" at {}:{}", defect.line, defect.column),
                        Paint::Note,
                    );
                    builder.blank();
                    builder.push("    ", Paint::Plain);
                    builder.push(&defect.message, Paint::Plain);
                    builder.blank();
                }
            }
            "no value".to_string()
        }
        (None, None) => {
            builder.push("no value", Paint::Note);
            builder.blank();
            "no value".to_string()
        }
    };
    if !outcome.warnings.is_empty() {
        heading(&mut builder, "warnings");
        for warning in &outcome.warnings {
            builder.push(&format!("! {}", warning.kind.as_str()), Paint::Literal);
            if let Some(offset) = warning.offset {
                let (line, column) = lines.line_column(offset);
                builder.push(&format!(" at {line}:{column}"), Paint::Note);
            }
            builder.blank();
            if !warning.message.is_empty() {
                builder.push("    ", Paint::Plain);
                builder.push(&warning.message, Paint::Plain);
                builder.blank();
            }
        }
    }
    if let Some(value) = outcome
        .value
        .as_ref()
        .filter(|_| holds_stringified(outcome))
    {
        stringified(&mut builder, value);
    }
    heading(&mut builder, "trace");
    trace::write(&mut builder, lines, outcome);
    if let Some(reading) = outcome.lenient.as_ref().filter(|r| !r.accepted) {
        if let Some(value) = &reading.value {
            heading(&mut builder, "lenient reading (NOT ACCEPTED) would give");
            json::write(&mut builder, value);
        }
    }
    builder.finish(title)
}

/// A value that breaks the schema: every violation (path, offending value,
/// rule), then the value with each offending part marked.
fn schema_failure(
    builder: &mut DocBuilder,
    value: &serde_json::Value,
    violations: &[Violation],
) -> String {
    let noun = count_of(violations.len(), "violation");
    builder.push(&format!("breaks the schema: {noun}"), Paint::Bad);
    builder.blank();
    for violation in violations {
        let path = if violation.pointer.is_empty() {
            "(root)"
        } else {
            &violation.pointer
        };
        builder.push("✗ ", Paint::Bad);
        builder.push(path, Paint::Key);
        builder.push(" = ", Paint::Plain);
        builder.push(&violation.value, Paint::Str);
        builder.blank();
        builder.push("    ", Paint::Plain);
        builder.push(&violation.message, Paint::Plain);
        builder.blank();
        builder.push("    rule: ", Paint::Note);
        builder.push(
            &format!("{} {}", violation.keyword, violation.rule),
            Paint::Note,
        );
        builder.blank();
    }
    heading(builder, "value (kept; the offending parts marked)");
    let pointers: Vec<String> = violations.iter().map(|v| v.pointer.clone()).collect();
    json::write_marked(builder, value, &pointers);
    format!("{}, breaks the schema ({noun})", value_title(value))
}

fn holds_stringified(outcome: &Outcome) -> bool {
    outcome
        .warnings
        .iter()
        .any(|warning| warning.kind == WarningKind::StringifiedJson)
}

/// Each string that holds JSON, decoded beneath its path: what `d` would make the value.
fn stringified(builder: &mut DocBuilder, value: &serde_json::Value) {
    heading(builder, "stringified JSON, decoded (d makes it the value)");
    for (index, found) in find_stringified(value).iter().enumerate() {
        if index > 0 {
            builder.blank();
        }
        builder.push(&found.path, Paint::Key);
        builder.blank();
        json::write(builder, &found.decoded);
    }
}

fn heading(builder: &mut DocBuilder, text: &str) {
    if !builder.line_is_empty() {
        builder.blank();
    }
    builder.blank();
    builder.push(text, Paint::Heading);
    builder.blank();
}

/// "object, 3 keys": what kind of value, and how big.
pub(crate) fn value_title(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(map) => format!("object, {}", count_of(map.len(), "key")),
        serde_json::Value::Array(items) => format!("array, {}", count_of(items.len(), "item")),
        serde_json::Value::String(_) => "string".to_string(),
        serde_json::Value::Number(_) => "number".to_string(),
        serde_json::Value::Bool(_) => "boolean".to_string(),
        serde_json::Value::Null => "null".to_string(),
    }
}
