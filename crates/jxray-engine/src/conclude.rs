//! Turning the layers' verdicts into an outcome: acceptance and its warnings,
//! or the most specific failure, its lenient reading and the stop reason's say.

use serde_json::Value;

use super::candidate::{Finished, Parsed, Rejection};
use super::causes::{runaway, runaway_advice, stop_cause};
use super::decode::locate_duplicates;
use super::defects::all_defects;
use super::extract::{Extraction, Win};
use super::form::Decoded;
use super::fragment::is_template_braced;
use super::lenient;
use super::outcome::*;
use super::position::line_col;
use super::refusal::is_refusal;
use super::scan::{scan_value, ScanEnd};
use super::stringified::{decode_stringified, find_stringified};
use super::trace::Trace;

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
                outcome.failure = Some(self.stop_truncation(true));
            }
            None if stop == StopClass::Truncated => {
                let wrote_json = self.failure.is_some();
                outcome.failure = Some(self.stop_truncation(wrote_json));
            }
            None => self.fail(&mut outcome, stop),
        }
        let trace = std::mem::replace(&mut self.trace, Trace::new(0));
        let (trace, omitted) = trace.finish(|rejection| self.rejected_verdict(rejection));
        outcome.trace = trace;
        outcome.trace_omitted = omitted;
        outcome.warnings = self.warnings;
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
        self.warnings.extend(win.entry.remark);
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
        let mut outer_end = win.entry.outer_end;
        if is_template_braced(self.text.as_bytes(), span.0, span.1) {
            outer_end = outer_end.max(span.1 + 1);
            self.warnings.push(Warning {
                kind: WarningKind::TemplateBraces,
                offset: Some(span.0 - 1),
                message: "the value sits inside doubled {{…}} braces: a prompt template's escaping leaked into the output; render the template before sending it".to_owned(),
            });
        }
        // A schema document is a JSON Schema too: one found to be none when pooled is neither.
        if !win.not_a_schema {
            self.note_schema_returned(&value, span.0);
        }
        if win.layer != Layer::Direct {
            if let Some((call, end)) = self.note_tool_call_body(span, &value, outer_end) {
                outer_end = end;
                outcome.tool_call = Some(call);
            }
        }
        let mut repairs = repairs;
        match value {
            Decoded::Tree(mut value) => {
                self.note_stringified(&mut value, &mut repairs, span.0);
                outcome.value = Some(value);
            }
            // Compact text holds no string shaped like JSON (it would have been a tree).
            Decoded::Text(json) => outcome.value_json = Some(json),
        }
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
        outcome.span = Some(span);
        outcome.repairs = repairs;
        outcome.repaired = repaired;
    }

    /// Warn about strings holding JSON; with `decode_stringified`, decode them.
    fn note_stringified(&mut self, value: &mut Value, repairs: &mut Vec<Repair>, at: usize) {
        let found = find_stringified(value);
        if found.is_empty() {
            return;
        }
        for item in &found {
            let what = if item.decoded.is_array() {
                "an array"
            } else {
                "an object"
            };
            self.warnings.push(Warning {
                kind: WarningKind::StringifiedJson,
                offset: Some(at),
                message: format!(
                    "the string at {} holds {what} encoded as JSON text (double-encoded); decode it, or ask the model for the value itself",
                    item.path
                ),
            });
        }
        if self.options.decode_stringified {
            for _ in decode_stringified(value) {
                repairs.push(Repair {
                    kind: RepairKind::DecodedString,
                    offset: at,
                });
            }
        }
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

    /// The stop reason says the length limit was hit; `wrote_json` says whether any JSON
    /// candidate was written before it.
    pub(super) fn stop_truncation(&mut self, wrote_json: bool) -> Failure {
        let spelled = self.options.stop_reason.clone().unwrap_or_default();
        let offset = self.text.len();
        let (line, column) = line_col(self.text, offset);
        let mut failure = Failure {
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
        };
        if !wrote_json || self.reasoning_open.is_some() {
            self.note_reasoning(&mut failure);
        }
        self.note_runaway(&mut failure);
        failure
    }

    /// The output hit its limit while reasoning (or before any JSON): the budget went to
    /// thinking, so the answer was never written.
    fn note_reasoning(&self, failure: &mut Failure) {
        let offset = self.text.len();
        let (line, column) = line_col(self.text, offset);
        *failure = Failure::new(FailureKind::Truncated, offset, (line, column), "")
            .with_cause(Some(Cause::Reasoning));
        failure.message = match self.reasoning_open {
            Some(open) => {
                let (line, column) = line_col(self.text, open);
                format!(
                    "the output ends inside its reasoning block (opened at line {line}, column {column}): the model spent \
                     its token budget reasoning and never wrote the answer; raise the token limit or lower the reasoning \
                     effort (a format instruction will not help)"
                )
            }
            None => {
                let spelled = self.options.stop_reason.clone().unwrap_or_default();
                format!(
                    "the stop reason `{spelled}` says the output hit its length limit before any JSON was written: the budget \
                     went to reasoning or preamble; raise the token limit or lower the reasoning effort"
                )
            }
        };
    }

    /// A truncation after a flood of white space or one repeated token: a loop, not a long answer.
    fn note_runaway(&self, failure: &mut Failure) {
        if failure.kind != FailureKind::Truncated {
            return;
        }
        if let Some(kind) = runaway(self.text) {
            failure.cause = Some(Cause::Runaway);
            failure.message = runaway_advice(kind, self.text);
        }
    }

    pub(super) fn fail(&mut self, outcome: &mut Outcome, stop: StopClass) {
        self.build_failure(outcome, stop);
        if let Some(failure) = outcome.failure.as_mut() {
            if self.reasoning_open.is_some() {
                // No answer outside reasoning, and the text ends inside it: cut off thinking.
                self.note_reasoning(failure);
                outcome.lenient = None;
            }
            if failure.cause.is_none() {
                self.note_runaway(failure);
            }
            self.note_cause(failure);
        }
    }

    /// Refusal and filter causes: a format instruction will not fix these.
    fn note_cause(&self, failure: &mut Failure) {
        let spelled = self.options.stop_reason.as_deref();
        // Only a `no-json` failure can be a refusal: the text is read for one only then.
        let cause = stop_cause(spelled).or_else(|| {
            let declined = failure.kind == FailureKind::NoJson
                && (self.options.refused || is_refusal(self.text));
            declined.then_some(Cause::Refusal)
        });
        let Some(cause) = cause else { return };
        if failure.cause.is_some() {
            return;
        }
        failure.cause = Some(cause);
        let spelled = spelled.unwrap_or_default();
        if failure.kind == FailureKind::NoJson {
            failure.message = match cause {
                Cause::Refusal if !spelled.is_empty() => format!(
                    "the model declined (stop reason `{spelled}`); a format instruction will not fix a refusal: change the request"
                ),
                Cause::Refusal => "the model declined: the output is a refusal, not an answer; a format instruction will not fix it: change the request".to_owned(),
                _ => format!(
                    "the provider blocked the output (stop reason `{spelled}`); this is a content filter, not a format problem: change the request or its safety settings"
                ),
            };
        }
    }

    fn build_failure(&mut self, outcome: &mut Outcome, stop: StopClass) {
        if let Some((failure, call)) = self.tool_call_failure() {
            outcome.failure = Some(failure);
            outcome.tool_call = Some(call);
            return;
        }
        let rejection = match self.failure.take() {
            Some(rejection) if rejection.kind == FailureKind::Truncated => Some(rejection),
            held => self.missing_start().or(held),
        };
        let Some(mut rejection) = rejection else {
            outcome.failure = Some(self.no_json());
            return;
        };
        if rejection.kind == FailureKind::Truncated
            && rejection.closable()
            && stop == StopClass::Complete
        {
            // Only closers are missing, and the model says it finished: left open, not cut off.
            let spelled = self.options.stop_reason.clone().unwrap_or_default();
            rejection = rejection.finished(Finished::StopReason(spelled));
        }
        if rejection.kind == FailureKind::Truncated
            && matches!(
                stop,
                StopClass::Complete | StopClass::Filtered | StopClass::ToolCall
            )
        {
            self.note_unsignalled_truncation(&rejection);
        }
        let mut fixes = Vec::new();
        let mut cut_after_defects = false;
        if rejection.kind == FailureKind::Invalid {
            if let Some(reading) = self.lenient_reading(&rejection) {
                fixes = reading.repairs.clone();
                cut_after_defects =
                    reading.value.is_none() && self.cut_off_after(&rejection, &reading);
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
        let mut failure = self.failure_of(&rejection, &fixes);
        if cut_after_defects {
            self.headline_the_cut(&mut failure);
        }
        outcome.failure = Some(failure);
        self.note_failed_call_body(outcome, rejection.start);
    }

    /// No candidate at all.
    fn no_json(&self) -> Failure {
        let message = if self.text.trim().is_empty() {
            "the output is empty; check that the request produced text"
        } else {
            "no JSON object or array in the output (outside reasoning blocks and code in other languages); the prompt may have lost its format instruction"
        };
        Failure::new(FailureKind::NoJson, 0, (1, 1), message)
    }

    fn note_unsignalled_truncation(&mut self, rejection: &Rejection) {
        let spelled = self.options.stop_reason.clone().unwrap_or_default();
        self.warnings.push(Warning::new(
            WarningKind::UnsignalledTruncation,
            Some(rejection.offset),
            format!(
                "the stop reason `{spelled}` says the model finished, but the text ends mid-value; an adapter may have masked the real stop reason"
            ),
        ));
    }

    /// The failure a rejection stands for, with every defect found (the lenient `fixes`
    /// name the ones after the first).
    fn failure_of(&self, rejection: &Rejection, fixes: &[Repair]) -> Failure {
        let (line, column) = line_col(self.text, rejection.offset);
        let (defect, message) = rejection.explain(self.text, self.max_depth);
        let headline = defect
            .map(|kind| DefectAt::new(kind, rejection.offset, (line, column), message.clone()));
        let defects = all_defects(self.text, headline, fixes);
        Failure::new(rejection.kind, rejection.offset, (line, column), message)
            .with_defect(defect)
            .with_defects(defects)
    }

    /// Defects and a cut: the cut is the headline (no prompt fix completes a cut-off
    /// value); the defects stay listed for the re-prompt.
    fn headline_the_cut(&self, failure: &mut Failure) {
        let offset = self.text.len();
        let (line, column) = line_col(self.text, offset);
        let names: Vec<&str> = failure.defects.iter().map(|d| d.kind.as_str()).collect();
        failure.kind = FailureKind::Truncated;
        failure.defect = None;
        failure.offset = offset;
        failure.line = line;
        failure.column = column;
        failure.message = format!(
            "the output ends inside an open value: it was cut off; raise the token limit or shrink the request \
             (it also has {}: {})",
            if names.len() == 1 { "a defect" } else { "defects" },
            names.join(", ")
        );
    }

    /// Whether a candidate with defects is also cut off: its lenient reading
    /// still ends inside an open value at the end of the text, and the raw
    /// text never closes the brackets it opened.
    fn cut_off_after(&self, rejection: &Rejection, reading: &LenientReading) -> bool {
        if reading.span.1 < self.text.len() || rejection.limit < self.text.len() {
            return false;
        }
        let bytes = reading.text.as_bytes();
        let scan = scan_value(bytes, 0, bytes.len(), self.max_depth, None);
        if !matches!(scan.end, ScanEnd::Truncated { .. }) {
            return false;
        }
        let raw = &self.text.as_bytes()[rejection.start..];
        let depth: i64 = raw
            .iter()
            .map(|b| match b {
                b'{' | b'[' => 1,
                b'}' | b']' => -1,
                _ => 0,
            })
            .sum();
        depth > 0
    }

    pub(super) fn lenient_reading(&mut self, rejection: &Rejection) -> Option<LenientReading> {
        let rewritten = if rejection.is_unclosed() {
            lenient::rewrite_closing(self.text, rejection.start, rejection.limit)
        } else {
            lenient::read(self.text, rejection.start, rejection.limit)
        };
        let guessed = rewritten.refused.as_ref().is_some_and(|r| r.guess);
        if !guessed
            && rewritten
                .repairs
                .iter()
                .all(|repair| repair.kind.is_lossless())
        {
            // Nothing a lenient reading may fix: it would say what the failure says. (A
            // guess refused is shown: it says which readings were possible.)
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
