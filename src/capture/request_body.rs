//! What a provider's request body asks, read where each provider keeps it (OpenAI chat and
//! Responses, Anthropic Messages, Gemini `generateContent`, Ollama `chat` / `generate`):
//! its messages and their text, the system prompt, the last user message, the
//! conversation, the structured-output mode, the response format and the tools that take
//! no parameters. The request file's reader ([`super::request`]) and the schema the request
//! asked for ([`super::asked_schema`]) both read bodies through here.

use serde_json::Value;

pub(super) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// The text of a message's content: a string, or the text of its parts.
fn content_text(content: &Value) -> Option<String> {
    match content {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|part| part.get("text").and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        Value::Object(_) => content_text(content.get("parts")?),
        _ => None,
    }
}

/// Messages of a role, in order: OpenAI and Ollama `messages`, Gemini `contents`,
/// Responses `input` items.
fn messages<'a>(body: &'a Value, roles: &'a [&str]) -> impl Iterator<Item = &'a Value> + 'a {
    ["messages", "contents", "input"]
        .into_iter()
        .filter_map(|key| body.get(key).and_then(Value::as_array))
        .flatten()
        .filter(move |message| {
            let role = message
                .get("role")
                .and_then(Value::as_str)
                .unwrap_or("user");
            roles.contains(&role)
        })
}

/// What a turn says: its text, or for a model's turn that only calls a tool, the call's
/// arguments as the response carried them (OpenAI `tool_calls[].function.arguments`,
/// Anthropic `tool_use` input, Gemini `functionCall` args), which is what a re-ask of a tool
/// call carries back. OpenAI arguments are a string of JSON; a client that got them as an
/// object (some compatible servers send one) carries the object back.
fn turn_text(message: &Value) -> String {
    let text = message_text(message).unwrap_or_default();
    if !text.trim().is_empty() {
        return text;
    }
    let openai = message
        .get("tool_calls")
        .and_then(|calls| calls.get(0))
        .and_then(|call| call.get("function"))
        .and_then(|function| function.get("arguments"))
        .and_then(|arguments| match arguments {
            Value::String(text) => Some(text.clone()),
            Value::Null => None,
            other => serde_json::to_string(other).ok(),
        });
    let parts = message
        .get("content")
        .or_else(|| message.get("parts"))
        .and_then(Value::as_array);
    let structured = parts.into_iter().flatten().find_map(|part| {
        let input = match part.get("type").and_then(Value::as_str) {
            Some("tool_use") => part.get("input"),
            _ => part.get("functionCall").and_then(|call| call.get("args")),
        }?;
        serde_json::to_string(input).ok()
    });
    openai.or(structured).unwrap_or(text)
}

fn message_text(message: &Value) -> Option<String> {
    content_text(message.get("content").or_else(|| message.get("parts"))?)
}

/// Anthropic `system`, Responses `instructions`, Gemini `systemInstruction`, Ollama
/// generate `system`, else the system (or developer) messages.
pub(super) fn system(body: &Value) -> Option<String> {
    for key in [
        "system",
        "instructions",
        "systemInstruction",
        "system_instruction",
    ] {
        if let Some(text) = body.get(key).and_then(content_text) {
            return Some(text);
        }
    }
    let texts: Vec<String> = messages(body, &["system", "developer"])
        .filter_map(message_text)
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// The conversation a request carries, in order: its system prompt (however the provider
/// keeps it), then each message as `(role, text)`, then a bare `prompt` / `input` string.
pub(crate) fn conversation(body: &Value) -> Vec<(String, String)> {
    let mut turns: Vec<(String, String)> = Vec::new();
    if let Some(text) =
        system(body).filter(|_| messages(body, &["system", "developer"]).next().is_none())
    {
        turns.push(("system".into(), text));
    }
    let roles = ["system", "developer", "user", "assistant", "model", "tool"];
    for message in messages(body, &roles) {
        let role = message
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("user");
        turns.push((role.to_string(), turn_text(message)));
    }
    for key in ["prompt", "input"] {
        if let Some(text) = body.get(key).and_then(Value::as_str) {
            turns.push(("user".into(), text.to_string()));
        }
    }
    turns
}

/// The structured-output mode a request body asked for, named as the body spells it:
/// OpenAI's `response_format` and the Responses API's `text.format` (`json_object`,
/// `json_schema`), Ollama's `format` (`"json"` or a schema), Gemini's `responseMimeType`
/// and `responseSchema`, Anthropic's `output_format`. `None` for plain text or no format.
pub(crate) fn json_mode(body: &Value) -> Option<String> {
    match format(body)? {
        Value::String(text) => {
            let lower = text.to_ascii_lowercase();
            (lower == "json" || lower.contains("application/json")).then(|| format!("`{text}`"))
        }
        Value::Object(fields) => match fields.get("type").and_then(Value::as_str) {
            Some(kind @ ("json_object" | "json_schema")) => Some(format!("`{kind}`")),
            Some("text") => None,
            _ => Some("a JSON Schema".to_owned()),
        },
        _ => None,
    }
}

/// The tools a request offered that take no parameters, by name: OpenAI chat's
/// `tools[].function`, the Responses API's `tools[]` (`parameters`), Anthropic's `tools[]`
/// (`input_schema`). A tool takes none when it has no schema, or one without properties
/// and nothing required.
pub(crate) fn tools_without_parameters(body: &Value) -> Vec<String> {
    let tools = body.get("tools").and_then(Value::as_array);
    tools
        .into_iter()
        .flatten()
        .filter_map(|tool| {
            let function = tool.get("function").unwrap_or(tool);
            let name = function.get("name")?.as_str()?;
            let schema = function
                .get("parameters")
                .or_else(|| function.get("input_schema"));
            takes_nothing(schema).then(|| name.to_owned())
        })
        .collect()
}

fn takes_nothing(schema: Option<&Value>) -> bool {
    let empty = |key: &str, schema: &Value| match schema.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::Object(fields)) => fields.is_empty(),
        Some(Value::Array(items)) => items.is_empty(),
        Some(_) => false,
    };
    match schema {
        None | Some(Value::Null) => true,
        Some(schema @ Value::Object(_)) => empty("properties", schema) && empty("required", schema),
        Some(_) => false,
    }
}

/// The last user message; a Responses or Ollama generate request may give a bare string.
pub(super) fn last_user(body: &Value) -> Option<String> {
    for key in ["input", "prompt"] {
        if let Some(text) = body.get(key).and_then(Value::as_str) {
            return Some(text.to_string());
        }
    }
    messages(body, &["user"]).filter_map(message_text).last()
}

/// OpenAI `response_format`, Responses `text.format`, Gemini's response schema or MIME
/// type, Ollama `format`, Anthropic `output_format`.
pub(super) fn format(body: &Value) -> Option<&Value> {
    let config = body
        .get("generationConfig")
        .or_else(|| body.get("generation_config"));
    body.get("response_format")
        .or_else(|| body.get("text").and_then(|text| text.get("format")))
        .or_else(|| body.get("output_format"))
        .or_else(|| body.get("format"))
        .or_else(|| {
            let config = config?;
            ["responseJsonSchema", "responseSchema", "responseMimeType"]
                .into_iter()
                .find_map(|key| config.get(key))
        })
}

/// What a response format asks for, in a few words: its name (`Invoice`), else a JSON
/// mode (`json_object`, Ollama's `json`), else a schema's first keys (`{city, rank}`).
pub(crate) fn format_asks(format: &Value) -> Option<String> {
    if let Some(mode) = format.as_str() {
        return Some(mode.to_string());
    }
    let schema = format
        .pointer("/json_schema/schema")
        .or_else(|| format.get("schema"))
        .unwrap_or(format);
    let named = ["/json_schema/name", "/name", "/title"]
        .into_iter()
        .find_map(|at| format.pointer(at).or_else(|| schema.pointer(at)))
        .and_then(|name| name.as_str());
    if let Some(name) = named {
        return Some(name.to_string());
    }
    if let Some(keys) = schema.get("properties").and_then(|p| p.as_object()) {
        let first: Vec<&str> = keys.keys().take(3).map(String::as_str).collect();
        let more = if keys.len() > first.len() {
            ", …"
        } else {
            ""
        };
        return Some(format!("{{{}{more}}}", first.join(", ")));
    }
    format.get("type")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parts(body: Value) -> (Option<String>, Option<String>, Option<String>) {
        (system(&body), last_user(&body), format(&body).map(pretty))
    }

    #[test]
    fn a_prompt_without_a_system_prompt_is_named_by_what_its_format_asks_for() {
        // Without a system prompt, what differs is the format; the name says it.
        for (format, named) in [
            (
                r#"{"type": "json_schema", "json_schema": {"name": "Invoice", "schema": {}}}"#,
                "(no system prompt) asks for Invoice · ",
            ),
            (
                r#"{"type": "json_object"}"#,
                "(no system prompt) asks for json_object · ",
            ),
            (r#""json""#, "(no system prompt) asks for json · "),
            (
                r#"{"type": "object", "properties": {"city": {}, "rank": {}, "note": {}, "id": {}}}"#,
                "(no system prompt) asks for {city, rank, note, …} · ",
            ),
            (
                r#"{"type": "json_schema", "schema": {"properties": {"city": {}}}}"#,
                "(no system prompt) asks for {city} · ",
            ),
        ] {
            let value: serde_json::Value = serde_json::from_str(format).unwrap();
            let asks = format_asks(&value);
            let name = crate::group::prompt_name(None, Some(format), asks.as_deref());
            assert!(name.starts_with(named), "{name}");
        }
    }

    #[test]
    fn tools_that_take_no_parameters_are_named() {
        let body = json!({"tools": [
            {"type": "function", "function": {"name": "now", "parameters": {"type": "object", "properties": {}}}},
            {"type": "function", "function": {"name": "ping"}},
            {"type": "function", "function": {"name": "find", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}},
            {"name": "list", "input_schema": {"type": "object"}},
            {"type": "function", "name": "search", "parameters": {"type": "object", "required": ["q"]}}
        ]});
        assert_eq!(tools_without_parameters(&body), ["now", "ping", "list"]);
        assert!(tools_without_parameters(&json!({})).is_empty());
    }

    #[test]
    fn json_modes_are_named_as_the_body_spells_them() {
        let mode = |body: Value| json_mode(&body);
        let schema = json!({"type": "json_schema", "json_schema": {"name": "x", "schema": {}}});
        assert_eq!(
            mode(json!({"response_format": schema})).as_deref(),
            Some("`json_schema`")
        );
        let object = json!({"response_format": {"type": "json_object"}});
        assert_eq!(mode(object).as_deref(), Some("`json_object`"));
        assert_eq!(mode(json!({"format": "json"})).as_deref(), Some("`json`"));
        let ollama = json!({"format": {"type": "object", "properties": {}}});
        assert_eq!(mode(ollama).as_deref(), Some("a JSON Schema"));
        let gemini = json!({"generationConfig": {"responseMimeType": "application/json"}});
        assert_eq!(mode(gemini).as_deref(), Some("`application/json`"));
        assert_eq!(mode(json!({"response_format": {"type": "text"}})), None);
        assert_eq!(mode(json!({"messages": []})), None);
    }

    #[test]
    fn openai_chat_and_ollama_keep_them_in_messages() {
        let body = json!({"messages": [
            {"role": "system", "content": "Be terse."},
            {"role": "user", "content": "first"},
            {"role": "assistant", "content": "ok"},
            {"role": "user", "content": [{"type": "text", "text": "second"}]}],
            "response_format": {"type": "json_object"}});
        let (system, user, format) = parts(body);
        assert_eq!(system.as_deref(), Some("Be terse."));
        assert_eq!(user.as_deref(), Some("second"));
        assert!(format.unwrap().contains("json_object"));
    }

    #[test]
    fn anthropic_gemini_and_responses_keep_them_apart() {
        let anthropic = json!({"system": [{"type": "text", "text": "Be terse."}],
            "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(parts(anthropic).0.as_deref(), Some("Be terse."));
        let gemini = json!({"systemInstruction": {"parts": [{"text": "S"}]},
            "contents": [{"role": "user", "parts": [{"text": "U"}]}],
            "generationConfig": {"responseMimeType": "application/json"}});
        assert_eq!(
            parts(gemini),
            (
                Some("S".into()),
                Some("U".into()),
                Some("\"application/json\"".into())
            )
        );
        let responses = json!({"instructions": "I", "input": "U",
            "text": {"format": {"type": "json_schema"}}});
        let (system, user, format) = parts(responses);
        assert_eq!((system.as_deref(), user.as_deref()), (Some("I"), Some("U")));
        assert!(format.unwrap().contains("json_schema"));
    }
}
