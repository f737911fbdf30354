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
    pub(crate) discovery: Discovery,
    /// How many workers can be busy at once: one a file when every file is read whole
    /// (one job each), `None` when a log streams its records as jobs of their own. A
    /// check of one small file starts no pool.
    pub most_workers: Option<usize>,
}

/// Below this many files, telling fixtures from captures is not worth a thread pool.
const PARALLEL_FROM: usize = 32;

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
    let found = std::mem::take(&mut discovery.files);
    let (fixture_files, files) = pass_over_fixtures(found, options.max_bytes);
    discovery.skipped_fixtures = fixture_files;
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

/// The jxray fixtures among `files` (known by their content, wherever they are) and the
/// captures, both in order.
fn pass_over_fixtures(files: Vec<PathBuf>, max_bytes: u64) -> (Vec<PathBuf>, Vec<PathBuf>) {
    use rayon::prelude::*;
    let is_fixture = |file: &PathBuf| capture::is_fixture_file(file, max_bytes);
    let fixture: Vec<bool> = if files.len() < PARALLEL_FROM {
        files.iter().map(is_fixture).collect()
    } else {
        files.par_iter().map(is_fixture).collect()
    };
    let (fixtures, captures): (Vec<_>, Vec<_>) =
        files.into_iter().zip(fixture).partition(|(_, is)| *is);
    let paths = |pairs: Vec<(PathBuf, bool)>| pairs.into_iter().map(|(path, _)| path).collect();
    (paths(fixtures), paths(captures))
}

/// `skipped 3 files: .csv, .png; skipped the fixtures folder fixtures`, or nothing.
pub fn skipped_note(discovery: &Discovery) -> Option<String> {
    let mut parts: Vec<String> = discovery.skipped.note().into_iter().collect();
    for folder in &discovery.skipped_folders {
        parts.push(format!(
            "skipped the fixtures folder {}",
            shell_path(folder)
        ));
    }
    let fixtures = &discovery.skipped_fixtures;
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
