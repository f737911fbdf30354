//! `.jsonl` / `.ndjson` files: one capture a line.
//!
//! Each line is a provider envelope, a batch result line (named `FILE#ID` by its
//! `custom_id` or `key`, since batches come back in any order), a promptfoo result row
//! (`FILE#ID`), a record the field paths of `--text-path`/`--preset` find text in (`FILE#ID`
//! when the id path leads somewhere), or an object with `output` (the text; an
//! already-decoded object or array is serialized compactly) and an optional `stop_reason`. A line that is not JSON, or not one of those shapes, is an
//! unreadable capture of its own; the other lines still load. Blank lines are not captures.
//! A file whose lines are one Ollama stream (`done: false` until the last) is joined into
//! one capture instead.

use std::path::Path;

use serde_json::Value;

use super::content::{decoded, unreadable, without_bom};
use super::envelope::{self, Decoded, Detection, Outputs, Record};
use super::fields::FieldMap;
use super::{promptfoo, stream, Capture, LoadOptions, Unreadable};

pub fn captures(source: &str, path: &Path, text: &str, options: &LoadOptions) -> Vec<Capture> {
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
        return decoded(source, path, None, joined);
    }
    let fields = options.fields.as_deref();
    lines
        .into_iter()
        .filter_map(|(number, line)| Some((number, line_capture(line, fields)?)))
        .flat_map(|(number, (id, result))| {
            let result = result.unwrap_or_else(|| {
                Err(
                    "a JSON line that is not a capture: expected a provider envelope or an \
                     object with \"output\"; fix or remove the line"
                        .to_string(),
                )
            });
            // Batch results come back in any order: their id names them, not their line.
            let name = match id {
                Some(id) => format!("{source}#{id}"),
                None => format!("{source}:{number}"),
            };
            decoded(&name, path, Some(number), result)
        })
        .collect()
}

/// The line's record id, if it has one, and what it holds; `None` for a line the field
/// paths' filter says is not a model output (an OpenTelemetry span that is no model call).
fn line_capture(line: &str, fields: Option<&FieldMap>) -> Option<(Option<String>, Detection)> {
    let value: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(error) => {
            let why = format!("not JSON ({error}); fix or remove the line");
            return Some((None, Some(Err(why))));
        }
    };
    if let Some(fields) = fields {
        if !fields.is_output(&value) {
            return None;
        }
        if fields.finds_text(&value) {
            return Some(from_record(fields.read(&value)));
        }
    }
    let detected = envelope::detect(&value);
    if detected.is_some() {
        return Some((envelope::batch_id(&value).map(str::to_string), detected));
    }
    if let Some(record) = promptfoo::row(&value) {
        return Some(from_record(record));
    }
    match (output_object(&value), fields) {
        (Some(detected), _) => Some((None, Some(detected))),
        // The user named paths that lead nowhere here: say which.
        (None, Some(fields)) => Some(from_record(fields.read(&value))),
        (None, None) => Some((None, None)),
    }
}

fn from_record(record: Record) -> (Option<String>, Detection) {
    (record.id, Some(record.result))
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
        outputs: Outputs::text(text),
        stop_reason,
        ..Decoded::default()
    }))
}
