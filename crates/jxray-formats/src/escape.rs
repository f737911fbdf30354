//! Text from outside (captures, file names, JSON keys, schema paths) made safe to print:
//! nothing jxray writes may act on a terminal (contract §3). A terminal obeys control
//! characters (`ESC ] 0 ;` sets its title, OSC 52 writes the clipboard, C1 forms do the same
//! in one character) and bidi controls reorder what a reviewer reads; every front end (the
//! CLI's lines, the Python and JavaScript packages' error messages) escapes them here.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Bidi controls: marks, embeddings, overrides and isolates, which reorder text around them.
pub fn is_bidi_control(ch: char) -> bool {
    matches!(ch,
        '\u{061c}'                   // Arabic letter mark
        | '\u{200e}' | '\u{200f}'    // left-to-right and right-to-left marks
        | '\u{202a}'..='\u{202e}'    // embeddings and overrides
        | '\u{2066}'..='\u{2069}'    // isolates
    )
}

/// Characters that must never reach a terminal as themselves: C0 controls, DEL, C1
/// controls, bidi controls, the Unicode line and paragraph separators, and the
/// non-characters U+FFFE and U+FFFF (which XML reports cannot hold).
pub fn is_unsafe(ch: char) -> bool {
    ch.is_control()
        || is_bidi_control(ch)
        || matches!(ch, '\u{2028}' | '\u{2029}' | '\u{fffe}' | '\u{ffff}')
}

/// `text` as one safe line: every unsafe character (newlines included) written as an
/// escape, `\n`, `\r`, `\t` or `\u{1b}`. Text without any comes back borrowed.
pub fn escape_line(text: &str) -> Cow<'_, str> {
    escape_where(text, is_unsafe)
}

/// `text` safe to print over several lines: like [`escape_line`] but newlines and tabs
/// are kept as they are.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    escape_where(text, |ch| ch != '\n' && ch != '\t' && is_unsafe(ch))
}

fn escape_where(text: &str, unsafe_here: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&unsafe_here) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for ch in text.chars() {
        if !unsafe_here(ch) {
            out.push(ch);
            continue;
        }
        match ch {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", ch as u32);
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_escapes_every_control_and_bidi_character() {
        let hostile = "a\x1b]0;title\x07b\u{9b}31m\u{9d}\u{90}\u{202e}\nc\td\x7f";
        assert_eq!(
            escape_line(hostile),
            "a\\u{1b}]0;title\\u{7}b\\u{9b}31m\\u{9d}\\u{90}\\u{202e}\\nc\\td\\u{7f}"
        );
        assert!(matches!(escape_line("héllo 東京"), Cow::Borrowed(_)));
    }

    #[test]
    fn multi_line_text_keeps_newlines_and_tabs() {
        assert_eq!(escape_lines("a\n\tb\x1b[2J\r"), "a\n\tb\\u{1b}[2J\\r");
    }
}
