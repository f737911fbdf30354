//! A line diff with two line-number gutters and grouped context, the way
//! `jxray test` shows an expectation against the engine's outcome.

use std::io::{self, Write};

use similar::{ChangeTag, DiffOp, DiffTag, TextDiff};

use super::{describe, Painter, Tone};
use crate::text::escape_line;
use jxray_formats::fixture::{Fixture, Replay};

/// Unchanged lines shown around each change.
const CONTEXT: usize = 3;
/// Diff lines shown before the rest is only counted: a huge fixture must not flood a CI log.
pub const MAX_DIFF_LINES: usize = 200;

/// Write the differences from `old` to `new` as numbered lines, `-` for
/// removed and `+` for added (the signs carry the meaning; colour and
/// underlined changed words only help), each line prefixed with `indent`.
/// After [`MAX_DIFF_LINES`] lines the rest is counted: `… N more lines`.
pub fn write_diff(
    out: &mut dyn Write,
    old: &str,
    new: &str,
    painter: Painter,
    indent: &str,
) -> io::Result<()> {
    let diff = TextDiff::from_lines(old, new);
    let mut shown = 0;
    let mut more = 0;
    for (index, group) in diff.grouped_ops(CONTEXT).iter().enumerate() {
        if index > 0 {
            if shown < MAX_DIFF_LINES {
                writeln!(out, "{indent}{}", painter.paint("     ┈┈┈┈", Tone::Dim))?;
                shown += 1;
            } else {
                more += 1;
            }
        }
        for op in group {
            if shown >= MAX_DIFF_LINES {
                more += lines_in(op);
                continue;
            }
            for change in diff.iter_inline_changes(op) {
                if shown >= MAX_DIFF_LINES {
                    more += 1;
                    continue;
                }
                shown += 1;
                let (sign, tone, emphasis) = match change.tag() {
                    ChangeTag::Delete => ("-", Tone::Bad, Tone::BadEmphasis),
                    ChangeTag::Insert => ("+", Tone::Good, Tone::GoodEmphasis),
                    ChangeTag::Equal => (" ", Tone::Dim, Tone::Dim),
                };
                let gutter = format!(
                    "{:>4} {:>4} │",
                    number(change.old_index()),
                    number(change.new_index())
                );
                let mut text = String::new();
                for (emphasized, part) in change.iter_strings_lossy() {
                    let part = escape_line(part.trim_end_matches(['\n', '\r']));
                    let part_tone = if emphasized { emphasis } else { tone };
                    text.push_str(&painter.paint(&part, part_tone));
                }
                writeln!(
                    out,
                    "{indent}{}{}{text}",
                    painter.paint(&gutter, Tone::Dim),
                    painter.paint(sign, tone)
                )?;
            }
        }
    }
    if more > 0 {
        let noun = if more == 1 { "line" } else { "lines" };
        let note = format!("     … {more} more {noun}");
        writeln!(out, "{indent}{}", painter.paint(&note, Tone::Dim))?;
    }
    Ok(())
}

/// Lines one diff operation prints (a replacement prints both sides).
fn lines_in(op: &DiffOp) -> usize {
    let (old, new) = (op.old_range().len(), op.new_range().len());
    match op.tag() {
        DiffTag::Equal | DiffTag::Delete => old,
        DiffTag::Insert => new,
        DiffTag::Replace => old + new,
    }
}

/// A fixture's expectation against what the engine does now: a numbered
/// diff of the two as fixture JSON, then the engine's own one-line account.
pub fn write_mismatch(
    out: &mut dyn Write,
    fixture: &Fixture,
    replay: &Replay,
    painter: Painter,
) -> io::Result<()> {
    writeln!(
        out,
        "  {}",
        painter.paint("--- expected (fixture)", Tone::Bad)
    )?;
    writeln!(
        out,
        "  {}",
        painter.paint("+++ actual (engine now)", Tone::Good)
    )?;
    write_diff(
        out,
        &fixture.expect.to_pretty_json(),
        &replay.actual.to_pretty_json(),
        painter,
        "  ",
    )?;
    writeln!(out, "  engine: {}", describe(&replay.outcome))
}

fn number(index: Option<usize>) -> String {
    index.map(|i| (i + 1).to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_plain_diff() {
        let old = "{\n  \"ok\": true,\n  \"layer\": \"fenced\"\n}\n";
        let new = "{\n  \"ok\": true,\n  \"layer\": \"scanned\"\n}\n";
        let mut out = Vec::new();
        write_diff(&mut out, old, new, Painter::plain(), "  ").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "     1    1 │ {\n     2    2 │   \"ok\": true,\n     3      │-  \"layer\": \"fenced\"\n          3 │+  \"layer\": \"scanned\"\n     4    4 │ }\n"
        );
    }

    #[test]
    fn far_apart_changes_are_grouped_and_coloured_words_emphasised() {
        let old: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 2\n", "line two\n")
            .replace("line 19\n", "line nineteen\n");
        let mut out = Vec::new();
        write_diff(&mut out, &old, &new, Painter::plain(), "").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("┈"), "{text}");
        assert!(!text.contains("line 10"), "{text}");
        let mut coloured = Vec::new();
        write_diff(&mut coloured, &old, &new, Painter::new(true), "").unwrap();
        assert!(String::from_utf8(coloured)
            .unwrap()
            .contains("\x1b[32;1;4mtwo"));
    }

    #[test]
    fn long_diffs_stop_after_the_cap_and_count_the_rest() {
        let old: String = (0..1000).map(|i| format!("old {i}\n")).collect();
        let new: String = (0..1000).map(|i| format!("new {i}\n")).collect();
        let mut out = Vec::new();
        write_diff(&mut out, &old, &new, Painter::plain(), "").unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), MAX_DIFF_LINES + 1);
        assert_eq!(lines[MAX_DIFF_LINES], "     … 1800 more lines");
    }

    #[test]
    fn escapes_in_a_diff_are_shown_not_sent() {
        let mut out = Vec::new();
        write_diff(
            &mut out,
            "a\n",
            "\u{1b}]0;x\u{7}\u{9b}\n",
            Painter::plain(),
            "",
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains(['\u{1b}', '\u{7}', '\u{9b}']), "{text}");
        assert!(text.contains("\\u{1b}]0;x\\u{7}\\u{9b}"), "{text}");
    }
}
