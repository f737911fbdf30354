//! Server-sent-event framing: lines into events, events into JSON payloads.
//!
//! Follows the SSE rules where saved logs rely on them (CRLF line endings, `:` comment
//! lines, one optional space after the colon, several `data:` lines joined with `\n`), and
//! tolerates how logs are really saved: events not separated by blank lines still give one
//! payload per `data:` line.

use std::borrow::Cow;

use serde::de::IgnoredAny;

/// The field names of the SSE format.
const FIELDS: [&str; 4] = ["data", "event", "id", "retry"];

/// One `data:` payload of a stream.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Payload<'t> {
    /// JSON text (its syntax checked, no tree built: each stream's reader reads it).
    Json(Cow<'t, str>),
    /// OpenAI's `data: [DONE]` end marker.
    Done,
    /// A payload that is not JSON (kept so callers can say what they ignored).
    Other,
}

/// Whether `text` is a saved SSE log: its first field line is `data:` or `event:`, and every
/// non-blank line is a field or a comment. Used to recognise streams saved as plain text.
pub(crate) fn looks_like_sse(text: &str) -> bool {
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

/// Every `data:` payload in `text`, in order, each with the offset just past its last
/// `data:` line (where a reader had it whole). Lines that are not SSE fields are ignored.
pub(super) fn payloads(text: &str) -> Vec<(Payload<'_>, usize)> {
    let mut payloads = Vec::new();
    let mut data: Vec<&str> = Vec::new();
    let (mut at, mut end) = (0, 0);
    for raw in text.split_inclusive('\n') {
        at += raw.len();
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            flush(&mut data, &mut payloads, end);
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        match field_and_value(line) {
            ("data", value) => {
                data.push(value);
                end = at;
            }
            // A new event name without a blank line before it still starts a new event.
            ("event", _) => flush(&mut data, &mut payloads, end),
            _ => {}
        }
    }
    flush(&mut data, &mut payloads, end);
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

/// Turn the collected `data:` lines of one event into payloads, whole at `end`.
fn flush<'t>(data: &mut Vec<&'t str>, payloads: &mut Vec<(Payload<'t>, usize)>, end: usize) {
    let joined = match data.as_slice() {
        [] => return,
        [line] => Cow::Borrowed(*line),
        lines => Cow::Owned(lines.join("\n")),
    };
    match parse(joined) {
        Payload::Other if data.len() > 1 => {
            payloads.extend(data.iter().map(|line| (parse(Cow::Borrowed(line)), end)));
        }
        payload => payloads.push((payload, end)),
    }
    data.clear();
}

fn parse(data: Cow<'_, str>) -> Payload<'_> {
    let trimmed = data.trim();
    if trimmed == "[DONE]" {
        return Payload::Done;
    }
    // A syntax check that builds nothing (a lone surrogate escape passes it; the reader's
    // parse then drops that payload, as this did).
    if serde_json::from_str::<IgnoredAny>(trimmed).is_err() {
        return Payload::Other;
    }
    Payload::Json(match data {
        Cow::Borrowed(text) => Cow::Borrowed(text.trim()),
        Cow::Owned(text) => Cow::Owned(text.trim().to_string()),
    })
}
