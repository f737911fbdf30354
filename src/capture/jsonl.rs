//! `.jsonl` / `.ndjson` files and JSON Lines on standard input: one capture a line.
//!
//! Each line is a provider envelope (batch output lines included) or an object with
//! `output` (the text; an already-decoded object or array is serialized compactly) and an
//! optional `stop_reason`. A line that is not JSON, or not one of those shapes, is an
//! unreadable capture of its own; the other lines still load. Blank lines are not captures.
//! A file whose lines are one Ollama stream (`done: false` until the last) is joined into
//! one capture instead.
//!
//! [`LineCaptures`] reads lines as they arrive, so a log of any length (or a pipe that is
//! still being written) is checked in bounded memory.

use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::content::{decoded, unreadable, without_bom};
use super::envelope::{self, Decoded, Detection};
use super::read::{decode, io_unreadable, max_bytes_fix, too_large};
use super::{stream, Capture, Unreadable};

/// Why a file of lines holds no capture.
const NO_LINES: &str = "no lines: the file is empty; delete it or fill it with one capture a line";

/// The captures of a whole file's text.
pub fn captures(source: &str, path: &Path, text: &str) -> Vec<Capture> {
    let lines: Vec<(usize, &str)> = without_bom(text)
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line))
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return vec![unreadable(
            source.to_string(),
            path,
            Unreadable::new(NO_LINES),
        )];
    }
    if let Some(joined) = stream::decode_ollama_lines(lines.iter().map(|(_, line)| *line)) {
        return vec![decoded(source.to_string(), path, None, joined)];
    }
    let naming = Naming::Line(source.to_string());
    lines
        .into_iter()
        .map(|(number, line)| line_capture(&naming, path, number, Ok(line)))
        .collect()
}

/// How a line's capture is named in reports.
#[derive(Debug, Clone)]
pub enum Naming {
    /// `file.jsonl:LINE`.
    Line(String),
    /// The record's own id (`custom_id`, else `id`) when it has one, else `-:LINE`:
    /// line numbers of one piece of a split log say little, ids survive the split.
    IdOrLine(String),
}

/// One line's capture; `line` is its text, or why it could not be read.
fn line_capture(
    naming: &Naming,
    path: &Path,
    number: usize,
    line: Result<&str, Unreadable>,
) -> Capture {
    let (value, result) = match line {
        Err(why) => (None, Err(why.message)),
        Ok(line) => match serde_json::from_str::<Value>(line) {
            Err(error) => (
                None,
                Err(format!("not JSON ({error}); fix or remove the line")),
            ),
            Ok(value) => {
                let result =
                    detect(&value).unwrap_or_else(|| {
                        Err("a JSON line that is not a capture: expected a provider envelope or an \
                         object with \"output\"; fix or remove the line"
                        .to_string())
                    });
                (Some(value), result)
            }
        },
    };
    let source = match naming {
        Naming::Line(prefix) => format!("{prefix}:{number}"),
        Naming::IdOrLine(prefix) => match value.as_ref().and_then(record_id) {
            Some(id) => id.to_string(),
            None => format!("{prefix}:{number}"),
        },
    };
    decoded(source, path, Some(number), result)
}

fn detect(value: &Value) -> Detection {
    envelope::detect(value).or_else(|| output_object(value))
}

/// A record's own name: `custom_id` (batch results), else a string `id`.
fn record_id(value: &Value) -> Option<&str> {
    envelope::str_field(value, "custom_id")
        .or_else(|| envelope::str_field(value, "id"))
        .filter(|id| !id.is_empty())
}

/// `{"output": …, "stop_reason": …}`, the shape of hand-made and exported logs.
fn output_object(value: &Value) -> Detection {
    let output = value.as_object()?.get("output")?;
    let text = match output {
        Value::String(text) => text.clone(),
        Value::Object(_) | Value::Array(_) => envelope::compact(output),
        _ => {
            return Some(Err(
                "\"output\" is neither text nor JSON; make it a string".to_string()
            ))
        }
    };
    let stop_reason = envelope::str_field(value, "stop_reason").map(str::to_string);
    Some(Ok(Decoded {
        provider: None,
        text,
        stop_reason,
        warnings: Vec::new(),
    }))
}

/// The first non-blank line of a file of lines, when it could start an Ollama stream: such
/// a file is read whole and joined instead of line by line.
pub fn may_start_ollama_stream(line: &str) -> bool {
    stream::decode_ollama_lines(std::iter::once(line)).is_some()
}

/// One line off a reader: its bytes, or its length when it was longer than the limit.
enum Line {
    Bytes(Vec<u8>),
    TooLong(u64),
}

/// Captures read line by line, as the lines arrive: at most one line is held at a time.
pub struct LineCaptures<R> {
    reader: R,
    naming: Naming,
    path: PathBuf,
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
    pub fn new(reader: R, naming: Naming, path: &Path, max_line: u64) -> LineCaptures<R> {
        LineCaptures {
            reader,
            naming,
            path: path.to_path_buf(),
            max_line,
            number: 0,
            any: false,
            empty_is_unreadable: false,
            done: false,
        }
    }

    /// A file with no line at all is one unreadable capture that says so.
    pub fn empty_is_unreadable(mut self) -> LineCaptures<R> {
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

    fn capture(&self, line: Result<&str, Unreadable>) -> Capture {
        line_capture(&self.naming, &self.path, self.number, line)
    }
}

impl<R: BufRead> Iterator for LineCaptures<R> {
    type Item = Capture;

    fn next(&mut self) -> Option<Capture> {
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
                        Naming::Line(source) | Naming::IdOrLine(source) => source.clone(),
                    };
                    return Some(unreadable(source, &self.path, Unreadable::new(NO_LINES)));
                }
                Err(error) => {
                    // The rest of the input is lost: say so on the line where it broke off.
                    self.done = true;
                    self.number += 1;
                    self.any = true;
                    return Some(self.capture(Err(io_unreadable(&error))));
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
            return Some(self.capture(text.as_deref().map_err(Clone::clone)));
        }
        None
    }
}
