//! The source of every file read whole: raw text, provider envelopes, JSONL, saved
//! streams and JSON log documents (see [`super::recognise`]).

use std::path::Path;

use super::reader::{Reader, Records};
use super::recognise::{self, Kind};
use super::{disk, Capture, LoadOptions, Unreadable};

pub(super) struct Whole;

impl Reader for Whole {
    /// Anything: this is the last source tried.
    fn detect(&self, _path: &Path, _head: &[u8]) -> bool {
        true
    }

    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records {
        let bytes = disk::read_file(path, options.max_bytes);
        Box::new(captures(path, name, bytes, options).into_iter())
    }
}

/// The captures in a file's bytes (or why it has none).
pub(super) fn captures(
    path: &Path,
    name: &str,
    bytes: Result<Vec<u8>, Unreadable>,
    options: &LoadOptions,
) -> Vec<Capture> {
    match bytes.and_then(disk::decode) {
        Ok(text) => recognise::captures(name, path, text, Kind::of(path), options),
        Err(unreadable) => vec![Capture::unreadable(name.to_string(), path, unreadable)],
    }
}
