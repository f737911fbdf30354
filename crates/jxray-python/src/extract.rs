//! `jxray.extract` (one raw output) and `jxray.extract_response` (a provider's response
//! body, read by the same envelope readers as a `.json` capture file).

use std::path::Path;

use jxray::capture::{load_bytes, Capture, LoadOptions};
use jxray::check::Checked;

use pyo3::exceptions::{PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::options::Settings;
use crate::outcome::PyOutcome;

/// What `extract` reads: a text, or bytes decoded as a capture file's are (UTF-8, with or
/// without a byte-order mark; anything else is `unreadable`).
pub fn capture_of(text: &Bound<'_, PyAny>) -> PyResult<Capture> {
    if let Ok(text) = text.cast::<PyString>() {
        return Ok(Capture::from_text("-", utf8(text, "text")?.to_owned()));
    }
    if let Ok(bytes) = text.cast::<PyBytes>() {
        let bytes = bytes.as_bytes().to_vec();
        let mut captures = load_bytes("-", Path::new("-"), bytes, &LoadOptions::default());
        return Ok(captures.remove(0));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "text must be str or bytes, not {}",
        text.get_type().name()?
    )))
}

/// The UTF-8 of a `str` argument, read in place (CPython keeps it with the `str` once
/// asked); one holding a lone surrogate (which UTF-8 cannot carry) is the same
/// `UnicodeEncodeError`, its reason naming the argument and the place.
pub fn utf8<'a>(text: &'a Bound<'_, PyString>, argument: &str) -> PyResult<&'a str> {
    let py = text.py();
    text.to_str().map_err(|error| {
        let value = error.value(py);
        let (Ok(start), Ok(end)) = (
            value.getattr("start").and_then(|v| v.extract::<usize>()),
            value.getattr("end").and_then(|v| v.extract::<usize>()),
        ) else {
            return error;
        };
        // A surrogate is no Rust `char`: its code point is asked of Python.
        let code: u32 = py
            .import("builtins")
            .and_then(|builtins| builtins.getattr("ord")?.call1((text.get_item(start)?,)))
            .and_then(|code| code.extract())
            .unwrap_or(0);
        let reason = format!(
            "{argument} holds a lone surrogate (U+{code:04X} at index {start}), which is not Unicode text and cannot be read; fix the text where it was decoded (errors=\"surrogateescape\" or \"surrogatepass\" make these)"
        );
        PyUnicodeEncodeError::new_err(("utf-8", text.clone().unbind(), start, end, reason))
    })
}

/// Extract a capture with `settings`, the interpreter released while the engine runs. A
/// failure is decided there and explained only when the outcome is asked about it.
pub fn extract_one(py: Python<'_>, capture: Capture, settings: &Settings) -> PyResult<PyOutcome> {
    let judged = py.detach(|| settings.checker.accepted(&capture));
    match judged {
        Some(judged) => PyOutcome::new(
            py,
            Checked {
                capture,
                outcome: judged.outcome,
                violations: judged.violations,
                chain: None,
                early: None,
            },
            settings.decimals,
        )
        .map(|outcome| outcome.with_instance(py, settings.pydantic.as_deref())),
        None => Ok(PyOutcome::unexplained(py, capture, settings)),
    }
}

/// Extract a capture with `settings` and explain it at once, the engine run once (the
/// repair loop reads every failure it meets).
pub fn judge_one(py: Python<'_>, capture: Capture, settings: &Settings) -> PyResult<PyOutcome> {
    let judged = py.detach(|| settings.checker.judgement(&capture));
    let checked = Checked {
        capture,
        outcome: judged.outcome,
        violations: judged.violations,
        chain: None,
        early: None,
    };
    PyOutcome::new(py, checked, settings.decimals)
        .map(|outcome| outcome.with_instance(py, settings.pydantic.as_deref()))
}

/// [`extract_one`] for each capture, in order.
pub fn extract_all(
    py: Python<'_>,
    captures: Vec<Capture>,
    settings: &Settings,
) -> PyResult<Vec<PyOutcome>> {
    captures
        .into_iter()
        .map(|capture| extract_one(py, capture, settings))
        .collect()
}

/// The captures a response body holds (its text, each tool call), named `response` and
/// `response#call-N`; an error when it is no provider response at all. A body that claims
/// a provider's format but lacks its text (or is not UTF-8) is an `unreadable` capture,
/// as the same file would be.
pub fn response_captures(body: Vec<u8>) -> PyResult<Vec<Capture>> {
    let captures = load_bytes(
        "response",
        Path::new("response.json"),
        body,
        &LoadOptions::default(),
    );
    let recognised = captures
        .iter()
        .any(|capture| capture.provider.is_some() || capture.text.is_err());
    if !recognised {
        // Read as plain text, it is the body as given: say what keeps it from being JSON.
        let invalid = captures
            .first()
            .and_then(|capture| capture.text.as_deref().ok())
            .and_then(|text| serde_json::from_str::<serde::de::IgnoredAny>(text).err());
        if let Some(error) = invalid {
            return Err(PyValueError::new_err(format!(
                "the response body is not JSON ({error}), so it cannot be read as an OpenAI, Anthropic, Gemini or Ollama response"
            )));
        }
        return Err(PyValueError::new_err(
            "not an OpenAI, Anthropic, Gemini or Ollama response; pass the response object, \
             its model_dump() or its JSON body (or the text to jxray.extract)",
        ));
    }
    Ok(captures)
}
