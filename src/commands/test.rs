//! `jxray test [DIR]`: replay every fixture, show each regression as a diff,
//! end with `N passed, N failed`; `--update` rewrites expectations instead.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::bail;
use jxray::fixture::{self, Fixture, Status as Replayed};
use jxray::report::{write_mismatch, Painter, Tone};
use jxray::text::escape_line;

use super::common::{quiet_broken_pipe, stdout_painter};
use super::Status;
use crate::cli::TestArgs;

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
        for (count, label) in [
            (self.expected_failing, "expected-failing"),
            (self.fixed, "fixed"),
            (self.updated, "updated"),
        ] {
            if count > 0 {
                line.push_str(&format!(", {count} {label}"));
            }
        }
        line
    }
}

pub fn run(args: &TestArgs) -> anyhow::Result<Status> {
    let dir = &args.fixtures;
    if !dir.is_dir() {
        bail!(
            "{}: no such fixtures folder; pass the folder as `jxray test DIR`",
            dir.display()
        );
    }
    let painter = stdout_painter(args.color);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::default();
    let written = replay_all(&mut out, dir, args.update, painter, &mut tally)
        .and_then(|()| writeln!(out, "{}", tally.closing_line()))
        .and_then(|()| out.flush());
    quiet_broken_pipe(written)?;
    Ok(Status::from_all_ok(tally.failed == 0))
}

fn replay_all(
    out: &mut dyn Write,
    dir: &Path,
    update: bool,
    painter: Painter,
    tally: &mut Tally,
) -> io::Result<()> {
    for entry in fixture::load_dir(dir) {
        let (path, fixture) = match entry {
            Ok(entry) => entry,
            Err(error) => {
                tally.failed += 1;
                writeln!(
                    out,
                    "{} {}",
                    painter.paint("ERROR", Tone::Bad),
                    escape_line(&error.to_string())
                )?;
                continue;
            }
        };
        let replay = fixture::replay(&fixture);
        let place = escape_line(&format!("{} ({})", fixture.name, path.display())).into_owned();
        match replay.status {
            Replayed::Passed => tally.passed += 1,
            Replayed::ExpectedFailing => {
                tally.expected_failing += 1;
                let note = fixture
                    .note
                    .as_deref()
                    .map(|note| format!(": {}", escape_line(note)))
                    .unwrap_or_default();
                let label = painter.paint("expected failing", Tone::Notice);
                writeln!(out, "{label} {place}{note}")?;
            }
            Replayed::Fixed => {
                tally.fixed += 1;
                let label = painter.paint("FIXED", Tone::Good);
                writeln!(
                    out,
                    "{label} {place}: the engine now does what this known gap expects; \
                     remove \"known_gap\" from the file"
                )?;
            }
            Replayed::Failed if update => {
                let updated = Fixture {
                    expect: replay.actual.clone(),
                    ..fixture.clone()
                };
                match fixture::rewrite(&path, &updated) {
                    Ok(()) => {
                        tally.updated += 1;
                        let label = painter.paint("updated", Tone::Notice);
                        writeln!(out, "{label} {place}")?;
                        write_mismatch(out, &fixture, &replay, painter)?;
                        writeln!(out)?;
                    }
                    Err(error) => {
                        tally.failed += 1;
                        writeln!(
                            out,
                            "{} {}",
                            painter.paint("ERROR", Tone::Bad),
                            escape_line(&error.to_string())
                        )?;
                    }
                }
            }
            Replayed::Failed => {
                tally.failed += 1;
                writeln!(out, "{} {place}", painter.paint("FAIL", Tone::Bad))?;
                write_mismatch(out, &fixture, &replay, painter)?;
                writeln!(out)?;
            }
        }
    }
    Ok(())
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
    }
}
