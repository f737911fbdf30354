//! Telling a jxray fixture from a capture by its content: a `.json` file whose top-level
//! object has the `jxray_fixture` key is a saved test case, wherever it sits in the tree.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use super::disk;
use super::recognise::Kind;

/// How much of a file is looked at before it is read whole to be sure.
const PEEK: u64 = 4096;

/// Whether `path` is a jxray fixture. Only `.json` files whose first few kilobytes name
/// the key are read whole; a file that cannot be read is not a fixture (it becomes an
/// `unreadable` capture, as any other).
pub(crate) fn is_fixture_file(path: &Path, max_bytes: u64) -> bool {
    if Kind::of(path) != Kind::Json {
        return false;
    }
    let Ok((file, _)) = disk::open_regular(path, max_bytes, &disk::max_bytes_fix) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(PEEK).read_to_end(&mut head).is_err() {
        return false;
    }
    if !contains(&head, b"\"jxray_fixture\"") {
        return false;
    }
    let Ok(text) = disk::read_regular_text(path, max_bytes, &disk::max_bytes_fix) else {
        return false;
    };
    serde_json::from_str::<Value>(&text)
        .ok()
        .is_some_and(|value| value.get("jxray_fixture").is_some())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixture_is_known_by_its_key_not_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let fixture = write(
            "case.json",
            "{\"jxray_fixture\": 1, \"name\": \"n\", \"input\": \"\"}",
        );
        assert!(is_fixture_file(&fixture, u64::MAX));
        // A model output that mentions the key inside a value is a capture.
        let output = write("out.json", "{\"note\": {\"jxray_fixture\": 1}}");
        assert!(!is_fixture_file(&output, u64::MAX));
        let text = write("case.txt", "{\"jxray_fixture\": 1}");
        assert!(!is_fixture_file(&text, u64::MAX));
        let broken = write("broken.json", "{\"jxray_fixture\": 1,");
        assert!(!is_fixture_file(&broken, u64::MAX));
    }
}
