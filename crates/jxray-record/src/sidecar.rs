//! The request file written beside each capture (`….request.json`): what was asked, so the
//! workbench can show which prompt produced which output. Every credential is removed
//! (see `scrub`).
//!
//! ```json
//! {"jxray_request": 1, "method": "POST", "path": "/openai/chat/completions",
//!  "upstream": "https://api.openai.com/v1/chat/completions", "model": "gpt-4o-mini",
//!  "stream": true, "started": "2026-12-01T14:03:22.118+01:00", "duration_ms": 812,
//!  "status": 200, "response_content_type": "text/event-stream",
//!  "headers": {"content-type": "application/json"}, "body": {"model": "gpt-4o-mini", "messages": […]}}
//! ```
//!
//! `body` is the request's JSON (messages or input, tools, response format and the rest);
//! a body that is not JSON, or too large to keep, is `null` with `body_note` saying why.
//! A response that did not arrive whole (the client hung up, the upstream broke off, the
//! proxy was stopped) has `response_note` saying so. A request that re-asks an earlier
//! capture has `chain`: `{"id", "attempt", "re_ask_of"}` (see [`crate::Chains`]).

use serde_json::{json, Map, Value};

use crate::exchange::Exchange;
use crate::scrub::{kept_headers, scrub_path_and_query};

/// The request body as parsed (credentials removed), or why there is none.
pub enum RequestBody {
    Json(Value),
    Missing(String),
}

/// The request file's document.
pub fn document(
    exchange: &Exchange,
    body: RequestBody,
    model: Option<&str>,
    (response_note, chain): (Option<&str>, Option<&Value>),
) -> Value {
    let mut doc = Map::new();
    doc.insert("jxray_request".into(), json!(1));
    doc.insert("method".into(), json!(exchange.method.as_str()));
    doc.insert(
        "path".into(),
        json!(scrub_path_and_query(
            exchange.uri.path(),
            exchange.uri.query()
        )),
    );
    let upstream = &exchange.upstream;
    let upstream_path = scrub_path_and_query(upstream.path(), upstream.query());
    let authority = upstream.authority().map_or("", |a| a.as_str());
    let scheme = upstream.scheme_str().unwrap_or("http");
    doc.insert(
        "upstream".into(),
        json!(format!("{scheme}://{authority}{upstream_path}")),
    );
    doc.insert("model".into(), json!(model));
    let stream = match &body {
        RequestBody::Json(value) => value.get("stream").and_then(Value::as_bool),
        RequestBody::Missing(_) => None,
    };
    let stream = stream.unwrap_or_else(|| upstream.path().contains("streamGenerateContent"));
    doc.insert("stream".into(), json!(stream));
    doc.insert(
        "started".into(),
        json!(exchange
            .started
            .format("%Y-%m-%dT%H:%M:%S%.3f%:z")
            .to_string()),
    );
    doc.insert(
        "duration_ms".into(),
        json!(exchange.elapsed.as_millis() as u64),
    );
    doc.insert("status".into(), json!(exchange.status.as_u16()));
    let content_type = exchange
        .response_headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    doc.insert("response_content_type".into(), json!(content_type));
    if let Some(note) = response_note {
        doc.insert("response_note".into(), json!(note));
    }
    let arrivals = &exchange.response.arrivals;
    if !arrivals.is_empty() {
        // When the stream's bytes came: milliseconds from the request, bytes by then.
        let (ms, bytes): (Vec<u64>, Vec<u64>) = arrivals.iter().copied().unzip();
        doc.insert("arrival".into(), json!({"ms": ms, "bytes": bytes}));
    }
    if let crate::tee::End::Stopped(stop) = &exchange.response.end {
        // Who cut the stream, where and why: the capture holds what the upstream sent.
        doc.insert(
            "stopped".into(),
            json!({"by": "jxray", "signal": stop.signal, "byte": stop.byte, "message": stop.message}),
        );
    }
    doc.insert(
        "headers".into(),
        Value::Object(kept_headers(&exchange.request_headers)),
    );
    if let Some(chain) = chain {
        doc.insert("chain".into(), chain.clone());
    }
    match body {
        RequestBody::Json(value) => {
            doc.insert("body".into(), value);
        }
        RequestBody::Missing(why) => {
            doc.insert("body".into(), Value::Null);
            doc.insert("body_note".into(), json!(why));
        }
    }
    Value::Object(doc)
}
