//! The proxy against a local upstream that the test drives byte by byte: streams pass
//! through as they arrive, status and headers are kept, credentials never reach disk,
//! a hang-up cancels the upstream call, and a disk error never breaks the client's call.

mod support;

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use jxray_record::{CallEnd, Limits, Timeouts};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SSE_HEAD: &[u8] =
    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
const FIRST: &str = "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\\\"a\\\":\"},\"finish_reason\":null}]}\n\n";
const SECOND: &str = "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"1}\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

fn chat_body() -> Full<Bytes> {
    Full::new(Bytes::from_static(
        br#"{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"hi"}]}"#,
    ))
}

#[tokio::test]
async fn streamed_chunks_arrive_before_the_upstream_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, _log) = default_recorder(dir.path(), upstream_addr).await;
    let (go, wait_for_go) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        stream.write_all(SSE_HEAD).await.unwrap();
        write_chunk(&mut stream, FIRST.as_bytes()).await.unwrap();
        // The rest is sent only once the client has the first chunk: a proxy that
        // buffered the stream would never let it through.
        wait_for_go.await.unwrap();
        write_chunk(&mut stream, SECOND.as_bytes()).await.unwrap();
        stream.write_all(b"0\r\n\r\n").await.unwrap();
    });
    let request = post("/up/chat/completions").body(chat_body()).unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let first = tokio::time::timeout(PATIENCE, body.frame())
        .await
        .expect("the first chunk came through before the upstream finished")
        .unwrap()
        .unwrap();
    assert_eq!(first.data_ref().unwrap(), FIRST.as_bytes());
    go.send(()).unwrap();
    let rest = body.collect().await.unwrap().to_bytes();
    assert_eq!(rest, SECOND.as_bytes());
    server.await.unwrap();

    let capture = wait_for_file(dir.path(), "-gpt-4o-mini.sse").await;
    assert_eq!(
        std::fs::read_to_string(&capture).unwrap(),
        format!("{FIRST}{SECOND}")
    );
    let request_file = capture.with_extension("request.json");
    let request: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(request_file).unwrap()).unwrap();
    assert_eq!(request["model"], "gpt-4o-mini");
    assert_eq!(request["stream"], true);
    assert_eq!(request["body"]["messages"][0]["content"], "hi");
    let folder = capture
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(folder, chrono::Local::now().format("%Y-%m-%d").to_string());
}

#[tokio::test]
async fn status_codes_and_headers_pass_through_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, _log) = default_recorder(dir.path(), upstream_addr).await;
    let error_body = r#"{"error":{"message":"Rate limit reached","type":"requests"}}"#;
    let server = tokio::spawn(async move {
        let (mut stream, received) = accept(&listener).await;
        let head = format!(
            "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 7\r\nx-ratelimit-remaining-requests: 0\r\ncontent-length: {}\r\n\r\n{error_body}",
            error_body.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        received
    });
    let request = post("/up/chat/completions?api-version=2024-10-21")
        .header("x-custom-trace", "abc")
        .header("anthropic-version", "2023-06-01")
        .body(Full::new(Bytes::from_static(
            br#"{"model":"m","messages":[]}"#,
        )))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()["retry-after"], "7");
    assert_eq!(response.headers()["x-ratelimit-remaining-requests"], "0");
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, error_body.as_bytes());

    let received = server.await.unwrap();
    assert_eq!(
        received.request_line(),
        "POST /v1/chat/completions?api-version=2024-10-21 HTTP/1.1"
    );
    assert_eq!(received.header("x-custom-trace"), Some("abc"));
    assert_eq!(received.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(
        received.header("host"),
        Some(upstream_addr.to_string().as_str())
    );
    assert_eq!(received.body, br#"{"model":"m","messages":[]}"#);
    // The error is kept as it came, named so that it stands out.
    let capture = wait_for_file(dir.path(), "-m-http-429.json").await;
    assert_eq!(std::fs::read_to_string(capture).unwrap(), error_body);
}

#[tokio::test]
async fn credentials_pass_upstream_and_never_reach_disk() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, _log) = default_recorder(dir.path(), upstream_addr).await;
    let server = tokio::spawn(async move {
        let (mut stream, received) = accept(&listener).await;
        let body =
            r#"{"candidates":[{"content":{"parts":[{"text":"{}"}]},"finishReason":"STOP"}]}"#;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nset-cookie: session=SECRET-SET\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        received
    });
    let body = r#"{"api_key":"SECRET-BODY","contents":[{"role":"user","parts":[{"text":"hi"}]}],"metadata":{"token":"SECRET-DEEP"}}"#;
    let request = post("/up/models/gemini-2.5-flash:generateContent?key=SECRET-QUERY&alt=json")
        .header("authorization", "Bearer SECRET-BEARER")
        .header("x-api-key", "SECRET-ANTHROPIC")
        .header("x-goog-api-key", "SECRET-GOOG")
        .header("api-key", "SECRET-AZURE")
        .header("cookie", "session=SECRET-COOKIE")
        .header("x-portkey-api-key", "SECRET-GATEWAY")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["set-cookie"], "session=SECRET-SET");
    response.into_body().collect().await.unwrap();

    // Passed through: the upstream got every credential, unchanged.
    let received = server.await.unwrap();
    for secret in [
        "key=SECRET-QUERY",
        "Bearer SECRET-BEARER",
        "SECRET-ANTHROPIC",
        "SECRET-GOOG",
        "SECRET-AZURE",
        "SECRET-COOKIE",
        "SECRET-GATEWAY",
    ] {
        assert!(received.head.contains(secret), "{secret} not passed on");
    }
    assert_eq!(received.body, body.as_bytes());
    // Not on disk, in any file.
    let capture = wait_for_file(dir.path(), "-gemini-2.5-flash.json").await;
    let request_file = capture.with_extension("request.json");
    wait_for_file(dir.path(), ".request.json").await;
    for file in files_under(dir.path()) {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains("SECRET"),
            "{} holds a credential: {text}",
            file.display()
        );
    }
    let request: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(request_file).unwrap()).unwrap();
    assert_eq!(
        request["path"],
        "/up/models/gemini-2.5-flash:generateContent?alt=json"
    );
    assert_eq!(request["body"]["contents"][0]["parts"][0]["text"], "hi");
}

#[tokio::test]
async fn a_client_hanging_up_mid_stream_cancels_the_upstream_call() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = default_recorder(dir.path(), upstream_addr).await;
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        stream.write_all(SSE_HEAD).await.unwrap();
        write_chunk(&mut stream, FIRST.as_bytes()).await.unwrap();
        // Keep streaming until the proxy lets go of the upstream connection.
        let mut buffer = [0u8; 64];
        loop {
            tokio::select! {
                read = stream.read(&mut buffer) => if matches!(read, Ok(0) | Err(_)) { return },
                _ = tokio::time::sleep(Duration::from_millis(50)) => {
                    if write_chunk(&mut stream, b": keep-alive\n\n").await.is_err() { return }
                }
            }
        }
    });
    let request = post("/up/chat/completions").body(chat_body()).unwrap();
    let (response, connection) = send(proxy, request).await;
    let mut body = response.into_body();
    body.frame().await.unwrap().unwrap();
    drop(body);
    connection.abort();
    tokio::time::timeout(PATIENCE, server)
        .await
        .expect("the upstream connection was closed when the client hung up")
        .unwrap();
    // What the client saw is kept, and the log says it was cut short by the client.
    let line = log.wait_for("hung up").await;
    assert!(line.contains("kept what arrived"), "{line}");
    let capture = wait_for_file(dir.path(), ".sse").await;
    assert!(std::fs::read_to_string(capture).unwrap().starts_with(FIRST));
}

#[tokio::test]
async fn a_client_hanging_up_before_the_answer_cancels_the_upstream_call() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = default_recorder(dir.path(), upstream_addr).await;
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        // A model thinking: no answer yet. The proxy must close this when the client goes.
        let mut buffer = [0u8; 64];
        while !matches!(stream.read(&mut buffer).await, Ok(0) | Err(_)) {}
    });
    let client = tokio::spawn(async move {
        let request = post("/up/chat/completions").body(chat_body()).unwrap();
        send(proxy, request).await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    client.abort();
    tokio::time::timeout(PATIENCE, server)
        .await
        .expect("the upstream connection was closed when the client hung up")
        .unwrap();
    log.wait_for("before the upstream answered").await;
}

#[tokio::test]
async fn a_disk_error_never_breaks_the_clients_call() {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("captures");
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = recorder(&to, upstream_addr, Limits::default(), Timeouts::default()).await;
    // The folder goes away and a file takes its place: every write now fails (even as root).
    #[cfg(unix)]
    {
        std::fs::remove_dir_all(&to).unwrap();
        std::fs::write(&to, b"not a folder").unwrap();
    }
    // On Windows the held folder cannot be removed (it is open without FILE_SHARE_DELETE):
    // files take the date folder's names instead, today's and tomorrow's (for midnight).
    #[cfg(windows)]
    let to = {
        let today = chrono::Local::now();
        for day in [today, today + chrono::Duration::days(1)] {
            let name = day.format("%Y-%m-%d").to_string();
            std::fs::write(to.join(name), b"not a folder").unwrap();
        }
        to.join(today.format("%Y-%m-%d").to_string())
    };
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        stream.write_all(SSE_HEAD).await.unwrap();
        write_chunk(&mut stream, FIRST.as_bytes()).await.unwrap();
        write_chunk(&mut stream, SECOND.as_bytes()).await.unwrap();
        stream.write_all(b"0\r\n\r\n").await.unwrap();
    });
    let request = post("/up/chat/completions").body(chat_body()).unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 200);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, format!("{FIRST}{SECOND}").as_bytes());
    server.await.unwrap();
    let line = log.wait_for("cannot write the capture").await;
    assert!(line.contains("the call itself went through"), "{line}");
    assert!(!line.contains('\n'));
    assert_eq!(std::fs::read(&to).unwrap(), b"not a folder");
}

#[tokio::test]
async fn over_the_size_limit_the_stream_flows_and_is_not_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let limits = Limits {
        request_bytes: 1024,
        response_bytes: 64,
        ..Limits::default()
    };
    let (proxy, log) = recorder(dir.path(), upstream_addr, limits, Timeouts::default()).await;
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        stream.write_all(SSE_HEAD).await.unwrap();
        for _ in 0..10 {
            write_chunk(&mut stream, FIRST.as_bytes()).await.unwrap();
        }
        stream.write_all(b"0\r\n\r\n").await.unwrap();
    });
    let request = post("/up/chat/completions").body(chat_body()).unwrap();
    let (response, _connection) = send(proxy, request).await;
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body.len(), FIRST.len() * 10);
    server.await.unwrap();
    log.wait_for("not recorded").await;
    assert_eq!(log.ends(), [CallEnd::NotKept]);
    assert!(
        files_under(dir.path()).is_empty(),
        "{:?}",
        files_under(dir.path())
    );
}

#[tokio::test]
async fn compressed_responses_reach_the_client_as_sent_and_disk_decoded() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = default_recorder(dir.path(), upstream_addr).await;
    let plain = r#"{"type":"message","content":[{"type":"text","text":"{\"a\": 1,}"}],"stop_reason":"end_turn"}"#;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(plain.as_bytes()).unwrap();
    let gzipped = encoder.finish().unwrap();
    let sent = gzipped.clone();
    let server = tokio::spawn(async move {
        let (mut stream, received) = accept(&listener).await;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: {}\r\n\r\n",
            sent.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(&sent).await.unwrap();
        received
    });
    let request = post("/up/messages")
        .header("accept-encoding", "gzip, deflate")
        .body(Full::new(Bytes::from_static(
            br#"{"model":"claude-x","messages":[]}"#,
        )))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, gzipped, "the client gets the bytes the upstream sent");
    let received = server.await.unwrap();
    assert_eq!(received.header("accept-encoding"), Some("gzip, deflate"));
    let capture = wait_for_file(dir.path(), "-claude-x.json").await;
    assert_eq!(std::fs::read_to_string(capture).unwrap(), plain);
    log.wait_for("recorded ").await;
    assert_eq!(log.ends(), [CallEnd::Kept]);
}

#[tokio::test]
async fn unknown_routes_and_unreachable_upstreams_get_one_line_answers() {
    let dir = tempfile::tempdir().unwrap();
    // A port nothing listens on.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let (proxy, log) = recorder(dir.path(), closed, Limits::default(), Timeouts::default()).await;
    let request = post("/nope/chat").body(chat_body()).unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 404);
    let text = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&text);
    assert!(
        text.contains("/up") && text.contains("--upstream"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1);

    let request = post("/up/chat/completions").body(chat_body()).unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 502);
    log.wait_for("cannot reach http://").await;
    assert!(files_under(dir.path()).is_empty());
    assert_eq!(log.ends(), [CallEnd::NotKept, CallEnd::NotKept]);
}

#[tokio::test]
async fn a_port_in_use_is_a_one_line_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let settings = jxray_record::ProxySettings {
        listen: taken.local_addr().unwrap(),
        to: dir.path().to_path_buf(),
        routes: jxray_record::Routes::default(),
        limits: Limits::default(),
        timeouts: Timeouts::default(),
        chains: None,
        watches: None,
    };
    let log = std::sync::Arc::new(MemoryLog::default());
    let error = jxray_record::Recorder::bind(settings, log)
        .await
        .err()
        .unwrap();
    assert!(error.to_string().contains("port is in use"), "{error}");
}

#[tokio::test]
async fn a_silent_upstream_times_out_and_what_arrived_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let timeouts = Timeouts {
        connect: Duration::from_secs(1),
        idle: Duration::from_millis(300),
    };
    let (proxy, log) = recorder(dir.path(), upstream_addr, Limits::default(), timeouts).await;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        stream.write_all(SSE_HEAD).await.unwrap();
        write_chunk(&mut stream, FIRST.as_bytes()).await.unwrap();
        let _ = stopped.await;
    });
    let request = post("/up/chat/completions").body(chat_body()).unwrap();
    let (response, _connection) = send(proxy, request).await;
    let mut body = response.into_body();
    body.frame().await.unwrap().unwrap();
    let rest = tokio::time::timeout(PATIENCE, body.collect())
        .await
        .unwrap();
    assert!(rest.is_err(), "the client sees the stream break off");
    let line = log.wait_for("sent nothing for").await;
    assert!(line.contains("kept what arrived"), "{line}");
    let capture = wait_for_file(dir.path(), ".sse").await;
    assert_eq!(std::fs::read_to_string(capture).unwrap(), FIRST);
    let _ = stop.send(());
}
