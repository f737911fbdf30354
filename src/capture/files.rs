//! The source of every file read whole: raw text, provider envelopes, JSONL, saved
//! streams and JSON log documents (see [`super::content`]).

use std::path::Path;

use super::content::{self, Kind};
use super::source::{Records, Source};
use super::{read, Capture, LoadOptions, Unreadable};

pub struct Files;

impl Source for Files {
    /// Anything: this is the last source tried.
    fn detect(&self, _path: &Path, _head: &[u8]) -> bool {
        true
    }

    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records {
        let bytes = read::read_file(path, options.max_bytes);
        Box::new(captures(path, name, bytes, options).into_iter())
    }
}

/// The captures in a file's bytes (or why it has none).
pub fn captures(
    path: &Path,
    name: &str,
    bytes: Result<Vec<u8>, Unreadable>,
    options: &LoadOptions,
) -> Vec<Capture> {
    match bytes.and_then(read::decode) {
        Ok(text) => content::captures(name, path, text, Kind::of(path), options),
        Err(unreadable) => vec![content::unreadable(name.to_string(), path, unreadable)],
    }
}
