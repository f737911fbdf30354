//! One capture's line of `check --format jsonl` (contract §3): what `toJSON()` and
//! `to_json()` give in the other front ends too. Keys keep the
//! contract's order; keys after `provider` are additions.

use serde::Serialize;
use serde_json::Value;

use crate::Provider;
use jxray_engine::{
    Cause, Defect, DefectAt, FailureKind, JsonText, Layer, Outcome, Repair, StopClass, Warning,
    WarningKind,
};

/// The machine-readable outcome of one capture.
#[derive(Debug, Serialize)]
pub struct OutcomeRecord<'a> {
    pub source: &'a str,
    pub ok: bool,
    pub layer: Option<Layer>,
    /// The decoded value; `null` when nothing was accepted. A `schema` failure
    /// keeps it, so the offending value can be seen.
    pub value: Option<RecordValue<'a>>,
    pub span: Option<[usize; 2]>,
    pub repairs: &'a [Repair],
    pub warnings: Vec<WarningKind>,
    pub failure: Option<FailureRecord<'a>>,
    pub stop_reason: Option<&'a str>,
    pub provider: Option<Provider>,
    /// Added: whether any repair was applied.
    pub repaired: bool,
    /// Added: how the stop reason reads (`complete`, `truncated`, …).
    pub stop: StopClass,
    /// Added: each warning with its offset and message.
    pub warning_details: &'a [Warning],
    /// Added: the model that answered, where the log or envelope names it.
    pub model: Option<&'a str>,
}

/// The decoded value: the tree, or the compact text `check` asked the engine for.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum RecordValue<'a> {
    Tree(&'a Value),
    Text(&'a JsonText),
}

/// Why nothing was accepted, with a 1-based place in the raw text.
#[derive(Debug, Serialize)]
pub struct FailureRecord<'a> {
    pub kind: FailureKind,
    pub defect: Option<Defect>,
    /// Why the output failed beyond its form (`refusal`, `filtered`, `runaway`).
    pub cause: Option<Cause>,
    pub line: usize,
    pub column: usize,
    pub message: &'a str,
    /// Every defect found, in text order; `defect` is the headline one.
    pub defects: &'a [DefectAt],
    /// Added: the byte offset of the place.
    pub offset: usize,
}

/// What the line says of where an outcome came from.
#[derive(Debug, Clone, Copy, Default)]
pub struct Origin<'a> {
    /// Where the capture came from (`dir/a.txt`, `log.jsonl:12`, `response#call-2`).
    pub source: &'a str,
    /// The stop reason exactly as the provider spelled it.
    pub stop_reason: Option<&'a str>,
    pub provider: Option<Provider>,
    /// The model that answered, where the log or envelope names it.
    pub model: Option<&'a str>,
}

impl<'a> OutcomeRecord<'a> {
    /// The line for `outcome`, extracted from the capture `origin` describes.
    pub fn new(origin: Origin<'a>, outcome: &'a Outcome) -> OutcomeRecord<'a> {
        let ok = outcome.ok();
        let is_schema_failure = outcome
            .failure
            .as_ref()
            .is_some_and(|failure| failure.kind == FailureKind::Schema);
        OutcomeRecord {
            source: origin.source,
            ok,
            layer: outcome.layer,
            value: if ok || is_schema_failure {
                (outcome.value.as_ref().map(RecordValue::Tree))
                    .or_else(|| outcome.value_json.as_ref().map(RecordValue::Text))
            } else {
                None
            },
            span: outcome.span.map(|(start, end)| [start, end]),
            repairs: &outcome.repairs,
            warnings: outcome.warning_kinds(),
            failure: outcome.failure.as_ref().map(|failure| FailureRecord {
                kind: failure.kind,
                defect: failure.defect,
                cause: failure.cause,
                line: failure.line,
                column: failure.column,
                message: &failure.message,
                defects: &failure.defects,
                offset: failure.offset,
            }),
            stop_reason: origin.stop_reason,
            provider: origin.provider,
            repaired: !outcome.repairs.is_empty(),
            stop: outcome.stop,
            warning_details: &outcome.warnings,
            model: origin.model,
        }
    }
}
