//! A capture folder with two repair chains, as their writers leave them: one `jxray
//! record` linked (its first attempt has no link of its own) and one a repair loop wrote
//! with `captures=` (a `.jsonl` capture per attempt); and a capture in no chain.

use std::path::Path;

pub const DAY: &str = "2026-12-02";
pub const RECORDED_FIRST: &str = "10-00-00.000-gpt-4o-mini.json";
pub const RECORDED_SECOND: &str = "10-00-01.000-gpt-4o-mini.json";
pub const LOOP_FIRST: &str = "10-01-00.000-gpt-4o-mini-1a2b3c4d-a1.jsonl";
pub const LOOP_SECOND: &str = "10-01-01.000-gpt-4o-mini-1a2b3c4d-a2.jsonl";
pub const LOOP_CHAIN: &str = "1a2b3c4d5e6f7a8b";

fn openai(text: &str) -> String {
    serde_json::json!({"object": "chat.completion", "model": "gpt-4o-mini", "choices": [{"index": 0,
        "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
    .to_string()
}

fn request(chain: Option<serde_json::Value>, prompt: &str) -> String {
    let mut doc = serde_json::json!({"jxray_request": 1, "method": "POST",
        "path": "/openai/chat/completions", "model": "gpt-4o-mini",
        "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": prompt}]}});
    if let Some(chain) = chain {
        doc["chain"] = chain;
    }
    doc.to_string()
}

fn write(day: &Path, name: &str, capture: &str, request_file: &str) {
    std::fs::write(day.join(name), capture).unwrap();
    let stem = name.rsplit_once('.').unwrap().0;
    std::fs::write(day.join(format!("{stem}.request.json")), request_file).unwrap();
}

pub fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join(DAY);
    std::fs::create_dir_all(&day).unwrap();
    let first = format!("{DAY}/{RECORDED_FIRST}");
    write(
        &day,
        RECORDED_FIRST,
        &openai("{\"city\": \"Paris\",}"),
        &request(None, "City?"),
    );
    write(
        &day,
        RECORDED_SECOND,
        &openai("{\"city\": \"Paris\"}"),
        &request(
            Some(serde_json::json!({"id": first, "attempt": 2, "re_ask_of": first})),
            "City?\n\n(the repair request)",
        ),
    );
    let line =
        |text: &str| serde_json::json!({"output": text, "stop_reason": "stop"}).to_string() + "\n";
    write(
        &day,
        LOOP_FIRST,
        &line("The city is Paris."),
        &request(
            Some(serde_json::json!({"id": LOOP_CHAIN, "attempt": 1})),
            "Town?",
        ),
    );
    write(
        &day,
        LOOP_SECOND,
        &line("{\"town\": \"Paris\"}"),
        &request(
            Some(
                serde_json::json!({"id": LOOP_CHAIN, "attempt": 2, "re_ask_of": format!("{DAY}/{LOOP_FIRST}")}),
            ),
            "Town?\n\n(the repair request)",
        ),
    );
    std::fs::write(dir.path().join("plain.txt"), "{\"a\": 1}").unwrap();
    dir
}
