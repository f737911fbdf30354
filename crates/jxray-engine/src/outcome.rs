//! The vocabulary of contract §1: what extraction says about one capture.
//!
//! Everything a client needs to explain a decision lives here, so that a UI
//! never has to re-run the engine to show why something happened.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

/// Where the accepted JSON came from.
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
    pub const ALL: [Layer; 4] = [Layer::Direct, Layer::Fenced, Layer::Scanned, Layer::Lenient];

    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Direct => "direct",
            Layer::Fenced => "fenced",
            Layer::Scanned => "scanned",
            Layer::Lenient => "lenient",
        }
    }
}

/// An edit made to a candidate before it was parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairKind {
    /// Lossless: a raw newline, carriage return or tab inside a string, escaped.
    RawControlChar,
    /// Lossless: `\``, an invalid JSON escape, turned into a backtick.
    EscapedBacktick,
    /// Lenient: a comma before `}` or `]` removed.
    TrailingComma,
    /// Lenient: a single-quoted string rewritten with double quotes.
    SingleQuotes,
    /// Lenient: a bare object key quoted.
    UnquotedKey,
    /// Lenient: `True` / `False` / `None` rewritten as JSON literals.
    PythonLiteral,
    /// Lenient: a `//`, `/* */` or `#` comment removed.
    Comment,
    /// Lenient: curly quotes used as JSON quotes made straight.
    SmartQuotes,
    /// Lenient: a missing comma between items inserted.
    MissingComma,
    /// Lenient: a leading zero removed from a number.
    LeadingZero,
    /// Lenient: `NaN` / `Infinity` replaced by `null`.
    NonFiniteNumber,
    /// Lenient: an escape JSON does not have replaced by the character it meant.
    InvalidEscape,
    /// Lenient: a closer that did not match its opener replaced.
    MismatchedBracket,
    /// Lenient: doubled quotes around a string made single.
    DoubledQuotes,
    /// Lenient: a quote inside a string escaped.
    UnescapedQuote,
    /// Lenient: a missing closing quote inserted where the structure closes.
    UnterminatedString,
    /// Lenient: the lost opening of the value restored.
    MissingStart,
    /// Lenient: a missing colon between key and value inserted.
    MissingColon,
    /// Lenient: a comma before the first item removed.
    LeadingComma,
    /// Lenient: a Unicode space used as whitespace made an ASCII space.
    UnicodeSpace,
    /// Lenient: a number spelling JSON does not allow rewritten (`.5` → `0.5`).
    NumberFormat,
    /// Lenient: `undefined` replaced by `null`.
    Undefined,
    /// Lenient: a literal in the wrong case lower-cased (`TRUE` → `true`).
    LiteralCase,
    /// `--decode-stringified`: a string holding JSON replaced by the decoded value.
    DecodedString,
}

impl RepairKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RepairKind::RawControlChar => "raw-control-char",
            RepairKind::EscapedBacktick => "escaped-backtick",
            RepairKind::DecodedString => "decoded-string",
            // Every lenient fix is named after the defect it fixes.
            lenient => lenient.defect().map_or("", Defect::as_str),
        }
    }

    /// The defect a lenient fix stands for (`None` for the others).
    pub fn defect(self) -> Option<Defect> {
        Some(match self {
            RepairKind::RawControlChar
            | RepairKind::EscapedBacktick
            | RepairKind::DecodedString => return None,
            RepairKind::TrailingComma => Defect::TrailingComma,
            RepairKind::SingleQuotes => Defect::SingleQuotes,
            RepairKind::UnquotedKey => Defect::UnquotedKey,
            RepairKind::PythonLiteral => Defect::PythonLiteral,
            RepairKind::Comment => Defect::Comment,
            RepairKind::SmartQuotes => Defect::SmartQuotes,
            RepairKind::MissingComma => Defect::MissingComma,
            RepairKind::LeadingZero => Defect::LeadingZero,
            RepairKind::NonFiniteNumber => Defect::NonFiniteNumber,
            RepairKind::InvalidEscape => Defect::InvalidEscape,
            RepairKind::MismatchedBracket => Defect::MismatchedBracket,
            RepairKind::DoubledQuotes => Defect::DoubledQuotes,
            RepairKind::UnescapedQuote => Defect::UnescapedQuote,
            RepairKind::UnterminatedString => Defect::UnterminatedString,
            RepairKind::MissingStart => Defect::MissingStart,
            RepairKind::MissingColon => Defect::MissingColon,
            RepairKind::LeadingComma => Defect::LeadingComma,
            RepairKind::UnicodeSpace => Defect::UnicodeSpace,
            RepairKind::NumberFormat => Defect::NumberFormat,
            RepairKind::Undefined => Defect::Undefined,
            RepairKind::LiteralCase => Defect::LiteralCase,
        })
    }

    /// Lossless repairs never change what the model meant and are applied by default.
    pub fn is_lossless(self) -> bool {
        matches!(
            self,
            RepairKind::RawControlChar | RepairKind::EscapedBacktick
        )
    }
}

/// One repair, at a byte offset into the raw text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Repair {
    pub kind: RepairKind,
    pub offset: usize,
}

/// Facts worth seeing even on success.
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
}

impl WarningKind {
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
        }
    }
}

/// A warning with the detail a person needs: which key, where, what was skipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    pub kind: WarningKind,
    /// Byte offset into the raw text, when the warning has a place.
    pub offset: Option<usize>,
    pub message: String,
}

/// Each kind points at a different fix; they are never merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    Truncated,
    NoJson,
    Invalid,
    Schema,
    Unreadable,
}

impl FailureKind {
    pub const ALL: [FailureKind; 5] = [
        FailureKind::Truncated,
        FailureKind::NoJson,
        FailureKind::Invalid,
        FailureKind::Schema,
        FailureKind::Unreadable,
    ];

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

/// A problem that makes an `invalid` candidate fail. Each names what the model
/// (or the pipeline) did, so its message can say what to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Defect {
    TrailingComma,
    SingleQuotes,
    UnquotedKey,
    PythonLiteral,
    Comment,
    SmartQuotes,
    Ellipsis,
    MissingComma,
    NestingTooDeep,
    /// `007`: a number with a leading zero.
    LeadingZero,
    /// `NaN`, `Infinity`, `-Infinity`.
    NonFiniteNumber,
    /// `\'`, markdown `\_` `\[`: an escape JSON does not have.
    InvalidEscape,
    /// `[ … }`: a closer that does not match its opener.
    MismatchedBracket,
    /// `""x""`: a string wrapped in doubled quotes.
    DoubledQuotes,
    /// A `"` inside a string that ends it early.
    UnescapedQuote,
    /// A string whose closing quote is missing although the text goes on to close the structure.
    UnterminatedString,
    /// The text begins inside a value: its first tokens were lost.
    MissingStart,
    /// `{"a" 1}`: no colon between a key and its value.
    MissingColon,
    /// `[, 1]`, `{, "a": 1}`: a comma before the first item.
    LeadingComma,
    /// A non-breaking or other Unicode space used as whitespace.
    UnicodeSpace,
    /// `.5`, `5.`, `+1`, `0x1F`: a number spelling JSON does not allow.
    NumberFormat,
    /// JavaScript's `undefined`.
    Undefined,
    /// `TRUE`, `Null`: a literal in the wrong case.
    LiteralCase,
    Syntax,
}

impl Defect {
    pub const ALL: [Defect; 24] = [
        Defect::TrailingComma,
        Defect::SingleQuotes,
        Defect::UnquotedKey,
        Defect::PythonLiteral,
        Defect::Comment,
        Defect::SmartQuotes,
        Defect::Ellipsis,
        Defect::MissingComma,
        Defect::NestingTooDeep,
        Defect::LeadingZero,
        Defect::NonFiniteNumber,
        Defect::InvalidEscape,
        Defect::MismatchedBracket,
        Defect::DoubledQuotes,
        Defect::UnescapedQuote,
        Defect::UnterminatedString,
        Defect::MissingStart,
        Defect::MissingColon,
        Defect::LeadingComma,
        Defect::UnicodeSpace,
        Defect::NumberFormat,
        Defect::Undefined,
        Defect::LiteralCase,
        Defect::Syntax,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Defect::TrailingComma => "trailing-comma",
            Defect::SingleQuotes => "single-quotes",
            Defect::UnquotedKey => "unquoted-key",
            Defect::PythonLiteral => "python-literal",
            Defect::Comment => "comment",
            Defect::SmartQuotes => "smart-quotes",
            Defect::Ellipsis => "ellipsis",
            Defect::MissingComma => "missing-comma",
            Defect::NestingTooDeep => "nesting-too-deep",
            Defect::LeadingZero => "leading-zero",
            Defect::NonFiniteNumber => "non-finite-number",
            Defect::InvalidEscape => "invalid-escape",
            Defect::MismatchedBracket => "mismatched-bracket",
            Defect::DoubledQuotes => "doubled-quotes",
            Defect::UnescapedQuote => "unescaped-quote",
            Defect::UnterminatedString => "unterminated-string",
            Defect::MissingStart => "missing-start",
            Defect::MissingColon => "missing-colon",
            Defect::LeadingComma => "leading-comma",
            Defect::UnicodeSpace => "unicode-space",
            Defect::NumberFormat => "number-format",
            Defect::Undefined => "undefined",
            Defect::LiteralCase => "literal-case",
            Defect::Syntax => "syntax",
        }
    }

    /// Defects that a lenient reading can fix (where the fix is no guess).
    pub fn is_lenient_fixable(self) -> bool {
        !matches!(
            self,
            Defect::Ellipsis | Defect::NestingTooDeep | Defect::Syntax
        )
    }
}

/// Why the output failed, beyond its form: a fix to the prompt will not help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// The model declined (a refusal sentence, OpenAI `message.refusal`, Anthropic `refusal`).
    Refusal,
    /// The provider blocked the output (Gemini `SAFETY`, OpenAI `content_filter`, …).
    Filtered,
    /// The output ran to the limit on a flood of whitespace or one repeated token.
    Runaway,
}

impl Cause {
    pub const ALL: [Cause; 3] = [Cause::Refusal, Cause::Filtered, Cause::Runaway];

    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Refusal => "refusal",
            Cause::Filtered => "filtered",
            Cause::Runaway => "runaway",
        }
    }
}

/// One defect found in a candidate, at its place in the raw text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefectAt {
    pub kind: Defect,
    /// Byte offset into the raw text.
    pub offset: usize,
    /// 1-based line in the raw text.
    pub line: usize,
    /// 1-based column (in characters) in the raw text.
    pub column: usize,
    pub message: String,
}

/// Why nothing was accepted: kind, defect, place and an actionable message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub kind: FailureKind,
    pub defect: Option<Defect>,
    /// Byte offset into the raw text.
    pub offset: usize,
    /// 1-based line in the raw text.
    pub line: usize,
    /// 1-based column (in characters) in the raw text.
    pub column: usize,
    pub message: String,
    /// Why the output failed beyond its form (refusal, filtered, runaway), when known.
    #[serde(default)]
    pub cause: Option<Cause>,
    /// Every defect found in the candidate, in text order; `defect` is the headline one.
    #[serde(default)]
    pub defects: Vec<DefectAt>,
}

/// What happened to one candidate that extraction looked at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// This candidate's value is the outcome's value.
    Accepted,
    /// Valid JSON, but another candidate was picked.
    Passed { reason: String },
    /// Not JSON, or not a whole value.
    Rejected {
        kind: FailureKind,
        defect: Option<Defect>,
        /// Byte offset of the problem in the raw text.
        offset: usize,
        message: String,
    },
    /// Not tried, and why (a fence tagged `python`, a fragment of a larger value).
    Skipped { reason: String },
}

/// One entry of the trace: a candidate, its layer and span, and its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    pub layer: Layer,
    pub span: (usize, usize),
    /// What the candidate is, for people: "fence tagged json at line 3".
    pub label: String,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// What a lenient reading of the best invalid candidate gives.
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

/// A JSON value as compact text, written as is (exactly what serde_json writes for the
/// value's tree).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JsonText(Box<RawValue>);

impl JsonText {
    pub(crate) fn new(json: Box<RawValue>) -> JsonText {
        JsonText(json)
    }

    /// The compact JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for JsonText {
    fn eq(&self, other: &JsonText) -> bool {
        self.get() == other.get()
    }
}

/// What extraction says about one capture.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Outcome {
    pub layer: Option<Layer>,
    pub value: Option<Value>,
    /// The accepted value as compact JSON text, instead of `value`, when
    /// `Options::value_form` asked for text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_json: Option<JsonText>,
    /// `[start, end)` byte offsets of the accepted candidate in the raw text.
    pub span: Option<(usize, usize)>,
    /// The candidate text after repairs, when it differs from `raw[span]`.
    pub repaired: Option<String>,
    pub repairs: Vec<Repair>,
    pub warnings: Vec<Warning>,
    pub failure: Option<Failure>,
    /// Every candidate tried, in order.
    pub trace: Vec<Attempt>,
    /// Trace entries left out to keep adversarial inputs small.
    pub trace_omitted: usize,
    /// The lenient reading of the best invalid candidate, if there was one.
    pub lenient: Option<LenientReading>,
    pub stop: StopClass,
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
        Outcome {
            failure: Some(Failure {
                kind: FailureKind::Unreadable,
                defect: None,
                offset: 0,
                line: 1,
                column: 1,
                message: message.into(),
                cause: None,
                defects: Vec::new(),
            }),
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
