//! Text into HTML that stays text: markup characters as entities, and every character a
//! terminal report escapes (controls, bidi controls, line separators) written visibly as
//! `\u{202e}`, so model output can never become markup, script or reordered text.

use std::fmt::Write as _;

use crate::text::is_unsafe;

/// `text` escaped for an element's content or a quoted attribute; newlines and tabs kept
/// when `lines` (a `<pre>` block), else written as `\n`.
pub(super) fn push_escaped(out: &mut String, text: &str, lines: bool) {
    for ch in text.chars() {
        if let Some(entity) = entity(ch) {
            out.push_str(entity);
            continue;
        }
        match ch {
            '\n' | '\t' if lines => out.push(ch),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ch if is_unsafe(ch) => {
                let _ = write!(out, "<span class=\"esc\">\\u{{{:x}}}</span>", ch as u32);
            }
            ch => out.push(ch),
        }
    }
}

/// [`push_escaped`] on one line, returned.
pub(super) fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text, false);
    out
}

/// `text` for a quoted attribute value: entities only (an escape marker is markup, which
/// an attribute cannot hold), unsafe characters as `\u{…}` text.
pub(super) fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if let Some(entity) = entity(ch) {
            out.push_str(entity);
            continue;
        }
        match ch {
            ch if is_unsafe(ch) => {
                let _ = write!(out, "\\u{{{:x}}}", ch as u32);
            }
            ch => out.push(ch),
        }
    }
    out
}

/// The entity for a character that is markup in content and in quoted attributes.
fn entity(ch: char) -> Option<&'static str> {
    match ch {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_script_and_bidi_stay_text() {
        let hostile = "</script><img src=x onerror=alert(1)>\u{202e}'\"&";
        let text = escaped(hostile);
        assert_eq!(
            text,
            "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;\
             <span class=\"esc\">\\u{202e}</span>&#39;&quot;&amp;"
        );
        assert_eq!(
            attribute(hostile),
            "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;\\u{202e}&#39;&quot;&amp;"
        );
        let mut block = String::new();
        push_escaped(&mut block, "a\n\tb\r", true);
        assert_eq!(block, "a\n\tb\\r");
    }
}
