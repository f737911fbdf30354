//! How a stream is ended early by the recording proxy (`jxray record --stop-on`): in the
//! provider's own words for an output cut at its length limit, so the app's SDK reads a
//! cut answer — never a complete one — and raises nothing it would not raise for a real
//! length stop. A stream whose provider's ending cannot be written (a Responses stream that
//! did not open with its `response.created`) is forwarded whole.

use serde_json::{json, Value};

use super::Flavour;

impl Flavour {
    /// The bytes that end this stream as cut at its length limit, after what was sent;
    /// `first` is the stream's first payload (its id and model are repeated).
    pub(super) fn cut_ending(&self, first: Option<&Value>) -> Option<String> {
        let field = |name: &str| first.and_then(|first| first.get(name)).cloned();
        match self {
            Flavour::OpenaiChat(_) => {
                let chunk = json!({
                    "id": field("id").unwrap_or_else(|| json!("jxray-stopped")),
                    "object": "chat.completion.chunk",
                    "created": field("created").unwrap_or_else(|| json!(0)),
                    "model": field("model").unwrap_or_else(|| json!("")),
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}],
                });
                Some(format!("data: {chunk}\n\ndata: [DONE]\n\n"))
            }
            Flavour::Anthropic(events) => {
                let mut ending = String::new();
                if let Some(index) = events.open_block() {
                    let stop = json!({"type": "content_block_stop", "index": index});
                    ending.push_str(&format!("event: content_block_stop\ndata: {stop}\n\n"));
                }
                let delta = json!({"type": "message_delta",
                    "delta": {"stop_reason": "max_tokens", "stop_sequence": null},
                    "usage": {"output_tokens": 0}});
                ending.push_str(&format!("event: message_delta\ndata: {delta}\n\n"));
                ending.push_str("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
                Some(ending)
            }
            Flavour::Gemini(_) => {
                let chunk = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
                    "finishReason": "MAX_TOKENS", "index": 0}]});
                Some(format!("data: {chunk}\n\n"))
            }
            Flavour::Ollama(_) => {
                let mut chunk = json!({"model": field("model").unwrap_or_else(|| json!("")),
                    "created_at": field("created_at").unwrap_or_else(|| json!("")),
                    "done": true, "done_reason": "length"});
                // A chat stream's chunks carry a message, a generate stream's a response.
                match first.is_some_and(|first| first.get("message").is_some()) {
                    true => chunk["message"] = json!({"role": "assistant", "content": ""}),
                    false => chunk["response"] = json!(""),
                }
                Some(format!("{chunk}\n"))
            }
            Flavour::OpenaiResponses(events) => responses_ending(first?, events.live_text()),
        }
    }
}

/// A Responses stream ends with the whole response: the one its `response.created` event
/// gave, now `incomplete` for `max_output_tokens`, its output the message so far (or none
/// when the stream was a function call's arguments, which are not written out whole).
fn responses_ending(first: &Value, (part, text): (u8, &str)) -> Option<String> {
    let mut response = first.get("response")?.clone();
    let fields = response.as_object_mut()?;
    fields.insert("status".into(), json!("incomplete"));
    fields.insert(
        "incomplete_details".into(),
        json!({"reason": "max_output_tokens"}),
    );
    let output = match part {
        0 => json!([{"type": "message", "id": "msg_jxray_stopped", "status": "incomplete",
            "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}]),
        _ => json!([]),
    };
    fields.insert("output".into(), output);
    let event = json!({"type": "response.incomplete", "response": response});
    Some(format!("event: response.incomplete\ndata: {event}\n\n"))
}
