//! The file contract between `jxray record` and the readers, written and read back: a
//! capture and its request written by the proxy's own writer are found by the walk as one
//! capture, the request file is paired with it, and the writer's temporary and claim
//! names are passed over by the walk and the watcher.

use std::path::Path;

use jxray::capture::{self, capture_beside_request, LoadOptions, Provider, RecordedRequest};
use jxray::watch::{IgnoreRules, TEMP_FILE_PREFIX};
use jxray_record::{CaptureFiles, Folder};

const RESPONSE: &str = r#"{"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o",
 "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"a\": 1}"},
 "finish_reason": "stop"}]}"#;

/// A request file as `jxray record` documents it (crates/jxray-record/src/sidecar.rs).
const REQUEST: &str = r#"{"jxray_request": 1, "method": "POST", "path": "/openai/chat/completions",
 "upstream": "https://api.openai.com/v1/chat/completions", "model": "gpt-4o", "stream": false,
 "status": 200, "body": {"model": "gpt-4o", "messages": [{"role": "user", "content": "Say it"}]}}"#;

fn write_one(root: &Path, stem: &str) -> std::path::PathBuf {
    let folder = Folder::open(root).unwrap();
    let files = CaptureFiles {
        folder: "2026-12-02",
        stem,
        extension: ".json",
        capture: RESPONSE.as_bytes(),
        request: REQUEST.as_bytes(),
    };
    let written = folder.write(&files).unwrap();
    assert!(
        written.request_error.is_none(),
        "{:?}",
        written.request_error
    );
    written.capture
}

#[test]
fn what_record_writes_is_one_capture_with_its_request_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let capture_path = write_one(dir.path(), "10-00-00.000-gpt-4o");
    // What a writer that stopped half way would leave: the contract's hidden names.
    let day = dir.path().join("2026-12-02");
    std::fs::write(day.join(format!("{TEMP_FILE_PREFIX}claim-x")), "").unwrap();
    std::fs::write(day.join(format!("{TEMP_FILE_PREFIX}123")), "{\"half\":").unwrap();

    let captures = capture::load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 1, "{captures:#?}");
    assert_eq!(captures[0].path, capture_path);
    assert_eq!(captures[0].provider, Some(Provider::OpenaiChat));
    assert_eq!(captures[0].text.as_deref(), Ok("{\"a\": 1}"));

    let request = RecordedRequest::beside(&capture_path)
        .expect("a request file beside the capture")
        .unwrap();
    assert_eq!(request.model.as_deref(), Some("gpt-4o"));
    assert_eq!(capture_beside_request(&request.path), Some(capture_path));

    let rules = IgnoreRules::for_tree(dir.path());
    assert!(rules.is_ignored(&day.join(format!("{TEMP_FILE_PREFIX}123"))));
}

#[test]
fn a_second_call_in_the_same_millisecond_gets_its_own_pair() {
    let dir = tempfile::tempdir().unwrap();
    let first = write_one(dir.path(), "10-00-00.000-gpt-4o");
    let second = write_one(dir.path(), "10-00-00.000-gpt-4o");
    assert_ne!(first, second);
    for capture in [&first, &second] {
        let request = RecordedRequest::beside(capture).unwrap().unwrap();
        assert_eq!(
            capture_beside_request(&request.path).as_ref(),
            Some(capture)
        );
    }
    let captures = capture::load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 2);
}
