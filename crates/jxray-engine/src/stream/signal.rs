//! What a caller may want to stop a stream for ([`SignalKind`]), and one such signal at the
//! byte where it became certain ([`Signal`]).

use serde::Serialize;

use crate::outcome::{Defect, Dialect};

/// What a caller may want to stop for.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignalKind {
    /// A run of white space or one repeated token past the bound.
    Runaway,
    /// A tool call written as text: a dialect's marker.
    ToolCallText,
    /// A reasoning block opened.
    Reasoning,
    /// The output so far is a refusal by its shape.
    Refusal,
    /// The candidate being read has a defect no continuation can repair.
    Invalid,
    /// A value that closed breaks the schema (only with a validator).
    Schema,
}

impl SignalKind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [SignalKind; 6] = [
        SignalKind::Runaway,
        SignalKind::ToolCallText,
        SignalKind::Reasoning,
        SignalKind::Refusal,
        SignalKind::Invalid,
        SignalKind::Schema,
    ];

    /// Its name (`runaway`, `tool-call-text`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            SignalKind::Runaway => "runaway",
            SignalKind::ToolCallText => "tool-call-text",
            SignalKind::Reasoning => "reasoning",
            SignalKind::Refusal => "refusal",
            SignalKind::Invalid => "invalid",
            SignalKind::Schema => "schema",
        }
    }

    /// The kind a name stands for.
    pub fn from_name(name: &str) -> Option<SignalKind> {
        SignalKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}

/// A signal, at the byte where it became certain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Signal {
    /// What it is.
    pub kind: SignalKind,
    /// The byte offset where it became certain, and its 1-based line and column.
    pub byte: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// For `invalid`, the defect, named as the engine names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defect: Option<Defect>,
    /// For `tool-call-text`, the dialect its marker names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<Dialect>,
    /// For `invalid`: whether a later candidate could still give the output a value (the
    /// failed one was found in prose, where another may follow). A direct, fenced or tool
    /// call's value that fails is the answer itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub later_may_change: Option<bool>,
    /// For `schema`, where in the value (a JSON Pointer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// One line for a person.
    pub message: String,
}
