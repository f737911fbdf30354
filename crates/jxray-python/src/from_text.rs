//! JSON text to Python objects, read in one pass: the value `extract` accepted, handed over
//! as the compact text the engine writes when no tree is needed (`ValueForm::Text`), so no
//! `serde_json::Value` is built only to be converted and dropped. The same objects as
//! [`to_python`](crate::convert::to_python) makes of the tree: numbers from their digits,
//! objects in the model's key order, keys made once; without recursion.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

use crate::convert::{digits_to_python, Decimals};
use crate::keys::Keys;

/// A container being filled.
enum Open<'py> {
    List(Bound<'py, PyList>),
    /// A dict, and the key of the member whose value comes next.
    Dict(Bound<'py, PyDict>, Option<Bound<'py, PyString>>),
}

/// The value `json` (one valid JSON value) holds, as Python objects.
pub fn text_to_python<'py>(
    py: Python<'py>,
    json: &str,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    let mut reader = Reader {
        json,
        at: 0,
        keys: Keys::take(),
    };
    let mut stack: Vec<Open<'py>> = Vec::new();
    loop {
        reader.skip_space();
        // Between values: a comma, a closer, or (in a dict) the next key.
        match (stack.last_mut(), reader.peek()) {
            (Some(_), Some(b',')) => {
                reader.at += 1;
                continue;
            }
            (Some(_), Some(b']' | b'}')) => {
                reader.at += 1;
                let done = stack.pop().map(Open::into_any);
                match (done, stack.is_empty()) {
                    (Some(value), true) => return Ok(value),
                    _ => continue,
                }
            }
            (Some(Open::Dict(_, key @ None)), Some(b'"')) => {
                *key = Some(reader.key(py)?);
                reader.skip_space();
                reader.expect(b':')?;
                continue;
            }
            _ => {}
        }
        let (value, opened) = reader.value(py, decimals)?;
        let Some(parent) = stack.last_mut() else {
            match opened {
                Some(open) => stack.push(open),
                None => return Ok(value),
            }
            continue;
        };
        match parent {
            Open::List(list) => list.append(&value)?,
            Open::Dict(dict, key) => {
                let key = key.take().ok_or_else(|| malformed(reader.at))?;
                dict.set_item(key, &value)?;
            }
        }
        stack.extend(opened);
    }
}

impl<'py> Open<'py> {
    fn into_any(self) -> Bound<'py, PyAny> {
        match self {
            Open::List(list) => list.into_any(),
            Open::Dict(dict, _) => dict.into_any(),
        }
    }
}

struct Reader<'j> {
    json: &'j str,
    at: usize,
    keys: Keys,
}

impl<'j> Reader<'j> {
    fn peek(&self) -> Option<u8> {
        self.json.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> PyResult<()> {
        if self.peek() != Some(byte) {
            return Err(malformed(self.at));
        }
        self.at += 1;
        Ok(())
    }

    /// A scalar, or an empty container to fill.
    fn value<'py>(
        &mut self,
        py: Python<'py>,
        decimals: Decimals,
    ) -> PyResult<(Bound<'py, PyAny>, Option<Open<'py>>)> {
        let start = self.at;
        let scalar = match self.peek() {
            Some(b'{') => {
                self.at += 1;
                let dict = PyDict::new(py);
                return Ok((dict.clone().into_any(), Some(Open::Dict(dict, None))));
            }
            Some(b'[') => {
                self.at += 1;
                let list = PyList::empty(py);
                return Ok((list.clone().into_any(), Some(Open::List(list))));
            }
            Some(b'"') => PyString::new(py, &self.string()?).into_any(),
            Some(b't') => self.word("true", PyBool::new(py, true).to_owned().into_any())?,
            Some(b'f') => self.word("false", PyBool::new(py, false).to_owned().into_any())?,
            Some(b'n') => self.word("null", py.None().into_bound(py))?,
            Some(b'-' | b'0'..=b'9') => {
                let bytes = self.json.as_bytes();
                self.at += 1;
                while matches!(
                    bytes.get(self.at),
                    Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                ) {
                    self.at += 1;
                }
                digits_to_python(py, &self.json[start..self.at], decimals)?
            }
            _ => return Err(malformed(start)),
        };
        Ok((scalar, None))
    }

    fn word<'py>(&mut self, word: &str, value: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if !self.json[self.at..].starts_with(word) {
            return Err(malformed(self.at));
        }
        self.at += word.len();
        Ok(value)
    }

    /// A member's key, made once for all the dicts that have it.
    fn key<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let key = self.string()?;
        Ok(self.keys.get(py, &key))
    }

    /// The string whose opening quote is at `at`, unescaped; `at` moves past its closing
    /// quote.
    fn string(&mut self) -> PyResult<std::borrow::Cow<'j, str>> {
        let bytes = self.json.as_bytes();
        let start = self.at + 1;
        let Some(stop) = memchr::memchr2(b'"', b'\\', &bytes[start..]).map(|n| start + n) else {
            return Err(malformed(self.at));
        };
        if bytes[stop] == b'"' {
            self.at = stop + 1;
            let json: &'j str = self.json;
            return Ok(std::borrow::Cow::Borrowed(&json[start..stop]));
        }
        // Escapes: read as serde_json reads a JSON string.
        let end = string_end(bytes, stop).ok_or_else(|| malformed(self.at))?;
        let text: String =
            serde_json::from_str(&self.json[self.at..end]).map_err(|_| malformed(self.at))?;
        self.at = end;
        Ok(std::borrow::Cow::Owned(text))
    }
}

/// The offset after the closing quote of a string that holds an escape at `escape`.
fn string_end(bytes: &[u8], mut escape: usize) -> Option<usize> {
    loop {
        let next = escape + 2 + memchr::memchr2(b'"', b'\\', bytes.get(escape + 2..)?)?;
        if bytes[next] == b'"' {
            return Some(next + 1);
        }
        escape = next;
    }
}

fn malformed(at: usize) -> PyErr {
    PyRuntimeError::new_err(format!(
        "jxray bug: the accepted value's JSON text could not be read at byte {at}"
    ))
}
