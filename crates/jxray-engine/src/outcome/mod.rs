//! The vocabulary of contract §1: what extraction says about one capture.
//!
//! Everything a client needs to explain a decision lives here, so that a UI
//! never has to re-run the engine to show why something happened.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

mod attempt;
mod defect;
mod failure;
mod repair;
mod tool_call;
mod warning;

pub use attempt::{Attempt, Verdict};
pub use defect::{Defect, DefectAt};
pub use failure::{Cause, Failure, FailureKind};
pub use repair::{Repair, RepairKind};
pub use tool_call::{Dialect, ToolCallText};
pub use warning::{Warning, WarningKind};

/// Where the accepted JSON came from.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    /// The whole trimmed text parsed.
    Direct,
    /// Inside a markdown code fence.
    Fenced,
    /// A balanced `{…}` / `[…]` found in prose.
    Scanned,
    /// Accepted only after meaning-changing fixes (opt-in).
    Lenient,
}

impl Layer {
    /// Every layer, in the order they are tried.
    pub const ALL: &'static [Layer] =
        &[Layer::Direct, Layer::Fenced, Layer::Scanned, Layer::Lenient];

    /// The layer's name, as the contract spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Direct => "direct",
            Layer::Fenced => "fenced",
            Layer::Scanned => "scanned",
            Layer::Lenient => "lenient",
        }
    }
}

/// What a lenient reading of the best invalid candidate gives.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LenientReading {
    /// The span of the raw text that was read leniently.
    pub span: (usize, usize),
    /// The candidate text after the lenient fixes.
    pub text: String,
    /// Every fix, with its offset in the raw text.
    pub repairs: Vec<Repair>,
    /// The value, when the fixed text parses.
    pub value: Option<Value>,
    /// Why the fixed text still does not parse, when it does not.
    pub error: Option<String>,
    /// Whether the outcome took this reading (only with lenient acceptance on).
    pub accepted: bool,
}

/// How the capture's stop reason reads.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopClass {
    /// No stop reason was known.
    #[default]
    Absent,
    /// The model finished on its own (or at a stop sequence).
    Complete,
    /// The length limit was hit.
    Truncated,
    /// A content filter or safety system stopped the output.
    Filtered,
    /// The model stopped to call a tool.
    ToolCall,
    /// A stop reason jxray does not know.
    Unknown,
}

/// A JSON value as text: compact (exactly what serde_json writes for the value's tree), or
/// with [`crate::ValueForm::Span`] the candidate as written (or as repaired), when that is
/// strict JSON.
#[derive(Debug, Clone)]
pub struct JsonText(Held);

#[derive(Debug, Clone)]
enum Held {
    /// Compact text serde_json checked.
    Checked(Box<RawValue>),
    /// Compact text the engine wrote from strict JSON it read itself (`plain.rs`).
    Compacted(String),
    /// Strict JSON as written, checked by the engine's own grammar (not serde_json's).
    AsWritten(Box<str>),
}

impl JsonText {
    pub(crate) fn new(json: Box<RawValue>) -> JsonText {
        JsonText(Held::Checked(json))
    }

    /// Text the engine's grammar found strict JSON, kept as it was written.
    pub(crate) fn as_written(json: &str) -> JsonText {
        JsonText(Held::AsWritten(json.into()))
    }

    /// Compact text the engine wrote from strict JSON it read.
    pub(crate) fn compacted(json: String) -> JsonText {
        JsonText(Held::Compacted(json))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        match &self.0 {
            Held::Checked(json) => json.get(),
            Held::Compacted(json) => json,
            Held::AsWritten(json) => json,
        }
    }

    /// The text as written, when it is kept so (not compact): with no repair made, the
    /// candidate's own text, the outcome's span.
    pub fn written(&self) -> Option<&str> {
        match &self.0 {
            Held::AsWritten(json) => Some(json),
            _ => None,
        }
    }
}

impl Serialize for JsonText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Held::Checked(json) => json.serialize(serializer),
            // Written out as JSON, not as a string: serde_json holds it as raw text only
            // once it has checked it.
            Held::Compacted(_) | Held::AsWritten(_) => RawValue::from_string(self.get().to_owned())
                .map_err(serde::ser::Error::custom)?
                .serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for JsonText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<JsonText, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(JsonText::new)
    }
}

impl PartialEq for JsonText {
    fn eq(&self, other: &JsonText) -> bool {
        self.get() == other.get()
    }
}

/// What extraction says about one capture.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Outcome {
    /// Where the accepted value came from; `None` when nothing was accepted.
    pub layer: Option<Layer>,
    /// The accepted value (unless `value_json` holds it as text).
    pub value: Option<Value>,
    /// The accepted value as compact JSON text, instead of `value`, when
    /// `Options::value_form` asked for text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_json: Option<JsonText>,
    /// `[start, end)` byte offsets of the accepted candidate in the raw text.
    pub span: Option<(usize, usize)>,
    /// The candidate text after repairs, when it differs from `raw[span]`.
    pub repaired: Option<String>,
    /// The repairs made to the accepted candidate, in text order.
    pub repairs: Vec<Repair>,
    /// Facts worth seeing even on success.
    pub warnings: Vec<Warning>,
    /// Why nothing was accepted; `None` on success.
    pub failure: Option<Failure>,
    /// Every candidate tried, in order.
    pub trace: Vec<Attempt>,
    /// Trace entries left out to keep adversarial inputs small.
    pub trace_omitted: usize,
    /// The lenient reading of the best invalid candidate, if there was one.
    pub lenient: Option<LenientReading>,
    /// How the capture's stop reason reads.
    pub stop: StopClass,
    /// The tool call written as text that the value is the body of, or that the failure
    /// is (`cause: tool-call-text`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call: Option<ToolCallText>,
}

impl Outcome {
    /// Whether a value was accepted.
    pub fn ok(&self) -> bool {
        self.failure.is_none() && (self.value.is_some() || self.value_json.is_some())
    }

    /// The text the parser saw: the repaired candidate, or the raw span.
    pub fn normalized<'a>(&'a self, raw: &'a str) -> Option<&'a str> {
        match (&self.repaired, self.span) {
            (Some(text), _) => Some(text.as_str()),
            (None, Some((start, end))) => raw.get(start..end),
            (None, None) => None,
        }
    }

    /// The warning kinds, in order, without repeats.
    pub fn warning_kinds(&self) -> Vec<WarningKind> {
        let mut kinds: Vec<WarningKind> = Vec::new();
        for warning in &self.warnings {
            if !kinds.contains(&warning.kind) {
                kinds.push(warning.kind);
            }
        }
        kinds
    }

    /// An outcome for a capture that could not be read at all.
    pub fn unreadable(message: impl Into<String>) -> Outcome {
        Outcome::failed(Failure::new(FailureKind::Unreadable, 0, (1, 1), message))
    }

    /// An outcome with no value and this failure.
    pub fn failed(failure: Failure) -> Outcome {
        Outcome {
            failure: Some(failure),
            ..Outcome::default()
        }
    }

    /// The badge a list shows: the layer on success, else the failure kind.
    pub fn badge(&self) -> &'static str {
        match (&self.failure, self.layer) {
            (Some(failure), _) => failure.kind.as_str(),
            (None, Some(layer)) => layer.as_str(),
            (None, None) => FailureKind::NoJson.as_str(),
        }
    }
}
