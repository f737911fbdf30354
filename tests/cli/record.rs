//! `jxray record` on the command line: the lines it prints at start, and its own failures
//! as one line and exit status 2.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn jxray(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(args)
        .output()
        .expect("jxray runs")
}

fn one_line_error(output: &std::process::Output) -> String {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn record_is_listed_in_help() {
    let help = String::from_utf8_lossy(&jxray(&["--help"]).stdout).into_owned();
    assert!(help.contains("record "), "{help}");
}

#[test]
fn a_bad_upstream_is_one_line_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().to_str().unwrap();
    for spec in ["vllm", "vllm=ftp://x", "a/b=http://x"] {
        let stderr = one_line_error(&jxray(&["record", "--to", to, "--upstream", spec]));
        assert!(stderr.contains("bad --upstream"), "{stderr}");
    }
}

#[test]
fn a_port_in_use_is_one_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let dir = tempfile::tempdir().unwrap();
    let output = jxray(&[
        "record",
        "--port",
        &port,
        "--to",
        dir.path().to_str().unwrap(),
    ]);
    let stderr = one_line_error(&output);
    assert!(
        stderr.contains("the port is in use; pick another with --port"),
        "{stderr}"
    );
}

#[test]
fn a_folder_that_cannot_hold_captures_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let output = jxray(&["record", "--port", "0", "--to", file.to_str().unwrap()]);
    let stderr = one_line_error(&output);
    assert!(
        stderr.contains("pass a writable folder with --to"),
        "{stderr}"
    );
}

#[test]
fn the_lines_to_paste_name_the_port() {
    let dir = tempfile::tempdir().unwrap();
    let port = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        free.local_addr().unwrap().port()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(["record", "--port", &port.to_string(), "--to"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let done = line.starts_with("Watch them arrive");
        lines.push(line);
        if done {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = lines.join("\n");
    for expected in [
        format!("listening on http://127.0.0.1:{port}"),
        format!("export OPENAI_BASE_URL=http://127.0.0.1:{port}/openai"),
        format!("export ANTHROPIC_BASE_URL=http://127.0.0.1:{port}/anthropic"),
        format!("base_url=\"http://127.0.0.1:{port}/gemini\""),
        format!("export OLLAMA_HOST=http://127.0.0.1:{port}/ollama"),
        format!("api_base=\"http://127.0.0.1:{port}/openai\""),
    ] {
        assert!(text.contains(&expected), "{expected} not in\n{text}");
    }
}
