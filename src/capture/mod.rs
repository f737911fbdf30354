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

mod asked_schema;
mod beside;
mod disk;
mod documents;
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
mod request_body;
mod stream;
pub use asked_schema::AskedSchemas;
pub use stream::{Chunks, LiveStream};
mod walk;
mod whole;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::engine::Warning;

pub(crate) use asked_schema::asks_for_json;
pub(crate) use beside::RequestBeside;
pub use disk::{read_regular, read_regular_text, special_file, MAX_SCHEMA_BYTES};
pub(crate) use jxray_formats::envelope;
pub use jxray_formats::{Provider, Unreadable};
pub(crate) use lazy::{file_records, found_jobs, stdin_records, Job, Jobs, StdinFormat};
pub use load::{
    load, load_bytes, load_file, load_found, load_reader, LoadError, LoadOptions, SourceNames,
};
pub(crate) use readers::read_whole_by_name;
pub use request::{request_path, Arrival, RecordedRequest};
pub(crate) use request_body::conversation;
pub use walk::{
    capture_beside_request, discover, discover_below, discover_with, is_capture_name, shell_path,
    Discovery, SkippedFiles, REQUEST_SUFFIX,
};

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
    /// promptfoo's `is-json` assertion) or the request file beside the capture says it:
    /// checked as if given with `--schema`.
    pub schema: Option<Arc<Value>>,
    /// `schema` is the one the request file beside the capture asked for (contract §2:
    /// the outcome says where its schema came from).
    pub schema_from_request: bool,
    /// The raw text, or why there is none.
    pub text: Result<String, Unreadable>,
    /// Facts the loader learned that extraction should report (e.g. answer taken from `thinking`).
    pub warnings: Vec<Warning>,
    /// The provider marked the output a refusal (OpenAI `message.refusal`): a failure to
    /// find JSON in it is reported with the cause `refusal`, whatever its wording.
    pub refused: bool,
    /// The text is a tool call's arguments, not a message: empty arguments are a call
    /// without them, not an empty answer.
    pub call_arguments: bool,
    /// The tool a call named, where the response says (`call_arguments` captures only).
    pub tool: Option<String>,
    /// Reasoning the response held beside its text, shown labelled in the workbench's Raw
    /// pane; never judged.
    pub reasoning: Option<Arc<envelope::Reasoning>>,
    /// For a saved stream's answer: the chunks it arrived in.
    pub chunks: Option<Arc<Chunks>>,
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
            schema_from_request: false,
            text: Ok(text.into()),
            warnings: Vec::new(),
            refused: false,
            call_arguments: false,
            tool: None,
            reasoning: None,
            chunks: None,
        }
    }

    /// A streamed answer that arrived in `chunks` (its raw ends taken to be the same).
    #[cfg(test)]
    pub(crate) fn streamed(source: &str, chunks: &[&str]) -> Capture {
        let ends: Vec<usize> = chunks
            .iter()
            .scan(0, |at, chunk| {
                *at += chunk.len();
                Some(*at)
            })
            .collect();
        Capture {
            chunks: Some(Arc::new(Chunks {
                raw_ends: ends.clone(),
                ends,
                output_tokens: None,
            })),
            ..Capture::from_text(source, chunks.concat())
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
            schema_from_request: false,
            text,
            warnings: Vec::new(),
            refused: false,
            call_arguments: false,
            tool: None,
            reasoning: None,
            chunks: None,
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
            reasoning,
        } = decoded;
        let reasoning = reasoning.map(Arc::new);
        // `named` lists the text first, then each call.
        let first_call = usize::from(outputs.text.is_some());
        let calls = outputs.calls.len();
        let names = outputs.call_names.clone();
        outputs
            .named()
            .into_iter()
            .enumerate()
            .map(|(index, (suffix, text))| Capture {
                source: format!("{source}{}", suffix.unwrap_or_default()),
                path: path.to_path_buf(),
                line,
                provider,
                model: model.clone(),
                stop_reason: stop_reason.clone(),
                schema: schema.clone(),
                schema_from_request: false,
                text: Ok(text),
                warnings: warnings.clone(),
                refused,
                call_arguments: calls > 0 && index >= first_call,
                tool: index
                    .checked_sub(first_call)
                    .and_then(|call| names.get(call).cloned().flatten()),
                // The message text's, not a call's.
                reasoning: reasoning.clone().filter(|_| index < first_call),
                chunks: None,
            })
            .collect()
    }
}
