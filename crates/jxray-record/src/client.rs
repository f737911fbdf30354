//! The upstream client: HTTP/1.1 over TCP, or TLS through rustls with the webpki root
//! certificates (certificate and host name checked), a connect timeout, kept-alive
//! connections reused.

use hyper::body::Incoming;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use crate::tee::Tee;
use crate::Timeouts;

/// The client every exchange goes through; the request body is teed on its way.
pub type Upstream = Client<HttpsConnector<HttpConnector>, Tee<Incoming>>;

pub fn upstream(timeouts: &Timeouts) -> Upstream {
    let mut http = HttpConnector::new();
    // The scheme is checked by the TLS layer: plain http stays plain, https gets TLS.
    http.enforce_http(false);
    http.set_connect_timeout(Some(timeouts.connect));
    http.set_nodelay(true);
    let https = HttpsConnectorBuilder::new()
        .with_webpki_roots()
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    Client::builder(TokioExecutor::new()).build(https)
}
