//! A JSON log document with one record nested past the parser's depth limit (128 levels):
//! that record is its own failure, and every other record is still read. The documents
//! are the real samples (`tests/data/logs/`) with one record's output made deep.

use crate::support;

use std::path::Path;

use jxray::capture::{load_file, Capture, LoadOptions};
use jxray::engine::Options;
use serde_json::{json, Value};

/// A JSON object nested `levels` deep, built as text (a tree that deep is not needed).
fn deep_object(levels: usize) -> String {
    format!("{}1{}", r#"{"n": "#.repeat(levels), "}".repeat(levels))
}

fn sample(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/logs")
        .join(name);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `document` written to `name` with the JSON string `"DEEP"` replaced by a deep object,
/// then loaded: each capture's source and verdict.
fn load_with_deep(name: &str, document: &Value, options: &LoadOptions) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let text = document.to_string().replace("\"DEEP\"", &deep_object(300));
    std::fs::write(&path, text).unwrap();
    let captures: Vec<Capture> = load_file(&path, dir.path(), options);
    captures
        .iter()
        .map(|capture| {
            let outcome = support::capture::outcome_of(capture, &Options::default());
            let verdict = match (&outcome.failure, outcome.layer) {
                (Some(failure), _) => match &capture.text {
                    Err(why) => format!("unreadable: {}", why.message),
                    Ok(_) => failure.kind.as_str().to_string(),
                },
                (None, Some(layer)) => layer.as_str().to_string(),
                (None, None) => "none".to_string(),
            };
            (capture.source.clone(), verdict)
        })
        .collect()
}

fn assert_only_the_deep_one_fails(verdicts: &[(String, String)], deep: &str, count: usize) {
    assert_eq!(verdicts.len(), count, "{verdicts:?}");
    for (source, verdict) in verdicts {
        if source.ends_with(deep) {
            assert!(
                verdict.starts_with("unreadable: this record nests deeper than 128 levels"),
                "{source}: {verdict}"
            );
        } else {
            assert!(!verdict.starts_with("unreadable"), "{source}: {verdict}");
        }
    }
}

#[test]
fn a_promptfoo_result_nested_too_deep_fails_alone() {
    let mut results = sample("promptfoo-results.json");
    let rows = results["results"]["results"].as_array_mut().unwrap();
    let count = rows.len();
    rows[2]["response"]["output"] = json!("DEEP");
    let verdicts = load_with_deep("results.json", &results, &LoadOptions::default());
    assert_only_the_deep_one_fails(&verdicts, "#2", count);
    assert_eq!(verdicts[0].1, "direct");
    assert_eq!(verdicts[1].1, "fenced");
}

#[test]
fn an_inspect_json_sample_nested_too_deep_fails_alone() {
    let mut log = sample("inspect-log.json");
    let samples = log["samples"].as_array_mut().unwrap();
    let count = samples.len();
    samples[0]["metadata"] = json!({"trace": "DEEP"});
    let verdicts = load_with_deep("log.json", &log, &LoadOptions::default());
    assert_only_the_deep_one_fails(&verdicts, "#1", count);
}

#[test]
fn a_field_mapped_record_nested_too_deep_fails_alone() {
    let records = json!([
        {"id": "a", "out": "{\"ok\": true}"},
        {"id": "b", "out": "DEEP"},
        {"id": "c", "out": "[1, 2"},
    ]);
    let flags = jxray::capture::fields::PathFlags {
        text: Some("out".parse().unwrap()),
        id: Some("id".parse().unwrap()),
        ..Default::default()
    };
    let options = LoadOptions {
        fields: flags.field_map().unwrap().map(std::sync::Arc::new),
        ..LoadOptions::default()
    };
    let verdicts = load_with_deep("export.json", &records, &options);
    assert_eq!(verdicts.len(), 3, "{verdicts:?}");
    assert_eq!(verdicts[0].1, "direct");
    assert!(verdicts[1]
        .1
        .starts_with("unreadable: this record nests deeper"));
    assert_eq!(verdicts[2].1, "truncated");
}
