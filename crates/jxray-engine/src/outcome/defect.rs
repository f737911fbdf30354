//! Defects: what the model (or the pipeline) did that makes a candidate invalid.

use serde::{Deserialize, Serialize};

/// A problem that makes an `invalid` candidate fail. Each names what the model
/// (or the pipeline) did, so its message can say what to change.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Defect {
    /// A comma after the last item.
    TrailingComma,
    /// A single-quoted string.
    SingleQuotes,
    /// An object key without quotes.
    UnquotedKey,
    /// Python's `True`, `False`, `None`.
    PythonLiteral,
    /// A `//`, `/* */` or `#` comment.
    Comment,
    /// Curly quotes where JSON has straight ones.
    SmartQuotes,
    /// `...`: the model left content out.
    Ellipsis,
    /// No comma between two items.
    MissingComma,
    /// Nesting deeper than the limit.
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
    /// `TRUE`, `NULL`: a literal in the capitals of SQL, C or R.
    LiteralCase,
    /// Brackets still open although the output is finished (the stop reason says it
    /// completed, or the fence after it closed).
    MissingCloser,
    /// `"status": active`: a string value written without its quotes (or without its
    /// opening one, `"a": foo"`).
    UnquotedValue,
    /// `{"name: "x"}`, `{name": "x"}`: a key with one of its two quotes missing.
    KeyQuote,
    /// None of the named defects fits.
    Syntax,
}

impl Defect {
    /// Every defect.
    pub const ALL: &'static [Defect] = &[
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
        Defect::MissingCloser,
        Defect::UnquotedValue,
        Defect::KeyQuote,
        Defect::Syntax,
    ];

    /// The defect's name, as the contract spells it.
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
            Defect::MissingCloser => "missing-closer",
            Defect::UnquotedValue => "unquoted-value",
            Defect::KeyQuote => "key-quote",
            Defect::Syntax => "syntax",
        }
    }

    /// The defect a name stands for (the inverse of [`Defect::as_str`]).
    pub fn from_name(name: &str) -> Option<Defect> {
        Defect::ALL
            .iter()
            .copied()
            .find(|defect| defect.as_str() == name)
    }

    /// Defects that a lenient reading can fix (where the fix is no guess).
    pub fn is_lenient_fixable(self) -> bool {
        !matches!(
            self,
            Defect::Ellipsis | Defect::NestingTooDeep | Defect::Syntax
        )
    }
}

/// One defect found in a candidate, at its place in the raw text.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefectAt {
    /// Which defect.
    pub kind: Defect,
    /// Byte offset into the raw text.
    pub offset: usize,
    /// 1-based line in the raw text.
    pub line: usize,
    /// 1-based column (in characters) in the raw text.
    pub column: usize,
    /// What was found and what to tell the model.
    pub message: String,
}

impl DefectAt {
    /// A defect of `kind` at `offset`, whose place is line:column.
    pub fn new(
        kind: Defect,
        offset: usize,
        (line, column): (usize, usize),
        message: impl Into<String>,
    ) -> DefectAt {
        DefectAt {
            kind,
            offset,
            line,
            column,
            message: message.into(),
        }
    }
}
