//! `jxray compare OLD NEW`: both mixes side by side and every capture whose
//! outcome changed. Review goldens with `INSTA_UPDATE=new cargo test --test cli compare::`.

use crate::support;

use support::cli::{assert_one_line_error, jxray_in, write_files, Run};

/// Two runs of the same prompts: one capture moved to plain JSON with the same
/// value, one got cut off, one was fixed, one is unchanged, one changed its
/// value, one failed differently, one left and one arrived; and a log whose
/// second line broke.
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
            (
                "old/vendor.txt",
                "{\"vendor\": \"Acme\", \"total\": 1.0, \"items\": [1, 2], \"po\": 7}",
            ),
            (
                "new/vendor.txt",
                "{\"items\": [1], \"total\": 1.00, \"vendor\": \"Evil Corp\", \"note\": \"x\"}",
            ),
            ("old/worse.txt", "{\"w\": 1,}"),
            ("new/worse.txt", "{'w': 1}"),
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
    assert_eq!(document["counts"]["value-changed"], 1);
    assert_eq!(document["counts"]["different-failure"], 1);
    assert_eq!(document["counts"]["same"], 2);
    assert_eq!(document["counts"]["layer-moved"], 1);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn folders_jsonl_has_a_line_per_capture_with_the_changed_paths() {
    let dir = tempfile::tempdir().unwrap();
    two_runs(dir.path());
    let run = compare(dir.path(), &["old", "new", "--format", "jsonl"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 10, "{}", run.stdout);
    let vendor = lines.iter().find(|l| l["source"] == "vendor.txt").unwrap();
    assert_eq!(vendor["change"], "value-changed");
    assert_eq!(
        vendor["paths"],
        serde_json::json!({
            "changed": ["$.vendor"],
            "added": ["$.note"],
            "removed": ["$.items[1]", "$.po"]
        })
    );
    let same = lines.iter().find(|l| l["source"] == "a.txt").unwrap();
    assert_eq!(same["change"], "layer-moved", "fenced → direct, same value");
    assert_eq!(same["old"]["outcome"], "fenced");
    assert_eq!(same["new"]["outcome"], "direct");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_changed_value_fails_only_with_fail_on_change() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("old/a.txt", "{\"vendor\": \"Acme\"}"),
            ("new/a.txt", "{\"vendor\": \"Evil Corp\"}"),
        ],
    );
    let run = compare(dir.path(), &["old", "new"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "1 matched capture: 0 same, 0 same value from another layer, 1 value changed"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("value changed     a.txt  direct → direct: $.vendor changed"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("old  old  1 capture: 1 ok, 0 failed"),
        "{}",
        run.stdout
    );
    let run = compare(dir.path(), &["old", "new", "--fail-on-change"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
}

#[test]
fn the_same_value_from_another_layer_is_listed_and_fails_only_with_fail_on_layer_change() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("old/a.txt", "```json\n{\"vendor\": \"Acme\"}\n```"),
            ("new/a.txt", "{\"vendor\": \"Acme\"}"),
        ],
    );
    for flags in [&[][..], &["--fail-on-change"]] {
        let run = compare(dir.path(), &[&["old", "new"][..], flags].concat());
        assert_eq!(run.code, 0, "{flags:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout
                .contains("1 matched capture: 0 same, 1 same value from another layer,"),
            "{}",
            run.stdout
        );
        assert!(
            run.stdout
                .contains("same value        a.txt  fenced → direct"),
            "{}",
            run.stdout
        );
    }
    let run = compare(dir.path(), &["old", "new", "--fail-on-layer-change"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
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
            .contains("2 matched captures: 0 same, 1 same value from another layer, 0 value changed, 1 fixed, 0 broke"),
        "{}",
        run.stdout
    );
    // The same value from another layer is listed as its own movement.
    assert!(
        run.stdout
            .contains("same value        tuesday.jsonl:1  fenced → direct"),
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
        run.stdout
            .contains("broke             a.txt  direct → schema"),
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
