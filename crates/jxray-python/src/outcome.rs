//! `jxray.Outcome` and `jxray.Failure`: what extraction said about one capture, as
//! Python objects, with `to_json()` written by the same writer as `check --format jsonl`.
//!
//! `extract` decides a failure without explaining it (the engine's `extract_accepted`);
//! the explanation (failure, trace, lenient reading, warnings) is built the first time
//! any of it is read, by the same engine run `check` makes, so it is the same outcome.

use jxray::capture::Capture;
use jxray::check::Checked;
use jxray::engine::{Failure, FailureKind, Layer};
use jxray::report::{describe, JsonlSink, Sink};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple};
use serde::Serialize;

use crate::convert::{to_python, Decimals};
use crate::errors::extract_error;
use crate::from_text::text_to_python;
use crate::options::{Pydantic, Settings};
use crate::pickle::{reduce_failure, reduce_outcome, restored_failure, restored_outcome};

/// What extraction says about one capture (contract §1).
#[pyclass(frozen, module = "jxray", name = "Outcome")]
pub struct PyOutcome {
    decimals: Decimals,
    /// The value as Python objects, converted once (None when nothing was accepted), or
    /// why Python cannot hold it (an integer past the interpreter's digit limit): raised
    /// when the value is asked for, so that one such value never ends a `check` loop.
    value: Result<Py<PyAny>, PyErr>,
    /// The capture, its outcome and that outcome's failure as a Python object.
    whole: PyOnceLock<Box<Whole>>,
    /// A failure not explained yet.
    unexplained: Option<Box<Unexplained>>,
}

/// What a failure is explained from, when it is first asked about.
struct Unexplained {
    capture: Capture,
    settings: Settings,
}

/// A capture's whole outcome.
struct Whole {
    checked: Checked,
    failure: Option<Py<PyFailure>>,
}

/// Why nothing was accepted: the kind, the defect, the place and the fix.
#[pyclass(frozen, module = "jxray", name = "Failure")]
pub struct PyFailure {
    failure: Failure,
}

impl Whole {
    fn new(py: Python<'_>, checked: Checked) -> PyResult<Whole> {
        let failure = checked
            .outcome
            .failure
            .clone()
            .map(|failure| Py::new(py, PyFailure { failure }))
            .transpose()?;
        Ok(Whole { checked, failure })
    }
}

impl PyOutcome {
    /// The Python view of a checked capture; its value is converted once, here.
    pub fn new(py: Python<'_>, checked: Checked, decimals: Decimals) -> PyResult<PyOutcome> {
        let outcome = &checked.outcome;
        // A schema failure keeps its value, as the jsonl line does.
        let kept = match &outcome.failure {
            None => true,
            Some(failure) => failure.kind == FailureKind::Schema,
        };
        let value = match (&outcome.value, &outcome.value_json) {
            (Some(value), _) if kept => to_python(py, value, decimals).map(Bound::unbind),
            (None, Some(json)) if kept => {
                text_to_python(py, json.get(), decimals).map(Bound::unbind)
            }
            _ => Ok(py.None()),
        };
        let whole = PyOnceLock::new();
        // A fresh lock takes its value.
        let _ = whole.set(py, Box::new(Whole::new(py, checked)?));
        Ok(PyOutcome {
            decimals,
            value,
            whole,
            unexplained: None,
        })
    }

    /// This outcome with its accepted value as the Pydantic model's instance, when the
    /// schema was a Pydantic model or `TypeAdapter` (what it returns for the value). A
    /// failure keeps its plain value.
    pub fn with_instance(mut self, py: Python<'_>, pydantic: Option<&Pydantic>) -> PyOutcome {
        let Some(pydantic) = pydantic else {
            return self;
        };
        let accepted = self
            .whole
            .get(py)
            .map(|whole| &whole.checked.outcome)
            .filter(|outcome| outcome.ok())
            .and_then(|outcome| outcome.value.as_ref());
        if let Some(value) = accepted {
            self.value = pydantic.instance(py, value);
        }
        self
    }

    /// A capture whose extraction failed, explained when first asked.
    pub fn unexplained(py: Python<'_>, capture: Capture, settings: &Settings) -> PyOutcome {
        PyOutcome {
            decimals: settings.decimals,
            value: Ok(py.None()),
            whole: PyOnceLock::new(),
            unexplained: Some(Box::new(Unexplained {
                capture,
                settings: settings.clone(),
            })),
        }
    }

    /// The whole outcome, built now if it was not (the interpreter released meanwhile).
    fn whole(&self, py: Python<'_>) -> PyResult<&Whole> {
        self.whole
            .get_or_try_init(py, || {
                let Unexplained { capture, settings } =
                    self.unexplained.as_deref().ok_or_else(|| {
                        PyRuntimeError::new_err("jxray bug: an outcome without its capture")
                    })?;
                let judged = py.detach(|| settings.checker.judgement(capture));
                let checked = Checked {
                    capture: capture.clone(),
                    outcome: judged.outcome,
                    violations: judged.violations,
                    chain: None,
                    early: None,
                };
                Whole::new(py, checked).map(Box::new)
            })
            .map(|whole| &**whole)
    }

    /// The value, or the error converting it raised.
    fn converted(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.value {
            Ok(value) => Ok(value.clone_ref(py)),
            Err(error) => Err(error.clone_ref(py)),
        }
    }

    /// The whole outcome as judged (with how its value breaks the schema) and the text it
    /// was extracted from (empty when the capture could not be read), for the repair
    /// loop's decision.
    pub fn judged(&self, py: Python<'_>) -> PyResult<(&Checked, &str)> {
        let whole = self.whole(py)?;
        let raw = whole.checked.capture.text.as_deref().unwrap_or("");
        Ok((&whole.checked, raw))
    }

    /// The whole engine outcome.
    fn outcome(&self, py: Python<'_>) -> PyResult<&jxray::engine::Outcome> {
        Ok(&self.whole(py)?.checked.outcome)
    }

    /// The capture, whether or not its outcome is built.
    fn capture(&self, py: Python<'_>) -> PyResult<&Capture> {
        match &self.unexplained {
            Some(unexplained) => Ok(&unexplained.capture),
            None => Ok(&self.whole(py)?.checked.capture),
        }
    }

    /// Anything serializable from the outcome, as Python objects.
    fn serialized<'py>(
        &self,
        py: Python<'py>,
        item: &impl Serialize,
    ) -> PyResult<Bound<'py, PyAny>> {
        serialized(py, item, self.decimals)
    }

    /// The line `jxray extract` prints for it: source, kind, place, message.
    fn message(checked: &Checked) -> String {
        let described = describe(&checked.outcome);
        match checked.capture.source.as_str() {
            "-" => described,
            source => format!("{source}: {described}"),
        }
    }
}

fn serialized<'py>(
    py: Python<'py>,
    item: &impl Serialize,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(item)
        .map_err(|error| PyRuntimeError::new_err(format!("jxray bug: {error}")))?;
    to_python(py, &value, decimals)
}

#[pymethods]
impl PyOutcome {
    /// Whether a value was accepted.
    #[getter]
    fn ok(&self, py: Python<'_>) -> PyResult<bool> {
        if self.unexplained.is_some() {
            return Ok(false);
        }
        Ok(self.outcome(py)?.ok())
    }

    /// Where the value came from: `direct`, `fenced`, `scanned` or `lenient`; None when
    /// nothing was accepted.
    #[getter]
    fn layer(&self, py: Python<'_>) -> PyResult<Option<&'static str>> {
        if self.unexplained.is_some() {
            return Ok(None);
        }
        Ok(self.outcome(py)?.layer.map(Layer::as_str))
    }

    /// The decoded value (None when nothing was accepted; a schema failure keeps it); with
    /// a Pydantic model or `TypeAdapter` as the schema, an accepted value is its instance.
    #[getter]
    fn value(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.converted(py)
    }

    /// `pickle` support: the outcome travels as what it says (see `pickle.rs`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_outcome(py, &self.whole(py)?.checked, self.decimals)
    }

    /// `(start, end)` byte offsets of the accepted candidate in the UTF-8 text.
    #[getter]
    fn span(&self, py: Python<'_>) -> PyResult<Option<(usize, usize)>> {
        Ok(self.outcome(py)?.span)
    }

    /// The repairs made, each `{"kind", "offset"}`.
    #[getter]
    fn repairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.serialized(py, &self.outcome(py)?.repairs)
    }

    /// The warning kinds, in order, without repeats.
    #[getter]
    fn warnings(&self, py: Python<'_>) -> PyResult<Vec<&'static str>> {
        let kinds = self.outcome(py)?.warning_kinds();
        Ok(kinds.into_iter().map(|kind| kind.as_str()).collect())
    }

    /// Each warning with its offset and message.
    #[getter]
    fn warning_details<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.serialized(py, &self.outcome(py)?.warnings)
    }

    /// Why nothing was accepted; None on success.
    #[getter]
    fn failure(&self, py: Python<'_>) -> PyResult<Option<Py<PyFailure>>> {
        let failure = &self.whole(py)?.failure;
        Ok(failure.as_ref().map(|failure| failure.clone_ref(py)))
    }

    /// Every candidate tried, in order: its layer, span, label and verdict.
    #[getter]
    fn trace<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.serialized(py, &self.outcome(py)?.trace)
    }

    /// What a lenient reading of the best invalid candidate gives, shown even when it is
    /// not accepted (`text`, `repairs`, `value`, `error`, `accepted`); None when there is none.
    #[getter]
    fn lenient<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.serialized(py, &self.outcome(py)?.lenient)
    }

    /// Where the capture came from (`-` for `extract`, `dir/a.txt`, `log.jsonl:12`, `logs.db#ID`).
    #[getter]
    fn source(&self, py: Python<'_>) -> PyResult<&str> {
        Ok(&self.capture(py)?.source)
    }

    /// The raw text, or None when the capture could not be read.
    #[getter]
    fn text(&self, py: Python<'_>) -> PyResult<Option<&str>> {
        Ok(self.capture(py)?.text.as_deref().ok())
    }

    /// The stop reason as the provider spelled it.
    #[getter]
    fn stop_reason(&self, py: Python<'_>) -> PyResult<Option<&str>> {
        Ok(self.capture(py)?.stop_reason.as_deref())
    }

    /// The provider format the capture came in (`openai-chat`, `anthropic`, …).
    #[getter]
    fn provider(&self, py: Python<'_>) -> PyResult<Option<&'static str>> {
        Ok(self.capture(py)?.provider.map(|provider| provider.as_str()))
    }

    /// The model that answered, where the envelope or log names it.
    #[getter]
    fn model(&self, py: Python<'_>) -> PyResult<Option<&str>> {
        Ok(self.capture(py)?.model.as_deref())
    }

    /// The outcome as the dict a `check --format jsonl` line holds.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.serialized(py, &self.whole(py)?.checked.record())
    }

    /// The outcome as one `check --format jsonl` line (without its newline).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        let mut line = Vec::new();
        JsonlSink::new(&mut line)
            .record(&self.whole(py)?.checked)
            .map_err(|error| PyRuntimeError::new_err(format!("jxray bug: {error}")))?;
        let text = String::from_utf8_lossy(&line);
        Ok(text.trim_end_matches('\n').to_string())
    }

    /// The value, or the exception of the failure's kind (a `jxray.ExtractError`, a
    /// `ValueError`) with the message `jxray extract` prints.
    fn value_or_raise(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let this = slf.get();
        let checked = &this.whole(py)?.checked;
        match &checked.outcome.failure {
            None if checked.outcome.ok() => this.converted(py),
            failure => {
                let kind = failure
                    .as_ref()
                    .map_or(FailureKind::NoJson, |failure| failure.kind);
                Err(extract_error(
                    py,
                    kind,
                    PyOutcome::message(checked),
                    slf.clone().into_any().unbind(),
                )?)
            }
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let checked = &self.whole(py)?.checked;
        let outcome = &checked.outcome;
        let source = repr(py, Some(&checked.capture.source))?;
        Ok(match &outcome.failure {
            Some(failure) => format!(
                "Outcome(source={source}, ok=False, failure={}, defect={})",
                repr(py, Some(failure.kind.as_str()))?,
                repr(py, failure.defect.map(|defect| defect.as_str()))?
            ),
            None => format!(
                "Outcome(source={source}, ok=True, layer={})",
                repr(py, outcome.layer.map(|layer| layer.as_str()))?
            ),
        })
    }
}

/// A string as Python writes it in a repr (`'fenced'`), or `None`.
fn repr(py: Python<'_>, text: Option<&str>) -> PyResult<String> {
    match text {
        Some(text) => Ok(PyString::new(py, text).repr()?.to_cow()?.into_owned()),
        None => Ok("None".to_string()),
    }
}

impl From<Failure> for PyFailure {
    fn from(failure: Failure) -> PyFailure {
        PyFailure { failure }
    }
}

#[pymethods]
impl PyFailure {
    /// `pickle` support.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_failure(py, &self.failure)
    }

    /// `truncated`, `no-json`, `invalid`, `schema` or `unreadable`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.failure.kind.as_str()
    }

    /// The headline defect of an `invalid` failure (`trailing-comma`, …), else None.
    #[getter]
    fn defect(&self) -> Option<&'static str> {
        self.failure.defect.map(|defect| defect.as_str())
    }

    /// `refusal`, `filtered`, `runaway`, `reasoning` or `tool-call-text`, when no format
    /// instruction helps.
    #[getter]
    fn cause(&self) -> Option<&'static str> {
        self.failure.cause.map(|cause| cause.as_str())
    }

    /// 1-based line in the raw text.
    #[getter]
    fn line(&self) -> usize {
        self.failure.line
    }

    /// 1-based column (in characters) in the raw text.
    #[getter]
    fn column(&self) -> usize {
        self.failure.column
    }

    /// Byte offset of the place in the UTF-8 text.
    #[getter]
    fn offset(&self) -> usize {
        self.failure.offset
    }

    /// What happened, where, and what to change.
    #[getter]
    fn message(&self) -> &str {
        &self.failure.message
    }

    /// Every defect found, in text order, each `{"kind", "offset", "line", "column", "message"}`.
    #[getter]
    fn defects<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        serialized(py, &self.failure.defects, Decimals::Float)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Failure(kind={}, defect={}, line={}, column={})",
            repr(py, Some(self.failure.kind.as_str()))?,
            repr(py, self.failure.defect.map(|defect| defect.as_str()))?,
            self.failure.line,
            self.failure.column
        ))
    }
}

/// An outcome back from its pickled state (`pickle` calls this; see `pickle.rs`).
#[pyfunction(name = "_restore_outcome")]
pub fn restore_outcome(py: Python<'_>, state_bytes: &[u8]) -> PyResult<PyOutcome> {
    let (checked, decimals) = restored_outcome(state_bytes)?;
    PyOutcome::new(py, checked, decimals)
}

/// A failure back from its pickled state.
#[pyfunction(name = "_restore_failure")]
pub fn restore_failure(state_bytes: &[u8]) -> PyResult<PyFailure> {
    Ok(PyFailure::from(restored_failure(state_bytes)?))
}
