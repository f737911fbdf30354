//! The conformance cases, as the engine crate carries them (a copy of the shared
//! spec/cases, checked against it by crates/jxray-engine/tests/shared_copies.rs): each capture `NAME.txt` or
//! `NAME.json` with `NAME.expect.json`. Shared by tests/library/conformance.rs and
//! examples/import_cases.rs (included with `#[path]`).

use std::fs;
use std::path::{Path, PathBuf};

use jxray::capture::Capture;
use jxray::check::Checker;
use jxray::engine::Outcome;
use jxray::fixture::{Expectation, Strictness};

/// One case: its capture file and what the contract requires of it.
pub struct Case {
    pub name: String,
    pub path: PathBuf,
    /// What the case requires, `cause` included when it names one.
    pub expect: Expectation,
}

/// Where the project keeps its copy of the cases (examples/import_cases.rs reads them there).
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/jxray-engine/tests/data/spec/cases")
}

/// Every case in `dir`, sorted by name; `None` when the folder is absent.
/// A case without a readable expectation is an error naming it.
pub fn read_cases(dir: &Path) -> Option<Vec<Result<Case, String>>> {
    let entries = fs::read_dir(dir).ok()?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            !name.ends_with(".expect.json") && !name.eq_ignore_ascii_case("README.md")
        })
        .collect();
    paths.sort();
    Some(paths.into_iter().map(|path| read_case(&path)).collect())
}

fn read_case(path: &Path) -> Result<Case, String> {
    let name = path
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let expect_path = path.with_file_name(format!("{name}.expect.json"));
    let text = fs::read_to_string(&expect_path)
        .map_err(|error| format!("{}: {error}", expect_path.display()))?;
    let expect = serde_json::from_str(&text)
        .map_err(|error| format!("{}: {error}", expect_path.display()))?;
    Ok(Case {
        name,
        path: path.to_path_buf(),
        expect,
    })
}

/// Check a case's single capture against its expectation: ok, layer, value,
/// failure and defect exactly; the listed repairs and warnings must be
/// present (more may be reported). For `.txt` cases the capture's text must
/// be the file's bytes. Returns the outcome, or why the case disagrees.
pub fn verify(case: &Case, captures: &[Capture]) -> Result<Outcome, String> {
    let [capture] = captures else {
        return Err(format!("{} captures, expected one", captures.len()));
    };
    if case.path.extension().is_some_and(|ext| ext == "txt") {
        let bytes = fs::read(&case.path).map_err(|error| error.to_string())?;
        let text = capture.text.as_ref().map_err(|u| u.message.clone())?;
        if text.as_bytes() != bytes.as_slice() {
            return Err("the capture's text is not the file's bytes".to_string());
        }
    }
    let outcome = Checker::new(jxray::engine::Options::default(), None).outcome(capture);
    let actual = Expectation::of(&outcome);
    if case.expect.is_met_by(&actual, Strictness::Subset) {
        Ok(outcome)
    } else {
        Err(format!(
            "expected {} but the engine gives {}",
            serde_json::to_string(&case.expect).unwrap_or_default(),
            serde_json::to_string(&case.expect.align(&actual)).unwrap_or_default()
        ))
    }
}
