//! Outcomes and failures across processes: `pickle` (a `multiprocessing` pool, a
//! `concurrent.futures` process pool) carries an outcome as what it says, not how it was
//! made: the capture's facts and the engine's whole outcome, as JSON. The restored
//! outcome is explained already; the exceptions carry it too, so they pickle as well.
//! The `_restore_*` functions pickle calls are beside the classes (`outcome.rs`).

use std::path::PathBuf;

use jxray::capture::{Capture, Provider, Unreadable};
use jxray::check::Checked;
use jxray::engine::{Failure, Outcome};
use jxray_formats::violation::Violation;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use serde::{Deserialize, Serialize};

use crate::convert::Decimals;

/// What a pickled outcome holds.
#[derive(Serialize, Deserialize)]
struct Snapshot {
    source: String,
    path: PathBuf,
    line: Option<usize>,
    provider: Option<Provider>,
    model: Option<String>,
    stop_reason: Option<String>,
    /// The raw text, or why it could not be read.
    text: Result<String, String>,
    refused: bool,
    decimal: bool,
    outcome: Outcome,
    /// How the value breaks the schema, so a repair decision about the restored outcome
    /// names them as the original would.
    #[serde(default)]
    violations: Vec<Violation>,
}

/// `(restore, (state,))` for `pickle`.
pub fn reduce_outcome<'py>(
    py: Python<'py>,
    checked: &Checked,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyTuple>> {
    let capture = &checked.capture;
    let snapshot = Snapshot {
        source: capture.source.clone(),
        path: capture.path.clone(),
        line: capture.line,
        provider: capture.provider,
        model: capture.model.clone(),
        stop_reason: capture.stop_reason.clone(),
        text: capture
            .text
            .clone()
            .map_err(|unreadable| unreadable.message),
        refused: capture.refused,
        decimal: decimals == Decimals::Decimal,
        outcome: checked.outcome.clone(),
        violations: checked.violations.clone(),
    };
    reduce(py, "_restore_outcome", &snapshot)
}

pub fn reduce_failure<'py>(py: Python<'py>, failure: &Failure) -> PyResult<Bound<'py, PyTuple>> {
    reduce(py, "_restore_failure", failure)
}

fn reduce<'py>(
    py: Python<'py>,
    restore: &str,
    state: &impl Serialize,
) -> PyResult<Bound<'py, PyTuple>> {
    let bytes = serde_json::to_vec(state)
        .map_err(|error| PyValueError::new_err(format!("jxray bug: {error}")))?;
    let restore = py.import("jxray._jxray")?.getattr(restore)?;
    PyTuple::new(
        py,
        [
            restore,
            PyTuple::new(py, [PyBytes::new(py, &bytes)])?.into_any(),
        ],
    )
}

fn state<T: for<'de> Deserialize<'de>>(bytes: &[u8], what: &str) -> PyResult<T> {
    serde_json::from_slice(bytes).map_err(|error| {
        PyValueError::new_err(format!(
            "not a pickled jxray.{what} of this jxray version: {error}"
        ))
    })
}

/// What a pickled outcome's state holds: the checked capture and how it gives decimals.
pub fn restored_outcome(state_bytes: &[u8]) -> PyResult<(Checked, Decimals)> {
    let snapshot: Snapshot = state(state_bytes, "Outcome")?;
    let mut capture = Capture::from_text(snapshot.source, String::new());
    capture.path = snapshot.path;
    capture.line = snapshot.line;
    capture.provider = snapshot.provider;
    capture.model = snapshot.model;
    capture.stop_reason = snapshot.stop_reason;
    capture.text = snapshot.text.map_err(Unreadable::new);
    capture.refused = snapshot.refused;
    let decimals = if snapshot.decimal {
        Decimals::Decimal
    } else {
        Decimals::Float
    };
    let checked = Checked {
        capture,
        outcome: snapshot.outcome,
        violations: snapshot.violations,
        chain: None,
        early: None,
    };
    Ok((checked, decimals))
}

/// What a pickled failure's state holds.
pub fn restored_failure(state_bytes: &[u8]) -> PyResult<Failure> {
    state(state_bytes, "Failure")
}
