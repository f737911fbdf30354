//! `jxray test [FIXTURES]`: replay every fixture (of a folder, or one file), show each
//! regression as a diff, end with `N passed, N failed`; `--update` rewrites expectations
//! instead, `--format junit|github` reports to CI.

use crate::text::shown_path;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::capture::shell_path;
use crate::config::Config;
use crate::fixture::{load_target, replay_one, write_text, Entry, FixtureRun, Verdict, REMOVE_GAP};
use crate::report::ci::{folder_of, CiFailure, Note};
use crate::report::github::step_summary_file;
use crate::report::{
    describe, write_mismatch, CiCase, CiStatus, GithubReport, JunitReport, Painter,
};
use crate::text::escape_line;
use anyhow::bail;

use super::common::stdout_painter;
use super::output::{self, ended};
use super::ExitStatus;
use crate::cli::{TestArgs, TestFormat};

/// How the fixtures fared.
#[derive(Debug, Default)]
struct Tally {
    passed: usize,
    failed: usize,
    expected_failing: usize,
    fixed: usize,
    updated: usize,
}

impl Tally {
    /// `N passed, N failed`, then the other counts when non-zero.
    fn closing_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        for (label, count) in self.extras() {
            if count > 0 {
                line.push_str(&format!(", {count} {label}"));
            }
        }
        line
    }

    fn extras(&self) -> [(&'static str, usize); 3] {
        [
            ("expected-failing", self.expected_failing),
            ("fixed", self.fixed),
            ("updated", self.updated),
        ]
    }

    fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts = vec![("passed", self.passed), ("failed", self.failed)];
        counts.extend(self.extras());
        counts
    }

    fn total(&self) -> usize {
        self.counts().iter().map(|(_, count)| count).sum()
    }
}

pub(crate) fn run(args: &TestArgs) -> anyhow::Result<ExitStatus> {
    let config = Config::load()?;
    let (target, from_config) = match args.path.clone().or(args.fixtures_dir.clone()) {
        Some(path) => (path, false),
        None => match config.fixtures.clone() {
            Some(path) => (path, true),
            None => (PathBuf::from(crate::config::DEFAULT_FIXTURES), false),
        },
    };
    let entries = select(load_target(&target, from_config)?, args.filter.as_deref());
    if entries.is_empty() {
        match &args.filter {
            Some(name) => bail!(
                "{}: no fixture matches --filter {name:?}; check the name",
                shown_path(&target)
            ),
            None => bail!(
                "{}: no fixtures (*.json) in it; save some with `s` in the terminal UI, \
                 or pass the folder that holds them",
                shown_path(&target)
            ),
        }
    }
    let painter = stdout_painter(args.color, &config);
    let stdout = output::stdout();
    let mut out = BufWriter::new(stdout.clone());
    let mut tally = Tally::default();
    let written = report_all(&mut out, args, &target, entries, painter, &mut tally)
        .and_then(|()| out.flush());
    drop(out);
    ended(&stdout, written, ExitStatus::from_all_ok(tally.failed == 0))
}

/// The entries `--filter NAME` keeps: a fixture whose name or file name contains NAME
/// (a file that is not a fixture is kept when its path does).
fn select(entries: Vec<Entry>, filter: Option<&str>) -> Vec<Entry> {
    let Some(name) = filter else {
        return entries;
    };
    let file_matches = |path: &Path| {
        path.file_name()
            .is_some_and(|file| file.to_string_lossy().contains(name))
    };
    entries
        .into_iter()
        .filter(|entry| match entry {
            Ok((path, fixture)) => fixture.name.contains(name) || file_matches(path),
            Err(error) => file_matches(error.path()),
        })
        .collect()
}

fn report_all(
    out: &mut dyn Write,
    args: &TestArgs,
    target: &Path,
    entries: Vec<Entry>,
    painter: Painter,
    tally: &mut Tally,
) -> io::Result<()> {
    let suite = format!("jxray test {}", shell_path(target));
    let mut junit = JunitReport::new(&suite);
    let mut github = GithubReport::new(&suite, "fixture");
    for entry in entries {
        let run = replay_one(entry, args.update);
        count(tally, &run.verdict, args.strict);
        match args.format {
            TestFormat::Text => write_text(out, &run, args.strict, painter)?,
            TestFormat::Junit => junit.add(&ci_case(&run, args.strict)),
            TestFormat::Github => github.add(out, &ci_case(&run, args.strict))?,
        }
    }
    match args.format {
        TestFormat::Text => writeln!(out, "{}", tally.closing_line()),
        TestFormat::Junit => junit.write(out),
        TestFormat::Github => github.finish(
            out,
            &tally.closing_line(),
            &tally.counts(),
            tally.total(),
            step_summary_file().as_deref(),
        ),
    }
}

fn count(tally: &mut Tally, verdict: &Verdict, strict: bool) {
    match verdict {
        Verdict::Passed => tally.passed += 1,
        Verdict::ExpectedFailing => tally.expected_failing += 1,
        Verdict::Fixed if strict => tally.failed += 1,
        Verdict::Fixed => tally.fixed += 1,
        Verdict::Updated => tally.updated += 1,
        Verdict::Failed | Verdict::Broken(_) => tally.failed += 1,
    }
}

/// The fixture as a CI case: a regression (or, under `--strict`, a fixed gap) fails with
/// its diff; a known gap that still fails is skipped; a fixed gap or an update is a warning.
fn ci_case(run: &FixtureRun, strict: bool) -> CiCase {
    let failure = |kind: &str, title: &str, message: String, detail: String| {
        CiStatus::Failed(CiFailure {
            kind: kind.to_string(),
            title: format!("jxray: {title}"),
            message,
            detail,
        })
    };
    let engine_now = || {
        run.replay
            .as_ref()
            .map(|replay| describe(&replay.outcome))
            .unwrap_or_default()
    };
    let status = match &run.verdict {
        Verdict::Passed => CiStatus::Passed,
        Verdict::ExpectedFailing => CiStatus::Skipped(format!(
            "known gap{}",
            run.fixture
                .as_ref()
                .and_then(|fixture| fixture.note.as_deref())
                .map(|note| format!(": {}", escape_line(note)))
                .unwrap_or_default()
        )),
        Verdict::Fixed if strict => failure(
            "fixed",
            "known gap fixed",
            format!("{REMOVE_GAP} (--strict)"),
            REMOVE_GAP.to_string(),
        ),
        Verdict::Fixed => CiStatus::Warned(Note {
            title: "jxray: known gap fixed".into(),
            message: REMOVE_GAP.into(),
        }),
        Verdict::Updated => CiStatus::Warned(Note {
            title: "jxray: fixture updated".into(),
            message: format!("expectation rewritten; engine now: {}", engine_now()),
        }),
        Verdict::Failed => failure(
            "regression",
            "fixture regressed",
            format!(
                "the engine no longer does what it expects; engine now: {}",
                engine_now()
            ),
            plain_mismatch(run),
        ),
        Verdict::Broken(error) => {
            // The case is already named by its file: the message need not repeat it.
            let own_path = format!("{}: ", shown_path(&run.path));
            let why = escape_line(error.strip_prefix(&own_path).unwrap_or(error)).into_owned();
            failure("error", "not a usable fixture", why.clone(), why)
        }
    };
    CiCase {
        classname: folder_of(&run.path),
        name: run.fixture.as_ref().map_or_else(
            || shell_path(&run.path),
            |fixture| escape_line(&fixture.name).into_owned(),
        ),
        file: Some(shell_path(&run.path)),
        line: None,
        column: None,
        status,
    }
}

/// The expected-versus-actual diff without colour, for a failure's text.
fn plain_mismatch(run: &FixtureRun) -> String {
    let (Some(fixture), Some(replay)) = (&run.fixture, &run.replay) else {
        return String::new();
    };
    let mut text = Vec::new();
    let _ = write_mismatch(&mut text, fixture, replay, Painter::plain());
    String::from_utf8_lossy(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn closing_line_appends_only_non_zero_extras() {
        let mut tally = Tally {
            passed: 3,
            failed: 1,
            ..Tally::default()
        };
        assert_eq!(tally.closing_line(), "3 passed, 1 failed");
        tally.expected_failing = 2;
        tally.fixed = 1;
        assert_eq!(
            tally.closing_line(),
            "3 passed, 1 failed, 2 expected-failing, 1 fixed"
        );
        assert_eq!(tally.total(), 7);
    }
}
