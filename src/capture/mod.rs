//! Files and provider envelopes in, [`Capture`]s out (contract §2).
//!
//! A capture is one raw model output plus what is known about it. Loading
//! never fails as a whole: a file that cannot be read becomes a capture whose
//! text is an [`Unreadable`] error, so nothing is silently skipped.
//!
//! The pieces, in the order data flows through them:
//! - `walk`: which files under a folder are captures (and the skip rules);
//! - `read`: bytes off disk (size limit, symlink diagnosis) and decoding to text;
//! - `content`: what the text is, from the file's extension confirmed by its content;
//! - `envelope`: provider response bodies (one module per provider);
//! - `stream`: saved SSE logs and Ollama NDJSON streams, joined;
//! - `jsonl`: one capture a line;
//! - `source`: which reader reads a file: `llm_logs` (the `llm` CLI's SQLite `logs.db`),
//!   `inspect` (Inspect AI logs), `files` (everything read whole, through `content`);
//! - `promptfoo`, `fields`: log documents and rows recognised by content, or read through
//!   the field paths the user named;
//! - `load`: the entry points, loading files in parallel in a fixed order;
//! - `records`: the same captures as a lazy stream, for `check` at any size;
//! - `request`: the request `jxray record` wrote beside a capture, for the workbench.
//!
//! `stop_reason` is always the provider's own spelling (`length`, `max_tokens`,
//! `MAX_TOKENS`, `max_output_tokens`, `completed`, `end_turn`, `STOP`, …); the engine
//! classifies it. Where a format signals truncation without a stop-reason string (OpenAI
//! Responses `status: "incomplete"`), the most telling spelling is recorded
//! (`incomplete_details.reason`, else `incomplete`).

mod content;
mod envelope;
pub mod fields;
mod files;
mod inspect;
mod jsonl;
mod llm_logs;
mod load;
mod outline;
mod probe;
mod promptfoo;
mod read;
mod records;
mod request;
pub mod source;
mod stream;
mod walk;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use crate::engine::{self, Options, Outcome, Warning};

pub use load::{
    load, load_bytes, load_file, load_found, load_reader, LoadError, LoadOptions, SourceNames,
};
pub use read::{read_regular, read_regular_text, special_file};
pub use records::{
    file_records, found_jobs, found_records, records, stdin_records, Job, Jobs, Records,
    StdinFormat,
};
pub use request::{request_path, RecordedRequest};
pub use walk::{
    capture_beside_request, discover, discover_below, discover_with, is_capture_name, shell_path,
    Discovery, SkippedFiles, REQUEST_SUFFIX,
};

/// Which provider format a capture came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
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
}

impl Unreadable {
    pub fn new(message: impl Into<String>) -> Unreadable {
        Unreadable {
            message: message.into(),
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

    /// Run the engine on this capture, with its stop reason and loader warnings.
    pub fn extract(&self, options: &Options) -> Outcome {
        match &self.text {
            Err(unreadable) => Outcome::unreadable(unreadable.message.clone()),
            Ok(text) => {
                let mut options = options.clone();
                options.stop_reason = self.stop_reason.clone();
                options.refused |= self.refused;
                let mut outcome = engine::extract(text, &options);
                outcome.warnings.extend(self.warnings.iter().cloned());
                outcome
            }
        }
    }
}
