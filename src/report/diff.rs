//! A line diff with two line-number gutters and grouped context, the way
//! `jxray test` shows an expectation against the engine's outcome.

use std::io::{self, Write};

use similar::{ChangeTag, TextDiff};

use super::{describe, Painter, Tone};
use crate::fixture::{Fixture, Replay};

/// Unchanged lines shown around each change.
const CONTEXT: usize = 3;

/// Write the differences from `old` to `new` as numbered lines, `-` for
/// removed and `+` for added (the signs carry the meaning; colour and
/// underlined changed words only help), each line prefixed with `indent`.
pub fn write_diff(
    out: &mut dyn Write,
    old: &str,
    new: &str,
    painter: Painter,
    indent: &str,
) -> io::Result<()> {
    let diff = TextDiff::from_lines(old, new);
    for (index, group) in diff.grouped_ops(CONTEXT).iter().enumerate() {
        if index > 0 {
            writeln!(out, "{indent}{}", painter.paint("     ┈┈┈┈", Tone::Dim))?;
        }
        for op in group {
            for change in diff.iter_inline_changes(op) {
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
                    let part = part.trim_end_matches(['\n', '\r']);
                    let part_tone = if emphasized { emphasis } else { tone };
                    text.push_str(&painter.paint(part, part_tone));
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
    Ok(())
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
}
