//! A line diff of a raw candidate against what the parser (or a lenient
//! reading) made of it: two line-number gutters, a sign column, and the
//! changed words underlined as well as coloured.

use std::time::Duration;

use similar::{Algorithm, ChangeTag, DiffOp, TextDiff};

use crate::tui::doc::{DocBuilder, Gutter, Paint};

/// Diffs of huge candidates give up on minimality rather than freeze the UI.
const TIMEOUT: Duration = Duration::from_millis(300);
/// Above this size changed lines are shown whole, without word emphasis.
const INLINE_LIMIT: usize = 64 * 1024;

/// Append the diff of `old` (raw, starting on raw line `old_first`) against `new`.
pub(super) fn write(builder: &mut DocBuilder, old: &str, new: &str, old_first: usize) {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(TIMEOUT)
        .diff_lines(old, new);
    let inline = old.len() + new.len() <= INLINE_LIMIT;
    for op in diff.ops() {
        if inline && is_change(op) {
            for change in diff.iter_inline_changes(op) {
                for (emphasized, text) in change.iter_strings_lossy() {
                    let paint = paint_of(change.tag());
                    let text = strip_newline(&text);
                    if emphasized {
                        builder.push_marked(text, paint, Paint::DiffEmphasis);
                    } else {
                        builder.push(text, paint);
                    }
                }
                end(
                    builder,
                    change.tag(),
                    change.old_index(),
                    change.new_index(),
                    old_first,
                );
            }
        } else {
            for change in diff.iter_changes(op) {
                builder.push(strip_newline(change.value()), paint_of(change.tag()));
                end(
                    builder,
                    change.tag(),
                    change.old_index(),
                    change.new_index(),
                    old_first,
                );
            }
        }
    }
}

fn is_change(op: &DiffOp) -> bool {
    !matches!(op, DiffOp::Equal { .. })
}

fn paint_of(tag: ChangeTag) -> Paint {
    match tag {
        ChangeTag::Delete => Paint::DiffDelete,
        ChangeTag::Insert => Paint::DiffInsert,
        ChangeTag::Equal => Paint::Plain,
    }
}

/// Line values carry their `\n`; a `\r` before it stays, to be drawn as `␍`.
fn strip_newline(text: &str) -> &str {
    text.strip_suffix('\n').unwrap_or(text)
}

fn end(
    builder: &mut DocBuilder,
    tag: ChangeTag,
    old: Option<usize>,
    new: Option<usize>,
    old_first: usize,
) {
    let sign = match tag {
        ChangeTag::Delete => '-',
        ChangeTag::Insert => '+',
        ChangeTag::Equal => ' ',
    };
    builder.end_line(Gutter::Diff {
        old: old.map(|index| index + old_first),
        new: new.map(|index| index + 1),
        sign,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(old: &str, new: &str) -> Vec<String> {
        let mut builder = DocBuilder::new();
        write(&mut builder, old, new, 10);
        let doc = builder.finish("");
        doc.lines
            .iter()
            .map(|line| {
                let text = &doc.text[line.start..line.end];
                match line.gutter {
                    Gutter::Diff { old, new, sign } => {
                        format!("{:?} {:?} {sign}{text}", old, new)
                    }
                    _ => text.to_string(),
                }
            })
            .collect()
    }

    #[test]
    fn shows_changed_lines_with_both_numbers() {
        let lines = render("{\n  \"a\": \"x\ny\"\n}", "{\n  \"a\": \"x\\ny\"\n}");
        assert_eq!(
            lines,
            [
                "Some(10) Some(1)  {",
                "Some(11) None -  \"a\": \"x",
                "Some(12) None -y\"",
                "None Some(2) +  \"a\": \"x\\ny\"",
                "Some(13) Some(3)  }",
            ]
        );
    }

    #[test]
    fn changed_words_are_emphasised() {
        let mut builder = DocBuilder::new();
        write(&mut builder, "{'a': 1}", "{\"a\": 1}", 1);
        let doc = builder.finish("");
        assert!(doc.marks.iter().any(|m| m.paint == Paint::DiffEmphasis));
    }
}
