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
//! - `record`: from the copies to files: `scrub` (credentials out), `decode` (a copy of a
//!   compressed body), `naming` (time and model), `sidecar` (the request file), `write`
//!   (atomic, never overwriting, never outside the folder).

mod client;
mod decode;
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
mod write;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use hints::env_lines;
pub use naming::sanitize_model;
pub use naming::REQUEST_SUFFIX;
pub use routes::{Route, Routes, DEFAULT_ROUTES};
pub use scrub::{is_credential_header, scrub_query};
pub use server::{Recorder, Running};

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
}

/// How much of each body is kept for the capture; beyond it the body still flows.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub request_bytes: usize,
    pub response_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            request_bytes: 16 * 1024 * 1024,
            response_bytes: 64 * 1024 * 1024,
        }
    }
}

/// How long the upstream may take.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// To open the TCP connection (and finish the TLS handshake).
    pub connect: Duration,
    /// Silence from the upstream: before the response head, and between two chunks.
    /// Reasoning models can think for minutes before their first byte.
    pub idle: Duration,
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
}

/// Where the proxy's one-line messages go (stderr for the command, a buffer in tests).
/// A line can hold text from a request (a model name, a path): the sink escapes it for
/// the terminal.
pub trait Log: Send + Sync {
    fn line(&self, line: &str);
}

/// The log the proxy writes to.
pub type SharedLog = Arc<dyn Log>;
