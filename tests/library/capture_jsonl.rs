//! `.jsonl` files: one capture a line, batch output lines, bad lines, order.

use crate::support;

use jxray::capture::Provider;
use support::capture::{assert_capture, load_files, unreadable};

#[test]
fn each_line_is_a_capture_with_its_line_number() {
    let text = concat!(
        r#"{"output": "```json\n{\"a\": 1}\n```", "stop_reason": "stop"}"#,
        "\n\n",
        r#"{"output": "no json here"}"#,
        "\r\n",
        r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"length"}]}"#,
        "\n",
    );
    let captures = load_files(&[("runs.jsonl", text)]);
    let sources: Vec<_> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(sources, ["runs.jsonl:1", "runs.jsonl:3", "runs.jsonl:4"]);
    assert_eq!(captures[1].line, Some(3));
    assert!(captures[1].path.ends_with("runs.jsonl"));
    assert_capture(&captures[0], "```json\n{\"a\": 1}\n```", None, Some("stop"));
    assert_capture(&captures[1], "no json here", None, None);
    assert_capture(
        &captures[2],
        "{}",
        Some(Provider::OpenaiChat),
        Some("length"),
    );
}

#[test]
fn a_bad_line_is_unreadable_and_the_others_still_load() {
    let text =
        "{\"output\": \"1\"}\n{\"output\": \"2\"\n[1, 2]\n{\"output\": 3}\n{\"output\": \"5\"}\n";
    let captures = load_files(&[("mixed.jsonl", text)]);
    assert_eq!(captures.len(), 5);
    assert_eq!(captures[0].text.as_deref(), Ok("1"));
    let not_json = unreadable(&captures[1]);
    assert!(not_json.starts_with("not JSON ("), "{not_json}");
    assert!(not_json.contains("fix or remove the line"), "{not_json}");
    let not_capture = unreadable(&captures[2]);
    assert!(not_capture.contains("not a capture"), "{not_capture}");
    assert!(unreadable(&captures[3]).contains("\"output\" is neither text nor JSON"));
    assert_eq!(captures[4].text.as_deref(), Ok("5"));
    assert_eq!(captures[1].source, "mixed.jsonl:2");
}

#[test]
fn an_output_that_is_already_json_is_serialized_compactly() {
    let captures = load_files(&[(
        "promptfoo.jsonl",
        "{\"output\": {\"name\": \"Desk\", \"price\": 120}}\n",
    )]);
    assert_eq!(
        captures[0].text.as_deref(),
        Ok(r#"{"name":"Desk","price":120}"#)
    );
}

#[test]
fn lines_sort_numerically_after_files_sort_by_path() {
    let mut text = String::new();
    for n in 1..=12 {
        text.push_str(&format!("{{\"output\": \"{n}\"}}\n"));
    }
    let captures = load_files(&[("b.jsonl", &text), ("a.txt", "x"), ("c/d.txt", "y")]);
    let sources: Vec<_> = captures.iter().map(|c| c.source.clone()).collect();
    let mut expected = vec!["a.txt".to_string()];
    expected.extend((1..=12).map(|n| format!("b.jsonl:{n}")));
    expected.push("c/d.txt".to_string());
    assert_eq!(sources, expected);
}

#[test]
fn an_empty_jsonl_file_is_reported_not_dropped() {
    let captures = load_files(&[("empty.jsonl", "\n  \n")]);
    assert_eq!(captures.len(), 1);
    assert!(unreadable(&captures[0]).starts_with("no lines"));
}

#[test]
fn openai_batch_output_lines() {
    let text = concat!(
        r#"{"id":"batch_req_1","custom_id":"ticket-17","response":{"status_code":200,"request_id":"r","body":{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\"queue\": \"billing\"}"},"finish_reason":"stop"}]}},"error":null}"#,
        "\n",
        r#"{"id":"batch_req_2","custom_id":"ticket-18","response":{"status_code":200,"body":{"object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"message","content":[{"type":"output_text","text":"{\"queue\":"}]}]}},"error":null}"#,
        "\n",
        r#"{"id":"batch_req_3","custom_id":"ticket-19","response":null,"error":{"code":"rate_limit_exceeded","message":"Too many requests"}}"#,
        "\n",
    );
    let captures = load_files(&[("batch_output.jsonl", text)]);
    assert_capture(
        &captures[0],
        r#"{"queue": "billing"}"#,
        Some(Provider::OpenaiBatch),
        Some("stop"),
    );
    assert_capture(
        &captures[1],
        r#"{"queue":"#,
        Some(Provider::OpenaiBatch),
        Some("max_output_tokens"),
    );
    let sources: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(
        sources,
        [
            "batch_output.jsonl#ticket-17",
            "batch_output.jsonl#ticket-18",
            "batch_output.jsonl#ticket-19"
        ],
        "batch results are named by custom_id: they come back in any order"
    );
    let failed = unreadable(&captures[2]);
    assert!(failed.contains("\"ticket-19\""), "{failed}");
    assert!(
        failed.contains("rate_limit_exceeded: Too many requests"),
        "{failed}"
    );
}

#[test]
fn anthropic_batch_result_lines() {
    let text = concat!(
        r#"{"custom_id":"inv-1","result":{"type":"succeeded","message":{"id":"m","type":"message","role":"assistant","content":[{"type":"text","text":"{\"total\": 10}"}],"stop_reason":"end_turn"}}}"#,
        "\n",
        r#"{"custom_id":"inv-2","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens too large"}}}}"#,
        "\n",
        r#"{"custom_id":"inv-3","result":{"type":"expired"}}"#,
        "\n",
    );
    let captures = load_files(&[("results.jsonl", text)]);
    assert_capture(
        &captures[0],
        r#"{"total": 10}"#,
        Some(Provider::AnthropicBatch),
        Some("end_turn"),
    );
    let errored = unreadable(&captures[1]);
    assert!(
        errored.contains("errored: max_tokens too large"),
        "{errored}"
    );
    assert!(unreadable(&captures[2]).contains("\"inv-3\" holds no message: the request expired"));
    assert_eq!(captures[1].source, "results.jsonl#inv-2");
}

#[test]
fn gemini_batch_output_lines() {
    let text = concat!(
        r#"{"key":"req-1","response":{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"a\": 1}"}]},"finishReason":"STOP"}],"modelVersion":"gemini-2.5-flash"}}"#,
        "\n",
        r#"{"key":"req-2","response":{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"a\": ["}]},"finishReason":"MAX_TOKENS"}],"modelVersion":"gemini-2.5-flash"}}"#,
        "\n",
        r#"{"key":"req-3","error":{"code":3,"message":"Request contains an invalid argument."}}"#,
        "\n",
        // Vertex AI batch prediction: the request instead of a key, so the line names it.
        r#"{"status":"","processed_time":"2026-01-01T00:00:00Z","request":{"contents":[]},"response":{"candidates":[{"content":{"role":"model","parts":[{"text":"[]"}]},"finishReason":"STOP"}]}}"#,
        "\n",
    );
    let captures = load_files(&[("gemini-batch.jsonl", text)]);
    let sources: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(
        sources,
        [
            "gemini-batch.jsonl#req-1",
            "gemini-batch.jsonl#req-2",
            "gemini-batch.jsonl#req-3",
            "gemini-batch.jsonl:4"
        ]
    );
    assert_capture(
        &captures[0],
        r#"{"a": 1}"#,
        Some(Provider::GeminiBatch),
        Some("STOP"),
    );
    assert_eq!(captures[0].model.as_deref(), Some("gemini-2.5-flash"));
    assert_capture(
        &captures[1],
        r#"{"a": ["#,
        Some(Provider::GeminiBatch),
        Some("MAX_TOKENS"),
    );
    let failed = unreadable(&captures[2]);
    assert!(
        failed.contains("\"req-3\"") && failed.contains("invalid argument"),
        "{failed}"
    );
    assert_capture(
        &captures[3],
        "[]",
        Some(Provider::GeminiBatch),
        Some("STOP"),
    );
}

#[test]
fn batch_line_whose_body_is_not_a_known_response_is_unreadable() {
    let text =
        r#"{"custom_id":"x","response":{"status_code":200,"body":{"hello":1}},"error":null}"#;
    let captures = load_files(&[("b.jsonl", text)]);
    let message = unreadable(&captures[0]);
    assert!(
        message.starts_with("OpenAI batch output line without its text"),
        "{message}"
    );
}
