//! One exchange: the request goes upstream with only its route prefix and hop-by-hop
//! headers changed, the response comes back frame by frame, and when both bodies have
//! ended their copies are written — off the response path, so nothing the disk does can
//! slow or break the client's call.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::Local;
use http::header::{self, HeaderMap, HeaderValue};
use http::{Request, Response, StatusCode, Version};
use http_body_util::{Either, Full};
use hyper::body::Incoming;
use tokio::sync::oneshot;

use crate::budget::Budget;
use crate::client::Upstream;
use crate::drain::{Pending, Tracker};
use crate::exchange::Exchange;
use crate::record::{record, Recorded};
use crate::routes::Routes;
use crate::tee::{End, Tee, Teed};
use crate::write::Folder;
use crate::{CallEnd, Limits, SharedLog, Timeouts};

/// What the proxy answers with: the upstream's body, or its own one-line error.
pub type ProxyBody = Either<Tee<Incoming>, Full<Bytes>>;

/// Headers that belong to one connection, not to the message (RFC 9110 §7.6.1).
const HOP_BY_HOP: [header::HeaderName; 6] = [
    header::CONNECTION,
    header::TE,
    header::TRAILER,
    header::TRANSFER_ENCODING,
    header::UPGRADE,
    header::PROXY_AUTHENTICATE,
];

/// How long a request body may take to finish after its response ended.
const REQUEST_SETTLE: Duration = Duration::from_secs(5);

/// What every exchange shares.
pub struct State {
    pub routes: Routes,
    pub client: Upstream,
    pub limits: Limits,
    pub timeouts: Timeouts,
    /// The capture folder, held open (its path canonical).
    pub folder: Folder,
    pub log: SharedLog,
    /// What every exchange's copies share.
    pub budget: Arc<Budget>,
    /// The exchanges not yet written.
    pub pending: Arc<Tracker>,
    /// Set when the proxy is stopping: a body cut off now was cut off by the stop.
    pub stopping: AtomicBool,
    /// Links re-asks to the captures they re-ask, when the caller reads outputs.
    pub chains: Option<Arc<dyn crate::Chains>>,
    /// The recordings in the order they started, for the links.
    pub turns: Arc<crate::turns::Turns>,
    /// Watches streamed responses, with `--stop-on`.
    pub watches: Option<Arc<dyn crate::Watches>>,
    /// Numbers the calls in flight.
    pub calls: std::sync::atomic::AtomicU64,
}

/// Handle one request from a client.
pub async fn handle(
    state: Arc<State>,
    request: Request<Incoming>,
) -> Result<Response<ProxyBody>, Infallible> {
    let Some(target) = state.routes.resolve(request.uri()) else {
        return Ok(no_route(&state, request.uri().path()));
    };
    let upstream_uri = target.uri.clone();
    let host = HeaderValue::from_str(target.route.authority().as_str());
    let (mut parts, body) = request.into_parts();
    let client_uri = parts.uri.clone();
    let method = parts.method.clone();
    let request_headers = parts.headers.clone();
    drop_length_beside_chunked(&mut parts.headers);
    strip_hop_by_hop(&mut parts.headers);
    if let Ok(host) = host {
        parts.headers.insert(header::HOST, host);
    }
    parts.uri = upstream_uri.clone();
    parts.version = Version::HTTP_11;
    let (request_tee, request_done) =
        Tee::new(body, state.limits.request_bytes, &state.budget, None);
    let started = Local::now();
    let clock = Instant::now();
    let hangup = HangupNote::new(state.clone());
    let sent = state
        .client
        .request(Request::from_parts(parts, request_tee));
    let response = match tokio::time::timeout(state.timeouts.idle, sent).await {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => {
            hangup.disarm();
            let message = format!("cannot reach {}: {}", target.route, error_chain(&error));
            return Ok(not_answered(&state, StatusCode::BAD_GATEWAY, &message));
        }
        Err(_) => {
            hangup.disarm();
            let idle = state.timeouts.idle.as_secs();
            let message = format!("{} sent no answer for {idle} s", target.route);
            return Ok(not_answered(&state, StatusCode::GATEWAY_TIMEOUT, &message));
        }
    };
    hangup.disarm();
    let (mut response_parts, body) = response.into_parts();
    drop_length_beside_chunked(&mut response_parts.headers);
    strip_hop_by_hop(&mut response_parts.headers);
    let label = || format!("{} {}", method, client_uri.path());
    let (response_tee, response_done) =
        teed_response(&state, &response_parts.headers, body, clock, label);
    let head = Head {
        started,
        clock,
        method,
        client_uri,
        upstream_uri,
        request_headers,
        status: response_parts.status,
        response_headers: response_parts.headers.clone(),
    };
    let pending = state.pending.enter();
    tokio::spawn(finish(
        state.clone(),
        head,
        request_done,
        response_done,
        pending,
    ));
    Ok(Response::from_parts(
        response_parts,
        Either::Left(response_tee),
    ))
}

/// The response body as it is passed on and recorded: its arrival kept when it is a stream
/// whose bytes are the capture's, and watched with `--stop-on` (the call named by `label`).
fn teed_response(
    state: &Arc<State>,
    headers: &HeaderMap,
    body: Incoming,
    clock: Instant,
    label: impl FnOnce() -> String,
) -> (
    Tee<Incoming>,
    tokio::sync::oneshot::Receiver<crate::tee::Teed>,
) {
    let (mut tee, done) = Tee::new(
        body,
        state.limits.response_bytes,
        &state.budget,
        Some(state.timeouts.idle),
    );
    let header = |name| headers.get(name)?.to_str().ok();
    let content_type = header(header::CONTENT_TYPE).unwrap_or("");
    let encoding = header(header::CONTENT_ENCODING);
    // A stream's arrival is kept where its bytes are the capture's (not compressed).
    if is_stream(content_type) && encoding.is_none_or(|e| e.eq_ignore_ascii_case("identity")) {
        tee.keep_arrivals(tokio::time::Instant::from_std(clock));
    }
    if let Some(watch) = state
        .watches
        .as_ref()
        .and_then(|watches| watches.watch(content_type, encoding))
    {
        tee.watch(watch);
        let call = state.calls.fetch_add(1, Ordering::Relaxed);
        tee.tell(call, state.log.clone(), label());
    }
    (tee, done)
}

/// The parts of an exchange known when the response head arrives.
struct Head {
    started: chrono::DateTime<Local>,
    clock: Instant,
    method: http::Method,
    client_uri: http::Uri,
    upstream_uri: http::Uri,
    request_headers: HeaderMap,
    status: StatusCode,
    response_headers: HeaderMap,
}

/// Wait for both bodies to end, then write the exchange on a blocking thread.
async fn finish(
    state: Arc<State>,
    head: Head,
    request_done: oneshot::Receiver<Teed>,
    response_done: oneshot::Receiver<Teed>,
    pending: Pending,
) {
    let response = response_done
        .await
        .unwrap_or_else(|_| dropped(&state.budget));
    let interrupted = response.end == End::Dropped && state.stopping.load(Ordering::SeqCst);
    let elapsed = head.clock.elapsed();
    let request = match tokio::time::timeout(REQUEST_SETTLE, request_done).await {
        Ok(Ok(teed)) => teed,
        _ => dropped(&state.budget),
    };
    let exchange = Exchange {
        started: head.started,
        elapsed,
        method: head.method,
        uri: head.client_uri,
        upstream: head.upstream_uri,
        request_headers: head.request_headers,
        request,
        status: head.status,
        response_headers: head.response_headers,
        response,
        interrupted,
    };
    let status = exchange.status;
    let stopped = matches!(exchange.response.end, End::Stopped(_));
    let writer = state.clone();
    // The turn is taken as the exchange ends, before the thread that writes it runs.
    let turn = state.turns.begin();
    let written = tokio::task::spawn_blocking(move || {
        let chains = writer.chains.as_deref().map(|chains| (chains, &turn));
        record(
            &writer.folder,
            exchange,
            (&writer.limits, &writer.budget),
            chains,
        )
    })
    .await;
    let (end, line) = match written {
        Ok(recorded) => match describe(&state, recorded, status, elapsed) {
            (CallEnd::Kept, line) if stopped => (CallEnd::Stopped, line),
            described => described,
        },
        Err(_) => (
            CallEnd::NotKept,
            "writing the capture failed unexpectedly; the call itself went through".into(),
        ),
    };
    state.log.call(end, &line);
    drop(pending);
}

fn describe(
    state: &State,
    recorded: Recorded,
    status: StatusCode,
    elapsed: Duration,
) -> (CallEnd, String) {
    match recorded {
        Recorded::Written { path, note } => {
            let shown = path.strip_prefix(state.folder.path()).unwrap_or(&path);
            let mut line = format!(
                "recorded {} ({}, {:.1} s)",
                shown.display(),
                status.as_u16(),
                elapsed.as_secs_f64()
            );
            if let Some(note) = note {
                line.push_str("; ");
                line.push_str(&note);
            }
            (CallEnd::Kept, line)
        }
        Recorded::Skipped(why) | Recorded::Failed(why) => (CallEnd::NotKept, why),
    }
}

/// Whether a response's content type is a stream: SSE, or NDJSON lines.
fn is_stream(content_type: &str) -> bool {
    let content_type = content_type.to_ascii_lowercase();
    content_type.starts_with("text/event-stream") || content_type.contains("ndjson")
}

fn dropped(budget: &Arc<Budget>) -> Teed {
    Teed {
        arrivals: Vec::new(),
        bytes: crate::budget::Held::new(budget, 0),
        total: 0,
        refused: None,
        end: End::Dropped,
    }
}

/// A message sent chunked and with a `Content-Length` is read chunked (RFC 9112 §6.3):
/// the length is stale and must not be passed on, or the other side would stop early.
fn drop_length_beside_chunked(headers: &mut HeaderMap) {
    if headers.contains_key(header::TRANSFER_ENCODING) {
        headers.remove(header::CONTENT_LENGTH);
    }
}

/// Remove the connection's own headers, and those the `Connection` header names.
fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<String> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|name| name.trim().to_ascii_lowercase())
        .filter(|name| !name.is_empty())
        .collect();
    for name in &named {
        headers.remove(name.as_str());
    }
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
    headers.remove("keep-alive");
    headers.remove("proxy-connection");
}

/// A response of the proxy's own: one line of plain text.
/// A path no route serves: said to the app and logged as a call not kept.
fn no_route(state: &State, path: &str) -> Response<ProxyBody> {
    let names: Vec<String> = state
        .routes
        .iter()
        .map(|r| format!("/{}", r.name))
        .collect();
    let message = format!(
        "no route for {path}; the routes are {} (add one with --upstream NAME=URL)",
        names.join(", ")
    );
    not_answered(state, StatusCode::NOT_FOUND, &message)
}

/// A call the upstream never answered (or that had nowhere to go): logged as not kept, and
/// answered by the proxy itself with `status`.
fn not_answered(state: &State, status: StatusCode, message: &str) -> Response<ProxyBody> {
    state.log.call(CallEnd::NotKept, message);
    own_error(status, message)
}

fn own_error(status: StatusCode, message: &str) -> Response<ProxyBody> {
    let mut response = Response::new(Either::Right(Full::new(Bytes::from(format!(
        "jxray record: {message}\n"
    )))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// An error and its causes in one line (hyper's own message is terse).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let text = next.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        cause = next.source();
    }
    line
}

/// Logs one line if the exchange is dropped (the client hung up, or the proxy stopped)
/// before the upstream's answer arrived; dropping the request future is what cancels the
/// upstream call.
struct HangupNote {
    state: Option<Arc<State>>,
}

impl HangupNote {
    fn new(state: Arc<State>) -> HangupNote {
        HangupNote { state: Some(state) }
    }

    fn disarm(mut self) {
        self.state = None;
    }
}

impl Drop for HangupNote {
    fn drop(&mut self) {
        let Some(state) = &self.state else {
            return;
        };
        let who = if state.stopping.load(Ordering::SeqCst) {
            "the proxy was stopped"
        } else {
            "the client hung up"
        };
        state.log.call(
            CallEnd::NotKept,
            &format!("{who} before the upstream answered: call cancelled, not recorded"),
        );
    }
}
