//! The streaming extractor for Python (`jxray.Extractor`, python/jxray/_stream.py): the
//! engine's `Extractor` fed text chunks, or a provider's stream events (an SDK's chunks as
//! JSON, read by the same readers `check` reads a saved stream with), its snapshots handed
//! over as Python objects, and the end judged as `extract` judges the whole text.

use std::path::Path;
use std::sync::Arc;

use jxray::capture::{load_bytes, Capture, LiveStream, LoadOptions};
use jxray::engine::{Extractor, Options, Snapshot};
use jxray_formats::judge;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::extract::{extract_one, utf8};
use crate::options::Settings;
use crate::outcome::PyOutcome;
use crate::snapshot::{snapshot_dict, StateFields};

/// One streamed output being read.
#[pyclass(module = "jxray._jxray", name = "StreamCore")]
pub struct StreamCore {
    extractor: Option<Extractor>,
    /// Filled anew per chunk, its buffers kept.
    snapshot: Snapshot,
    /// The snapshot's state as last handed over.
    state: StateFields,
    settings: Settings,
    /// For a stream of provider events: its reader, and the events as SSE, judged whole
    /// at the end.
    events: Option<(LiveStream, Vec<u8>)>,
}

#[pymethods]
impl StreamCore {
    #[new]
    #[pyo3(signature = (*, schema=None, decimals="float", accept_lenient=false, runaway_bytes=None, events=false))]
    fn new(
        py: Python<'_>,
        schema: Option<&Bound<'_, PyAny>>,
        decimals: &str,
        accept_lenient: bool,
        runaway_bytes: Option<usize>,
        events: bool,
    ) -> PyResult<StreamCore> {
        let settings = Settings::new(py, accept_lenient, false, "first", schema, decimals)?;
        let options = Options::default().with_accept_lenient(accept_lenient);
        let mut extractor = Extractor::new(options);
        if let Some(schema) = settings.checker.schema() {
            // Each item and member judged as it closes; the end judges the whole value.
            extractor = extractor.with_validator(judge::items(Arc::clone(schema) as _));
        }
        if let Some(bytes) = runaway_bytes {
            extractor = extractor.with_runaway_bytes(bytes);
        }
        Ok(StreamCore {
            extractor: Some(extractor),
            snapshot: Snapshot::default(),
            state: StateFields::default(),
            settings,
            events: events.then(|| (LiveStream::default(), Vec::new())),
        })
    }

    /// Feed a chunk of the output (`str` or `bytes`); the snapshot as a dict.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (extractor, snapshot) = self.parts()?;
        if let Ok(text) = chunk.cast::<PyString>() {
            extractor.feed_str_into(utf8(text, "chunk")?, snapshot)
        } else if let Ok(bytes) = chunk.cast::<PyBytes>() {
            extractor.feed_into(bytes.as_bytes(), snapshot)
        } else {
            return Err(PyTypeError::new_err(format!(
                "a chunk is str or bytes, not {}",
                chunk.get_type().name()?
            )));
        };
        self.snapshot(py)
    }

    /// Feed one provider event (its JSON text: an OpenAI chunk or Responses event, an
    /// Anthropic event, a Gemini or Ollama chunk); the snapshot as a dict.
    fn feed_event<'py>(&mut self, py: Python<'py>, event: &str) -> PyResult<Bound<'py, PyAny>> {
        let line = format!("data: {}\n\n", event.replace('\n', " "));
        let Some((live, bytes)) = self.events.as_mut() else {
            return Err(PyTypeError::new_err(
                "this extractor reads text: give it chunks, not events",
            ));
        };
        bytes.extend_from_slice(line.as_bytes());
        let gained = live.push(&line);
        let (extractor, snapshot) = self.parts()?;
        extractor.feed_str_into(&gained, snapshot);
        self.snapshot(py)
    }

    /// The text received so far.
    fn text(&self) -> PyResult<String> {
        Ok(self.extractor_ref()?.text().to_owned())
    }

    /// The outcome of what was read, as `extract` judges it (with `stop_reason` for text;
    /// a stream of events has its own). Ends the extractor.
    #[pyo3(signature = (stop_reason=None))]
    fn end(&mut self, py: Python<'_>, stop_reason: Option<String>) -> PyResult<PyOutcome> {
        let extractor = self
            .extractor
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("this extractor has already ended"))?;
        let capture = match self.events.take() {
            Some((_, bytes)) => first_capture(load_bytes(
                "-",
                Path::new("stream.sse"),
                bytes,
                &LoadOptions::default(),
            ))?,
            None => {
                let mut capture = match extractor.not_utf8() {
                    Some(_) => {
                        let bytes = extractor.text().as_bytes().to_vec();
                        first_capture(load_bytes(
                            "-",
                            Path::new("-"),
                            bytes,
                            &LoadOptions::default(),
                        ))?
                    }
                    None => Capture::from_text("-", extractor.text().to_owned()),
                };
                capture.stop_reason = stop_reason;
                capture
            }
        };
        extract_one(py, capture, &self.settings)
    }
}

impl StreamCore {
    /// The extractor, and the snapshot it fills.
    fn parts(&mut self) -> PyResult<(&mut Extractor, &mut Snapshot)> {
        let extractor = self
            .extractor
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("this extractor has already ended"))?;
        Ok((extractor, &mut self.snapshot))
    }

    fn extractor_ref(&self) -> PyResult<&Extractor> {
        self.extractor
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("this extractor has already ended"))
    }

    /// The last chunk's snapshot, as a dict.
    fn snapshot<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dict = snapshot_dict(py, &self.snapshot, &mut self.state, self.settings.decimals)?;
        Ok(dict.into_any())
    }
}

fn first_capture(captures: Vec<Capture>) -> PyResult<Capture> {
    captures
        .into_iter()
        .next()
        .ok_or_else(|| PyRuntimeError::new_err("the stream held no output"))
}
