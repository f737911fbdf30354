//! Real pipes and real signals on the real binary: a reader that goes away (`| head -1`)
//! never turns a failed run into exit 0 and draws no error, and SIGTERM or SIGINT leave
//! only whole lines behind, then exit 143 or 130.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

const JXRAY: &str = env!("CARGO_BIN_EXE_jxray");

/// `count` JSON Lines captures, each a cut-off array (every one fails), `pad` bytes long.
fn failing_log(dir: &Path, count: usize, pad: usize) -> std::path::PathBuf {
    let path = dir.join("fail.jsonl");
    let line = format!("{{\"output\": \"[1, 2, \\\"{}\\\",\"}}\n", "x".repeat(pad));
    std::fs::write(&path, line.repeat(count)).unwrap();
    path
}

/// `count` JSON Lines captures that parse, each a value of `pad` bytes (a jsonl record
/// carries its value, so its line is as long).
fn passing_log(dir: &Path, count: usize, pad: usize) -> std::path::PathBuf {
    let path = dir.join("ok.jsonl");
    let line = format!(
        "{{\"output\": \"{{\\\"pad\\\": \\\"{}\\\"}}\"}}\n",
        "x".repeat(pad)
    );
    std::fs::write(&path, line.repeat(count)).unwrap();
    path
}

/// `bash -c 'set -o pipefail; COMMAND | head -1'` in `dir`: the status and stderr.
fn through_head(dir: &Path, command: &str) -> (i32, String) {
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!("set -o pipefail; {command} | head -1 >/dev/null"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code().unwrap_or(-1), stderr)
}

#[test]
fn a_reader_that_goes_away_keeps_the_failure_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    failing_log(dir.path(), 20_000, 40);
    for format in ["text", "jsonl", "json", "github", "junit"] {
        let command = format!("'{JXRAY}' check fail.jsonl --format {format}");
        let (code, stderr) = through_head(dir.path(), &command);
        assert_eq!(code, 1, "--format {format}: {stderr}");
        assert_eq!(stderr, "", "--format {format} prints nothing more");
    }
}

#[test]
fn a_reader_that_goes_away_from_standard_input_keeps_the_failure() {
    let dir = tempfile::tempdir().unwrap();
    failing_log(dir.path(), 20_000, 40);
    let command = format!("'{JXRAY}' check - --format jsonl < fail.jsonl");
    assert_eq!(through_head(dir.path(), &command), (1, String::new()));
}

#[test]
fn a_clean_run_that_loses_its_reader_is_still_clean() {
    let dir = tempfile::tempdir().unwrap();
    passing_log(dir.path(), 20_000, 40);
    let command = format!("'{JXRAY}' check ok.jsonl --format jsonl");
    assert_eq!(through_head(dir.path(), &command), (0, String::new()));
}

#[test]
fn test_and_extract_keep_their_status_when_the_reader_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = dir.path().join("fixtures");
    std::fs::create_dir(&fixtures).unwrap();
    for n in 0..300 {
        let fixture = serde_json::json!({
            "jxray_fixture": 1, "name": format!("f{n}"), "input": "{\"a\": 1}",
            "expect": {"ok": false, "failure": "truncated", "defect": null}
        });
        std::fs::write(fixtures.join(format!("f{n}.json")), fixture.to_string()).unwrap();
    }
    let command = format!("'{JXRAY}' test fixtures");
    assert_eq!(through_head(dir.path(), &command).0, 1);
    // A failure first, then values larger than a pipe holds: the failure was seen.
    let failing = std::fs::read_to_string(failing_log(dir.path(), 1, 10)).unwrap();
    let passing = std::fs::read_to_string(passing_log(dir.path(), 3, 200_000)).unwrap();
    std::fs::write(dir.path().join("mixed.jsonl"), failing + &passing).unwrap();
    let command = format!("'{JXRAY}' extract mixed.jsonl 2>/dev/null");
    assert_eq!(through_head(dir.path(), &command).0, 1);
}

/// Run `jxray ARGS` with a reader that takes a line every few milliseconds, send it
/// `signal` once it has written `after` lines, and read what it wrote to the end: the
/// bytes and the exit status.
fn signalled(args: &[&str], dir: &Path, signal: &str, after: usize) -> (Vec<u8>, Option<i32>) {
    let mut child = Command::new(JXRAY)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut bytes = Vec::new();
    for _ in 0..after {
        reader.read_until(b'\n', &mut bytes).unwrap();
        thread::sleep(Duration::from_millis(2));
    }
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // Slowly still: the line being written must be finished into a pipe that drains.
    let mut chunk = [0u8; 512];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => bytes.extend_from_slice(&chunk[..read]),
        }
        thread::sleep(Duration::from_millis(1));
    }
    (bytes, child.wait().unwrap().code())
}

#[test]
fn a_signal_mid_run_leaves_whole_lines_and_its_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    // Records of about 70 KB, larger than a pipe holds, so each is written in parts; and
    // many short lines of text, more than a pipe holds.
    passing_log(dir.path(), 300, 70_000);
    failing_log(dir.path(), 50_000, 10);
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        for (format, log) in [("jsonl", "ok.jsonl"), ("text", "fail.jsonl")] {
            for _try in 0..3 {
                let args = ["check", log, "--format", format];
                let (bytes, status) = signalled(&args, dir.path(), signal, 3);
                assert_eq!(status, Some(code), "SIG{signal} --format {format}");
                assert_eq!(bytes.last(), Some(&b'\n'), "SIG{signal} cut a line");
                if format == "jsonl" {
                    for line in bytes.split(|&byte| byte == b'\n').filter(|l| !l.is_empty()) {
                        serde_json::from_slice::<serde_json::Value>(line)
                            .unwrap_or_else(|e| panic!("SIG{signal}: a cut record: {e}"));
                    }
                }
            }
        }
    }
}
