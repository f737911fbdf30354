//! `jxray record`: a recording proxy on loopback for model API calls.
//!
//! A request to `/NAME/REST` goes to the route's upstream `URL/REST`; the request and the
//! response (streams chunk by chunk, as they arrive) pass through unchanged, and each
//! exchange is written under the capture folder as a capture jxray reads, with the request
//! beside it stripped of every credential.
//!
//! The pieces, in the order a request flows through them:
//! - `routes`: `/NAME` to its upstream URL;
//! - `server`: the listener and one HTTP/1 connection task per client;
//! - `proxy`: one exchange: the upstream request, the response back, the copies for disk;
//! - `client`: the upstream HTTP(S) client (rustls, certificate checks, timeouts);
//! - `tee`: a body that forwards every frame and keeps a bounded copy;
//! - `budget`: the memory every exchange's copies share;
//! - `record`: from the copies to files: `scrub` (credentials out), `decode` (a copy of a
//!   compressed body), `naming` (time and model), `sidecar` (the request file), `write`
//!   (atomic, never overwriting, never outside the folder).

mod budget;
mod client;
mod decode;
mod drain;
mod exchange;
mod hints;
mod naming;
mod proxy;
mod record;
mod routes;
mod scrub;
mod server;
mod sidecar;
mod tee;
mod turns;
mod write;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use budget::{Budget, Held, Refused};
pub use decode::{decode, DecodedBody};
pub use hints::env_lines;
pub use naming::REQUEST_SUFFIX;
pub use routes::{Route, Routes, DEFAULT_ROUTES};
pub use scrub::{is_credential_header, is_credential_name, scrub_json, scrub_query};
pub use server::{Recorder, Running, Stopped, STOP_GRACE};
pub use write::{CaptureFiles, FilesFor, Folder, Placed, Placing, Written, CAPTURE_MODE};

/// The proxy's own failures, each one line naming the fix.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("bad --upstream {0}")]
    BadUpstream(String),
    #[error("cannot listen on {addr}: the port is in use; pick another with --port")]
    PortInUse { addr: SocketAddr },
    #[error("cannot start the proxy's threads: {0}")]
    Runtime(std::io::Error),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error(
        "{path}: cannot use it as the capture folder ({source}); pass a writable folder with --to"
    )]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: cannot use it as the capture folder: it is {what}, not a folder; pass a writable folder with --to")]
    NotAFolder { path: PathBuf, what: &'static str },
}

/// How much of each body is kept for the capture, counted in decoded bytes; beyond it
/// the body still flows.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub request_bytes: usize,
    pub response_bytes: usize,
    /// What every exchange's copies together may hold (raw and decoded, requests and
    /// responses).
    pub memory_bytes: usize,
}

impl Limits {
    /// The largest value any of the limits may take: 1 TiB (larger values are refused,
    /// so that no count can overflow).
    pub const MAX: usize = 1 << 40;
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            request_bytes: 16 * 1024 * 1024,
            response_bytes: 64 * 1024 * 1024,
            memory_bytes: 256 * 1024 * 1024,
        }
    }
}

/// How long the upstream may take.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// To open the TCP connection and finish the TLS handshake.
    pub connect: Duration,
    /// Silence from the upstream: before the response head, and between two chunks.
    /// Reasoning models can think for minutes before their first byte.
    pub idle: Duration,
}

impl Timeouts {
    /// The longest timeout accepted: a week (longer ones are refused, so that no deadline
    /// can overflow).
    pub const MAX: Duration = Duration::from_secs(7 * 24 * 3600);
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            connect: Duration::from_secs(10),
            idle: Duration::from_secs(600),
        }
    }
}

/// Everything `jxray record` is started with.
#[derive(Debug, Clone)]
pub struct ProxySettings {
    pub listen: SocketAddr,
    /// The capture folder (created when missing).
    pub to: PathBuf,
    pub routes: Routes,
    pub limits: Limits,
    pub timeouts: Timeouts,
    /// Links a re-ask to the capture it re-asks, when given (the binary reads outputs).
    pub chains: Option<Arc<dyn Chains>>,
    /// Watches streamed responses and ends one when it is lost (`--stop-on`), when given.
    pub watches: Option<Arc<dyn Watches>>,
}

/// `--stop-on`: streamed responses watched as they pass, and one ended when its watch
/// says it is lost. The proxy does not read outputs itself; the caller that does
/// implements this.
pub trait Watches: Send + Sync + std::fmt::Debug {
    /// A watch for a response with this content type and encoding, or none (not a
    /// stream, or one whose provider's way of ending it is not known).
    fn watch(
        &self,
        content_type: &str,
        content_encoding: Option<&str>,
    ) -> Option<Box<dyn StreamWatch>>;
}

/// One streamed response, watched as its bytes arrive.
pub trait StreamWatch: Send {
    /// The next bytes of the response as they came; `Some` to end the stream here.
    fn feed(&mut self, bytes: &[u8]) -> Option<Stop>;

    /// One line on where the stream stands now (its state, the output so far, the signals),
    /// for a log that shows calls in flight.
    fn status(&self) -> Option<String> {
        None
    }
}

/// Why a stream is ended, and how: the upstream request is dropped (the provider stops
/// generating), and the client's stream gets `ending`, the provider's own way of saying
/// the output was cut (a length stop), so its SDK reads a cut answer, never a whole one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// The bytes that end the client's stream.
    pub ending: bytes::Bytes,
    /// The signal that said so (`runaway`, `refusal`, …).
    pub signal: String,
    /// Where in the output (the answer's text) it became certain.
    pub byte: usize,
    /// One line for a person.
    pub message: String,
}

/// Repair chains: a request that re-asks an earlier recorded output (it quotes it, or
/// carries it as the model's turn) is linked to that output's capture in its request file.
/// The proxy does not read outputs itself; the caller that does implements this.
pub trait Chains: Send + Sync + std::fmt::Debug {
    /// What the linker says of a request with this body: its link, when it re-asks an
    /// earlier capture, and what it keeps of the request for the output that answers it.
    fn link(&self, request: &serde_json::Value) -> Linked;

    /// A capture was written at `capture` (inside `folder`): the bytes it holds, and what
    /// [`Chains::link`] said of its request (the default for a body that was not JSON).
    fn written(
        &self,
        folder: &std::path::Path,
        capture: &std::path::Path,
        body: &[u8],
        request: &Linked,
    );
}

/// What a chain linker says of one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Linked {
    /// The request file's `chain` member, when the request re-asks an earlier capture.
    pub chain: Option<jxray_formats::recorded::ChainLink>,
    /// A fingerprint of the conversation the request carries, so a re-ask is linked only
    /// to an output of its own conversation.
    pub conversation: u64,
    /// The request asked for JSON (a JSON response format, tools, a schema): only then is
    /// an answer without a value a failure worth re-asking.
    pub asks_json: bool,
}

/// Where the proxy's one-line messages go (stderr for the command, a buffer in tests).
/// A line can hold text from a request (a model name, a path): the sink escapes it for
/// the terminal.
pub trait Log: Send + Sync {
    fn line(&self, line: &str);

    /// One call has ended, kept as a capture or not; `line` is its log line (for a call
    /// not kept, the reason). A sink that does not count calls logs the line.
    fn call(&self, end: CallEnd, line: &str) {
        let _ = end;
        self.line(line);
    }

    /// A streamed call still in flight, numbered `call`: what its watch says of it now
    /// (`line`), or `None` once its stream ended. Only a sink that shows calls in flight
    /// (`record --tui`) keeps these.
    fn in_flight(&self, call: u64, line: Option<&str>) {
        let _ = (call, line);
    }
}

/// What became of one call through the proxy, told once when it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallEnd {
    /// Written as a capture.
    Kept,
    /// Written as a capture, the stream ended early by `--stop-on`.
    Stopped,
    /// Passed through (or answered by the proxy) without a capture: an upstream that
    /// could not be reached, a body over a limit, no body, a failed write, a hang-up.
    NotKept,
}

/// The log the proxy writes to.
pub type SharedLog = Arc<dyn Log>;
