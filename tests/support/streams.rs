//! Saved streams as a provider writes them, for the tests that read them.

/// An OpenAI chat stream whose answer arrives in `chunks`, ending for `finish`.
pub fn openai_stream(chunks: &[&str], finish: &str) -> String {
    let mut sse = String::new();
    for chunk in chunks {
        let event = serde_json::json!({"id": "c", "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": {"content": chunk}, "finish_reason": null}]});
        sse.push_str(&format!("data: {event}\n\n"));
    }
    let last = serde_json::json!({"id": "c", "object": "chat.completion.chunk", "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]});
    sse.push_str(&format!("data: {last}\n\ndata: [DONE]\n\n"));
    sse
}
