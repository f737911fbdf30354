//! `--by`: `check` and `compare` split the mix by model, provider, prompt, folder and day,
//! on a folder of recorded captures. Review goldens with
//! `INSTA_UPDATE=new cargo test --test cli triage::`.

use crate::support;

use support::cli::{jxray_env, jxray_in, Run};
use support::triage::write_recorded;

fn check(dir: &std::path::Path, args: &[&str]) -> Run {
    let mut all = vec!["check", ".", "--color", "never"];
    all.extend_from_slice(args);
    let run = jxray_in(dir, &all, b"");
    assert_eq!(run.code, 1, "the folder has failures: {}", run.stderr);
    run
}

fn recorded() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_recorded(dir.path());
    dir
}

#[test]
fn by_model_text() {
    let dir = recorded();
    let run = check(dir.path(), &["--by", "model"]);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let groups = run.stdout.split("by model, the worst first\n").nth(1);
    let groups = groups.expect("the groups follow the summary");
    // claude: 3 of 6 failed; gpt-4o-mini: 2 of 6.
    assert!(
        groups.starts_with("claude-3-5-haiku  6 captures, 3 failed (50.0%)\n"),
        "{groups}"
    );
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn by_prompt_text_names_each_prompt_by_its_first_words_and_digest() {
    let dir = recorded();
    let run = check(dir.path(), &["--by", "prompt"]);
    insta::assert_snapshot!(run.stdout);
    assert!(
        run.stdout.contains("Extract the invoice fields and… · "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("You extract invoice fields. Reply… · "),
        "{}",
        run.stdout
    );
}

#[test]
fn by_day_json_has_each_group_summary_worst_first_and_each_capture_its_group() {
    let dir = recorded();
    let run = check(dir.path(), &["--by", "day", "--format", "json"]);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).expect("one document");
    assert_eq!(document["by"], "day");
    let groups = document["groups"].as_array().unwrap();
    let names: Vec<&str> = groups
        .iter()
        .map(|g| g["group"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["2026-11-30", "2026-12-01"]);
    let total: u64 = groups
        .iter()
        .map(|g| g["summary"]["total"].as_u64().unwrap())
        .sum();
    assert_eq!(total, document["summary"]["total"].as_u64().unwrap());
    assert!(document["captures"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["group"] == c["source"].as_str().unwrap()[..10]));
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn by_provider_jsonl_rows_carry_their_group() {
    let dir = recorded();
    let run = check(dir.path(), &["--by", "provider", "--format", "jsonl"]);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(rows.len(), 12);
    for row in &rows {
        assert_eq!(row["group"], row["provider"], "{row}");
    }
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn by_folder_github_step_summary_has_the_group_table() {
    let dir = recorded();
    let summary = dir.path().join("step-summary.md");
    let run = jxray_env(
        dir.path(),
        &["check", ".", "--by", "folder", "--format", "github"],
        b"",
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let markdown = std::fs::read_to_string(&summary).unwrap();
    assert!(
        markdown.contains("| folder | captures | failed | direct | fenced |"),
        "{markdown}"
    );
    insta::assert_snapshot!(markdown);
}

#[test]
fn only_failures_still_counts_every_capture_in_its_group() {
    let dir = recorded();
    let run = check(dir.path(), &["--by", "model", "-q", "--format", "jsonl"]);
    assert_eq!(run.stdout.lines().count(), 5, "{}", run.stdout);
    let run = check(dir.path(), &["--by", "model", "-q"]);
    assert!(
        run.stdout
            .contains("gpt-4o-mini       6 captures, 2 failed (33.3%)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_key_that_is_not_one_is_a_usage_error_listing_the_keys() {
    let dir = recorded();
    let run = jxray_in(dir.path(), &["check", ".", "--by", "colour"], b"");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("[possible values: model, provider, prompt, folder, day]"),
        "{}",
        run.stderr
    );
}

#[test]
fn compare_by_model_sets_each_group_in_both_runs_side_by_side() {
    let dir = recorded();
    let args = ["compare", "--color", "never", "2026-11-30", "2026-12-01"];
    let run = jxray_in(dir.path(), &[&args[..], &["--by", "model"]].concat(), b"");
    assert_eq!(run.code, 1, "a capture that was ok broke: {}", run.stderr);
    assert!(
        run.stdout.contains(
            "claude-3-5-haiku  old 3 captures, 2 failed (66.7%)  new 3 captures, 1 failed (33.3%)  -33.3 points"
        ),
        "{}",
        run.stdout
    );
    insta::assert_snapshot!(run.stdout);
    let json = jxray_in(
        dir.path(),
        &[&args[..], &["--by", "model", "--format", "json"]].concat(),
        b"",
    );
    let document: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(document["by"], "model");
    assert_eq!(document["groups"][0]["group"], "claude-3-5-haiku");
    assert_eq!(document["groups"][0]["new"]["failed"], 1);
    insta::assert_snapshot!("compare_by_model_json", json.stdout);
    let jsonl = jxray_in(
        dir.path(),
        &[&args[..], &["--by", "model", "--format", "jsonl"]].concat(),
        b"",
    );
    insta::assert_snapshot!("compare_by_model_jsonl", jsonl.stdout);
    assert!(jsonl.stdout.lines().all(|line| {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        row["source"]
            .as_str()
            .unwrap()
            .ends_with(&format!("{}.json", row["group"].as_str().unwrap()))
    }));
}

#[test]
fn by_model_junit_makes_each_group_a_class() {
    let dir = recorded();
    let run = check(dir.path(), &["--by", "model", "--format", "junit"]);
    let document = roxmltree::Document::parse(&run.stdout).expect("JUnit XML");
    let cases: Vec<(&str, &str)> = document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|node| {
            (
                node.attribute("classname").unwrap(),
                node.attribute("name").unwrap(),
            )
        })
        .collect();
    assert_eq!(cases.len(), 12);
    for (class, name) in cases {
        assert!(name.ends_with(&format!("{class}.json")), "{class} {name}");
    }
}

#[test]
fn a_label_of_any_length_is_cut_in_every_format() {
    // A system prompt of one 512 KiB word and a 100 KiB model name, as a capture can carry.
    let dir = tempfile::tempdir().unwrap();
    let word = "w".repeat(512 * 1024);
    let model = "m".repeat(100 * 1024);
    let day = dir.path().join("2026-12-02");
    std::fs::create_dir_all(&day).unwrap();
    let envelope = serde_json::json!({"object": "chat.completion", "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"a\": 1,}"},
        "finish_reason": "stop"}]});
    std::fs::write(day.join("a.json"), envelope.to_string()).unwrap();
    let request = serde_json::json!({"jxray_request": 1, "method": "POST", "path": "/v1/chat/completions",
        "body": {"model": model, "messages": [{"role": "system", "content": word},
        {"role": "user", "content": "x"}]}});
    std::fs::write(day.join("a.request.json"), request.to_string()).unwrap();
    for by in ["prompt", "model"] {
        // JSON keeps each capture's model as data; its group label is cut like the others.
        for format in ["text", "html"] {
            let run = check(dir.path(), &["--by", by, "--format", format]);
            assert!(
                run.stdout.len() < 64 * 1024,
                "--by {by} --format {format}: {} bytes",
                run.stdout.len()
            );
        }
        let run = check(dir.path(), &["--by", by, "--format", "json"]);
        let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let group = document["captures"][0]["group"].as_str().unwrap();
        assert!(group.chars().count() <= 96, "{group}");
        assert!(group.contains('…'), "{group}");
    }
}
