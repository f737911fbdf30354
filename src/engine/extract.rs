//! The layers, cheapest first, and the outcome they add up to.

use super::candidate::{judge_at, judge_exact, trim_span, Judged, Parsed, Rejection};
use super::decode::{locate_duplicates, DECODER_DEPTH_LIMIT};
use super::extent::Depths;
use super::fence::{find_fences, Fence};
use super::lenient;
use super::options::Options;
use super::outcome::*;
use super::position::{line_col, LineCursor};
use super::scan::OffsetSet;
use super::select::{Entry, Pool, Winner};
use super::stop::classify_stop_reason;
use super::think::find_think_blocks;
use super::trace::Trace;

/// Total validator work allowed in the scanned layer, per byte of input.
const SCAN_BUDGET_PER_BYTE: usize = 16;

/// Extract the JSON value a model meant from its raw output.
pub fn extract(text: &str, options: &Options) -> Outcome {
    Extraction::new(text, options).run()
}

/// A candidate that won a layer.
struct Win {
    layer: Layer,
    entry: Entry,
    several_distinct: bool,
}

struct Extraction<'a> {
    text: &'a str,
    options: &'a Options,
    /// The nesting limit in force: the caller's, capped by the decoder's own.
    max_depth: usize,
    trace: Trace,
    cursor: LineCursor,
    /// The most specific rejection seen so far.
    failure: Option<Rejection>,
    warnings: Vec<Warning>,
    /// A failed value passed over before the answer: worth a warning only if an answer comes.
    passed_over: Option<Warning>,
    think: Vec<(usize, usize)>,
    fences: Vec<Fence>,
}

impl<'a> Extraction<'a> {
    fn new(text: &'a str, options: &'a Options) -> Self {
        Extraction {
            text,
            options,
            max_depth: options.max_depth.min(DECODER_DEPTH_LIMIT),
            trace: Trace::new(options.trace_limit),
            cursor: LineCursor::default(),
            failure: None,
            warnings: Vec::new(),
            passed_over: None,
            think: find_think_blocks(text),
            fences: Vec::new(),
        }
    }

    fn run(mut self) -> Outcome {
        let stop = self
            .options
            .stop_reason
            .as_deref()
            .map_or(StopClass::Absent, classify_stop_reason);
        self.note_think_blocks();
        let win = match self.direct() {
            Some(win) => Some(win),
            None => {
                self.fences = find_fences(self.text);
                self.fenced().or_else(|| self.scanned())
            }
        };
        self.finish(win, stop)
    }

    fn locate(&mut self, offset: usize) -> String {
        let (line, column) = self.cursor.locate(self.text, offset);
        format!("line {line}, column {column}")
    }

    /// Keep the most specific rejection; the first one wins a tie.
    fn reject(&mut self, rejection: Rejection) {
        let better = self
            .failure
            .as_ref()
            .is_none_or(|held| rejection.kind.specificity() > held.kind.specificity());
        if better {
            self.failure = Some(rejection);
        }
    }

    fn rejected_verdict(&self, rejection: &Rejection) -> Verdict {
        let (defect, message) = rejection.explain(self.text, self.max_depth);
        Verdict::Rejected {
            kind: rejection.kind,
            defect,
            offset: rejection.offset,
            message,
        }
    }

    /// Record a rejected candidate in the trace, explaining it only if it is kept.
    fn trace_rejection(
        &mut self,
        layer: Layer,
        span: (usize, usize),
        label: impl FnOnce(&mut Self) -> String,
        rejection: &Rejection,
    ) {
        if self.trace.has_room() {
            let label = label(self);
            let verdict = self.rejected_verdict(rejection);
            self.trace.push(layer, span, || label, verdict);
        } else {
            self.trace.omit();
        }
    }

    fn note_think_blocks(&mut self) {
        for &(start, end) in &self.think.clone() {
            let (first, _) = self.cursor.locate(self.text, start);
            let (last, _) = self.cursor.locate(self.text, end);
            self.warnings.push(Warning {
                kind: WarningKind::ThinkBlock,
                offset: Some(start),
                message: format!("a reasoning block (lines {first}–{last}) was skipped"),
            });
        }
    }

    /// Layer 1: the whole trimmed text, BOM removed.
    fn direct(&mut self) -> Option<Win> {
        let body = if self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let (start, end) = trim_span(self.text.as_bytes(), body, self.text.len());
        let label = || "the whole text".to_owned();
        let &first = self.text.as_bytes().get(start).filter(|_| start < end)?;
        let looks_like_json = matches!(first, b'{' | b'[');
        let may_be_scalar = matches!(first, b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n');
        if !looks_like_json && !may_be_scalar {
            self.trace.push(
                Layer::Direct,
                (start, end),
                label,
                Verdict::Skipped {
                    reason: "the text does not start with JSON".to_owned(),
                },
            );
            return None;
        }
        match judge_exact(self.text, start, end, true, self.max_depth) {
            Judged::Parsed(parsed) => {
                let slot = self
                    .trace
                    .push(Layer::Direct, parsed.span, label, Verdict::Accepted);
                Some(Win {
                    layer: Layer::Direct,
                    entry: Entry {
                        parsed,
                        slot,
                        outer_end: end,
                    },
                    several_distinct: false,
                })
            }
            Judged::Rejected(rejection) => {
                self.trace_rejection(Layer::Direct, (start, end), |_| label(), &rejection);
                // Prose that merely starts like a scalar ("true story…") is not a JSON failure.
                if looks_like_json {
                    self.reject(rejection);
                }
                None
            }
            Judged::Continues { value_end } => {
                let place = self.locate(value_end);
                self.trace.push(
                    Layer::Direct,
                    (start, end),
                    label,
                    Verdict::Skipped {
                        reason: format!("the text goes on after the first value, at {place}"),
                    },
                );
                None
            }
            Judged::Empty => None,
        }
    }

    /// Layer 2: every fence that may hold JSON, in order.
    fn fenced(&mut self) -> Option<Win> {
        let mut pool = Pool::new(self.options.pick);
        let fences = std::mem::take(&mut self.fences);
        for fence in &fences {
            if self.in_think_block(fence.outer.0) {
                continue;
            }
            let label = || fence.describe();
            if !fence.may_hold_json() {
                self.trace.push(
                    Layer::Fenced,
                    fence.content,
                    label,
                    Verdict::Skipped {
                        reason: "tagged as another language".to_owned(),
                    },
                );
                continue;
            }
            let ends_text = !fence.closed;
            match judge_exact(
                self.text,
                fence.content.0,
                fence.content.1,
                ends_text,
                self.max_depth,
            ) {
                Judged::Parsed(parsed) => {
                    let slot =
                        self.trace
                            .push(Layer::Fenced, parsed.span, label, Verdict::Accepted);
                    let outer_end = fence.outer.1;
                    pool.add(
                        Entry {
                            parsed,
                            slot,
                            outer_end,
                        },
                        None,
                    );
                }
                Judged::Rejected(rejection) => {
                    self.trace_rejection(Layer::Fenced, fence.content, |_| label(), &rejection);
                    let json_like = fence.tag.is_some()
                        || self.text.as_bytes()
                            [trim_span(self.text.as_bytes(), fence.content.0, fence.content.1).0]
                            != b'"';
                    if json_like {
                        self.reject(rejection);
                    }
                }
                Judged::Continues { value_end } => {
                    let start = trim_span(self.text.as_bytes(), fence.content.0, fence.content.1).0;
                    let rejection = Rejection::continues(start, fence.content.1, value_end);
                    self.trace_rejection(Layer::Fenced, fence.content, |_| label(), &rejection);
                    self.reject(rejection);
                }
                Judged::Empty => {
                    self.trace.push(
                        Layer::Fenced,
                        fence.content,
                        label,
                        Verdict::Skipped {
                            reason: "empty".to_owned(),
                        },
                    );
                }
            }
        }
        self.fences = fences;
        if pool.is_empty() {
            return None;
        }
        // JSON in the prose around the fences still counts as another candidate.
        let no_start: Vec<(usize, usize)> = self.fences.iter().map(|f| f.outer).collect();
        self.scan_prose(&mut pool, &no_start, "outside the fences");
        self.settle(pool, Layer::Fenced)
    }

    /// Layer 3: balanced values found in prose.
    fn scanned(&mut self) -> Option<Win> {
        let mut pool = Pool::new(self.options.pick);
        // Code in another language is not the answer, whatever braces it has.
        let no_start: Vec<(usize, usize)> = self
            .fences
            .iter()
            .filter(|fence| !fence.may_hold_json())
            .map(|fence| fence.content)
            .collect();
        let truncated_after = self.scan_prose(&mut pool, &no_start, "");
        let win = self.settle(pool, Layer::Scanned)?;
        if let Some(offset) = truncated_after.filter(|&at| at > win.entry.parsed.span.0) {
            let place = self.locate(offset);
            self.warnings.push(Warning {
                kind: WarningKind::SkippedFragment,
                offset: Some(offset),
                message: format!(
                    "the text ends inside another JSON-looking value that starts at {place}; if the output was cut off, that value is lost"
                ),
            });
        }
        Some(win)
    }

    /// The layer's winner, with the trace told which candidates lost and why.
    fn settle(&mut self, pool: Pool, layer: Layer) -> Option<Win> {
        let Winner {
            entry,
            losers,
            several_distinct,
        } = pool.winner()?;
        for (slot, reason) in losers {
            self.trace.set_verdict(slot, Verdict::Passed { reason });
        }
        Some(Win {
            layer,
            entry,
            several_distinct,
        })
    }

    fn in_think_block(&self, offset: usize) -> bool {
        self.think
            .iter()
            .any(|&(start, end)| start <= offset && offset < end)
    }

    /// Try every `{` / `[` that can start a value, in one pass with a work budget.
    ///
    /// Returns the start of a candidate that ran to the end of the text, if any.
    fn scan_prose(
        &mut self,
        pool: &mut Pool,
        no_start: &[(usize, usize)],
        where_: &str,
    ) -> Option<usize> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut skip: Vec<(usize, usize)> =
            no_start.iter().chain(self.think.iter()).copied().collect();
        skip.sort_unstable();
        let mut skip = skip.into_iter().peekable();
        let mut structural = OffsetSet::new(bytes.len());
        let mut budget = SCAN_BUDGET_PER_BYTE * bytes.len() + 4096;
        let mut depths: Option<Depths> = None;
        let mut stack = Vec::new();
        let mut i = 0;
        while let Some(found) = bytes[i..].iter().position(|&b| b == b'{' || b == b'[') {
            let start = i + found;
            while skip.peek().is_some_and(|&(_, end)| end <= start) {
                skip.next();
            }
            if let Some(&(skip_start, skip_end)) = skip.peek() {
                if skip_start <= start {
                    i = skip_end.max(start + 1);
                    continue;
                }
            }
            if structural.contains(start) {
                i = start + 1;
                continue;
            }
            if budget == 0 {
                let place = self.locate(start);
                self.trace.push(
                    Layer::Scanned,
                    (start, bytes.len()),
                    || format!("`{}` at {place}", bytes[start] as char),
                    Verdict::Skipped {
                        reason: "the scan's work budget is spent; later candidates were not tried"
                            .to_owned(),
                    },
                );
                return None;
            }
            let (judged, reached) =
                judge_at(text, start, self.max_depth, &mut structural, &mut stack);
            budget = budget.saturating_sub(reached - start + 1);
            let label = |cursor: &mut LineCursor| {
                let (line, column) = cursor.locate(text, start);
                let suffix = if where_.is_empty() {
                    String::new()
                } else {
                    format!(" {where_}")
                };
                format!(
                    "`{}` at line {line}, column {column}{suffix}",
                    bytes[start] as char
                )
            };
            match judged {
                Judged::Parsed(parsed) => {
                    let demoted = demotion(text, &parsed);
                    let has_room = self.trace.has_room();
                    let text_label = if has_room {
                        label(&mut self.cursor)
                    } else {
                        String::new()
                    };
                    let slot = self.trace.push(
                        Layer::Scanned,
                        parsed.span,
                        || text_label,
                        Verdict::Accepted,
                    );
                    i = parsed.span.1;
                    let outer_end = parsed.span.1;
                    pool.add(
                        Entry {
                            parsed,
                            slot,
                            outer_end,
                        },
                        demoted,
                    );
                }
                Judged::Rejected(rejection) => {
                    let span = (start, reached.max(start + 1).min(bytes.len()));
                    self.trace_rejection(
                        Layer::Scanned,
                        span,
                        |this| label(&mut this.cursor),
                        &rejection,
                    );
                    let truncated = rejection.kind == FailureKind::Truncated;
                    if truncated {
                        self.reject(rejection);
                        return Some(start);
                    }
                    // A substantial value that failed before the answer deserves a word.
                    if reached - start >= 16 && pool.is_empty() {
                        self.flag_fragment(&rejection);
                    }
                    self.reject(rejection);
                    // Inside a value that closes, every later opener is a fragment of it;
                    // a stray opener that never closes must not hide what follows.
                    let depths = depths.get_or_insert_with(|| Depths::new(bytes));
                    let target = depths.depth_at(bytes, start);
                    i = match depths.closes_at(bytes, reached.max(start + 1), target) {
                        Some(end) => end.max(start + 1),
                        None => start + 1,
                    };
                }
                Judged::Continues { .. } | Judged::Empty => i = start + 1,
            }
        }
        None
    }

    fn flag_fragment(&mut self, rejection: &Rejection) {
        if self.passed_over.is_some() {
            return;
        }
        let place = self.locate(rejection.start);
        let (_, why) = rejection.explain(self.text, self.max_depth);
        self.passed_over = Some(Warning {
            kind: WarningKind::SkippedFragment,
            offset: Some(rejection.start),
            message: format!("a JSON-looking value at {place} was passed over: {why}"),
        });
    }

    fn finish(mut self, win: Option<Win>, stop: StopClass) -> Outcome {
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

    fn accept(&mut self, outcome: &mut Outcome, win: Win) {
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

    fn note_duplicates(&mut self, span: (usize, usize)) {
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

    fn stop_truncation(&mut self) -> Failure {
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
        }
    }

    fn fail(&mut self, outcome: &mut Outcome, stop: StopClass) {
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
        outcome.failure = Some(Failure {
            kind: rejection.kind,
            defect,
            offset: rejection.offset,
            line,
            column,
            message,
        });
    }

    fn lenient_reading(&mut self, rejection: &Rejection) -> Option<LenientReading> {
        let rewritten = lenient::rewrite(self.text, rejection.start, rejection.limit);
        if rewritten
            .repairs
            .iter()
            .all(|repair| repair.kind.is_lossless())
        {
            // Nothing a lenient reading may fix: it would say what the failure says.
            return None;
        }
        let span = (rejection.start, rewritten.end);
        let parsed = super::decode::decode(&rewritten.text);
        let accepted = parsed.is_ok() && self.options.accept_lenient;
        let (value, error) = match parsed {
            Ok((value, _)) => (Some(value), None),
            Err(error) => (None, Some(error.to_string())),
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

/// Why a parsed value in prose is probably not the answer, if it is not.
fn demotion(text: &str, parsed: &Parsed) -> Option<String> {
    let bytes = text.as_bytes();
    let (start, end) = parsed.span;
    if start > 0 && bytes[start - 1] == b'{' && bytes.get(end) == Some(&b'}') {
        return Some("inside {{…}} template braces".to_owned());
    }
    let scalar_array = parsed.value.as_array().is_some_and(|items| {
        items
            .iter()
            .all(|item| !item.is_array() && !item.is_object())
    });
    if scalar_array && prose_on_line_before(bytes, start) && prose_on_line_after(bytes, end) {
        return Some("looks like a citation inside a sentence".to_owned());
    }
    None
}

fn prose_on_line_before(bytes: &[u8], start: usize) -> bool {
    bytes[..start]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .any(|b| !b.is_ascii_whitespace())
}

fn prose_on_line_after(bytes: &[u8], end: usize) -> bool {
    bytes[end..]
        .iter()
        .take_while(|&&b| b != b'\n')
        .any(|b| !b.is_ascii_whitespace())
}
