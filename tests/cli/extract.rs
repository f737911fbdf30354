//! `jxray extract`: the value on stdout, the outcome on stderr, exit 0/1/2.

use crate::support;

use support::cli::{assert_one_line_error, jxray_in, write_files};

const FENCED: &str = "Sure!\n```json\n{\"city\": \"Paris\", \"tags\": [1, 2]}\n```\nThat is all.";

#[test]
fn standard_input_gives_the_compact_value() {
    let dir = tempfile::tempdir().unwrap();
    let run = jxray_in(dir.path(), &["extract"], FENCED.as_bytes());
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "{\"city\":\"Paris\",\"tags\":[1,2]}\n");
    assert_eq!(run.stderr, "stdin: fenced warnings: trailing-prose\n");
    let dash = jxray_in(dir.path(), &["extract", "-"], FENCED.as_bytes());
    assert_eq!(dash.stdout, run.stdout);
}

#[test]
fn pretty_prints_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let run = jxray_in(dir.path(), &["extract", "--pretty"], FENCED.as_bytes());
    assert_eq!(
        run.stdout,
        "{\n  \"city\": \"Paris\",\n  \"tags\": [\n    1,\n    2\n  ]\n}\n"
    );
}

#[test]
fn a_failure_prints_nothing_on_stdout_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("cut.txt", "```json\n{\"a\": \"unfinished")]);
    let run = jxray_in(dir.path(), &["extract", "cut.txt"], b"");
    assert_eq!(run.code, 1);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.starts_with("cut.txt: truncated at "),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

#[test]
fn a_schema_failure_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("s.json", r#"{"required": ["country"]}"#)]);
    let run = jxray_in(
        dir.path(),
        &["extract", "--schema", "s.json"],
        FENCED.as_bytes(),
    );
    assert_eq!(run.code, 1);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("schema"), "{}", run.stderr);
    assert!(run.stderr.contains("country"), "{}", run.stderr);
}

#[test]
fn missing_files_and_folders_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = jxray_in(dir.path(), &["extract", "absent.txt"], b"");
    assert_eq!(run.code, 2);
    assert_one_line_error(&run, "absent.txt");
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    let run = jxray_in(dir.path(), &["extract", "folder"], b"");
    assert_eq!(run.code, 2);
    assert_one_line_error(&run, "jxray check folder");
}

#[test]
fn works_in_a_pipe_to_a_json_reader() {
    let dir = tempfile::tempdir().unwrap();
    let run = jxray_in(
        dir.path(),
        &["extract"],
        b"The answer: [1, {\"b\": null}] ok?",
    );
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value, serde_json::json!([1, {"b": null}]));
}

#[test]
fn decode_stringified_comes_from_the_flag_or_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let input = br#"{"name": "lookup", "arguments": "{\"sku\": \"A-1\"}"}"#;
    let home_path = home.path().to_str().unwrap();
    let env = [("XDG_CONFIG_HOME", home_path)];
    let plain = support::cli::jxray_env(dir.path(), &["extract"], input, &env);
    assert_eq!(
        plain.stdout,
        "{\"name\":\"lookup\",\"arguments\":\"{\\\"sku\\\": \\\"A-1\\\"}\"}\n"
    );
    assert!(plain.stderr.contains("stringified-json"), "{plain:?}");
    let decoded = "{\"name\":\"lookup\",\"arguments\":{\"sku\":\"A-1\"}}\n";
    let flag = support::cli::jxray_env(
        dir.path(),
        &["extract", "--decode-stringified"],
        input,
        &env,
    );
    assert_eq!(flag.stdout, decoded, "{flag:?}");
    std::fs::create_dir_all(home.path().join("jxray")).unwrap();
    std::fs::write(
        home.path().join("jxray/config.toml"),
        "decode_stringified = true\n",
    )
    .unwrap();
    let config = support::cli::jxray_env(dir.path(), &["extract"], input, &env);
    assert_eq!(config.stdout, decoded, "{config:?}");
}

#[test]
fn a_file_of_many_captures_prints_one_line_per_record_null_for_a_failed_one() {
    let dir = tempfile::tempdir().unwrap();
    let log = "{\"output\": \"{\\\"a\\\": 1}\"}\n{\"output\": \"no JSON here\"}\n\n{\"output\": \"[2]\"}\n";
    write_files(dir.path(), &[("log.jsonl", log)]);
    let run = jxray_in(dir.path(), &["extract", "log.jsonl"], b"");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stdout, "{\"a\":1}\nnull\n[2]\n");
    let outcomes: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(outcomes.len(), 3, "{}", run.stderr);
    assert!(
        outcomes[1].starts_with("log.jsonl:2: no-json"),
        "{}",
        run.stderr
    );
}

mod follow {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    use crate::support;
    use support::cli::jxray_in;

    fn lines(stdout: &str) -> Vec<serde_json::Value> {
        stdout
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
            .collect()
    }

    #[test]
    fn a_line_per_change_then_the_outcome_line_check_writes() {
        let dir = tempfile::tempdir().unwrap();
        let run = jxray_in(
            dir.path(),
            &["extract", "--follow"],
            super::FENCED.as_bytes(),
        );
        assert_eq!(run.code, 0, "{run:?}");
        let lines = lines(&run.stdout);
        let (outcome, snapshots) = lines.split_last().unwrap();
        assert_eq!(outcome["layer"], "fenced");
        assert_eq!(
            outcome["value"],
            serde_json::json!({"city": "Paris", "tags": [1, 2]})
        );
        assert_eq!(outcome["warnings"], serde_json::json!(["trailing-prose"]));
        assert!(snapshots
            .iter()
            .all(|s| s["state"] == "reading" && s["layer"] == "fenced"));
        let deltas: Vec<&serde_json::Value> = snapshots
            .iter()
            .flat_map(|s| s["deltas"].as_array().unwrap())
            .collect();
        assert_eq!(
            deltas[0],
            &serde_json::json!({"op": "add", "path": "", "value": {}})
        );
    }

    /// A spawned `jxray extract --follow ARGS`, its input open.
    fn follow(args: &[&str]) -> std::process::Child {
        Command::new(env!("CARGO_BIN_EXE_jxray"))
            .args(["extract", "--follow"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// What a `--stop-on` run wrote, once it ended by itself with status 1 while its input
    /// was still open.
    fn stopped_output(child: &mut std::process::Child) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "jxray waited for the end of the input"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(1));
        let mut stdout = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
        stdout
    }

    #[test]
    fn each_change_is_written_as_it_arrives() {
        let mut child = follow(&[]);
        let mut input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        input.write_all(b"{\"city\": \"Par").unwrap();
        input.flush().unwrap();
        // The line comes while the input is still open: it was flushed, not buffered.
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        let snapshot: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(snapshot["state"], "reading");
        assert_eq!(snapshot["open_paths"], serde_json::json!(["", "/city"]));
        // The string's first characters come with it.
        let added = serde_json::json!({"op": "add", "path": "/city", "value": "Par"});
        assert_eq!(snapshot["deltas"][1], added, "{line}");
        input.write_all(b"is\"}").unwrap();
        drop(input);
        let rest: Vec<String> = output.lines().map(Result::unwrap).collect();
        assert_eq!(child.wait().unwrap().code(), Some(0));
        let outcome: serde_json::Value = serde_json::from_str(rest.last().unwrap()).unwrap();
        assert_eq!(outcome["value"], serde_json::json!({"city": "Paris"}));
    }

    #[test]
    fn stop_on_ends_a_runaway_without_waiting_for_the_end_of_its_input() {
        let mut child = follow(&["--stop-on", "refusal,runaway"]);
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"{\"summary\": \"ok\"").unwrap();
        input.write_all(&b" \n".repeat(400)).unwrap();
        input.flush().unwrap();
        // The input stays open, as a stream that loops would keep it.
        let stdout = stopped_output(&mut child);
        drop(input);
        let lines = lines(&stdout);
        let stopped = lines
            .iter()
            .find(|line| line.get("stopped").is_some())
            .unwrap();
        assert_eq!(stopped["stopped"]["kind"], "runaway");
        assert_eq!(stopped["stopped"]["byte"], 16 + 511);
        let outcome = lines.last().unwrap();
        assert_eq!(outcome["failure"]["kind"], "truncated");
    }

    #[test]
    fn with_a_schema_an_item_that_breaks_it_stops_the_stream_as_it_closes() {
        let dir = tempfile::tempdir().unwrap();
        let schema = dir.path().join("triage.json");
        std::fs::write(
            &schema,
            r#"{"type": "array", "items": {"type": "object", "required": ["severity"],
                "properties": {"severity": {"enum": ["low", "high"]}}}}"#,
        )
        .unwrap();
        let schema = schema.to_str().unwrap();
        let mut child = follow(&["--schema", schema, "--stop-on", "schema"]);
        let mut input = child.stdin.take().unwrap();
        // The second item is wrong; the stream goes on and stays open.
        input
            .write_all(br#"[{"severity": "low"}, {"severity": "urgent"}, {"severity": "hi"#)
            .unwrap();
        input.flush().unwrap();
        let stdout = stopped_output(&mut child);
        drop(input);
        let lines = lines(&stdout);
        let stopped = &lines
            .iter()
            .find(|line| line.get("stopped").is_some())
            .unwrap()["stopped"];
        assert_eq!(stopped["kind"], "schema");
        assert_eq!(stopped["path"], "/1/severity");
        assert_eq!(stopped["byte"], 42, "the closing quote of \"urgent\"");
        let message = stopped["message"].as_str().unwrap();
        assert!(
            message.starts_with("/1/severity = \"urgent\": "),
            "{message}"
        );
    }

    #[test]
    fn an_unknown_signal_is_a_usage_error() {
        let dir = tempfile::tempdir().unwrap();
        let run = jxray_in(
            dir.path(),
            &["extract", "--follow", "--stop-on", "runaway,loop"],
            b"",
        );
        assert_eq!(run.code, 2);
        assert!(
            run.stderr.contains("unknown signal \"loop\""),
            "{}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1);
    }
}

#[test]
fn a_raw_text_cut_by_length_is_truncated_with_stop_reason() {
    let dir = tempfile::tempdir().unwrap();
    let run = jxray_in(
        dir.path(),
        &["extract", "--stop-reason", "length"],
        b"{\"a\": [1, 2]}",
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.starts_with("stdin: truncated"), "{}", run.stderr);
}

#[test]
fn follow_reads_a_providers_stream_as_curl_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    let chunk = |content: &str, finish: &str| {
        format!(
            "data: {}\n\n",
            serde_json::json!({"id": "c", "object": "chat.completion.chunk", "model": "gpt-4o-mini",
                "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": if finish.is_empty() { serde_json::Value::Null } else { finish.into() }}]})
        )
    };
    let stream = [
        chunk("```json\n{\"city\": \"Pa", ""),
        chunk("ris\"}\n```", "stop"),
        "data: [DONE]\n\n".to_string(),
    ]
    .concat();
    let run = support::cli::jxray_in(
        dir.path(),
        &["extract", "--follow", "--input", "sse"],
        stream.as_bytes(),
    );
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (outcome, snapshots) = lines.split_last().unwrap();
    assert_eq!(outcome["value"], serde_json::json!({"city": "Paris"}));
    assert_eq!(outcome["provider"], "openai-chat");
    assert_eq!(outcome["stop_reason"], "stop");
    assert!(
        snapshots.iter().any(|s| s["layer"] == "fenced"),
        "{}",
        run.stdout
    );
    let texts: String = snapshots
        .iter()
        .flat_map(|s| s["deltas"].as_array().unwrap())
        .filter_map(|d| d["text"].as_str().or(d["value"].as_str()))
        .collect();
    assert_eq!(texts, "Paris");
}
