//! The proxy under attack, against a local upstream the test drives: no secret reaches
//! disk, memory stays bounded by the limits, no capture is lost or misfiled.

mod support;

use std::io::Write;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use jxray_record::{Limits, Timeouts};
use support::*;
use tokio::io::AsyncWriteExt;

const JSON_REPLY: &str = r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\"a\": 1}"},"finish_reason":"stop"}]}"#;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// Answer one connection with a JSON reply of `body`, with `status`.
async fn answer_json(listener: &tokio::net::TcpListener, status: &str, body: &str) -> Received {
    let (mut stream, received) = accept(listener).await;
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    received
}

fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[tokio::test]
async fn a_compressed_request_is_decoded_only_up_to_the_request_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let limits = Limits {
        request_bytes: 1024 * 1024,
        ..Limits::default()
    };
    let (proxy, log) = recorder(dir.path(), upstream_addr, limits, Timeouts::default()).await;
    // 8 MiB of JSON that packs into a few KiB.
    let content = "a".repeat(8 * 1024 * 1024);
    let plain = format!(r#"{{"model":"m","messages":[{{"role":"user","content":"{content}"}}]}}"#);
    let packed = gzip(plain.as_bytes());
    assert!(packed.len() < 64 * 1024, "{}", packed.len());
    let server = tokio::spawn(async move { answer_json(&listener, "200 OK", JSON_REPLY).await });
    let request = post("/up/chat/completions")
        .header("content-encoding", "gzip")
        .body(Full::new(Bytes::from(packed.clone())))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 200);
    response.into_body().collect().await.unwrap();
    assert_eq!(server.await.unwrap().body, packed, "passed on as sent");

    let line = log.wait_for("recorded").await;
    assert!(
        line.contains("unpacks to more than 1048576 bytes"),
        "{line}"
    );
    let request_file = wait_for_file(dir.path(), ".request.json").await;
    let size = std::fs::metadata(&request_file).unwrap().len();
    assert!(size < 4096, "the request file is {size} bytes");
    let request = read_json(&request_file);
    assert_eq!(request["body"], serde_json::Value::Null);
    assert!(request["body_note"]
        .as_str()
        .unwrap()
        .contains("unpacks to more than"));
}

#[tokio::test]
async fn a_compressed_response_is_kept_only_up_to_the_response_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let limits = Limits {
        response_bytes: 64 * 1024,
        ..Limits::default()
    };
    let (proxy, log) = recorder(dir.path(), upstream_addr, limits, Timeouts::default()).await;
    let bomb = gzip(&vec![b' '; 4 * 1024 * 1024]);
    let sent = bomb.clone();
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: {}\r\n\r\n",
            sent.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(&sent).await.unwrap();
    });
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from_static(br#"{"model":"m"}"#)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, bomb);
    server.await.unwrap();
    let line = log.wait_for("not recorded").await;
    assert!(line.contains("unpacks to more than 65536 bytes"), "{line}");
    assert!(files_under(dir.path()).is_empty());
}

#[tokio::test]
async fn credentials_under_any_name_never_reach_disk() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, _log) = default_recorder(dir.path(), upstream_addr).await;
    let server = tokio::spawn(async move { answer_json(&listener, "200 OK", JSON_REPLY).await });
    let body = r#"{"model":"m","max_tokens":64,"temperature":0.1,
        "messages":[{"role":"user","content":"hi"}],
        "aws_secret_access_key":"SECRET-1","aws_session_token":"SECRET-2",
        "aws_access_key_id":"SECRET-3","azure_ad_token":"SECRET-4","private_key":"SECRET-5",
        "client_secret":"SECRET-6","password":"SECRET-7","refresh_token":"SECRET-8",
        "extra_headers":{"x-goog-api-key":"SECRET-9","Cookie":"SECRET-10","X-Other":"SECRET-11"},
        "metadata":{"vertex_credentials":"SECRET-12","gcp":{"clientSecret":"SECRET-13"}},
        "tools":[{"type":"function","function":{"name":"login","parameters":{"type":"object",
          "properties":{"password":{"type":"string"}}}}}]}"#;
    let query = "?api-version=2024-10-21&subscription-key=SECRET-Q1&X-Amz-Signature=SECRET-Q2\
                 &X-Amz-Security-Token=SECRET-Q3&auth_token=SECRET-Q4&password=SECRET-Q5\
                 &X-Amz-Credential=SECRET-Q6";
    let request = post(&format!("/up/chat/completions{query}"))
        .header("ocp-apim-subscription-key", "SECRET-H1")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    response.into_body().collect().await.unwrap();
    let received = server.await.unwrap();
    assert!(received.head.contains("SECRET-Q6") && received.head.contains("SECRET-H1"));
    assert_eq!(received.body, body.as_bytes());

    let request_file = wait_for_file(dir.path(), ".request.json").await;
    for file in files_under(dir.path()) {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("SECRET"), "{}: {text}", file.display());
    }
    let request = read_json(&request_file);
    assert_eq!(
        request["path"],
        "/up/chat/completions?api-version=2024-10-21"
    );
    assert!(request["upstream"]
        .as_str()
        .unwrap()
        .ends_with("/v1/chat/completions?api-version=2024-10-21"));
    assert_eq!(request["body"]["max_tokens"], 64);
    assert_eq!(request["body"]["messages"][0]["content"], "hi");
    assert_eq!(
        request["body"]["tools"][0]["function"]["parameters"]["properties"]["password"]["type"],
        "string"
    );
}

#[tokio::test]
async fn an_upstream_echoing_the_key_has_it_replaced_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = default_recorder(dir.path(), upstream_addr).await;
    let key = "sk-proj-Zq81xY02kLmN3oPq";
    let echo = format!(
        r#"{{"error":{{"message":"Incorrect API key provided: {key}.","type":"invalid_request_error","code":"invalid_api_key"}}}}"#
    );
    let reply = echo.clone();
    let server =
        tokio::spawn(async move { answer_json(&listener, "401 Unauthorized", &reply).await });
    let request = post("/up/chat/completions")
        .header("authorization", format!("Bearer {key}"))
        .body(Full::new(Bytes::from_static(
            br#"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#,
        )))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 401);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, echo.as_bytes(), "the app gets the upstream's words");
    server.await.unwrap();
    let capture = wait_for_file(dir.path(), "-m-http-401.json").await;
    let kept = std::fs::read_to_string(&capture).unwrap();
    assert!(!kept.contains(key), "{kept}");
    assert!(
        kept.contains("Incorrect API key provided: [REDACTED]."),
        "{kept}"
    );
    let line = log.wait_for("recorded").await;
    assert!(line.contains("replaced 1 time"), "{line}");
}

#[tokio::test]
async fn memory_for_copies_is_bounded_across_exchanges() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    // Each response fits its own limit; two at once do not fit the shared budget.
    let limits = Limits {
        request_bytes: 4096,
        response_bytes: 192 * 1024,
        memory_bytes: 200 * 1024,
    };
    let (proxy, log) = recorder(dir.path(), upstream_addr, limits, Timeouts::default()).await;
    let chunk = format!("data: {}\n\n", "x".repeat(16 * 1024 - 8));
    let (both_started, mut started) = tokio::sync::mpsc::channel::<()>(2);
    let (finish, _) = tokio::sync::broadcast::channel::<()>(1);
    let finisher = finish.clone();
    let server = tokio::spawn(async move {
        let mut tasks = Vec::new();
        for _ in 0..2 {
            let (mut stream, _) = accept(&listener).await;
            let chunk = chunk.clone();
            let both_started = both_started.clone();
            let mut finish = finisher.subscribe();
            tasks.push(tokio::spawn(async move {
                stream
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                    .await
                    .unwrap();
                for _ in 0..8 {
                    write_chunk(&mut stream, chunk.as_bytes()).await.unwrap();
                }
                both_started.send(()).await.unwrap();
                let _ = finish.recv().await;
                stream.write_all(b"0\r\n\r\n").await.unwrap();
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
    });
    let calls: Vec<_> = (0..2)
        .map(|_| {
            tokio::spawn(async move {
                let request = post("/up/chat/completions")
                    .body(Full::new(Bytes::from_static(
                        br#"{"model":"m","stream":true}"#,
                    )))
                    .unwrap();
                let (response, _connection) = send(proxy, request).await;
                response
                    .into_body()
                    .collect()
                    .await
                    .unwrap()
                    .to_bytes()
                    .len()
            })
        })
        .collect();
    started.recv().await.unwrap();
    started.recv().await.unwrap();
    // Let the proxy take in what was sent before the ends are released.
    tokio::time::sleep(Duration::from_millis(200)).await;
    finish.send(()).unwrap();
    for call in calls {
        assert_eq!(call.await.unwrap(), 8 * 16 * 1024, "every call gets it all");
    }
    server.await.unwrap();
    let refused = log.wait_for("did not fit").await;
    assert!(refused.contains("--max-memory-bytes"), "{refused}");
    // The other call's line ("not recorded" holds the word too).
    log.wait_for(".sse (200").await;
    let captures: Vec<_> = files_under(dir.path())
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".sse"))
        .collect();
    assert_eq!(captures.len(), 1, "{:?}", log.lines());
}

#[tokio::test]
async fn a_stop_writes_finished_calls_and_keeps_what_arrived_of_calls_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (recorder, log) = bound(
        dir.path(),
        &format!("up=http://{upstream_addr}/v1"),
        Limits::default(),
        Timeouts::default(),
    )
    .await;
    let proxy = recorder.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(recorder.serve_until(
        async {
            let _ = stopped.await;
        },
        Duration::from_secs(10),
    ));
    let first_chunk = "data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"a\\\":\"}}]}\n\n";
    let server = tokio::spawn(async move {
        // A call that is answered at once, then a stream that never ends.
        answer_json(&listener, "200 OK", JSON_REPLY).await;
        let (mut stream, _) = accept(&listener).await;
        stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
            .await
            .unwrap();
        write_chunk(&mut stream, first_chunk.as_bytes())
            .await
            .unwrap();
        stream
    });
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from_static(br#"{"model":"done"}"#)))
        .unwrap();
    let (response, _first) = send(proxy, request).await;
    response.into_body().collect().await.unwrap();
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from_static(
            br#"{"model":"streaming","stream":true}"#,
        )))
        .unwrap();
    let (response, _second) = send(proxy, request).await;
    let mut body = response.into_body();
    body.frame().await.unwrap().unwrap();
    // Stopped right after the first call returned and while the stream is in flight.
    let started = Instant::now();
    stop.send(()).unwrap();
    let stopped = serving.await.unwrap();
    assert_eq!(stopped.unwritten, 0);
    assert!(started.elapsed() < Duration::from_secs(5));
    let _upstream = server.await.unwrap();
    // Both are on disk the moment the stop returns.
    let files = files_under(dir.path());
    let find = |suffix: &str| {
        files
            .iter()
            .find(|p| p.to_string_lossy().ends_with(suffix))
            .unwrap_or_else(|| panic!("no {suffix} in {files:?}; {:?}", log.lines()))
            .clone()
    };
    assert_eq!(
        std::fs::read_to_string(find("-done.json")).unwrap(),
        JSON_REPLY
    );
    find("-done.request.json");
    assert_eq!(
        std::fs::read_to_string(find("-streaming.sse")).unwrap(),
        first_chunk
    );
    let request = read_json(&find("-streaming.request.json"));
    assert!(
        request["response_note"]
            .as_str()
            .unwrap()
            .contains("the proxy was stopped before the response ended"),
        "{request}"
    );
}

#[tokio::test]
async fn calls_at_once_each_get_their_own_request_file() {
    const CALLS: usize = 200;
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = default_recorder(dir.path(), upstream_addr).await;
    let server = tokio::spawn(async move {
        let mut tasks = Vec::new();
        for _ in 0..CALLS {
            let (mut stream, received) = accept(&listener).await;
            tasks.push(tokio::spawn(async move {
                let body: serde_json::Value = serde_json::from_slice(&received.body).unwrap();
                let id = body["metadata"]["call"].as_u64().unwrap();
                let reply = if body["stream"] == true {
                    let event = format!("data: {{\"call\":{id}}}\n\n");
                    format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\n\r\n{event}",
                        event.len()
                    )
                } else {
                    let json = format!("{{\"call\":{id}}}");
                    format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{json}",
                        json.len()
                    )
                };
                stream.write_all(reply.as_bytes()).await.unwrap();
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
    });
    let calls: Vec<_> = (0..CALLS)
        .map(|id| {
            tokio::spawn(async move {
                let body = format!(
                    r#"{{"model":"same-model","stream":{},"metadata":{{"call":{id}}}}}"#,
                    id % 2 == 1
                );
                let request = post("/up/chat/completions")
                    .body(Full::new(Bytes::from(body)))
                    .unwrap();
                let (response, _connection) = send(proxy, request).await;
                response.into_body().collect().await.unwrap();
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap();
    }
    server.await.unwrap();
    let start = Instant::now();
    while log.lines().len() < CALLS {
        assert!(start.elapsed() < PATIENCE, "{:?}", log.lines());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let lines = log.lines();
    assert!(
        lines.iter().all(|line| line.starts_with("recorded ")),
        "{lines:?}"
    );
    let files = files_under(dir.path());
    let (requests, captures): (Vec<_>, Vec<_>) = files
        .iter()
        .partition(|p| p.to_string_lossy().ends_with(".request.json"));
    assert_eq!(captures.len(), CALLS, "{captures:?}");
    assert_eq!(requests.len(), CALLS);
    for capture in captures {
        let text = std::fs::read_to_string(capture).unwrap();
        let stem = capture.file_stem().unwrap().to_str().unwrap();
        let request = read_json(&capture.with_file_name(format!("{stem}.request.json")));
        let id = request["body"]["metadata"]["call"].as_u64().unwrap();
        assert!(
            text.contains(&format!("{{\"call\":{id}}}")),
            "{} holds {text} beside the request of call {id}",
            capture.display()
        );
    }
}

#[tokio::test]
async fn a_stale_length_beside_chunked_never_truncates_the_body() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, _log) = default_recorder(dir.path(), upstream_addr).await;
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 12\r\ntransfer-encoding: chunked\r\n\r\n")
            .await
            .unwrap();
        write_chunk(&mut stream, JSON_REPLY.as_bytes())
            .await
            .unwrap();
        stream.write_all(b"0\r\n\r\n").await.unwrap();
    });
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from_static(br#"{"model":"m"}"#)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert!(response.headers().get("content-length").is_none());
    let body = tokio::time::timeout(PATIENCE, response.into_body().collect())
        .await
        .unwrap()
        .unwrap()
        .to_bytes();
    assert_eq!(body, JSON_REPLY.as_bytes(), "the whole body, not 12 bytes");
    server.await.unwrap();
    let capture = wait_for_file(dir.path(), "-m.json").await;
    assert_eq!(std::fs::read_to_string(capture).unwrap(), JSON_REPLY);
}

#[tokio::test]
async fn a_request_file_is_about_the_size_of_the_request() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, _log) = default_recorder(dir.path(), upstream_addr).await;
    let messages: Vec<String> = (0..50_000)
        .map(|_| r#"{"role":"user","content":[{"type":"text","text":"x"}]}"#.to_string())
        .collect();
    let body = format!(r#"{{"model":"m","messages":[{}]}}"#, messages.join(","));
    let sent = body.len() as u64;
    let server = tokio::spawn(async move { answer_json(&listener, "200 OK", JSON_REPLY).await });
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    response.into_body().collect().await.unwrap();
    server.await.unwrap();
    let request_file = wait_for_file(dir.path(), ".request.json").await;
    let size = std::fs::metadata(request_file).unwrap().len();
    assert!(size < sent + 2048, "{size} bytes for a {sent}-byte request");
}

#[tokio::test]
async fn the_connect_timeout_covers_a_stalled_tls_handshake() {
    let dir = tempfile::tempdir().unwrap();
    // Accepts the connection, then never answers the TLS ClientHello.
    let (listener, upstream_addr) = upstream().await;
    let holder = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        tokio::time::sleep(Duration::from_secs(60)).await;
        drop(stream);
    });
    let timeouts = Timeouts {
        connect: Duration::from_millis(300),
        idle: Duration::from_secs(30),
    };
    let (recorder, log) = bound(
        dir.path(),
        &format!("up=https://{upstream_addr}/v1"),
        Limits::default(),
        timeouts,
    )
    .await;
    let proxy = recorder.local_addr();
    tokio::spawn(recorder.serve());
    let started = Instant::now();
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from_static(br#"{"model":"m"}"#)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 502);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let line = log.wait_for("cannot reach").await;
    assert!(line.contains("connect timeout"), "{line}");
    holder.abort();
}

#[tokio::test]
async fn a_capture_folder_that_is_a_file_or_a_device_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("captures.txt");
    std::fs::write(&file, "mine").unwrap();
    let cases = [
        Some((file.clone(), "a file")),
        // Unix's devices have paths on the file system; Windows' do not (NUL is no file).
        cfg!(unix).then(|| ("/dev/null".into(), "a character device")),
    ];
    for (to, what) in cases.into_iter().flatten() {
        let settings = jxray_record::ProxySettings {
            listen: "127.0.0.1:0".parse().unwrap(),
            to,
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
            .unwrap()
            .to_string();
        assert!(
            error.contains(&format!("it is {what}, not a folder")),
            "{error}"
        );
        assert!(!error.contains("os error"), "{error}");
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"mine");
}

#[tokio::test]
async fn an_exchange_without_a_body_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let (proxy, log) = default_recorder(dir.path(), upstream_addr).await;
    let server = tokio::spawn(async move {
        let (mut stream, _) = accept(&listener).await;
        stream
            .write_all(b"HTTP/1.1 204 No Content\r\n\r\n")
            .await
            .unwrap();
    });
    let request = http::Request::builder()
        .method("OPTIONS")
        .uri("/up/chat/completions")
        .header("host", "127.0.0.1")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    assert_eq!(response.status(), 204);
    server.await.unwrap();
    let line = log.wait_for("no body").await;
    assert!(line.contains("not recorded"), "{line}");
    assert!(files_under(dir.path()).is_empty());
}

#[tokio::test]
async fn a_parsed_request_body_counts_against_the_shared_budget() {
    let dir = tempfile::tempdir().unwrap();
    let (listener, upstream_addr) = upstream().await;
    let limits = Limits {
        memory_bytes: 96 * 1024,
        ..Limits::default()
    };
    let (proxy, log) = recorder(dir.path(), upstream_addr, limits, Timeouts::default()).await;
    let server = tokio::spawn(async move { answer_json(&listener, "200 OK", JSON_REPLY).await });
    // Its bytes fit the budget; parsed, it would not.
    let content = "c".repeat(30 * 1024);
    let body = format!(r#"{{"model":"m","messages":[{{"role":"user","content":"{content}"}}]}}"#);
    let request = post("/up/chat/completions")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let (response, _connection) = send(proxy, request).await;
    response.into_body().collect().await.unwrap();
    server.await.unwrap();
    let line = log.wait_for("recorded").await;
    assert!(line.contains("parsed request body did not fit"), "{line}");
    let request = read_json(&wait_for_file(dir.path(), ".request.json").await);
    assert_eq!(request["body"], serde_json::Value::Null);
}
