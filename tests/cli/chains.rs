//! Repair chains in `jxray check`: the repair-effectiveness line, the chain fields of
//! `--format jsonl` and the counts of `--format json`.

use crate::support::chains::{self, DAY, LOOP_CHAIN, LOOP_FIRST, LOOP_SECOND, RECORDED_FIRST};
use std::process::Command;

fn check(folder: &std::path::Path, format: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_jxray"))
        .args(["check", "--format", format])
        .arg(folder)
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_text_report_says_how_many_re_asks_repaired_by_first_failure() {
    let dir = chains::folder();
    let text = check(dir.path(), "text");
    assert!(
        text.contains(
            "repair chains: 2 re-asked, 2 repaired (100%) · by first failure: invalid 1 of 1, no-json 1 of 1"
        ),
        "{text}"
    );
}

#[test]
fn jsonl_lines_carry_the_chain_fields() {
    let dir = chains::folder();
    let lines: Vec<serde_json::Value> = check(dir.path(), "jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    let by_source = |suffix: &str| {
        lines
            .iter()
            .find(|line| line["source"].as_str().unwrap().ends_with(suffix))
            .unwrap_or_else(|| panic!("{suffix} in {lines:?}"))
    };
    let second = by_source(&format!("{LOOP_SECOND}:1"));
    assert_eq!(second["chain"], LOOP_CHAIN);
    assert_eq!(second["attempt"], 2);
    assert_eq!(second["re_ask_of"], format!("{DAY}/{LOOP_FIRST}"));
    let first = by_source(&format!("{LOOP_FIRST}:1"));
    assert_eq!(first["attempt"], 1);
    assert!(first.get("re_ask_of").is_none());
    // Recorded before anyone re-asked it: no link of its own; the re-ask names it.
    let recorded = by_source(RECORDED_FIRST);
    assert!(recorded.get("chain").is_none(), "{recorded}");
    assert!(by_source("plain.txt").get("chain").is_none());
}

#[test]
fn json_summary_counts_the_chains() {
    let dir = chains::folder();
    let doc: serde_json::Value = serde_json::from_str(&check(dir.path(), "json")).unwrap();
    assert_eq!(
        doc["summary"]["repair_chains"],
        serde_json::json!({"re_asked": 2, "repaired": 2, "by_first_failure": {
            "invalid": {"chains": 1, "repaired": 1}, "no-json": {"chains": 1, "repaired": 1}}})
    );
    assert_eq!(doc["captures"][2]["chain"], LOOP_CHAIN);
}

#[test]
fn a_folder_without_chains_has_no_chain_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "{\"a\": 1,}").unwrap();
    assert!(!check(dir.path(), "text").contains("repair chains"));
}
