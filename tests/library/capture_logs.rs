//! Log stores, read from files the real tools made (`scripts/make-log-samples.sh`):
//! the `llm` CLI's `logs.db` (current and older layouts), Inspect AI `.eval` and `.json`
//! logs, and promptfoo results.

use std::fs;
use std::path::{Path, PathBuf};

use jxray::capture::{load, load_file, Capture, LoadOptions, Provider};
use jxray::check::Checker;
use jxray::engine::Options;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/logs")
        .join(name)
}

fn captures(name: &str) -> Vec<Capture> {
    let path = sample(name);
    load_file(&path, path.parent().unwrap(), &LoadOptions::default())
}

/// The sample's captures in the order of their sources: a log holds results in the order
/// they completed, so tests compare by id.
fn captures_by_source(name: &str) -> Vec<Capture> {
    let mut captures = captures(name);
    captures.sort_by(|a, b| a.source.cmp(&b.source));
    captures
}

/// Each capture's verdict as `kind` (`ok:LAYER` or the failure kind), with its own schema
/// applied as `check` applies it.
fn verdicts(captures: &[Capture]) -> Vec<String> {
    let checker = Checker::new(Options::default(), None);
    captures
        .iter()
        .map(|capture| {
            let outcome = checker.outcome(capture);
            match (&outcome.failure, outcome.layer) {
                (None, Some(layer)) => format!("ok:{}", layer.as_str()),
                (Some(failure), _) => failure.kind.as_str().to_string(),
                (None, None) => "none".to_string(),
            }
        })
        .collect()
}

fn texts(captures: &[Capture]) -> Vec<&str> {
    captures
        .iter()
        .map(|capture| capture.text.as_deref().unwrap_or("<unreadable>"))
        .collect()
}

#[test]
fn llm_logs_db_current_layout() {
    let captures = captures("llm-logs.db");
    assert_eq!(
        verdicts(&captures),
        [
            "ok:direct",
            "ok:fenced",
            "truncated",
            "invalid",
            "no-json",
            "schema",
            "ok:direct",
            "ok:direct",
            "ok:direct"
        ],
        "{captures:#?}"
    );
    let texts = texts(&captures);
    assert_eq!(texts[0], r#"{"city": "Paris", "population": 2102650}"#);
    assert_eq!(texts[6..8], [r#"{"city":"Quito"}"#, r#"{"city":"Accra"}"#]);
    // The reasoning part before the answer is not part of the text.
    assert_eq!(texts[8], r#"{"city": "Hanoi", "population": 8053663}"#);
    for capture in &captures {
        assert_eq!(capture.provider, Some(Provider::Llm));
        assert_eq!(capture.model.as_deref(), Some("echo"));
        let id = capture.source.strip_prefix("llm-logs.db#").unwrap();
        assert!(id.len() >= 20, "{}", capture.source);
    }
    // The two tool calls of one response are two captures of one record.
    let calls: Vec<&str> = captures[6..8].iter().map(|c| c.source.as_str()).collect();
    assert!(
        calls[0].ends_with("#call-1") && calls[1].ends_with("#call-2"),
        "{calls:?}"
    );
    assert_eq!(
        calls[0].trim_end_matches("#call-1"),
        calls[1].trim_end_matches("#call-2")
    );
    // The schema the user asked for is recorded, and checked.
    assert!(captures[5].schema.is_some());
    assert!(captures[..5].iter().all(|capture| capture.schema.is_none()));
}

#[test]
fn llm_logs_db_older_layout() {
    let captures = captures("llm-logs-legacy.db");
    assert_eq!(verdicts(&captures), ["ok:direct", "ok:fenced", "truncated"]);
    assert!(captures.iter().all(|c| c.model.as_deref() == Some("echo")));
    assert!(captures[0].source.starts_with("llm-logs-legacy.db#"));
}

#[test]
fn llm_logs_db_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("logs.db");
    fs::copy(sample("llm-logs.db"), &copy).unwrap();
    let before = fs::read(&copy).unwrap();
    let loaded = load(dir.path(), &LoadOptions::default()).unwrap();
    assert_eq!(loaded.len(), 9);
    assert_eq!(fs::read(&copy).unwrap(), before);
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        ["logs.db"],
        "no journal or lock file is left beside it"
    );
}

#[test]
fn a_sqlite_file_that_is_not_an_llm_log_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("other.db");
    let mut bytes = fs::read(sample("llm-logs-legacy.db")).unwrap();
    // Keep the SQLite header, break everything after it.
    bytes.truncate(100);
    bytes.resize(4096, 0);
    fs::write(&db, bytes).unwrap();
    let captures = load_file(&db, dir.path(), &LoadOptions::default());
    assert_eq!(captures.len(), 1);
    let message = captures[0].text.as_ref().unwrap_err().message.clone();
    assert!(
        message.contains("llm") || message.contains("SQLite"),
        "{message}"
    );
}

#[test]
fn inspect_eval_and_json_logs() {
    for name in ["inspect-log.eval", "inspect-log.json"] {
        let captures = captures_by_source(name);
        assert_eq!(
            verdicts(&captures),
            [
                "ok:direct",
                "ok:fenced",
                "truncated",
                "invalid",
                "no-json",
                "ok:direct"
            ],
            "{name}: {captures:#?}"
        );
        let sources: Vec<String> = captures.iter().map(|c| c.source.clone()).collect();
        let expected: Vec<String> = (1..=6).map(|id| format!("{name}#{id}")).collect();
        assert_eq!(sources, expected);
        let stops: Vec<Option<&str>> = captures.iter().map(|c| c.stop_reason.as_deref()).collect();
        assert_eq!(stops[2], Some("max_tokens"), "{name}");
        assert_eq!(stops[4], Some("content_filter"), "{name}");
        for capture in &captures {
            assert_eq!(capture.provider, Some(Provider::Inspect));
            assert_eq!(capture.model.as_deref(), Some("mockllm/model"));
        }
        // The long output Inspect moved into the sample's attachments is whole again.
        let long = captures[5].text.as_deref().unwrap();
        assert!(long.starts_with(r#"{"items": [{"sku": "SKU-0000""#) && long.ends_with("}]}"));
    }
}

#[test]
fn promptfoo_results_json_and_jsonl() {
    for (name, suffix) in [
        ("promptfoo-results.json", ""),
        ("promptfoo-results.jsonl", ".0"),
    ] {
        let captures = captures_by_source(name);
        assert_eq!(
            verdicts(&captures),
            [
                "ok:direct",
                "ok:fenced",
                "truncated",
                "invalid",
                "no-json",
                "schema"
            ],
            "{name}: {captures:#?}"
        );
        let sources: Vec<String> = captures.iter().map(|c| c.source.clone()).collect();
        let expected: Vec<String> = (0..6)
            .map(|test| format!("{name}#{test}{suffix}"))
            .collect();
        assert_eq!(sources, expected);
        for capture in &captures {
            assert_eq!(capture.provider, Some(Provider::Promptfoo));
            assert_eq!(capture.model.as_deref(), Some("echo"));
        }
        // The is-json assertion's schema travels with its two results only.
        let with_schema: Vec<bool> = captures.iter().map(|c| c.schema.is_some()).collect();
        assert_eq!(
            with_schema,
            [true, false, false, false, false, true],
            "{name}"
        );
    }
}
