//! JSON values to Python objects, exactly: integers of any size as `int`, decimals as
//! `float` (or `decimal.Decimal`), objects as `dict` in the model's key order.
//!
//! The engine keeps every number as the digits the model wrote (serde_json's
//! `arbitrary_precision`), so the conversion is done here from those digits rather than
//! through a generic serde bridge, and without recursion: a value of any depth converts
//! on any thread's stack.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde_json::{Map, Number, Value};

use crate::keys::Keys;

/// How decimals (numbers with a fraction or an exponent) come out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decimals {
    /// `float`, as `json.loads` gives them.
    #[default]
    Float,
    /// `decimal.Decimal`, digit for digit.
    Decimal,
}

impl Decimals {
    /// `decimals="float"` or `decimals="decimal"`.
    pub fn parse(name: &str) -> PyResult<Decimals> {
        match name {
            "float" => Ok(Decimals::Float),
            "decimal" => Ok(Decimals::Decimal),
            other => Err(PyValueError::new_err(format!(
                "decimals must be \"float\" or \"decimal\", not {other:?}"
            ))),
        }
    }
}

/// A container being filled, and the children still to convert.
enum Open<'v, 'py> {
    List(Bound<'py, PyList>, std::slice::Iter<'v, Value>),
    Dict(Bound<'py, PyDict>, serde_json::map::Iter<'v>),
}

/// `value` as Python objects.
pub fn to_python<'py>(
    py: Python<'py>,
    value: &Value,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    let (root, open) = start(py, value, decimals)?;
    let mut stack: Vec<Open> = open.into_iter().collect();
    let mut keys = Keys::take();
    // Each container is put in its parent empty, then filled: no child waits for its parent.
    while let Some(top) = stack.last_mut() {
        let (child, into_list, key) = match top {
            Open::List(list, items) => match items.next() {
                Some(item) => (item, Some(list.clone()), None),
                None => {
                    stack.pop();
                    continue;
                }
            },
            Open::Dict(dict, members) => match members.next() {
                Some((key, item)) => (item, None, Some((dict.clone(), key))),
                None => {
                    stack.pop();
                    continue;
                }
            },
        };
        let (object, open) = start(py, child, decimals)?;
        match (into_list, key) {
            (Some(list), _) => list.append(object)?,
            (None, Some((dict, key))) => dict.set_item(keys.get(py, key), object)?,
            (None, None) => unreachable!("a child has a list or a dict to go into"),
        }
        stack.extend(open);
    }
    Ok(root)
}

/// A scalar as its Python object, or an empty container with its children still to convert.
fn start<'v, 'py>(
    py: Python<'py>,
    value: &'v Value,
    decimals: Decimals,
) -> PyResult<(Bound<'py, PyAny>, Option<Open<'v, 'py>>)> {
    Ok(match value {
        Value::Null => (py.None().into_bound(py), None),
        Value::Bool(flag) => (PyBool::new(py, *flag).to_owned().into_any(), None),
        Value::Number(number) => (number_to_python(py, number, decimals)?, None),
        Value::String(text) => (PyString::new(py, text).into_any(), None),
        Value::Array(items) => {
            let list = PyList::empty(py);
            (
                list.clone().into_any(),
                Some(Open::List(list, items.iter())),
            )
        }
        Value::Object(members) => dict_start(py, members),
    })
}

fn dict_start<'v, 'py>(
    py: Python<'py>,
    members: &'v Map<String, Value>,
) -> (Bound<'py, PyAny>, Option<Open<'v, 'py>>) {
    let dict = PyDict::new(py);
    (
        dict.clone().into_any(),
        Some(Open::Dict(dict, members.iter())),
    )
}

/// A number from the digits the model wrote.
fn number_to_python<'py>(
    py: Python<'py>,
    number: &Number,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    digits_to_python(py, number.as_str(), decimals)
}

/// A number from the digits the model wrote (a valid JSON number).
pub fn digits_to_python<'py>(
    py: Python<'py>,
    digits: &str,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    let is_integer = !digits.contains(['.', 'e', 'E']);
    if is_integer {
        return integer(py, digits);
    }
    match decimals {
        // Rust's parse rounds correctly, as Python's float() does (`1e400` is inf in both).
        Decimals::Float => {
            Ok(PyFloat::new(py, digits.parse::<f64>().unwrap_or(f64::NAN)).into_any())
        }
        // An exponent past what `decimal` can hold (`1e99999999999999999999`) comes out
        // as the float `json.loads` gives for it (inf, or 0.0) rather than an error that
        // would end a `check` loop.
        Decimals::Decimal => decimal_class(py)?.call1((digits,)).or_else(|_| {
            Ok(PyFloat::new(py, digits.parse::<f64>().unwrap_or(f64::NAN)).into_any())
        }),
    }
}

/// The smallest limit `sys.set_int_max_str_digits` accepts: integers this short never
/// need the interpreter's limit looked up.
const SMALLEST_DIGIT_LIMIT: usize = 640;

/// An integer longer than the interpreter's `sys.get_int_max_str_digits()` is refused with
/// the error `int()` and `json.loads` raise for it, before any conversion work.
fn check_digit_limit(py: Python<'_>, digits: &str) -> PyResult<()> {
    if digits.len() <= SMALLEST_DIGIT_LIMIT {
        return Ok(());
    }
    let sys = py.import("sys")?;
    // Interpreters without the limit (before 3.11 and its backports) have none.
    let Ok(limit) = sys.getattr("get_int_max_str_digits") else {
        return Ok(());
    };
    let limit: usize = limit.call0()?.extract()?;
    if limit == 0 || digits.len() <= limit {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "Exceeds the limit ({limit} digits) for integer string conversion: value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
        digits.len()
    )))
}

/// Longest digit string given to `int()` at once: Python refuses longer ones (its
/// `sys.set_int_max_str_digits` limit is 4300 by default).
const INT_CHUNK: usize = 4000;

/// An integer of any length; one longer than Python's string limit is built from halves.
fn integer<'py>(py: Python<'py>, digits: &str) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(small) = digits.parse::<i64>() {
        return Ok(small.into_pyobject(py)?.into_any());
    }
    let (sign, magnitude) = match digits.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, digits),
    };
    check_digit_limit(py, magnitude)?;
    let positive = magnitude_to_python(py, magnitude)?;
    if sign < 0 {
        positive.neg()
    } else {
        Ok(positive)
    }
}

fn magnitude_to_python<'py>(py: Python<'py>, digits: &str) -> PyResult<Bound<'py, PyAny>> {
    let int = py.get_type::<PyInt>();
    if digits.len() <= INT_CHUNK {
        return int.call1((digits,));
    }
    // high * 10**low_len + low, each half converted the same way (depth log n).
    let low_len = digits.len() / 2;
    let (high, low) = digits.split_at(digits.len() - low_len);
    let scale = 10u8.into_pyobject(py)?.pow(low_len, py.None())?;
    magnitude_to_python(py, high)?
        .mul(scale)?
        .add(magnitude_to_python(py, low)?)
}

fn decimal_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static DECIMAL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    DECIMAL
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("decimal")?.getattr("Decimal")?.unbind())
        })
        .map(|class| class.bind(py))
}
