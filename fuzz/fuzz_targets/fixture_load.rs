//! Any text as a fixture file: parsed or refused with an error naming the file, never a
//! panic; a parsed fixture replays, prints its diff, and survives a save and a re-read
//! unchanged.
#![no_main]

use std::path::Path;

use jxray::fixture::{parse, replay};
use jxray::report::{write_mismatch, Painter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.json");
    let fixture = match parse(path, text) {
        Ok(fixture) => fixture,
        Err(error) => {
            assert!(error.to_string().starts_with("fuzz.json: "), "{error}");
            return;
        }
    };
    let replayed = replay(&fixture);
    let mut out = Vec::new();
    write_mismatch(&mut out, &fixture, &replayed, Painter::plain()).unwrap();
    let printed = String::from_utf8(out).unwrap();
    assert!(!printed.contains('\u{1b}'), "nothing printed acts on a terminal");
    let again = parse(path, &fixture.to_file_text()).expect("a saved fixture reads back");
    assert_eq!(again, fixture);
});
