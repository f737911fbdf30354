//! Failures: why nothing was accepted, its kind, cause, place and message.

use serde::{Deserialize, Serialize};

use super::{Defect, DefectAt};

/// Each kind points at a different fix; they are never merged.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The output was cut off (a length limit, or it ends inside an open value).
    Truncated,
    /// No JSON value in the output.
    NoJson,
    /// A candidate exists but is not valid JSON, even after lossless repair.
    Invalid,
    /// Valid JSON that fails the user's JSON Schema.
    Schema,
    /// The capture could not be read.
    Unreadable,
}

impl FailureKind {
    /// Every failure kind, from the most common to the rarest.
    pub const ALL: &'static [FailureKind] = &[
        FailureKind::Truncated,
        FailureKind::NoJson,
        FailureKind::Invalid,
        FailureKind::Schema,
        FailureKind::Unreadable,
    ];

    /// The kind's name, as the contract spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Truncated => "truncated",
            FailureKind::NoJson => "no-json",
            FailureKind::Invalid => "invalid",
            FailureKind::Schema => "schema",
            FailureKind::Unreadable => "unreadable",
        }
    }

    /// How much a failure of this kind tells the user; the most specific one is reported.
    pub fn specificity(self) -> u8 {
        match self {
            FailureKind::NoJson => 0,
            FailureKind::Invalid => 1,
            FailureKind::Truncated => 2,
            FailureKind::Schema => 3,
            FailureKind::Unreadable => 4,
        }
    }
}

/// Why the output failed, beyond its form: a fix to the prompt will not help.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// The model declined (a refusal sentence, OpenAI `message.refusal`, Anthropic `refusal`).
    Refusal,
    /// The provider blocked the output (Gemini `SAFETY`, OpenAI `content_filter`, …).
    Filtered,
    /// The output ran to the limit on a flood of whitespace or one repeated token.
    Runaway,
    /// The output ran to its limit inside an unclosed reasoning block.
    Reasoning,
    /// The output is a tool call written as text in a syntax without a JSON body: the
    /// serving layer's tool parser did not take it.
    ToolCallText,
}

impl Cause {
    /// Every cause.
    pub const ALL: &'static [Cause] = &[
        Cause::Refusal,
        Cause::Filtered,
        Cause::Runaway,
        Cause::Reasoning,
        Cause::ToolCallText,
    ];

    /// The cause's name, as the contract spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Refusal => "refusal",
            Cause::Filtered => "filtered",
            Cause::Runaway => "runaway",
            Cause::Reasoning => "reasoning",
            Cause::ToolCallText => "tool-call-text",
        }
    }
}

/// Why nothing was accepted: kind, defect, place and an actionable message.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// Which kind of failure: each points at a different fix.
    pub kind: FailureKind,
    /// The headline defect of an `invalid` failure.
    pub defect: Option<Defect>,
    /// Byte offset into the raw text.
    pub offset: usize,
    /// 1-based line in the raw text.
    pub line: usize,
    /// 1-based column (in characters) in the raw text.
    pub column: usize,
    /// What happened, where, and what to change.
    pub message: String,
    /// Why the output failed beyond its form (refusal, filtered, runaway), when known.
    #[serde(default)]
    pub cause: Option<Cause>,
    /// Every defect found in the candidate, in text order; `defect` is the headline one.
    #[serde(default)]
    pub defects: Vec<DefectAt>,
}

impl Failure {
    /// A failure of `kind` at `offset` (line:column), with no defect, cause or defect list.
    pub fn new(
        kind: FailureKind,
        offset: usize,
        (line, column): (usize, usize),
        message: impl Into<String>,
    ) -> Failure {
        Failure {
            kind,
            defect: None,
            offset,
            line,
            column,
            message: message.into(),
            cause: None,
            defects: Vec::new(),
        }
    }

    /// The failure with its headline defect.
    pub fn with_defect(mut self, defect: Option<Defect>) -> Failure {
        self.defect = defect;
        self
    }

    /// The failure with its cause.
    pub fn with_cause(mut self, cause: Option<Cause>) -> Failure {
        self.cause = cause;
        self
    }

    /// The failure with every defect found, in text order.
    pub fn with_defects(mut self, defects: Vec<DefectAt>) -> Failure {
        self.defects = defects;
        self
    }
}
