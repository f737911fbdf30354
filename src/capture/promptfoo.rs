//! promptfoo eval results: `promptfoo eval -o results.json` (one document, the results in
//! `results.results[]`) and `-o results.jsonl` (one result a line).
//!
//! Per result: the text is `response.output` (an object, when a provider returned one, is
//! its compact JSON), the stop reason `response.finishReason` (promptfoo's normalised
//! spelling: `stop`, `length`, `content_filter`, …), the model `provider.id`
//! (`openai:gpt-4o`). The schema of an `is-json` or `contains-json` assertion, when it has
//! one, is checked as if given with `--schema`. A result is named `FILE#T` by its test's
//! index, from 0 (`FILE#T.P` when the eval ran several prompts, P the prompt's index).

use std::sync::Arc;

use serde_json::Value;

use super::envelope::{compact, str_field, Contents, LogRecord, Outputs};
use super::Provider;

/// The results of a `-o results.json` document.
pub(super) fn document(value: &Value) -> Option<Vec<LogRecord>> {
    let results = value.get("results")?;
    let rows = results.get("results")?.as_array()?;
    if value.get("evalId").is_none() && results.get("version").is_none() {
        return None;
    }
    let several_prompts = rows.iter().any(|row| prompt_index(row) > 0);
    Some(
        rows.iter()
            .map(|row| record(row, several_prompts))
            .collect(),
    )
}

/// One line of a `-o results.jsonl` file.
pub(super) fn row(value: &Value) -> Option<LogRecord> {
    let is_row = value.get("provider").is_some_and(Value::is_object)
        && value.get("testIdx").is_some()
        && value.get("promptIdx").is_some();
    // A line cannot know whether other lines used several prompts: always say which.
    is_row.then(|| record(value, true))
}

fn prompt_index(row: &Value) -> u64 {
    row.get("promptIdx").and_then(Value::as_u64).unwrap_or(0)
}

fn record(row: &Value, several_prompts: bool) -> LogRecord {
    let test = row.get("testIdx").and_then(Value::as_u64);
    let id = test.map(|test| match several_prompts {
        true => format!("{test}.{}", prompt_index(row)),
        false => test.to_string(),
    });
    LogRecord {
        id,
        result: decode(row),
    }
}

fn decode(row: &Value) -> Result<Contents, String> {
    let response = row.get("response").filter(|response| response.is_object());
    let output = response.and_then(|response| response.get("output"));
    let text = match output {
        Some(Value::String(text)) => text.clone(),
        Some(value @ (Value::Object(_) | Value::Array(_))) => compact(value),
        Some(Value::Number(number)) => number.to_string(),
        Some(Value::Bool(flag)) => flag.to_string(),
        Some(Value::Null) | None => return Err(no_output(row, response)),
    };
    let model = row
        .get("provider")
        .and_then(|provider| str_field(provider, "id"))
        .map(str::to_string);
    let stop_reason = response
        .and_then(|response| str_field(response, "finishReason"))
        .map(str::to_string);
    Ok(Contents {
        provider: Some(Provider::Promptfoo),
        outputs: Outputs::text(text),
        stop_reason,
        model,
        schema: schema(row).map(Arc::new),
        warnings: Vec::new(),
        // promptfoo marks the responses its provider reported as refusals.
        refused: response
            .and_then(|response| response.get("isRefusal"))
            .and_then(Value::as_bool)
            .unwrap_or(false),
        reasoning: None,
    })
}

/// Why a result has no output: the provider's error, when promptfoo kept one.
fn no_output(row: &Value, response: Option<&Value>) -> String {
    let error = response
        .and_then(|response| str_field(response, "error"))
        .or_else(|| str_field(row, "error"));
    match error {
        Some(error) => format!(
            "promptfoo result without output: the provider failed ({}); fix the provider and \
             re-run the eval",
            first_line(error)
        ),
        None => "promptfoo result without output: `response.output` is missing; re-run the \
                 eval"
            .to_string(),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// The JSON Schema of the result's `is-json` / `contains-json` assertion: from the test
/// case's `assert` list, else from the grading results.
fn schema(row: &Value) -> Option<Value> {
    let asserted = row
        .pointer("/testCase/assert")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let graded = row
        .pointer("/gradingResult/componentResults")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|result| result.get("assertion"));
    asserted.chain(graded).find_map(|assertion| {
        let kind = str_field(assertion, "type")?;
        let value = assertion.get("value")?;
        (matches!(kind, "is-json" | "contains-json") && value.is_object()).then(|| value.clone())
    })
}
