//! `jxray compare OLD NEW`: both mixes side by side and every capture whose
//! outcome changed. Review goldens with `INSTA_UPDATE=new cargo test --test cli_compare`.

mod common;

use common::{assert_one_line_error, jxray_in, write_files, Run};

/// Two runs of the same prompts: one capture moved to plain JSON, one got
/// cut off, one was fixed, one is unchanged, one left and one arrived; and a
/// log whose second line broke.
fn two_runs(dir: &std::path::Path) {
    write_files(
        dir,
        &[
            ("old/a.txt", "```json\n{\"a\": 1}\n```"),
            ("new/a.txt", "{\"a\": 1}"),
            ("old/b.txt", "{\"b\": [1, 2]}"),
            ("new/b.txt", "{\"b\": [1, 2,"),
            ("old/c.txt", "{\"c\": 1,}"),
            ("new/c.txt", "{\"c\": 1}"),
            ("old/same.txt", "{\"s\": true}"),
            ("new/same.txt", "{\"s\": true}"),
            ("old/gone.txt", "{}"),
            ("new/fresh.txt", "no JSON today"),
            (
                "old/log.jsonl",
                "{\"output\": \"{}\"}\n{\"output\": \"[1]\"}\n",
            ),
            (
                "new/log.jsonl",
                "{\"output\": \"{}\"}\n{\"output\": \"[1\", \"stop_reason\": \"length\"}\n",
            ),
        ],
    );
}

fn compare(dir: &std::path::Path, args: &[&str]) -> Run {
    let mut all = vec!["compare", "--color", "never"];
    all.extend_from_slice(args);
    jxray_in(dir, &all, b"")
}

#[test]
fn folders_text() {
    let dir = tempfile::tempdir().unwrap();
    two_runs(dir.path());
    let run = compare(dir.path(), &["old", "new"]);
    assert_eq!(run.code, 1, "a capture broke: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn folders_json() {
    let dir = tempfile::tempdir().unwrap();
    two_runs(dir.path());
    let run = compare(dir.path(), &["old", "new", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(document["counts"]["broke"], 2);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn two_logs_match_line_by_line_and_no_regression_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "monday.jsonl",
                "{\"output\": \"```json\\n{}\\n```\"}\n{\"output\": \"{\\\"a\\\": 1,}\"}\n",
            ),
            (
                "tuesday.jsonl",
                "{\"output\": \"{}\"}\n{\"output\": \"{\\\"a\\\": 1}\"}\n",
            ),
        ],
    );
    let run = compare(dir.path(), &["monday.jsonl", "tuesday.jsonl"]);
    assert_eq!(run.code, 0, "nothing broke: {}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("2 of 2 matched captures changed: 1 fixed, 0 broke"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("tuesday.jsonl:1  fenced → direct"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("tuesday.jsonl:2  invalid (trailing-comma) → direct"),
        "{}",
        run.stdout
    );
}

#[test]
fn schema_applies_to_both_runs() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "schema.json",
                "{\"type\": \"object\", \"required\": [\"city\"]}",
            ),
            ("old/a.txt", "{\"city\": \"Paris\"}"),
            ("new/a.txt", "{\"town\": \"Paris\"}"),
        ],
    );
    let run = compare(dir.path(), &["old", "new", "--schema", "schema.json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("broke   a.txt  direct → schema"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_empty_or_missing_side_is_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("old/a.txt", "{}"), ("empty/notes.png", "")]);
    let run = compare(dir.path(), &["old", "nowhere"]);
    assert_eq!(run.code, 2);
    assert_one_line_error(&run, "nowhere");
    let run = compare(dir.path(), &["old", "empty"]);
    assert_eq!(run.code, 2);
    assert_one_line_error(&run, "empty: no capture found");
}
