//! Deciding what a file's text is (raw output, an envelope, lines, a stream), and turning
//! it into captures.
//!
//! The extension says where to look; the content must then confirm it:
//! - raw text files (and files of any other name given directly) are raw output, unless the
//!   whole file is a saved SSE log (`data:` / `event:` lines), which is joined;
//! - `.json` is a log of records when it is recognisably one (promptfoo results, an
//!   Inspect AI `.json` log, or any document the field paths of `--text-path`/`--preset`
//!   find text in), a provider envelope, a Gemini JSON-array stream or an Ollama NDJSON
//!   stream when it is recognisably one, and raw output otherwise;
//! - `.jsonl` / `.ndjson` are one capture a line (see [`super::jsonl`]);
//! - `.sse` must be a stream from a known provider;
//! - standard input has no name, so every recognised shape is tried on its content.

use std::path::Path;

use serde_json::Value;

use super::envelope::{Detection, LogRecord};
use super::outline::{self, Outline};
use super::{disk, documents, jsonl, probe, stream, Capture, Chunks, LoadOptions, Unreadable};

/// What a file's name says it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Text,
    Json,
    Lines,
    Stream,
    /// No name to go by (standard input): recognise the content.
    Unnamed,
}

impl Kind {
    pub(super) fn of(path: &Path) -> Kind {
        let extension = path
            .extension()
            .map(|extension| extension.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("json") => Kind::Json,
            Some("jsonl" | "ndjson") => Kind::Lines,
            Some("sse") => Kind::Stream,
            _ => Kind::Text,
        }
    }
}

/// The captures in `text`, read from `path` and reported as `source`.
pub(super) fn captures(
    source: &str,
    path: &Path,
    text: String,
    kind: Kind,
    options: &LoadOptions,
) -> Vec<Capture> {
    // One tree serves the log readers and the envelope readers: a multi-megabyte envelope
    // is parsed once.
    let tree = match kind {
        Kind::Json | Kind::Unnamed => parse(&text, options.fields.is_some()),
        _ => Parsed::Not,
    };
    let tree = match tree {
        Parsed::Tree(value) => Some(value),
        Parsed::TooDeep => {
            if let Some(records) = deep_document(&text, options) {
                return records_captures(source, path, records);
            }
            None
        }
        Parsed::Not => None,
    };
    if let Some(records) = tree.as_ref().and_then(|value| document(value, options)) {
        return records_captures(source, path, records);
    }
    let envelope = || tree.as_ref().and_then(documents::response);
    let mut chunks = Chunks::default();
    let mut sse = || sse(&text, &mut chunks);
    let detected = match kind {
        Kind::Text => sse(),
        Kind::Json => envelope().or_else(|| ollama_stream(&text)),
        Kind::Lines => return jsonl::captures(source, path, &text, options),
        Kind::Stream => Some(sse().unwrap_or_else(|| {
            Err(
                "not a stream from a known provider: no `data:` payload from OpenAI, \
                 Anthropic or Gemini; rename it .txt to read it as raw text"
                    .to_string(),
            )
        })),
        Kind::Unnamed => sse().or_else(envelope).or_else(|| ollama_stream(&text)),
    };
    match detected {
        Some(result) => {
            let mut captures = Capture::decoded(source, path, None, result);
            with_chunks(&mut captures, chunks);
            captures
        }
        None => vec![Capture::raw(source.to_string(), path, text)],
    }
}

/// The stream an SSE log holds, when it is one; `chunks` gets the chunks its answer
/// arrived in.
fn sse(text: &str, chunks: &mut Chunks) -> Detection {
    if !stream::looks_like_sse(text) {
        return None;
    }
    let (contents, arrived) = stream::decode_sse(text)?;
    *chunks = arrived;
    Some(contents)
}

/// A stream's answer text keeps the chunks it arrived in, when they add up to it (a tool
/// call's arguments, or a refusal, are another part of the stream).
fn with_chunks(captures: &mut [Capture], chunks: Chunks) {
    let Some(text) = captures
        .first_mut()
        .filter(|capture| !capture.call_arguments)
    else {
        return;
    };
    let whole = text.text.as_ref().map_or(0, String::len);
    if chunks.ends.last() == Some(&whole) {
        text.chunks = Some(std::sync::Arc::new(chunks));
    }
}

/// Texts longer than this are first checked for envelope keys without building a tree,
/// so that a large raw JSON output is not parsed twice.
const PROBE_ABOVE: usize = 256 * 1024;

/// What parsing a file's text as one JSON document gave.
enum Parsed {
    Tree(Value),
    /// Valid as far as it was read, but nested deeper than the parser goes.
    TooDeep,
    Not,
}

/// `text` as JSON, when it is an object or array that may be a known shape (`mapped`: the
/// user named field paths, so any JSON may be).
fn parse(text: &str, mapped: bool) -> Parsed {
    let body = disk::without_bom(text).trim_start();
    if !body.starts_with(['{', '[']) {
        return Parsed::Not;
    }
    if !mapped && body.len() > PROBE_ABOVE && !probe::may_be_envelope(body) {
        return Parsed::Not;
    }
    match serde_json::from_str(body) {
        Ok(value) => Parsed::Tree(value),
        Err(error) if error.to_string().starts_with("recursion limit exceeded") => Parsed::TooDeep,
        Err(_) => Parsed::Not,
    }
}

/// The records of a log document too deep to parse whole, read from its outline: a record
/// nested past the limit is that record's failure (see [`Outline`]). With field paths, the
/// records are the elements of a top-level list.
fn deep_document(text: &str, options: &LoadOptions) -> Option<Vec<LogRecord>> {
    let outline = Outline::read(disk::without_bom(text).trim())?;
    if let Some(fields) = &options.fields {
        let Value::Array(items) = &outline.value else {
            return None;
        };
        let records = items.iter().enumerate().filter_map(|(index, item)| {
            let deep = outline.cut_at(&format!("/{index}"));
            (deep || fields.is_output(item)).then(|| {
                let record = fields.read(item);
                match deep {
                    true => LogRecord {
                        result: Err(outline::TOO_DEEP.to_string()),
                        ..record
                    },
                    false => record,
                }
            })
        });
        return Some(records.collect());
    }
    documents::outline_records(&outline)
}

/// The records of a JSON log document: with field paths, when they find text in it;
/// else a log the registry knows (see [`documents`]).
fn document(value: &Value, options: &LoadOptions) -> Option<Vec<LogRecord>> {
    if let Some(fields) = &options.fields {
        let records = fields.records(value.clone());
        let outputs: Vec<&Value> = records.iter().filter(|r| fields.is_output(r)).collect();
        let known = documents::is_known(value);
        // Paths that find nothing in a file of a known shape leave it to its own reader.
        if outputs.iter().any(|record| fields.finds_text(record)) || !known {
            return Some(
                outputs
                    .into_iter()
                    .map(|record| fields.read(record))
                    .collect(),
            );
        }
    }
    documents::log_records(value)
}

/// The captures of a log's records, each named `source#ID` (`source#N`, from 1, when a
/// record has no id).
pub(super) fn records_captures(source: &str, path: &Path, records: Vec<LogRecord>) -> Vec<Capture> {
    if records.is_empty() {
        let why = "a log with no records: nothing to check; point jxray at a log with outputs";
        return vec![Capture::unreadable(
            source.to_string(),
            path,
            Unreadable::new(why),
        )];
    }
    records
        .into_iter()
        .enumerate()
        .flat_map(|(index, record)| {
            let id = record.id.unwrap_or_else(|| (index + 1).to_string());
            Capture::decoded(&format!("{source}#{id}"), path, None, record.result)
        })
        .collect()
}

fn ollama_stream(text: &str) -> Detection {
    let lines = disk::without_bom(text)
        .lines()
        .filter(|line| !line.trim().is_empty());
    stream::decode_ollama_lines(lines)
}
