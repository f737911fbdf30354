//! Provider response envelopes: recognising one, and taking out the model's text.
//!
//! Detection is strict (contract §2): each format is claimed only on the fields that
//! identify it (`object: "chat.completion"`, `type: "message"`, …), so that raw model output
//! that merely happens to be JSON stays raw. Once a format is claimed, a missing text field
//! is an error naming it, never a silent fallback to raw text.
//!
//! Tool calls: every tool call is its own capture (its arguments: a JSON string for OpenAI;
//! the compact serialization of the already decoded object for Anthropic, Gemini and
//! Ollama, so it reads as `direct`), named `FILE#call-N` (N from 1, in the order the model
//! made them) when the envelope yields more than one capture. The message text is a capture
//! too, unless it is blank or a preamble: the stop reason says the model stopped to call a
//! tool (OpenAI `tool_calls`/`function_call`, Anthropic `tool_use`), or the provider has no
//! such stop reason and made calls (Gemini, Ollama, Responses), where text beside calls is
//! kept only when it is not blank.
//!
//! A text field that is present but empty or null gives an empty capture (a provider that
//! stopped at the token limit before writing anything is `truncated`, not unreadable).

mod anthropic;
mod gemini;
mod ollama;
mod openai;
mod reasoning;
mod responses;

use std::sync::Arc;

use serde_json::Value;

use crate::Provider;
use jxray_engine::Warning;

pub use gemini::{is_response as is_gemini_response, GeminiChunks};
pub use ollama::{is_stream_chunk as is_ollama_chunk, OllamaChunks};
pub use openai::stopped_for_tool as openai_stopped_for_tool;
pub use reasoning::{
    answer_is_reasoning, reasoning_of, routed_to_reasoning, Reasoning, REASONING_FIELDS,
};
pub use responses::{decode as decode_responses_object, stop_reason as responses_stop_reason};

/// What a recognised format says the model wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Contents {
    pub provider: Option<Provider>,
    pub outputs: Outputs,
    /// The provider's own spelling.
    pub stop_reason: Option<String>,
    /// The model that answered, as the envelope names it.
    pub model: Option<String>,
    /// The JSON Schema the request asked for, where a log keeps it.
    pub schema: Option<Arc<Value>>,
    pub warnings: Vec<Warning>,
    /// The provider marked the output a refusal.
    pub refused: bool,
    /// Reasoning beside the answer (OpenAI-compatible `reasoning_content` / `reasoning`),
    /// for a person to read; the answer never comes from it here.
    pub reasoning: Option<Reasoning>,
}

/// One record of a log: its id (named `FILE#ID`), and what it holds or why it holds nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct LogRecord {
    pub id: Option<String>,
    pub result: Result<Contents, String>,
}

/// The captures one response holds: its text, and each tool call's arguments.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outputs {
    /// The message text, when it is a capture.
    pub text: Option<String>,
    /// Each tool call's arguments as JSON text, in call order.
    pub calls: Vec<String>,
    /// The tool each call names, where the response says (same order as `calls`).
    pub call_names: Vec<Option<String>>,
}

impl Outputs {
    /// Just a text.
    pub fn text(text: impl Into<String>) -> Outputs {
        Outputs {
            text: Some(text.into()),
            calls: Vec::new(),
            call_names: Vec::new(),
        }
    }

    /// Each output with the suffix that names it (`#call-N`) when there are several;
    /// an empty text when there is nothing at all (a model cut off before writing).
    pub fn named(self) -> Vec<(Option<String>, String)> {
        let several = self.calls.len() + usize::from(self.text.is_some()) > 1;
        let mut named: Vec<(Option<String>, String)> = Vec::new();
        if let Some(text) = self.text {
            named.push((None, text));
        }
        for (index, call) in self.calls.into_iter().enumerate() {
            let suffix = several.then(|| format!("#call-{}", index + 1));
            named.push((suffix, call));
        }
        if named.is_empty() {
            named.push((None, String::new()));
        }
        named
    }
}

/// `None`: not this format. `Some(Err(why))`: claims the format but lacks its text.
pub type Detection = Option<Result<Contents, String>>;

/// The provider envelope `value` is, if any.
pub fn detect(value: &Value) -> Detection {
    let detected = openai::chat(value)
        .or_else(|| openai::batch_line(value))
        .or_else(|| responses::response(value))
        .or_else(|| anthropic::message(value))
        .or_else(|| anthropic::batch_line(value))
        .or_else(|| gemini::response(value))
        .or_else(|| gemini::batch_line(value))
        .or_else(|| ollama::response(value))?;
    Some(detected.map(|decoded| Contents {
        model: decoded.model.or_else(|| model(value)),
        ..decoded
    }))
}

/// The id a batch result line is matched to its request by: `custom_id` (OpenAI,
/// Anthropic) or `key` (Gemini).
pub fn batch_id(value: &Value) -> Option<&str> {
    str_field(value, "custom_id").or_else(|| gemini::batch_key(value))
}

/// The model an envelope names: `model` at its top, or in a batch line's body or message.
fn model(value: &Value) -> Option<String> {
    let inner = [
        Some(value),
        value.pointer("/response/body"),
        value.pointer("/result/message"),
        value.get("response"),
    ];
    inner
        .into_iter()
        .flatten()
        .find_map(|value| str_field(value, "model").or_else(|| str_field(value, "modelVersion")))
        .map(str::to_string)
}

/// The Gemini JSON-array stream `value` is, if any.
pub fn detect_array_stream(value: &Value) -> Detection {
    gemini::array_stream(value)
}

/// A tool call: its arguments as JSON text, and the tool where the response names it
/// (empty arguments mean `{}` only for a tool that takes no parameters).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub arguments: String,
    pub name: Option<String>,
}

impl ToolCall {
    /// A call with its arguments as JSON text, the tool not named.
    pub fn new(arguments: impl Into<String>) -> ToolCall {
        ToolCall {
            arguments: arguments.into(),
            name: None,
        }
    }

    /// A call whose arguments are already a decoded object.
    pub fn from_object(arguments: &Value) -> ToolCall {
        ToolCall::new(compact(arguments))
    }

    /// The same call, naming its tool.
    pub fn named(self, name: Option<&str>) -> ToolCall {
        ToolCall {
            name: name.map(str::to_owned),
            ..self
        }
    }
}

/// The captures of a message: its text unless it is blank or a preamble to tool calls the
/// model stopped for, and every tool call (see the module comment).
pub fn text_or_tool(text: String, tools: Vec<ToolCall>, stopped_for_tool: bool) -> Outputs {
    let preamble = !tools.is_empty() && (stopped_for_tool || text.trim().is_empty());
    let (calls, call_names) = tools
        .into_iter()
        .map(|tool| (tool.arguments, tool.name))
        .unzip();
    Outputs {
        text: (!preamble).then_some(text),
        calls,
        call_names,
    }
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
