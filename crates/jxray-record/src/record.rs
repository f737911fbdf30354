//! From one finished exchange to its files: which kind of capture the response is, the
//! decoded copy, the request file, and what to tell the user in one line.

use std::path::{Path, PathBuf};

use http::{header, HeaderMap};
use serde_json::Value;

use crate::decode::{decode, DecodedBody};
use crate::exchange::Exchange;
use crate::naming::{request_model, stem};
use crate::scrub::scrub_json;
use crate::sidecar::{document, RequestBody};
use crate::tee::End;
use crate::write::{write, CaptureFiles};

/// What became of an exchange, for the log line.
#[derive(Debug)]
pub enum Recorded {
    /// Written; with a note when something about it is worth knowing.
    Written { path: PathBuf, note: Option<String> },
    /// Passed through but not written, and why.
    Skipped(String),
    /// Writing failed (disk full, folder gone): the client's call was not affected.
    Failed(String),
}

/// Write `exchange` under `root` (canonical) with `limit` on a decoded response.
pub fn record(root: &Path, exchange: &Exchange, limit: usize) -> Recorded {
    let response = &exchange.response;
    if response.over_limit {
        return Recorded::Skipped(format!(
            "the response was over {limit} bytes ({} bytes): passed through, not recorded; raise --max-response-bytes to keep such responses",
            response.total
        ));
    }
    let mut notes = Vec::new();
    match &response.end {
        End::Complete => {}
        // An SDK may stop reading at a stream's last event: what it saw is kept.
        End::Dropped => notes
            .push("the client hung up before the response ended: kept what arrived".to_string()),
        End::Failed(why) => {
            notes.push(format!("the upstream broke off ({why}): kept what arrived"))
        }
    }
    let body = request_body(exchange, limit);
    let model = match &body {
        RequestBody::Json(value) => request_model(Some(value), &exchange.upstream),
        RequestBody::Missing(_) => request_model(None, &exchange.upstream),
    };
    let encoding = header_text(&exchange.response_headers, header::CONTENT_ENCODING);
    let (bytes, encoded) = match decode(response.bytes.clone(), encoding, limit) {
        DecodedBody::Plain(bytes) => (bytes, false),
        DecodedBody::Unsupported(encoding) => {
            notes.push(format!(
                "its {encoding} encoding cannot be decoded: kept as .bin"
            ));
            (response.bytes.clone(), true)
        }
        DecodedBody::Failed(why) => {
            notes.push(format!("{why}: kept as .bin"));
            (response.bytes.clone(), true)
        }
    };
    let content_type = header_text(&exchange.response_headers, header::CONTENT_TYPE);
    // `.bin` is not a capture name: jxray would read compressed bytes as text.
    let extension = if encoded {
        ".bin"
    } else {
        extension(content_type, &bytes)
    };
    let (folder, stem) = stem(
        &exchange.started,
        model.as_deref(),
        exchange.status.as_u16(),
    );
    let request = document(exchange, &body, model.as_deref());
    let mut request_text = serde_json::to_vec_pretty(&request).unwrap_or_default();
    request_text.push(b'\n');
    let files = CaptureFiles {
        folder: &folder,
        stem: &stem,
        extension,
        capture: &bytes,
        request: &request_text,
    };
    match write(root, &files) {
        Ok(path) => Recorded::Written {
            path,
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        },
        Err(error) => Recorded::Failed(format!(
            "cannot write the capture under {} ({error}); the call itself went through",
            root.display()
        )),
    }
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The request's JSON body with credentials removed, or why there is none.
fn request_body(exchange: &Exchange, limit: usize) -> RequestBody {
    let request = &exchange.request;
    if request.over_limit {
        return RequestBody::Missing(format!(
            "over the request size limit ({} bytes)",
            request.total
        ));
    }
    if request.end != End::Complete {
        return RequestBody::Missing("the request body did not arrive whole".to_string());
    }
    if request.bytes.is_empty() {
        return RequestBody::Missing("no body".to_string());
    }
    let encoding = header_text(&exchange.request_headers, header::CONTENT_ENCODING);
    let DecodedBody::Plain(bytes) = decode(request.bytes.clone(), encoding, limit) else {
        return RequestBody::Missing("a compressed body that cannot be decoded".to_string());
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(mut value) => {
            scrub_json(&mut value);
            RequestBody::Json(value)
        }
        Err(_) => RequestBody::Missing(format!(
            "not JSON: {} bytes of {}",
            bytes.len(),
            header_text(&exchange.request_headers, header::CONTENT_TYPE).unwrap_or("unknown type")
        )),
    }
}

/// The capture's extension: from the content type when it says, else from the bytes.
/// OpenAI, Anthropic and Gemini stream SSE; Ollama streams NDJSON.
fn extension(content_type: Option<&str>, bytes: &[u8]) -> &'static str {
    let media = content_type
        .and_then(|t| t.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase())
        .unwrap_or_default();
    match media.as_str() {
        "text/event-stream" => return ".sse",
        "application/x-ndjson" | "application/ndjson" | "application/jsonl" => return ".ndjson",
        _ => {}
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return ".bin";
    };
    let trimmed = text.trim_start();
    if media.ends_with("json") || media.ends_with("+json") {
        return if is_json_lines(text) {
            ".ndjson"
        } else {
            ".json"
        };
    }
    if trimmed.starts_with("data:") || trimmed.starts_with("event:") {
        ".sse"
    } else if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        ".json"
    } else if is_json_lines(text) {
        ".ndjson"
    } else {
        ".txt"
    }
}

/// More than one line, each a JSON object: a stream of JSON values (Ollama's).
fn is_json_lines(text: &str) -> bool {
    let mut count = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let line = line.trim();
        if !line.starts_with('{') || serde_json::from_str::<serde::de::IgnoredAny>(line).is_err() {
            return false;
        }
        count += 1;
    }
    count > 1
}

#[cfg(test)]
mod tests {
    use super::extension;

    #[test]
    fn the_kind_of_capture_follows_the_content_type_then_the_bytes() {
        assert_eq!(
            extension(Some("text/event-stream; charset=utf-8"), b"data: {}"),
            ".sse"
        );
        assert_eq!(
            extension(Some("application/x-ndjson"), b"{}\n{}"),
            ".ndjson"
        );
        assert_eq!(extension(Some("application/json"), br#"{"a":1}"#), ".json");
        assert_eq!(
            extension(Some("application/json"), b"{\"a\":1}\n{\"b\":2}\n"),
            ".ndjson"
        );
        assert_eq!(
            extension(None, b"event: message_start\ndata: {}\n\n"),
            ".sse"
        );
        assert_eq!(extension(None, b"{\"a\":1}"), ".json");
        assert_eq!(
            extension(Some("text/html"), b"<html>bad gateway</html>"),
            ".txt"
        );
        assert_eq!(extension(None, &[0xff, 0xfe]), ".bin");
    }
}
