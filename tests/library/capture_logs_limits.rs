//! Memory that an `llm` logs.db costs is bounded by `--max-bytes`, whatever its columns
//! hold: a column over the limit is refused from its length alone (SQLite is asked for
//! the size before the value is read), and the JSON body beside a response is read for its
//! stop reason without a tree of it. Peaks are measured with GNU time (`/usr/bin/time`).
//!
//! The logs are copies of the real llm samples (`tests/data/logs/`), grown with SQLite.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const MB: usize = 1_000_000;

/// A copy of the sample `name` in `dir`, changed by `sql` with `text` as its `?1`.
fn grown(dir: &Path, name: &str, sql: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/logs")
            .join(name),
        &path,
    )
    .unwrap();
    let connection = rusqlite::Connection::open(&path).unwrap();
    let changed = connection.execute(sql, [text]).unwrap();
    assert_eq!(changed, 1, "{sql}");
    path
}

/// `jxray check DB --format jsonl ARGS`: the records and the peak resident memory in MB.
fn check(db: &Path, args: &[&str]) -> (Vec<Value>, f64) {
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_jxray"))
        .args(["check", "--format", "jsonl"])
        .arg(db)
        .args(args)
        .output()
        .expect("GNU time is installed (apt install time; .ci/run does)");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let kilobytes: f64 = stderr
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak from GNU time: {stderr}"));
    let records = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (records, kilobytes * 1024.0 / MB as f64)
}

fn message(record: &Value) -> &str {
    record["failure"]["message"].as_str().unwrap_or_default()
}

#[test]
fn a_response_over_max_bytes_is_refused_without_being_read() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "x".repeat(100 * MB);
    let db = grown(
        dir.path(),
        "llm-logs-legacy.db",
        "UPDATE responses SET response = ?1 WHERE rowid = (SELECT min(rowid) FROM responses)",
        &huge,
    );
    drop(huge);
    let (records, peak) = check(&db, &["--max-bytes", "1000000"]);
    assert_eq!(records.len(), 3, "every record is still read");
    let refused = message(&records[0]);
    assert!(
        refused.starts_with("the response: too large: 100000000 bytes"),
        "{refused}"
    );
    assert!(refused.contains("--max-bytes"), "{refused}");
    assert_eq!(records[1]["layer"], "fenced");
    assert!(
        peak < 60.0,
        "a refused 100 MB response peaked at {peak:.0} MB"
    );
}

/// A provider body of many small numbers: the shape a tree costs the most for.
fn body_of(size: usize) -> String {
    let numbers = "1,".repeat(size / 2);
    format!(r#"{{"usage": [{numbers}1], "finish_reason": "length"}}"#)
}

#[test]
fn a_large_response_json_costs_its_size_not_a_tree() {
    let dir = tempfile::tempdir().unwrap();
    let db = grown(
        dir.path(),
        "llm-logs.db",
        "UPDATE turns SET response_json = ?1 WHERE rowid = (SELECT min(rowid) FROM turns)",
        &body_of(8 * MB),
    );
    let (records, peak) = check(&db, &[]);
    assert_eq!(
        records[0]["stop_reason"], "length",
        "the stop reason is still read"
    );
    assert_eq!(records[0]["failure"]["kind"], "truncated");
    assert!(peak < 90.0, "an 8 MB response_json peaked at {peak:.0} MB");
}

#[test]
fn a_response_json_over_max_bytes_is_that_records_failure() {
    let dir = tempfile::tempdir().unwrap();
    let db = grown(
        dir.path(),
        "llm-logs.db",
        "UPDATE turns SET response_json = ?1 WHERE rowid = (SELECT min(rowid) FROM turns)",
        &body_of(2 * MB),
    );
    let (records, _) = check(&db, &["--max-bytes", "1000000"]);
    let refused = message(&records[0]);
    assert!(
        refused.starts_with("the response_json: too large: 2000"),
        "{refused}"
    );
    assert_eq!(records[1]["layer"], "fenced", "the other records are read");
}
