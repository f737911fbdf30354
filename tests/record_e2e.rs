//! `jxray record` end to end, as part of `cargo test`: scripts/record-e2e.sh installs the
//! official openai and anthropic SDKs and ai-mock (a real mock server from PyPI) in its
//! own virtual environment, calls through the proxy streaming and not, and checks that
//! the SDKs received the same as without it and that the recorded folder checks right;
//! then instructor's and PydanticAI's own re-ask loops through the proxy, whose chains
//! `jxray check` must link and count as the loops do.

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
    // instructor (TOOLS, JSON, MD_JSON) and PydanticAI (tool and native output) re-ask on
    // their own;
    // every re-ask is linked and judged by its request's schema.
    for name in [
        "instructor-tools",
        "instructor-json",
        "instructor-md-json",
        "pydantic-ai-tool",
        "pydantic-ai-native",
    ] {
        assert!(
            stdout.contains(&format!("record-loops: {name} re-asked 1, repaired 1")),
            "{stdout}"
        );
    }
    assert!(
        stdout.contains("jxray check linked 5 repaired chains of 5 the loops repaired"),
        "{stdout}"
    );
}

#[test]
fn stop_on_ends_a_runaway_stream_as_a_length_stop_and_drops_the_upstream() {
    let stdout = support::cli::script_passes(
        "stop-on-e2e.sh",
        "it needs python3 with venv, and PyPI the first time",
    );
    for line in [
        "openai SDK: the runaway ended as a length stop",
        "openai SDK's Responses: the runaway ended as a length stop",
        "anthropic SDK: the runaway ended as a length stop",
        "google-genai SDK: the runaway ended as a length stop",
        "ollama SDK: the runaway ended as a length stop",
        "the good stream arrived byte for byte",
        "without --stop-on, the runaways arrived whole",
        "every recorded stream says when its bytes came",
        "stop-on end to end: passed",
    ] {
        assert!(stdout.contains(line), "{line:?} in {stdout}");
    }
}

/// The servers the end-to-end tests start (ai-mock, which starts uvicorn as a child) run
/// under scripts/own_group.py, which ends the server's whole group, children included,
/// when it is told to stop and when the process that started it is gone (a test killed
/// by a timeout).
mod servers_end_with_their_test {
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// A server that starts a child and writes the child's pid to `pid_file`.
    fn launch(pid_file: &Path, from: Option<&Path>) -> std::process::Child {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/own_group.py");
        let server = format!("sleep 300 & echo $! > {}; wait", pid_file.display());
        let launcher = format!("python3 {} sh -c '{server}'", script.display());
        match from {
            // Started by a shell that is then killed with SIGKILL: the launcher's parent.
            Some(parent_pid) => Command::new("sh")
                .args([
                    "-c",
                    &format!("{launcher} & echo $$ > {}; wait", parent_pid.display()),
                ])
                .stdin(Stdio::null())
                .spawn(),
            None => Command::new("sh").args(["-c", &launcher]).spawn(),
        }
        .expect("sh runs")
    }

    fn pid_in(file: &Path) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(pid) = std::fs::read_to_string(file)
                .ok()
                .and_then(|text| text.trim().parse().ok())
            {
                return pid;
            }
            assert!(
                Instant::now() < deadline,
                "{} never written",
                file.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn alive(pid: i32) -> bool {
        // A zombie has no command line left; a live process has its status file.
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.contains(") Z "))
    }

    fn gone_soon(pid: i32) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if !alive(pid) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    #[test]
    fn a_stopped_launcher_ends_the_servers_children() {
        let dir = tempfile::tempdir().unwrap();
        let child_pid = dir.path().join("child");
        let mut launcher = launch(&child_pid, None);
        let child = pid_in(&child_pid);
        assert!(alive(child));
        // The test's cleanup kills what it started (the shell running the launcher, whose
        // only command is it: sh execs it).
        let _ = Command::new("kill").arg(launcher.id().to_string()).status();
        let _ = launcher.wait();
        assert!(
            gone_soon(child),
            "the server's child {child} outlived the launcher"
        );
    }

    #[test]
    fn a_test_killed_outright_still_ends_the_servers_children() {
        let dir = tempfile::tempdir().unwrap();
        let (child_pid, parent_pid) = (dir.path().join("child"), dir.path().join("parent"));
        let mut parent = launch(&child_pid, Some(&parent_pid));
        let child = pid_in(&child_pid);
        let _ = pid_in(&parent_pid);
        parent.kill().unwrap();
        let _ = parent.wait();
        assert!(
            gone_soon(child),
            "the server's child {child} outlived its test"
        );
    }
}
