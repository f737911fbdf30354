//! Numbers are exact everywhere (contract §1): integers beyond 64 bits, long
//! decimals, `1e400` and `-0` come out as the model wrote them from `extract`,
//! `check`, fixtures and `test`, and two different numbers never compare equal.

use crate::support;

use std::fs;

use support::cli::{jxray_in, write_files};

const RAW: &str = r#"{"ids": [18446744073709551616, 18446744073709551617], "huge": 1e400, "Big": 2.5E+3, "zero": -0, "long": 0.10000000000000000001}"#;

const COMPACT: &str = r#"{"ids":[18446744073709551616,18446744073709551617],"huge":1e400,"Big":2.5E+3,"zero":-0,"long":0.10000000000000000001}"#;

#[test]
fn extract_prints_every_number_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let run = jxray_in(dir.path(), &["extract", "-"], RAW.as_bytes());
    assert_eq!(run.code, 0, "{run:?}");
    let printed: String = run.stdout.split_whitespace().collect();
    assert_eq!(printed, COMPACT);
}

#[test]
fn check_jsonl_and_json_keep_the_digits() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("a.txt", RAW)]);
    for format in ["jsonl", "json"] {
        let run = jxray_in(dir.path(), &["check", "a.txt", "--format", format], b"");
        assert_eq!(run.code, 0, "{run:?}");
        let compact: String = run.stdout.split_whitespace().collect();
        assert!(
            compact.contains(&COMPACT[1..COMPACT.len() - 1]),
            "{format}: {}",
            run.stdout
        );
    }
}

/// A fixture made from the engine passes; one that expects the neighbouring
/// big integer (what a float would have rounded to) fails with a diff.
#[test]
fn fixtures_compare_numbers_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = dir.path().join("fixtures");
    let outcome = jxray::engine::extract(RAW, &jxray::engine::Options::default());
    let fixture =
        jxray::fixture::Fixture::new("exact", RAW, jxray::fixture::Expectation::of(&outcome));
    let path = jxray::fixture::save(&fixtures, &fixture).unwrap();
    let saved = fs::read_to_string(&path).unwrap();
    assert!(saved.contains("18446744073709551617"), "{saved}");
    assert!(
        saved.contains("1e400") && saved.contains("2.5E+3"),
        "{saved}"
    );

    let run = jxray_in(dir.path(), &["test"], b"");
    assert_eq!(run.code, 0, "{run:?}");

    // The wrong big integer in `expect` (the last occurrence; the first is the
    // input): off by one in the last digit, as a float would have rounded it.
    let at = saved.rfind("18446744073709551617").unwrap();
    let wrong = format!(
        "{}18446744073709551616{}",
        &saved[..at],
        &saved[at + "18446744073709551617".len()..]
    );
    fs::write(&path, wrong).unwrap();
    let run = jxray_in(dir.path(), &["test"], b"");
    assert_eq!(run.code, 1, "a wrong big integer must fail: {run:?}");

    // --update writes the exact number back, not a rounded one.
    let run = jxray_in(dir.path(), &["test", "--update"], b"");
    assert_eq!(run.code, 0, "{run:?}");
    let updated = fs::read_to_string(&path).unwrap();
    // Once in the input, once in the expected value.
    assert_eq!(
        updated.matches("18446744073709551617").count(),
        2,
        "{updated}"
    );
    assert!(!updated.contains("1.8446744073709552e19"), "{updated}");
}
