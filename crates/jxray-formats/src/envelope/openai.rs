//! OpenAI Chat Completions (and legacy Completions), and Batch API output lines.

use serde_json::Value;

use super::reasoning::{answer_is_reasoning, reasoning_of, routed_to_reasoning, Reasoning};
use super::{missing, responses, str_field, text_or_tool, Contents, Detection, Outputs, ToolCall};
use crate::Provider;

const CHAT: &str = "OpenAI chat completion";

/// `object: "chat.completion"` or `"text_completion"`, or an OpenAI-compatible server's body
/// that omits `object` but has `choices[0].message` and `choices[0].finish_reason`.
pub fn chat(value: &Value) -> Detection {
    let choices = value.get("choices")?;
    match str_field(value, "object") {
        Some("chat.completion") => Some(chat_body(choices)),
        Some("text_completion") => Some(completion_body(choices)),
        Some(_) => None,
        None if looks_like_chat_choice(choices) => Some(chat_body(choices)),
        None => None,
    }
}

fn looks_like_chat_choice(choices: &Value) -> bool {
    let Some(first) = choices.as_array().and_then(|choices| choices.first()) else {
        return false;
    };
    first.get("message").is_some_and(Value::is_object) && first.get("finish_reason").is_some()
}

/// The first choice: `n > 1` requests are rare in captures, and the first is what SDKs show.
fn first_choice<'a>(choices: &'a Value, format: &str) -> Result<&'a Value, String> {
    choices
        .as_array()
        .and_then(|choices| choices.first())
        .filter(|choice| choice.is_object())
        .ok_or_else(|| missing(format, "`choices` is empty"))
}

fn chat_body(choices: &Value) -> Result<Contents, String> {
    let choice = first_choice(choices, CHAT)?;
    let message = choice
        .get("message")
        .filter(|message| message.is_object())
        .ok_or_else(|| missing(CHAT, "choices[0] has no `message`"))?;
    let stop_reason = str_field(choice, "finish_reason").map(str::to_string);
    let tools = tool_calls(message);
    let reasoning = reasoning_of(message);
    let text = match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        // OpenAI-compatible servers sometimes send content as parts.
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| str_field(part, "text"))
            .collect(),
        Some(Value::Null) => str_field(message, "refusal")
            .unwrap_or_default()
            .to_string(),
        Some(_) => return Err(missing(CHAT, "choices[0].message.content is not a string")),
        None if !tools.is_empty() || message.get("refusal").is_some() || reasoning.is_some() => {
            str_field(message, "refusal")
                .unwrap_or_default()
                .to_string()
        }
        None => return Err(missing(CHAT, "choices[0].message has no `content`")),
    };
    let mut warnings = Vec::new();
    let mut beside = None;
    let text = match reasoning {
        Some((field, thought)) if answer_is_reasoning(&text, &tools, thought) => {
            warnings.push(routed_to_reasoning(field));
            thought.to_string()
        }
        Some((field, thought)) => {
            beside = Some(Reasoning {
                field: field.to_owned(),
                text: thought.to_owned(),
            });
            text
        }
        None => text,
    };
    let outputs = text_or_tool(text, tools, stopped_for_tool(stop_reason.as_deref()));
    let refused = str_field(message, "refusal").is_some_and(|refusal| !refusal.trim().is_empty());
    Ok(Contents {
        provider: Some(Provider::OpenaiChat),
        outputs,
        stop_reason,
        refused,
        warnings,
        reasoning: beside,
        ..Contents::default()
    })
}

/// Whether a finish reason says the model stopped to call tools.
pub fn stopped_for_tool(finish_reason: Option<&str>) -> bool {
    matches!(finish_reason, Some("tool_calls" | "function_call"))
}

/// `tool_calls[].function.arguments`, or the legacy `function_call.arguments`: JSON strings.
fn tool_calls(message: &Value) -> Vec<ToolCall> {
    let calls = message.get("tool_calls").and_then(Value::as_array);
    let functions = calls
        .into_iter()
        .flatten()
        .filter_map(|call| call.get("function"))
        .chain(message.get("function_call"));
    functions
        .filter_map(|function| {
            let arguments = match function.get("arguments")? {
                Value::String(text) => text.clone(),
                // Some compatible servers send the arguments already decoded.
                other => other.to_string(),
            };
            Some(ToolCall::new(arguments).named(str_field(function, "name")))
        })
        .collect()
}

fn completion_body(choices: &Value) -> Result<Contents, String> {
    const FORMAT: &str = "OpenAI text completion";
    let choice = first_choice(choices, FORMAT)?;
    let text =
        str_field(choice, "text").ok_or_else(|| missing(FORMAT, "choices[0] has no `text`"))?;
    Ok(Contents {
        provider: Some(Provider::OpenaiChat),
        outputs: Outputs::text(text),
        stop_reason: str_field(choice, "finish_reason").map(str::to_string),
        ..Contents::default()
    })
}

/// A Batch API output line: `custom_id` with `response.body` (or `error` when it failed).
pub fn batch_line(value: &Value) -> Detection {
    const FORMAT: &str = "OpenAI batch output line";
    let custom_id = str_field(value, "custom_id")?;
    let response = value.get("response")?;
    let body = match (response, value.get("error")) {
        (Value::Object(response), _) => response.get("body")?,
        (Value::Null, Some(error)) if error.is_object() => {
            let message = str_field(error, "message").unwrap_or("no message");
            let code = str_field(error, "code").unwrap_or("error");
            return Some(Err(format!(
                "{FORMAT} {custom_id:?} holds no output: the request failed ({code}: {message}); \
                 re-run that request"
            )));
        }
        _ => return None,
    };
    let inner = chat(body)
        .or_else(|| responses::response(body))
        .unwrap_or_else(|| {
            Err(missing(
                FORMAT,
                "response.body is neither a chat completion nor a Responses object",
            ))
        });
    Some(inner.map(|decoded| Contents {
        provider: Some(Provider::OpenaiBatch),
        ..decoded
    }))
}
