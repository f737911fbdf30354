//! A streaming snapshot as the dict `jxray.Extractor` reads, built directly: the engine's
//! `Snapshot` serialized would be the same dict, but through a `serde_json::Value` made
//! and dropped at every chunk. The state's fields, which change rarely, are kept in a dict
//! each snapshot's starts as a copy of.

use jxray::engine::{DeltaRef, Part, Snapshot, State};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

use crate::convert::{digits_to_python, to_python, Decimals};

/// The snapshot of the last chunk, as a dict with every `Snapshot` field but `value`;
/// `state` keeps the state's fields as last written (`state`, `why`, `layer`, `dialect`,
/// `None` where they do not apply).
pub fn snapshot_dict<'py>(
    py: Python<'py>,
    snapshot: &Snapshot,
    state: &mut StateFields,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = state.of(py, snapshot.state)?.bind(py).copy()?;
    dict.set_item("provisional", snapshot.provisional)?;
    let deltas = PyList::empty(py);
    for delta in &snapshot.deltas {
        deltas.append(delta_dict(py, delta, decimals)?)?;
    }
    dict.set_item("deltas", deltas)?;
    dict.set_item("open_paths", PyList::new(py, snapshot.open_paths.iter())?)?;
    dict.set_item("final_paths", PyList::new(py, snapshot.final_paths.iter())?)?;
    // Most chunks raise none.
    let signals = if snapshot.signals.is_empty() {
        PyList::empty(py).into_any()
    } else {
        serialized(py, &snapshot.signals, decimals)?
    };
    dict.set_item("signals", signals)?;
    dict.set_item("bytes", snapshot.bytes)?;
    Ok(dict)
}

/// `{"op": "add", "path", "value"}`, `{"op": "append", "path", "text"}` or
/// `{"op": "withdraw"}`.
fn delta_dict<'py>(
    py: Python<'py>,
    delta: DeltaRef<'_>,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    let dict = PyDict::new(py);
    match delta {
        DeltaRef::Add { path, value } => {
            dict.set_item("op", "add")?;
            dict.set_item("path", path)?;
            dict.set_item("value", part(py, value, decimals)?)?;
        }
        DeltaRef::Append { path, text } => {
            dict.set_item("op", "append")?;
            dict.set_item("path", path)?;
            dict.set_item("text", text)?;
        }
        DeltaRef::Withdraw => dict.set_item("op", "withdraw")?,
    }
    Ok(dict.into_any())
}

/// What a change adds, as a Python object (a number from its spelling, as `extract`
/// reads one).
fn part<'py>(py: Python<'py>, value: Part<'_>, decimals: Decimals) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Part::Object => PyDict::new(py).into_any(),
        Part::Array => PyList::empty(py).into_any(),
        Part::String(text) => PyString::new(py, text).into_any(),
        Part::Number(spelling) => digits_to_python(py, spelling, decimals)?,
        Part::Bool(value) => PyBool::new(py, value).to_owned().into_any(),
        Part::Null => py.None().into_bound(py),
    })
}

/// Anything serializable, as its JSON's Python objects.
fn serialized<'py, T: serde::Serialize>(
    py: Python<'py>,
    value: &T,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(value).map_err(|error| {
        pyo3::exceptions::PyRuntimeError::new_err(format!("jxray bug: {error}"))
    })?;
    to_python(py, &value, decimals)
}

/// The state's fields as last written, in a dict of their own, with the state they are.
#[derive(Default)]
pub struct StateFields(Option<(State, Py<PyDict>)>);

impl StateFields {
    fn of(&mut self, py: Python<'_>, state: State) -> PyResult<&Py<PyDict>> {
        let fields = match self.0.take() {
            Some((held, fields)) if held == state => fields,
            _ => fields_of(py, state)?.unbind(),
        };
        Ok(&self.0.insert((state, fields)).1)
    }
}

/// `state` and its one qualifier, as the engine serializes them; the qualifiers that do
/// not apply are `None`.
fn fields_of(py: Python<'_>, state: State) -> PyResult<Bound<'_, PyDict>> {
    let value = serde_json::to_value(state).unwrap_or_default();
    let fields = PyDict::new(py);
    for key in ["state", "why", "layer", "dialect"] {
        fields.set_item(key, value.get(key).and_then(|text| text.as_str()))?;
    }
    Ok(fields)
}
