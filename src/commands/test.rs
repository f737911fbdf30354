//! `jxray test [FIXTURES]`: replay every fixture (of a folder, or one file), show each
//! regression as a diff, end with `N passed, N failed`; `--update` rewrites expectations
//! instead, `--format junit|github` reports to CI.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::capture::shell_path;
use crate::config::Config;
use crate::fixture::{self, Fixture, FixtureError, Replay, ReplayStatus};
use crate::report::ci::{folder_of, CiFailure, Note};
use crate::report::github::step_summary_file;
use crate::report::{
    describe, write_mismatch, CiCase, CiStatus, GithubReport, JunitReport, Painter, Tone,
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

/// What became of one fixture file.
enum Verdict {
    Passed,
    ExpectedFailing,
    /// A known gap the engine now closes (a failure under `--strict`).
    Fixed,
    Updated,
    Failed,
    /// The file is not a usable fixture, or could not be rewritten.
    Broken(String),
}

/// One fixture file after replay, with what each format needs to tell about it.
struct FixtureRun {
    path: PathBuf,
    fixture: Option<Fixture>,
    replay: Option<Replay>,
    verdict: Verdict,
}

pub fn run(args: &TestArgs) -> anyhow::Result<ExitStatus> {
    let config = Config::load()?;
    let (target, from_config) = match args.path.clone().or(args.fixtures_dir.clone()) {
        Some(path) => (path, false),
        None => match config.fixtures.clone() {
            Some(path) => (path, true),
            None => (PathBuf::from(crate::config::DEFAULT_FIXTURES), false),
        },
    };
    let entries = select(load(&target, from_config)?, args.filter.as_deref());
    if entries.is_empty() {
        match &args.filter {
            Some(name) => bail!(
                "{}: no fixture matches --filter {name:?}; check the name",
                target.display()
            ),
            None => bail!(
                "{}: no fixtures (*.json) in it; save some with `s` in the terminal UI, \
                 or pass the folder that holds them",
                target.display()
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

/// One fixture file replayed as `jxray test` replays it, for another test runner (the
/// Python package's pytest plugin).
#[derive(Debug, Clone)]
pub struct FixtureReport {
    /// The fixture's name, when the file is a fixture.
    pub name: Option<String>,
    /// `passed`, `failed`, `expected-failing`, `fixed` (a known gap now closed) or `broken`
    /// (not a usable fixture).
    pub verdict: &'static str,
    /// What `jxray test --color never` prints for it (nothing when it passed): the label
    /// and place, then the expected-versus-actual diff of a regression.
    pub text: String,
}

/// The fixture files `jxray test TARGET` replays, in its order (a folder that cannot be
/// read is named among them, and replays as broken).
pub fn fixture_files(target: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let paths = load(target, false)?.into_iter().map(|entry| match entry {
        Ok((path, _)) => path,
        Err(error) => error.path().to_path_buf(),
    });
    Ok(paths.collect())
}

/// Replay one fixture file as `jxray test` does (never rewriting it).
pub fn replay_file(path: &Path) -> FixtureReport {
    let entry = fixture::load_file(path).map(|fixture| (path.to_path_buf(), fixture));
    let run = replay_one(entry, false);
    let mut text = Vec::new();
    // Writing to memory cannot fail.
    let _ = write_text(&mut text, &run, false, Painter::plain());
    let verdict = match run.verdict {
        Verdict::Passed => "passed",
        Verdict::ExpectedFailing => "expected-failing",
        Verdict::Fixed => "fixed",
        Verdict::Updated | Verdict::Failed => "failed",
        Verdict::Broken(_) => "broken",
    };
    FixtureReport {
        name: run.fixture.map(|fixture| fixture.name),
        verdict,
        text: String::from_utf8_lossy(&text).into_owned(),
    }
}

type Entry = Result<(PathBuf, Fixture), FixtureError>;

/// The fixtures of a folder, or the one fixture a file is; `from_config` when the config
/// file's `fixtures =` named it, so a missing one is blamed on the right line.
fn load(target: &Path, from_config: bool) -> anyhow::Result<Vec<Entry>> {
    if target.is_dir() {
        return Ok(fixture::load_dir(target));
    }
    if target.is_file() {
        let loaded = fixture::load_file(target).map(|fixture| (target.to_path_buf(), fixture));
        return Ok(vec![loaded]);
    }
    if let Some(kind) = crate::capture::special_file(target) {
        bail!(
            "{}: is {kind}, not a fixture file; jxray test reads only regular files and \
             folders of them, so pass a fixture file or a fixtures folder",
            target.display()
        );
    }
    if from_config {
        bail!(
            "{}: no such fixtures folder; the config file {} sets `fixtures =` to it: fix \
             that line, or pass the folder as `jxray test PATH`",
            target.display(),
            crate::config::path_for_help()
        );
    }
    bail!(
        "{}: no such fixtures folder or fixture file; pass one as `jxray test PATH` \
         or set `fixtures =` in the config file",
        target.display()
    )
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

/// Replay one fixture; under `--update` rewrite a failing one to what the engine does now.
fn replay_one(entry: Entry, update: bool) -> FixtureRun {
    let (path, fixture) = match entry {
        Ok(entry) => entry,
        Err(error) => {
            return FixtureRun {
                path: error.path().to_path_buf(),
                fixture: None,
                replay: None,
                verdict: Verdict::Broken(error.to_string()),
            }
        }
    };
    let replay = fixture::replay(&fixture);
    let verdict = match replay.status {
        ReplayStatus::Passed => Verdict::Passed,
        ReplayStatus::ExpectedFailing => Verdict::ExpectedFailing,
        ReplayStatus::Fixed => Verdict::Fixed,
        ReplayStatus::Failed if update => {
            let updated = Fixture {
                expect: replay.actual.clone(),
                ..fixture.clone()
            };
            match fixture::rewrite(&path, &updated) {
                Ok(()) => Verdict::Updated,
                Err(error) => Verdict::Broken(error.to_string()),
            }
        }
        ReplayStatus::Failed => Verdict::Failed,
    };
    FixtureRun {
        path,
        fixture: Some(fixture),
        replay: Some(replay),
        verdict,
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

/// `--strict`'s reason, said wherever a fixed known gap is reported.
const REMOVE_GAP: &str =
    "the engine now does what this known gap expects; remove \"known_gap\" from the file";

fn write_text(
    out: &mut dyn Write,
    run: &FixtureRun,
    strict: bool,
    painter: Painter,
) -> io::Result<()> {
    let place = place(run);
    match (&run.verdict, &run.fixture, &run.replay) {
        (Verdict::Broken(error), _, _) => {
            let error = escape_line(error);
            writeln!(out, "{} {error}", painter.paint("ERROR", Tone::Bad))
        }
        (Verdict::Passed, _, _) => Ok(()),
        (Verdict::ExpectedFailing, Some(fixture), _) => {
            let note = fixture
                .note
                .as_deref()
                .map(|note| format!(": {}", escape_line(note)))
                .unwrap_or_default();
            let label = painter.paint("expected failing", Tone::Notice);
            writeln!(out, "{label} {place}{note}")
        }
        (Verdict::Fixed, _, _) => {
            let (label, tone, then) = if strict {
                ("FIXED", Tone::Bad, " (--strict fails until then)")
            } else {
                ("FIXED", Tone::Good, "")
            };
            writeln!(
                out,
                "{} {place}: {REMOVE_GAP}{then}",
                painter.paint(label, tone)
            )
        }
        (verdict, Some(fixture), Some(replay)) => {
            let label = match verdict {
                Verdict::Updated => painter.paint("updated", Tone::Notice),
                _ => painter.paint("FAIL", Tone::Bad),
            };
            writeln!(out, "{label} {place}")?;
            write_mismatch(out, fixture, replay, painter)?;
            writeln!(out)
        }
        _ => Ok(()),
    }
}

/// `name (path)` as the user can open it.
fn place(run: &FixtureRun) -> String {
    let path = shell_path(&run.path);
    match &run.fixture {
        Some(fixture) => format!("{} ({path})", escape_line(&fixture.name)),
        None => path,
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
            let own_path = format!("{}: ", run.path.display());
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
