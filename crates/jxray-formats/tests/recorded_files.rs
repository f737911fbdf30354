//! The capture folder's files, pinned byte for byte (golden files in
//! `tests/snapshots/recorded/`, which the Python and npm tests compare with too): a repair
//! chain's attempts made from `attempts.json`, and a request file `jxray record` writes.
//! `JXRAY_WRITE_GOLDEN=1 cargo test -p jxray-formats --test recorded_files` rewrites them.

use std::path::{Path, PathBuf};

use jxray_formats::recorded::request::{ArrivalPoints, Marker, Stopped};
use jxray_formats::recorded::{
    attempt_files, capture_stem, request_file_name, AttemptRecord, ChainLink, LocalTime,
    ProxiedRequest, RequestFile,
};
use serde_json::{json, Value};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/recorded")
}

/// `bytes` is what the golden file `name` holds (or becomes, when rewriting).
fn assert_golden(name: &str, bytes: &[u8]) {
    let path = golden_dir().join(name);
    if std::env::var_os("JXRAY_WRITE_GOLDEN").is_some() {
        std::fs::write(&path, bytes).unwrap();
    }
    let golden = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        golden == bytes,
        "{name} differs from its golden file:\n{}",
        String::from_utf8_lossy(bytes)
    );
}

#[test]
fn a_chains_attempts_are_the_golden_files() {
    let input = std::fs::read(golden_dir().join("attempts.json")).unwrap();
    let records: Vec<AttemptRecord> = serde_json::from_slice(&input).unwrap();
    let mut names = Vec::new();
    for record in &records {
        let stem = record.stem();
        for (ending, bytes) in attempt_files(record) {
            assert_golden(&format!("{stem}{ending}"), &bytes);
            names.push(format!("{stem}{ending}"));
        }
    }
    assert_eq!(
        names,
        [
            "07-50-01.123-openai-gpt-4o-mini-latest-1a2b3c4d-a1.jsonl",
            "07-50-01.123-openai-gpt-4o-mini-latest-1a2b3c4d-a1.request.json",
            "07-50-02.301-repair-1a2b3c4d-a2.jsonl",
            "07-50-02.301-repair-1a2b3c4d-a2.request.json",
        ]
    );
}

#[test]
fn a_written_request_file_reads_back_with_its_link() {
    let input = std::fs::read(golden_dir().join("attempts.json")).unwrap();
    let records: Vec<AttemptRecord> = serde_json::from_slice(&input).unwrap();
    let (_, request) = attempt_files(&records[1]).remove(1);
    let read: RequestFile<Value> = RequestFile::from_slice(&request, "a2").unwrap();
    assert_eq!(read.source.as_deref(), Some("jxray.repair (python)"));
    assert_eq!(
        read.chain,
        Some(ChainLink {
            id: "1a2b3c4d5e6f7a8b".into(),
            attempt: 2,
            re_ask_of: records[1].re_ask_of.clone(),
        })
    );
}

#[test]
fn a_recorded_request_file_is_the_golden_file() {
    let started = LocalTime {
        year: 2026,
        month: 12,
        day: 1,
        hour: 14,
        minute: 3,
        second: 22,
        millisecond: 118,
        offset_minutes: 60,
    };
    let headers = json!({"content-type": "application/json"});
    let request = ProxiedRequest {
        jxray_request: Marker,
        method: "POST".into(),
        path: "/openai/chat/completions".into(),
        upstream: "https://api.openai.com/v1/chat/completions".into(),
        model: Some("gpt-4o-mini".into()),
        stream: true,
        started: started.iso(),
        duration_ms: 812,
        status: 200,
        response_content_type: Some("text/event-stream".into()),
        response_note: None,
        arrival: Some(ArrivalPoints {
            ms: vec![310, 812],
            bytes: vec![120, 2048],
        }),
        stopped: Some(Stopped {
            by: "jxray",
            signal: "runaway".into(),
            byte: 1900,
            message: "the same line 40 times".into(),
        }),
        headers: headers.as_object().unwrap().clone(),
        chain: Some(ChainLink {
            id: "5f1c0a7e93d2b864".into(),
            attempt: 2,
            re_ask_of: Some("2026-12-01/14-03-20.001-gpt-4o-mini.json".into()),
        }),
        body: json!({"model": "gpt-4o-mini", "stream": true,
            "messages": [{"role": "user", "content": "Give the city as JSON."}]}),
        body_note: None,
    };
    let stem = capture_stem(&started, request.model.as_deref(), request.status);
    let mut bytes = serde_json::to_vec(&request).unwrap();
    bytes.push(b'\n');
    assert_golden(&request_file_name(&stem), &bytes);
}
