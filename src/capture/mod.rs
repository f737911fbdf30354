//! Files and provider envelopes in, [`Capture`]s out (contract §2).
//!
//! A capture is one raw model output plus what is known about it. Loading
//! never fails as a whole: a file that cannot be read becomes a capture whose
//! text is an [`Unreadable`] error, so nothing is silently skipped.
//!
//! The pieces, in the order data flows through them:
//! - `walk`: which files under a folder are captures (and the skip rules);
//! - `readers`: the registry of readers, asked in order: the first bytes of a file say
//!   which reads it. Each implements `reader::Reader`:
//!   `llm_logs` (the `llm` CLI's SQLite `logs.db`), `inspect` (Inspect AI `.eval` zips) and
//!   `whole` (every other file, read whole);
//! - `disk`: bytes off disk (regular files only, the size limit, symlink diagnosis) and
//!   their decoding to text;
//! - `recognise`: what a whole file's text is, from its name confirmed by its content:
//!   raw output, `envelope` (provider response bodies, one module per provider),
//!   `stream` (saved SSE logs and Ollama NDJSON streams, joined), `jsonl` (one capture a
//!   line), or a log document (`promptfoo`, Inspect `.json`, the user's `fields`; `outline`
//!   reads one too deep to parse whole, a record at a time; `probe` says cheaply whether a
//!   text may be an envelope);
//! - `load`: the entry points that collect captures (files in parallel, a fixed order);
//! - `lazy`: the same captures as a lazy iterator, for `check` at any size;
//! - `request`: the request `jxray record` wrote beside a capture, for the workbench.
//!
//! A [`Capture`] is built by its own constructors (`Capture::raw`, `Capture::decoded`,
//! `Capture::unreadable`), which every reader calls.
//!
//! `stop_reason` is always the provider's own spelling (`length`, `max_tokens`,
//! `MAX_TOKENS`, `max_output_tokens`, `completed`, `end_turn`, `STOP`, …); the engine
//! classifies it. Where a format signals truncation without a stop-reason string (OpenAI
//! Responses `status: "incomplete"`), the most telling spelling is recorded
//! (`incomplete_details.reason`, else `incomplete`).

mod disk;
mod envelope;
pub mod fields;
mod fixture_file;
mod inspect;
mod jsonl;
mod lazy;
mod llm_logs;
mod load;
mod outline;
mod probe;
mod promptfoo;
mod reader;
mod readers;
mod recognise;
mod request;
mod stream;
mod walk;
mod whole;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::engine::{self, Options, Outcome, Warning};

pub use disk::{
    decode as decode_bytes, read_regular, read_regular_text, special_file, MAX_SCHEMA_BYTES,
};
pub use fixture_file::is_fixture_file;
pub use lazy::{
    file_records, found_jobs, found_records, records, stdin_records, Job, Jobs, NotJsonLines,
    Records, StdinFormat,
};
pub use load::{
    load, load_bytes, load_file, load_found, load_reader, LoadError, LoadOptions, SourceNames,
};
pub use request::{request_path, RecordedRequest};
pub use walk::{
    capture_beside_request, discover, discover_below, discover_with, is_capture_name, shell_path,
    Discovery, SkippedFiles, REQUEST_SUFFIX,
};

/// Which provider format a capture came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    OpenaiChat,
    OpenaiResponses,
    OpenaiBatch,
    Anthropic,
    AnthropicBatch,
    Gemini,
    GeminiBatch,
    Ollama,
    /// The `llm` CLI's `logs.db`.
    Llm,
    /// promptfoo eval results.
    Promptfoo,
    /// Inspect AI eval logs.
    Inspect,
    /// Any other JSON log, read through field paths (`--text-path`, `--preset`).
    Log,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::OpenaiChat => "openai-chat",
            Provider::OpenaiResponses => "openai-responses",
            Provider::OpenaiBatch => "openai-batch",
            Provider::Anthropic => "anthropic",
            Provider::AnthropicBatch => "anthropic-batch",
            Provider::Gemini => "gemini",
            Provider::GeminiBatch => "gemini-batch",
            Provider::Ollama => "ollama",
            Provider::Llm => "llm",
            Provider::Promptfoo => "promptfoo",
            Provider::Inspect => "inspect",
            Provider::Log => "log",
        }
    }
}

/// Why a capture could not be read; the message names the cause and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Unreadable {
    pub message: String,
    /// The bytes, when they were read but are not UTF-8: shown with each invalid byte
    /// marked, and kept by a fixture (`input_base64`) so its verdict replays exactly.
    pub bytes: Option<Arc<[u8]>>,
}

impl Unreadable {
    pub fn new(message: impl Into<String>) -> Unreadable {
        Unreadable {
            message: message.into(),
            bytes: None,
        }
    }

    /// Bytes that were read but are not UTF-8.
    pub fn not_utf8(message: impl Into<String>, bytes: Vec<u8>) -> Unreadable {
        Unreadable {
            message: message.into(),
            bytes: Some(bytes.into()),
        }
    }
}

/// One raw model output and what is known about it.
#[derive(Debug, Clone)]
pub struct Capture {
    /// Where it came from, for people and for sorting: `dir/a.txt`, `log.jsonl:12`, or
    /// `logs.db#ID` for one record of a log store (`a.json#call-2` for a second tool call).
    pub source: String,
    /// The file it was read from.
    pub path: PathBuf,
    /// The 1-based line, for captures that are one line of a `.jsonl` file.
    pub line: Option<usize>,
    pub provider: Option<Provider>,
    /// The model that answered, as the log or envelope names it (`gpt-4o`, `openai:gpt-4o`).
    pub model: Option<String>,
    /// The stop reason exactly as the provider spelled it.
    pub stop_reason: Option<String>,
    /// The JSON Schema the request asked for, where the log keeps it (`llm --schema`,
    /// promptfoo's `is-json` assertion): checked as if given with `--schema`.
    pub schema: Option<Arc<Value>>,
    /// The raw text, or why there is none.
    pub text: Result<String, Unreadable>,
    /// Facts the loader learned that extraction should report (e.g. answer taken from `thinking`).
    pub warnings: Vec<Warning>,
    /// The provider marked the output a refusal (OpenAI `message.refusal`): a failure to
    /// find JSON in it is reported with the cause `refusal`, whatever its wording.
    pub refused: bool,
}

impl Capture {
    /// A capture of plain text with no envelope (stdin, tests, fixtures).
    pub fn from_text(source: impl Into<String>, text: impl Into<String>) -> Capture {
        let source = source.into();
        Capture {
            path: PathBuf::from(&source),
            source,
            line: None,
            provider: None,
            model: None,
            stop_reason: None,
            schema: None,
            text: Ok(text.into()),
            warnings: Vec::new(),
            refused: false,
        }
    }

    /// A capture of raw text read from `path`: the whole text, no provider.
    pub(crate) fn raw(source: String, path: &Path, text: String) -> Capture {
        Capture::bare(source, path, Ok(text))
    }

    /// A capture of `path` that could not be read, and why.
    pub(crate) fn unreadable(source: String, path: &Path, unreadable: Unreadable) -> Capture {
        Capture::bare(source, path, Err(unreadable))
    }

    /// A capture with nothing known about it beyond its text (or why there is none).
    fn bare(source: String, path: &Path, text: Result<String, Unreadable>) -> Capture {
        Capture {
            source,
            path: path.to_path_buf(),
            line: None,
            provider: None,
            model: None,
            stop_reason: None,
            schema: None,
            text,
            warnings: Vec::new(),
            refused: false,
        }
    }

    /// The captures of a recognised format (its text and each tool call, see
    /// [`Outputs::named`](envelope::Outputs::named)), or an unreadable one saying what
    /// it lacks.
    pub(crate) fn decoded(
        source: &str,
        path: &Path,
        line: Option<usize>,
        result: Result<envelope::Contents, String>,
    ) -> Vec<Capture> {
        let decoded = match result {
            Ok(decoded) => decoded,
            Err(message) => {
                let unreadable = Unreadable::new(message);
                return vec![Capture {
                    line,
                    ..Capture::unreadable(source.to_string(), path, unreadable)
                }];
            }
        };
        let envelope::Contents {
            provider,
            outputs,
            stop_reason,
            model,
            schema,
            warnings,
            refused,
        } = decoded;
        outputs
            .named()
            .into_iter()
            .map(|(suffix, text)| Capture {
                source: format!("{source}{}", suffix.unwrap_or_default()),
                path: path.to_path_buf(),
                line,
                provider,
                model: model.clone(),
                stop_reason: stop_reason.clone(),
                schema: schema.clone(),
                text: Ok(text),
                warnings: warnings.clone(),
                refused,
            })
            .collect()
    }

    /// Run the engine on this capture, with its stop reason and loader warnings. A panic
    /// in the engine (a bug) is this capture's `unreadable` outcome, never the caller's.
    pub fn extract(&self, options: &Options) -> Outcome {
        let text = match &self.text {
            Err(unreadable) => return Outcome::unreadable(unreadable.message.clone()),
            Ok(text) => text,
        };
        self.run_engine(text, options, engine::extract)
            .unwrap_or_else(|| {
                Outcome::unreadable(format!(
                    "jxray bug: extraction panicked on {}; please report it with this capture",
                    self.source
                ))
            })
    }

    /// [`Capture::extract`]'s outcome when it accepts a value; `None` when it would fail
    /// (the capture is unreadable, or see [`engine::extract_accepted`]), which `extract`
    /// then explains.
    pub fn extract_accepted(&self, options: &Options) -> Option<Outcome> {
        let text = self.text.as_ref().ok()?;
        self.run_engine(text, options, engine::extract_accepted)
            .flatten()
    }

    /// `run` on the text with the capture's stop reason and refusal mark, the loader's
    /// warnings added to what it returns; `None` when it panicked.
    fn run_engine<T: AsOutcome>(
        &self,
        text: &str,
        options: &Options,
        run: fn(&str, &Options) -> T,
    ) -> Option<T> {
        let mut options = options.clone();
        options.stop_reason = self.stop_reason.clone();
        options.refused |= self.refused;
        let run = std::panic::AssertUnwindSafe(|| run(text, &options));
        let mut outcome = std::panic::catch_unwind(run).ok()?;
        if let Some(built) = outcome.as_outcome() {
            built.warnings.extend(self.warnings.iter().cloned());
        }
        Some(outcome)
    }
}

/// An outcome, or one that may not have been built (`extract_accepted` on a failure).
pub(crate) trait AsOutcome {
    fn as_outcome(&mut self) -> Option<&mut Outcome>;
}

impl AsOutcome for Outcome {
    fn as_outcome(&mut self) -> Option<&mut Outcome> {
        Some(self)
    }
}

impl AsOutcome for Option<Outcome> {
    fn as_outcome(&mut self) -> Option<&mut Outcome> {
        self.as_mut()
    }
}
