//! The crate carries its own copies of the shared test data (tests/data/), so `cargo test`
//! passes on a fresh clone with nothing beside it. Where the shared folder is beside the
//! checkout (`../shared`, as CI lays it), the copies must equal it file for file: a case
//! added or changed there without being copied here fails this test.

mod support;

use std::path::{Path, PathBuf};

/// The shared folder beside the checkout, when it is there.
fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    dir.is_dir().then_some(dir)
}

/// Differences between two folders' files (names and bytes, one level deep).
fn differences(ours: &Path, theirs: &Path) -> Vec<String> {
    let name = |path: &Path| path.file_name().unwrap().to_string_lossy().into_owned();
    let ours: Vec<PathBuf> = support::files(ours);
    let theirs: Vec<PathBuf> = support::files(theirs);
    let mut found = Vec::new();
    for path in &theirs {
        match ours.iter().find(|mine| name(mine) == name(path)) {
            None => found.push(format!("{} is not copied", name(path))),
            Some(mine) if std::fs::read(mine).unwrap() != std::fs::read(path).unwrap() => {
                found.push(format!("{} differs from the shared copy", name(path)))
            }
            Some(_) => {}
        }
    }
    for path in &ours {
        if !theirs.iter().any(|shared| name(shared) == name(path)) {
            found.push(format!("{} is not in the shared folder", name(path)));
        }
    }
    found
}

#[test]
fn the_copies_equal_the_shared_folder() {
    let Some(shared) = shared() else {
        eprintln!("note: no shared folder beside the checkout: the copies are used as they are");
        return;
    };
    let mut wrong = Vec::new();
    for relative in [
        "spec/cases",
        "suites/JSONTestSuite",
        "suites/JSONTestSuite/test_parsing",
    ] {
        for why in differences(&support::data(relative), &shared.join(relative)) {
            wrong.push(format!("tests/data/{relative}: {why}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the copies in crates/jxray-engine/tests/data differ from ../shared: copy each folder \
         again (rm -r tests/data/X && cp -r ../../../shared/X tests/data/X, from the crate):\n{}",
        wrong.join("\n")
    );
}
