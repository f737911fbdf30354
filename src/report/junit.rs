//! `--format junit`: one JUnit XML document, one `testcase` per case, read by GitLab
//! (`artifacts:reports:junit`), Jenkins and the GitHub JUnit report actions.
//!
//! JUnit puts the counts in the opening tags, so the document is written when the last
//! case is in. Cases are kept small (no raw text) until then.

use std::io::{self, Write};

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::ci::{inert, CiCase, CiStatus};
use super::{Checked, Sink, Summary};

/// Collects cases into one test suite and writes the document at the end.
#[derive(Debug)]
pub(crate) struct JunitReport {
    suite: TestSuite,
}

impl JunitReport {
    /// A report whose one suite is named `suite` (`jxray check captures`).
    pub(crate) fn new(suite: &str) -> JunitReport {
        JunitReport {
            suite: TestSuite::new(xml_text(suite)),
        }
    }

    pub(crate) fn add(&mut self, case: &CiCase) {
        self.suite.add_test_case(test_case(case));
    }

    /// Write the whole document.
    pub(crate) fn write(self, out: &mut dyn Write) -> io::Result<()> {
        let mut report = Report::new("jxray");
        report.add_test_suite(self.suite);
        report.serialize(out).map_err(io::Error::other)
    }
}

/// `check --format junit` as a [`Sink`].
///
/// The one report format that cannot stream: JUnit's `testsuite` tag carries the counts of
/// tests and failures, so every `testcase` is held until the end. Each is held as
/// quick-junit builds it — source, folder, file and, for a failure, its one-line message
/// and defect list — never the capture's text or value, so a record costs a few hundred
/// bytes, not its size. Nothing is written before [`Sink::finish`].
pub(crate) struct JunitSink<W> {
    out: W,
    report: Option<JunitReport>,
}

impl<W: Write> JunitSink<W> {
    pub(crate) fn new(out: W, suite: &str) -> JunitSink<W> {
        JunitSink {
            out,
            report: Some(JunitReport::new(suite)),
        }
    }
}

impl<W: Write> Sink for JunitSink<W> {
    fn record(&mut self, item: &Checked) -> io::Result<()> {
        if let Some(report) = &mut self.report {
            report.add(&CiCase::of_checked(item));
        }
        Ok(())
    }

    /// With `--by`, the group is the test case's class: CI systems list cases by class, so
    /// they show each model's (prompt's, day's) failures together.
    fn record_in(&mut self, item: &Checked, group: &str) -> io::Result<()> {
        if let Some(report) = &mut self.report {
            let mut case = CiCase::of_checked(item);
            case.classname = group.to_string();
            report.add(&case);
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        match self.report.take() {
            Some(report) => report.write(&mut self.out),
            None => Ok(()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The case as a `testcase`: `classname` the folder, `name` the source, `file` the file;
/// a failure carries its kind as `type`, a one-line `message` and the whole story as text.
fn test_case(case: &CiCase) -> TestCase {
    let status = match &case.status {
        CiStatus::Passed | CiStatus::Warned(_) => TestCaseStatus::success(),
        CiStatus::Failed(failure) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_type(xml_text(&failure.kind))
                .set_message(xml_text(&one_line(&failure.message)))
                .set_description(xml_text(&failure.detail));
            status
        }
        CiStatus::Skipped(message) => {
            let mut status = TestCaseStatus::skipped();
            status.set_message(xml_text(&one_line(message)));
            status
        }
    };
    let mut test_case = TestCase::new(xml_text(&case.name), status);
    test_case.set_classname(xml_text(&case.classname));
    if let Some(file) = &case.file {
        test_case.extra.insert("file".into(), xml_text(file).into());
    }
    if let CiStatus::Warned(note) = &case.status {
        test_case.set_system_out(xml_text(&note.message));
    }
    test_case
}

/// Text safe in XML: what XML forbids or a terminal would act on is shown escaped
/// (quick-junit then strips anything left that XML 1.0 does not allow).
fn xml_text(text: &str) -> String {
    inert(text)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ci::{CiFailure, Note};

    fn case(name: &str, status: CiStatus) -> CiCase {
        CiCase {
            classname: "runs".into(),
            name: name.into(),
            file: Some(format!("runs/{name}")),
            line: None,
            column: None,
            status,
        }
    }

    fn failed(message: &str) -> CiStatus {
        CiStatus::Failed(CiFailure {
            kind: "invalid".into(),
            title: "jxray: invalid (trailing-comma)".into(),
            message: message.into(),
            detail: format!("runs/a.txt: {message}\n  trailing-comma at 1:9: x"),
        })
    }

    fn render(cases: &[CiCase]) -> String {
        let mut report = JunitReport::new("jxray check runs");
        for case in cases {
            report.add(case);
        }
        let mut out = Vec::new();
        report.write(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn counts_cases_and_failures_and_parses_back() {
        let xml = render(&[
            case("a.txt", failed("invalid trailing-comma at 1:9: a comma")),
            case("b.txt", CiStatus::Passed),
            case(
                "c.txt",
                CiStatus::Warned(Note {
                    title: "t".into(),
                    message: "fenced warnings: trailing-prose".into(),
                }),
            ),
        ]);
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let suite = doc
            .descendants()
            .find(|node| node.has_tag_name("testsuite"))
            .unwrap();
        assert_eq!(suite.attribute("name"), Some("jxray check runs"));
        assert_eq!(suite.attribute("tests"), Some("3"));
        assert_eq!(suite.attribute("failures"), Some("1"));
        let failure = doc
            .descendants()
            .find(|node| node.has_tag_name("failure"))
            .unwrap();
        assert_eq!(failure.attribute("type"), Some("invalid"));
        let testcase = failure.parent().unwrap();
        assert_eq!(testcase.attribute("classname"), Some("runs"));
        assert_eq!(testcase.attribute("name"), Some("a.txt"));
        assert_eq!(testcase.attribute("file"), Some("runs/a.txt"));
        assert!(failure.text().unwrap().contains("trailing-comma at 1:9"));
    }

    #[test]
    fn characters_xml_forbids_never_reach_the_document() {
        let nasty = "cut\u{0}off \u{1b}[2J\u{7}\u{b}\u{fffe} <&\"'> \u{202e}";
        let xml = render(&[case(nasty, failed(nasty))]);
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let testcase = doc
            .descendants()
            .find(|node| node.has_tag_name("testcase"))
            .unwrap();
        let name = testcase.attribute("name").unwrap();
        assert!(name.contains("<&\"'>"), "{name}");
        assert!(
            name.contains("\\u{1b}[2J") && name.contains("\\u{202e}"),
            "{name}"
        );
        assert!(!xml.contains(['\u{0}', '\u{1b}', '\u{7}', '\u{b}', '\u{fffe}', '\u{202e}']));
    }
}
