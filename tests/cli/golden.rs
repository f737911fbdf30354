//! Golden tests: `jxray check` on the bundled demo captures, in every format.
//! Review changes with `INSTA_UPDATE=new cargo test --test cli golden::`.

use crate::support;

use support::cli::jxray;

fn check_demo(extra: &[&str]) -> support::cli::Run {
    let mut args = vec!["check", "assets/demo", "--color", "never"];
    args.extend_from_slice(extra);
    let run = jxray(&args);
    assert_eq!(run.code, 1, "the demo has failures: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    run
}

#[test]
fn demo_text() {
    insta::assert_snapshot!(check_demo(&[]).stdout);
}

#[test]
fn demo_jsonl() {
    insta::assert_snapshot!(check_demo(&["--format", "jsonl"]).stdout);
}

#[test]
fn demo_json() {
    insta::assert_snapshot!(check_demo(&["--format", "json"]).stdout);
}

#[test]
fn demo_text_with_schema() {
    insta::assert_snapshot!(check_demo(&["--schema", "assets/demo/schema.json"]).stdout);
}
