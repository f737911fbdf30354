//! `cargo test` replays the project's own fixtures (fixtures/) through the
//! library, and fails with a readable diff on any regression.

use std::path::Path;

use jxray::fixture::{self, ReplayStatus};
use jxray::report::{write_mismatch, Painter};

#[test]
fn every_project_fixture_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let entries = fixture::load_dir(&dir);
    assert!(!entries.is_empty(), "no fixtures in {}", dir.display());
    let mut report = Vec::new();
    let mut problems = 0;
    for entry in &entries {
        let (path, fixture) = match entry {
            Ok(entry) => entry,
            Err(error) => {
                problems += 1;
                report.extend_from_slice(format!("ERROR {error}\n").as_bytes());
                continue;
            }
        };
        let replay = fixture::replay(fixture);
        match replay.status {
            ReplayStatus::Passed | ReplayStatus::ExpectedFailing => {}
            ReplayStatus::Fixed => {
                problems += 1;
                report.extend_from_slice(
                    format!(
                        "FIXED {}: the known gap is closed; remove \"known_gap\" from it\n",
                        path.display()
                    )
                    .as_bytes(),
                );
            }
            ReplayStatus::Failed => {
                problems += 1;
                report.extend_from_slice(format!("FAIL {}\n", path.display()).as_bytes());
                write_mismatch(&mut report, fixture, &replay, Painter::plain()).unwrap();
            }
        }
    }
    assert!(
        problems == 0,
        "{problems} of {} fixtures need attention:\n{}",
        entries.len(),
        String::from_utf8_lossy(&report)
    );
}
