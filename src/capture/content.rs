//! Deciding what a file's text is: raw output, an envelope, lines, or a stream.

use std::path::Path;

use super::Capture;

/// The captures in `text`, read from `path` and reported as `source`.
pub fn captures(source: &str, path: &Path, text: &str) -> Vec<Capture> {
    let mut capture = Capture::from_text(source, text);
    capture.path = path.to_path_buf();
    vec![capture]
}
