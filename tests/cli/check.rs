//! `jxray check`: formats, exit codes, schema, options, colour.

use crate::support;

use serde_json::Value;
use support::cli::{assert_one_line_error, jxray_env, jxray_in, write_files, Run};

const FENCED: &str = "Sure!\n```json\n{\"city\": \"Paris\"}\n```\nThat is all.";
const TRAILING_COMMA: &str = "{\"a\": 1,}";
const CUT: &str = "[1, 2,";

fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), files);
    dir
}

fn records(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
        .collect()
}

#[test]
fn all_ok_exits_0_and_any_failure_exits_1() {
    let dir = folder(&[("a.txt", FENCED), ("b.txt", "[1]")]);
    let run = jxray_in(dir.path(), &["check", "."], b"");
    assert_eq!(run.code, 0, "{run:?}");
    write_files(dir.path(), &[("c.txt", CUT)]);
    let run = jxray_in(dir.path(), &["check", "."], b"");
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.is_empty());
}

#[test]
fn a_missing_path_exits_2_with_one_line() {
    let dir = folder(&[]);
    let run = jxray_in(dir.path(), &["check", "nowhere"], b"");
    assert_eq!(run.code, 2);
    assert_one_line_error(&run, "nowhere");
    assert!(run.stdout.is_empty());
}

#[test]
fn usage_errors_exit_2() {
    let dir = folder(&[("a.txt", FENCED)]);
    for args in [
        &["check", ".", "--format", "xml"][..],
        &["check", ".", "--pick", "middle"],
        &["check", ".", "--max-bytes", "lots"],
        &["frobnicate"],
    ] {
        let run = jxray_in(dir.path(), args, b"");
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
    }
}

#[test]
fn jsonl_is_one_object_a_capture_sorted_with_contract_keys_first() {
    let dir = folder(&[
        ("b.txt", TRAILING_COMMA),
        ("a.txt", FENCED),
        ("sub/c.txt", CUT),
    ]);
    let run = jxray_in(dir.path(), &["check", ".", "--format", "jsonl"], b"");
    assert_eq!(run.code, 1);
    let records = records(&run.stdout);
    let sources: Vec<&str> = records
        .iter()
        .map(|r| r["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["a.txt", "b.txt", "sub/c.txt"]);
    let contract_keys = [
        "source",
        "ok",
        "layer",
        "value",
        "span",
        "repairs",
        "warnings",
        "failure",
        "stop_reason",
        "provider",
    ];
    for record in &records {
        let keys: Vec<&str> = record
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys[..contract_keys.len()], contract_keys, "{record}");
    }
    let first = &records[0];
    assert_eq!(first["ok"], true);
    assert_eq!(first["layer"], "fenced");
    assert_eq!(first["value"], serde_json::json!({"city": "Paris"}));
    assert_eq!(first["span"], serde_json::json!([14, 31]));
    assert_eq!(first["warnings"], serde_json::json!(["trailing-prose"]));
    assert_eq!(first["failure"], Value::Null);
    let failure = &records[1]["failure"];
    assert_eq!(records[1]["value"], Value::Null);
    assert_eq!(failure["kind"], "invalid");
    assert_eq!(failure["defect"], "trailing-comma");
    assert_eq!(
        (failure["line"].as_u64(), failure["column"].as_u64()),
        (Some(1), Some(9))
    );
    let keys: Vec<&str> = failure
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys[..7],
        ["kind", "defect", "cause", "line", "column", "message", "defects"]
    );
    assert_eq!(records[2]["failure"]["kind"], "truncated");
}

#[test]
fn value_keeps_the_models_key_order() {
    let dir = folder(&[("a.txt", "{\"zebra\": 1, \"apple\": {\"y\": 2, \"b\": 3}}")]);
    let run = jxray_in(dir.path(), &["check", "a.txt", "--format", "jsonl"], b"");
    assert!(
        run.stdout
            .contains(r#""value":{"zebra":1,"apple":{"y":2,"b":3}}"#),
        "{}",
        run.stdout
    );
}

#[test]
fn json_is_one_document_with_captures_and_summary() {
    let dir = folder(&[
        ("a.txt", FENCED),
        ("b.txt", TRAILING_COMMA),
        ("c.txt", "[1]"),
    ]);
    let run = jxray_in(dir.path(), &["check", ".", "--format", "json"], b"");
    assert_eq!(run.code, 1);
    let document: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(document["captures"].as_array().unwrap().len(), 3);
    let jsonl = jxray_in(dir.path(), &["check", ".", "--format", "jsonl"], b"");
    assert_eq!(document["captures"], Value::Array(records(&jsonl.stdout)));
    let summary = &document["summary"];
    assert_eq!(summary["total"], 3);
    assert_eq!(summary["ok"], 2);
    assert_eq!(summary["failed"], 1);
    assert_eq!(summary["layers"]["fenced"], 1);
    assert_eq!(summary["layers"]["direct"], 1);
    assert_eq!(summary["failures"]["invalid"], 1);
    assert_eq!(summary["failures"]["truncated"], 0);
}

#[test]
fn text_lines_then_the_layer_mix() {
    let dir = folder(&[
        ("a.txt", FENCED),
        ("b.txt", TRAILING_COMMA),
        ("c.txt", CUT),
        ("d.txt", "[1]"),
    ]);
    let run = jxray_in(dir.path(), &["check", "."], b"");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("ok   fenced     a.txt  warnings: trailing-prose"),
        "{}",
        run.stdout
    );
    assert!(
        lines[1].starts_with("FAIL invalid    b.txt  trailing-comma at 1:9: "),
        "{}",
        run.stdout
    );
    assert!(
        lines[2].starts_with("FAIL truncated  c.txt  at 1:7: "),
        "{}",
        run.stdout
    );
    assert_eq!(lines[3], "ok   direct     d.txt");
    assert!(run.stdout.contains("4 captures: 2 ok, 2 failed"));
    assert!(
        run.stdout.contains("\nfenced           1   25.0%\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("\ntruncated        1   25.0%\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains('\x1b'), "no colour in a pipe");
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let dir = folder(&[("b.txt", TRAILING_COMMA)]);
    let always = jxray_in(dir.path(), &["check", ".", "--color", "always"], b"");
    assert!(
        always.stdout.contains("\x1b[31mFAIL\x1b[0m"),
        "{}",
        always.stdout
    );
    let never = jxray_in(dir.path(), &["check", ".", "--color", "never"], b"");
    assert!(!never.stdout.contains('\x1b'));
    let no_color = jxray_env(
        dir.path(),
        &["check", ".", "--color", "auto"],
        b"",
        &[("NO_COLOR", "1")],
    );
    assert!(!no_color.stdout.contains('\x1b'));
    let forced = jxray_env(
        dir.path(),
        &["check", ".", "--color", "always"],
        b"",
        &[("NO_COLOR", "1")],
    );
    assert!(
        forced.stdout.contains('\x1b'),
        "an explicit flag wins over NO_COLOR"
    );
    let jsonl = jxray_in(
        dir.path(),
        &["check", ".", "--color", "always", "--format", "jsonl"],
        b"",
    );
    assert!(
        !jsonl.stdout.contains('\x1b'),
        "machine formats are never coloured"
    );
}

#[test]
fn schema_failures_list_every_failing_path() {
    let dir = folder(&[
        ("good.txt", "{\"city\": \"Paris\", \"population\": 2100000}"),
        (
            "bad.txt",
            "Here:\n```json\n{\"city\": 7, \"extra\": true}\n```",
        ),
        ("cut.txt", CUT),
        (
            "schema.json",
            r#"{"type": "object", "required": ["city", "population"],
                "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
                "additionalProperties": false}"#,
        ),
    ]);
    let run = jxray_in(
        dir.path(),
        &[
            "check",
            "good.txt",
            "--schema",
            "schema.json",
            "--format",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{run:?}");
    let run = jxray_in(
        dir.path(),
        &[
            "check",
            "bad.txt",
            "--schema",
            "schema.json",
            "--format",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(run.code, 1);
    let record = &records(&run.stdout)[0];
    assert_eq!(record["ok"], false);
    // A schema failure keeps the value, so the offending parts can be seen.
    assert_eq!(
        record["value"],
        serde_json::json!({"city": 7, "extra": true})
    );
    let failure = &record["failure"];
    assert_eq!(failure["kind"], "schema");
    assert_eq!(
        (failure["line"].as_u64(), failure["column"].as_u64()),
        (Some(3), Some(1))
    );
    let message = failure["message"].as_str().unwrap();
    // Each violation: its path, the offending value and the rule.
    assert!(message.contains("/city = 7: "), "{message}");
    assert!(message.contains("(root) = {"), "{message}");
    assert!(message.contains("population"), "{message}");
    assert!(message.contains("extra"), "{message}");
    // Extraction failures stay what they are.
    let run = jxray_in(
        dir.path(),
        &[
            "check",
            "cut.txt",
            "--schema",
            "schema.json",
            "--format",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(records(&run.stdout)[0]["failure"]["kind"], "truncated");
}

#[test]
fn with_a_schema_the_first_candidate_that_validates_wins() {
    let two = "First a draft: {\"a\": \"five\"}\nThen the answer: {\"a\": 5}";
    let dir = folder(&[
        ("two.txt", two),
        (
            "schema.json",
            r#"{"properties": {"a": {"type": "integer"}}}"#,
        ),
    ]);
    let args = ["check", "two.txt", "--format", "jsonl"];
    let plain = jxray_in(dir.path(), &args, b"");
    let plain = &records(&plain.stdout)[0];
    assert_eq!(
        plain["value"]["a"], "five",
        "without a schema the first wins"
    );
    for command in [&args[..], &["extract", "two.txt"]] {
        let run = jxray_in(
            dir.path(),
            &[command, &["--schema", "schema.json"]].concat(),
            b"",
        );
        assert_eq!(run.code, 0, "{run:?}");
        let value: Value = match command[0] {
            "check" => records(&run.stdout)[0]["value"].clone(),
            _ => serde_json::from_str(&run.stdout).unwrap(),
        };
        assert_eq!(value["a"], 5, "{run:?}");
    }
}

#[test]
fn unusable_schemas_exit_2_naming_the_file() {
    let dir = folder(&[
        ("a.txt", "{}"),
        ("broken.json", "{\"type\": "),
        ("wrong.json", "{\"type\": 12}"),
    ]);
    for schema in ["missing.json", "broken.json", "wrong.json"] {
        let run = jxray_in(dir.path(), &["check", "a.txt", "--schema", schema], b"");
        assert_eq!(run.code, 2, "{schema}: {run:?}");
        assert_one_line_error(&run, schema);
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn lenient_and_pick_options_change_the_outcome() {
    let dir = folder(&[
        ("comma.txt", TRAILING_COMMA),
        ("two.txt", "First {\"a\": 1} then {\"b\": 2}."),
    ]);
    let strict = jxray_in(
        dir.path(),
        &["check", "comma.txt", "--format", "jsonl"],
        b"",
    );
    assert_eq!(strict.code, 1);
    let lenient = jxray_in(
        dir.path(),
        &[
            "check",
            "comma.txt",
            "--accept-lenient",
            "--format",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(lenient.code, 0, "{lenient:?}");
    let record = &records(&lenient.stdout)[0];
    assert_eq!(record["layer"], "lenient");
    assert_eq!(record["repairs"][0]["kind"], "trailing-comma");

    let first = jxray_in(dir.path(), &["check", "two.txt", "--format", "jsonl"], b"");
    assert_eq!(
        records(&first.stdout)[0]["value"],
        serde_json::json!({"a": 1})
    );
    let last = jxray_in(
        dir.path(),
        &["check", "two.txt", "--pick", "last", "--format", "jsonl"],
        b"",
    );
    assert_eq!(
        records(&last.stdout)[0]["value"],
        serde_json::json!({"b": 2})
    );
}

#[test]
fn oversized_captures_are_unreadable_not_fatal() {
    let dir = folder(&[("big.txt", "[1, 2, 3, 4, 5, 6]"), ("small.txt", "[1]")]);
    let run = jxray_in(
        dir.path(),
        &["check", ".", "--max-bytes", "8", "--format", "jsonl"],
        b"",
    );
    assert_eq!(run.code, 1);
    let records = records(&run.stdout);
    assert_eq!(records[0]["failure"]["kind"], "unreadable");
    assert_eq!(records[1]["ok"], true);
}

#[test]
fn standard_input_with_input_text_is_one_capture() {
    let dir = folder(&[]);
    let run = jxray_in(
        dir.path(),
        &["check", "-", "--input", "text", "--format", "jsonl"],
        FENCED.as_bytes(),
    );
    assert_eq!(run.code, 0, "{run:?}");
    let records = records(&run.stdout);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["layer"], "fenced");
    assert_eq!(records[0]["source"], "-");
}

#[test]
fn a_path_that_holds_no_capture_exits_2() {
    let dir = folder(&[("notes.yaml", "a: 1")]);
    for format in ["text", "json", "jsonl", "junit", "github"] {
        let run = jxray_in(dir.path(), &["check", ".", "--format", format], b"");
        assert_eq!(run.code, 2, "{run:?}");
        assert!(run.stdout.is_empty(), "{run:?}");
        assert_one_line_error(&run, "holds no capture (skipped 1 file: .yaml)");
    }
    let run = jxray_in(dir.path(), &["check", "-"], b"\n\n");
    assert_eq!(run.code, 2, "{run:?}");
    assert_one_line_error(&run, "standard input");
}

#[test]
fn input_is_for_standard_input_only() {
    let dir = folder(&[("a.txt", "{}")]);
    let run = jxray_in(dir.path(), &["check", "a.txt", "--input", "text"], b"");
    assert_eq!(run.code, 2, "{run:?}");
    assert_one_line_error(&run, "--input");
}

#[test]
fn plain_text_on_standard_input_is_refused_once_pointing_at_input_text() {
    let dir = folder(&[]);
    let text = b"I'm sorry, but I can't help with that.\nIt is against policy.\nTruly.\n";
    let run = jxray_in(dir.path(), &["check", "-"], text);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stdout.is_empty(), "{run:?}");
    assert_one_line_error(&run, "standard input is not JSON Lines");
    assert!(run.stderr.contains("--input text"), "{}", run.stderr);
}

#[test]
fn one_text_capture_prints_its_line_and_the_count_only() {
    let dir = folder(&[]);
    let run = jxray_in(
        dir.path(),
        &["check", "-", "--input", "text", "--color", "never"],
        FENCED.as_bytes(),
    );
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(lines[0].starts_with("ok   fenced     -"), "{}", run.stdout);
    assert_eq!(lines[2], "1 capture: 1 ok, 0 failed");
}

#[test]
fn a_record_from_standard_input_is_named_as_the_same_line_of_the_file() {
    let log = "{\"id\": \"req-1\", \"output\": \"{}\"}\n\n{\"output\": \"[1,\"}\n";
    let dir = folder(&[("log.jsonl", log)]);
    let sources = |run: &Run| -> Vec<String> {
        records(&run.stdout)
            .iter()
            .map(|r| r["source"].as_str().unwrap().to_string())
            .collect()
    };
    let from_file = jxray_in(
        dir.path(),
        &["check", "log.jsonl", "--format", "jsonl"],
        b"",
    );
    assert_eq!(sources(&from_file), ["log.jsonl:1", "log.jsonl:3"]);
    let piped = jxray_in(
        dir.path(),
        &["check", "-", "--format", "jsonl"],
        log.as_bytes(),
    );
    assert_eq!(sources(&piped), ["-:1", "-:3"]);
    let named = [
        "check",
        "-",
        "--format",
        "jsonl",
        "--stdin-name",
        "log.jsonl",
    ];
    let named = jxray_in(dir.path(), &named, log.as_bytes());
    assert_eq!(
        named.stdout, from_file.stdout,
        "the two outputs are the same lines"
    );
}
