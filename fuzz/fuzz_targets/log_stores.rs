//! Any bytes as a log store read record by record — an `llm` logs.db (SQLite), an Inspect
//! `.eval` (zip) — or as a JSON log document (promptfoo results, nested as deep as it
//! likes), with a small `--max-bytes`: never a panic or a stack overflow, every file gives
//! a capture, and no capture's text is over the limit, whatever the file says of its own
//! sizes (a record that is larger is that record's failure).
#![no_main]

use jxray::capture::{load_file, LoadOptions};
use jxray::engine::Options;
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 3] = ["logs.db", "log.eval", "results.json"];

/// Small, so that the limits are met often.
const MAX_BYTES: u64 = 4096;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let name = NAMES[usize::from(pick) % NAMES.len()];
    let path = dir.path().join(name);
    std::fs::write(&path, rest).expect("the file is written");
    let options = LoadOptions {
        max_bytes: MAX_BYTES,
        ..LoadOptions::default()
    };
    let captures = load_file(&path, dir.path(), &options);
    // A file read whole may be UTF-16, whose text in UTF-8 is up to half again as long.
    let most = match name {
        "results.json" => MAX_BYTES * 3 / 2,
        _ => MAX_BYTES,
    };
    assert!(!captures.is_empty(), "a file always gives at least one capture");
    for capture in &captures {
        match &capture.text {
            Ok(text) => assert!(text.len() as u64 <= most, "a text over --max-bytes"),
            Err(unreadable) => assert!(!unreadable.message.is_empty()),
        }
        let outcome = capture.extract(&Options::default());
        assert_eq!(outcome.ok(), outcome.failure.is_none());
    }
    // Reading the log leaves nothing beside it.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "a file was left beside the log");
});
