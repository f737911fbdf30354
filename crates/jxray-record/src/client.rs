//! The upstream client: HTTP/1.1 over TCP, or TLS through rustls with the webpki root
//! certificates (certificate and host name checked), kept-alive connections reused, and
//! one connect timeout over both the TCP connection and the TLS handshake.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use http::Uri;
use hyper::body::Incoming;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tower_service::Service;

use crate::tee::{BoxError, Tee};
use crate::Timeouts;

/// The client every exchange goes through; the request body is teed on its way.
pub type Upstream = Client<Bounded<HttpsConnector<HttpConnector>>, Tee<Incoming>>;

pub fn upstream(timeouts: &Timeouts) -> Upstream {
    let mut http = HttpConnector::new();
    // The scheme is checked by the TLS layer: plain http stays plain, https gets TLS.
    http.enforce_http(false);
    http.set_nodelay(true);
    let https = HttpsConnectorBuilder::new()
        .with_webpki_roots()
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    let bounded = Bounded {
        inner: https,
        timeout: timeouts.connect,
    };
    Client::builder(TokioExecutor::new()).build(bounded)
}

/// A connector whose whole connection (TCP, then TLS) must be made within `timeout`: a
/// server that accepts and then stalls the handshake is given up on like one that never
/// answers.
#[derive(Clone)]
pub struct Bounded<C> {
    inner: C,
    timeout: Duration,
}

type Connecting<T> = Pin<Box<dyn Future<Output = Result<T, BoxError>> + Send>>;

impl<C> Service<Uri> for Bounded<C>
where
    C: Service<Uri>,
    C::Error: Into<BoxError>,
    C::Future: Send + 'static,
{
    type Response = C::Response;
    type Error = BoxError;
    type Future = Connecting<C::Response>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let connecting = self.inner.call(uri);
        let timeout = self.timeout;
        Box::pin(async move {
            match tokio::time::timeout(timeout, connecting).await {
                Ok(connected) => connected.map_err(Into::into),
                Err(_) => Err(format!(
                    "no connection within the connect timeout ({} s, TCP and TLS)",
                    timeout.as_secs_f64()
                )
                .into()),
            }
        })
    }
}
