//! Answers an OpenAI-compatible server routed into its reasoning field (`reasoning_content`,
//! `reasoning`), in envelopes, streams and logs, each in the shape the server sends.

use std::sync::Arc;

use crate::support;

use jxray::capture::fields::Preset;
use jxray::capture::{load, LoadOptions, Provider};
use jxray::engine::WarningKind;
use support::capture::{assert_capture, one, warning_kinds, write};

/// A vLLM chat completion (`--reasoning-parser` set for another model family): the whole
/// answer in `reasoning_content`, `content` null.
const VLLM: &str = r#"{"id":"chatcmpl-8a1","object":"chat.completion","created":1764460800,"model":"Qwen/Qwen3-8B","choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning_content":"{\"city\": \"Paris\"}","tool_calls":[]},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":{"prompt_tokens":40,"total_tokens":58,"completion_tokens":18}}"#;

#[test]
fn an_answer_in_reasoning_content_is_read_with_a_warning_naming_the_server_setting() {
    let capture = one("vllm.json", VLLM);
    assert_capture(
        &capture,
        r#"{"city": "Paris"}"#,
        Some(Provider::OpenaiChat),
        Some("stop"),
    );
    assert_eq!(warning_kinds(&capture), [WarningKind::AnswerInThinking]);
    let message = &capture.warnings[0].message;
    assert!(message.contains("reasoning_content"), "{message}");
    assert!(message.contains("--reasoning-parser"), "{message}");
}

#[test]
fn openrouter_reasoning_with_empty_content_is_the_answer() {
    let body = r#"{"id":"gen-1764460800-x","provider":"DeepInfra","model":"deepseek/deepseek-r1","object":"chat.completion","created":1764460800,"choices":[{"logprobs":null,"finish_reason":"stop","native_finish_reason":"stop","index":0,"message":{"role":"assistant","content":"","refusal":null,"reasoning":"[1, 2]","reasoning_details":[{"type":"reasoning.text","text":"[1, 2]","format":"unknown","index":0}]}}],"usage":{"prompt_tokens":12,"completion_tokens":9,"total_tokens":21}}"#;
    let capture = one("openrouter.json", body);
    assert_eq!(capture.text.as_deref(), Ok("[1, 2]"));
    assert_eq!(warning_kinds(&capture), [WarningKind::AnswerInThinking]);
    assert!(capture.warnings[0].message.contains("`reasoning`"));
}

#[test]
fn reasoning_beside_an_answer_is_only_reasoning() {
    let body = VLLM.replace(r#""content":null"#, r#""content":"{\"city\": \"Lyon\"}""#);
    let capture = one("both.json", &body);
    assert_eq!(capture.text.as_deref(), Ok(r#"{"city": "Lyon"}"#));
    assert!(capture.warnings.is_empty(), "{:?}", capture.warnings);
    // Kept beside the text for the workbench to show, labelled with its field.
    let reasoning = capture.reasoning.as_deref().expect("the reasoning is kept");
    assert_eq!(
        (reasoning.field.as_str(), reasoning.text.as_str()),
        ("reasoning_content", r#"{"city": "Paris"}"#)
    );
}

#[test]
fn a_stream_whose_deltas_carry_only_reasoning_gives_the_reasoning() {
    // SGLang and DeepSeek stream `reasoning_content`; OpenRouter streams `reasoning`.
    for field in ["reasoning_content", "reasoning"] {
        let events = [
            format!(r#"data: {{"id":"c1","object":"chat.completion.chunk","choices":[{{"index":0,"delta":{{"role":"assistant","content":null,"{field}":"{{\"a\":"}},"finish_reason":null}}]}}"#),
            format!(r#"data: {{"id":"c1","object":"chat.completion.chunk","choices":[{{"index":0,"delta":{{"{field}":" 1}}"}},"finish_reason":null}}]}}"#),
            r#"data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}]}"#.to_string(),
            "data: [DONE]".to_string(),
        ];
        let capture = one("reasoning.sse", &(events.join("\n\n") + "\n\n"));
        assert_capture(
            &capture,
            r#"{"a": 1}"#,
            Some(Provider::OpenaiChat),
            Some("stop"),
        );
        assert_eq!(warning_kinds(&capture), [WarningKind::AnswerInThinking]);
        assert!(capture.warnings[0].message.contains(field));
    }
}

#[test]
fn a_stream_with_reasoning_and_content_gives_the_content() {
    let events = [
        r#"data: {"choices":[{"index":0,"delta":{"reasoning_content":"try {\"a\": 0}"}}]}"#,
        r#"data: {"choices":[{"index":0,"delta":{"content":"{\"a\": 2}"},"finish_reason":"stop"}]}"#,
        "data: [DONE]",
    ];
    let capture = one("both.sse", &(events.join("\n\n") + "\n\n"));
    assert_eq!(capture.text.as_deref(), Ok(r#"{"a": 2}"#));
    let reasoning = capture.reasoning.as_deref().expect("the reasoning is kept");
    assert_eq!(reasoning.text, r#"try {"a": 0}"#);
    assert!(capture.warnings.is_empty(), "{:?}", capture.warnings);
}

#[test]
fn a_litellm_log_reads_the_reasoning_of_its_response() {
    // A StandardLoggingPayload line: `response` is LiteLLM's ModelResponse, which keeps
    // every provider's reasoning as `reasoning_content`.
    let record = r#"{"id":"chatcmpl-77","call_type":"acompletion","model":"hosted_vllm/Qwen/Qwen3-8B","model_group":"qwen3","response":{"id":"chatcmpl-77","created":1764460800,"model":"Qwen/Qwen3-8B","object":"chat.completion","system_fingerprint":null,"choices":[{"finish_reason":"stop","index":0,"message":{"content":null,"role":"assistant","tool_calls":null,"function_call":null,"reasoning_content":"{\"ok\": true}","provider_specific_fields":{}}}],"usage":{"completion_tokens":5,"prompt_tokens":30,"total_tokens":35}},"status":"success"}"#;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "litellm.jsonl", record.as_bytes());
    let options = LoadOptions {
        fields: Some(Arc::new(Preset::Litellm.fields())),
        ..LoadOptions::default()
    };
    let captures = load(dir.path(), &options).unwrap();
    assert_eq!(captures.len(), 1, "{captures:#?}");
    assert_eq!(captures[0].text.as_deref(), Ok(r#"{"ok": true}"#));
    assert_eq!(warning_kinds(&captures[0]), [WarningKind::AnswerInThinking]);
}
