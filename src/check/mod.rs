//! How one capture is judged, in one place: the engine run with the capture's stop
//! reason, refusal mark and loader warnings, the schema it is checked against (`--schema`
//! when given, else the one its log recorded), and the one guard that turns a panic into
//! that capture's failure. `check`, `extract`, `compare`, fixture replay, the workbench and
//! the Python package all judge through a [`Checker`], so they cannot disagree; and
//! [`captures_under`] is what they read under a path.
//!
//! A change to how one capture is judged (a second schema source, a per-capture option,
//! the panic policy) goes here.

mod early;
mod jobs;
mod serving;

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use crate::capture::{Capture, Unreadable};
use crate::chain::ChainState;
use crate::engine::{Options, Outcome, ValueForm};
use crate::schema::{CaptureSchemas, Schema};
use jxray_formats::judge::{self, Judgement, Reading, Validator};
use jxray_formats::record::{Origin, OutcomeRecord};
use jxray_formats::violation::{self, Violation};

pub use early::EarlySignal;
pub(crate) use early::{first_in, percent};
pub use jobs::{captures_under, skipped_note, Found};

/// One capture and what extraction (and the schema, if any) said about it.
#[derive(Debug, Clone)]
pub struct Checked {
    pub capture: Capture,
    pub outcome: Outcome,
    /// How its value breaks the schema, when that made it a `schema` failure (a repair
    /// request names them; nobody asks the validator again).
    pub violations: Vec<Violation>,
    /// What the request file beside its file says of repair chains, when there is one
    /// (read for captures read from disk; see [`crate::chain`]).
    pub chain: Option<Arc<ChainState>>,
    /// For a saved stream: the first signal worth stopping for, and where it came.
    pub early: Option<EarlySignal>,
}

impl Checked {
    /// Its line of `check --format jsonl`.
    pub fn record(&self) -> OutcomeRecord<'_> {
        let capture = &self.capture;
        let origin = Origin {
            source: &capture.source,
            stop_reason: capture.stop_reason.as_deref(),
            provider: capture.provider,
            model: capture.model.as_deref(),
        };
        OutcomeRecord::new(origin, &self.outcome)
    }
}

/// What a capture becomes when reading or judging it panicked (a bug in jxray).
pub(crate) const PANICKED: &str =
    "internal error: reading or extracting panicked on this capture; \
                            please report it with the capture attached";

/// The engine options, the schema given (if any) and the schemas captures carry, ready to
/// judge any number of captures from any number of threads.
#[derive(Debug, Clone)]
pub struct Checker {
    options: Options,
    /// `options` with the value kept as compact text: for reports that never read the
    /// tree, used for captures no schema reads.
    text_options: Option<Options>,
    schema: Option<Arc<Schema>>,
    /// Compiled once, shared by every clone of this checker.
    recorded: Arc<CaptureSchemas>,
}

impl Checker {
    /// Judge with `options`, against `schema` when given (else a capture's recorded one).
    pub fn new(options: Options, schema: Option<Arc<Schema>>) -> Checker {
        Checker {
            options,
            text_options: None,
            schema,
            recorded: Arc::default(),
        }
    }

    /// The same checker for a caller that reads values from their compact JSON text only
    /// (a report that writes them out, a binding that converts them itself): no tree is
    /// built for a capture unless a schema reads it.
    pub fn writing_values_as_text(mut self) -> Checker {
        if self.schema.is_none() {
            let text = self.options.clone().with_value_form(ValueForm::Text);
            self.text_options = Some(text);
        }
        self
    }

    /// The same schemas (and their compiled cache) with other engine options.
    pub(crate) fn with_options(&self, options: Options) -> Checker {
        Checker {
            options,
            text_options: None,
            schema: self.schema.clone(),
            recorded: Arc::clone(&self.recorded),
        }
    }

    /// The schema given with `--schema` (or its equivalent), if any.
    pub fn schema(&self) -> Option<&Arc<Schema>> {
        self.schema.as_ref()
    }

    /// The schemas captures carry, compiled once: what the workbench shows violations of.
    pub(crate) fn recorded_schemas(&self) -> &CaptureSchemas {
        &self.recorded
    }

    /// Judge `capture`; a panic is this capture's failure, never the caller's.
    pub fn check(&self, capture: Capture) -> Checked {
        let Judgement {
            outcome,
            violations,
        } = self.judgement(&capture);
        let early = early::first_signal(&capture, &self.options);
        Checked {
            capture,
            outcome,
            violations,
            chain: None,
            early,
        }
    }

    /// What `capture` comes out as: the first candidate that validates against its schema
    /// wins, and a value that still breaks the schema is a `schema` failure.
    pub fn outcome(&self, capture: &Capture) -> Outcome {
        self.judgement(capture).outcome
    }

    /// [`Checker::outcome`] and the violations that made it a `schema` failure.
    pub fn judgement(&self, capture: &Capture) -> Judgement {
        let unreadable = |message: String| Judgement {
            outcome: Outcome::unreadable(message),
            violations: Vec::new(),
        };
        match &capture.text {
            Err(why) => unreadable(why.message.clone()),
            Ok(text) => self
                .judge(capture, text, judge::judge)
                .unwrap_or_else(|| unreadable(PANICKED.to_owned())),
        }
    }

    /// [`Checker::judgement`] when the engine accepts a value (checked against the schema,
    /// so it may be a `schema` failure); `None` when extraction would fail, decided without
    /// explaining it (see [`crate::engine::extract_accepted`]), or when it panicked.
    pub fn accepted(&self, capture: &Capture) -> Option<Judgement> {
        let text = capture.text.as_ref().ok()?;
        self.judge(capture, text, judge::judge_accepted).flatten()
    }

    /// `run` on the text with the capture's stop reason, refusal mark, loader warnings,
    /// serving-layer notes and schema (see [`judge`]); `None` when it panicked.
    fn judge<T>(&self, capture: &Capture, text: &str, run: Judge<T>) -> Option<T> {
        let chosen = self.recorded.chosen(self.schema.as_ref(), capture);
        let base = match (&self.text_options, &capture.schema) {
            (Some(text_options), None) => text_options,
            _ => &self.options,
        };
        let validator: Option<Arc<dyn Validator>> = match &chosen {
            Some(Ok(schema)) => Some(Arc::clone(schema) as Arc<dyn Validator>),
            _ => None,
        };
        let notes = |options: &Options, outcome: &mut Outcome| {
            serving::note_serving(capture, text, options, outcome);
            // A recorded schema that cannot be used fails the value it would have judged.
            if let (Some(Err(why)), true) = (&chosen, outcome.ok()) {
                outcome.failure = Some(violation::failure(0, (1, 1), why.clone()));
            }
        };
        let reading = Reading {
            stop_reason: capture.stop_reason.as_deref(),
            refused: capture.refused,
            warnings: &capture.warnings,
            notes: Some(&notes),
        };
        let judged = panic::catch_unwind(AssertUnwindSafe(|| {
            run(text, base, &reading, validator.as_ref())
        }));
        // A schema's validation never fails on its own (only a host's answer can).
        judged.ok()?.ok()
    }
}

/// [`judge::judge`] or [`judge::judge_accepted`], each giving its outcome.
type Judge<T> = fn(&str, &Options, &Reading<'_>, Option<&Arc<dyn Validator>>) -> Result<T, String>;

/// A capture standing for one whose reading panicked (a bug in jxray), named as it was.
pub(crate) fn panicked(source: String, path: std::path::PathBuf, line: Option<usize>) -> Checked {
    Checked {
        capture: Capture {
            path,
            line,
            text: Err(Unreadable::new(PANICKED)),
            ..Capture::from_text(source, "")
        },
        outcome: Outcome::unreadable(PANICKED),
        violations: Vec::new(),
        chain: None,
        early: None,
    }
}
