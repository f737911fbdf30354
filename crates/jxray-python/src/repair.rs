//! The repair loop's decision for Python's `jxray.repair` (python/jxray/_repair.py): what to
//! do about an outcome and the repair request's text, by the pure core's policy and wording
//! (`jxray_formats::repair`), so Python and TypeScript decide and word the same.

use jxray::engine::FailureKind;
use jxray_formats::repair::{
    action_with, repair_prompt, Action, RepairRequest, DEFAULT_MAX_OUTPUT_CHARS,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::options::compiled_schema;
use crate::outcome::PyOutcome;

/// `(action, request)`: what the policy (with `policy`'s overrides, a cause or kind to an
/// action's name) says to do about `outcome`, and the text of one repair request for it
/// (`None` when it is ok). With `schema`, a `schema` failure lists how the value breaks
/// it, and the schema's top-level required keys are named (unless `required` is given).
#[pyfunction]
#[pyo3(signature = (outcome, *, schema=None, policy=None, max_output_chars=None, required=None))]
pub fn repair_decision(
    py: Python<'_>,
    outcome: PyRef<'_, PyOutcome>,
    schema: Option<&Bound<'_, PyAny>>,
    policy: Option<Vec<(String, String)>>,
    max_output_chars: Option<usize>,
    required: Option<Vec<String>>,
) -> PyResult<(String, Option<String>)> {
    let table = policy
        .unwrap_or_default()
        .into_iter()
        .map(|(name, action)| match Action::from_name(&action) {
            Some(action) => Ok((name, action)),
            None => Err(PyValueError::new_err(format!(
                "policy: unknown action {action:?} for {name:?}; the actions are accept, repair, \
                 raise-limit, change-request, fix-serving and fix-capture"
            ))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let schema = schema
        .map(|schema| compiled_schema(py, schema))
        .transpose()?;
    let (engine_outcome, raw) = outcome.engine_outcome(py)?;
    let violations = match (&schema, &engine_outcome.failure, &engine_outcome.value) {
        (Some(schema), Some(failure), Some(value)) if failure.kind == FailureKind::Schema => {
            schema.violations(value)
        }
        _ => Vec::new(),
    };
    let required = required.unwrap_or_else(|| {
        schema
            .as_ref()
            .and_then(|schema| schema.document().get("required"))
            .and_then(|keys| keys.as_array())
            .map(|keys| {
                keys.iter()
                    .filter_map(|key| key.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    });
    let request = RepairRequest {
        outcome: engine_outcome,
        raw,
        violations: &violations,
        required: &required,
        max_output_chars: max_output_chars.unwrap_or(DEFAULT_MAX_OUTPUT_CHARS),
    };
    Ok((
        action_with(engine_outcome, &table).as_str().to_owned(),
        repair_prompt(&request),
    ))
}

/// `(input, output, total)` tokens of a call's usage (a JSON object's text: the usage, or
/// the whole response that holds it), read by the pure core in every provider's spelling,
/// as TypeScript's loop reads them; a count the usage does not give is `None`.
#[pyfunction]
pub fn token_usage(usage_json: &str) -> (Option<u64>, Option<u64>, Option<u64>) {
    let value = serde_json::from_str(usage_json).unwrap_or(serde_json::Value::Null);
    let usage = jxray_formats::usage::token_usage(&value);
    (usage.input, usage.output, usage.total)
}
