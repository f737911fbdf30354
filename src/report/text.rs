//! The human report: one line a capture, then the layer mix as a table.

use std::io::{self, Write};

use super::{write_all, Checked, Painter, Sink, Summary, Tone};
use crate::capture::Discovery;
use crate::engine::{FailureKind, Layer, Outcome};
use crate::text::count_of;
pub use jxray_formats::describe::{describe, detail};

/// Widest badge word (`unreadable`), so columns line up.
const BADGE_WIDTH: usize = 10;
/// Sources longer than this are not padded, so one long path does not push every line.
const MAX_SOURCE_PAD: usize = 48;

/// How many lines the text report holds back to line up sources; a report that streams
/// from a pipe holds back none, so each line appears as soon as it is known.
pub const LINE_UP: usize = 256;

/// The human report: one line per capture as it arrives, then the summary table.
///
/// Sources are padded to the widest of the first `line_up` captures (at most
/// `MAX_SOURCE_PAD` wide); those lines are held until then, later lines use the same width.
pub struct TextSink<W> {
    out: W,
    painter: Painter,
    line_up: usize,
    /// Lines held back until the pad is known: the source and the rest of the line.
    held: Vec<(String, Line)>,
    pad: Option<usize>,
    /// What the folder walk skipped, said in a last line after the summary with the
    /// fixture files the run passed over.
    ending: Option<Discovery>,
}

/// A line's parts other than its source.
struct Line {
    mark: String,
    badge: String,
    detail: String,
}

impl<W: Write> TextSink<W> {
    pub fn new(out: W, painter: Painter, line_up: usize) -> TextSink<W> {
        TextSink {
            out,
            painter,
            line_up,
            held: Vec::new(),
            pad: None,
            ending: None,
        }
    }

    /// End the report with a line saying what the walk skipped (and the fixture files
    /// passed over), when it skipped something.
    pub(crate) fn ending_with(mut self, discovery: Discovery) -> TextSink<W> {
        self.ending = Some(discovery);
        self
    }

    /// Decide the pad from the lines held, and write them.
    fn release(&mut self) -> io::Result<()> {
        let pad = self
            .held
            .iter()
            .map(|(source, _)| source.chars().count())
            .filter(|width| *width <= MAX_SOURCE_PAD)
            .max()
            .unwrap_or(0);
        self.pad = Some(pad);
        for (source, line) in std::mem::take(&mut self.held) {
            write_line(&mut self.out, &source, &line, pad)?;
        }
        Ok(())
    }
}

impl<W: Write> Sink for TextSink<W> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        let source = visible(&item.capture.source);
        let line = paint_line(&item.outcome, self.painter);
        match self.pad {
            Some(pad) => write_line(&mut self.out, &source, &line, pad),
            None => {
                self.held.push((source, line));
                if self.held.len() > self.line_up {
                    self.release()?;
                }
                Ok(())
            }
        }
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        if self.pad.is_none() {
            self.release()?;
        }
        write_summary(&mut self.out, summary, self.painter)?;
        if let Some(chains) = summary.chains() {
            writeln!(self.out, "{}", chains.line())?;
        }
        if let Some(line) = summary.early().and_then(|early| early.line()) {
            writeln!(self.out, "{line}")?;
        }
        if let Some(groups) = summary.groups() {
            writeln!(self.out)?;
            super::groups::write_text(&mut self.out, groups, self.painter)?;
        }
        let ending = self.ending.as_ref().and_then(|discovery| {
            crate::check::skipped_note(discovery, summary.fixtures_passed_over())
        });
        match ending {
            Some(line) => writeln!(self.out, "{line}"),
            None => Ok(()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Write one line per capture and the summary table.
pub fn write_text(out: &mut dyn Write, checked: &[Checked], painter: Painter) -> io::Result<()> {
    write_all(&mut TextSink::new(out, painter, checked.len()), checked).map(drop)
}

fn paint_line(outcome: &Outcome, painter: Painter) -> Line {
    let (mark, tone) = if outcome.ok() {
        ("ok  ", badge_tone(outcome))
    } else {
        ("FAIL", Tone::Bad)
    };
    let badge = format!("{:<BADGE_WIDTH$}", outcome.badge());
    Line {
        mark: painter.paint(mark, tone),
        badge: painter.paint(&badge, tone),
        detail: painter.paint(&detail(outcome), Tone::Dim),
    }
}

fn write_line(out: &mut impl Write, source: &str, line: &Line, pad: usize) -> io::Result<()> {
    let Line {
        mark,
        badge,
        detail,
    } = line;
    let text = format!("{mark} {badge} {source:<pad$}  {detail}");
    writeln!(out, "{}", text.trim_end())
}

/// Green for plain JSON, yellow when the model drifted from it (fences,
/// prose, a lenient reading): still ok, but worth watching.
fn badge_tone(outcome: &Outcome) -> Tone {
    match outcome.layer {
        Some(Layer::Direct) => Tone::Good,
        _ => Tone::Notice,
    }
}

fn write_summary(out: &mut impl Write, summary: &Summary, painter: Painter) -> io::Result<()> {
    let total = summary.total();
    if total == 0 {
        return writeln!(out, "0 captures");
    }
    writeln!(out)?;
    let failed = painter.paint(
        &format!("{} failed", summary.failed()),
        if summary.failed() > 0 {
            Tone::Bad
        } else {
            Tone::Good
        },
    );
    writeln!(
        out,
        "{}: {} ok, {failed}",
        count_of(total, "capture"),
        summary.ok()
    )?;
    if total == 1 {
        // The one line above already says its layer or failure: a table would repeat it.
        return Ok(());
    }
    writeln!(out)?;
    let layers = Layer::ALL
        .iter()
        .copied()
        .map(|layer| (layer.as_str(), summary.layer(layer)))
        .collect::<Vec<_>>();
    let failures = FailureKind::ALL
        .iter()
        .copied()
        .map(|kind| (kind.as_str(), summary.failure(kind)))
        .collect::<Vec<_>>();
    write_table(out, "layer", &layers, summary, painter)?;
    writeln!(out)?;
    write_table(out, "failure", &failures, summary, painter)?;
    let marks = summary.marks_present();
    if marks.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    write_table(out, "cause or warning", &marks, summary, painter)
}

fn write_table(
    out: &mut impl Write,
    heading: &str,
    rows: &[(&str, usize)],
    summary: &Summary,
    painter: Painter,
) -> io::Result<()> {
    // A warning's name can be longer than a badge: the column grows to fit it.
    let longest = rows.iter().map(|(name, _)| name.len());
    let width = longest
        .chain([heading.len(), BADGE_WIDTH])
        .max()
        .unwrap_or(BADGE_WIDTH);
    let header = format!("{heading:<width$}  {:>6}  {:>6}", "count", "share");
    writeln!(out, "{}", painter.paint(&header, Tone::Strong))?;
    for (name, count) in rows {
        let row = format!(
            "{name:<width$}  {count:>6}  {:>5.1}%",
            summary.share(*count)
        );
        let tone = if *count == 0 { Tone::Dim } else { Tone::Strong };
        let row = if *count == 0 {
            painter.paint(&row, tone)
        } else {
            row
        };
        writeln!(out, "{row}")?;
    }
    Ok(())
}

/// A source (a file name can hold a newline or an escape sequence) as one safe line.
pub(crate) fn visible(text: &str) -> String {
    crate::text::escape_line(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Capture;
    use crate::engine::{Failure, FailureKind, Repair, RepairKind, Warning, WarningKind};
    use serde_json::json;

    fn checked(source: &str, outcome: Outcome) -> Checked {
        Checked {
            capture: Capture::from_text(source, ""),
            outcome,
            violations: Vec::new(),
            chain: None,
            early: None,
        }
    }

    fn fenced() -> Outcome {
        let mut outcome = Outcome::default();
        outcome.layer = Some(Layer::Fenced);
        outcome.value = Some(json!({}));
        outcome.repairs = vec![
            Repair::new(RepairKind::RawControlChar, 1),
            Repair::new(RepairKind::RawControlChar, 5),
        ];
        outcome.warnings = vec![Warning::new(WarningKind::TrailingProse, None, "prose")];
        outcome
    }

    fn invalid() -> Outcome {
        let mut outcome = Outcome::default();
        outcome.failure = Some(
            Failure::new(
                FailureKind::Invalid,
                9,
                (2, 4),
                "a comma before }\nremove it",
            )
            .with_defect(Some(crate::engine::Defect::TrailingComma)),
        );
        outcome
    }

    #[test]
    fn lines_and_table_read_without_colour() {
        let items = [checked("a.txt", fenced()), checked("dir/b.txt", invalid())];
        let mut out = Vec::new();
        write_text(&mut out, &items, Painter::plain()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "ok   fenced     a.txt      repairs: raw-control-char ×2; warnings: trailing-prose"
        );
        assert_eq!(
            lines[1],
            "FAIL invalid    dir/b.txt  trailing-comma at 2:4: a comma before } remove it"
        );
        assert!(text.contains("2 captures: 1 ok, 1 failed"));
        assert!(text.contains("fenced           1   50.0%"), "{text}");
        assert!(text.contains("invalid          1   50.0%"), "{text}");
        assert!(text.contains("scanned          0    0.0%"), "{text}");
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn colour_only_when_enabled() {
        let mut out = Vec::new();
        write_text(&mut out, &[checked("a", invalid())], Painter::new(true)).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .contains("\x1b[31mFAIL\x1b[0m"));
    }

    #[test]
    fn describe_is_one_plain_line() {
        assert_eq!(
            describe(&fenced()),
            "fenced repairs: raw-control-char ×2; warnings: trailing-prose"
        );
        assert_eq!(
            describe(&{
                let mut outcome = Outcome::default();
                outcome.layer = Some(Layer::Direct);
                outcome.value = Some(json!(1));
                outcome
            }),
            "direct"
        );
        assert_eq!(visible("a\nb\u{1b}"), "a\\nb\\u{1b}");
    }
}
