//! `.jsonl` / `.ndjson` files: one capture a line.
//!
//! Each line is a provider envelope (batch output lines included) or an object with
//! `output` (the text; an already-decoded object or array is serialized compactly) and an
//! optional `stop_reason`. A line that is not JSON, or not one of those shapes, is an
//! unreadable capture of its own; the other lines still load. Blank lines are not captures.
//! A file whose lines are one Ollama stream (`done: false` until the last) is joined into
//! one capture instead.

use std::path::Path;

use serde_json::Value;

use super::content::{decoded, unreadable, without_bom};
use super::envelope::{self, Decoded, Detection};
use super::{stream, Capture, Unreadable};

pub fn captures(source: &str, path: &Path, text: &str) -> Vec<Capture> {
    let lines: Vec<(usize, &str)> = without_bom(text)
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line))
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    if lines.is_empty() {
        let why = "no lines: the file is empty; delete it or fill it with one capture a line";
        return vec![unreadable(source.to_string(), path, Unreadable::new(why))];
    }
    if let Some(joined) = stream::decode_ollama_lines(lines.iter().map(|(_, line)| *line)) {
        return vec![decoded(source.to_string(), path, None, joined)];
    }
    lines
        .into_iter()
        .map(|(number, line)| {
            let result = line_capture(line).unwrap_or_else(|| {
                Err(
                    "a JSON line that is not a capture: expected a provider envelope or an \
                     object with \"output\"; fix or remove the line"
                        .to_string(),
                )
            });
            decoded(format!("{source}:{number}"), path, Some(number), result)
        })
        .collect()
}

fn line_capture(line: &str) -> Detection {
    let value: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(error) => return Some(Err(format!("not JSON ({error}); fix or remove the line"))),
    };
    envelope::detect(&value).or_else(|| output_object(&value))
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
