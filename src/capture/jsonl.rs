//! `.jsonl` / `.ndjson` files and JSON Lines on standard input: one capture a line.
//!
//! Each line is a provider envelope, a batch result line (named `FILE#ID` by its
//! `custom_id` or `key`, since batches come back in any order), a promptfoo result row
//! (`FILE#ID`), a record the field paths of `--text-path`/`--preset` find text in (`FILE#ID`
//! when the id path leads somewhere), or an object with `output` (the text; an
//! already-decoded object or array is serialized compactly) and an optional `stop_reason`. A line that is not JSON, or not one of those shapes, is an
//! unreadable capture of its own; the other lines still load. Blank lines are not captures.
//! A file whose lines are one Ollama stream (`done: false` until the last) is joined into
//! one capture instead.
//!
//! [`LineCaptures`] reads lines as they arrive, so a log of any length (or a pipe that is
//! still being written) is checked in bounded memory.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use super::disk::without_bom;
use super::disk::{decode, io_unreadable, max_bytes_fix, too_large};
use super::envelope::{Detection, LogRecord};
use super::fields::FieldMap;
use super::{documents, stream, Capture, LoadOptions, Unreadable};

/// Why a file of lines holds no capture.
const NO_LINES: &str = "no lines: the file is empty; delete it or fill it with one capture a line";

/// The captures of a whole file's text.
pub(super) fn captures(
    source: &str,
    path: &Path,
    text: &str,
    options: &LoadOptions,
) -> Vec<Capture> {
    let lines: Vec<(usize, &str)> = without_bom(text)
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line))
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return vec![Capture::unreadable(
            source.to_string(),
            path,
            Unreadable::new(NO_LINES),
        )];
    }
    if let Some(joined) = stream::decode_ollama_lines(lines.iter().map(|(_, line)| *line)) {
        return Capture::decoded(source, path, None, joined);
    }
    let naming = Naming::Line(source.to_string());
    let fields = options.fields.as_deref();
    lines
        .into_iter()
        .flat_map(|(number, line)| line_captures(&naming, path, number, Ok(line), fields))
        .collect()
}

/// How a line's capture is named in reports: `file.jsonl:LINE`, or `file.jsonl#ID` for a
/// record with a batch id (batch results come back in any order: their id names them, not
/// their line). Standard input is named the same way, as the file `-` (or the name given
/// with `--stdin-name`), so the two outputs join.
#[derive(Debug, Clone)]
pub(super) enum Naming {
    Line(String),
}

/// One line's captures (none for a line the field paths' filter passes over, several for
/// a response with several tool calls); `line` is its text, or why it could not be read.
fn line_captures(
    naming: &Naming,
    path: &Path,
    number: usize,
    line: Result<&str, Unreadable>,
    fields: Option<&FieldMap>,
) -> Vec<Capture> {
    let (id, result) = match line {
        Err(why) => (None, Err(why.message)),
        Ok(line) => match serde_json::from_str::<Value>(line) {
            Err(error) => (
                None,
                Err(format!("not JSON ({error}); fix or remove the line")),
            ),
            Ok(value) => {
                let Some((id, detected)) = classify(&value, fields) else {
                    return Vec::new();
                };
                let result = detected.unwrap_or_else(|| {
                    Err(
                        "a JSON line that is not a capture: expected a provider envelope or an \
                         object with \"output\"; fix or remove the line"
                            .to_string(),
                    )
                });
                (id, result)
            }
        },
    };
    let source = match naming {
        Naming::Line(prefix) => match &id {
            Some(id) => format!("{prefix}#{id}"),
            None => format!("{prefix}:{number}"),
        },
    };
    Capture::decoded(&source, path, Some(number), result)
}

/// The line's record id, if it has one, and what it holds; `None` for a line the field
/// paths' filter says is not a model output (an OpenTelemetry span that is no model call).
fn classify(value: &Value, fields: Option<&FieldMap>) -> Option<(Option<String>, Detection)> {
    if let Some(fields) = fields {
        if !fields.is_output(value) {
            return None;
        }
        if fields.finds_text(value) {
            return Some(from_record(fields.read(value)));
        }
    }
    match (documents::line(value), fields) {
        (Some(known), _) => Some(known),
        // The user named paths that lead nowhere here: say which.
        (None, Some(fields)) => Some(from_record(fields.read(value))),
        (None, None) => Some((None, None)),
    }
}

fn from_record(record: LogRecord) -> (Option<String>, Detection) {
    (record.id, Some(record.result))
}

/// The first non-blank line of a file of lines, when it could start an Ollama stream: such
/// a file is read whole and joined instead of line by line.
pub(super) fn may_start_ollama_stream(line: &str) -> bool {
    stream::decode_ollama_lines(std::iter::once(line)).is_some()
}

/// One line off a reader: its bytes, or its length when it was longer than the limit.
enum Line {
    Bytes(Vec<u8>),
    TooLong(u64),
}

/// Captures read line by line, as the lines arrive: at most one line is held at a time.
pub(super) struct LineCaptures<R> {
    reader: R,
    naming: Naming,
    path: PathBuf,
    fields: Option<Arc<FieldMap>>,
    /// The rest of the last line's captures (a line can hold several tool calls).
    pending: VecDeque<Capture>,
    /// Longest line read, in bytes; a longer one is an unreadable capture of its own.
    max_line: u64,
    /// Lines read so far (blank ones too), so the next line's number is one more.
    number: usize,
    /// Whether any capture was produced (an empty file says so, once).
    any: bool,
    /// Report an input without a single line as an unreadable capture (files), or as
    /// nothing at all (standard input).
    empty_is_unreadable: bool,
    done: bool,
}

impl<R: BufRead> LineCaptures<R> {
    pub(super) fn new(
        reader: R,
        naming: Naming,
        path: &Path,
        options: &LoadOptions,
    ) -> LineCaptures<R> {
        LineCaptures {
            reader,
            naming,
            path: path.to_path_buf(),
            fields: options.fields.clone(),
            pending: VecDeque::new(),
            max_line: options.max_bytes,
            number: 0,
            any: false,
            empty_is_unreadable: false,
            done: false,
        }
    }

    /// A file with no line at all is one unreadable capture that says so.
    pub(super) fn empty_is_unreadable(mut self) -> LineCaptures<R> {
        self.empty_is_unreadable = true;
        self
    }

    /// The next line, without its `\n` (and `\r`); `None` at the end of input.
    fn read_line(&mut self) -> io::Result<Option<Line>> {
        let mut bytes = Vec::new();
        let mut length: u64 = 0;
        let mut any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (chunk, ended) = match available.iter().position(|&byte| byte == b'\n') {
                Some(end) => (&available[..end], true),
                None => (available, false),
            };
            length += chunk.len() as u64;
            if length <= self.max_line {
                bytes.extend_from_slice(chunk);
            } else {
                // Over the limit: keep counting, stop keeping.
                bytes = Vec::new();
            }
            let used = chunk.len() + usize::from(ended);
            self.reader.consume(used);
            if ended {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if length > self.max_line {
            return Ok(Some(Line::TooLong(length)));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Ok(Some(Line::Bytes(bytes)))
    }

    fn captures(&self, line: Result<&str, Unreadable>) -> Vec<Capture> {
        let fields = self.fields.as_deref();
        line_captures(&self.naming, &self.path, self.number, line, fields)
    }
}

impl<R: BufRead> Iterator for LineCaptures<R> {
    type Item = Capture;

    fn next(&mut self) -> Option<Capture> {
        if let Some(capture) = self.pending.pop_front() {
            return Some(capture);
        }
        while !self.done {
            let line = match self.read_line() {
                Ok(Some(line)) => line,
                Ok(None) => {
                    self.done = true;
                    if self.any || !self.empty_is_unreadable {
                        return None;
                    }
                    self.any = true;
                    let source = match &self.naming {
                        Naming::Line(source) => source.clone(),
                    };
                    return Some(Capture::unreadable(
                        source,
                        &self.path,
                        Unreadable::new(NO_LINES),
                    ));
                }
                Err(error) => {
                    // The rest of the input is lost: say so on the line where it broke off.
                    self.done = true;
                    self.number += 1;
                    self.any = true;
                    self.pending = self.captures(Err(io_unreadable(&error))).into();
                    return self.pending.pop_front();
                }
            };
            self.number += 1;
            let text = match line {
                Line::TooLong(length) => {
                    Err(too_large(Some(length), self.max_line, &max_bytes_fix))
                }
                Line::Bytes(mut bytes) => {
                    if self.number == 1 && bytes.starts_with("\u{feff}".as_bytes()) {
                        bytes.drain(..3);
                    }
                    if bytes.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    decode(bytes)
                }
            };
            self.any = true;
            self.pending = self.captures(text.as_deref().map_err(Clone::clone)).into();
            if let Some(capture) = self.pending.pop_front() {
                return Some(capture);
            }
        }
        None
    }
}
