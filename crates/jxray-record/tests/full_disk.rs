//! A disk that fills up between a capture and its request file: the capture is on disk,
//! so the log says it was recorded, without its request file. Its own test binary, since
//! the file size limit it sets (RLIMIT_FSIZE, the way a full disk is met without one)
//! holds for the whole process. Unix only: Windows has no file size limit to set.
#![cfg(unix)]

mod support;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
use support::*;
use tokio::io::AsyncWriteExt;

/// Files past this size cannot be written (EFBIG), as on a disk with this much room.
const ROOM: u64 = 16 * 1024;

#[tokio::test]
async fn a_capture_written_without_its_request_file_is_logged_as_what_is_on_disk() {
    // Past the limit a write fails with EFBIG instead of ending the process.
    signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        Arc::new(AtomicBool::new(false)),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = default_recorder(dir.path(), upstream_addr).await;
    let reply = r#"{"choices":[{"message":{"content":"{}"},"finish_reason":"stop"}]}"#;
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{reply}",
            reply.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
    });
    // A small capture, and a request too large for the room left.
    let prompt = "p".repeat(ROOM as usize * 2);
    let body = format!(r#"{{"model":"m","messages":[{{"role":"user","content":"{prompt}"}}]}}"#);
    let before = getrlimit(Resource::Fsize);
    setrlimit(
        Resource::Fsize,
        Rlimit {
            current: Some(ROOM),
            maximum: before.maximum,
        },
    )
    .unwrap();
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 200);
    response.into_body().collect().await.unwrap();
    server.await.unwrap();
    let line = log.wait_for(" ").await;
    setrlimit(Resource::Fsize, before).unwrap();

    let capture = wait_for_file(dir.path(), "-m.json").await;
    assert_eq!(std::fs::read_to_string(&capture).unwrap(), reply);
    assert!(line.starts_with("recorded "), "{line}");
    assert!(
        line.contains("its request file could not be written"),
        "{line}"
    );
    let files = files_under(dir.path());
    assert_eq!(
        files,
        vec![capture],
        "no request file, no temporary file left"
    );
}
