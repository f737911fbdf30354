//! `jxray.check(path)`: every capture under a file, folder or log store, as `jxray check`
//! reads them, yielded as `(source, Outcome)` in its order while the rest are still being
//! read and extracted on other threads.
//!
//! The CLI's pipeline runs on a thread of its own and hands each checked capture over a
//! bounded channel: memory stays bounded by its window and the channel, whatever the
//! size of the log, and an iterator dropped early stops the run (the pipeline sees its
//! reader go away, as `jxray check | head` does).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use jxray::capture::{self, LoadOptions};
use jxray::check::{self as checking, Checked, Found};
use jxray::config::Config;
use jxray::pipeline::{self, PipelineSettings};
use jxray::report::{Sink, Summary};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::convert::Decimals;
use crate::options::{Pydantic, Settings};
use crate::outcome::PyOutcome;

/// Checked captures waiting for Python to take them.
const HANDED_OVER: usize = 256;

/// The iterator `jxray.check` returns.
#[pyclass(frozen, module = "jxray", name = "CheckRun")]
pub struct CheckRun {
    checked: Mutex<Receiver<Checked>>,
    decimals: Decimals,
    /// The Pydantic model or `TypeAdapter` given as the schema, whose instances the
    /// accepted values become.
    pydantic: Option<Arc<Pydantic>>,
}

/// Start checking `path` in the background.
pub fn start(
    py: Python<'_>,
    path: PathBuf,
    settings: Settings,
    load: LoadOptions,
) -> PyResult<CheckRun> {
    if path == Path::new("-") {
        return Err(PyValueError::new_err(
            "check reads a file, a folder or a log; pass a text to jxray.extract instead of -",
        ));
    }
    // What `jxray check` reads under the path: the config file's fixtures folder and
    // fixture files passed over.
    let config = Config::load().map_err(|error| PyValueError::new_err(error.to_string()))?;
    let found = py.detach(|| checking::captures_under(&path, &config.fixtures_folder(), &load));
    let Found {
        jobs,
        most_workers,
        discovery,
    } = found.map_err(|error| match error {
        capture::LoadError::NotFound { .. } => PyFileNotFoundError::new_err(error.to_string()),
        other => PyOSError::new_err(other.to_string()),
    })?;
    let (sender, receiver) = sync_channel(HANDED_OVER);
    let decimals = settings.decimals;
    let pydantic = settings.pydantic.clone();
    thread::spawn(move || {
        // It ends when every capture is handed over, or when the iterator is gone.
        let _ = pipeline::run(
            jobs,
            &settings.checker,
            &mut HandOver(sender),
            &PipelineSettings::default()
                .with_most_workers(most_workers)
                .with_requests(discovery.recorded),
        );
    });
    Ok(CheckRun {
        checked: Mutex::new(receiver),
        decimals,
        pydantic,
    })
}

/// The pipeline's report: each checked capture, handed to the iterator.
struct HandOver(SyncSender<Checked>);

impl Sink for HandOver {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        self.0
            .send(item.clone())
            .map_err(|_| io::ErrorKind::BrokenPipe.into())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[pymethods]
impl CheckRun {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// The next `(source, Outcome)`, waiting (the interpreter released) until it is known.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<(String, PyOutcome)>> {
        let next = py.detach(|| {
            let receiver = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
            receiver.recv().ok()
        });
        let Some(checked) = next else {
            return Ok(None);
        };
        let source = checked.capture.source.clone();
        let outcome = PyOutcome::new(py, checked, self.decimals)?;
        Ok(Some((
            source,
            outcome.with_instance(py, self.pydantic.as_deref()),
        )))
    }
}
