//! Telling a jxray fixture from a capture by its content: a `.json` file whose top-level
//! object has the `jxray_fixture` key is a saved test case, wherever it sits in the tree.

use std::path::Path;

use serde_json::Value;

use super::disk;
use super::recognise::Kind;

/// How much of a file is looked at for the key before it is parsed to be sure.
const PEEK: usize = 4096;

/// Whether the bytes of the file at `path`, read already, are a jxray fixture: a `.json`
/// file whose first kilobytes name the key and whose top-level object has it.
pub(crate) fn is_fixture_text(path: &Path, bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(PEEK)];
    Kind::of(path) == Kind::Json
        && names_the_key(head)
        // Decoded as a capture would be (a byte-order mark, UTF-16); only files that name
        // the key get this far.
        && disk::decode(bytes.to_vec())
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .is_some_and(|value| value.get("jxray_fixture").is_some())
}

fn names_the_key(head: &[u8]) -> bool {
    contains(head, b"\"jxray_fixture\"")
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
        let is_fixture = |name: &str, text: &str| is_fixture_text(Path::new(name), text.as_bytes());
        assert!(is_fixture(
            "case.json",
            "{\"jxray_fixture\": 1, \"name\": \"n\", \"input\": \"\"}"
        ));
        // A model output that mentions the key inside a value is a capture.
        assert!(!is_fixture(
            "out.json",
            "{\"note\": {\"jxray_fixture\": 1}}"
        ));
        assert!(!is_fixture("case.txt", "{\"jxray_fixture\": 1}"));
        assert!(!is_fixture("broken.json", "{\"jxray_fixture\": 1,"));
        // The key must be named in the first kilobytes.
        let late = format!(
            "{{\"pad\": \"{}\", \"jxray_fixture\": 1}}",
            " ".repeat(PEEK)
        );
        assert!(!is_fixture("late.json", &late));
    }
}
