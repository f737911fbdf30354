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

use jxray_formats::recorded::request::{ArrivalPoints, Marker, Stopped};
use jxray_formats::recorded::{ChainLink, ProxiedRequest};
use serde_json::Value;

use crate::exchange::Exchange;
use crate::naming::local_time;
use crate::scrub::{kept_headers, scrub_path_and_query};

/// The request body as parsed (credentials removed), or why there is none.
pub enum RequestBody {
    Json(Value),
    Missing(String),
}

/// The request file's document (its format is the file contract's, `ProxiedRequest`).
pub fn document(
    exchange: &Exchange,
    body: RequestBody,
    model: Option<&str>,
    (response_note, chain): (Option<&str>, Option<&ChainLink>),
) -> ProxiedRequest {
    let upstream = &exchange.upstream;
    let upstream_path = scrub_path_and_query(upstream.path(), upstream.query());
    let authority = upstream.authority().map_or("", |a| a.as_str());
    let scheme = upstream.scheme_str().unwrap_or("http");
    let stream = match &body {
        RequestBody::Json(value) => value.get("stream").and_then(Value::as_bool),
        RequestBody::Missing(_) => None,
    };
    let content_type = exchange
        .response_headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let arrivals = &exchange.response.arrivals;
    let (body, body_note) = match body {
        RequestBody::Json(value) => (value, None),
        RequestBody::Missing(why) => (Value::Null, Some(why)),
    };
    ProxiedRequest {
        jxray_request: Marker,
        method: exchange.method.as_str().to_string(),
        path: scrub_path_and_query(exchange.uri.path(), exchange.uri.query()),
        upstream: format!("{scheme}://{authority}{upstream_path}"),
        model: model.map(str::to_string),
        stream: stream.unwrap_or_else(|| upstream.path().contains("streamGenerateContent")),
        started: local_time(&exchange.started).iso(),
        duration_ms: exchange.elapsed.as_millis() as u64,
        status: exchange.status.as_u16(),
        response_content_type: content_type.map(str::to_string),
        response_note: response_note.map(str::to_string),
        arrival: (!arrivals.is_empty()).then(|| {
            let (ms, bytes) = arrivals.iter().copied().unzip();
            ArrivalPoints { ms, bytes }
        }),
        stopped: match &exchange.response.end {
            crate::tee::End::Stopped(stop) => Some(Stopped {
                by: "jxray",
                signal: stop.signal.clone(),
                byte: stop.byte as u64,
                message: stop.message.clone(),
            }),
            _ => None,
        },
        headers: kept_headers(&exchange.request_headers),
        chain: chain.cloned(),
        body,
        body_note,
    }
}
