//! The project's shared test data beside the checkout (`../shared`: the conformance cases
//! and JSONTestSuite). A test that needs it fails when it is missing, saying how to get it,
//! unless the run says plainly that it goes without (`JXRAY_NO_SHARED=1`, which `.ci/run`
//! sets only when the folder is absent, and prints).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/RELATIVE`, or `None` when it is absent and the run opted out.
pub fn shared_dir(relative: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(relative);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("JXRAY_NO_SHARED").is_some() {
        eprintln!(
            "note: {} is absent and JXRAY_NO_SHARED is set: this test is skipped",
            dir.display()
        );
        return None;
    }
    panic!(
        "{} is missing: put the shared test data beside the checkout, or set \
         JXRAY_NO_SHARED=1 to run without it (fixtures/ still carries the conformance cases)",
        dir.display()
    );
}
