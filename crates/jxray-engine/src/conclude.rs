//! Turning the layers' verdicts into an outcome: acceptance and its warnings,
//! or the most specific failure, its lenient reading and the stop reason's say.

use super::candidate::{Parsed, Rejection};
use super::decode::locate_duplicates;
use super::extract::{Extraction, Win};
use super::lenient;
use super::outcome::*;
use super::position::line_col;

impl Extraction<'_> {
    pub(super) fn finish(mut self, win: Option<Win>, stop: StopClass) -> Outcome {
        if stop == StopClass::Unknown {
            let spelled = self.options.stop_reason.clone().unwrap_or_default();
            self.warnings.push(Warning {
                kind: WarningKind::StopReasonUnknown,
                offset: None,
                message: format!("stop reason `{spelled}` is not one jxray knows; truncation is judged from the text alone"),
            });
        }
        let mut outcome = Outcome {
            stop,
            ..Outcome::default()
        };
        match win {
            Some(win) if stop != StopClass::Truncated => {
                // Warnings about the fallback fragment only matter if it was not the answer.
                self.accept(&mut outcome, win);
            }
            Some(win) => {
                self.trace.set_verdict(
                    win.entry.slot,
                    Verdict::Passed {
                        reason: "the stop reason says the output was cut off".to_owned(),
                    },
                );
                outcome.failure = Some(self.stop_truncation());
            }
            None if stop == StopClass::Truncated => outcome.failure = Some(self.stop_truncation()),
            None => self.fail(&mut outcome, stop),
        }
        outcome.warnings = self.warnings;
        let (trace, omitted) = self.trace.finish();
        outcome.trace = trace;
        outcome.trace_omitted = omitted;
        outcome
    }

    pub(super) fn accept(&mut self, outcome: &mut Outcome, win: Win) {
        let Parsed {
            value,
            span,
            repairs,
            repaired,
            duplicate_keys,
        } = win.entry.parsed;
        self.warnings.extend(self.passed_over.take());
        if win.several_distinct {
            let policy = self.options.pick.as_str();
            self.warnings.push(Warning {
                kind: WarningKind::MultipleCandidates,
                offset: Some(span.0),
                message: format!("more than one distinct JSON value parsed; the {policy} one was taken (see the trace)"),
            });
        }
        if duplicate_keys {
            self.note_duplicates(span);
        }
        let outer_end = win.entry.outer_end;
        let after = &self.text.as_bytes()[outer_end.min(self.text.len())..];
        if let Some(at) = after.iter().position(|b| !b.is_ascii_whitespace()) {
            let offset = outer_end + at;
            if !self.in_think_block(offset) {
                let place = self.locate(offset);
                self.warnings.push(Warning {
                    kind: WarningKind::TrailingProse,
                    offset: Some(offset),
                    message: format!("text follows the value, from {place}"),
                });
            }
        }
        outcome.layer = Some(win.layer);
        outcome.value = Some(value);
        outcome.span = Some(span);
        outcome.repairs = repairs;
        outcome.repaired = repaired;
    }

    pub(super) fn note_duplicates(&mut self, span: (usize, usize)) {
        for duplicate in locate_duplicates(&self.text[span.0..span.1], span.0) {
            let place = self.locate(duplicate.offset);
            self.warnings.push(Warning {
                kind: WarningKind::DuplicateKey,
                offset: Some(duplicate.offset),
                message: format!(
                    "key `{}` repeats in {} at {place}; the last value was kept",
                    duplicate.key, duplicate.path
                ),
            });
        }
    }

    pub(super) fn stop_truncation(&mut self) -> Failure {
        let spelled = self.options.stop_reason.clone().unwrap_or_default();
        let offset = self.text.len();
        let (line, column) = line_col(self.text, offset);
        Failure {
            kind: FailureKind::Truncated,
            defect: None,
            offset,
            line,
            column,
            message: format!(
                "the stop reason `{spelled}` says the output hit its length limit; raise the token limit or shrink the request"
            ),
            cause: None,
            defects: Vec::new(),
        }
    }

    pub(super) fn fail(&mut self, outcome: &mut Outcome, stop: StopClass) {
        let Some(rejection) = self.failure.take() else {
            let message = if self.text.trim().is_empty() {
                "the output is empty; check that the request produced text".to_owned()
            } else {
                "no JSON object or array in the output (outside reasoning blocks and code in other languages); the prompt may have lost its format instruction".to_owned()
            };
            outcome.failure = Some(Failure {
                kind: FailureKind::NoJson,
                defect: None,
                offset: 0,
                line: 1,
                column: 1,
                message,
                cause: None,
                defects: Vec::new(),
            });
            return;
        };
        if rejection.kind == FailureKind::Truncated
            && matches!(
                stop,
                StopClass::Complete | StopClass::Filtered | StopClass::ToolCall
            )
        {
            let spelled = self.options.stop_reason.clone().unwrap_or_default();
            self.warnings.push(Warning {
                kind: WarningKind::UnsignalledTruncation,
                offset: Some(rejection.offset),
                message: format!(
                    "the stop reason `{spelled}` says the model finished, but the text ends mid-value; an adapter may have masked the real stop reason"
                ),
            });
        }
        if rejection.kind == FailureKind::Invalid {
            let reading = self.lenient_reading(&rejection);
            if let Some(reading) = reading {
                if reading.accepted {
                    outcome.layer = Some(Layer::Lenient);
                    outcome.value = reading.value.clone();
                    outcome.span = Some(reading.span);
                    outcome.repairs = reading.repairs.clone();
                    outcome.repaired = Some(reading.text.clone());
                    outcome.lenient = Some(reading);
                    return;
                }
                outcome.lenient = Some(reading);
            }
        }
        let (line, column) = line_col(self.text, rejection.offset);
        let (defect, message) = rejection.explain(self.text, self.max_depth);
        let mut defects: Vec<DefectAt> = defect
            .map(|kind| DefectAt {
                kind,
                offset: rejection.offset,
                line,
                column,
                message: message.clone(),
            })
            .into_iter()
            .collect();
        if let Some(reading) = &outcome.lenient {
            defects = self.with_lenient_defects(defects, &reading.repairs);
        }
        outcome.failure = Some(Failure {
            kind: rejection.kind,
            defect,
            offset: rejection.offset,
            line,
            column,
            message,
            cause: None,
            defects,
        });
    }

    /// The headline, and every other kind of defect the lenient reading
    /// fixed (at its first place), in text order.
    fn with_lenient_defects(&self, headline: Vec<DefectAt>, repairs: &[Repair]) -> Vec<DefectAt> {
        let mut defects = headline;
        let others: Vec<DefectAt> = lenient::defects_of(repairs)
            .into_iter()
            .filter(|(kind, _)| !defects.iter().any(|d| d.kind == *kind))
            .map(|(kind, offset)| {
                let (line, column) = line_col(self.text, offset);
                DefectAt {
                    kind,
                    offset,
                    line,
                    column,
                    message: lenient::advice(kind).to_owned(),
                }
            })
            .collect();
        defects.extend(others);
        defects.sort_by_key(|d| d.offset);
        defects
    }

    pub(super) fn lenient_reading(&mut self, rejection: &Rejection) -> Option<LenientReading> {
        let rewritten = lenient::read(self.text, rejection.start, rejection.limit);
        if rewritten
            .repairs
            .iter()
            .all(|repair| repair.kind.is_lossless())
        {
            // Nothing a lenient reading may fix: it would say what the failure says.
            return None;
        }
        let span = (rewritten.start, rewritten.end);
        let parsed = match &rewritten.refused {
            Some(refusal) => Err(format!(
                "no lenient reading: {} at {}",
                refusal.reason,
                self.locate(refusal.offset)
            )),
            None => super::decode::decode(&rewritten.text).map_err(|e| e.to_string()),
        };
        let accepted = parsed.is_ok() && self.options.accept_lenient;
        let (value, error) = match parsed {
            Ok((value, _)) => (Some(value), None),
            Err(error) => (None, Some(error)),
        };
        let label = || "lenient reading of the best candidate".to_owned();
        let verdict = match &error {
            None if accepted => Verdict::Accepted,
            None => Verdict::Passed {
                reason: "lenient acceptance is off".to_owned(),
            },
            Some(message) => Verdict::Rejected {
                kind: FailureKind::Invalid,
                defect: rejection.explain(self.text, self.max_depth).0,
                offset: rejection.offset,
                message: format!("still not JSON after lenient fixes: {message}"),
            },
        };
        self.trace.push(Layer::Lenient, span, label, verdict);
        Some(LenientReading {
            span,
            text: rewritten.text,
            repairs: rewritten.repairs,
            value,
            error,
            accepted,
        })
    }
}
