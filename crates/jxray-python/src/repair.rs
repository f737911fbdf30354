//! The repair loop for Python's `jxray.repair` (python/jxray/_repair.py): the policy, each
//! decision, the request's text and the loop's bookkeeping are the pure core's
//! (`jxray_formats::repair`), so Python and TypeScript decide, word and count the same; the
//! Python side calls `generate`, awaits it and emits spans.

use std::sync::{Mutex, PoisonError};

use jxray_formats::repair::{digest, required_keys, Decision, Limits, Policy, Run};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::by_name;
use crate::extract::{capture_of, judge_one, response_captures};
use crate::options::{compiled_schema, Settings};
use crate::outcome::PyOutcome;
use jxray::schema::Schema;

/// The caller's policy: `policy`'s overrides (a cause or kind to an action's name), the
/// keys to name (`required`, else the schema's top-level required keys) and the cap on the
/// quoted output.
fn policy_of(
    schema: Option<&Schema>,
    policy: Option<Vec<(String, String)>>,
    max_output_chars: Option<usize>,
    required: Option<Vec<String>>,
) -> PyResult<Policy> {
    let table =
        Policy::table_from_names(policy.unwrap_or_default()).map_err(PyValueError::new_err)?;
    let required = match required {
        Some(required) => required,
        None => schema.map_or_else(Vec::new, |schema| required_keys(schema.document())),
    };
    let mut built = Policy {
        table,
        required,
        ..Policy::default()
    };
    if let Some(cap) = max_output_chars {
        built.max_output_chars = cap;
    }
    Ok(built)
}

/// The decision about an outcome: it was judged once, with how its value broke the schema.
fn decide(py: Python<'_>, policy: &Policy, outcome: &PyOutcome) -> PyResult<Decision> {
    let (judged, raw) = outcome.judged(py)?;
    Ok(policy.decide(&judged.outcome, raw, &judged.violations))
}

/// `(action, request)`: what the policy (with `policy`'s overrides, a cause or kind to an
/// action's name) says to do about `outcome`, and the text of one repair request for it
/// (`None` when it is ok). A `schema` failure lists how the value broke the schema it was
/// judged against (kept with the outcome: the validator is not asked again); with
/// `schema`, its top-level required keys are named (unless `required` is given).
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
    let schema = schema
        .map(|schema| compiled_schema(py, schema))
        .transpose()?;
    let policy = policy_of(schema.as_deref(), policy, max_output_chars, required)?;
    let decision = decide(py, &policy, &outcome)?;
    Ok((decision.action.as_str().to_owned(), decision.prompt))
}

/// One logical request's loop: when to call, with what, and how it ended; the extraction
/// settings (and the schema, compiled) read once for every attempt.
#[pyclass(frozen, module = "jxray", name = "RepairRun")]
pub struct RepairRun {
    run: Mutex<Run>,
    policy: Policy,
    settings: Settings,
}

#[pymethods]
impl RepairRun {
    #[new]
    #[pyo3(signature = (
        prompt, *, max_repairs, max_tokens=None, max_seconds=None, schema=None, policy=None,
        max_output_chars=None, required=None, accept_lenient=false, decode_stringified=false,
        pick=String::from("first"), decimals=String::from("float")
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        prompt: String,
        max_repairs: u32,
        max_tokens: Option<f64>,
        max_seconds: Option<f64>,
        schema: Option<&Bound<'_, PyAny>>,
        policy: Option<Vec<(String, String)>>,
        max_output_chars: Option<usize>,
        required: Option<Vec<String>>,
        #[pyo3(from_py_with = by_name::accept_lenient)] accept_lenient: bool,
        #[pyo3(from_py_with = by_name::decode_stringified)] decode_stringified: bool,
        #[pyo3(from_py_with = by_name::pick)] pick: String,
        #[pyo3(from_py_with = by_name::decimals)] decimals: String,
    ) -> PyResult<RepairRun> {
        let limits = Limits {
            max_repairs,
            max_tokens,
            max_ms: max_seconds.map(|seconds| seconds * 1000.0),
        };
        let settings = Settings::new(
            py,
            accept_lenient,
            decode_stringified,
            &pick,
            schema,
            &decimals,
        )?;
        Ok(RepairRun {
            run: Mutex::new(Run::new(prompt, limits)),
            // The schema compiled once, for the extraction and the required keys alike.
            policy: policy_of(
                settings.checker.schema().map(|schema| &**schema),
                policy,
                max_output_chars,
                required,
            )?,
            settings,
        })
    }

    /// The first output of a provider response's JSON body (the reply `generate` gave),
    /// extracted and explained at once, as `jxray.extract_response` reads it.
    fn judge_response(&self, py: Python<'_>, body: Vec<u8>) -> PyResult<PyOutcome> {
        let first = response_captures(body)?.into_iter().next();
        let first = first.ok_or_else(|| PyValueError::new_err("a response without outputs"))?;
        judge_one(py, first, &self.settings)
    }

    /// Take the text (or bytes) `generate` gave, with its stop reason and the call's usage
    /// as JSON text: `(outcome, action, next)`, the output judged once (extracted and
    /// explained together).
    #[pyo3(signature = (output, stop_reason=None, usage_json=None))]
    fn took_text(
        &self,
        py: Python<'_>,
        output: &Bound<'_, PyAny>,
        stop_reason: Option<String>,
        usage_json: Option<&str>,
    ) -> PyResult<(Py<PyOutcome>, String, Option<String>)> {
        let mut capture = capture_of(output)?;
        capture.stop_reason = stop_reason;
        let outcome = Bound::new(py, judge_one(py, capture, &self.settings)?)?;
        let (action, next) = self.took(py, outcome.borrow(), output, usage_json)?;
        Ok((outcome.unbind(), action, next))
    }

    /// Whether another call may be made, `elapsed` seconds after the first began.
    fn may_call(&self, elapsed: f64) -> bool {
        self.run().may_call(elapsed * 1000.0)
    }

    /// Take one judged attempt: its outcome, the text or bytes `generate` gave and the
    /// call's usage as JSON text (any provider's spelling). `(action, next)`: the policy's
    /// action and the next request to send, `None` when the loop stops.
    #[pyo3(signature = (outcome, output, usage_json=None))]
    fn took(
        &self,
        py: Python<'_>,
        outcome: PyRef<'_, PyOutcome>,
        output: &Bound<'_, PyAny>,
        usage_json: Option<&str>,
    ) -> PyResult<(String, Option<String>)> {
        let mut decision = decide(py, &self.policy, &outcome)?;
        if let Ok(bytes) = output.cast::<PyBytes>() {
            decision.raw_output_hash = digest(bytes.as_bytes());
        }
        let usage = usage_json
            .and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or_default();
        let (judged, _) = outcome.judged(py)?;
        let next = self.run().took(&judged.outcome, &decision, &usage);
        Ok((decision.action.as_str().to_owned(), next))
    }

    /// How the loop ended, as JSON text (`status`, `repaired`, `lenient`, `stopped`,
    /// `telemetry`): with a fallback of `fallback_kind` when the caller gave one, and the
    /// caller's `schema_version` (JSON text).
    #[pyo3(signature = (fallback_kind, schema_version_json))]
    fn end(&self, fallback_kind: Option<&str>, schema_version_json: &str) -> PyResult<String> {
        let version = serde_json::from_str(schema_version_json)
            .map_err(|error| PyValueError::new_err(format!("schema_version: {error}")))?;
        let ending = self.run().end(fallback_kind, version);
        serde_json::to_string(&ending).map_err(|error| PyValueError::new_err(error.to_string()))
    }
}

impl RepairRun {
    fn run(&self) -> std::sync::MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(PoisonError::into_inner)
    }
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
