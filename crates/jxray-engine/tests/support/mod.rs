//! The test data the engine's tests read, carried by the crate (`tests/data/`): the
//! conformance cases (a copy of the shared `spec/cases`) and JSONTestSuite's
//! `test_parsing` files (MIT, its LICENSE beside them). `shared_copies.rs` checks both
//! copies against the shared folder beside the checkout when that folder is there.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `tests/data/RELATIVE` in this crate; a missing folder is a broken checkout.
pub fn data(relative: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative);
    assert!(
        dir.is_dir(),
        "{} is missing: the checkout is incomplete (git status shows what was removed)",
        dir.display()
    );
    dir
}

/// The files of a folder (not its subfolders), sorted by name.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    paths
}

pub mod values;
