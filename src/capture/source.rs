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

use super::{files, inspect, llm_logs, read, Capture, LoadOptions};

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
    SOURCES[source_of(path, &head(path).0)].records(path, name, options)
}

/// The size of `path` when it is read whole, by [`read_whole`]; `None` for a log whose
/// reader streams its records (read it with [`records`]).
pub fn whole_file_size(path: &Path) -> Option<u64> {
    if !may_stream(path) {
        // Only its size is needed here; what it holds is decided as it is read.
        return Some(fs::metadata(path).map_or(0, |metadata| metadata.len()));
    }
    let (head, size) = head(path);
    (source_of(path, &head) == WHOLE).then_some(size)
}

/// Whether the name allows a log whose reader streams its records (`.db`, `.eval`, no
/// extension); the other capture names are read whole. The name decides only where the
/// records are held (streamed here, or collected by a worker), never which reader reads
/// the file: that is still its first bytes.
fn may_stream(path: &Path) -> bool {
    const READ_WHOLE: [&str; 8] = ["txt", "text", "md", "markdown", "out", "log", "json", "sse"];
    !READ_WHOLE
        .iter()
        .any(|extension| has_extension(path, extension))
}

/// The captures of a file that [`whole_file_size`] said is read whole: opened once, and
/// its first bytes still say which source reads it (a database named `.json` is read by
/// its own reader, its records collected).
pub fn read_whole(path: &Path, name: &str, options: &LoadOptions) -> Vec<Capture> {
    let mut source = WHOLE;
    let bytes = read::read_file_unless(path, options.max_bytes, HEAD_BYTES, |head| {
        source = source_of(path, head);
        source != WHOLE
    });
    match bytes {
        Some(bytes) => files::captures(path, name, bytes, options),
        None => SOURCES[source].records(path, name, options).collect(),
    }
}

/// Where in [`SOURCES`] the source that reads every file no other claims is.
const WHOLE: usize = SOURCES.len() - 1;

/// Where in [`SOURCES`] the source that reads `path` is.
fn source_of(path: &Path, head: &[u8]) -> usize {
    SOURCES
        .iter()
        .position(|source| source.detect(path, head))
        .unwrap_or(WHOLE)
}

/// The first bytes of a regular file, and its size; nothing for anything else (a FIFO is
/// never opened here, and a file that cannot be read is left for its reader to report).
fn head(path: &Path) -> (Vec<u8>, u64) {
    let Ok(metadata) = fs::metadata(path) else {
        return (Vec::new(), 0);
    };
    if !metadata.is_file() {
        return (Vec::new(), 0);
    }
    let mut head = Vec::with_capacity(HEAD_BYTES);
    if let Ok(file) = fs::File::open(path) {
        // A short or failed read leaves a short head; the reader reports real errors.
        let _ = file.take(HEAD_BYTES as u64).read_to_end(&mut head);
    }
    (head, metadata.len())
}

/// Whether `path`'s extension is `extension` (case-insensitive).
pub fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension()
        .is_some_and(|found| found.eq_ignore_ascii_case(extension))
}
