//! The repair loop, the same in every language (contract §6): whether a failed outcome is
//! worth one repair request ([`action`]), the text of that request ([`repair_prompt`]), a
//! caller's [`Policy`] and its [`Decision`] about one output, and the loop's bookkeeping
//! ([`Run`]: attempts, budget, when to stop, the telemetry record). The loops themselves
//! (`jxray.repair` in Python, `repair` in TypeScript) call the model; these decide, word
//! and count.

mod advice;
mod markers;
mod policy;
mod prompt;
mod run;
mod state;

use jxray_engine::{Cause, FailureKind, Outcome};
use serde::Serialize;

pub use markers::{quoted_reply, QuotedReply};
pub use policy::{digest, required_keys, Decision, Policy};
pub use prompt::{repair_prompt, RepairRequest, DEFAULT_MAX_OUTPUT_CHARS, OPENING};
pub use run::{failure_name, Ending, Limits, Run, Telemetry};

/// What to do about an outcome before paying for another call.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// The outcome is ok: take the value.
    Accept,
    /// One repair request naming the failure (`invalid`, `no-json` without a cause, `schema`).
    Repair,
    /// The output was cut off: raise the token limit or shrink the request. A re-ask is cut
    /// at the same place.
    RaiseLimit,
    /// A refusal, a filtered output or a runaway: change the request; a format instruction
    /// will not fix it.
    ChangeRequest,
    /// A tool call written as text: the serving layer did not parse it; fix its tool parser.
    FixServing,
    /// The text could not be read: fix how it is captured.
    FixCapture,
}

impl Action {
    /// Its name in the override tables and the telemetry (`repair`, `raise-limit`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Accept => "accept",
            Action::Repair => "repair",
            Action::RaiseLimit => "raise-limit",
            Action::ChangeRequest => "change-request",
            Action::FixServing => "fix-serving",
            Action::FixCapture => "fix-capture",
        }
    }

    /// The action a name stands for, as a caller's override table spells it.
    pub fn from_name(name: &str) -> Option<Action> {
        [
            Action::Accept,
            Action::Repair,
            Action::RaiseLimit,
            Action::ChangeRequest,
            Action::FixServing,
            Action::FixCapture,
        ]
        .into_iter()
        .find(|action| action.as_str() == name)
    }
}

/// The policy (contract §6): `invalid`, `no-json` without a cause and `schema` are worth one
/// repair request; `truncated` (any cause), a refusal, a filtered output, a runaway and a
/// tool call written as text each name their own fix; `unreadable` is the capture's.
///
/// A tool call written as text is the serving layer's to fix whether its JSON body was
/// accepted (the warning), failed a schema, or had no body (the cause): its body is the
/// call's arguments, never the answer, and a re-ask is parsed by the same serving layer.
pub fn action(outcome: &Outcome) -> Action {
    if outcome.tool_call.is_some() {
        return Action::FixServing;
    }
    let Some(failure) = outcome.failure.as_ref().filter(|_| !outcome.ok()) else {
        return Action::Accept;
    };
    match (failure.kind, failure.cause) {
        (FailureKind::Truncated, _) => Action::RaiseLimit,
        (FailureKind::Unreadable, _) => Action::FixCapture,
        (_, Some(Cause::ToolCallText)) => Action::FixServing,
        (_, Some(Cause::Refusal | Cause::Filtered | Cause::Runaway)) => Action::ChangeRequest,
        (_, Some(Cause::Reasoning)) => Action::RaiseLimit,
        (FailureKind::Invalid | FailureKind::NoJson | FailureKind::Schema, _) => Action::Repair,
        // A kind added later is not paid for until the policy names it.
        _ => Action::ChangeRequest,
    }
}

/// [`action`], with a caller's table first: a failure is looked up by its cause when it has
/// one, else by its kind (`{"no-json": "change-request", "refusal": "repair"}`), so an entry
/// for `no-json` does not reach a refusal. A tool call written as text is looked up as
/// `tool-call-text`, whether it failed or its body was accepted.
pub fn action_with(outcome: &Outcome, overrides: &[(String, Action)]) -> Action {
    let failure = outcome.failure.as_ref().filter(|_| !outcome.ok());
    let name = match failure {
        _ if outcome.tool_call.is_some() => Cause::ToolCallText.as_str(),
        Some(failure) => failure.cause.map_or(failure.kind.as_str(), Cause::as_str),
        None => return Action::Accept,
    };
    overrides
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, action)| *action)
        .unwrap_or_else(|| action(outcome))
}
