//! Ollama's native API: `/api/generate` (`response`) and `/api/chat` (`message.content`),
//! whole or as an NDJSON stream of chunks.
//!
//! Reasoning models asked for a `format` sometimes write the answer into `thinking` and
//! leave the text empty (ollama/ollama#12831): then the thinking is the capture's text, with
//! an `answer-in-thinking` warning so nobody mistakes it for the normal place.

use serde_json::Value;

use super::reasoning::answer_is_reasoning;
use super::{str_field, text_or_tool, Contents, Detection, Outputs, ToolCall};
use crate::Provider;
use jxray_engine::{Warning, WarningKind};

/// A whole (non-streamed) response: `done: true` (or false), `model`, and the text field.
pub fn response(value: &Value) -> Detection {
    if !is_chunk(value) {
        return None;
    }
    let mut chunks = OllamaChunks::default();
    chunks.feed(value);
    Some(chunks.finish())
}

/// `done` as a boolean, `model` or `created_at`, and `response` or `message`.
fn is_chunk(value: &Value) -> bool {
    value.get("done").is_some_and(Value::is_boolean)
        && (value.get("model").is_some() || value.get("created_at").is_some())
        && (value.get("response").is_some_and(Value::is_string)
            || value.get("message").is_some_and(Value::is_object))
}

/// Whether `value` is one line of a streamed response that is not the last.
pub fn is_stream_chunk(value: &Value) -> bool {
    is_chunk(value) && value.get("done") == Some(&Value::Bool(false))
}

/// Text, thinking, tool calls and stop reason accumulated over chunks.
#[derive(Debug, Default)]
pub struct OllamaChunks {
    text: String,
    thinking: String,
    tools: Vec<ToolCall>,
    done_reason: Option<String>,
}

impl OllamaChunks {
    /// The answer's text so far (a stream read as it arrives shows this).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Add one chunk; false when it is not an Ollama chunk.
    pub fn feed(&mut self, chunk: &Value) -> bool {
        if !is_chunk(chunk) {
            return false;
        }
        let (text, thinking) = match chunk.get("message") {
            Some(message) => (
                str_field(message, "content"),
                str_field(message, "thinking"),
            ),
            None => (str_field(chunk, "response"), str_field(chunk, "thinking")),
        };
        self.text.push_str(text.unwrap_or_default());
        self.thinking.push_str(thinking.unwrap_or_default());
        let calls = chunk
            .get("message")
            .and_then(|message| message.get("tool_calls"))
            .and_then(Value::as_array);
        for function in calls
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("function"))
        {
            let arguments = function.get("arguments").unwrap_or(&Value::Null);
            self.tools.push(ToolCall::from_object(arguments));
        }
        if let Some(reason) = str_field(chunk, "done_reason") {
            self.done_reason = Some(reason.to_string());
        }
        true
    }

    /// The text; else the first tool call; else the thinking, with a warning.
    pub fn finish(self) -> Result<Contents, String> {
        let answer_in_thinking = answer_is_reasoning(&self.text, &self.tools, &self.thinking);
        let outputs = if answer_in_thinking {
            Outputs::text(self.thinking)
        } else {
            text_or_tool(self.text, self.tools, false)
        };
        let mut warnings = Vec::new();
        if answer_in_thinking {
            warnings.push(Warning::new(
                WarningKind::AnswerInThinking,
                None,
                "the response text is empty; the answer was taken from `thinking` \
                          (a reasoning model given a `format` can do this)"
                    .to_string(),
            ));
        }
        Ok(Contents {
            provider: Some(Provider::Ollama),
            outputs,
            stop_reason: self.done_reason,
            warnings,
            ..Contents::default()
        })
    }
}
