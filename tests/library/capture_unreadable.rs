//! Bad input becomes an unreadable capture naming the cause, never a crash or a skip.

use crate::support;

use std::io::Cursor;

use jxray::capture::{load, load_file, load_reader, LoadOptions, Provider};
use support::capture::{assert_capture, unreadable, write};

#[test]
fn invalid_utf8_names_the_byte_offset() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "latin1.txt", b"{\"city\": \"Z\xfcrich\"}");
    write(dir.path(), "fine.txt", b"{}");
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 2);
    let message = unreadable(&captures[1]);
    assert_eq!(
        message,
        "not UTF-8: byte 0xFC at offset 11 is invalid; re-save the capture as UTF-8"
    );
}

#[test]
fn utf16_with_a_byte_order_mark_is_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = vec![0xFF, 0xFE];
    for unit in "{\"a\": \"é\"}".encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    write(dir.path(), "powershell.txt", &bytes);
    let captures = load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(captures[0].text.as_deref(), Ok("{\"a\": \"é\"}"));
}

#[test]
fn a_file_over_max_bytes_says_its_size_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "big.txt", &vec![b'x'; 3000]);
    write(dir.path(), "small.txt", b"{}");
    let options = LoadOptions {
        max_bytes: 2048,
        ..LoadOptions::default()
    };
    let captures = load(dir.path(), &options).unwrap();
    let message = unreadable(&captures[0]);
    assert_eq!(
        message,
        "too large: 3000 bytes (2.9 KiB) is over the limit of 2048 bytes (2 KiB); \
         raise it with --max-bytes 3000"
    );
    assert_eq!(captures[1].text.as_deref(), Ok("{}"));
}

#[test]
fn a_file_exactly_at_max_bytes_is_read() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "edge.txt", &[b' '; 100]);
    let captures = load(
        dir.path(),
        &LoadOptions {
            max_bytes: 100,
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert!(captures[0].text.is_ok());
}

#[test]
fn a_folder_where_a_file_was_expected_is_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("run.txt")).unwrap();
    let captures = load_file(
        &dir.path().join("run.txt"),
        dir.path(),
        &LoadOptions::default(),
    );
    assert_eq!(captures.len(), 1);
    assert_eq!(captures[0].source, "run.txt");
    assert!(unreadable(&captures[0]).starts_with("is a folder"));
}

#[test]
fn a_file_removed_before_reading_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let captures = load_file(
        &dir.path().join("gone.txt"),
        dir.path(),
        &LoadOptions::default(),
    );
    let message = unreadable(&captures[0]);
    assert!(message.starts_with("cannot read:"), "{message}");
}

#[test]
fn stdin_over_max_bytes_is_unreadable() {
    let captures = load_reader(
        "-",
        Cursor::new(vec![b'a'; 10]),
        &LoadOptions {
            max_bytes: 4,
            ..LoadOptions::default()
        },
    );
    assert_eq!(captures[0].source, "-");
    assert!(unreadable(&captures[0]).contains("--max-bytes"));
}

#[test]
fn stdin_raw_text() {
    let captures = load_reader(
        "-",
        Cursor::new("Sure! {\"a\": 1}"),
        &LoadOptions::default(),
    );
    assert_eq!(captures.len(), 1);
    assert_capture(&captures[0], "Sure! {\"a\": 1}", None, None);
}

#[test]
fn stdin_envelope_and_stream_are_recognised_by_content() {
    let envelope = r#"{"type":"message","role":"assistant","content":[{"type":"text","text":"{}"}],"stop_reason":"end_turn"}"#;
    let captures = load_reader("-", Cursor::new(envelope), &LoadOptions::default());
    assert_capture(
        &captures[0],
        "{}",
        Some(Provider::Anthropic),
        Some("end_turn"),
    );

    let stream = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"[]\"}]},\"finishReason\":\"STOP\"}]}\n\n";
    let captures = load_reader("-", Cursor::new(stream), &LoadOptions::default());
    assert_capture(&captures[0], "[]", Some(Provider::Gemini), Some("STOP"));

    let ndjson = "{\"model\":\"m\",\"created_at\":\"t\",\"response\":\"[\",\"done\":false}\n{\"model\":\"m\",\"created_at\":\"t\",\"response\":\"]\",\"done\":true,\"done_reason\":\"stop\"}\n";
    let captures = load_reader("-", Cursor::new(ndjson), &LoadOptions::default());
    assert_capture(&captures[0], "[]", Some(Provider::Ollama), Some("stop"));
}

#[test]
fn stdin_invalid_utf8() {
    let captures = load_reader(
        "-",
        Cursor::new(b"ab\xff".to_vec()),
        &LoadOptions::default(),
    );
    assert!(unreadable(&captures[0]).contains("offset 2"));
}

#[test]
fn large_folders_load_in_a_deterministic_order() {
    let dir = tempfile::tempdir().unwrap();
    for n in (0..400).rev() {
        let name = format!("batch-{}/run-{n:03}.txt", n % 7);
        write(dir.path(), &name, format!("{{\"n\": {n}}}").as_bytes());
    }
    let first = load(dir.path(), &LoadOptions::default()).unwrap();
    let second = load(dir.path(), &LoadOptions::default()).unwrap();
    let sources: Vec<_> = first.iter().map(|c| c.source.clone()).collect();
    let again: Vec<_> = second.iter().map(|c| c.source.clone()).collect();
    assert_eq!(sources.len(), 400);
    assert_eq!(sources, again);
    let mut sorted = sources.clone();
    sorted.sort();
    assert_eq!(sources, sorted);
}
