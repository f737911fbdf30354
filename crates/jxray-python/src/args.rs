//! Keyword arguments read by name, so a wrong type is a one-line `TypeError` that names the
//! argument (`accept_lenient must be True or False, not str`): pyo3's own message does not
//! name it before Python 3.11, and after it only in a note below the message.

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

/// `name` must be a `bool`.
pub fn flag(value: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    match value.cast::<PyBool>() {
        Ok(flag) => Ok(flag.is_true()),
        Err(_) => Err(wrong_type(value, name, "True or False")),
    }
}

/// `name` must be a `str`.
pub fn word(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    match value.cast::<PyString>() {
        Ok(text) => Ok(text.to_str()?.to_owned()),
        Err(_) => Err(wrong_type(value, name, "a str")),
    }
}

/// `name` must be a `str` or None.
pub fn optional_word(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    match value.cast::<PyString>() {
        Ok(text) => Ok(Some(text.to_str()?.to_owned())),
        Err(_) => Err(wrong_type(value, name, "a str or None")),
    }
}

/// `name` must be an `int` of at least 0.
pub fn count(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if value.cast::<PyInt>().is_err() || value.is_instance_of::<PyBool>() {
        return Err(wrong_type(value, name, "an int"));
    }
    value
        .extract::<u64>()
        .map_err(|_| PyValueError::new_err(format!("{name} must be 0 or more, not {value}")))
}

/// `name` must be a `str` or an `os.PathLike`.
pub fn path(value: &Bound<'_, PyAny>, name: &str) -> PyResult<PathBuf> {
    value
        .extract::<PathBuf>()
        .map_err(|_| wrong_type(value, name, "a str or an os.PathLike"))
}

fn wrong_type(value: &Bound<'_, PyAny>, name: &str, wanted: &str) -> PyErr {
    let given = value
        .get_type()
        .name()
        .map_or_else(|_| "another type".to_string(), |name| name.to_string());
    PyTypeError::new_err(format!("{name} must be {wanted}, not {given}"))
}

/// One `from_py_with` reader per argument name, so each error names its argument.
macro_rules! named {
    ($($name:ident: $reader:ident -> $out:ty;)*) => {
        $(
            pub fn $name(value: &Bound<'_, PyAny>) -> PyResult<$out> {
                super::$reader(value, stringify!($name))
            }
        )*
    };
}

/// The readers the functions' signatures name.
pub mod by_name {
    use pyo3::prelude::*;
    use std::path::PathBuf;

    named! {
        accept_lenient: flag -> bool;
        decode_stringified: flag -> bool;
        pick: word -> String;
        decimals: word -> String;
        stop_reason: optional_word -> Option<String>;
        text_path: optional_word -> Option<String>;
        stop_path: optional_word -> Option<String>;
        id_path: optional_word -> Option<String>;
        model_path: optional_word -> Option<String>;
        preset: optional_word -> Option<String>;
        max_bytes: count -> u64;
        path: path -> PathBuf;
    }
}
