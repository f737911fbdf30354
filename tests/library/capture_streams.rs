//! Saved streams (SSE logs, Ollama NDJSON) joined into their final text and stop reason.

use crate::support;

use jxray::capture::Provider;
use jxray::engine::WarningKind;
use support::capture::{assert_capture, load_files, one, unreadable, warning_kinds};

/// Events separated by blank lines, as a stream is saved.
fn sse(events: &[&str]) -> String {
    events.join("\n\n") + "\n\n"
}

#[test]
fn openai_chat_stream_with_usage_chunk_and_done() {
    let text = sse(&[
        r#"data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#,
        r#"data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"{\"a\":"},"finish_reason":null}]}"#,
        r#"data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" 1}"},"finish_reason":null}]}"#,
        r#"data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}"#,
        r#"data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}"#,
        r#"data: {"id":"c1","object":"chat.completion.chunk","usage":{"total_tokens":11}}"#,
        "data: [DONE]",
    ]);
    let capture = one("chat.sse", &text);
    assert_capture(
        &capture,
        r#"{"a": 1}"#,
        Some(Provider::OpenaiChat),
        Some("length"),
    );
}

#[test]
fn openai_chat_stream_with_crlf_comments_and_no_space_after_colon() {
    let text = concat!(
        ": OPENROUTER PROCESSING\r\n\r\n",
        "data:{\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"[1,\"},\"finish_reason\":null}]}\r\n\r\n",
        ": keep-alive\r\n",
        "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"2]\"},\"finish_reason\":\"stop\"}]}\r\n\r\n",
        "data: [DONE]\r\n\r\n",
    );
    let capture = one("crlf.sse", text);
    assert_capture(&capture, "[1,2]", Some(Provider::OpenaiChat), Some("stop"));
}

#[test]
fn openai_chat_stream_tool_call_fragments_per_index() {
    let text = sse(&[
        r#"data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"read_file","arguments":""}}]},"finish_reason":null}]}"#,
        r#"data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\": \"update"}}]},"finish_reason":null}]}"#,
        r#"data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"list_dir","arguments":"{\"dir\":"}}]},"finish_reason":null}]}"#,
        r#"data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":".sh\"}"}}]},"finish_reason":null}]}"#,
        r#"data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":" \"/\"}"}}]},"finish_reason":null}]}"#,
        r#"data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        "data: [DONE]",
    ]);
    let captures = load_files(&[("tools.sse", &text)]);
    let sources: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(sources, ["tools.sse#call-1", "tools.sse#call-2"]);
    for (capture, arguments) in captures
        .iter()
        .zip([r#"{"path": "update.sh"}"#, r#"{"dir": "/"}"#])
    {
        assert_capture(
            capture,
            arguments,
            Some(Provider::OpenaiChat),
            Some("tool_calls"),
        );
        assert!(capture.warnings.is_empty(), "{capture:#?}");
    }
}

#[test]
fn openai_responses_stream_incomplete() {
    let text = sse(&[
        "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"status\":\"in_progress\",\"output\":[]}}",
        "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\"{\\\"a\\\":\",\"sequence_number\":5}",
        "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\" [1, 2\",\"sequence_number\":6}",
        "event: response.incomplete\ndata: {\"type\":\"response.incomplete\",\"sequence_number\":9,\"response\":{\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"output\":[]}}",
    ]);
    let capture = one("resp.sse", &text);
    assert_capture(
        &capture,
        r#"{"a": [1, 2"#,
        Some(Provider::OpenaiResponses),
        Some("max_output_tokens"),
    );
}

#[test]
fn openai_responses_stream_function_call_arguments() {
    let text = sse(&[
        "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":\"fc_1\",\"name\":\"create_invoice\",\"arguments\":\"\"}}",
        "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"delta\":\"{\\\"total\\\":\"}",
        "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"delta\":\" 99}\"}",
        "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"output\":[]}}",
    ]);
    let capture = one("fn.sse", &text);
    assert_capture(
        &capture,
        r#"{"total": 99}"#,
        Some(Provider::OpenaiResponses),
        Some("completed"),
    );
}

#[test]
fn openai_responses_stream_without_deltas_uses_the_final_response() {
    let text = sse(&[
        "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"object\":\"response\",\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"{}\"}]}]}}",
    ]);
    let capture = one("final.sse", &text);
    assert_capture(
        &capture,
        "{}",
        Some(Provider::OpenaiResponses),
        Some("completed"),
    );
}

#[test]
fn anthropic_stream_text_ping_and_max_tokens() {
    let text = sse(&[
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
        "event: ping\ndata: {\"type\": \"ping\"}",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"a\\\":\"}}",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" \\\"x\"}}",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":1024}}",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}",
    ]);
    let capture = one("claude.sse", &text);
    assert_capture(
        &capture,
        r#"{"a": "x"#,
        Some(Provider::Anthropic),
        Some("max_tokens"),
    );
}

#[test]
fn anthropic_stream_input_json_delta_and_skipped_thinking() {
    let text = sse(&[
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"{nope}\"}}",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"roll\",\"input\":{}}}",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"num_sides\\\": 16\"}}",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"}\"}}",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}",
    ]);
    let capture = one("tool.sse", &text);
    assert_capture(
        &capture,
        r#"{"num_sides": 16}"#,
        Some(Provider::Anthropic),
        Some("tool_use"),
    );
}

#[test]
fn anthropic_stream_error_event_is_the_stop_reason() {
    let text = sse(&[
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"a\\\": [\"}}",
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
    ]);
    let capture = one("err.sse", &text);
    assert_capture(
        &capture,
        r#"{"a": ["#,
        Some(Provider::Anthropic),
        Some("overloaded_error"),
    );
}

#[test]
fn gemini_sse_stream() {
    let text = sse(&[
        r#"data: {"candidates":[{"content":{"role":"model","parts":[{"text":"```json\n{\"ok\":"}]},"index":0}]}"#,
        r#"data: {"candidates":[{"content":{"role":"model","parts":[{"text":"thinking","thought":true},{"text":" true}\n```"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":5}}"#,
    ]);
    let capture = one("gemini.sse", &text);
    assert_capture(
        &capture,
        "```json\n{\"ok\": true}\n```",
        Some(Provider::Gemini),
        Some("STOP"),
    );
}

#[test]
fn multi_line_data_field_is_one_payload() {
    let text = concat!(
        "data: {\"object\":\"chat.completion.chunk\",\n",
        "data:  \"choices\":[{\"index\":0,\"delta\":{\"content\":\"{}\"},\"finish_reason\":\"stop\"}]}\n",
        "\n",
    );
    let capture = one("multi.sse", text);
    assert_capture(&capture, "{}", Some(Provider::OpenaiChat), Some("stop"));
}

#[test]
fn data_lines_without_blank_lines_between_them_still_join() {
    let text = concat!(
        "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"[\"},\"finish_reason\":null}]}\n",
        "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"7]\"},\"finish_reason\":\"stop\"}]}\n",
        "data: [DONE]\n",
    );
    let capture = one("tight.sse", text);
    assert_capture(&capture, "[7]", Some(Provider::OpenaiChat), Some("stop"));
}

#[test]
fn a_text_file_holding_a_stream_is_joined() {
    let text = sse(&[
        r#"data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"{\"n\": 1}"},"finish_reason":"stop"}]}"#,
        "data: [DONE]",
    ]);
    let capture = one("saved-stream.txt", &text);
    assert_capture(
        &capture,
        r#"{"n": 1}"#,
        Some(Provider::OpenaiChat),
        Some("stop"),
    );
    let capture = one("saved-stream", &text);
    assert_eq!(capture.provider, Some(Provider::OpenaiChat));
}

#[test]
fn a_text_file_that_only_starts_like_a_stream_stays_raw() {
    let text = "data: the export finished.\nHere is the JSON: {\"rows\": 3}\n";
    let capture = one("notes.txt", text);
    assert_capture(&capture, text, None, None);
    // Field lines, but no payload from a known provider: raw text too.
    let text = "event: update\ndata: {\"rows\": 3}\n\n";
    assert_capture(&one("events.txt", text), text, None, None);
}

#[test]
fn an_sse_file_from_no_known_provider_is_unreadable() {
    let capture = one("unknown.sse", "event: update\ndata: {\"rows\": 3}\n\n");
    let message = unreadable(&capture);
    assert!(
        message.starts_with("not a stream from a known provider"),
        "{message}"
    );
}

#[test]
fn ollama_ndjson_stream_in_jsonl_is_one_capture() {
    let text = concat!(
        r#"{"model":"qwen3","created_at":"t","message":{"role":"assistant","content":"","thinking":"{\"total\":"},"done":false}"#,
        "\n",
        r#"{"model":"qwen3","created_at":"t","message":{"role":"assistant","content":"","thinking":" 4}"},"done":false}"#,
        "\n\n",
        r#"{"model":"qwen3","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"length"}"#,
        "\n",
    );
    let capture = one("ollama-stream.ndjson", text);
    assert_eq!(capture.source, "ollama-stream.ndjson");
    assert_eq!(capture.line, None);
    assert_capture(
        &capture,
        r#"{"total": 4}"#,
        Some(Provider::Ollama),
        Some("length"),
    );
    assert_eq!(warning_kinds(&capture), [WarningKind::AnswerInThinking]);
}
