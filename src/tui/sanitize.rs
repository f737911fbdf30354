//! Text that tells the truth: every character drawn as something visible.
//!
//! A terminal (and ratatui) silently drops control characters, so a raw TAB,
//! CR or ESC would vanish from the screen and the raw pane would lie about the
//! bytes. Here every character maps to a glyph with a known width: tabs are
//! drawn as `␉` and expanded, control characters as their control pictures
//! (`␍`, `␛`, …), and a BOM or zero-width character as a named marker.

use unicode_width::UnicodeWidthChar;

/// Columns between tab stops.
pub(crate) const TAB_WIDTH: usize = 4;

/// How one character is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Glyph {
    /// The character itself, `width` columns wide (0 for combining marks).
    Plain(char, usize),
    /// A stand-in for an invisible character: drawn as `text`, styled as a marker.
    Marker(&'static str),
    /// A stand-in built from the character's code point: `⟨U+200B⟩`.
    CodePoint(char),
    /// A tab: `␉` followed by spaces up to the next tab stop, `width` columns in all.
    Tab(usize),
}

impl Glyph {
    /// Columns the glyph takes.
    pub(crate) fn width(self) -> usize {
        match self {
            Glyph::Plain(_, width) | Glyph::Tab(width) => width,
            Glyph::Marker(text) => text.chars().count(),
            Glyph::CodePoint(ch) => code_point_label(ch).chars().count(),
        }
    }

    /// Whether the glyph stands for something invisible (drawn in the marker style).
    pub(crate) fn is_marker(self) -> bool {
        !matches!(self, Glyph::Plain(..))
    }

    /// Append the glyph's text to `out`.
    pub(crate) fn push_to(self, out: &mut String) {
        match self {
            Glyph::Plain(ch, _) => out.push(ch),
            Glyph::Marker(text) => out.push_str(text),
            Glyph::CodePoint(ch) => out.push_str(&code_point_label(ch)),
            Glyph::Tab(width) => {
                out.push('␉');
                for _ in 1..width {
                    out.push(' ');
                }
            }
        }
    }
}

/// How `ch` is drawn when it starts at display column `column` (for tab stops).
pub(crate) fn glyph(ch: char, column: usize) -> Glyph {
    match ch {
        '\t' => Glyph::Tab(TAB_WIDTH - column % TAB_WIDTH),
        '\u{feff}' => Glyph::Marker("⟨BOM⟩"),
        '\u{7f}' => Glyph::Marker("␡"),
        c if (c as u32) < 0x20 => Glyph::Marker(CONTROL_PICTURES[c as usize]),
        c if is_invisible(c) => Glyph::CodePoint(c),
        c => Glyph::Plain(c, c.width().unwrap_or(0)),
    }
}

/// Characters that draw nothing (or reorder text) and so must be named: everything the
/// command line escapes (C1, bidi and line separators, decided in one place), and the
/// zero-width characters the screen would hide.
fn is_invisible(ch: char) -> bool {
    crate::text::is_unsafe(ch)
        || matches!(ch,
            '\u{ad}'                   // soft hyphen
            | '\u{180e}'               // Mongolian vowel separator
            | '\u{200b}'..='\u{200d}'  // zero-width space and joiners
            | '\u{2060}'..='\u{2064}'  // word joiner, invisible operators
        )
}

fn code_point_label(ch: char) -> String {
    format!("⟨U+{:04X}⟩", ch as u32)
}

/// Unicode control pictures for U+0000..U+001F.
const CONTROL_PICTURES: [&str; 32] = [
    "␀", "␁", "␂", "␃", "␄", "␅", "␆", "␇", "␈", "␉", "␊", "␋", "␌", "␍", "␎", "␏", "␐", "␑", "␒",
    "␓", "␔", "␕", "␖", "␗", "␘", "␙", "␚", "␛", "␜", "␝", "␞", "␟",
];

/// Display width of `text` drawn from column 0 (tabs expanded).
pub(crate) fn display_width(text: &str) -> usize {
    let mut column = 0;
    for ch in text.chars() {
        column += glyph(ch, column).width();
    }
    column
}

/// `text` made printable: what a one-line label (a source, a message) should show.
pub(crate) fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut column = 0;
    for ch in text.chars() {
        let glyph = glyph(ch, column);
        column += glyph.width();
        glyph.push_to(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_pictures() {
        assert_eq!(printable("a\rb\x1b[31m\x00\x7f"), "a␍b␛[31m␀␡");
    }

    #[test]
    fn tabs_expand_to_the_next_stop() {
        assert_eq!(printable("\tx"), "␉   x");
        assert_eq!(printable("ab\tx"), "ab␉ x");
        assert_eq!(printable("abc\tx"), "abc␉x");
        assert_eq!(display_width("abc\tx"), 5);
    }

    #[test]
    fn invisible_characters_are_named() {
        assert_eq!(printable("\u{feff}{}"), "⟨BOM⟩{}");
        assert_eq!(printable("a\u{200b}b"), "a⟨U+200B⟩b");
        assert_eq!(printable("\u{202e}x"), "⟨U+202E⟩x");
        assert_eq!(display_width("\u{200b}"), 8);
    }

    #[test]
    fn ordinary_text_is_unchanged_and_wide_characters_count_twice() {
        assert_eq!(printable("héllo 東京"), "héllo 東京");
        assert_eq!(display_width("東京"), 4);
        assert!(!glyph('x', 0).is_marker());
        assert!(glyph('\r', 0).is_marker());
    }
}
