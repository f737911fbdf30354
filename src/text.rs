//! Text from outside (captures, file names, JSON keys, schema paths, fixtures) made safe to
//! print: nothing jxray writes may act on a terminal (contract §3).
//!
//! A terminal obeys control characters: `ESC ] 0 ;` sets its title, OSC 52 writes the
//! clipboard, and the C1 forms (U+0080–U+009F) do the same in one character on many
//! terminals. Bidi controls (U+202E) reorder what a reviewer reads. So every human-readable
//! line goes through [`escape_line`] (or [`escape_lines`] for multi-line text such as a
//! diff or an XML body), and every JSON output through [`write_json`] or [`JsonSafe`]. The
//! TUI draws the same characters as visible markers, deciding with the same [`is_unsafe`].

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

pub use jxray_formats::escape::{escape_line, escape_lines, is_bidi_control, is_unsafe};

/// The largest char boundary at or before `offset`.
pub(crate) fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The smallest char boundary at or after `offset`.
pub(crate) fn ceil_char_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// `1 capture`, `3 captures`: a count and its noun, in the plural unless it is one.
pub(crate) fn count_of(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// `value` as JSON (pretty or compact) with C1 and bidi controls written as `\uXXXX`: the
/// one way a JSON output is written.
pub fn write_json<W: Write>(out: W, value: &impl serde::Serialize, pretty: bool) -> io::Result<()> {
    let mut out = JsonSafe::new(out);
    if pretty {
        serde_json::to_writer_pretty(&mut out, value)?;
    } else {
        serde_json::to_writer(&mut out, value)?;
    }
    out.into_inner().map(drop)
}

/// Characters a JSON output writes as `\uXXXX` although JSON allows them raw: DEL, C1,
/// bidi controls and the line separators (serde_json already escapes C0).
fn json_escapes(ch: char) -> bool {
    is_unsafe(ch) && ch >= '\u{7f}'
}

/// A writer for serialized JSON that escapes C1 and bidi controls as `\uXXXX` on the way
/// through. It may sit on any JSON text: these characters can only occur inside strings,
/// where the escape means the same character.
pub(crate) struct JsonSafe<W: Write> {
    inner: W,
    /// The start of a UTF-8 sequence cut off at the end of the last write.
    pending: Vec<u8>,
}

impl<W: Write> JsonSafe<W> {
    pub(crate) fn new(inner: W) -> JsonSafe<W> {
        JsonSafe {
            inner,
            pending: Vec::new(),
        }
    }

    /// The writer underneath, once everything written has been passed on.
    pub(crate) fn into_inner(mut self) -> io::Result<W> {
        self.flush_pending()?;
        let JsonSafe { inner, .. } = self;
        Ok(inner)
    }

    fn flush_pending(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            // An incomplete sequence at the very end: not ours to judge, pass it on.
            let pending = std::mem::take(&mut self.pending);
            self.inner.write_all(&pending)?;
        }
        Ok(())
    }

    fn write_escaped(&mut self, bytes: &[u8]) -> io::Result<()> {
        let Some(first) = first_high_byte(bytes) else {
            return self.inner.write_all(bytes);
        };
        let mut start = 0;
        let mut index = first;
        while index < bytes.len() {
            let byte = bytes[index];
            let width = utf8_width(byte);
            if byte < 0x7f || width == 0 {
                index += 1;
                continue;
            }
            if index + width > bytes.len() {
                // Cut off: keep it for the next write.
                self.inner.write_all(&bytes[start..index])?;
                self.pending.extend_from_slice(&bytes[index..]);
                return Ok(());
            }
            let ch = std::str::from_utf8(&bytes[index..index + width])
                .ok()
                .and_then(|s| s.chars().next());
            match ch {
                Some(ch) if json_escapes(ch) => {
                    self.inner.write_all(&bytes[start..index])?;
                    write!(self.inner, "\\u{:04x}", ch as u32)?;
                    index += width;
                    start = index;
                }
                _ => index += width.max(1),
            }
        }
        self.inner.write_all(&bytes[start..])
    }
}

/// The first byte at or above DEL, where an escape may start. Most JSON is ASCII, so the
/// bytes are compared a block at a time (without branches, which the compiler can turn into
/// a few vector compares) until a block holds one.
fn first_high_byte(bytes: &[u8]) -> Option<usize> {
    const BLOCK: usize = 32;
    let mut clean = 0;
    for chunk in bytes.chunks_exact(BLOCK) {
        let Ok(block) = <&[u8; BLOCK]>::try_from(chunk) else {
            break;
        };
        if block
            .iter()
            .fold(false, |high, &byte| high | (byte >= 0x7f))
        {
            break;
        }
        clean += BLOCK;
    }
    bytes[clean..]
        .iter()
        .position(|&byte| byte >= 0x7f)
        .map(|at| clean + at)
}

/// Bytes in the UTF-8 sequence a lead byte starts (1 for ASCII, 0 for a continuation byte
/// or an invalid lead).
fn utf8_width(byte: u8) -> usize {
    match byte {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 0,
    }
}

impl<W: Write> Write for JsonSafe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            self.write_escaped(buf)?;
        } else {
            let mut joined = std::mem::take(&mut self.pending);
            joined.extend_from_slice(buf);
            self.write_escaped(&joined)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A path as jxray's messages show it ([`shown_path`]).
pub(crate) struct ShownPath<'a>(&'a Path);

/// `path` for a message: as `path.display()` shows it, except that on Windows a path that
/// mixes `/` and `\` (a folder typed with `/`, to which jxray joined a name with `\`)
/// shows one separator throughout, the first it has: `assets/demo\schema.json` shows as
/// `assets/demo/schema.json`, `.\broken.json` and `C:\work\x.json` as they are.
pub(crate) fn shown_path<P: AsRef<Path> + ?Sized>(path: &P) -> ShownPath<'_> {
    ShownPath(path.as_ref())
}

impl fmt::Display for ShownPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&one_separator(&self.0.to_string_lossy(), cfg!(windows)))
    }
}

/// `path` with every separator made its first one, when `\` separates folders too (on
/// Windows); unchanged elsewhere, where `\` is a character of a file's name.
fn one_separator(path: &str, backslash_separates: bool) -> Cow<'_, str> {
    if !backslash_separates {
        return Cow::Borrowed(path);
    }
    let (first, other) = match path.find(['/', '\\']).map(|at| path.as_bytes()[at]) {
        Some(b'/') => ("/", '\\'),
        Some(_) => ("\\", '/'),
        None => return Cow::Borrowed(path),
    };
    if path.contains(other) {
        Cow::Owned(path.replace(other, first))
    } else {
        Cow::Borrowed(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_paths_show_one_separator_the_first_they_have() {
        for (path, shown) in [
            ("assets/demo\\schema.json", "assets/demo/schema.json"),
            (".\\broken.json", ".\\broken.json"),
            ("C:\\work\\x.json", "C:\\work\\x.json"),
            ("C:\\work/runs/x.json", "C:\\work\\runs\\x.json"),
            ("\\\\server\\share/x.json", "\\\\server\\share\\x.json"),
            ("./runs\\a\\b.json", "./runs/a/b.json"),
            ("broken.json", "broken.json"),
        ] {
            assert_eq!(one_separator(path, true), shown, "{path}");
        }
        // Elsewhere a backslash belongs to the name.
        assert_eq!(one_separator("a/b\\c.json", false), "a/b\\c.json");
        assert_eq!(shown_path("runs/a.json").to_string(), "runs/a.json");
    }

    #[test]
    fn json_output_escapes_c1_and_bidi_even_across_writes() {
        let value = serde_json::json!({"k\u{9b}": "x\u{202e}y\u{85}\u{7f}é\u{2066}"});
        let text = serde_json::to_string(&value).unwrap();
        let mut out = JsonSafe::new(Vec::new());
        // One byte at a time, so every sequence is cut.
        for byte in text.as_bytes() {
            out.write_all(std::slice::from_ref(byte)).unwrap();
        }
        let written = String::from_utf8(out.into_inner().unwrap()).unwrap();
        assert_eq!(written, r#"{"k\u009b":"x\u202ey\u0085\u007fé\u2066"}"#);
        let back: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn json_output_finds_an_escape_anywhere_in_a_long_write() {
        for at in 0..100 {
            for (raw, escaped) in [("\u{202e}", "\\u202e"), ("\u{7f}", "\\u007f")] {
                let text = format!("{}{raw}{}é", "a".repeat(at), "b".repeat(40));
                let mut out = JsonSafe::new(Vec::new());
                out.write_all(text.as_bytes()).unwrap();
                let written = String::from_utf8(out.into_inner().unwrap()).unwrap();
                assert_eq!(
                    written,
                    format!("{}{escaped}{}é", "a".repeat(at), "b".repeat(40))
                );
            }
        }
    }
}
