//! The schema the request carried applies (contract §2): a capture recorded beside its
//! request file is judged against the request's response format, a tool call against its
//! tool's parameters, in `check` as in the workbench; an explicit `--schema` wins.

use crate::support;

use serde_json::json;
use support::cli::jxray_in;

/// A folder of one recorded exchange: `capture` (an envelope) and its request file.
fn recorded(capture: serde_json::Value, body: serde_json::Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join("2026-12-06");
    std::fs::create_dir_all(&day).unwrap();
    std::fs::write(day.join("10-00-00.000-m.json"), capture.to_string()).unwrap();
    let request = json!({"jxray_request": 1, "method": "POST", "path": "/openai/chat/completions", "body": body});
    std::fs::write(day.join("10-00-00.000-m.request.json"), request.to_string()).unwrap();
    dir
}

fn chat(content: serde_json::Value, tool_calls: serde_json::Value) -> serde_json::Value {
    json!({"object": "chat.completion", "model": "m", "choices": [{"index": 0,
        "message": {"role": "assistant", "content": content, "tool_calls": tool_calls},
        "finish_reason": "stop"}]})
}

fn lines(dir: &std::path::Path, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["check", ".", "--format", "jsonl"];
    all.extend_from_slice(args);
    jxray_in(dir, &all, b"")
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

const TRIAGE: &str = r#"{"severity": "urgent", "escalate": "yes"}"#;

fn triage_schema() -> serde_json::Value {
    json!({"type": "object", "required": ["severity", "escalate"],
        "properties": {"severity": {"enum": ["low", "high"]}, "escalate": {"type": "boolean"}}})
}

#[test]
fn a_response_formats_schema_judges_the_text() {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "triage"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "triage", "schema": triage_schema()}}});
    let dir = recorded(chat(json!(TRIAGE), json!(null)), body);
    let records = lines(dir.path(), &[]);
    assert_eq!(records[0]["failure"]["kind"], "schema", "{records:?}");
    assert_eq!(
        records[0]["schema_from"], "request",
        "the outcome says where its schema came from"
    );
    let message = records[0]["failure"]["message"].as_str().unwrap();
    assert!(
        message.contains("/severity") && message.contains("/escalate"),
        "{message}"
    );
    // An explicit schema wins.
    let elsewhere = tempfile::tempdir().unwrap();
    let loose = elsewhere.path().join("loose.json");
    std::fs::write(&loose, r#"{"type": "object"}"#).unwrap();
    let records = lines(dir.path(), &["--schema", loose.to_str().unwrap()]);
    assert_eq!(records[0]["ok"], true, "{records:?}");
    assert_eq!(
        records[0].get("schema_from"),
        None,
        "the flag's schema is the user's own"
    );
}

#[test]
fn a_tool_call_is_judged_against_its_tools_parameters() {
    let call = json!([{"id": "c1", "type": "function",
        "function": {"name": "triage", "arguments": TRIAGE}}]);
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "triage"}],
        "tools": [{"type": "function", "function": {"name": "triage", "parameters": triage_schema()}},
                  {"type": "function", "function": {"name": "other", "parameters": {"type": "object"}}}]});
    let dir = recorded(chat(json!(null), call), body);
    let records = lines(dir.path(), &[]);
    assert_eq!(records[0]["failure"]["kind"], "schema", "{records:?}");
}

#[test]
fn a_request_without_a_schema_changes_nothing() {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "triage"}],
        "response_format": {"type": "json_object"}});
    let dir = recorded(chat(json!(TRIAGE), json!(null)), body);
    let records = lines(dir.path(), &[]);
    assert_eq!(records[0]["ok"], true);
    assert_eq!(records[0].get("schema_from"), None);
}

#[test]
fn compare_judges_each_run_against_its_requests_schema() {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "triage"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "triage", "schema": triage_schema()}}});
    let with_schema = recorded(chat(json!(TRIAGE), json!(null)), body);
    let without = tempfile::tempdir().unwrap();
    let day = without.path().join("2026-12-06");
    std::fs::create_dir_all(&day).unwrap();
    std::fs::write(
        day.join("10-00-00.000-m.json"),
        chat(json!(TRIAGE), json!(null)).to_string(),
    )
    .unwrap();
    let run = jxray_in(
        with_schema.path(),
        &["compare", ".", without.path().to_str().unwrap()],
        b"",
    );
    assert!(run.stdout.contains("fixed"), "{}", run.stdout);
}
