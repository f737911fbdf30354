//! `jxray record` end to end, as part of `cargo test`: scripts/record-e2e.sh installs the
//! official openai and anthropic SDKs and ai-mock (a real mock server from PyPI) in its
//! own virtual environment, calls through the proxy streaming and not, and checks that
//! the SDKs received the same as without it and that the recorded folder checks right.

use std::process::Command;

#[test]
fn the_official_sdks_call_through_jxray_record_unchanged_and_are_recorded() {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new("bash")
        .arg(format!("{root}/scripts/record-e2e.sh"))
        .arg(env!("CARGO_BIN_EXE_jxray"))
        .current_dir(root)
        .output()
        .expect("bash runs scripts/record-e2e.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "scripts/record-e2e.sh failed (it needs python3 with venv, and PyPI the first time)\n{stdout}\n{stderr}"
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
