//! RFC 8259 conformance of the `direct` layer, against JSONTestSuite
//! (tests/data/suites/JSONTestSuite, a copy of the shared suite): every `y_` file is `direct` with no
//! repairs, no `n_` file is, and no `i_` file makes the engine panic.

mod support;

use std::path::{Path, PathBuf};

use jxray_engine::{extract, Layer, Options};

fn suite_files() -> Vec<PathBuf> {
    support::files(&support::data("suites/JSONTestSuite/test_parsing"))
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Whether the file's bytes extract as strict `direct` JSON. Bytes that are
/// not UTF-8 are never direct: the capture loader refuses them as unreadable.
fn is_strict_direct(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let outcome = extract(text, &Options::default());
            outcome.ok() && outcome.layer == Some(Layer::Direct) && outcome.repairs.is_empty()
        }
        Err(_) => false,
    }
}

#[test]
fn every_y_file_is_direct_and_no_n_file_is() {
    let files = suite_files();
    let mut wrong = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for path in &files {
        let file = name(path);
        let bytes = std::fs::read(path).unwrap();
        if file.starts_with("y_") {
            accepted += 1;
            if !is_strict_direct(&bytes) {
                wrong.push(format!("{file} should be direct"));
            }
        } else if file.starts_with("n_") {
            refused += 1;
            if is_strict_direct(&bytes) {
                wrong.push(format!("{file} must not be direct"));
            }
        } else {
            // Implementation-defined: any answer, but an answer.
            let _ = is_strict_direct(&bytes);
        }
    }
    assert!(
        accepted >= 95 && refused >= 188,
        "suite incomplete: {accepted} y_, {refused} n_"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
