//! `--format github`: GitHub Actions workflow commands, one annotation a failing (or warned)
//! case as it arrives, and — because GitHub shows only ten annotations of a kind per step —
//! a Markdown table of every failure and the mix, appended to `$GITHUB_STEP_SUMMARY`.

use crate::text::shown_path;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;

use super::ci::{inert, CiCase, CiStatus};
use super::{Checked, Sink, Summary};
use crate::engine::{FailureKind, Layer};
use crate::text::count_of;

/// GitHub refuses a step summary over 1 MiB; rows stop well before that.
const SUMMARY_ROW_BUDGET: usize = 900 * 1024;

/// `%`, CR and LF in a command's message, as the Actions toolkit escapes them.
pub(crate) fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value (`file=`, `title=`) also escapes the `:` and `,` that end it.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `::error file=…,line=…,col=…,title=…::message` for a failure, `::warning …` for a note;
/// `None` for a case that passed quietly or was skipped.
pub(crate) fn annotation(case: &CiCase) -> Option<String> {
    let (command, title, message) = match &case.status {
        CiStatus::Failed(failure) => ("error", &failure.title, &failure.message),
        CiStatus::Warned(note) => ("warning", &note.title, &note.message),
        CiStatus::Passed | CiStatus::Skipped(_) => return None,
    };
    let mut properties = Vec::new();
    if let Some(file) = &case.file {
        properties.push(format!("file={}", escape_property(&inert(file))));
        if let Some(line) = case.line {
            properties.push(format!("line={line}"));
            if let Some(column) = case.column {
                properties.push(format!("col={column}"));
            }
        }
    }
    properties.push(format!("title={}", escape_property(&inert(title))));
    let message = format!("{}: {}", case.name, message);
    Some(format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&inert(&message))
    ))
}

/// The whole `github` format as cases arrive: each case's annotation at once, its row kept
/// for the step summary; at the end a closing line and the summary appended.
#[derive(Debug)]
pub(crate) struct GithubReport {
    step: StepSummary,
}

impl GithubReport {
    pub(crate) fn new(heading: &str, noun: &'static str) -> GithubReport {
        GithubReport {
            step: StepSummary::new(heading, noun),
        }
    }

    pub(crate) fn add(&mut self, out: &mut dyn Write, case: &CiCase) -> io::Result<()> {
        if let Some(line) = annotation(case) {
            writeln!(out, "{line}")?;
        }
        self.step.add(case);
        Ok(())
    }

    /// Print `closing` and append the step summary to `summary_file` when there is one.
    pub(crate) fn finish(
        self,
        out: &mut dyn Write,
        closing: &str,
        counts: &[(&str, usize)],
        total: usize,
        summary_file: Option<&Path>,
    ) -> io::Result<()> {
        writeln!(out, "{}", inert(closing))?;
        match summary_file {
            Some(path) => self.step.append_to(path, counts, total).map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!(
                        "cannot append to the step summary {} ($GITHUB_STEP_SUMMARY): {error}",
                        shown_path(&path)
                    ),
                )
            }),
            None => Ok(()),
        }
    }
}

/// `check --format github` as a [`Sink`]: each capture's annotation as soon as it is
/// known; the step summary keeps one row per failure (bounded by GitHub's size limit).
pub(crate) struct GithubSink<W> {
    out: W,
    report: Option<GithubReport>,
    summary_file: Option<std::path::PathBuf>,
}

impl<W: Write> GithubSink<W> {
    /// A report headed `suite`, appended to `summary_file` (`$GITHUB_STEP_SUMMARY`) at the end.
    pub(crate) fn new(
        out: W,
        suite: &str,
        summary_file: Option<std::path::PathBuf>,
    ) -> GithubSink<W> {
        GithubSink {
            out,
            report: Some(GithubReport::new(suite, "capture")),
            summary_file,
        }
    }
}

impl<W: Write> Sink for GithubSink<W> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        match &mut self.report {
            Some(report) => report.add(&mut self.out, &CiCase::of_checked(item)),
            None => Ok(()),
        }
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        let Some(report) = self.report.take() else {
            return Ok(());
        };
        let closing = format!(
            "{}: {} ok, {} failed",
            count_of(summary.total(), "capture"),
            summary.ok(),
            summary.failed()
        );
        let mut report = report;
        if let Some(groups) = summary.groups() {
            report.step.also(super::groups::markdown(groups, &cell));
        }
        report.finish(
            &mut self.out,
            &closing,
            &mix_counts(summary),
            summary.total(),
            self.summary_file.as_deref(),
        )
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Every layer and failure kind with its count: the mix a `check` step summary shows.
pub(crate) fn mix_counts(summary: &Summary) -> Vec<(&'static str, usize)> {
    let layers = Layer::ALL
        .iter()
        .copied()
        .map(|layer| (layer.as_str(), summary.layer(layer)));
    let failures = FailureKind::ALL
        .iter()
        .copied()
        .map(|kind| (kind.as_str(), summary.failure(kind)));
    layers.into_iter().chain(failures).collect()
}

/// The step summary file GitHub Actions names in `$GITHUB_STEP_SUMMARY`, when set.
pub(crate) fn step_summary_file() -> Option<std::path::PathBuf> {
    std::env::var_os("GITHUB_STEP_SUMMARY")
        .filter(|path| !path.is_empty())
        .map(Into::into)
}

/// The Markdown appended to the step summary: a heading, every failure (up to GitHub's
/// size limit) and a table of counts. Only the rows are kept while cases arrive.
#[derive(Debug)]
pub(crate) struct StepSummary {
    heading: String,
    /// What a case is called in the table's first column (`capture`, `fixture`).
    noun: &'static str,
    rows: String,
    listed: usize,
    unlisted: usize,
    /// Markdown written after the counts (`--by`: the mix of each group).
    after: String,
}

impl StepSummary {
    pub(crate) fn new(heading: &str, noun: &'static str) -> StepSummary {
        StepSummary {
            heading: heading.to_string(),
            noun,
            rows: String::new(),
            listed: 0,
            unlisted: 0,
            after: String::new(),
        }
    }

    /// Write `markdown` after the counts.
    pub(crate) fn also(&mut self, markdown: String) {
        self.after.push_str(&markdown);
    }

    /// A row for a failed case; other cases leave no row.
    pub(crate) fn add(&mut self, case: &CiCase) {
        let CiStatus::Failed(failure) = &case.status else {
            return;
        };
        let place = match (case.line, case.column) {
            (Some(line), Some(column)) => format!("{line}:{column}"),
            (Some(line), None) => line.to_string(),
            _ => String::new(),
        };
        let row = format!(
            "| {} | {} | {} | {} |\n",
            cell(&case.name),
            cell(&failure.title),
            place,
            cell(&failure.message)
        );
        if self.rows.len() + row.len() > SUMMARY_ROW_BUDGET {
            self.unlisted += 1;
        } else {
            self.rows.push_str(&row);
            self.listed += 1;
        }
    }

    /// The Markdown: the heading, the failures (or that there were none), then `counts`
    /// (label, count) as a table with each count's share of `total`.
    pub(crate) fn markdown(&self, counts: &[(&str, usize)], total: usize) -> String {
        let mut text = format!("### {}\n\n", cell(&self.heading));
        if self.listed + self.unlisted == 0 {
            text.push_str("No failures.\n\n");
        } else {
            text.push_str(&format!(
                "| {} | failure | line | message |\n| --- | --- | --- | --- |\n",
                self.noun
            ));
            text.push_str(&self.rows);
            if self.unlisted > 0 {
                text.push_str(&format!(
                    "\n{} more failures are not listed: a step summary holds at most 1 MiB. \
                     Run with `--format jsonl` for all of them.\n",
                    self.unlisted
                ));
            }
            text.push('\n');
        }
        text.push_str("| outcome | count | share |\n| --- | ---: | ---: |\n");
        for (label, count) in counts {
            let share = match total {
                0 => 0.0,
                total => *count as f64 * 100.0 / total as f64,
            };
            text.push_str(&format!("| {} | {count} | {share:.1}% |\n", cell(label)));
        }
        text.push('\n');
        text.push_str(&self.after);
        text
    }

    /// Append the Markdown to the step summary file (never truncating what earlier steps
    /// or commands wrote there).
    pub(crate) fn append_to(
        &self,
        path: &Path,
        counts: &[(&str, usize)],
        total: usize,
    ) -> io::Result<()> {
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        file.write_all(self.markdown(counts, total).as_bytes())
    }
}

/// Text for one Markdown table cell: one line, nothing that renders as markup or HTML.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in inert(text).chars() {
        match c {
            '\n' | '\t' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '|' | '`' | '*' | '_' | '[' | ']' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ci::{CiFailure, Note};

    fn failed(name: &str, line: Option<usize>, column: Option<usize>) -> CiCase {
        CiCase {
            classname: ".".into(),
            name: name.into(),
            file: Some(name.into()),
            line,
            column,
            status: CiStatus::Failed(CiFailure {
                kind: "invalid".into(),
                title: "jxray: invalid (trailing-comma)".into(),
                message: "invalid trailing-comma at 2:4: a comma before }".into(),
                detail: String::new(),
            }),
        }
    }

    #[test]
    fn data_escapes_percent_cr_and_lf() {
        assert_eq!(escape_data("100% a\r\nb"), "100%25 a%0D%0Ab");
        assert_eq!(escape_data("a:b,c"), "a:b,c");
        assert_eq!(escape_data("%0A"), "%250A");
    }

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn a_failure_is_an_error_at_its_place() {
        assert_eq!(
            annotation(&failed("runs/a.txt", Some(2), Some(4))).unwrap(),
            "::error file=runs/a.txt,line=2,col=4,title=jxray%3A invalid (trailing-comma)\
             ::runs/a.txt: invalid trailing-comma at 2:4: a comma before }"
        );
        assert_eq!(
            annotation(&failed("log.jsonl:3", Some(3), None)).unwrap(),
            "::error file=log.jsonl%3A3,line=3,title=jxray%3A invalid (trailing-comma)\
             ::log.jsonl:3: invalid trailing-comma at 2:4: a comma before }"
        );
    }

    #[test]
    fn a_note_is_a_warning_and_a_quiet_pass_is_nothing() {
        let mut case = failed("a.md", None, None);
        case.status = CiStatus::Warned(Note {
            title: "jxray: trailing-prose".into(),
            message: "fenced warnings: trailing-prose".into(),
        });
        assert_eq!(
            annotation(&case).unwrap(),
            "::warning file=a.md,title=jxray%3A trailing-prose::a.md: fenced warnings: trailing-prose"
        );
        case.status = CiStatus::Passed;
        assert_eq!(annotation(&case), None);
    }

    #[test]
    fn a_hostile_name_cannot_inject_a_command_or_a_terminal_escape() {
        let case = failed("x\n::error::forged,\u{1b}[2J", None, None);
        let line = annotation(&case).unwrap();
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(!line.contains('\u{1b}'));
        assert!(line.starts_with("::error file=x%0A%3A%3Aerror%3A%3Aforged%2C\\u{1b}[2J,"));
    }

    #[test]
    fn the_summary_lists_every_failure_and_the_counts() {
        let mut summary = StepSummary::new("jxray check runs", "capture");
        summary.add(&failed("runs/a|b.txt", Some(2), Some(4)));
        summary.add(&CiCase {
            status: CiStatus::Passed,
            ..failed("ok.txt", None, None)
        });
        let text = summary.markdown(&[("direct", 1), ("invalid", 1)], 2);
        assert_eq!(
            text,
            "### jxray check runs\n\n\
             | capture | failure | line | message |\n| --- | --- | --- | --- |\n\
             | runs/a\\|b.txt | jxray: invalid (trailing-comma) | 2:4 | invalid trailing-comma at 2:4: a comma before } |\n\n\
             | outcome | count | share |\n| --- | ---: | ---: |\n\
             | direct | 1 | 50.0% |\n| invalid | 1 | 50.0% |\n\n"
        );
        let empty = StepSummary::new("jxray test", "fixture").markdown(&[], 0);
        assert!(empty.contains("No failures."));
    }

    #[test]
    fn the_summary_stops_listing_before_githubs_limit() {
        let mut summary = StepSummary::new("many", "capture");
        let long = "x".repeat(10_000);
        for _ in 0..200 {
            summary.add(&failed(&long, None, None));
        }
        let text = summary.markdown(&[], 200);
        assert!(text.len() < 1024 * 1024);
        assert!(
            text.contains(" more failures are not listed"),
            "{}",
            &text[text.len() - 300..]
        );
    }

    #[test]
    fn appending_keeps_what_the_file_held() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("summary.md");
        std::fs::write(&path, "earlier step\n").unwrap();
        let summary = StepSummary::new("jxray", "capture");
        summary.append_to(&path, &[("direct", 1)], 1).unwrap();
        summary.append_to(&path, &[("direct", 1)], 1).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("earlier step\n### jxray\n"));
        assert_eq!(text.matches("### jxray").count(), 2);
    }
}
