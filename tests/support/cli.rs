//! Running the real `jxray` binary in tests.
#![allow(dead_code)] // each test crate uses part of this

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `jxray ARGS` in `dir`, feeding `stdin`, with `NO_COLOR` unset.
pub fn jxray_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    jxray_env(dir, args, stdin, &[])
}

/// Like [`jxray_in`], with extra environment variables.
pub fn jxray_env(dir: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jxray"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("JXRAY_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("the jxray binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    // The binary may exit without reading (a usage error): ignore a closed pipe.
    let _ = input.write_all(stdin);
    drop(input);
    let output = child.wait_with_output().expect("jxray finishes");
    Run {
        code: output.status.code().expect("jxray exits with a status"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Run `jxray ARGS` in the crate root.
pub fn jxray(args: &[&str]) -> Run {
    jxray_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, b"")
}

/// Run `scripts/NAME` with bash on this build's binary, in the crate root, and return its
/// standard output; a failure panics with both outputs and what the script needs.
pub fn script_passes(name: &str, needs: &str) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new("bash")
        .arg(format!("{root}/scripts/{name}"))
        .arg(env!("CARGO_BIN_EXE_jxray"))
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("bash runs scripts/{name}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "scripts/{name} failed ({needs})\n{stdout}\n{stderr}"
    );
    stdout
}

/// Write `files` (relative path, contents) under `dir`.
pub fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(path, text).unwrap();
    }
}

/// The error line: exactly one line, naming what it is about.
pub fn assert_one_line_error(run: &Run, names: &str) {
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one error line: {:?}", run.stderr);
    assert!(lines[0].starts_with("jxray: "), "{:?}", lines[0]);
    assert!(lines[0].contains(names), "{:?} names {names}", lines[0]);
}
