//! Where captures come from: one reader per kind of file, behind one small interface.
//!
//! A source recognises its files by their first bytes (the name is only a hint) and reads
//! a file as an iterator of captures, so a caller can stream a large log without holding it
//! whole. The folder walk only yields paths; which source reads a path is decided here.
//!
//! - `llm_logs`: the `llm` CLI's `logs.db` (SQLite);
//! - `inspect`: Inspect AI `.eval` logs (zip);
//! - `files`: every other file, read whole: raw text, provider envelopes, JSONL, saved
//!   streams, and the JSON log documents recognised by content (promptfoo results, Inspect
//!   `.json` logs, field-mapped logs).

use std::fs;
use std::io::Read;
use std::path::Path;

use super::{files, inspect, llm_logs, Capture, LoadOptions};

/// The captures of one file, in order.
pub type Records = Box<dyn Iterator<Item = Capture> + Send>;

/// A kind of file that holds captures.
pub trait Source: Sync {
    /// Whether this source reads `path`, whose first bytes are `head` (at most
    /// [`HEAD_BYTES`]; empty when the path is not a regular file).
    fn detect(&self, path: &Path, head: &[u8]) -> bool;

    /// Every capture in the file. `name` is how reports name the file; records are named
    /// `name#ID` (or `name:LINE`). Never fails: what cannot be read becomes an unreadable
    /// capture.
    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records;
}

/// How many leading bytes detection looks at.
pub const HEAD_BYTES: usize = 64;

/// Every source, most specific first; the last reads anything.
const SOURCES: [&dyn Source; 3] = [&llm_logs::LlmLogs, &inspect::InspectEval, &files::Files];

/// The captures of `path`, reported as `name`, read by the first source that claims it.
pub fn records(path: &Path, name: &str, options: &LoadOptions) -> Records {
    let head = head(path);
    let source = SOURCES
        .iter()
        .find(|source| source.detect(path, &head))
        .unwrap_or(&SOURCES[SOURCES.len() - 1]);
    source.records(path, name, options)
}

/// The first bytes of a regular file; nothing for anything else (a FIFO is never opened
/// here, and a file that cannot be read is left for its reader to report).
fn head(path: &Path) -> Vec<u8> {
    if !fs::metadata(path).is_ok_and(|metadata| metadata.is_file()) {
        return Vec::new();
    }
    let mut head = Vec::with_capacity(HEAD_BYTES);
    if let Ok(file) = fs::File::open(path) {
        // A short or failed read leaves a short head; the reader reports real errors.
        let _ = file.take(HEAD_BYTES as u64).read_to_end(&mut head);
    }
    head
}

/// Whether `path`'s extension is `extension` (case-insensitive).
pub fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension()
        .is_some_and(|found| found.eq_ignore_ascii_case(extension))
}
