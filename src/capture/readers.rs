//! The registry of readers, in one place: which reader reads a file (its first bytes
//! decide; the name only says whether its records are streamed or collected), and the
//! entry points that ask them.

use std::fs;
use std::io::Read;
use std::path::Path;

use super::fixture_file::is_fixture_text;
use super::reader::{has_extension, Reader, Records, HEAD_BYTES};
use super::{disk, inspect, llm_logs, whole, Capture, LoadOptions};

/// Every reader, most specific first; the last reads anything.
const READERS: [&dyn Reader; 3] = [&llm_logs::LlmLogs, &inspect::InspectEval, &whole::Whole];

/// The captures of `path`, reported as `name`, read by the first reader that claims it.
pub(super) fn records(path: &Path, name: &str, options: &LoadOptions) -> Records {
    READERS[reader_of(path, &head(path).0)].records(path, name, options)
}

/// The size of `path` when it is read whole, by [`read_whole`]; `None` for a log whose
/// reader streams its records (read it with [`records`]).
pub(super) fn whole_file_size(path: &Path) -> Option<u64> {
    if !may_stream(path) {
        // Only its size is needed here; what it holds is decided as it is read.
        return Some(fs::metadata(path).map_or(0, |metadata| metadata.len()));
    }
    let (head, size) = head(path);
    (reader_of(path, &head) == WHOLE).then_some(size)
}

/// Whether `path` is read whole by its name alone: one job, checked by one worker.
pub(crate) fn read_whole_by_name(path: &Path) -> bool {
    !may_stream(path)
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
/// its first bytes still say which reader reads it (a database named `.json` is read by
/// its own reader, its records collected). `None` when it is a jxray fixture, known by its
/// content from the bytes read anyway: `check` passes over fixtures without a second read.
pub(super) fn read_whole(path: &Path, name: &str, options: &LoadOptions) -> Option<Vec<Capture>> {
    let mut reader = WHOLE;
    let bytes = disk::read_file_unless(path, options.max_bytes, HEAD_BYTES, |head| {
        reader = reader_of(path, head);
        reader != WHOLE
    });
    Some(match bytes {
        Some(Ok(bytes)) if is_fixture_text(path, &bytes) => return None,
        Some(bytes) => whole::captures(path, name, bytes, options),
        None => READERS[reader].records(path, name, options).collect(),
    })
}

/// Where in [`READERS`] the reader that reads every file no other claims is.
const WHOLE: usize = READERS.len() - 1;

/// Where in [`READERS`] the reader that reads `path` is.
fn reader_of(path: &Path, head: &[u8]) -> usize {
    READERS
        .iter()
        .position(|reader| reader.detect(path, head))
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
