//! A tool call the model wrote as text: the serving layer did not take its native syntax.

use serde::{Deserialize, Serialize};

/// The tool-call syntax a model family writes, recognised in the text by its shape.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// Hermes and Qwen: `<tool_call>{"name": …, "arguments": …}</tool_call>` (and the same
    /// JSON after `<tool_calls>` or a `<|tool_call|>` token).
    Hermes,
    /// Llama: `<function=NAME>{…}</function>` (or `<function=NAME={…}`, or JSON after
    /// `<|python_tag|>`).
    Llama,
    /// Mistral: `[TOOL_CALLS]NAME[ARGS]{…}`, `[TOOL_CALLS][{…}]`, or `NAME[ARGS]{…}` with the
    /// first token dropped.
    Mistral,
    /// gpt-oss harmony: `<|channel|>commentary to=functions.NAME … <|message|>{…}<|call|>`.
    Harmony,
    /// DeepSeek: `<｜tool▁call▁begin｜>…<｜tool▁sep｜>…{…}<｜tool▁call▁end｜>`.
    Deepseek,
    /// Kimi: `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}`.
    Kimi,
    /// LM Studio's prompted format: `[TOOL_REQUEST]{"name": …, "arguments": …}[END_TOOL_REQUEST]`.
    ToolRequest,
    /// XML parameters (Qwen3-Coder `<function=NAME><parameter=K>V</parameter>`, MiniMax
    /// `<invoke name="NAME"><parameter name="K">V</parameter>`): no JSON body.
    XmlParameters,
    /// GLM: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>`: no JSON body.
    ArgKeyValue,
    /// Gemma: `<|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>` (FunctionGemma:
    /// `<start_function_call>call:NAME{k:<escape>v<escape>}`): no JSON body.
    Gemma,
    /// A hash with fat arrows: `{tool => "NAME", args => {--k "v"}}`: no JSON body.
    ArrowHash,
    /// Python call syntax: `[NAME(k="v")]` (Llama 3.2 and 4), a ```` ```tool_code ```` fence
    /// (Gemma), `<|python_tag|>NAME.call(…)` (Llama 3): no JSON body.
    Pythonic,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: &'static [Dialect] = &[
        Dialect::Hermes,
        Dialect::Llama,
        Dialect::Mistral,
        Dialect::Harmony,
        Dialect::Deepseek,
        Dialect::Kimi,
        Dialect::ToolRequest,
        Dialect::XmlParameters,
        Dialect::ArgKeyValue,
        Dialect::Gemma,
        Dialect::ArrowHash,
        Dialect::Pythonic,
    ];

    /// The dialect's short name.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Hermes => "hermes",
            Dialect::Llama => "llama",
            Dialect::Mistral => "mistral",
            Dialect::Harmony => "harmony",
            Dialect::Deepseek => "deepseek",
            Dialect::Kimi => "kimi",
            Dialect::ToolRequest => "tool-request",
            Dialect::XmlParameters => "xml-parameters",
            Dialect::ArgKeyValue => "arg-key-value",
            Dialect::Gemma => "gemma",
            Dialect::ArrowHash => "arrow-hash",
            Dialect::Pythonic => "pythonic",
        }
    }

    /// The syntax in words, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Dialect::Hermes => "Hermes/Qwen `<tool_call>{…}</tool_call>`",
            Dialect::Llama => "Llama `<function=NAME>{…}</function>`",
            Dialect::Mistral => "Mistral `[TOOL_CALLS]`",
            Dialect::Harmony => "gpt-oss harmony `to=functions.NAME … <|message|>{…}`",
            Dialect::Deepseek => "DeepSeek `<｜tool▁call▁begin｜>`",
            Dialect::Kimi => "Kimi `<|tool_call_begin|>`",
            Dialect::ToolRequest => "LM Studio `[TOOL_REQUEST]{…}[END_TOOL_REQUEST]`",
            Dialect::XmlParameters => "XML `<parameter=…>` (Qwen3-Coder, MiniMax `<invoke>`)",
            Dialect::ArgKeyValue => "GLM `<arg_key>/<arg_value>`",
            Dialect::Gemma => "Gemma `<|tool_call>call:NAME{…}`",
            Dialect::ArrowHash => "`{tool => …, args => {--k \"v\"}}`",
            Dialect::Pythonic => "pythonic `[NAME(k=v)]`",
        }
    }

    /// Whether the call's arguments are a JSON value (given as the outcome's value).
    pub fn has_json_body(self) -> bool {
        matches!(
            self,
            Dialect::Hermes
                | Dialect::Llama
                | Dialect::Mistral
                | Dialect::Harmony
                | Dialect::Deepseek
                | Dialect::Kimi
                | Dialect::ToolRequest
        )
    }
}

/// The tool call written as text that an outcome's value or failure is about.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallText {
    /// The syntax it is written in.
    pub dialect: Dialect,
    /// The tool it calls, when the text names one.
    pub tool: Option<String>,
    /// Byte offset of the call's markup in the raw text.
    pub offset: usize,
}

impl ToolCallText {
    /// A call in `dialect` to `tool`, at `offset`.
    pub fn new(dialect: Dialect, tool: Option<String>, offset: usize) -> ToolCallText {
        ToolCallText {
            dialect,
            tool,
            offset,
        }
    }

    /// `Hermes/Qwen `<tool_call>…` (tool `get_weather`)`: the dialect and the tool, in words.
    pub fn describe(&self) -> String {
        match &self.tool {
            Some(tool) => format!("{}, tool `{tool}`", self.dialect.describe()),
            None => self.dialect.describe().to_owned(),
        }
    }
}
