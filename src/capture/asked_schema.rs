//! The schema a request asked its answer to fit (contract §2: the request's schema
//! applies): read from the request file beside a capture and checked as if given with
//! `--schema`, unless one was given. A message's text is held to the response format's
//! schema; a tool call's arguments to that tool's parameters.

use std::sync::Arc;

use serde_json::{Map, Value};

/// The schemas one request carried.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AskedSchemas {
    /// For the message's text: OpenAI `response_format.json_schema.schema`, Responses
    /// `text.format.schema`, Anthropic `output_format.schema`, Gemini
    /// `responseJsonSchema` / `responseSchema`, Ollama `format` (an object); where the
    /// request has none of these, a JSON Schema its system prompt states (instructor's
    /// JSON and MD_JSON modes ask that way).
    pub text: Option<Arc<Value>>,
    /// For each tool's call, by name: OpenAI and Responses `parameters`, Anthropic
    /// `input_schema`, Gemini `functionDeclarations[].parameters`.
    pub tools: Vec<(String, Arc<Value>)>,
}

impl AskedSchemas {
    /// What a request body asked for.
    pub fn of(body: &Value) -> AskedSchemas {
        AskedSchemas {
            text: text_schema(body)
                .or_else(|| prompt_schema(body))
                .map(Arc::new),
            tools: tool_schemas(body),
        }
    }

    /// The schema for a capture: a tool call's (by its tool's name, or the only tool's),
    /// else the text's.
    pub fn for_capture(&self, call_arguments: bool, tool: Option<&str>) -> Option<Arc<Value>> {
        if !call_arguments {
            return self.text.clone();
        }
        let named = tool.and_then(|tool| self.tools.iter().find(|(name, _)| name == tool));
        match (named, self.tools.as_slice()) {
            (Some((_, schema)), _) => Some(Arc::clone(schema)),
            (None, [(_, only)]) if tool.is_none() => Some(Arc::clone(only)),
            _ => None,
        }
    }
}

impl super::Capture {
    /// Judge this capture against what its request asked for, unless it carries a schema
    /// of its own (a log's); the caller passes none when `--schema` was given, which wins.
    pub(crate) fn ask_schema_of(&mut self, asked: Option<&AskedSchemas>) {
        if self.schema.is_some() {
            return;
        }
        self.schema =
            asked.and_then(|asked| asked.for_capture(self.call_arguments, self.tool.as_deref()));
        self.schema_from_request = self.schema.is_some();
    }
}

fn text_schema(body: &Value) -> Option<Value> {
    if let Some(format) = body.get("response_format") {
        return format
            .get("json_schema")
            .and_then(|named| named.get("schema"))
            .cloned();
    }
    if let Some(format) = body.get("text").and_then(|text| text.get("format")) {
        return (format.get("type").and_then(Value::as_str) == Some("json_schema"))
            .then(|| format.get("schema").cloned())
            .flatten();
    }
    if let Some(schema) = body.get("output_format").and_then(|f| f.get("schema")) {
        return Some(schema.clone());
    }
    let config = body
        .get("generationConfig")
        .or_else(|| body.get("generation_config"));
    if let Some(config) = config {
        if let Some(schema) = config.get("responseJsonSchema") {
            return Some(schema.clone());
        }
        // Gemini's own schema spells its types in capitals (`OBJECT`).
        return config.get("responseSchema").map(lower_types);
    }
    body.get("format")
        .filter(|format| format.is_object())
        .cloned()
}

/// How many `{` of a system prompt are tried as the start of a schema.
const PROMPT_SCHEMA_TRIES: usize = 32;

/// The JSON Schema a request's system prompt states as what the answer must match: the
/// first JSON object in it that is an object schema (`"type": "object"` with
/// `properties`). Loops that ask in the prompt rather than in a response format write the
/// schema there whole (instructor's JSON and MD_JSON modes).
pub(super) fn prompt_schema(body: &Value) -> Option<Value> {
    let system = super::request_body::system(body)?;
    system
        .match_indices('{')
        .take(PROMPT_SCHEMA_TRIES)
        .find_map(|(at, _)| {
            let mut values = serde_json::Deserializer::from_str(&system[at..]).into_iter::<Value>();
            let value = values.next()?.ok()?;
            let object_schema = value.get("type").and_then(Value::as_str) == Some("object")
                && value.get("properties").is_some_and(Value::is_object);
            object_schema.then_some(value)
        })
}

fn tool_schemas(body: &Value) -> Vec<(String, Arc<Value>)> {
    let mut found = Vec::new();
    for tool in body
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let declarations = tool.get("functionDeclarations").and_then(Value::as_array);
        let tools: Vec<&Value> = match declarations {
            Some(declarations) => declarations.iter().collect(),
            None => vec![tool.get("function").unwrap_or(tool)],
        };
        for function in tools {
            let Some(name) = function.get("name").and_then(Value::as_str) else {
                continue;
            };
            let schema = function
                .get("parameters")
                .or_else(|| function.get("input_schema"))
                .map(|schema| match declarations {
                    Some(_) => lower_types(schema),
                    None => schema.clone(),
                });
            if let Some(schema) = schema.filter(Value::is_object) {
                found.push((name.to_owned(), Arc::new(schema)));
            }
        }
    }
    found
}

/// A Gemini schema with its `type` names in the lower case JSON Schema spells them.
fn lower_types(schema: &Value) -> Value {
    match schema {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, value)| {
                    let value = match (key.as_str(), value) {
                        ("type", Value::String(name)) => Value::String(name.to_ascii_lowercase()),
                        _ => lower_types(value),
                    };
                    (key.clone(), value)
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(lower_types).collect()),
        other => other.clone(),
    }
}

/// Whether a request asked for JSON: a JSON response format or schema (OpenAI, Responses,
/// Anthropic, Gemini, Ollama) or tools to call.
pub(crate) fn asks_for_json(body: &Value) -> bool {
    let tools = body
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|tools| !tools.is_empty());
    tools || super::request_body::json_mode(body).is_some() || prompt_schema(body).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_provider_spells_its_schema_somewhere() {
        let schema = json!({"type": "object", "required": ["a"]});
        let bodies = [
            json!({"response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}}),
            json!({"text": {"format": {"type": "json_schema", "name": "x", "schema": schema}}}),
            json!({"output_format": {"type": "json_schema", "schema": schema}}),
            json!({"generationConfig": {"responseJsonSchema": schema}}),
            json!({"generationConfig": {"responseSchema": {"type": "OBJECT", "required": ["a"]}}}),
            json!({"format": schema}),
        ];
        for body in bodies {
            assert_eq!(
                AskedSchemas::of(&body).text.as_deref(),
                Some(&schema),
                "{body}"
            );
        }
        assert_eq!(
            AskedSchemas::of(&json!({"response_format": {"type": "json_object"}})).text,
            None
        );
        assert_eq!(AskedSchemas::of(&json!({"format": "json"})).text, None);
    }

    #[test]
    fn a_schema_the_system_prompt_states_applies_where_no_format_carries_one() {
        let schema = json!({"properties": {"severity": {"enum": ["low", "high"], "type": "string"}},
            "required": ["severity"], "title": "Triage", "type": "object"});
        let prompt = format!(
            "Answer in json that matches the following json_schema:\n\n{}\n\nReturn an instance, not the schema.",
            serde_json::to_string_pretty(&schema).unwrap()
        );
        let openai = json!({"messages": [{"role": "system", "content": prompt},
            {"role": "user", "content": "triage {this}"}], "response_format": {"type": "json_object"}});
        assert_eq!(AskedSchemas::of(&openai).text.as_deref(), Some(&schema));
        assert!(
            crate::capture::asks_for_json(
                &json!({"messages": [{"role": "system", "content": prompt}]})
            ),
            "a schema in the prompt asks for JSON without a response format"
        );
        let anthropic =
            json!({"system": prompt, "messages": [{"role": "user", "content": "triage"}]});
        assert_eq!(AskedSchemas::of(&anthropic).text.as_deref(), Some(&schema));
        // A format's own schema wins; an example object or a schema only in the user's
        // message is none.
        let own = json!({"type": "object", "required": ["a"]});
        let both = json!({"messages": [{"role": "system", "content": prompt}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": own}}});
        assert_eq!(AskedSchemas::of(&both).text.as_deref(), Some(&own));
        let example = json!({"messages": [{"role": "system", "content": "Answer like {\"severity\": \"low\"}."}]});
        assert_eq!(AskedSchemas::of(&example).text, None);
        let user = json!({"messages": [{"role": "user", "content": prompt}]});
        assert_eq!(AskedSchemas::of(&user).text, None);
    }

    #[test]
    fn a_tool_call_is_held_to_its_tools_parameters() {
        let weather = json!({"type": "object", "required": ["city"]});
        let openai = json!({"tools": [{"type": "function", "function": {"name": "weather", "parameters": weather}},
            {"type": "function", "function": {"name": "time", "parameters": {"type": "object"}}}]});
        let asked = AskedSchemas::of(&openai);
        assert_eq!(
            asked.for_capture(true, Some("weather")).as_deref(),
            Some(&weather)
        );
        assert_eq!(
            asked.for_capture(true, None),
            None,
            "two tools, no name: none"
        );
        let anthropic = json!({"tools": [{"name": "weather", "input_schema": weather}]});
        assert_eq!(
            AskedSchemas::of(&anthropic)
                .for_capture(true, None)
                .as_deref(),
            Some(&weather),
            "the only tool"
        );
        let gemini = json!({"tools": [{"functionDeclarations": [{"name": "weather",
            "parameters": {"type": "OBJECT", "required": ["city"]}}]}]});
        assert_eq!(
            AskedSchemas::of(&gemini)
                .for_capture(true, Some("weather"))
                .as_deref(),
            Some(&weather)
        );
        assert_eq!(
            asked.for_capture(false, None),
            None,
            "a message's text: the response format's"
        );
    }
}
