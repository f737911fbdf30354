//! The source of every file read whole: raw text, provider envelopes, JSONL, saved
//! streams and JSON log documents (see [`super::content`]).

use std::path::Path;

use super::content::{self, Kind};
use super::source::{Records, Source};
use super::{read, LoadOptions};

pub struct Files;

impl Source for Files {
    /// Anything: this is the last source tried.
    fn detect(&self, _path: &Path, _head: &[u8]) -> bool {
        true
    }

    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records {
        let text = read::read_file(path, options.max_bytes).and_then(read::decode);
        let captures = match text {
            Ok(text) => content::captures(name, path, text, Kind::of(path), options),
            Err(unreadable) => vec![content::unreadable(name.to_string(), path, unreadable)],
        };
        Box::new(captures.into_iter())
    }
}
