//! OpenAI Responses streams: named `response.*` events, ending in `response.completed`,
//! `response.incomplete` or `response.failed` (there is no `[DONE]`).

use serde_json::Value;

use crate::capture::envelope::{
    decode_responses_object, responses_stop_reason, str_field, text_or_tool, Contents, ToolCall,
};
use crate::capture::Provider;

pub(super) fn is_event(payload: &Value) -> bool {
    str_field(payload, "type").is_some_and(|kind| kind.starts_with("response."))
}

#[derive(Debug, Default)]
pub(super) struct ResponsesEvents {
    /// Concatenated `output_text` (and `refusal`) deltas.
    deltas: String,
    /// Whole texts of `output_text.done`, for logs that kept only those.
    done_texts: String,
    /// Function calls by item id, in the order they appeared.
    tools: Vec<(String, ToolCall)>,
    stop_reason: Option<String>,
    /// The `response` of the terminal event, for logs without deltas.
    last_response: Option<Value>,
}

impl ResponsesEvents {
    pub(super) fn feed(&mut self, event: &Value) {
        let text = |key| str_field(event, key).unwrap_or_default();
        match str_field(event, "type").unwrap_or_default() {
            "response.output_text.delta" | "response.refusal.delta" => {
                self.deltas.push_str(text("delta"))
            }
            "response.output_text.done" => self.done_texts.push_str(text("text")),
            "response.output_item.added" => {
                if let Some(item) = event.get("item") {
                    if str_field(item, "type") == Some("function_call") {
                        // Registered here, so that calls keep the order they were made in.
                        self.tool(str_field(item, "id").unwrap_or_default());
                    }
                }
            }
            "response.function_call_arguments.delta" => {
                let call = self.tool(text("item_id"));
                call.arguments.push_str(text("delta"));
            }
            "response.function_call_arguments.done" => {
                let call = self.tool(text("item_id"));
                if call.arguments.is_empty() {
                    call.arguments = text("arguments").to_string();
                }
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                if let Some(response) = event.get("response") {
                    self.stop_reason = responses_stop_reason(response);
                    self.last_response = Some(response.clone());
                }
            }
            "error" => {
                let code = str_field(event, "code").unwrap_or("error");
                self.stop_reason = Some(code.to_string());
            }
            _ => {}
        }
    }

    fn tool(&mut self, id: &str) -> &mut ToolCall {
        let position = match self.tools.iter().position(|(known, _)| known == id) {
            Some(position) => position,
            None => {
                let call = ToolCall::new(String::new());
                self.tools.push((id.to_string(), call));
                self.tools.len() - 1
            }
        };
        &mut self.tools[position].1
    }

    /// What the output is so far: the text deltas, else the first function call's
    /// arguments (a stream of their own), with which of them it is.
    pub(super) fn live_text(&self) -> (u8, &str) {
        if !self.deltas.is_empty() {
            (0, &self.deltas)
        } else {
            (
                2,
                self.tools
                    .first()
                    .map_or("", |(_, call)| call.arguments.as_str()),
            )
        }
    }

    pub(super) fn finish(self) -> Result<Contents, String> {
        let text = if self.deltas.is_empty() {
            self.done_texts
        } else {
            self.deltas
        };
        if text.is_empty() && self.tools.is_empty() {
            if let Some(response) = &self.last_response {
                return decode_responses_object(response);
            }
        }
        let tools = self.tools.into_iter().map(|(_, call)| call).collect();
        Ok(Contents {
            provider: Some(Provider::OpenaiResponses),
            outputs: text_or_tool(text, tools, false),
            stop_reason: self.stop_reason,
            ..Contents::default()
        })
    }
}
