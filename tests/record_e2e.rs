//! `jxray record` end to end, as part of `cargo test`: scripts/record-e2e.sh installs the
//! official openai and anthropic SDKs and ai-mock (a real mock server from PyPI) in its
//! own virtual environment, calls through the proxy streaming and not, and checks that
//! the SDKs received the same as without it and that the recorded folder checks right.

mod support;

#[test]
fn the_official_sdks_call_through_jxray_record_unchanged_and_are_recorded() {
    let stdout = support::cli::script_passes(
        "record-e2e.sh",
        "it needs python3 with venv, and PyPI the first time",
    );
    assert!(
        stdout.contains("20 of 20 SDK calls received the same"),
        "{stdout}"
    );
    assert!(
        stdout.contains("20 of 20 recorded captures had the expected outcome"),
        "{stdout}"
    );
}
