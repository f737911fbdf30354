//! Provider response envelopes in `.json` files: text, provider and stop reason.

use crate::support;

use jxray::capture::Provider;
use jxray::engine::{Cause, FailureKind, Options, WarningKind};
use support::capture::{assert_capture, load_files, one, unreadable, warning_kinds};

// ---- OpenAI Chat Completions ----

#[test]
fn openai_chat_content_and_finish_reason() {
    let capture = one(
        "chat.json",
        r#"{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o",
            "choices":[{"index":0,"message":{"role":"assistant","content":"{\"a\": 1}","refusal":null},
                        "finish_reason":"length","logprobs":null}],
            "usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}"#,
    );
    assert_capture(
        &capture,
        r#"{"a": 1}"#,
        Some(Provider::OpenaiChat),
        Some("length"),
    );
    assert!(capture.warnings.is_empty());
}

#[test]
fn openai_chat_null_content_uses_the_tool_call_arguments() {
    let capture = one(
        "tool.json",
        r#"{"object":"chat.completion","choices":[{"index":0,
            "message":{"role":"assistant","content":null,"tool_calls":[
              {"id":"call_1","type":"function","function":{"name":"file_ticket","arguments":"{\"title\": \"Login\nfails\"}"}}]},
            "finish_reason":"tool_calls"}]}"#,
    );
    assert_capture(
        &capture,
        "{\"title\": \"Login\nfails\"}",
        Some(Provider::OpenaiChat),
        Some("tool_calls"),
    );
}

/// The sources and texts of every capture in one file.
fn sources_and_texts(name: &str, content: &str) -> Vec<(String, String)> {
    load_files(&[(name, content)])
        .into_iter()
        .map(|capture| (capture.source, capture.text.unwrap()))
        .collect()
}

#[test]
fn openai_chat_every_tool_call_is_its_own_capture() {
    let captures = load_files(&[(
        "tools.json",
        r#"{"object":"chat.completion","model":"gpt-4o","choices":[{"index":0,
            "message":{"role":"assistant","content":null,"tool_calls":[
              {"id":"a","type":"function","function":{"name":"get_invoice","arguments":"{\"id\": 7}"}},
              {"id":"b","type":"function","function":{"name":"get_customer","arguments":"{\"id\": 9"}}]},
            "finish_reason":"tool_calls"}]}"#,
    )]);
    let sources: Vec<&str> = captures.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(sources, ["tools.json#call-1", "tools.json#call-2"]);
    assert_eq!(captures[0].text.as_deref(), Ok(r#"{"id": 7}"#));
    assert_eq!(captures[1].text.as_deref(), Ok(r#"{"id": 9"#));
    for capture in &captures {
        assert_eq!(capture.stop_reason.as_deref(), Some("tool_calls"));
        assert_eq!(capture.model.as_deref(), Some("gpt-4o"));
        assert!(capture.warnings.is_empty(), "each call stands alone");
    }
    // The second call is cut off on its own: the first one's verdict does not hide it.
    let outcomes: Vec<bool> = captures
        .iter()
        .map(|c| support::capture::outcome_of(c, &Default::default()).ok())
        .collect();
    assert_eq!(outcomes, [true, false]);
}

#[test]
fn text_beside_tool_calls_is_a_capture_when_the_model_did_not_stop_for_them() {
    let gemini = r#"{"candidates":[{"content":{"role":"model","parts":[
          {"text":"{\"a\": 1}"},
          {"functionCall":{"name":"f","args":{"b":2}}},
          {"functionCall":{"name":"g","args":{"c":3}}}]},"finishReason":"STOP"}],
        "modelVersion":"gemini-2.5-flash"}"#;
    assert_eq!(
        sources_and_texts("g.json", gemini),
        [
            ("g.json".to_string(), r#"{"a": 1}"#.to_string()),
            ("g.json#call-1".to_string(), r#"{"b":2}"#.to_string()),
            ("g.json#call-2".to_string(), r#"{"c":3}"#.to_string()),
        ]
    );
    let anthropic = r#"{"type":"message","role":"assistant","model":"claude",
        "content":[{"type":"text","text":"Filing both."},
                   {"type":"tool_use","id":"1","name":"f","input":{"x":1}},
                   {"type":"tool_use","id":"2","name":"f","input":{"x":2}}],
        "stop_reason":"tool_use"}"#;
    assert_eq!(
        sources_and_texts("a.json", anthropic),
        [
            ("a.json#call-1".to_string(), r#"{"x":1}"#.to_string()),
            ("a.json#call-2".to_string(), r#"{"x":2}"#.to_string()),
        ]
    );
}

#[test]
fn tool_calls_in_jsonl_lines_keep_their_line() {
    let line = r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"function":{"name":"a","arguments":"[1]"}},{"function":{"name":"b","arguments":"[2]"}}]},"finish_reason":"tool_calls"}]}"#;
    let captures = load_files(&[("log.jsonl", &format!("{line}\n{line}\n"))]);
    let sources: Vec<(&str, Option<usize>)> = captures
        .iter()
        .map(|c| (c.source.as_str(), c.line))
        .collect();
    assert_eq!(
        sources,
        [
            ("log.jsonl:1#call-1", Some(1)),
            ("log.jsonl:1#call-2", Some(1)),
            ("log.jsonl:2#call-1", Some(2)),
            ("log.jsonl:2#call-2", Some(2)),
        ]
    );
}

#[test]
fn openai_chat_tool_calls_win_over_a_preamble_when_the_model_stopped_for_them() {
    let capture = one(
        "pre.json",
        r#"{"object":"chat.completion","choices":[{"index":0,
            "message":{"role":"assistant","content":"Let me file that.","tool_calls":[
              {"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},
            "finish_reason":"tool_calls"}]}"#,
    );
    assert_eq!(capture.text.as_deref(), Ok(r#"{"x":1}"#));
}

#[test]
fn openai_chat_legacy_function_call() {
    let capture = one(
        "legacy.json",
        r#"{"object":"chat.completion","choices":[{"index":0,
            "message":{"role":"assistant","content":null,
                       "function_call":{"name":"extract","arguments":"{\"sku\": \"A-1\"}"}},
            "finish_reason":"function_call"}]}"#,
    );
    assert_capture(
        &capture,
        r#"{"sku": "A-1"}"#,
        Some(Provider::OpenaiChat),
        Some("function_call"),
    );
}

#[test]
fn openai_chat_empty_content_at_the_length_limit_is_empty_text() {
    let capture = one(
        "empty.json",
        r#"{"object":"chat.completion","choices":[{"index":0,
            "message":{"role":"assistant","content":""},"finish_reason":"length"}]}"#,
    );
    assert_capture(&capture, "", Some(Provider::OpenaiChat), Some("length"));
}

#[test]
fn openai_chat_refusal_is_the_text() {
    let capture = one(
        "refusal.json",
        r#"{"object":"chat.completion","choices":[{"index":0,
            "message":{"role":"assistant","content":null,"refusal":"I can't help with that."},
            "finish_reason":"stop"}]}"#,
    );
    assert_capture(
        &capture,
        "I can't help with that.",
        Some(Provider::OpenaiChat),
        Some("stop"),
    );
    assert!(capture.refused);
}

#[test]
fn a_refusal_the_provider_marked_is_the_cause_whatever_its_wording() {
    let chat = one(
        "refusal.json",
        r#"{"object":"chat.completion","choices":[{"index":0,
            "message":{"role":"assistant","content":null,"refusal":"That request falls outside my guidelines."},
            "finish_reason":"stop"}]}"#,
    );
    let responses = one(
        "refusal-responses.json",
        r#"{"object":"response","status":"completed","output":[{"type":"message","role":"assistant",
            "content":[{"type":"refusal","refusal":"That request falls outside my guidelines."}]}]}"#,
    );
    for capture in [chat, responses] {
        assert!(capture.refused, "{}", capture.source);
        let failure = support::capture::outcome_of(&capture, &Options::default())
            .failure
            .unwrap();
        assert_eq!(failure.kind, FailureKind::NoJson);
        assert_eq!(failure.cause, Some(Cause::Refusal), "{}", capture.source);
        assert!(failure.message.contains("declined"), "{}", failure.message);
    }
    let plain = one("plain.txt", "That request falls outside my guidelines.");
    let failure = support::capture::outcome_of(&plain, &Options::default())
        .failure
        .unwrap();
    assert_eq!(
        failure.cause, None,
        "only the provider's mark makes this wording a refusal"
    );
}

#[test]
fn openai_compatible_body_without_object_field() {
    let capture = one(
        "vllm.json",
        r#"{"id":"x","model":"qwen","choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}]}"#,
    );
    assert_capture(&capture, "{}", Some(Provider::OpenaiChat), Some("stop"));
}

#[test]
fn openai_legacy_text_completion() {
    let capture = one(
        "completion.json",
        r#"{"object":"text_completion","choices":[{"index":0,"text":" {\"ok\": true}","finish_reason":"stop"}]}"#,
    );
    assert_capture(
        &capture,
        r#" {"ok": true}"#,
        Some(Provider::OpenaiChat),
        Some("stop"),
    );
}

#[test]
fn json_that_is_not_an_envelope_is_raw_text() {
    let text = r#"{"choices": ["a", "b"], "winner": "a"}"#;
    assert_capture(&one("raw.json", text), text, None, None);
    let text = r#"{"candidates": [{"name": "Ann", "score": 9}]}"#;
    assert_capture(&one("hr.json", text), text, None, None);
    let text = r#"{"type": "message", "content": "hello"}"#;
    assert_capture(&one("msg.json", text), text, None, None);
    let text = r#"{"done": true, "response": "ok"}"#;
    assert_capture(&one("done.json", text), text, None, None);
    let text = "[1, 2, 3]";
    assert_capture(&one("list.json", text), text, None, None);
    let text = "not json at all {";
    assert_capture(&one("broken.json", text), text, None, None);
}

#[test]
fn envelope_with_a_byte_order_mark_is_recognised() {
    let capture = one(
        "bom.json",
        "\u{feff}{\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}",
    );
    assert_capture(&capture, "hi", Some(Provider::OpenaiChat), Some("stop"));
}

#[test]
fn openai_chat_without_its_text_is_unreadable() {
    let no_choices = one("a.json", r#"{"object":"chat.completion","choices":[]}"#);
    let message = unreadable(&no_choices);
    assert!(
        message.starts_with("OpenAI chat completion without its text"),
        "{message}"
    );
    assert!(message.contains("`choices` is empty"), "{message}");

    let no_content = one(
        "b.json",
        r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant"},"finish_reason":"stop"}]}"#,
    );
    assert!(unreadable(&no_content).contains("has no `content`"));

    let no_message = one(
        "c.json",
        r#"{"object":"chat.completion","choices":[{"index":0,"finish_reason":"stop"}]}"#,
    );
    assert!(unreadable(&no_message).contains("has no `message`"));
}

// ---- OpenAI Responses API ----

#[test]
fn openai_responses_joins_output_text_and_skips_reasoning() {
    let capture = one(
        "resp.json",
        r#"{"id":"resp_1","object":"response","status":"completed","incomplete_details":null,
            "output":[{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"{not this}"}]},
                      {"type":"message","id":"m","role":"assistant","status":"completed",
                       "content":[{"type":"output_text","text":"{\"total\": ","annotations":[]},
                                  {"type":"output_text","text":"12.5}","annotations":[]}]}]}"#,
    );
    assert_capture(
        &capture,
        r#"{"total": 12.5}"#,
        Some(Provider::OpenaiResponses),
        Some("completed"),
    );
}

#[test]
fn openai_responses_incomplete_gives_the_reason() {
    let capture = one(
        "inc.json",
        r#"{"object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},
            "output":[{"type":"message","content":[{"type":"output_text","text":"{\"a\":"}]}]}"#,
    );
    assert_capture(
        &capture,
        r#"{"a":"#,
        Some(Provider::OpenaiResponses),
        Some("max_output_tokens"),
    );
    let bare = one(
        "inc2.json",
        r#"{"object":"response","status":"incomplete","output":[]}"#,
    );
    assert_capture(
        &bare,
        "",
        Some(Provider::OpenaiResponses),
        Some("incomplete"),
    );
}

#[test]
fn openai_responses_function_call_arguments() {
    let capture = one(
        "fn.json",
        r#"{"object":"response","status":"completed",
            "output":[{"type":"function_call","call_id":"c","name":"save_invoice","arguments":"{\"number\": \"INV-1\"}"}]}"#,
    );
    assert_capture(
        &capture,
        r#"{"number": "INV-1"}"#,
        Some(Provider::OpenaiResponses),
        Some("completed"),
    );
}

#[test]
fn openai_responses_failed_without_output_is_unreadable() {
    let capture = one(
        "failed.json",
        r#"{"object":"response","status":"failed","error":{"code":"server_error","message":"boom"},"output":[]}"#,
    );
    let message = unreadable(&capture);
    assert!(message.contains("failed (boom)"), "{message}");
}

// ---- Anthropic Messages ----

#[test]
fn anthropic_text_blocks_joined_and_thinking_skipped() {
    let capture = one(
        "claude.json",
        r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
            "content":[{"type":"thinking","thinking":"{draft}","signature":"x"},
                       {"type":"text","text":"```json\n{\"severity\": "},
                       {"type":"text","text":"\"high\"}\n```"}],
            "stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":2}}"#,
    );
    assert_capture(
        &capture,
        "```json\n{\"severity\": \"high\"}\n```",
        Some(Provider::Anthropic),
        Some("end_turn"),
    );
}

#[test]
fn anthropic_max_tokens() {
    let capture = one(
        "cut.json",
        r#"{"type":"message","role":"assistant","content":[{"type":"text","text":"{\"a\": \"b"}],"stop_reason":"max_tokens"}"#,
    );
    assert_capture(
        &capture,
        r#"{"a": "b"#,
        Some(Provider::Anthropic),
        Some("max_tokens"),
    );
}

#[test]
fn anthropic_tool_use_input_is_serialized_compactly_in_order() {
    let capture = one(
        "tool.json",
        r#"{"type":"message","role":"assistant",
            "content":[{"type":"text","text":"Recording the ticket."},
                       {"type":"tool_use","id":"toolu_1","name":"record_ticket",
                        "input":{"title":"Refund","priority":2,"tags":["billing"]}}],
            "stop_reason":"tool_use"}"#,
    );
    assert_capture(
        &capture,
        r#"{"title":"Refund","priority":2,"tags":["billing"]}"#,
        Some(Provider::Anthropic),
        Some("tool_use"),
    );
}

#[test]
fn anthropic_text_is_a_capture_when_the_model_did_not_stop_for_a_tool() {
    let captures = load_files(&[(
        "both.json",
        r#"{"type":"message","role":"assistant",
            "content":[{"type":"text","text":"{\"a\":1}"},
                       {"type":"tool_use","id":"t","name":"n","input":{"b":2}}],
            "stop_reason":"end_turn"}"#,
    )]);
    let got: Vec<(&str, Result<&str, _>)> = captures
        .iter()
        .map(|capture| (capture.source.as_str(), capture.text.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("both.json", Ok(r#"{"a":1}"#)),
            ("both.json#call-1", Ok(r#"{"b":2}"#)),
        ],
        "the text first, then every tool call as its own capture"
    );
}

// ---- Gemini ----

#[test]
fn gemini_parts_joined_thoughts_skipped_max_tokens() {
    let capture = one(
        "gemini.json",
        r#"{"candidates":[{"content":{"role":"model","parts":[
              {"text":"{\"plan\": 1}","thought":true},
              {"text":"```json\n{\"sku\": "},
              {"text":"\"B-22\""}]},
            "finishReason":"MAX_TOKENS","index":0}],
            "usageMetadata":{"promptTokenCount":1},"modelVersion":"gemini-2.5-flash"}"#,
    );
    assert_capture(
        &capture,
        "```json\n{\"sku\": \"B-22\"",
        Some(Provider::Gemini),
        Some("MAX_TOKENS"),
    );
}

#[test]
fn gemini_no_parts_at_the_token_limit_is_empty_text() {
    let capture = one(
        "thinking-ate-it.json",
        r#"{"candidates":[{"content":{"role":"model"},"finishReason":"MAX_TOKENS","index":0}]}"#,
    );
    assert_capture(&capture, "", Some(Provider::Gemini), Some("MAX_TOKENS"));
}

#[test]
fn gemini_function_call_args() {
    let capture = one(
        "fc.json",
        r#"{"candidates":[{"content":{"role":"model","parts":[
              {"functionCall":{"name":"lookup","args":{"order":"A-9","qty":3}}}]},
            "finishReason":"STOP"}]}"#,
    );
    assert_capture(
        &capture,
        r#"{"order":"A-9","qty":3}"#,
        Some(Provider::Gemini),
        Some("STOP"),
    );
}

#[test]
fn gemini_blocked_prompt_is_unreadable_naming_the_block_reason() {
    let capture = one(
        "blocked.json",
        r#"{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":4}}"#,
    );
    let message = unreadable(&capture);
    assert!(message.contains("blockReason SAFETY"), "{message}");
}

#[test]
fn gemini_json_array_stream_is_joined() {
    let capture = one(
        "stream.json",
        r#"[{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"items\": ["}]},"index":0}]},
            {"candidates":[{"content":{"role":"model","parts":[{"text":"1, 2]}"}]},"index":0}]},
            {"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP","index":0}],
             "usageMetadata":{"totalTokenCount":9}}]"#,
    );
    assert_capture(
        &capture,
        r#"{"items": [1, 2]}"#,
        Some(Provider::Gemini),
        Some("STOP"),
    );
}

// ---- Ollama ----

#[test]
fn ollama_generate() {
    let capture = one(
        "gen.json",
        r#"{"model":"gemma3","created_at":"2025-10-17T23:14:07Z","response":"{\"a\":1}","done":true,"done_reason":"length","eval_count":18}"#,
    );
    assert_capture(
        &capture,
        r#"{"a":1}"#,
        Some(Provider::Ollama),
        Some("length"),
    );
}

#[test]
fn ollama_chat() {
    let capture = one(
        "chat.json",
        r#"{"model":"qwen3","created_at":"x","message":{"role":"assistant","content":"{\"b\":2}"},"done":true,"done_reason":"stop"}"#,
    );
    assert_capture(&capture, r#"{"b":2}"#, Some(Provider::Ollama), Some("stop"));
}

#[test]
fn ollama_answer_in_thinking_is_used_with_a_warning() {
    let capture = one(
        "think.json",
        r#"{"model":"qwen3","created_at":"x","response":"","thinking":"{\"city\": \"Lyon\"}","done":true,"done_reason":"stop"}"#,
    );
    assert_capture(
        &capture,
        r#"{"city": "Lyon"}"#,
        Some(Provider::Ollama),
        Some("stop"),
    );
    assert_eq!(warning_kinds(&capture), [WarningKind::AnswerInThinking]);
    assert!(capture.warnings[0].message.contains("thinking"));

    let chat = one(
        "think-chat.json",
        r#"{"model":"qwen3","created_at":"x","message":{"role":"assistant","content":"","thinking":"[1]"},"done":true,"done_reason":"stop"}"#,
    );
    assert_eq!(chat.text.as_deref(), Ok("[1]"));
    assert_eq!(warning_kinds(&chat), [WarningKind::AnswerInThinking]);
}

#[test]
fn ollama_thinking_is_ignored_when_there_is_text() {
    let capture = one(
        "both.json",
        r#"{"model":"qwen3","created_at":"x","response":"{}","thinking":"hmm","done":true,"done_reason":"stop"}"#,
    );
    assert_eq!(capture.text.as_deref(), Ok("{}"));
    assert!(capture.warnings.is_empty());
}

#[test]
fn ollama_chat_tool_call_arguments() {
    let capture = one(
        "tool.json",
        r#"{"model":"llama3.1","created_at":"x","message":{"role":"assistant","content":"",
            "tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Oslo"}}}]},"done":true,"done_reason":"stop"}"#,
    );
    assert_eq!(capture.text.as_deref(), Ok(r#"{"city":"Oslo"}"#));
}

#[test]
fn ollama_ndjson_stream_saved_as_json_is_joined() {
    let capture = one(
        "stream.json",
        concat!(
            r#"{"model":"llama3","created_at":"t","response":"{\"a\"","done":false}"#,
            "\n",
            r#"{"model":"llama3","created_at":"t","response":": 1}","done":false}"#,
            "\n",
            r#"{"model":"llama3","created_at":"t","response":"","done":true,"done_reason":"stop"}"#,
            "\n"
        ),
    );
    assert_capture(
        &capture,
        r#"{"a": 1}"#,
        Some(Provider::Ollama),
        Some("stop"),
    );
}

// ---- large files (checked for envelope keys before a full parse) ----

#[test]
fn a_large_envelope_is_still_recognised() {
    let text = format!("{{\"a\": \"{}\"}}", "x".repeat(400_000));
    let body = serde_json::json!({
        "type": "message", "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
    });
    let capture = one("big.json", &body.to_string());
    assert_capture(&capture, &text, Some(Provider::Anthropic), Some("end_turn"));
}

#[test]
fn a_large_raw_json_output_stays_raw() {
    let rows: Vec<_> = (0..20_000)
        .map(|n| serde_json::json!({"type": "row", "n": n, "choices": [n]}))
        .collect();
    let text = serde_json::json!({"rows": rows}).to_string();
    assert!(text.len() > 300_000);
    assert_capture(&one("export.json", &text), &text, None, None);
    let list = serde_json::to_string(&rows).unwrap();
    assert_capture(&one("list.json", &list), &list, None, None);
}
