//! From one finished exchange to its files: which kind of capture the response is, the
//! decoded copy, the request file, and what to tell the user in one line.

use std::sync::Arc;

use http::{header, HeaderMap};
use serde_json::Value;

use crate::budget::{Budget, Held, Refused, Reserved};
use crate::decode::{decode, DecodedBody};
use crate::exchange::Exchange;
use crate::naming::{request_model, stem};
use crate::scrub::{scrub_json, Secrets};
use crate::sidecar::{document, RequestBody};
use crate::tee::End;
use crate::turns::{Turn, LINK_WAIT};
use crate::write::{CaptureFiles, Folder};
use crate::Limits;

/// What became of an exchange, for the log line.
#[derive(Debug)]
pub enum Recorded {
    /// Written; with a note when something about it is worth knowing (its request file
    /// could not be written, the response was cut short).
    Written {
        path: std::path::PathBuf,
        note: Option<String>,
    },
    /// Passed through but not written, and why.
    Skipped(String),
    /// Writing failed (disk full, folder gone): nothing was written, and the client's
    /// call was not affected.
    Failed(String),
}

/// Write `exchange` into `folder`, each body bounded by its side's limit in `limits` and
/// every copy by `budget`; its request file links it to the capture it re-asks when
/// `chains` finds one.
pub fn record(
    folder: &Folder,
    mut exchange: Exchange,
    (limits, budget): (&Limits, &Arc<Budget>),
    chains: Option<(&dyn crate::Chains, &Turn)>,
) -> Recorded {
    if let Some(skipped) = not_kept(&exchange, limits, budget) {
        return skipped;
    }
    let mut notes = Vec::new();
    let response_note = response_note(&exchange);
    notes.extend(response_note.clone());
    let (body, secrets, _parsed) = request_body(&exchange, limits, budget, &mut notes);
    let model = match &body {
        RequestBody::Json(value) => request_model(Some(value), &exchange.upstream),
        RequestBody::Missing(_) => request_model(None, &exchange.upstream),
    };
    let (mut bytes, encoded) = match response_copy(&mut exchange, limits, budget, &mut notes) {
        Ok(copy) => copy,
        Err(skipped) => return skipped,
    };
    let content_type = header_text(&exchange.response_headers, header::CONTENT_TYPE);
    // `.bin` is not a capture name: jxray would read compressed bytes as text.
    let extension = if encoded {
        ".bin"
    } else {
        extension(content_type, bytes.as_slice())
    };
    let (date, stem) = stem(
        &exchange.started,
        model.as_deref(),
        exchange.status.as_u16(),
    );
    let linked = match (&body, chains) {
        (RequestBody::Json(value), Some((chains, turn))) => {
            // An output recorded just before this exchange ended must be known to link to.
            turn.wait_for_earlier(LINK_WAIT);
            chains.link(value)
        }
        _ => crate::Linked::default(),
    };
    let request = document(
        &exchange,
        body,
        model.as_deref(),
        (response_note.as_deref(), linked.chain.as_ref()),
    );
    // Compact: a request file is about the size of the request, never a multiple of it.
    let mut request_text = serde_json::to_vec(&request).unwrap_or_default();
    drop(request);
    request_text.push(b'\n');
    let redacted = bytes.edit(|bytes| secrets.redact(bytes)) + secrets.redact(&mut request_text);
    if redacted > 0 {
        notes.push(format!(
            "a credential the request carried was in what was kept: replaced {redacted} time{}",
            if redacted == 1 { "" } else { "s" }
        ));
    }
    let files = CaptureFiles {
        folder: &date,
        stem: &stem,
        extension,
        capture: bytes.as_slice(),
        request: &request_text,
    };
    let recorded = write(folder, &files, notes);
    if let (Recorded::Written { path, .. }, Some((chains, _))) = (&recorded, chains) {
        chains.written(folder.path(), path, bytes.as_slice(), &linked);
    }
    recorded
}

/// Why an exchange is passed through without a capture: a response over its limit or the
/// shared budget, or one with no body (no model output to look at).
fn not_kept(exchange: &Exchange, limits: &Limits, budget: &Arc<Budget>) -> Option<Recorded> {
    let response = &exchange.response;
    match response.refused {
        Some(Refused::OverLimit) => {
            return Some(Recorded::Skipped(format!(
                "the response was over {} bytes ({} bytes): passed through, not recorded; raise --max-response-bytes to keep such responses",
                limits.response_bytes, response.total
            )))
        }
        Some(Refused::OverBudget) => {
            return Some(Recorded::Skipped(over_budget("response", budget, NOT_RECORDED)))
        }
        None => {}
    }
    // A 204, a HEAD, an OPTIONS, a call cancelled before its first byte.
    (response.total == 0).then(|| {
        Recorded::Skipped(format!(
            "{} {} answered {} with no body: passed through, not recorded",
            exchange.method,
            exchange.uri.path(),
            exchange.status.as_u16()
        ))
    })
}

/// What the request file says of a response that did not arrive whole.
fn response_note(exchange: &Exchange) -> Option<String> {
    match &exchange.response.end {
        End::Complete => None,
        // An SDK may stop reading at a stream's last event: what it saw is kept.
        End::Dropped if exchange.interrupted => {
            Some("the proxy was stopped before the response ended: kept what arrived".to_string())
        }
        End::Dropped => {
            Some("the client hung up before the response ended: kept what arrived".to_string())
        }
        End::Failed(why) => Some(format!("the upstream broke off ({why}): kept what arrived")),
        End::Stopped(stop) => Some(format!(
            "stopped by jxray (--stop-on {}) at byte {} of the output: {}; the upstream request was dropped and the client's stream ended as cut; kept what arrived",
            stop.signal, stop.byte, stop.message
        )),
    }
}

/// Write the capture and its request, and say what is on disk.
fn write(folder: &Folder, files: &CaptureFiles<'_>, mut notes: Vec<String>) -> Recorded {
    match folder.write(files) {
        Ok(written) => {
            if let Some(error) = written.request_error {
                notes.push(format!(
                    "its request file could not be written ({error}): the capture is there without it"
                ));
            }
            Recorded::Written {
                path: written.capture,
                note: (!notes.is_empty()).then(|| notes.join("; ")),
            }
        }
        Err(error) => Recorded::Failed(format!(
            "cannot write the capture under {} ({error}): nothing written; the call itself went through",
            folder.path().display()
        )),
    }
}

/// The response's bytes as they go on disk, decoded when they came compressed, and
/// whether they are still encoded (kept as `.bin`); or why nothing is kept.
fn response_copy(
    exchange: &mut Exchange,
    limits: &Limits,
    budget: &Arc<Budget>,
    notes: &mut Vec<String>,
) -> Result<(Held, bool), Recorded> {
    let encoding = header_text(&exchange.response_headers, header::CONTENT_ENCODING);
    let decoded = decode(
        exchange.response.bytes.as_slice(),
        encoding,
        limits.response_bytes,
        budget,
    );
    let raw = &mut exchange.response.bytes;
    match decoded {
        DecodedBody::Identity => Ok((raw.take(), false)),
        DecodedBody::Plain(held) => {
            raw.clear();
            Ok((held, false))
        }
        DecodedBody::Unsupported(encoding) => {
            notes.push(format!(
                "its {encoding} encoding cannot be decoded: kept as .bin"
            ));
            Ok((raw.take(), true))
        }
        DecodedBody::Failed(why) => {
            notes.push(format!("{why}: kept as .bin"));
            Ok((raw.take(), true))
        }
        DecodedBody::Refused(Refused::OverLimit) => Err(Recorded::Skipped(format!(
            "the response unpacks to more than {} bytes: passed through, not recorded; raise --max-response-bytes to keep such responses",
            limits.response_bytes
        ))),
        DecodedBody::Refused(Refused::OverBudget) => Err(Recorded::Skipped(over_budget(
            "decoded response",
            budget,
            NOT_RECORDED,
        ))),
    }
}

/// What becomes of an exchange whose response is not kept, and of one whose request body
/// is not.
const NOT_RECORDED: &str = "passed through, not recorded";
const BODY_NOT_KEPT: &str = "its body not kept";

/// How many times its size a JSON body takes once parsed (members, strings and their
/// order kept), as counted against the memory budget.
const PARSED_JSON_FACTOR: usize = 4;

fn over_budget(what: &str, budget: &Budget, consequence: &str) -> String {
    format!(
        "the {what} did not fit in what the proxy may hold for all calls at once ({} bytes): {consequence}; raise --max-memory-bytes to keep more",
        budget.limit()
    )
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The request's JSON body with credentials removed, or why there is none; the
/// credentials the request carried (its headers, query and body), to be searched for in
/// what is written; and what the parsed body holds of the budget, until it is written.
fn request_body(
    exchange: &Exchange,
    limits: &Limits,
    budget: &Arc<Budget>,
    notes: &mut Vec<String>,
) -> (RequestBody, Secrets, Option<Reserved>) {
    let secrets = |body: Option<&Value>| {
        Secrets::of_request(&exchange.request_headers, exchange.uri.query(), body)
    };
    let request = &exchange.request;
    let missing = |why: String| (RequestBody::Missing(why), secrets(None), None);
    let refused = match request.refused {
        Some(Refused::OverLimit) => Some(format!(
            "the request body was over {} bytes ({} bytes): its body not kept; raise --max-request-bytes to keep such requests",
            limits.request_bytes, request.total
        )),
        Some(Refused::OverBudget) => Some(over_budget("request body", budget, BODY_NOT_KEPT)),
        None => None,
    };
    if let Some(why) = refused {
        notes.push(why.clone());
        return missing(why);
    }
    if request.end != End::Complete {
        return missing("the request body did not arrive whole".to_string());
    }
    if request.bytes.is_empty() {
        return missing("no body".to_string());
    }
    let encoding = header_text(&exchange.request_headers, header::CONTENT_ENCODING);
    let raw = request.bytes.as_slice();
    let decoded = decode(raw, encoding, limits.request_bytes, budget);
    let held;
    let bytes = match &decoded {
        DecodedBody::Identity => raw,
        DecodedBody::Plain(plain) => {
            held = plain;
            held.as_slice()
        }
        DecodedBody::Refused(Refused::OverLimit) => {
            let why = format!(
                "the request body unpacks to more than {} bytes: its body not kept; raise --max-request-bytes to keep such requests",
                limits.request_bytes
            );
            notes.push(why.clone());
            return missing(why);
        }
        DecodedBody::Refused(Refused::OverBudget) => {
            let why = over_budget("decoded request body", budget, BODY_NOT_KEPT);
            notes.push(why.clone());
            return missing(why);
        }
        DecodedBody::Unsupported(_) | DecodedBody::Failed(_) => {
            return missing("a compressed body that cannot be decoded".to_string())
        }
    };
    // The parsed body lives beside its bytes until the request file is written: it is
    // counted in the budget too, at an estimate of what a parsed JSON body takes.
    let Some(parsed) = budget.reserve(bytes.len().saturating_mul(PARSED_JSON_FACTOR)) else {
        let why = over_budget("parsed request body", budget, BODY_NOT_KEPT);
        notes.push(why.clone());
        return missing(why);
    };
    match serde_json::from_slice::<Value>(bytes) {
        Ok(mut value) => {
            let secrets = secrets(Some(&value));
            scrub_json(&mut value);
            (RequestBody::Json(value), secrets, Some(parsed))
        }
        Err(_) => missing(format!(
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
    fn every_extension_a_capture_gets_is_one_the_readers_pair_with_a_request() {
        let bodies: [(Option<&str>, &[u8]); 7] = [
            (Some("text/event-stream"), b"data: {}\n\n"),
            (Some("application/x-ndjson"), b"{}\n{}\n"),
            (Some("application/json"), b"{}"),
            (None, b"data: {}\n\n"),
            (None, b"{\"a\": 1}"),
            (None, b"plain text"),
            (None, &[0xff, 0xfe, 0x00]),
        ];
        for (content_type, body) in bodies {
            let extension = extension(content_type, body);
            assert!(
                jxray_formats::recorded::RECORDED_EXTENSIONS.contains(&&extension[1..]),
                "{extension}"
            );
        }
    }

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
