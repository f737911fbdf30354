//! The trace's entries: each candidate looked at, and what happened to it.

use serde::{Deserialize, Serialize};

use super::{Defect, FailureKind, Layer};

/// What happened to one candidate that extraction looked at.
///
/// Exhaustive on purpose: these four are what a trace can say of a candidate, and a client
/// that renders a trace should hear of a fifth at compile time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// This candidate's value is the outcome's value.
    Accepted,
    /// Valid JSON, but another candidate was picked.
    Passed {
        /// Why another candidate won.
        reason: String,
    },
    /// Not JSON, or not a whole value.
    Rejected {
        /// The failure this candidate gave.
        kind: FailureKind,
        /// Its headline defect, when `invalid`.
        defect: Option<Defect>,
        /// Byte offset of the problem in the raw text.
        offset: usize,
        /// What is wrong with it.
        message: String,
    },
    /// Not tried, and why (a fence tagged `python`, a fragment of a larger value).
    Skipped {
        /// Why it was not tried.
        reason: String,
    },
}

/// One entry of the trace: a candidate, its layer and span, and its verdict.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The layer that looked at the candidate.
    pub layer: Layer,
    /// `[start, end)` byte offsets of the candidate in the raw text.
    pub span: (usize, usize),
    /// What the candidate is, for people: "fence tagged json at line 3".
    pub label: String,
    /// What happened to it.
    #[serde(flatten)]
    pub verdict: Verdict,
}
