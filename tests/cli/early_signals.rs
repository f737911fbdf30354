//! `jxray check` counts what early signals would have saved on saved streams (contract §7):
//! the first signal worth stopping for in each stream, fed in the chunks it arrived in, in
//! `--format jsonl`, and per kind in the summary — checked against a folder counted by hand.

use crate::support;

use support::streams::openai_stream;

use serde_json::Value;
use support::cli::{jxray_in, write_files};

#[test]
fn check_counts_the_output_that_came_after_each_first_signal() {
    let dir = tempfile::tempdir().unwrap();
    // A whitespace runaway: 8 bytes of value, then 100 chunks of 8 spaces (808 bytes).
    // The runaway is certain at the 512th space: byte 8 + 511 = 519, in chunk 65; 288
    // bytes came after it.
    let mut runaway = vec!["{\"a\": 1,"];
    runaway.extend(std::iter::repeat_n("        ", 100));
    // A refusal of 62 bytes, certain at its first sentence's end (byte 37): 24 after it.
    let refusal = [
        "I'm sorry, but I can't help with that.",
        " Please ask another way.",
    ];
    let good = ["{\"a\":", " 1}"];
    // Its last chunk says its usage, as `stream_options.include_usage` has it: 101 output
    // tokens, about 36 of them after the signal (288 of 808 bytes).
    let usage = r#"{"id": "c", "object": "chat.completion.chunk", "model": "m", "choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 101, "total_tokens": 106}}"#;
    let runaway_sse = openai_stream(&runaway, "length")
        .replace("data: [DONE]", &format!("data: {usage}\n\ndata: [DONE]"));
    write_files(
        dir.path(),
        &[
            ("runaway.sse", &runaway_sse),
            ("refusal.sse", &openai_stream(&refusal, "stop")),
            ("good.sse", &openai_stream(&good, "stop")),
        ],
    );
    // The runaway was recorded: its request file says when each event came, 10 ms apart.
    let ends: Vec<usize> = runaway_sse
        .match_indices("\n\n")
        .map(|(at, _)| at + 2)
        .collect();
    let ms: Vec<usize> = (0..ends.len()).map(|i| 10 * i).collect();
    let request = serde_json::json!({"jxray_request": 1, "method": "POST", "stream": true,
        "body": {"messages": []}, "arrival": {"ms": ms, "bytes": ends}});
    std::fs::write(dir.path().join("runaway.request.json"), request.to_string()).unwrap();
    let run = jxray_in(dir.path(), &["check", ".", "--format", "jsonl"], b"");
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let early = |name: &str| {
        let line = lines.iter().find(|l| l["source"] == name).unwrap();
        line.get("early_signal").cloned()
    };
    assert_eq!(
        early("runaway.sse").unwrap(),
        serde_json::json!({"kind": "runaway", "byte": 519, "chunk": 65, "chunks": 101, "bytes": 808,
            "ms": 640, "tokens": 101})
    );
    let refused = early("refusal.sse").unwrap();
    assert_eq!(
        (refused["kind"].as_str(), refused["chunk"].as_u64()),
        (Some("refusal"), Some(1))
    );
    assert_eq!(refused["byte"], 37);
    assert_eq!(early("good.sse"), None);

    let run = jxray_in(dir.path(), &["check", "."], b"");
    // Runaway: 288 of 808 bytes after it (35.6%); refusal: 24 of 62 (38.7%).
    assert!(
        run.stdout.contains(
            "early signals in streams: runaway 1 (36% of their output after it, about 36 tokens), refusal 1 (39%)"
        ),
        "{}",
        run.stdout
    );
    let run = jxray_in(dir.path(), &["check", ".", "--format", "json"], b"");
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let counted = &report["summary"]["early_signals"];
    assert_eq!(counted["runaway"]["bytes_after"], 288);
    assert_eq!(counted["runaway"]["tokens_after"], 36);
    assert_eq!(counted["refusal"]["output_bytes"], 62);
    let run = jxray_in(dir.path(), &["check", ".", "--format", "html"], b"");
    assert!(
        run.stdout
            .contains("<p class=\"early\">early signals in streams: runaway 1 (36%"),
        "the HTML report says it too"
    );
    // With --by, each group says its own.
    let run = jxray_in(dir.path(), &["check", ".", "--by", "folder"], b"");
    assert_eq!(
        run.stdout.matches("early signals in streams:").count(),
        2,
        "{}",
        run.stdout
    );
}
