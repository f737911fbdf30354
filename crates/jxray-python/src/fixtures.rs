//! Fixture replay for the pytest plugin: the files `jxray test` replays, and each one's
//! verdict with the text `jxray test` prints for it (the diff of a regression).

use std::path::PathBuf;

use jxray::fixture::{fixture_files as files_of, replay_file, FixtureReport};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// One fixture file replayed.
#[pyclass(frozen, module = "jxray", name = "FixtureReplay", get_all)]
pub struct FixtureReplay {
    /// The fixture's name (None when the file is not a usable fixture).
    name: Option<String>,
    /// `passed`, `failed`, `expected-failing`, `fixed` or `broken`.
    verdict: &'static str,
    /// What `jxray test` prints for it: the label and place, then the expected-versus-actual
    /// diff of a regression; empty when it passed.
    text: String,
}

impl From<FixtureReport> for FixtureReplay {
    fn from(report: FixtureReport) -> FixtureReplay {
        FixtureReplay {
            name: report.name,
            verdict: report.verdict,
            text: report.text,
        }
    }
}

/// The fixture files of a folder (or the one file given), in the order `jxray test` replays them.
#[pyfunction]
pub fn fixture_files(py: Python<'_>, path: PathBuf) -> PyResult<Vec<PathBuf>> {
    py.detach(|| files_of(&path)).map_err(|error| {
        PyValueError::new_err(jxray::text::escape_line(&error.to_string()).into_owned())
    })
}

/// Replay one fixture file as `jxray test` does (never rewriting it).
#[pyfunction]
pub fn replay_fixture(py: Python<'_>, path: PathBuf) -> FixtureReplay {
    py.detach(|| replay_file(&path)).into()
}

/// A name as jxray prints it: one line, control and bidi characters escaped (a fixture's
/// file name in a pytest report must not act on the terminal either).
#[pyfunction(name = "_escape_line")]
pub fn escape_line(text: &str) -> String {
    jxray::text::escape_line(text).into_owned()
}
