//! Server-sent-event framing: lines into events, events into JSON payloads.
//!
//! Follows the SSE rules where saved logs rely on them (CRLF line endings, `:` comment
//! lines, one optional space after the colon, several `data:` lines joined with `\n`), and
//! tolerates how logs are really saved: events not separated by blank lines still give one
//! payload per `data:` line.

use serde_json::Value;

/// The field names of the SSE format.
const FIELDS: [&str; 4] = ["data", "event", "id", "retry"];

/// One `data:` payload of a stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    Json(Value),
    /// OpenAI's `data: [DONE]` end marker.
    Done,
    /// A payload that is not JSON (kept so callers can say what they ignored).
    Other,
}

/// Whether `text` is a saved SSE log: its first field line is `data:` or `event:`, and every
/// non-blank line is a field or a comment. Used to recognise streams saved as plain text.
pub fn looks_like_sse(text: &str) -> bool {
    let mut seen_field = false;
    for line in lines(text) {
        if line.is_empty() || line.starts_with(':') {
            continue;
        }
        let field = field_and_value(line).0;
        if !seen_field && field != "data" && field != "event" {
            return false;
        }
        if !FIELDS.contains(&field) {
            return false;
        }
        seen_field = true;
    }
    seen_field
}

/// Every `data:` payload in `text`, in order. Lines that are not SSE fields are ignored.
pub fn payloads(text: &str) -> Vec<Payload> {
    let mut payloads = Vec::new();
    let mut data: Vec<&str> = Vec::new();
    for line in lines(text) {
        if line.is_empty() {
            flush(&mut data, &mut payloads);
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        match field_and_value(line) {
            ("data", value) => data.push(value),
            // A new event name without a blank line before it still starts a new event.
            ("event", _) => flush(&mut data, &mut payloads),
            _ => {}
        }
    }
    flush(&mut data, &mut payloads);
    payloads
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
}

fn field_and_value(line: &str) -> (&str, &str) {
    match line.split_once(':') {
        Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
        None => (line, ""),
    }
}

/// Turn the collected `data:` lines of one event into payloads.
fn flush(data: &mut Vec<&str>, payloads: &mut Vec<Payload>) {
    if data.is_empty() {
        return;
    }
    let joined = data.join("\n");
    match parse(&joined) {
        Payload::Other if data.len() > 1 => payloads.extend(data.iter().map(|line| parse(line))),
        payload => payloads.push(payload),
    }
    data.clear();
}

fn parse(data: &str) -> Payload {
    let data = data.trim();
    if data == "[DONE]" {
        return Payload::Done;
    }
    match serde_json::from_str(data) {
        Ok(value) => Payload::Json(value),
        Err(_) => Payload::Other,
    }
}
