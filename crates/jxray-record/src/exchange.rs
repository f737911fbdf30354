//! One exchange through the proxy: the request the client made and the response that came
//! back, as far as they were kept, once the response ended.

use std::time::Duration;

use chrono::{DateTime, Local};
use http::{HeaderMap, Method, StatusCode, Uri};

use crate::tee::Teed;

/// Everything known about one exchange once its response ended.
pub struct Exchange {
    pub started: DateTime<Local>,
    pub elapsed: Duration,
    pub method: Method,
    /// The URI the client called on the proxy (path and query).
    pub uri: Uri,
    pub upstream: Uri,
    pub request_headers: HeaderMap,
    pub request: Teed,
    pub status: StatusCode,
    pub response_headers: HeaderMap,
    pub response: Teed,
    /// The proxy was stopped while the response was still arriving.
    pub interrupted: bool,
}
