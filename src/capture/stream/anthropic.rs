//! Anthropic Messages streams: `message_start`, content blocks with `text_delta` and
//! `input_json_delta`, and the stop reason in `message_delta`.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::capture::envelope::{compact, str_field, text_or_tool, Contents, ToolCall};
use crate::capture::Provider;

const EVENTS: [&str; 8] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
    "error",
];

pub(super) fn is_event(payload: &Value) -> bool {
    str_field(payload, "type").is_some_and(|kind| EVENTS.contains(&kind))
        && (str_field(payload, "type") != Some("error") || payload.get("error").is_some())
}

#[derive(Debug)]
enum Block {
    Text(String),
    Tool {
        json: String,
    },
    /// Thinking and anything newer: not the answer.
    Other,
}

#[derive(Debug, Default)]
pub(super) struct AnthropicEvents {
    blocks: BTreeMap<u64, Block>,
    stop_reason: Option<String>,
    /// The block started and not yet stopped.
    open: Option<u64>,
}

impl AnthropicEvents {
    pub(super) fn feed(&mut self, event: &Value) {
        let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
        match str_field(event, "type").unwrap_or_default() {
            "content_block_start" => {
                let block = event.get("content_block").unwrap_or(&Value::Null);
                let started = match str_field(block, "type") {
                    Some("text") => {
                        Block::Text(str_field(block, "text").unwrap_or_default().into())
                    }
                    Some("tool_use") => Block::Tool {
                        // The start carries `input: {}`; the deltas carry the real input.
                        json: match block.get("input") {
                            Some(Value::Object(input)) if !input.is_empty() => {
                                compact(&Value::Object(input.clone()))
                            }
                            _ => String::new(),
                        },
                    },
                    _ => Block::Other,
                };
                self.blocks.insert(index, started);
                self.open = Some(index);
            }
            "content_block_stop" => self.open = None,
            "content_block_delta" => {
                let delta = event.get("delta").unwrap_or(&Value::Null);
                self.delta(index, delta);
            }
            "message_delta" => {
                let delta = event.get("delta");
                if let Some(reason) = delta.and_then(|delta| str_field(delta, "stop_reason")) {
                    self.stop_reason = Some(reason.to_string());
                }
            }
            "error" => {
                // The stream broke off (e.g. `overloaded_error`): that is why it stopped.
                let error = event.get("error").unwrap_or(&Value::Null);
                self.stop_reason = Some(str_field(error, "type").unwrap_or("error").to_string());
            }
            _ => {}
        }
    }

    fn delta(&mut self, index: u64, delta: &Value) {
        let (piece, is_json) = match str_field(delta, "type") {
            Some("text_delta") => (str_field(delta, "text"), false),
            Some("input_json_delta") => (str_field(delta, "partial_json"), true),
            _ => return,
        };
        let piece = piece.unwrap_or_default();
        // A log cut before its `content_block_start` still has the deltas.
        let block = self.blocks.entry(index).or_insert_with(|| match is_json {
            true => Block::Tool {
                json: String::new(),
            },
            false => Block::Text(String::new()),
        });
        match block {
            Block::Text(text) if !is_json => text.push_str(piece),
            Block::Tool { json, .. } if is_json => json.push_str(piece),
            _ => {}
        }
    }

    /// The content block still open, which a stream cut short has to close.
    pub(super) fn open_block(&self) -> Option<u64> {
        self.open
    }

    /// What the output is so far: the first text block, else the first tool call's input
    /// (a stream of its own), with which of them it is.
    pub(super) fn live_text(&self) -> (u8, &str) {
        let first_text = self.blocks.values().find_map(|block| match block {
            Block::Text(text) => Some(text.as_str()),
            _ => None,
        });
        let first_tool = self.blocks.values().find_map(|block| match block {
            Block::Tool { json } => Some(json.as_str()),
            _ => None,
        });
        match (first_text, first_tool) {
            (Some(text), _) => (0, text),
            (None, Some(json)) => (2, json),
            (None, None) => (0, ""),
        }
    }

    pub(super) fn finish(self) -> Result<Contents, String> {
        let mut text = String::new();
        let mut tools = Vec::new();
        for block in self.blocks.into_values() {
            match block {
                Block::Text(piece) => text.push_str(&piece),
                Block::Tool { json } => tools.push(ToolCall::new(json)),
                Block::Other => {}
            }
        }
        let stopped_for_tool = self.stop_reason.as_deref() == Some("tool_use");
        Ok(Contents {
            provider: Some(Provider::Anthropic),
            outputs: text_or_tool(text, tools, stopped_for_tool),
            stop_reason: self.stop_reason,
            ..Contents::default()
        })
    }
}
