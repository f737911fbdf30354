//! OpenAI Chat Completions streams: `chat.completion.chunk` payloads.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::capture::envelope::{
    openai_stopped_for_tool, str_field, text_or_tool, Decoded, ToolCall,
};
use crate::capture::Provider;

pub fn is_chunk(payload: &Value) -> bool {
    str_field(payload, "object") == Some("chat.completion.chunk")
        || payload
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|choices| choices.first())
            .is_some_and(|choice| choice.get("delta").is_some())
}

/// Content, refusal, tool-call fragments (per `index`) and finish reason of choice 0.
#[derive(Debug, Default)]
pub struct ChatChunks {
    content: String,
    refusal: String,
    tools: BTreeMap<u64, ToolCall>,
    finish_reason: Option<String>,
}

impl ChatChunks {
    pub fn feed(&mut self, chunk: &Value) {
        // Usage-only chunks have `choices: []`, `null`, or none at all.
        let choices = chunk.get("choices").and_then(Value::as_array);
        let first = choices
            .into_iter()
            .flatten()
            .find(|choice| choice.get("index").and_then(Value::as_u64).unwrap_or(0) == 0);
        let Some(choice) = first else {
            return;
        };
        if let Some(delta) = choice.get("delta") {
            self.content
                .push_str(str_field(delta, "content").unwrap_or_default());
            self.refusal
                .push_str(str_field(delta, "refusal").unwrap_or_default());
            let calls = delta.get("tool_calls").and_then(Value::as_array);
            for (position, call) in calls.into_iter().flatten().enumerate() {
                let index = call
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(position as u64);
                if let Some(function) = call.get("function") {
                    self.fragment(index, function);
                }
            }
            if let Some(function) = delta.get("function_call") {
                self.fragment(0, function);
            }
        }
        if let Some(reason) = str_field(choice, "finish_reason") {
            self.finish_reason = Some(reason.to_string());
        }
    }

    fn fragment(&mut self, index: u64, function: &Value) {
        let call = self.tools.entry(index).or_insert_with(|| ToolCall {
            arguments: String::new(),
        });
        call.arguments
            .push_str(str_field(function, "arguments").unwrap_or_default());
    }

    pub fn finish(self) -> Result<Decoded, String> {
        let text = if self.content.is_empty() {
            self.refusal
        } else {
            self.content
        };
        let stopped_for_tool = openai_stopped_for_tool(self.finish_reason.as_deref());
        let tools = self.tools.into_values().collect();
        Ok(Decoded {
            provider: Some(Provider::OpenaiChat),
            outputs: text_or_tool(text, tools, stopped_for_tool),
            stop_reason: self.finish_reason,
            ..Decoded::default()
        })
    }
}
