//! The OpenAI Responses API (`object: "response"`).

use serde_json::Value;

use super::{missing, str_field, text_or_tool, Contents, Detection, ToolCall};
use crate::Provider;

const FORMAT: &str = "OpenAI Responses object";

pub fn response(value: &Value) -> Detection {
    if str_field(value, "object") != Some("response") {
        return None;
    }
    value.get("output")?;
    Some(decode(value))
}

/// The text of a Responses object (also the `response` of a stream's final event).
pub fn decode(value: &Value) -> Result<Contents, String> {
    let items = value
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| missing(FORMAT, "`output` is not a list"))?;
    let mut text = String::new();
    let mut tools = Vec::new();
    let mut refused = false;
    for item in items {
        match str_field(item, "type") {
            Some("message") => {
                let parts = item.get("content").and_then(Value::as_array);
                for part in parts.into_iter().flatten() {
                    let kind = str_field(part, "type");
                    refused |= kind == Some("refusal");
                    if let Some("output_text" | "refusal") = kind {
                        let piece = str_field(part, "text").or_else(|| str_field(part, "refusal"));
                        text.push_str(piece.unwrap_or_default());
                    }
                }
            }
            Some("function_call") => {
                if let Some(arguments) = str_field(item, "arguments") {
                    tools.push(ToolCall::new(arguments).named(str_field(item, "name")));
                }
            }
            _ => {}
        }
    }
    if text.is_empty() && tools.is_empty() && str_field(value, "status") == Some("failed") {
        let message = value
            .get("error")
            .and_then(|error| str_field(error, "message"))
            .unwrap_or("no message");
        return Err(format!(
            "{FORMAT} holds no output: the response failed ({message}); re-run the request"
        ));
    }
    Ok(Contents {
        provider: Some(Provider::OpenaiResponses),
        outputs: text_or_tool(text, tools, false),
        stop_reason: stop_reason(value),
        refused,
        ..Contents::default()
    })
}

/// The stop reason of a Responses object: `incomplete_details.reason` (`max_output_tokens`,
/// `content_filter`) when it is incomplete, else its `status` (`completed`, `failed`, …).
pub fn stop_reason(response: &Value) -> Option<String> {
    let status = str_field(response, "status")?;
    if status == "incomplete" {
        let reason = response
            .get("incomplete_details")
            .and_then(|details| str_field(details, "reason"));
        return Some(reason.unwrap_or(status).to_string());
    }
    Some(status.to_string())
}
