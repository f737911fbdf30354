//! `jxray check` for CI: the junit and github formats, the step summary, the drift gate,
//! `--only-failures`, and the folder walk as a CI job sees it (paths to open, the fixtures
//! folder passed over, unread files counted).
//! Review golden changes with `INSTA_UPDATE=new cargo test --test cli ci::`.

use crate::support;

use std::fs;
use std::path::Path;

use support::cli::{jxray_env, write_files, Run};

/// Run jxray in `dir` with no user config and no GitHub step summary.
fn run_in(dir: &Path, args: &[&str]) -> Run {
    run_with(dir, args, &[])
}

fn run_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let config = tempfile::tempdir().unwrap();
    let home = config.path().to_str().unwrap().to_string();
    let mut vars = vec![
        ("XDG_CONFIG_HOME", home.as_str()),
        ("GITHUB_STEP_SUMMARY", ""),
    ];
    vars.extend_from_slice(env);
    jxray_env(dir, args, b"", &vars)
}

/// Two good captures (one plain, one fenced with prose after it) and two failures.
fn mixed(dir: &Path) {
    write_files(
        dir,
        &[
            ("runs/plain.txt", "{\"a\": 1}"),
            ("runs/fenced.md", "```json\n{\"a\": 1}\n```\nDone."),
            ("runs/comma.txt", "{\n  \"a\": 1,\n}"),
            (
                "runs/log.jsonl",
                "{\"output\": \"{}\"}\n{\"output\": \"[1, 2,\"}\n",
            ),
        ],
    );
}

fn demo(args: &[&str]) -> Run {
    let mut all = vec!["check", "assets/demo"];
    all.extend_from_slice(args);
    let run = run_in(Path::new(env!("CARGO_MANIFEST_DIR")), &all);
    assert_eq!(run.code, 1, "the demo has failures: {}", run.stderr);
    run
}

#[test]
fn demo_junit() {
    insta::assert_snapshot!(demo(&["--format", "junit"]).stdout);
}

#[test]
fn demo_github() {
    insta::assert_snapshot!(demo(&["--format", "github"]).stdout);
}

#[test]
fn junit_is_well_formed_with_one_testcase_per_capture() {
    let dir = tempfile::tempdir().unwrap();
    mixed(dir.path());
    // A file name no XML may hold, and no terminal should see.
    write_files(dir.path(), &[("runs/bell\u{7}\u{1b}[2J.txt", "nope")]);
    let run = run_in(dir.path(), &["check", "runs", "--format", "junit"]);
    assert_eq!(run.code, 1, "{run:?}");
    let doc = roxmltree::Document::parse(&run.stdout).expect("well-formed XML");
    let cases: Vec<_> = doc
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .collect();
    let names: Vec<&str> = cases.iter().map(|c| c.attribute("name").unwrap()).collect();
    assert_eq!(
        names,
        [
            "runs/bell\\u{7}\\u{1b}[2J.txt",
            "runs/comma.txt",
            "runs/fenced.md",
            "runs/log.jsonl:1",
            "runs/log.jsonl:2",
            "runs/plain.txt"
        ]
    );
    assert!(cases
        .iter()
        .all(|c| c.attribute("classname") == Some("runs")));
    let failures: Vec<_> = doc
        .descendants()
        .filter(|node| node.has_tag_name("failure"))
        .collect();
    let kinds: Vec<&str> = failures
        .iter()
        .map(|f| f.attribute("type").unwrap())
        .collect();
    assert_eq!(kinds, ["no-json", "invalid", "truncated"]);
    let comma = failures[1].attribute("message").unwrap();
    assert_eq!(
        comma,
        "invalid trailing-comma at 3:1: trailing comma before `}`; tell the model not to put a comma after the last item",
        "kind, defect, line:col and message"
    );
    assert!(failures[1].text().unwrap().starts_with("runs/comma.txt: "));
    let suite = doc
        .descendants()
        .find(|node| node.has_tag_name("testsuite"))
        .unwrap();
    assert_eq!(suite.attribute("tests"), Some("6"));
    assert_eq!(suite.attribute("failures"), Some("3"));
}

#[test]
fn github_annotates_failures_and_warnings_and_appends_the_step_summary() {
    let dir = tempfile::tempdir().unwrap();
    mixed(dir.path());
    let summary = dir.path().join("step-summary.md");
    fs::write(&summary, "# from an earlier step\n").unwrap();
    let summary_path = summary.to_str().unwrap();
    let env = [("GITHUB_STEP_SUMMARY", summary_path)];
    let run = run_with(dir.path(), &["check", "runs", "--format", "github"], &env);
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with(
            "::error file=runs/comma.txt,line=3,col=1,title=jxray%3A invalid (trailing-comma)::"
        ),
        "{}",
        run.stdout
    );
    assert!(lines[1].starts_with("::warning file=runs/fenced.md,title=jxray%3A trailing-prose::"));
    assert!(lines[2].starts_with(
        "::error file=runs/log.jsonl,line=2,title=jxray%3A truncated::runs/log.jsonl:2: truncated"
    ));
    assert_eq!(lines[3], "5 captures: 3 ok, 2 failed");
    assert_eq!(lines.len(), 4);

    let run = run_with(dir.path(), &["check", "runs", "--format", "github"], &env);
    assert_eq!(run.code, 1);
    let text = fs::read_to_string(&summary).unwrap();
    assert!(
        text.starts_with("# from an earlier step\n### jxray check runs\n"),
        "{text}"
    );
    assert_eq!(
        text.matches("### jxray check runs").count(),
        2,
        "appended, not overwritten"
    );
    assert!(
        text.contains("| runs/comma.txt | jxray: invalid (trailing-comma) | 3:1 |"),
        "{text}"
    );
    assert!(
        text.contains("| runs/log.jsonl:2 | jxray: truncated | 2 |"),
        "{text}"
    );
    assert!(text.contains("| fenced | 1 | 20.0% |"), "{text}");
}

#[test]
fn the_drift_gate_fails_a_run_whose_shares_are_over_their_bounds() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("a.txt", "{}"),
            ("b.txt", "{}"),
            ("c.txt", "{}"),
            ("d.md", "```json\n{}\n```"),
        ],
    );
    let within = run_in(
        dir.path(),
        &["check", ".", "--max-share", "fenced=25%,truncated=0"],
    );
    assert_eq!(within.code, 0, "{within:?}");
    assert!(within.stderr.is_empty());

    let over = run_in(
        dir.path(),
        &["check", ".", "--max-share", "fenced=10%,direct=80"],
    );
    assert_eq!(over.code, 1, "{over:?}");
    assert_eq!(
        over.stderr,
        "jxray: drift gate: fenced is 25.0% (1 of 4 captures), over its bound of 10%\n"
    );

    let bad = run_in(dir.path(), &["check", ".", "--max-share", "fence=10%"]);
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(
        bad.stderr.contains("`fence` is not a layer"),
        "{}",
        bad.stderr
    );
}

#[test]
fn only_failures_prints_failures_and_counts_everything() {
    let dir = tempfile::tempdir().unwrap();
    mixed(dir.path());
    let run = run_in(dir.path(), &["check", "runs", "-q", "--color", "never"]);
    assert_eq!(run.code, 1);
    let lines: Vec<&str> = run.stdout.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(lines.iter().all(|line| line.starts_with("FAIL")));
    assert!(run.stdout.contains("5 captures: 3 ok, 2 failed"));

    let jsonl = run_in(
        dir.path(),
        &["check", "runs", "--only-failures", "--format", "jsonl"],
    );
    let sources: Vec<String> = jsonl
        .stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["source"].to_string())
        .collect();
    assert_eq!(sources, ["\"runs/comma.txt\"", "\"runs/log.jsonl:2\""]);
}

#[test]
fn sources_are_paths_to_open_from_the_working_folder() {
    let dir = tempfile::tempdir().unwrap();
    mixed(dir.path());
    let absolute = dir.path().join("runs");
    for path in ["runs", "./runs", "runs/", absolute.to_str().unwrap()] {
        let run = run_in(dir.path(), &["check", path, "--format", "jsonl"]);
        let first: serde_json::Value =
            serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
        assert_eq!(first["source"], "runs/comma.txt", "check {path}");
        assert!(
            run.stdout.contains("\"source\":\"runs/log.jsonl:2\""),
            "check {path}"
        );
    }
    let inside = run_in(
        &dir.path().join("runs"),
        &["check", ".", "--format", "jsonl"],
    );
    assert!(
        inside.stdout.starts_with("{\"source\":\"comma.txt\""),
        "{}",
        inside.stdout
    );
}

#[test]
fn the_fixtures_folder_is_passed_over_and_unread_files_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    mixed(dir.path());
    write_files(
        dir.path(),
        &[
            ("fixtures/saved.json", "{\"jxray_fixture\": 1}"),
            ("runs/table.csv", "a,b"),
            ("runs/shot.png", "x"),
            ("runs/other.PNG", "x"),
        ],
    );
    let run = run_in(dir.path(), &["check", ".", "--color", "never"]);
    assert!(!run.stdout.contains("saved.json"), "{}", run.stdout);
    assert_eq!(
        run.stdout.lines().last().unwrap(),
        "skipped 3 files: .csv, .png; skipped the fixtures folder fixtures"
    );
    let jsonl = run_in(dir.path(), &["check", ".", "--format", "jsonl"]);
    assert_eq!(jsonl.stdout.lines().count(), 5);
    assert_eq!(
        jsonl.stderr,
        "jxray: skipped 3 files: .csv, .png; skipped the fixtures folder fixtures\n"
    );
    // Asked for by name, the fixtures folder is walked, but a fixture is never a capture.
    let named = run_in(dir.path(), &["check", "fixtures", "--format", "jsonl"]);
    assert_eq!(named.code, 2, "{named:?}");
    assert!(
        named
            .stderr
            .contains("skipped 1 jxray fixture file (fixtures/saved.json)"),
        "{named:?}"
    );
}

#[test]
fn a_fixture_anywhere_is_known_by_its_content_and_passed_over_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = "{\n  \"jxray_fixture\": 1,\n  \"name\": \"cut\",\n  \"input\": \"{\\\"a\\\": 1\",\n  \
                   \"stop_reason\": null,\n  \"expect\": {\"ok\": false, \"failure\": \"truncated\", \"defect\": null}\n}\n";
    write_files(
        dir.path(),
        &[
            ("runs/a.txt", "{\"a\": 1}"),
            ("runs/old-cases/cut.json", fixture),
            ("runs/answer.json", "{\"note\": {\"jxray_fixture\": 1}}"),
        ],
    );
    let run = run_in(dir.path(), &["check", "runs", "--color", "never"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stdout.contains("cut.json  "), "{}", run.stdout);
    assert!(run.stdout.contains("runs/answer.json"), "{}", run.stdout);
    assert_eq!(
        run.stdout.lines().last().unwrap(),
        "skipped 1 jxray fixture file (runs/old-cases/cut.json): replay them with jxray test"
    );
}

#[test]
fn the_configured_fixtures_folder_and_schema_apply_to_check() {
    let dir = tempfile::tempdir().unwrap();
    mixed(dir.path());
    write_files(
        dir.path(),
        &[
            ("fx/saved.json", "{\"jxray_fixture\": 1}"),
            (
                "config/jxray/config.toml",
                "fixtures = 'fx'\nschema = 'object.schema.json'\n",
            ),
            (
                "object.schema.json",
                "{\"type\": \"object\", \"required\": [\"b\"]}",
            ),
        ],
    );
    let config = dir.path().join("config");
    let env = [("XDG_CONFIG_HOME", config.to_str().unwrap())];
    let run = run_with(dir.path(), &["check", ".", "--format", "jsonl"], &env);
    assert!(!run.stdout.contains("saved.json"), "{}", run.stdout);
    assert!(run.stdout.contains("\"kind\":\"schema\""), "{}", run.stdout);
}
