//! What the pass-through tests share: a recorder on a free port, a raw TCP upstream the
//! test drives byte by byte, a hyper client, and a log that can be waited on.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Request;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use jxray_record::{CallEnd, Limits, Log, ProxySettings, Recorder, Route, Routes, Timeouts};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// How long a test waits for something that should happen at once.
pub const PATIENCE: Duration = Duration::from_secs(10);

#[derive(Default)]
pub struct MemoryLog {
    lines: Mutex<Vec<String>>,
    ends: Mutex<Vec<CallEnd>>,
}

impl Log for MemoryLog {
    fn line(&self, line: &str) {
        self.lines.lock().unwrap().push(line.to_string());
    }

    fn call(&self, end: CallEnd, line: &str) {
        self.ends.lock().unwrap().push(end);
        self.line(line);
    }
}

impl MemoryLog {
    /// What became of each call that ended, in order.
    pub fn ends(&self) -> Vec<CallEnd> {
        self.ends.lock().unwrap().clone()
    }

    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// The first line containing `needle`, waiting for it.
    pub async fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            if let Some(line) = self.lines().into_iter().find(|l| l.contains(needle)) {
                return line;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "no log line with {needle:?}: {:?}",
                self.lines()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A recorder whose route `up` leads to `upstream` + `/v1`, writing under `dir`.
pub async fn recorder(
    dir: &Path,
    upstream: SocketAddr,
    limits: Limits,
    timeouts: Timeouts,
) -> (SocketAddr, Arc<MemoryLog>) {
    let (recorder, log) = bound(dir, &format!("up=http://{upstream}/v1"), limits, timeouts).await;
    let addr = recorder.local_addr();
    tokio::spawn(recorder.serve());
    (addr, log)
}

/// [`recorder`] with the default limits and timeouts.
pub async fn default_recorder(dir: &Path, upstream: SocketAddr) -> (SocketAddr, Arc<MemoryLog>) {
    recorder(dir, upstream, Limits::default(), Timeouts::default()).await
}

/// A recorder with the one route `route` (`NAME=URL`), bound but not serving yet.
pub async fn bound(
    dir: &Path,
    route: &str,
    limits: Limits,
    timeouts: Timeouts,
) -> (Recorder, Arc<MemoryLog>) {
    let settings = ProxySettings {
        listen: "127.0.0.1:0".parse().unwrap(),
        to: dir.to_path_buf(),
        routes: Routes::with(vec![Route::parse(route).unwrap()]),
        limits,
        timeouts,
        chains: None,
        watches: None,
    };
    let log = Arc::new(MemoryLog::default());
    let recorder = Recorder::bind(settings, log.clone()).await.unwrap();
    (recorder, log)
}

/// A request as the upstream received it.
#[derive(Debug, Clone)]
pub struct Received {
    /// The request line and headers, as sent.
    pub head: String,
    pub body: Vec<u8>,
}

impl Received {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }

    pub fn request_line(&self) -> &str {
        self.head.lines().next().unwrap_or_default()
    }
}

/// A raw upstream on a free port: the test accepts and answers each connection itself.
pub async fn upstream() -> (TcpListener, SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    (listener, addr)
}

/// Accept one connection and read its request (a body with Content-Length).
pub async fn accept(listener: &TcpListener) -> (TcpStream, Received) {
    let (mut stream, _) = listener.accept().await.unwrap();
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    let head_end = loop {
        let n = stream.read(&mut buffer).await.unwrap();
        assert!(n > 0, "the proxy closed before sending a request");
        bytes.extend_from_slice(&buffer[..n]);
        if let Some(end) = find(&bytes, b"\r\n\r\n") {
            break end;
        }
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let mut body = bytes[head_end + 4..].to_vec();
    let length: usize = Received {
        head: head.clone(),
        body: Vec::new(),
    }
    .header("content-length")
    .and_then(|v| v.parse().ok())
    .unwrap_or(0);
    while body.len() < length {
        let n = stream.read(&mut buffer).await.unwrap();
        assert!(n > 0);
        body.extend_from_slice(&buffer[..n]);
    }
    (stream, Received { head, body })
}

pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Write one chunk of a chunked body.
pub async fn write_chunk(stream: &mut TcpStream, data: &[u8]) -> std::io::Result<()> {
    stream
        .write_all(format!("{:x}\r\n", data.len()).as_bytes())
        .await?;
    stream.write_all(data).await?;
    stream.write_all(b"\r\n").await?;
    stream.flush().await
}

/// Send `request` to the proxy; the response and the connection's task (abort it to hang up).
pub async fn send(
    proxy: SocketAddr,
    request: Request<Full<Bytes>>,
) -> (http::Response<Incoming>, JoinHandle<()>) {
    let stream = TcpStream::connect(proxy).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    let task = tokio::spawn(async move {
        let _ = connection.await;
    });
    let response = sender.send_request(request).await.unwrap();
    (response, task)
}

/// A JSON POST to `path` on the proxy.
pub fn post(path: &str) -> http::request::Builder {
    Request::post(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
}

/// Every file under `dir`, recursively (hidden ones too).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Wait until a file whose name ends with `suffix` is under `dir`.
pub async fn wait_for_file(dir: &Path, suffix: &str) -> PathBuf {
    let start = Instant::now();
    loop {
        if let Some(path) = files_under(dir)
            .into_iter()
            .find(|p| p.to_string_lossy().ends_with(suffix))
        {
            return path;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "no file ending {suffix} under {}: {:?}",
            dir.display(),
            files_under(dir)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
