//! What a reader of captures is: one kind of file that holds captures, recognised by its
//! first bytes and read as an iterator of captures (so a large log streams). The readers
//! are `llm_logs`, `inspect` and `whole`; [`super::readers`] lists them in the order they
//! are asked.

use std::path::Path;

use super::{Capture, LoadOptions};

/// The captures of one file, in order.
pub(super) type Records = Box<dyn Iterator<Item = Capture> + Send>;

/// A kind of file that holds captures.
pub(super) trait Reader: Sync {
    /// Whether this source reads `path`, whose first bytes are `head` (at most
    /// [`HEAD_BYTES`]; empty when the path is not a regular file).
    fn detect(&self, path: &Path, head: &[u8]) -> bool;

    /// Every capture in the file. `name` is how reports name the file; records are named
    /// `name#ID` (or `name:LINE`). Never fails: what cannot be read becomes an unreadable
    /// capture.
    fn records(&self, path: &Path, name: &str, options: &LoadOptions) -> Records;
}

/// How many leading bytes detection looks at.
pub(super) const HEAD_BYTES: usize = 64;

/// Whether `path`'s extension is `extension` (case-insensitive).
pub(super) fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension()
        .is_some_and(|found| found.eq_ignore_ascii_case(extension))
}
