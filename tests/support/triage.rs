//! A capture folder as `jxray record` leaves it after two days of prompt iteration: two
//! models (OpenAI and Anthropic envelopes), each capture with its request beside it, the
//! first day asked with one system prompt, the second with another and a response format.
//! One capture holds markup and bidi controls, for the reports that must keep them text.

use std::path::Path;

use serde_json::json;

/// The first day's system prompt.
pub const PROMPT_MONDAY: &str = "Extract the invoice fields and answer in JSON.";
/// The second day's system prompt (asked with a `json_object` response format).
pub const PROMPT_TUESDAY: &str = "You extract invoice fields. Reply with one JSON object only.";

/// Model text that must stay text in every report.
pub const HOSTILE: &str = "Sure! <script>alert(1)</script> </script><img src=x onerror=alert(2)> \
     \u{202e}gpj.exe\u{202c} {\"vendor\": \"Acme\", \"total\": 12,}";

/// One call: its time, the model, the text it answered and its stop reason.
type Call = (&'static str, &'static str, &'static str, &'static str);

/// Each day: its folder, the system prompt asked with, the calls.
const DAYS: [(&str, &str, &[Call]); 2] = [
    (
        "2026-11-30",
        PROMPT_MONDAY,
        &[
            (
                "09-00-01.100",
                "gpt-4o-mini",
                "```json\n{\"vendor\": \"Acme\"}\n```",
                "stop",
            ),
            (
                "09-00-02.200",
                "gpt-4o-mini",
                "{\"vendor\": \"Acme\", \"total\": 12",
                "length",
            ),
            (
                "09-00-03.300",
                "gpt-4o-mini",
                "{\"vendor\": \"Acme\"}",
                "stop",
            ),
            (
                "09-00-04.400",
                "claude-3-5-haiku",
                "Here it is:\n```json\n{\"vendor\": \"Acme\"}\n```",
                "end_turn",
            ),
            (
                "09-00-05.500",
                "claude-3-5-haiku",
                "I cannot read that invoice.",
                "end_turn",
            ),
            ("09-00-06.600", "claude-3-5-haiku", HOSTILE, "end_turn"),
        ],
    ),
    (
        "2026-12-01",
        PROMPT_TUESDAY,
        &[
            (
                "09-00-01.100",
                "gpt-4o-mini",
                "{\"vendor\": \"Acme\"}",
                "stop",
            ),
            (
                "09-00-02.200",
                "gpt-4o-mini",
                "{\"vendor\": \"Acme\", \"total\": 12}",
                "stop",
            ),
            (
                "09-00-03.300",
                "gpt-4o-mini",
                "{\"vendor\": \"Acme\",}",
                "stop",
            ),
            (
                "09-00-04.400",
                "claude-3-5-haiku",
                "{\"vendor\": \"Acme\"}",
                "end_turn",
            ),
            (
                "09-00-05.500",
                "claude-3-5-haiku",
                "```json\n{\"vendor\": \"Acme\"}\n```",
                "end_turn",
            ),
            (
                "09-00-06.600",
                "claude-3-5-haiku",
                "{\"vendor\": \"Acme\", \"lines\": [",
                "max_tokens",
            ),
        ],
    ),
];

/// Write the folder under `dir` (`2026-11-30/…`, `2026-12-01/…`; the same call has the same
/// file name on both days, so `compare` pairs the two days).
pub fn write_recorded(dir: &Path) {
    for (day, system, captures) in DAYS {
        let folder = dir.join(day);
        std::fs::create_dir_all(&folder).unwrap();
        let format = (system == PROMPT_TUESDAY).then(|| json!({"type": "json_object"}));
        for (time, model, text, stop) in captures {
            let stem = format!("{time}-{model}");
            let (capture, request) = exchange(model, text, stop, system, format.as_ref());
            let write = |name: String, value: serde_json::Value| {
                let text = serde_json::to_string_pretty(&value).unwrap();
                std::fs::write(folder.join(name), text).unwrap();
            };
            write(format!("{stem}.json"), capture);
            write(format!("{stem}.request.json"), request);
        }
    }
}

/// The response envelope and the request file of one call.
fn exchange(
    model: &str,
    text: &str,
    stop: &str,
    system: &str,
    format: Option<&serde_json::Value>,
) -> (serde_json::Value, serde_json::Value) {
    let user = json!({"role": "user", "content": "Invoice 2291 from Acme, total 12."});
    if model.starts_with("claude") {
        let capture = json!({"type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}], "stop_reason": stop});
        let mut body = json!({"model": model, "system": system, "messages": [user]});
        if let Some(format) = format {
            body["output_format"] = format.clone();
        }
        (capture, request("/anthropic/v1/messages", model, body))
    } else {
        let capture = json!({"object": "chat.completion", "model": model, "choices": [{"index": 0,
            "message": {"role": "assistant", "content": text}, "finish_reason": stop}]});
        let mut body = json!({"model": model,
            "messages": [{"role": "system", "content": system}, user]});
        if let Some(format) = format {
            body["response_format"] = format.clone();
        }
        (capture, request("/openai/chat/completions", model, body))
    }
}

fn request(path: &str, model: &str, body: serde_json::Value) -> serde_json::Value {
    json!({"jxray_request": 1, "method": "POST", "path": path, "model": model,
        "stream": false, "status": 200, "body": body})
}
