//! What a caller can ask of the engine.

use std::sync::Arc;

use serde_json::Value;

/// Which candidate wins when several distinct values parse.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pick {
    /// The first one in the text (the default).
    #[default]
    First,
    /// The last one: JSON echoed from user input earlier in the text cannot hijack it.
    Last,
}

impl Pick {
    /// The policy's name (`first`, `last`).
    pub fn as_str(self) -> &'static str {
        match self {
            Pick::First => "first",
            Pick::Last => "last",
        }
    }
}

/// A name that is no [`Pick`]; the message lists the names there are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPick(pub String);

impl std::fmt::Display for UnknownPick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pick must be \"first\" or \"last\", not {:?}", self.0)
    }
}

impl std::error::Error for UnknownPick {}

/// The one reading of a policy's name, for every front end (flags, config files,
/// fixtures, the Python and JavaScript options).
impl std::str::FromStr for Pick {
    type Err = UnknownPick;

    fn from_str(name: &str) -> Result<Pick, UnknownPick> {
        match name {
            "first" => Ok(Pick::First),
            "last" => Ok(Pick::Last),
            other => Err(UnknownPick(other.to_owned())),
        }
    }
}

/// The form an accepted value is handed back in.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueForm {
    /// A `serde_json::Value` in `Outcome::value`.
    #[default]
    Tree,
    /// Compact JSON text in `Outcome::value_json`, exactly what serializing the tree would
    /// write, for callers that only write the value out (`jxray check`): no tree is built.
    /// A value that needs one (a repeated key, a string that may hold JSON) still comes as
    /// a tree.
    Text,
    /// As `Text`, except that a candidate which is strict JSON as written (the model's
    /// text, or the text after lossless repairs; no `\u` escape, within the decoder's
    /// depth) comes back as that text, checked once by the engine's grammar and neither
    /// compacted nor read by serde_json: for a caller that parses it itself, or parses
    /// `text[span]` when the two are the same (the npm package hands it to `JSON.parse`).
    /// Such a value is not looked into for repeated keys or strings that hold JSON, so
    /// those two warnings are not given, and `decode_stringified` needs `Text` or `Tree`.
    Span,
}

/// A test that the caller's contract puts to each candidate value (a JSON Schema, say):
/// among the candidates that parse, the first that passes wins, and one that fails is
/// taken only when none passes.
#[derive(Clone)]
pub struct Acceptor(Arc<dyn Fn(&Value) -> bool + Send + Sync>);

impl Acceptor {
    /// An acceptor from a test of a value.
    pub fn new(test: impl Fn(&Value) -> bool + Send + Sync + 'static) -> Acceptor {
        Acceptor(Arc::new(test))
    }

    /// Whether `value` passes.
    pub fn accepts(&self, value: &Value) -> bool {
        (self.0)(value)
    }
}

impl std::fmt::Debug for Acceptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Acceptor(..)")
    }
}

/// Two acceptors are equal when they are the same test (clones of one another).
impl PartialEq for Acceptor {
    fn eq(&self, other: &Acceptor) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Acceptor {}

/// Extraction options. `Options::default()` is what `jxray check` does with no flags.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The capture's stop reason as the provider spelled it (`length`, `max_tokens`, …).
    pub stop_reason: Option<String>,
    /// Accept a candidate after meaning-changing lenient fixes (contract §4).
    pub accept_lenient: bool,
    /// Which candidate wins when several parse.
    pub pick: Pick,
    /// Deepest nesting accepted before a candidate is `nesting-too-deep`
    /// (at most 127, the decoder's own limit).
    pub max_depth: usize,
    /// Most trace entries kept; the rest are counted in `trace_omitted`.
    pub trace_limit: usize,
    /// Replace strings that hold JSON (`stringified-json`) by the decoded value,
    /// recorded as the repair `decoded-string`.
    pub decode_stringified: bool,
    /// The provider marked the output a refusal (OpenAI `message.refusal`, a Responses
    /// `refusal` part): a `no-json` failure gets the cause `refusal`.
    pub refused: bool,
    /// The form an accepted value comes in.
    pub value_form: ValueForm,
    /// The caller's test of a candidate value (its JSON Schema): the first candidate that
    /// passes wins.
    pub acceptor: Option<Acceptor>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stop_reason: None,
            accept_lenient: false,
            pick: Pick::First,
            max_depth: 127,
            trace_limit: 64,
            decode_stringified: false,
            refused: false,
            value_form: ValueForm::Tree,
            acceptor: None,
        }
    }
}

impl Options {
    /// The capture's stop reason, as the provider spelled it.
    pub fn with_stop_reason(mut self, stop_reason: Option<impl Into<String>>) -> Options {
        self.stop_reason = stop_reason.map(Into::into);
        self
    }

    /// Accept a lenient reading (or not).
    pub fn with_accept_lenient(mut self, accept_lenient: bool) -> Options {
        self.accept_lenient = accept_lenient;
        self
    }

    /// Which candidate wins when several distinct values parse.
    pub fn with_pick(mut self, pick: Pick) -> Options {
        self.pick = pick;
        self
    }

    /// The deepest nesting accepted (capped at the decoder's limit of 127).
    pub fn with_max_depth(mut self, max_depth: usize) -> Options {
        self.max_depth = max_depth;
        self
    }

    /// The most trace entries kept.
    pub fn with_trace_limit(mut self, trace_limit: usize) -> Options {
        self.trace_limit = trace_limit;
        self
    }

    /// Replace strings that hold JSON by their decoded value (or not).
    pub fn with_decode_stringified(mut self, decode_stringified: bool) -> Options {
        self.decode_stringified = decode_stringified;
        self
    }

    /// Whether the provider marked the output a refusal.
    pub fn with_refused(mut self, refused: bool) -> Options {
        self.refused = refused;
        self
    }

    /// The caller's test of a candidate value (see [`Acceptor`]).
    pub fn with_acceptor(mut self, acceptor: Option<Acceptor>) -> Options {
        self.acceptor = acceptor;
        self
    }

    /// The form an accepted value comes in.
    pub fn with_value_form(mut self, value_form: ValueForm) -> Options {
        self.value_form = value_form;
        self
    }
}
