//! Any bytes as a capture file of every kind jxray reads — raw text, a provider envelope
//! (`.json`), JSON Lines, a saved SSE stream, standard input — then extracted: never a
//! panic, every capture has a source, and an unreadable one says why.
#![no_main]

use std::path::Path;

use jxray::capture::{load_bytes, load_reader, LoadOptions};
use jxray::engine::Options;
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 5] = ["a.txt", "a.json", "a.jsonl", "a.sse", "a.ndjson"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let options = LoadOptions::default();
    let captures = if usize::from(pick) < NAMES.len() {
        let name = NAMES[usize::from(pick)];
        load_bytes(name, Path::new(name), rest.to_vec(), &options)
    } else {
        load_reader("-", rest, &options)
    };
    assert!(!captures.is_empty(), "a file always gives at least one capture");
    for capture in &captures {
        assert!(!capture.source.is_empty());
        if let Err(unreadable) = &capture.text {
            assert!(!unreadable.message.is_empty());
        }
        let outcome = capture.extract(&Options::default());
        assert_eq!(outcome.ok(), outcome.failure.is_none());
    }
});
