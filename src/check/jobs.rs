//! What `check` reads under a path: every capture file below it, named as the user can
//! open them, with the fixtures folder and jxray fixture files passed over (fixtures are
//! replayed by `jxray test`, not checked), and a note of what was skipped. The CLI's
//! `check` and the Python package's `jxray.check` both read through here.

use std::path::{Path, PathBuf};

use crate::capture::{self, shell_path, Discovery, Jobs, LoadError, LoadOptions, SourceNames};
use crate::text::count_of;

/// The captures found under a path, as jobs in order, and what the walk passed over.
pub struct Found {
    pub jobs: Jobs,
    /// What the walk found: whether any request file was beside a capture, what it skipped.
    pub discovery: Discovery,
    /// How many workers can be busy at once: one a file when every file is read whole
    /// (one job each), `None` when a log streams its records as jobs of their own. A
    /// check of one small file starts no pool.
    pub most_workers: Option<usize>,
}

/// Every capture under `path` (a file, folder or log store), `fixtures` passed over, each
/// named as the user can open it from the working folder (what `check` prints).
pub fn captures_under(
    path: &Path,
    fixtures: &Path,
    options: &LoadOptions,
) -> Result<Found, LoadError> {
    let options = &LoadOptions {
        sources: SourceNames::FromWorkingFolder,
        ..options.clone()
    };
    let mut discovery = capture::discover_with(path, &[fixtures.to_path_buf()])?;
    // jxray fixture files among them are known by their content when a worker reads them,
    // and passed over then (`Summary::fixtures_passed_over`).
    let files = std::mem::take(&mut discovery.files);
    let most_workers = files
        .iter()
        .all(|file| capture::read_whole_by_name(file))
        .then_some(files.len());
    let jobs = capture::found_jobs(path, files, options);
    Ok(Found {
        jobs,
        discovery,
        most_workers,
    })
}

/// `skipped 3 files: .csv, .png; skipped the fixtures folder fixtures`, or nothing; with
/// the fixture files a run passed over.
pub fn skipped_note(discovery: &Discovery, fixtures: &[PathBuf]) -> Option<String> {
    let mut parts: Vec<String> = discovery.skipped.note().into_iter().collect();
    for folder in &discovery.skipped_folders {
        parts.push(format!(
            "skipped the fixtures folder {}",
            shell_path(folder)
        ));
    }
    if !fixtures.is_empty() {
        let shown: Vec<String> = fixtures.iter().take(3).map(|f| shell_path(f)).collect();
        let more = fixtures.len().saturating_sub(shown.len());
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        parts.push(format!(
            "skipped {} ({}{more}): replay them with jxray test",
            count_of(fixtures.len(), "jxray fixture file"),
            shown.join(", ")
        ));
    }
    (!parts.is_empty()).then(|| crate::text::escape_line(&parts.join("; ")).into_owned())
}
