//! Warnings: facts worth seeing even when a value was accepted.

use serde::{Deserialize, Serialize};

/// Facts worth seeing even on success.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningKind {
    /// More than one distinct value parsed; the policy picked one.
    MultipleCandidates,
    /// An object repeats a key; the last one wins, as in every JSON library.
    DuplicateKey,
    /// Text after the accepted value.
    TrailingProse,
    /// A `<think>…</think>` reasoning block was skipped.
    ThinkBlock,
    /// The capture's stop reason is not one jxray knows.
    StopReasonUnknown,
    /// The text ends mid-value although the stop reason says the model finished.
    UnsignalledTruncation,
    /// The answer was taken from a reasoning field because the text field was empty.
    AnswerInThinking,
    /// A JSON-looking fragment before the accepted value was passed over.
    SkippedFragment,
    /// A string in the value holds a JSON object or array (double-encoded).
    StringifiedJson,
    /// The value sat inside doubled `{{…}}` braces, a prompt-template escaping leak.
    TemplateBraces,
    /// A candidate that is a JSON Schema (the prompt's own, echoed) was passed over for the
    /// answer after it.
    SchemaEcho,
    /// The value was the whole body of a fence tagged with another language (a Python dict
    /// or JavaScript object literal that is also JSON).
    FenceLanguage,
    /// The value is the JSON body of a tool call the model wrote as text (the serving
    /// layer did not parse its tool-call syntax).
    ToolCallText,
    /// The value came in a markdown fence although the request asked for JSON mode
    /// (`response_format` `json_object` / `json_schema`, Ollama's `format`, …): the server
    /// did not honour it. Found where the request is known, not by the engine.
    JsonModeIgnored,
    /// A tool call came with empty arguments (`""`) for a tool that takes no parameters:
    /// read as `{}`. Found where the request is known, not by the engine.
    EmptyArguments,
}

impl WarningKind {
    /// Every warning kind, in the order the contract lists them.
    pub const ALL: &'static [WarningKind] = &[
        WarningKind::MultipleCandidates,
        WarningKind::DuplicateKey,
        WarningKind::TrailingProse,
        WarningKind::ThinkBlock,
        WarningKind::StopReasonUnknown,
        WarningKind::UnsignalledTruncation,
        WarningKind::AnswerInThinking,
        WarningKind::SkippedFragment,
        WarningKind::StringifiedJson,
        WarningKind::TemplateBraces,
        WarningKind::SchemaEcho,
        WarningKind::FenceLanguage,
        WarningKind::ToolCallText,
        WarningKind::JsonModeIgnored,
        WarningKind::EmptyArguments,
    ];

    /// The warning's name, as the contract spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::MultipleCandidates => "multiple-candidates",
            WarningKind::DuplicateKey => "duplicate-key",
            WarningKind::TrailingProse => "trailing-prose",
            WarningKind::ThinkBlock => "think-block",
            WarningKind::StopReasonUnknown => "stop-reason-unknown",
            WarningKind::UnsignalledTruncation => "unsignalled-truncation",
            WarningKind::AnswerInThinking => "answer-in-thinking",
            WarningKind::SkippedFragment => "skipped-fragment",
            WarningKind::StringifiedJson => "stringified-json",
            WarningKind::TemplateBraces => "template-braces",
            WarningKind::SchemaEcho => "schema-echo",
            WarningKind::FenceLanguage => "fence-language",
            WarningKind::ToolCallText => "tool-call-text",
            WarningKind::JsonModeIgnored => "json-mode-ignored",
            WarningKind::EmptyArguments => "empty-arguments",
        }
    }
}

/// A warning with the detail a person needs: which key, where, what was skipped.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// What the warning is about.
    pub kind: WarningKind,
    /// Byte offset into the raw text, when the warning has a place.
    pub offset: Option<usize>,
    /// The detail a person needs (which key, where, what was skipped).
    pub message: String,
}

impl Warning {
    /// A warning of `kind`, at `offset` when it has a place.
    pub fn new(kind: WarningKind, offset: Option<usize>, message: impl Into<String>) -> Warning {
        Warning {
            kind,
            offset,
            message: message.into(),
        }
    }
}
