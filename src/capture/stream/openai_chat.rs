//! OpenAI Chat Completions streams: `chat.completion.chunk` payloads.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::capture::envelope::{
    answer_is_reasoning, openai_stopped_for_tool, reasoning_of, routed_to_reasoning, str_field,
    text_or_tool, Contents, Reasoning, ToolCall, REASONING_FIELDS,
};
use crate::capture::Provider;

pub(super) fn is_chunk(payload: &Value) -> bool {
    str_field(payload, "object") == Some("chat.completion.chunk")
        || payload
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|choices| choices.first())
            .is_some_and(|choice| choice.get("delta").is_some())
}

/// Content, refusal, reasoning (and the field it came in), tool-call fragments (per
/// `index`) and finish reason of choice 0.
#[derive(Debug, Default)]
pub(super) struct ChatChunks {
    content: String,
    refusal: String,
    reasoning: String,
    reasoning_field: Option<&'static str>,
    tools: BTreeMap<u64, ToolCall>,
    finish_reason: Option<String>,
}

impl ChatChunks {
    pub(super) fn feed(&mut self, chunk: &Value) {
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
            if let Some((field, thought)) = reasoning_of(delta) {
                self.think(field, thought);
            }
            let calls = delta.get("tool_calls").and_then(Value::as_array);
            for (position, call) in calls.into_iter().flatten().enumerate() {
                let index = call
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(position as u64);
                if let Some(function) = call.get("function") {
                    self.fragment(index, arguments(function), str_field(function, "name"));
                }
            }
            if let Some(function) = delta.get("function_call") {
                self.fragment(0, arguments(function), str_field(function, "name"));
            }
        }
        if let Some(reason) = str_field(choice, "finish_reason") {
            self.finish_reason = Some(reason.to_string());
        }
    }

    /// [`feed`](Self::feed) a chunk's JSON text. A chunk of the usual shape is read
    /// without building a tree (a stream has one for every few tokens); any other shape
    /// is read as a tree, so both read every chunk alike.
    pub(super) fn feed_text(&mut self, text: &str) {
        match serde_json::from_str::<Chunk>(text) {
            Ok(chunk) => self.feed_chunk(chunk),
            Err(_) => {
                if let Ok(value) = serde_json::from_str::<Value>(text) {
                    self.feed(&value);
                }
            }
        }
    }

    fn feed_chunk(&mut self, chunk: Chunk) {
        let choices = chunk.choices.into_iter().flatten();
        let Some(choice) = choices
            .into_iter()
            .find(|choice| choice.index.unwrap_or(0) == 0)
        else {
            return;
        };
        if let Some(delta) = choice.delta {
            self.content
                .push_str(delta.content.as_deref().unwrap_or_default());
            self.refusal
                .push_str(delta.refusal.as_deref().unwrap_or_default());
            let thoughts = [&delta.reasoning_content, &delta.reasoning];
            let thought = REASONING_FIELDS
                .into_iter()
                .zip(thoughts)
                .find_map(|(field, text)| {
                    Some((field, text.as_deref().filter(|t| !t.is_empty())?))
                });
            if let Some((field, thought)) = thought {
                self.think(field, thought);
            }
            for (position, call) in delta.tool_calls.into_iter().flatten().enumerate() {
                let index = call.index.unwrap_or(position as u64);
                if let Some(function) = call.function {
                    self.fragment(index, function.arguments(), function.name.as_deref());
                }
            }
            if let Some(function) = delta.function_call {
                self.fragment(0, function.arguments(), function.name.as_deref());
            }
        }
        if let Some(reason) = choice.finish_reason {
            self.finish_reason = Some(reason.into_owned());
        }
    }

    /// A piece of reasoning; the field named is the first one the stream used.
    fn think(&mut self, field: &'static str, thought: &str) {
        self.reasoning_field.get_or_insert(field);
        self.reasoning.push_str(thought);
    }

    /// A piece of call `index`'s arguments; the tool's name comes with its first piece.
    fn fragment(&mut self, index: u64, arguments: &str, name: Option<&str>) {
        let call = self
            .tools
            .entry(index)
            .or_insert_with(|| ToolCall::new(String::new()));
        call.arguments.push_str(arguments);
        if call.name.is_none() {
            call.name = name.filter(|name| !name.is_empty()).map(str::to_owned);
        }
    }

    /// What the output is so far: the content, else a refusal, else the first tool call's
    /// arguments (a stream of their own), with which of them it is.
    pub(super) fn live_text(&self) -> (u8, &str) {
        if !self.content.is_empty() {
            (0, &self.content)
        } else if !self.refusal.is_empty() {
            (1, &self.refusal)
        } else {
            (
                2,
                self.tools
                    .values()
                    .next()
                    .map_or("", |call| call.arguments.as_str()),
            )
        }
    }

    pub(super) fn finish(self) -> Result<Contents, String> {
        let text = if self.content.is_empty() {
            self.refusal
        } else {
            self.content
        };
        let stopped_for_tool = openai_stopped_for_tool(self.finish_reason.as_deref());
        let tools: Vec<ToolCall> = self.tools.into_values().collect();
        let mut warnings = Vec::new();
        let mut beside = None;
        let text = match self.reasoning_field {
            Some(field) if answer_is_reasoning(&text, &tools, &self.reasoning) => {
                warnings.push(routed_to_reasoning(field));
                self.reasoning
            }
            Some(field) => {
                beside = Some(Reasoning {
                    field: field.to_owned(),
                    text: self.reasoning,
                });
                text
            }
            None => text,
        };
        Ok(Contents {
            provider: Some(Provider::OpenaiChat),
            outputs: text_or_tool(text, tools, stopped_for_tool),
            stop_reason: self.finish_reason,
            warnings,
            reasoning: beside,
            ..Contents::default()
        })
    }
}

/// A function's `arguments` fragment in a tree: none unless it is a string.
fn arguments(function: &Value) -> &str {
    str_field(function, "arguments").unwrap_or_default()
}

/// A chunk of the usual shape, its strings borrowed from the text. Each field has the
/// type the tree reading accepts; another type fails the whole chunk, which is then read
/// as a tree.
#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(borrow)]
    choices: Option<Vec<Choice<'a>>>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    index: Option<u64>,
    #[serde(borrow)]
    delta: Option<Delta<'a>>,
    #[serde(borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(borrow)]
    content: Option<Cow<'a, str>>,
    #[serde(borrow)]
    refusal: Option<Cow<'a, str>>,
    #[serde(borrow)]
    reasoning_content: Option<Cow<'a, str>>,
    #[serde(borrow)]
    reasoning: Option<Cow<'a, str>>,
    #[serde(borrow)]
    tool_calls: Option<Vec<Call<'a>>>,
    /// `null` is a call too (see [`Function`]).
    #[serde(borrow, default, deserialize_with = "present")]
    function_call: Option<Function<'a>>,
}

#[derive(Deserialize)]
struct Call<'a> {
    index: Option<u64>,
    #[serde(borrow, default, deserialize_with = "present")]
    function: Option<Function<'a>>,
}

/// A function key that is there, `null` included: the tree reading starts a call for it.
#[derive(Deserialize, Default)]
struct Function<'a> {
    #[serde(borrow)]
    arguments: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
}

impl Function<'_> {
    fn arguments(&self) -> &str {
        self.arguments.as_deref().unwrap_or_default()
    }
}

/// A key that is there: `null` reads as an empty [`Function`], not as no key.
fn present<'de: 'a, 'a, D: Deserializer<'de>>(from: D) -> Result<Option<Function<'a>>, D::Error> {
    Option::<Function<'a>>::deserialize(from).map(|function| Some(function.unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What feeding `chunks` leaves, read one way or the other.
    type Fed = (String, String, String, Vec<(u64, String)>, Option<String>);

    fn fed(chunks: &[&str], as_text: bool) -> Fed {
        let mut fed = ChatChunks::default();
        for chunk in chunks {
            if as_text {
                fed.feed_text(chunk);
            } else if let Ok(value) = serde_json::from_str::<Value>(chunk) {
                fed.feed(&value);
            }
        }
        let tools = fed
            .tools
            .into_iter()
            .map(|(index, call)| (index, format!("{:?} {}", call.name, call.arguments)))
            .collect();
        let reasoning = format!("{:?} {}", fed.reasoning_field, fed.reasoning);
        (
            fed.content,
            fed.refusal,
            reasoning,
            tools,
            fed.finish_reason,
        )
    }

    #[test]
    fn chunks_read_without_a_tree_give_what_the_tree_gives() {
        let odd_shapes = [
            r#"{"choices":[{"index":0,"delta":{"content":"a\"b\u00e9"},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":1,"delta":{"content":"other choice"}},{"delta":{"content":"c"}}]}"#,
            r#"{"choices":[{"index":null,"delta":{"content":"d","refusal":null}}]}"#,
            r#"{"choices":[{"index":"0","delta":{"content":"e"}}]}"#,
            r#"{"choices":[{"index":0.0,"delta":{"content":"f"}}]}"#,
            r#"{"choices":[7]}"#,
            r#"{"choices":{"index":0}}"#,
            r#"{"choices":null,"usage":{"total_tokens":3}}"#,
            r#"{"choices":[{"delta":{"content":5}}]}"#,
            r#"{"choices":[{"delta":"text"}]}"#,
            r#"{"choices":[{"delta":null,"finish_reason":"length"}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{\"q\""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"function":null},{"function":{"arguments":null}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"function":"f"},{"id":"no function"}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":{"index":0}}}]}"#,
            r#"{"choices":[{"delta":{"function_call":null}}]}"#,
            r#"{"choices":[{"delta":{"function_call":{"arguments":": 1}"}}}]}"#,
            r#"{"choices":[{"delta":{"content":"x","content":"y"}}]}"#,
            r#"{"choices":[{"finish_reason":3}]}"#,
            r#"{"choices":[{"finish_reason":"tool_calls"}]}"#,
            r#"[1, 2]"#,
            r#"{"choices":[{"delta":{"content":null,"reasoning_content":"{\"a\""}}]}"#,
            r#"{"choices":[{"delta":{"reasoning_content":"","reasoning":": 1}"}}]}"#,
            r#"{"choices":[{"delta":{"reasoning":7}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"list","arguments":""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":7,"arguments":"{}"}}]}}]}"#,
        ];
        for chunk in odd_shapes {
            assert_eq!(fed(&[chunk], true), fed(&[chunk], false), "{chunk}");
        }
        // The usual shapes do take the way without a tree.
        for usual in [0, 2, 7, 10, 11, 12, 15, 16, 21, 22, 24] {
            let chunk = odd_shapes[usual];
            assert!(serde_json::from_str::<Chunk>(chunk).is_ok(), "{chunk}");
        }
        assert_eq!(fed(&odd_shapes, true), fed(&odd_shapes, false));
    }
}
