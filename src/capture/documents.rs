//! The registry of JSON shapes, in one list: what a `.json` document or one line of a
//! `.jsonl` log may be, most specific first. A log's records are captures of their own
//! (promptfoo results, an Inspect AI `.json` log); a response holds one capture's text
//! (a provider's envelope, a Gemini JSON-array stream, the `{"output", "stop_reason"}` lines
//! of hand-made logs and of the repair loops' attempts). `recognise` asks it of a document
//! (and of a document too deep to parse, through its outline), `jsonl` of each line.
//!
//! A new JSON shape is one entry here and its reader beside it. The other registries: the
//! file readers (`readers.rs`: a SQLite log, an Inspect `.eval` archive, anything else read
//! whole) and the provider envelopes (`jxray_formats::envelope::detect`).

use serde_json::Value;

use super::envelope::{self, compact, str_field, Contents, Detection, LogRecord, Outputs};
use super::outline::Outline;
use super::{inspect, promptfoo};

/// A JSON shape jxray reads.
struct Shape {
    read: Read,
    /// Whether a whole document may be it.
    document: bool,
    /// Whether one line of a JSON Lines log may be it.
    line: bool,
}

enum Read {
    /// A log whose records are captures: its records, where they are in it (a JSON
    /// Pointer, to mark the ones nested too deep) and, when one record can stand alone on a
    /// line, that line's record.
    Log {
        records: fn(&Value) -> Option<Vec<LogRecord>>,
        at: &'static str,
        row: Option<fn(&Value) -> Option<LogRecord>>,
    },
    /// A response holding one capture's text; `batch_id` when a batch line names it by its
    /// `custom_id`.
    Response {
        detect: fn(&Value) -> Detection,
        batch_id: bool,
    },
}

const SHAPES: [Shape; 5] = [
    Shape {
        read: Read::Log {
            records: promptfoo::document,
            at: "/results/results",
            row: Some(promptfoo::row),
        },
        document: true,
        line: true,
    },
    Shape {
        read: Read::Log {
            records: inspect::json_log,
            at: "/samples",
            row: None,
        },
        document: true,
        line: false,
    },
    Shape {
        read: Read::Response {
            detect: envelope::detect,
            batch_id: true,
        },
        document: true,
        line: true,
    },
    Shape {
        read: Read::Response {
            detect: envelope::detect_array_stream,
            batch_id: false,
        },
        document: true,
        line: false,
    },
    Shape {
        read: Read::Response {
            detect: output_object,
            batch_id: false,
        },
        document: false,
        line: true,
    },
];

/// The records of a document that is a log.
pub(super) fn log_records(value: &Value) -> Option<Vec<LogRecord>> {
    logs().find_map(|(records, _)| records(value))
}

/// The records of a log too deep to parse whole, read from its outline: a record nested
/// past the limit is that record's failure.
pub(super) fn outline_records(outline: &Outline) -> Option<Vec<LogRecord>> {
    logs().find_map(|(records, at)| records(&outline.value).map(|found| outline.mark(at, found)))
}

/// Whether a document is a shape of its own (field paths that find nothing in it leave it
/// to its reader).
pub(super) fn is_known(value: &Value) -> bool {
    documents().any(|shape| match shape.read {
        Read::Log { records, .. } => records(value).is_some(),
        Read::Response { detect, .. } => detect(value).is_some(),
    })
}

/// The response a document is, when it is one.
pub(super) fn response(value: &Value) -> Detection {
    documents().find_map(|shape| match shape.read {
        Read::Response { detect, .. } => detect(value),
        Read::Log { .. } => None,
    })
}

/// What one line of a JSON Lines log is, when it is a known shape: the record's id (a
/// log's row, a batch line's `custom_id`) and what it holds.
pub(super) fn line(value: &Value) -> Option<(Option<String>, Detection)> {
    SHAPES
        .iter()
        .filter(|shape| shape.line)
        .find_map(|shape| match shape.read {
            Read::Log { row, .. } => {
                let record = row?(value)?;
                Some((record.id, Some(record.result)))
            }
            Read::Response { detect, batch_id } => {
                let detected = detect(value)?;
                let id = batch_id.then(|| envelope::batch_id(value)).flatten();
                Some((id.map(str::to_string), Some(detected)))
            }
        })
}

fn documents() -> impl Iterator<Item = &'static Shape> {
    SHAPES.iter().filter(|shape| shape.document)
}

type Records = fn(&Value) -> Option<Vec<LogRecord>>;

fn logs() -> impl Iterator<Item = (Records, &'static str)> {
    documents().filter_map(|shape| match shape.read {
        Read::Log { records, at, .. } => Some((records, at)),
        Read::Response { .. } => None,
    })
}

/// `{"output": …, "stop_reason": …}`, the shape of hand-made and exported logs.
fn output_object(value: &Value) -> Detection {
    let output = value.as_object()?.get("output")?;
    let text = match output {
        Value::String(text) => text.clone(),
        Value::Object(_) | Value::Array(_) => compact(output),
        _ => {
            return Some(Err(
                "\"output\" is neither text nor JSON; make it a string".to_string()
            ))
        }
    };
    let stop_reason = str_field(value, "stop_reason").map(str::to_string);
    Some(Ok(Contents {
        outputs: Outputs::text(text),
        stop_reason,
        ..Contents::default()
    }))
}
