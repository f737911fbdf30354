//! `jxray check` as a stream: outcomes in order and complete under parallelism, and
//! standard input checked line by line while it is still being written.

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use jxray::capture::{self, LoadOptions};
use jxray::check::{Checked, Checker};
use jxray::engine::Options;
use jxray::report::{write_all, JsonlSink, Painter, Sink, TextSink};
use serde_json::Value;
use support::cli::{jxray_in, write_files};

/// A capture of about `size` bytes whose outcome depends on `i` (ok, fenced, cut, invalid).
fn output(i: usize, size: usize) -> String {
    let filler = "x".repeat(size);
    match i % 4 {
        0 => format!("{{\"n\": {i}, \"pad\": \"{filler}\"}}"),
        1 => format!("Here:\n```json\n{{\"n\": {i}, \"pad\": \"{filler}\"}}\n```"),
        2 => format!("{{\"n\": {i}, \"pad\": \"{filler}"),
        _ => format!("{{\"n\": {i}, \"pad\": \"{filler}\",}}"),
    }
}

/// Sizes that vary over four orders of magnitude, so workers finish out of order.
fn size(i: usize) -> usize {
    [3, 40, 900, 20_000, 250_000][i * 7 % 5]
}

/// The report formats compared between a streamed and a sequential run.
#[derive(Clone, Copy)]
enum Report {
    Jsonl,
    Text,
}

/// The report of `path` built one capture after another, with no pipeline.
fn sequential(path: &std::path::Path, report: Report) -> String {
    let checked: Vec<Checked> = capture::load(path, &LoadOptions::default())
        .unwrap()
        .into_iter()
        .map(|capture| Checker::new(Options::default(), None).check(capture))
        .collect();
    let mut out = Vec::new();
    let mut sink: Box<dyn Sink + '_> = match report {
        Report::Text => Box::new(TextSink::new(&mut out, Painter::plain(), 256)),
        Report::Jsonl => Box::new(JsonlSink::new(&mut out)),
    };
    write_all(&mut sink, &checked).unwrap();
    drop(sink);
    String::from_utf8(out).unwrap()
}

#[test]
fn streamed_output_is_complete_and_in_order_under_parallelism() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..120 {
        files.push((format!("d{}/c{i:03}.txt", i % 7), output(i, size(i))));
    }
    let mut log = String::new();
    for i in 0..3000 {
        let record = serde_json::json!({"output": output(i, size(i) % 2000)});
        log.push_str(&format!("{record}\n"));
    }
    files.push(("log.jsonl".to_string(), log));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    write_files(dir.path(), &files);

    let run = jxray_in(dir.path(), &["check", ".", "--format", "jsonl"], b"");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let expected = sequential(dir.path(), Report::Jsonl);
    assert_eq!(run.stdout.lines().count(), 120 + 3000);
    assert!(
        run.stdout == expected,
        "the streamed jsonl differs from a sequential run"
    );

    let run = jxray_in(dir.path(), &["check", ".", "--color", "never"], b"");
    assert!(
        run.stdout == sequential(dir.path(), Report::Text),
        "the text report differs"
    );

    // JUnit holds its cases until the end; they still come in order, each once.
    let run = jxray_in(dir.path(), &["check", ".", "--format", "junit"], b"");
    let doc = roxmltree::Document::parse(&run.stdout).unwrap();
    let cases: Vec<(String, bool)> = doc
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|case| {
            let failed = case.children().any(|node| node.has_tag_name("failure"));
            (case.attribute("name").unwrap().to_string(), !failed)
        })
        .collect();
    let expected: Vec<(String, bool)> = expected
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            let source = record["source"].as_str().unwrap().to_string();
            (source, record["ok"].as_bool().unwrap())
        })
        .collect();
    assert!(
        cases == expected,
        "the junit cases differ from a sequential run"
    );
}

/// Spawn `jxray check - ARGS` and return its stdin and a channel of its stdout lines.
fn filter(args: &[&str]) -> (std::process::Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(["check", "-"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, received) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    (child, received)
}

#[test]
fn each_outcome_is_written_before_the_next_line_arrives() {
    let (mut child, lines) = filter(&["--format", "jsonl"]);
    let mut stdin = child.stdin.take().unwrap();
    let inputs = [
        (r#"{"output": "{\"a\": 1}"}"#, "-:1", true),
        (
            r#"{"custom_id": "req-2", "output": "[1, 2,"}"#,
            "-:2",
            false,
        ),
        ("", "", true),
        (r#"{"output": "Sure: ```json\n{}\n```"}"#, "-:4", true),
    ];
    for (input, source, ok) in inputs {
        stdin.write_all(input.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        if input.is_empty() {
            continue;
        }
        // Standard input is still open: the outcome must come without waiting for its end.
        let line = lines
            .recv_timeout(Duration::from_secs(30))
            .expect("the outcome of a line arrives while input is still open");
        let record: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(record["source"], source, "{line}");
        assert_eq!(record["ok"], ok, "{line}");
    }
    drop(stdin);
    assert!(
        lines.recv_timeout(Duration::from_secs(30)).is_err(),
        "nothing after the last"
    );
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn the_text_report_streams_from_standard_input_too() {
    let (mut child, lines) = filter(&["--color", "never"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"{\"output\": \"{}\"}\n").unwrap();
    stdin.flush().unwrap();
    let line = lines.recv_timeout(Duration::from_secs(30)).unwrap();
    assert_eq!(line, "ok   direct     -:1");
    drop(stdin);
    let rest: Vec<String> = lines.iter().collect();
    assert!(
        rest.contains(&"1 capture: 1 ok, 0 failed".to_string()),
        "{rest:?}"
    );
    assert_eq!(child.wait().unwrap().code(), Some(0));
}
