//! One logical request's repair loop as a small state machine, the same in every language:
//! the attempts made, the tokens and time spent against the budget, when to ask again and
//! with what, why the loop stopped, and the telemetry record it ends with (seed 003's: the
//! raw output only as a digest). The hosts only call `generate`, await it, cancel, emit
//! spans and give the fallback's value.

use jxray_engine::{Layer, Outcome, WarningKind};
use serde::Serialize;
use serde_json::Value;

use super::policy::Decision;
use super::Action;
use crate::usage::token_usage;

/// What one logical request may spend.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Limits {
    /// Repair requests after the first call (`1 + max_repairs` calls in all).
    pub max_repairs: u32,
    /// No repair request once the calls used this many tokens.
    pub max_tokens: Option<f64>,
    /// No repair request once this many milliseconds passed since the first call.
    pub max_ms: Option<f64>,
}

/// The loop between attempts: built by [`Run::new`], told of each judged attempt, asked
/// whether to call, and ended. A host without a Rust object between calls (WebAssembly)
/// carries it as text ([`Run::state`], [`Run::from_state`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub(super) limits: Limits,
    /// The caller's prompt; a repair request is appended to it.
    pub(super) prompt: String,
    /// Each attempt's failure name, in order (see [`failure_name`]).
    pub(super) failures: Vec<Option<String>>,
    pub(super) tokens: f64,
    pub(super) stopped: Option<String>,
    pub(super) last: Option<Last>,
}

/// What the run keeps of the last attempt.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Last {
    pub(super) action: Action,
    pub(super) accepted: bool,
    pub(super) lenient: bool,
    pub(super) raw_output_hash: String,
}

/// How the loop ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ending {
    /// `success` (a value was accepted), `fallback` (the fallback's value) or `failure`.
    pub status: &'static str,
    /// A repair request was made and its answer accepted.
    pub repaired: bool,
    /// The value taken is an accepted lenient reading.
    pub lenient: bool,
    /// Why the loop ended without a value: the policy's action, `max-repairs` or `budget`.
    pub stopped: Option<String>,
    pub telemetry: Telemetry,
}

/// The record a loop ends with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Telemetry {
    pub schema_version: Value,
    pub initial_failure: Option<String>,
    pub repair_failure: Option<String>,
    pub attempt_count: usize,
    pub fallback_kind: Option<String>,
    pub raw_output_hash: Option<String>,
}

impl Run {
    /// A run for `prompt` within `limits`.
    pub fn new(prompt: impl Into<String>, limits: Limits) -> Run {
        Run {
            limits,
            prompt: prompt.into(),
            failures: Vec::new(),
            tokens: 0.0,
            stopped: None,
            last: None,
        }
    }

    /// The attempts judged so far.
    pub fn attempts(&self) -> usize {
        self.failures.len()
    }

    /// Whether another call may be made, `elapsed_ms` after the first began: a repair
    /// request only within the budget (the first call is always made).
    pub fn may_call(&mut self, elapsed_ms: f64) -> bool {
        if self.failures.is_empty() {
            return true;
        }
        let over = |limit: Option<f64>, spent: f64| limit.is_some_and(|limit| spent >= limit);
        if over(self.limits.max_tokens, self.tokens) || over(self.limits.max_ms, elapsed_ms) {
            self.stopped = Some("budget".to_owned());
            return false;
        }
        true
    }

    /// Take one judged attempt (its outcome, the decision about it, and the call's usage in
    /// any provider's spelling); the next request's text when the loop asks again.
    pub fn took(
        &mut self,
        outcome: &Outcome,
        decision: &Decision,
        usage: &Value,
    ) -> Option<String> {
        self.tokens += token_usage(usage).total.unwrap_or(0) as f64;
        self.failures.push(failure_name(outcome));
        let accepted = outcome.ok() && decision.action == Action::Accept;
        self.last = Some(Last {
            action: decision.action,
            accepted,
            lenient: accepted && outcome.layer == Some(Layer::Lenient),
            raw_output_hash: decision.raw_output_hash.clone(),
        });
        let stop = match decision.action {
            Action::Accept => return None,
            Action::Repair if self.attempts() > self.limits.max_repairs as usize => "max-repairs",
            Action::Repair => {
                let request = decision.prompt.as_deref().unwrap_or_default();
                return Some(format!("{}\n\n{request}", self.prompt));
            }
            other => other.as_str(),
        };
        self.stopped = Some(stop.to_owned());
        None
    }

    /// How the loop ended, with a fallback of `fallback_kind` (`function`, `value` or the
    /// caller's name for it) when the caller gave one, and the caller's schema version.
    pub fn end(&self, fallback_kind: Option<&str>, schema_version: Value) -> Ending {
        let accepted = self.last.as_ref().is_some_and(|last| last.accepted);
        let fallback_kind = fallback_kind.filter(|_| !accepted).map(str::to_owned);
        let status = match (accepted, &fallback_kind) {
            (true, _) => "success",
            (false, Some(_)) => "fallback",
            (false, None) => "failure",
        };
        let repair_failure = match self.failures.as_slice() {
            [_, .., last] => last.clone(),
            _ => None,
        };
        Ending {
            status,
            repaired: accepted && self.attempts() > 1,
            lenient: self.last.as_ref().is_some_and(|last| last.lenient),
            stopped: if accepted { None } else { self.stopped.clone() },
            telemetry: Telemetry {
                schema_version,
                initial_failure: self.failures.first().cloned().flatten(),
                repair_failure,
                attempt_count: self.attempts(),
                fallback_kind,
                raw_output_hash: self.last.as_ref().map(|last| last.raw_output_hash.clone()),
            },
        }
    }
}

/// The telemetry's name for how an attempt failed: its failure's kind, `tool-call-text`
/// for the accepted body of a tool call written as text, `None` for a value taken.
pub fn failure_name(outcome: &Outcome) -> Option<String> {
    if let Some(failure) = outcome.failure.as_ref().filter(|_| !outcome.ok()) {
        return Some(failure.kind.as_str().to_owned());
    }
    let tool_call = outcome
        .warnings
        .iter()
        .any(|warning| warning.kind == WarningKind::ToolCallText);
    tool_call.then(|| "tool-call-text".to_owned())
}
