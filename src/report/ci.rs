//! One case as the CI formats see it: a capture of `check` or a fixture of `test`, reduced
//! to a name, a place and a status. `junit` and `github` render only this, so each format
//! is written once for both commands.

use std::path::Path;

use super::{describe, Checked};
use crate::capture::{shell_path, Capture};
use crate::engine::Outcome;
use crate::text::escape_lines;

/// A case: what passed or failed, and where a reader should look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CiCase {
    /// The group it belongs to: the folder of its file.
    pub(crate) classname: String,
    /// What it is called: the capture's source or the fixture's name.
    pub(crate) name: String,
    /// The file to open, relative to the working folder.
    pub(crate) file: Option<String>,
    /// A 1-based line in `file`, when the case's position maps onto the file.
    pub(crate) line: Option<usize>,
    /// A 1-based column in `file`, with `line`.
    pub(crate) column: Option<usize>,
    pub(crate) status: CiStatus,
}

/// How a case ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CiStatus {
    Passed,
    /// Passed, with something worth a look (a `check` warning, a fixed known gap).
    Warned(Note),
    Failed(CiFailure),
    /// Not counted either way (a known gap that still fails).
    Skipped(String),
}

/// A short title and a one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Note {
    pub(crate) title: String,
    pub(crate) message: String,
}

/// Why a case failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CiFailure {
    /// A machine word: the failure kind (`truncated`, …) or `regression`.
    pub(crate) kind: String,
    /// What a list of failures shows: kind and defect.
    pub(crate) title: String,
    /// One line: what went wrong and where.
    pub(crate) message: String,
    /// The whole story, several lines (defects, a diff).
    pub(crate) detail: String,
}

impl CiCase {
    /// A capture of `check`: failed with its failure, warned when it has warnings.
    pub(crate) fn of_checked(checked: &Checked) -> CiCase {
        let Checked {
            capture, outcome, ..
        } = checked;
        let file = shell_path(&capture.path);
        let (line, column) = place_in_file(capture, outcome);
        let status = if outcome.ok() {
            if outcome.warnings.is_empty() {
                CiStatus::Passed
            } else {
                CiStatus::Warned(Note {
                    title: format!("jxray: {}", warning_words(outcome)),
                    message: describe(outcome),
                })
            }
        } else {
            CiStatus::Failed(failure_of(capture, outcome))
        };
        CiCase {
            classname: folder_of(&capture.path),
            name: capture.source.clone(),
            file: Some(file),
            line,
            column,
            status,
        }
    }
}

/// The folder a file sits in, as the user can open it (`.` for the working folder).
pub(crate) fn folder_of(path: &Path) -> String {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => shell_path(parent),
        _ => ".".to_string(),
    }
}

/// Where in the file a failure is: the failure's own line and column when the capture is
/// the whole file as written (a text file, a raw JSON file), the record's line for one line
/// of a `.jsonl` file, and nothing when the text came out of an envelope or a log record.
fn place_in_file(capture: &Capture, outcome: &Outcome) -> (Option<usize>, Option<usize>) {
    if capture.line.is_some() {
        return (capture.line, None);
    }
    let whole_file = capture.provider.is_none()
        && capture.text.is_ok()
        && capture.source == shell_path(&capture.path);
    match &outcome.failure {
        Some(failure) if whole_file => (Some(failure.line), Some(failure.column)),
        _ => (None, None),
    }
}

fn failure_of(capture: &Capture, outcome: &Outcome) -> CiFailure {
    let kind = outcome.badge().to_string();
    let mut title = kind.clone();
    if let Some(failure) = &outcome.failure {
        if let Some(defect) = failure.defect {
            title.push_str(&format!(" ({})", defect.as_str()));
        }
        if let Some(cause) = failure.cause {
            title.push_str(&format!(", {}", cause.as_str()));
        }
    }
    let message = describe(outcome);
    let mut lines = vec![format!("{}: {}", capture.source, message)];
    if let Some(failure) = &outcome.failure {
        for defect in &failure.defects {
            lines.push(format!(
                "  {} at {}:{}: {}",
                defect.kind.as_str(),
                defect.line,
                defect.column,
                defect.message
            ));
        }
    }
    if let Some(stop) = &capture.stop_reason {
        lines.push(format!("stop reason: {stop}"));
    }
    if let Some(provider) = capture.provider {
        lines.push(format!("provider: {}", provider.as_str()));
    }
    CiFailure {
        kind,
        title: format!("jxray: {title}"),
        message,
        detail: lines.join("\n"),
    }
}

/// Text that cannot act on a terminal or break a report, kept on its lines (an XML body, a
/// message GitHub escapes itself): what [`escape_lines`] escapes, so nothing is lost and
/// nothing is hidden.
pub(crate) fn inert(text: &str) -> String {
    escape_lines(text).into_owned()
}

/// `trailing-prose, think-block`: the warning kinds of an outcome.
fn warning_words(outcome: &Outcome) -> String {
    let kinds: Vec<&str> = outcome
        .warning_kinds()
        .into_iter()
        .map(|kind| kind.as_str())
        .collect();
    kinds.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Checker;
    use crate::engine::{extract, Options};

    fn checked(source: &str, text: &str) -> Checked {
        Checker::new(Options::default(), None).check(Capture::from_text(source, text))
    }

    #[test]
    fn a_text_file_failure_points_at_its_line_and_column() {
        let case = CiCase::of_checked(&checked("runs/a.txt", "{\n  \"a\": 1,\n}"));
        assert_eq!(case.classname, "runs");
        assert_eq!(case.name, "runs/a.txt");
        assert_eq!(case.file.as_deref(), Some("runs/a.txt"));
        assert_eq!((case.line, case.column), (Some(3), Some(1)));
        let CiStatus::Failed(failure) = &case.status else {
            panic!("{case:?}");
        };
        assert_eq!(failure.kind, "invalid");
        assert_eq!(failure.title, "jxray: invalid (trailing-comma)");
        assert!(failure.message.starts_with("invalid trailing-comma at 3:1"));
    }

    #[test]
    fn a_jsonl_record_points_at_its_line_only() {
        let mut item = checked("log.jsonl:7", "[1, 2,");
        item.capture.path = "log.jsonl".into();
        item.capture.line = Some(7);
        let case = CiCase::of_checked(&item);
        assert_eq!(case.classname, ".");
        assert_eq!(case.file.as_deref(), Some("log.jsonl"));
        assert_eq!((case.line, case.column), (Some(7), None));
    }

    #[test]
    fn an_envelope_has_no_place_in_its_file() {
        let mut item = checked("r.json", "[1, 2,");
        item.capture.provider = Some(crate::capture::Provider::Anthropic);
        item.capture.stop_reason = Some("max_tokens".into());
        item.outcome = Checker::new(Options::default(), None).outcome(&item.capture);
        let case = CiCase::of_checked(&item);
        assert_eq!((case.line, case.column), (None, None));
        let CiStatus::Failed(failure) = &case.status else {
            panic!("{case:?}");
        };
        assert!(failure.detail.contains("stop reason: max_tokens"));
        assert!(failure.detail.contains("provider: anthropic"));
    }

    #[test]
    fn warnings_on_success_are_a_note_and_plain_json_passes() {
        let case = CiCase::of_checked(&checked("a.md", "```json\n{}\n```\nMore."));
        assert_eq!(
            case.status,
            CiStatus::Warned(Note {
                title: "jxray: trailing-prose".into(),
                message: "fenced warnings: trailing-prose".into()
            })
        );
        assert_eq!(
            CiCase::of_checked(&checked("b.txt", "{}")).status,
            CiStatus::Passed
        );
        assert!(extract("{}", &Options::default()).ok());
    }

    #[test]
    fn inert_escapes_what_could_act_on_a_terminal_and_keeps_lines() {
        assert_eq!(inert("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            inert("\u{1b}[31mred\r\u{7f}\u{85}\u{202e}\u{ffff}"),
            "\\u{1b}[31mred\\r\\u{7f}\\u{85}\\u{202e}\\u{ffff}"
        );
    }
}
