//! Google Gemini `generateContent`, and its streams (a JSON array, or `alt=sse` chunks),
//! which are the same response object sliced into chunks.

use serde_json::Value;

use super::{missing, str_field, text_or_tool, Contents, Detection, ToolCall};
use crate::Provider;

const FORMAT: &str = "Gemini response";

/// `candidates` whose first entry has `content` or `finishReason`; or a blocked prompt
/// (`promptFeedback.blockReason` and no candidates).
pub fn response(value: &Value) -> Detection {
    if !is_response(value) {
        return None;
    }
    let mut chunks = GeminiChunks::default();
    chunks.feed(value);
    Some(chunks.finish())
}

/// Whether `value` is a Gemini response object (or a chunk of one).
pub fn is_response(value: &Value) -> bool {
    match value.get("candidates") {
        Some(Value::Array(candidates)) => match candidates.first() {
            Some(first) => {
                first.get("content").is_some_and(Value::is_object)
                    || first.get("finishReason").is_some()
            }
            None => value.get("usageMetadata").is_some() || value.get("promptFeedback").is_some(),
        },
        Some(_) => false,
        None => value
            .get("promptFeedback")
            .is_some_and(|feedback| feedback.get("blockReason").is_some()),
    }
}

/// A Gemini batch output line: `{"key": …, "response": {…}}` (Gemini API; Vertex AI writes
/// `request` instead of `key`), or the status object of a request that failed.
pub fn batch_line(value: &Value) -> Detection {
    const BATCH: &str = "Gemini batch output line";
    let keyed = value.get("key").is_some() || value.get("request").is_some();
    if !keyed {
        return None;
    }
    match value.get("response") {
        Some(response) if is_response(response) => {
            Some(self::response(response)?.map(|decoded| Contents {
                provider: Some(Provider::GeminiBatch),
                ..decoded
            }))
        }
        Some(_) => None,
        None => {
            let status = value.get("error").or_else(|| value.get("status"))?;
            let message = str_field(status, "message")
                .or_else(|| status.as_str().filter(|status| !status.is_empty()))?;
            let key = batch_key(value).unwrap_or("?");
            Some(Err(format!(
                "{BATCH} {key:?} holds no response: the request failed ({message}); \
                 re-run that request"
            )))
        }
    }
}

/// The key a Gemini batch line is matched to its request by.
pub fn batch_key(value: &Value) -> Option<&str> {
    str_field(value, "key")
}

/// A top-level array of response chunks (`streamGenerateContent` without `alt=sse`).
pub fn array_stream(value: &Value) -> Detection {
    let chunks = value.as_array()?;
    let first = chunks.first()?;
    if !is_response(first) || !chunks.iter().all(Value::is_object) {
        return None;
    }
    let mut joined = GeminiChunks::default();
    for chunk in chunks {
        joined.feed(chunk);
    }
    Some(joined.finish())
}

/// Text, function calls and finish reason accumulated over one or more chunks.
#[derive(Debug, Default)]
pub struct GeminiChunks {
    text: String,
    tools: Vec<ToolCall>,
    finish_reason: Option<String>,
    saw_candidate: bool,
    block_reason: Option<String>,
    model: Option<String>,
}

impl GeminiChunks {
    /// The answer's text so far (a stream read as it arrives shows this).
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn feed(&mut self, chunk: &Value) {
        if let Some(model) = str_field(chunk, "modelVersion") {
            self.model = Some(model.to_string());
        }
        if let Some(reason) = chunk
            .get("promptFeedback")
            .and_then(|feedback| str_field(feedback, "blockReason"))
        {
            self.block_reason = Some(reason.to_string());
        }
        // Only the first candidate: several are rare, and SDKs show the first.
        let Some(candidate) = chunk
            .get("candidates")
            .and_then(Value::as_array)
            .and_then(|candidates| candidates.first())
        else {
            return;
        };
        self.saw_candidate = true;
        let parts = candidate
            .get("content")
            .and_then(|content| content.get("parts"))
            .and_then(Value::as_array);
        for part in parts.into_iter().flatten() {
            // Thought summaries are reasoning, not the answer.
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(text) = str_field(part, "text") {
                self.text.push_str(text);
            }
            if let Some(call) = part.get("functionCall") {
                let arguments = call.get("args").unwrap_or(&Value::Null);
                self.tools.push(ToolCall::from_object(arguments));
            }
        }
        if let Some(reason) = str_field(candidate, "finishReason") {
            self.finish_reason = Some(reason.to_string());
        }
    }

    pub fn finish(self) -> Result<Contents, String> {
        if !self.saw_candidate {
            return Err(match self.block_reason {
                Some(reason) => format!(
                    "{FORMAT} holds no output: the prompt was blocked (blockReason {reason}); \
                     change the prompt or the safety settings"
                ),
                None => missing(FORMAT, "`candidates` is empty"),
            });
        }
        Ok(Contents {
            provider: Some(Provider::Gemini),
            outputs: text_or_tool(self.text, self.tools, false),
            stop_reason: self.finish_reason,
            model: self.model,
            ..Contents::default()
        })
    }
}
