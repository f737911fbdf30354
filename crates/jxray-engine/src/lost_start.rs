//! A text that begins inside a value (`name": "Ada"}`): its first tokens were lost, which
//! is a fault of the client or serving layer, not of the model's JSON.

use super::candidate::Rejection;
use super::extract::Extraction;
use super::outcome::*;
use super::scan::{scan_value, ScanEnd};
use super::space::trim_span;

impl Extraction<'_> {
    /// The text begins inside a value (`name": "Ada"}`, `"a": 1, "b": 2}`):
    /// with its lost opening restored, it reads as one whole value.
    pub(super) fn missing_start(&self) -> Option<Rejection> {
        let bytes = self.text.as_bytes();
        let body = if self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let (start, end) = trim_span(bytes, body, bytes.len());
        if start >= end
            || matches!(bytes[start], b'{' | b'[')
            || !matches!(bytes[end - 1], b'}' | b']')
        {
            return None;
        }
        const OPENINGS: [&str; 7] = ["{", "{\"", "[", "[\"", "[{", "[{\"", "{\"_\": \""];
        let rest = &self.text[start..end];
        let restored = OPENINGS.iter().any(|opening| {
            let whole = format!("{opening}{rest}");
            let scan = scan_value(whole.as_bytes(), 0, whole.len(), self.max_depth, None);
            scan.end == ScanEnd::Complete { end: whole.len() }
                && has_own_separator(whole.as_bytes(), opening.len())
        });
        restored.then(|| Rejection::shaped(Defect::MissingStart, start, end, start, start))
    }
}

/// Whether the valid JSON `whole` has a member's `:` or an item's `,` at or after `from`
/// (outside strings): a text that restores to a value only through the opening put before
/// it (`Here is my reply." }` as `{"_": "Here is my reply." }`) is prose and a lone closer,
/// not a value whose first tokens were lost.
fn has_own_separator(whole: &[u8], from: usize) -> bool {
    let (mut in_string, mut escaped) = (false, false);
    for (at, &byte) in whole.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if byte == b'"' {
            in_string = true;
        } else if at >= from && matches!(byte, b':' | b',') {
            return true;
        }
    }
    false
}
