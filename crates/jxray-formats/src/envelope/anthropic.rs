//! Anthropic Messages (`type: "message"`) and Message Batches result lines.

use serde_json::Value;

use super::{str_field, text_or_tool, Contents, Detection, ToolCall};
use crate::Provider;

/// `type: "message"` with a `content` list, from the assistant (or with a `stop_reason`).
pub fn message(value: &Value) -> Detection {
    if str_field(value, "type") != Some("message") {
        return None;
    }
    let content = value.get("content")?.as_array()?;
    if str_field(value, "role") != Some("assistant") && value.get("stop_reason").is_none() {
        return None;
    }
    Some(Ok(decode(value, content)))
}

fn decode(message: &Value, content: &[Value]) -> Contents {
    let mut text = String::new();
    let mut tools = Vec::new();
    for block in content {
        match str_field(block, "type") {
            Some("text") => text.push_str(str_field(block, "text").unwrap_or_default()),
            Some("tool_use") => {
                if let Some(input) = block.get("input") {
                    tools.push(ToolCall::from_object(input));
                }
            }
            // Thinking and redacted thinking are reasoning, not the answer.
            _ => {}
        }
    }
    let stop_reason = str_field(message, "stop_reason").map(str::to_string);
    let stopped_for_tool = stop_reason.as_deref() == Some("tool_use");
    Contents {
        provider: Some(Provider::Anthropic),
        outputs: text_or_tool(text, tools, stopped_for_tool),
        stop_reason,
        ..Contents::default()
    }
}

/// A Message Batches result line: `custom_id` with `result: {type, message}`.
pub fn batch_line(value: &Value) -> Detection {
    let custom_id = str_field(value, "custom_id")?;
    let result = value.get("result")?;
    let kind = str_field(result, "type")?;
    if kind != "succeeded" {
        let detail = result
            .get("error")
            .map(|error| error.get("error").unwrap_or(error))
            .and_then(|error| str_field(error, "message"))
            .map(|message| format!(": {message}"))
            .unwrap_or_default();
        return Some(Err(format!(
            "Anthropic batch result {custom_id:?} holds no message: the request {kind}{detail}; \
             re-run that request"
        )));
    }
    let decoded = match result.get("message") {
        Some(inner) => message(inner).unwrap_or_else(|| {
            Err(super::missing(
                "Anthropic batch result",
                "result.message is not a Messages response",
            ))
        }),
        None => Err(super::missing(
            "Anthropic batch result",
            "a succeeded result has no `message`",
        )),
    };
    Some(decoded.map(|decoded| Contents {
        provider: Some(Provider::AnthropicBatch),
        ..decoded
    }))
}
