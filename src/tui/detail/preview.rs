//! What a big capture's panes show while they are built in the background:
//! the head of the raw text at once, and a note in the other two panes.

use crate::capture::Capture;
use crate::engine::Outcome;
use crate::tui::doc::{note, Doc, Paint, Styled};

use super::{floor_char_boundary, raw};

/// Raw text shown before the panes are built: a few screens, cheap to wrap.
const HEAD: usize = 64 * 1024;

/// Raw, normalized and decoded, in pane order, for a capture whose panes are being built.
pub(crate) fn docs(capture: &Capture, outcome: &Outcome) -> [Doc; 3] {
    let raw = capture.text.as_deref().unwrap_or("");
    let size = size(raw.len());
    let head = &raw[..floor_char_boundary(raw, HEAD)];
    let marks = outcome
        .span
        .map(|(start, end)| Styled {
            start,
            end,
            paint: Paint::Accepted,
        })
        .into_iter()
        .collect();
    let title = format!("first {} of {size}", self::size(head.len()));
    let building = format!(
        "building the panes of this {size} capture in the background; \
         keys keep working, and the panes appear when they are ready"
    );
    [
        raw::numbered(head, 0, 1, outcome.span, marks, &title),
        note("building…", &building),
        note("building…", &building),
    ]
}

/// "20.0 MB", "64 KB": a size for a title.
fn size(bytes: usize) -> String {
    const KB: f64 = 1024.0;
    let bytes = bytes as f64;
    if bytes >= KB * KB {
        format!("{:.1} MB", bytes / KB / KB)
    } else {
        format!("{:.0} KB", bytes / KB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preview_shows_only_the_head_of_the_raw_text() {
        let text = "é\n".repeat(HEAD);
        let capture = Capture::from_text("big.txt", text.clone());
        let [raw, normalized, decoded] = docs(&capture, &Outcome::default());
        assert!(raw.text.len() <= HEAD && raw.text.len() > HEAD - 4);
        assert!(text.starts_with(&*raw.text));
        assert_eq!(raw.title, "first 64 KB of 192 KB");
        assert!(normalized
            .text
            .contains("building the panes of this 192 KB capture"));
        assert_eq!(decoded.text, normalized.text);
        assert_eq!(size(20 * 1024 * 1024 + 600 * 1024), "20.6 MB");
    }
}
