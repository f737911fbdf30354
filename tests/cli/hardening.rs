//! Hostile input through every command (contract §2, §3): nothing printed acts on a
//! terminal, and nothing that is not a regular file is waited on.
//!
//! Every run has a deadline, so a regression that blocks on a FIFO fails the test
//! instead of hanging CI.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Long enough for a debug build on a loaded machine, short enough to fail a hang.
const DEADLINE: Duration = Duration::from_secs(60);

#[derive(Debug)]
struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }
    fn stderr(&self) -> String {
        String::from_utf8(self.stderr.clone()).expect("stderr is UTF-8")
    }
}

/// Run `jxray ARGS` in `dir` with `env`, stdin closed; kill it and fail past the deadline.
fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jxray"));
    command
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("the jxray binary runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("jxray {args:?} did not finish within {DEADLINE:?}: it blocked");
        }
        thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code().expect("jxray exits with a status"),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The terminal-acting code points: ESC, the C1 CSI, OSC and DCS, BEL, and the bidi override.
const HOSTILE_CHARS: [char; 6] = ['\u{1b}', '\u{9b}', '\u{9d}', '\u{90}', '\u{7}', '\u{202e}'];

/// A title-setting OSC, an OSC 52 clipboard write, a CSI, C1 controls and a bidi override.
const HOSTILE: &str = "\u{1b}]0;pwned\u{7}\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[2J\u{9b}31m\u{9d}0;t\u{9c}\u{90}q\u{85}\u{202e}";

/// No escape reaches the output: neither the raw ESC byte nor any control code point.
/// (The inputs hold no other non-ASCII text, so a raw 0x9B/0x9D/0x90 byte could only be
/// half of a C1 character.)
fn assert_inert(what: &str, bytes: &[u8]) {
    for byte in [0x1b, 0x9b, 0x9d, 0x90, 0x07] {
        assert!(
            !bytes.contains(&byte),
            "{what}: byte 0x{byte:02X} reached the output:\n{}",
            String::from_utf8_lossy(bytes)
        );
    }
    let text = String::from_utf8(bytes.to_vec()).expect("output is UTF-8");
    for ch in text.chars() {
        let unsafe_char = HOSTILE_CHARS.contains(&ch) || (ch.is_control() && ch != '\n');
        assert!(
            !unsafe_char,
            "{what}: U+{:04X} reached the output:\n{text}",
            ch as u32
        );
    }
}

fn assert_run_inert(what: &str, run: &Run) {
    assert_inert(&format!("{what} stdout"), &run.stdout);
    assert_inert(&format!("{what} stderr"), &run.stderr);
}

/// Whether any string or key in `value` contains `needle`.
fn holds(value: &serde_json::Value, needle: &str) -> bool {
    match value {
        serde_json::Value::String(text) => text.contains(needle),
        serde_json::Value::Array(items) => items.iter().any(|item| holds(item, needle)),
        serde_json::Value::Object(map) => map
            .iter()
            .any(|(key, item)| key.contains(needle) || holds(item, needle)),
        _ => false,
    }
}

/// A folder with hostile keys, values, duplicate keys, file names and a schema.
fn hostile_folder(dir: &Path) -> String {
    let key = serde_json::to_string(&format!("k{HOSTILE}")).unwrap();
    let value = serde_json::to_string(&format!("v{HOSTILE}")).unwrap();
    let file_name = format!("cap{HOSTILE}.txt");
    // A schema failure whose instance path holds the hostile key, and a duplicate key.
    fs::write(
        dir.join(&file_name),
        format!("{{{key}: {value}, {key}: 1}}"),
    )
    .unwrap();
    // A failure whose message quotes the raw text.
    fs::write(
        dir.join("broken.txt"),
        format!("{{\"a\": 1,, {key}: {value}}}"),
    )
    .unwrap();
    fs::write(
        dir.join("schema.json"),
        r#"{"type": "object", "additionalProperties": {"type": "string"}}"#,
    )
    .unwrap();
    file_name
}

#[test]
fn check_in_every_format_prints_nothing_that_acts_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let captures = dir.path().join("captures");
    fs::create_dir(&captures).unwrap();
    hostile_folder(&captures);
    fs::rename(captures.join("schema.json"), dir.path().join("schema.json")).unwrap();
    for format in ["text", "json", "jsonl"] {
        let run = run(
            dir.path(),
            &[
                "check",
                "captures",
                "--format",
                format,
                "--schema",
                "schema.json",
            ],
            &[],
        );
        assert_eq!(run.code, 1, "{format}: {run:?}");
        assert_run_inert(&format!("check --format {format}"), &run);
        let stdout = run.stdout();
        if format == "text" {
            assert!(stdout.contains("\\u{1b}]0;pwned\\u{7}"), "{stdout}");
            assert!(stdout.contains("\\u{202e}"), "{stdout}");
        } else {
            // Still JSON, and the escapes decode back to exactly what was in the capture.
            assert!(
                stdout.contains("\\u009b") && stdout.contains("\\u202e"),
                "{stdout}"
            );
            let documents: Vec<serde_json::Value> = if format == "json" {
                vec![serde_json::from_str(&stdout).unwrap()]
            } else {
                stdout
                    .lines()
                    .map(|line| serde_json::from_str(line).unwrap())
                    .collect()
            };
            assert!(documents.iter().any(|d| holds(d, HOSTILE)), "{stdout}");
        }
    }
}

#[test]
fn extract_prints_nothing_that_acts_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let file_name = hostile_folder(dir.path());
    let with_schema = run(
        dir.path(),
        &["extract", &file_name, "--schema", "schema.json"],
        &[],
    );
    assert_eq!(with_schema.code, 1, "{with_schema:?}");
    assert!(with_schema.stderr().contains("schema"), "{with_schema:?}");
    assert_run_inert("extract --schema", &with_schema);

    let value = run(dir.path(), &["extract", &file_name], &[]);
    assert_eq!(value.code, 0, "{value:?}");
    assert!(value.stdout().contains("\\u202e"), "{value:?}");
    assert_run_inert("extract", &value);

    let broken = run(dir.path(), &["extract", "broken.txt"], &[]);
    assert_eq!(broken.code, 1, "{broken:?}");
    assert_run_inert("extract broken", &broken);
}

#[test]
fn error_lines_print_nothing_that_acts_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let missing = format!("missing{HOSTILE}");
    for args in [
        vec!["check", missing.as_str()],
        vec!["extract", missing.as_str()],
        vec!["test", missing.as_str()],
        vec!["check", ".", "--schema", missing.as_str()],
        vec![missing.as_str()],
    ] {
        let run = run(dir.path(), &args, &[]);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr().contains("missing\\u{1b}"), "{args:?}: {run:?}");
        assert_run_inert(&format!("{args:?}"), &run);
    }
}

#[test]
fn test_prints_nothing_that_acts_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = dir.path().join("fixtures");
    fs::create_dir(&fixtures).unwrap();
    // A failing fixture whose name, note-free expectation and input hold escapes,
    // in a file whose name does too.
    let fixture = serde_json::json!({
        "jxray_fixture": 1,
        "name": format!("name{HOSTILE}"),
        "source": format!("src{HOSTILE}"),
        "input": format!("{{\"k{HOSTILE}\": 1}}"),
        "stop_reason": null,
        "expect": {"ok": true, "layer": "fenced", "value": {format!("x{HOSTILE}"): 2},
                   "repairs": [], "warnings": []}
    });
    fs::write(
        fixtures.join(format!("f{HOSTILE}.json")),
        serde_json::to_string_pretty(&fixture).unwrap(),
    )
    .unwrap();
    // A malformed one, reported as an error line.
    fs::write(fixtures.join(format!("bad{HOSTILE}.json")), "{}").unwrap();
    let run = run(dir.path(), &["test"], &[]);
    assert_eq!(run.code, 1, "{run:?}");
    let stdout = run.stdout();
    assert!(stdout.contains("FAIL name\\u{1b}"), "{stdout}");
    assert!(stdout.contains("ERROR"), "{stdout}");
    assert_run_inert("test", &run);
}

#[cfg(unix)]
mod non_regular_files {
    use super::*;

    fn mkfifo(path: &Path) {
        let status = Command::new("mkfifo").arg(path).status().unwrap();
        assert!(status.success());
    }

    #[test]
    fn a_fifo_capture_is_reported_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join("pipe.txt"));
        let run = run(dir.path(), &["check", "pipe.txt"], &[]);
        assert_eq!(run.code, 1, "{run:?}");
        assert!(run.stdout().contains("FIFO"), "{run:?}");
    }

    #[test]
    fn a_fifo_or_device_fixture_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join("pipe.json"));
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.json")).unwrap();
        let run = run(dir.path(), &["test", "."], &[]);
        assert_eq!(run.code, 1, "{run:?}");
        let stdout = run.stdout();
        assert!(stdout.contains("pipe.json: is a FIFO"), "{stdout}");
        assert!(
            stdout.contains("zero.json: is a character device"),
            "{stdout}"
        );
        assert!(stdout.ends_with("0 passed, 2 failed\n"), "{stdout}");
    }

    #[test]
    fn test_on_a_fifo_or_a_device_names_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join("f.json"));
        for (path, kind) in [
            ("f.json", "a FIFO (named pipe)"),
            ("/dev/null", "a character device"),
        ] {
            let run = run(dir.path(), &["test", path], &[]);
            assert_eq!(run.code, 2, "{path}: {run:?}");
            let stderr = run.stderr();
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains(&format!("{path}: is {kind}, not a fixture file")),
                "{stderr}"
            );
            assert!(stderr.contains("only regular files"), "{stderr}");
            assert!(!stderr.contains("no such"), "{stderr}");
        }
    }

    #[test]
    fn a_fifo_or_device_schema_is_one_error_line() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a.txt"), "{}").unwrap();
        mkfifo(&dir.path().join("schema.json"));
        for schema in ["schema.json", "/dev/zero"] {
            for command in ["check", "extract"] {
                let run = run(dir.path(), &[command, "a.txt", "--schema", schema], &[]);
                assert_eq!(run.code, 2, "{command} {schema}: {run:?}");
                let stderr = run.stderr();
                assert_eq!(stderr.lines().count(), 1, "{stderr}");
                assert!(stderr.contains(schema), "{stderr}");
                assert!(stderr.contains("not a regular file"), "{stderr}");
            }
        }
    }

    #[test]
    fn a_fifo_config_file_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        mkfifo(&config);
        let (send, receive) = std::sync::mpsc::channel();
        thread::spawn(move || {
            let _ = send.send(jxray::config::Config::load_from(&config).map(|_| ()));
        });
        let error = receive
            .recv_timeout(DEADLINE)
            .expect("loading a FIFO config returns instead of blocking")
            .unwrap_err();
        assert!(error.to_string().contains("is a FIFO"), "{error}");
    }
}

/// No line of `text` is a workflow command that jxray did not mean to write: every `::`
/// line is an annotation at a file.
fn assert_no_forged_command(what: &str, text: &str) {
    for line in text.lines() {
        let ours = line.starts_with("::error file=") || line.starts_with("::warning file=");
        assert!(
            !line.starts_with("::") || ours,
            "{what}: a forged workflow command: {line}"
        );
    }
}

#[test]
fn every_line_printed_is_one_line_and_forges_no_workflow_command() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("ok.txt"), "{\"a\": 1}").unwrap();
    fs::write(dir.path().join("bad\n::error::forged.txt"), "[1, 2").unwrap();
    fs::write(
        dir.path()
            .join(format!("skip.csv\n::error::pwned{HOSTILE}")),
        "",
    )
    .unwrap();
    for format in ["text", "json", "jsonl", "github", "junit"] {
        let run = run(dir.path(), &["check", ".", "--format", format], &[]);
        assert_eq!(run.code, 1, "{format}: {run:?}");
        assert_run_inert(&format!("check --format {format}"), &run);
        assert_no_forged_command(&format!("{format} stdout"), &run.stdout());
        assert_no_forged_command(&format!("{format} stderr"), &run.stderr());
        let all = format!("{}{}", run.stdout(), run.stderr());
        assert!(all.contains(".csv\\n::error::pwned"), "{format}: {all}");
    }
}

#[test]
fn usage_errors_and_help_show_values_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("--x{HOSTILE}");
    let share = format!("x{HOSTILE}=1");
    let config_home = format!("/tmp/{HOSTILE}");
    // Colour forced: clap would otherwise strip some escapes rather than show them.
    let forced = [("CLICOLOR_FORCE", "1")];
    for (args, env) in [
        (vec!["check", name.as_str()], &forced[..]),
        (
            vec!["check", ".", "--max-share", share.as_str()],
            &forced[..],
        ),
        (
            vec!["--help"],
            &[("XDG_CONFIG_HOME", config_home.as_str())][..],
        ),
        (vec!["check", "--help"], &forced[..]),
    ] {
        let run = run(dir.path(), &args, env);
        let expected = if args.contains(&"--help") { 0 } else { 2 };
        assert_eq!(run.code, expected, "{args:?}: {run:?}");
        assert_run_inert(&format!("{args:?}"), &run);
        if expected == 2 {
            assert!(run.stderr().contains("\\u{1b}]0;pwned\\u{7}"), "{run:?}");
        }
    }
    let help = run(
        dir.path(),
        &["--help"],
        &[("XDG_CONFIG_HOME", &config_home)],
    );
    assert!(help.stdout().contains("/tmp/\\u{1b}]0;pwned"), "{help:?}");
}

#[test]
fn compare_json_escapes_c1_and_bidi_like_every_json_output() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("cap{HOSTILE}.txt");
    for (side, text) in [("old", "{\"a\": 1}"), ("new", "[1, 2")] {
        fs::create_dir(dir.path().join(side)).unwrap();
        fs::write(dir.path().join(side).join(&name), text).unwrap();
    }
    let run = run(
        dir.path(),
        &["compare", "old", "new", "--format", "json"],
        &[],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_run_inert("compare --format json", &run);
    let stdout = run.stdout();
    assert!(
        stdout.contains("\\u009b") && stdout.contains("\\u202e"),
        "{stdout}"
    );
    let document: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(holds(&document, HOSTILE), "{stdout}");
}
