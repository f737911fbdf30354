//! The `jxray._jxray` extension module: jxray's engine, readers, fixtures and command line
//! for Python. The package around it (`python/jxray`) re-exports what users call; nothing
//! here re-implements the app: every function calls the code the `jxray` binary runs.

mod args;
mod captures;
mod check;
mod convert;
mod errors;
mod extract;
mod fixtures;
mod from_text;
mod keys;
mod options;
mod outcome;
mod pickle;
mod repair;
mod snapshot;
mod stream;

use std::ffi::OsString;
use std::path::PathBuf;

use pyo3::prelude::*;

use crate::args::by_name;
use crate::options::{load_options, LogFields, Settings};
use crate::outcome::{PyFailure, PyOutcome};

/// Rust allocations (the engine's, the readers') go through mimalloc, as in the binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Find, repair and explain the JSON in one raw model output.
#[pyfunction(name = "extract")]
#[pyo3(signature = (
    text, *, stop_reason=None, accept_lenient=false, decode_stringified=false,
    pick=String::from("first"), schema=None, decimals=String::from("float")
))]
#[pyo3(text_signature = "(text, *, stop_reason=None, accept_lenient=False, \
    decode_stringified=False, pick='first', schema=None, decimals='float')")]
#[allow(clippy::too_many_arguments)]
fn extract_text(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = by_name::stop_reason)] stop_reason: Option<String>,
    #[pyo3(from_py_with = by_name::accept_lenient)] accept_lenient: bool,
    #[pyo3(from_py_with = by_name::decode_stringified)] decode_stringified: bool,
    #[pyo3(from_py_with = by_name::pick)] pick: String,
    schema: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = by_name::decimals)] decimals: String,
) -> PyResult<PyOutcome> {
    let settings = Settings::new(
        py,
        accept_lenient,
        decode_stringified,
        &pick,
        schema,
        &decimals,
    )?;
    let mut capture = extract::capture_of(text)?;
    capture.stop_reason = stop_reason;
    extract::extract_one(py, capture, &settings)
}

/// The outcomes of a provider response's JSON body: its text, then each tool call.
#[pyfunction]
#[pyo3(signature = (
    body, *, accept_lenient=false, decode_stringified=false, pick=String::from("first"),
    schema=None, decimals=String::from("float")
))]
#[pyo3(
    text_signature = "(body, *, accept_lenient=False, decode_stringified=False, \
    pick='first', schema=None, decimals='float')"
)]
fn extract_response_body(
    py: Python<'_>,
    body: Vec<u8>,
    #[pyo3(from_py_with = by_name::accept_lenient)] accept_lenient: bool,
    #[pyo3(from_py_with = by_name::decode_stringified)] decode_stringified: bool,
    #[pyo3(from_py_with = by_name::pick)] pick: String,
    schema: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = by_name::decimals)] decimals: String,
) -> PyResult<Vec<PyOutcome>> {
    let settings = Settings::new(
        py,
        accept_lenient,
        decode_stringified,
        &pick,
        schema,
        &decimals,
    )?;
    let captures = extract::response_captures(body)?;
    extract::extract_all(py, captures, &settings)
}

/// Every capture under a file, folder or log store, as `(source, Outcome)`, streaming.
#[pyfunction(name = "check")]
#[pyo3(signature = (
    path, *, schema=None, accept_lenient=false, decode_stringified=false,
    pick=String::from("first"), max_bytes=64 * 1024 * 1024, text_path=None, stop_path=None,
    id_path=None, model_path=None, preset=None, decimals=String::from("float")
))]
#[pyo3(text_signature = "(path, *, schema=None, accept_lenient=False, \
    decode_stringified=False, pick='first', max_bytes=67108864, text_path=None, \
    stop_path=None, id_path=None, model_path=None, preset=None, decimals='float')")]
#[allow(clippy::too_many_arguments)]
fn check_path(
    py: Python<'_>,
    #[pyo3(from_py_with = by_name::path)] path: PathBuf,
    schema: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = by_name::accept_lenient)] accept_lenient: bool,
    #[pyo3(from_py_with = by_name::decode_stringified)] decode_stringified: bool,
    #[pyo3(from_py_with = by_name::pick)] pick: String,
    #[pyo3(from_py_with = by_name::max_bytes)] max_bytes: u64,
    #[pyo3(from_py_with = by_name::text_path)] text_path: Option<String>,
    #[pyo3(from_py_with = by_name::stop_path)] stop_path: Option<String>,
    #[pyo3(from_py_with = by_name::id_path)] id_path: Option<String>,
    #[pyo3(from_py_with = by_name::model_path)] model_path: Option<String>,
    #[pyo3(from_py_with = by_name::preset)] preset: Option<String>,
    #[pyo3(from_py_with = by_name::decimals)] decimals: String,
) -> PyResult<check::CheckRun> {
    let settings = Settings::new(
        py,
        accept_lenient,
        decode_stringified,
        &pick,
        schema,
        &decimals,
    )?;
    let fields = LogFields {
        text_path: text_path.as_deref(),
        stop_path: stop_path.as_deref(),
        id_path: id_path.as_deref(),
        model_path: model_path.as_deref(),
        preset: preset.as_deref(),
    };
    check::start(py, path, settings, load_options(max_bytes, &fields)?)
}

/// Run the `jxray` command line on `argv` (the program's name first) and return its exit
/// status; it writes to the process's standard output and error, as the binary does.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    py.detach(|| jxray::command_line(argv))
}

#[pymodule]
fn _jxray(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(extract_text, module)?)?;
    module.add_function(wrap_pyfunction!(extract_response_body, module)?)?;
    module.add_function(wrap_pyfunction!(check_path, module)?)?;
    module.add_function(wrap_pyfunction!(main, module)?)?;
    module.add_function(wrap_pyfunction!(repair::repair_decision, module)?)?;
    module.add_function(wrap_pyfunction!(repair::token_usage, module)?)?;
    module.add_function(wrap_pyfunction!(captures::open_captures, module)?)?;
    module.add_function(wrap_pyfunction!(captures::write_attempt, module)?)?;
    module.add_function(wrap_pyfunction!(captures::attempt_files_of, module)?)?;
    module.add_function(wrap_pyfunction!(fixtures::fixture_files, module)?)?;
    module.add_function(wrap_pyfunction!(fixtures::replay_fixture, module)?)?;
    module.add_function(wrap_pyfunction!(fixtures::escape_line, module)?)?;
    module.add_function(wrap_pyfunction!(outcome::restore_outcome, module)?)?;
    module.add_function(wrap_pyfunction!(outcome::restore_failure, module)?)?;
    module.add_class::<PyOutcome>()?;
    module.add_class::<PyFailure>()?;
    module.add_class::<stream::StreamCore>()?;
    module.add_class::<check::CheckRun>()?;
    module.add_class::<repair::RepairRun>()?;
    module.add_class::<fixtures::FixtureReplay>()?;
    errors::register(module)?;
    Ok(())
}
