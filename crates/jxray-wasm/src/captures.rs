//! The repair loop's captures for a JavaScript `repair` (npm/src/captures.js): an attempt's
//! stem and files ([`jxray_formats::recorded::attempt_files`]) and the next candidate stem
//! when a name is taken ([`jxray_formats::recorded::place`]), so npm writes the bytes and
//! names Python's loop and `jxray record` write. The host does only the file I/O (wasm has
//! no file system).

use jxray_formats::recorded::place::candidate;
use jxray_formats::recorded::{attempt_files, AttemptRecord};
use serde::{Deserialize, Serialize};

/// An attempt's files, as the host writes them.
#[derive(Serialize)]
struct Files {
    /// The date folder, `YYYY-MM-DD`.
    day: String,
    /// The first candidate stem.
    stem: String,
    /// `[name ending, text]`, in the order they are placed.
    files: Vec<(&'static str, String)>,
}

/// The files of the attempt `record` (an `AttemptRecord` as JSON).
pub fn files(record: &str) -> Result<Vec<u8>, String> {
    let record: AttemptRecord = serde_json::from_str(record)
        .map_err(|error| format!("jxray: not an attempt record: {error}"))?;
    let files = attempt_files(&record)
        .into_iter()
        .map(|(ending, bytes)| {
            let text = String::from_utf8(bytes).expect("JSON is UTF-8");
            (ending, text)
        })
        .collect();
    let reply = Files {
        day: record.started.day_folder(),
        stem: record.stem(),
        files,
    };
    serde_json::to_vec(&reply).map_err(|error| error.to_string())
}

/// Which candidate is asked for.
#[derive(Deserialize)]
struct Asked {
    stem: String,
    number: usize,
}

/// The `number`th candidate stem for `stem` (`{"stem", "number"}`), or `null` past the
/// give-up limit.
pub fn next_stem(asked: &str) -> Result<Vec<u8>, String> {
    let asked: Asked = serde_json::from_str(asked).map_err(|error| error.to_string())?;
    serde_json::to_vec(&candidate(&asked.stem, asked.number)).map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_stem_moves_on_until_the_limit() {
        assert_eq!(
            next_stem(r#"{"stem":"s","number":2}"#).unwrap(),
            br#""s-2""#
        );
        assert_eq!(
            next_stem(r#"{"stem":"s","number":10001}"#).unwrap(),
            b"null"
        );
        assert!(files("{}")
            .unwrap_err()
            .starts_with("jxray: not an attempt record"));
    }
}
