//! The Python package (crates/jxray-python) as part of `cargo test`:
//! scripts/python-tests.sh builds it with maturin, installs it into its own virtual
//! environment beside pinned pytest, hypothesis, mypy and the official SDKs, and runs its
//! pytest suite against this build's jxray binary.

mod support;

#[test]
fn the_python_packages_tests_pass_against_this_jxray() {
    let stdout = support::cli::script_passes(
        "python-tests.sh",
        "it needs python3 with venv, and PyPI the first time",
    );
    // pytest's closing line: every test ran and passed, none skipped.
    let closing = stdout.lines().last().unwrap_or_default();
    assert!(
        closing.contains(" passed") && !closing.contains("skipped"),
        "{stdout}"
    );
}
