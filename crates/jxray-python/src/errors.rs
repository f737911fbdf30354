//! The exceptions: one class per failure kind, all `jxray.ExtractError` and `ValueError`,
//! so `outcome.value_or_raise()` drops in where `json.loads` was.

use jxray::engine::FailureKind;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::PyTypeInfo;

create_exception!(
    jxray,
    ExtractError,
    PyValueError,
    "No value was accepted; `outcome` and `failure` say why (a subclass names the kind)."
);
create_exception!(
    jxray,
    TruncatedError,
    ExtractError,
    "The output was cut off (a length limit, or it ends inside a value): raise the limit."
);
create_exception!(
    jxray,
    NoJsonError,
    ExtractError,
    "No JSON object or array in the output (or a refusal, or a filtered output)."
);
create_exception!(
    jxray,
    InvalidJsonError,
    ExtractError,
    "A candidate is there but is not valid JSON; `failure.defect` names the problem."
);
create_exception!(
    jxray,
    SchemaError,
    ExtractError,
    "Valid JSON that breaks the JSON Schema; the message lists each failing path."
);
create_exception!(
    jxray,
    UnreadableError,
    ExtractError,
    "The capture could not be read (not UTF-8, too large, an envelope without its text)."
);

/// The exception for a failure of `kind` with `message`, carrying the outcome.
pub fn extract_error(
    py: Python<'_>,
    kind: FailureKind,
    message: String,
    outcome: Py<PyAny>,
) -> PyResult<PyErr> {
    let class = match kind {
        FailureKind::Truncated => TruncatedError::type_object(py),
        FailureKind::NoJson => NoJsonError::type_object(py),
        FailureKind::Invalid => InvalidJsonError::type_object(py),
        FailureKind::Schema => SchemaError::type_object(py),
        FailureKind::Unreadable => UnreadableError::type_object(py),
        // A kind added later is still an ExtractError.
        _ => ExtractError::type_object(py),
    };
    let error = class.call1((message,))?;
    let failure = outcome.bind(py).getattr("failure")?;
    error.setattr("outcome", outcome)?;
    error.setattr("failure", failure)?;
    Ok(PyErr::from_value(error))
}

/// Add the exception classes to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("ExtractError", py.get_type::<ExtractError>())?;
    module.add("TruncatedError", py.get_type::<TruncatedError>())?;
    module.add("NoJsonError", py.get_type::<NoJsonError>())?;
    module.add("InvalidJsonError", py.get_type::<InvalidJsonError>())?;
    module.add("SchemaError", py.get_type::<SchemaError>())?;
    module.add("UnreadableError", py.get_type::<UnreadableError>())?;
    Ok(())
}
