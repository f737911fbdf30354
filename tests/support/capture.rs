//! Helpers shared by the capture tests: write files into a temporary folder and load them.
#![allow(dead_code)]

use std::fs;
use std::path::Path;

use jxray::capture::{load, Capture, LoadOptions, Provider};
use jxray::check::Checker;
use jxray::engine::{Options, Outcome, WarningKind};

/// What `check` makes of `capture` with `options` and no `--schema`.
pub fn outcome_of(capture: &Capture, options: &Options) -> Outcome {
    Checker::new(options.clone(), None).outcome(capture)
}

/// Load `files` (name, content) written into a fresh folder.
pub fn load_files(files: &[(&str, &str)]) -> Vec<Capture> {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        write(dir.path(), name, content.as_bytes());
    }
    load(dir.path(), &LoadOptions::default()).unwrap()
}

/// The single capture of one file named `name`.
pub fn one(name: &str, content: &str) -> Capture {
    let mut captures = load_files(&[(name, content)]);
    assert_eq!(captures.len(), 1, "{captures:#?}");
    captures.remove(0)
}

pub fn write(root: &Path, relative: &str, bytes: &[u8]) {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// Assert a capture's text, provider and stop reason.
#[track_caller]
pub fn assert_capture(
    capture: &Capture,
    text: &str,
    provider: Option<Provider>,
    stop_reason: Option<&str>,
) {
    assert_eq!(capture.text.as_deref(), Ok(text), "{capture:#?}");
    assert_eq!(capture.provider, provider, "{capture:#?}");
    assert_eq!(capture.stop_reason.as_deref(), stop_reason, "{capture:#?}");
}

/// The unreadable message of a capture (fails when it is readable).
#[track_caller]
pub fn unreadable(capture: &Capture) -> String {
    match &capture.text {
        Err(unreadable) => {
            assert!(!unreadable.message.contains('\n'), "one line: {unreadable}");
            unreadable.message.clone()
        }
        Ok(text) => panic!("expected unreadable, got text {text:?}"),
    }
}

pub fn warning_kinds(capture: &Capture) -> Vec<WarningKind> {
    capture
        .warnings
        .iter()
        .map(|warning| warning.kind)
        .collect()
}
