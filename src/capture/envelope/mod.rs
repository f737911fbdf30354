//! Provider response envelopes: recognising one, and taking out the model's text.
//!
//! Detection is strict (contract §2): each format is claimed only on the fields that
//! identify it (`object: "chat.completion"`, `type: "message"`, …), so that raw model output
//! that merely happens to be JSON stays raw. Once a format is claimed, a missing text field
//! is an error naming it, never a silent fallback to raw text.
//!
//! Where the text comes from when a message has no text but calls tools: the *first* tool
//! call's arguments (a JSON string for OpenAI; the compact serialization of the already
//! decoded object for Anthropic, Gemini and Ollama, so it reads as `direct`). The arguments
//! are also used, ahead of any text, when the stop reason says the model stopped to call a
//! tool (OpenAI `tool_calls`/`function_call`, Anthropic `tool_use`): the text is then a
//! preamble. With several tool calls the first is taken and a `multiple-candidates` warning
//! names the others, so that each call keeps its true layer instead of becoming `scanned`.
//!
//! A text field that is present but empty or null gives an empty capture (a provider that
//! stopped at the token limit before writing anything is `truncated`, not unreadable).

mod anthropic;
mod gemini;
mod ollama;
mod openai;
mod responses;

use serde_json::Value;

use super::Provider;
use crate::engine::{Warning, WarningKind};

pub use gemini::{is_response as is_gemini_response, GeminiChunks};
pub use ollama::{is_stream_chunk as is_ollama_chunk, OllamaChunks};
pub use openai::stopped_for_tool as openai_stopped_for_tool;
pub use responses::{decode as decode_responses_object, stop_reason as responses_stop_reason};

/// What a recognised format says the model wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    pub provider: Option<Provider>,
    pub text: String,
    /// The provider's own spelling.
    pub stop_reason: Option<String>,
    pub warnings: Vec<Warning>,
}

/// `None`: not this format. `Some(Err(why))`: claims the format but lacks its text.
pub type Detection = Option<Result<Decoded, String>>;

/// The provider envelope `value` is, if any.
pub fn detect(value: &Value) -> Detection {
    openai::chat(value)
        .or_else(|| openai::batch_line(value))
        .or_else(|| responses::response(value))
        .or_else(|| anthropic::message(value))
        .or_else(|| anthropic::batch_line(value))
        .or_else(|| gemini::response(value))
        .or_else(|| ollama::response(value))
}

/// The Gemini JSON-array stream `value` is, if any.
pub fn detect_array_stream(value: &Value) -> Detection {
    gemini::array_stream(value)
}

/// A tool call: its name, for messages, and its arguments as JSON text.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub arguments: String,
}

impl ToolCall {
    /// A call whose arguments are already a decoded object.
    pub fn from_object(name: Option<&str>, arguments: &Value) -> ToolCall {
        ToolCall {
            name: name.unwrap_or("?").to_string(),
            arguments: compact(arguments),
        }
    }
}

/// The capture's text: the message text, or the first tool call's arguments when the
/// message has no text or the model stopped to call a tool (see the module comment).
pub fn text_or_tool(
    text: String,
    tools: Vec<ToolCall>,
    stopped_for_tool: bool,
) -> (String, Vec<Warning>) {
    if tools.is_empty() || (!stopped_for_tool && !text.trim().is_empty()) {
        return (text, Vec::new());
    }
    let mut warnings = Vec::new();
    if tools.len() > 1 {
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        warnings.push(Warning {
            kind: WarningKind::MultipleCandidates,
            offset: None,
            message: format!(
                "{} tool calls ({}); the arguments of the first are extracted",
                tools.len(),
                names.join(", ")
            ),
        });
    }
    let first = tools.into_iter().next().map(|tool| tool.arguments);
    (first.unwrap_or_default(), warnings)
}

/// A value as compact JSON (keys in their original order).
pub fn compact(value: &Value) -> String {
    value.to_string()
}

/// The string at `key`, when it is one.
pub fn str_field<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// The message for an envelope without its text: the format, what is missing, the fix.
pub fn missing(format: &str, what: &str) -> String {
    format!("{format} without its text: {what}; save the whole response body")
}
