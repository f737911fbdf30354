//! Deciding what a file's text is (raw output, an envelope, lines, a stream), and turning
//! it into captures.
//!
//! The extension says where to look; the content must then confirm it:
//! - raw text files (and files of any other name given directly) are raw output, unless the
//!   whole file is a saved SSE log (`data:` / `event:` lines), which is joined;
//! - `.json` is a provider envelope, a Gemini JSON-array stream or an Ollama NDJSON stream
//!   when it is recognisably one, and raw output otherwise;
//! - `.jsonl` / `.ndjson` are one capture a line (see [`super::jsonl`]);
//! - `.sse` must be a stream from a known provider;
//! - standard input has no name, so every recognised shape is tried on its content.

use std::path::Path;

use serde_json::Value;

use super::envelope::{self, Decoded, Detection};
use super::{jsonl, probe, stream, Capture, Unreadable};

/// What a file's name says it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Json,
    Lines,
    Stream,
    /// No name to go by (standard input): recognise the content.
    Unnamed,
}

impl Kind {
    pub fn of(path: &Path) -> Kind {
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
pub fn captures(source: &str, path: &Path, text: String, kind: Kind) -> Vec<Capture> {
    let detected = match kind {
        Kind::Text => sse(&text),
        Kind::Json => json(&text).or_else(|| ollama_stream(&text)),
        Kind::Lines => return jsonl::captures(source, path, &text),
        Kind::Stream => Some(sse(&text).unwrap_or_else(|| {
            Err(
                "not a stream from a known provider: no `data:` payload from OpenAI, \
                 Anthropic or Gemini; rename it .txt to read it as raw text"
                    .to_string(),
            )
        })),
        Kind::Unnamed => sse(&text)
            .or_else(|| json(&text))
            .or_else(|| ollama_stream(&text)),
    };
    let capture = match detected {
        Some(result) => decoded(source.to_string(), path, None, result),
        None => raw(source.to_string(), path, text),
    };
    vec![capture]
}

fn sse(text: &str) -> Detection {
    if stream::looks_like_sse(text) {
        stream::decode_sse(text)
    } else {
        None
    }
}

/// Texts longer than this are first checked for envelope keys without building a tree,
/// so that a large raw JSON output is not parsed twice.
const PROBE_ABOVE: usize = 256 * 1024;

/// The envelope or Gemini array stream that `text` is, if any.
pub fn json(text: &str) -> Detection {
    let body = without_bom(text).trim_start();
    if !body.starts_with(['{', '[']) {
        return None;
    }
    if body.len() > PROBE_ABOVE && !probe::may_be_envelope(body) {
        return None;
    }
    let value: Value = serde_json::from_str(body).ok()?;
    envelope::detect(&value).or_else(|| envelope::detect_array_stream(&value))
}

fn ollama_stream(text: &str) -> Detection {
    let lines = without_bom(text)
        .lines()
        .filter(|line| !line.trim().is_empty());
    stream::decode_ollama_lines(lines)
}

pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A capture of raw text: the whole text, no provider.
pub fn raw(source: String, path: &Path, text: String) -> Capture {
    bare(source, path, Ok(text))
}

/// A capture with nothing known about it beyond its text (or why there is none).
fn bare(source: String, path: &Path, text: Result<String, Unreadable>) -> Capture {
    Capture {
        source,
        path: path.to_path_buf(),
        line: None,
        provider: None,
        stop_reason: None,
        text,
        warnings: Vec::new(),
    }
}

/// A capture from a recognised format, or an unreadable one saying what it lacks.
pub fn decoded(
    source: String,
    path: &Path,
    line: Option<usize>,
    result: Result<Decoded, String>,
) -> Capture {
    match result {
        Ok(decoded) => Capture {
            source,
            path: path.to_path_buf(),
            line,
            provider: decoded.provider,
            stop_reason: decoded.stop_reason,
            text: Ok(decoded.text),
            warnings: decoded.warnings,
        },
        Err(message) => Capture {
            line,
            ..unreadable(source, path, Unreadable::new(message))
        },
    }
}

pub fn unreadable(source: String, path: &Path, unreadable: Unreadable) -> Capture {
    bare(source, path, Err(unreadable))
}
