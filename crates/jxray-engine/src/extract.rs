//! The layers, cheapest first, and the outcome they add up to.

use super::brackets::is_prose_in_brackets;
use super::candidate::{judge_exact, Judged, Rejection};
use super::decode::DECODER_DEPTH_LIMIT;
use super::fence::{find_fences, Fence};
use super::fragment::Lookahead;
use super::options::Options;
use super::outcome::*;
use super::position::LineCursor;
use super::scan::{scan_value, ScanEnd};
use super::select::{Entry, Pool, Winner};
use super::space::trim_span;
use super::stop::classify_stop_reason;
use super::think::find_reasoning;
use super::toolcall::Call;
use super::trace::Trace;

/// Extract the JSON value a model meant from its raw output.
pub fn extract(text: &str, options: &Options) -> Outcome {
    Extraction::new(text, options).run()
}

/// The outcome [`extract`] gives when it accepts a value, the same in every field; `None`
/// when it would fail. A failure is decided without being explained (no message, defect
/// list, lenient reading or cause is built), so a caller that wants only the value pays
/// for none of that on a bad output and asks [`extract`] for the failure when it needs it.
pub fn extract_accepted(text: &str, options: &Options) -> Option<Outcome> {
    let mut extraction = Extraction::new(text, options);
    let (win, stop) = extraction.layers();
    let accepts = win.is_some() && stop != StopClass::Truncated;
    // Only a lenient reading can still give a value, and only when it may be accepted.
    if !accepts && !options.accept_lenient {
        return None;
    }
    Some(extraction.finish(win, stop)).filter(Outcome::ok)
}

/// `line L, column C` written after what `out` holds (a place is put in most labels and
/// warnings, so it is written without the formatting machinery).
pub(super) fn push_place(out: &mut String, (line, column): (usize, usize)) {
    out.push_str("line ");
    out.push_str(itoa::Buffer::new().format(line));
    out.push_str(", column ");
    out.push_str(itoa::Buffer::new().format(column));
}

/// Where a fence's content starts, past white space.
fn start_of(text: &str, fence: &Fence) -> usize {
    trim_span(text.as_bytes(), fence.content.0, fence.content.1).0
}

/// The warning for a value that was the whole body of a fence tagged with another language.
fn foreign_fence_remark(fence: &Fence, at: usize) -> Warning {
    let tag = fence.tag.as_deref().unwrap_or_default();
    Warning::new(
        WarningKind::FenceLanguage,
        Some(at),
        format!(
            "the value was the whole body of a fence tagged `{tag}` (line {}): the model wrote the answer as a {tag} literal; \
             ask for JSON in a ```json fence",
            fence.line
        ),
    )
}

/// A candidate that won a layer.
pub(super) struct Win {
    pub(super) layer: Layer,
    pub(super) entry: Entry,
    pub(super) several_distinct: bool,
    /// Found to be no JSON Schema when it was pooled (no schema document either).
    pub(super) not_a_schema: bool,
}

pub(super) struct Extraction<'a> {
    pub(super) text: &'a str,
    pub(super) options: &'a Options,
    /// The nesting limit in force: the caller's, capped by the decoder's own.
    pub(super) max_depth: usize,
    pub(super) trace: Trace,
    pub(super) cursor: LineCursor,
    /// The most specific rejection seen so far.
    pub(super) failure: Option<Rejection>,
    pub(super) warnings: Vec<Warning>,
    /// The held failure is a value whose brackets never close: a cut after it is its cut.
    pub(super) failure_unclosed: bool,
    /// A failed value passed over before the answer: worth a warning only if an answer comes.
    pub(super) passed_over: Option<Warning>,
    pub(super) think: Vec<(usize, usize)>,
    /// Where a reasoning block opens that the text never closes (it ends inside it).
    pub(super) reasoning_open: Option<usize>,
    pub(super) fences: Vec<Fence>,
    /// What the never-a-fragment checks learned about the text after values.
    pub(super) lookahead: Lookahead,
    /// The offset of the text's first `{` or `[`, once asked for.
    pub(super) first_opener: Option<usize>,
    /// The tool calls written as text, once asked for.
    pub(super) calls: Option<Vec<Call>>,
    /// A fence's value that opened at this offset and was cut off by the end of the text:
    /// the scanned layer, trying the same opener, reads the same value to the same end.
    pub(super) cut_off: Option<(usize, Rejection)>,
}

impl<'a> Extraction<'a> {
    fn new(text: &'a str, options: &'a Options) -> Self {
        let reasoning = find_reasoning(text);
        Extraction {
            text,
            options,
            max_depth: options.max_depth.min(DECODER_DEPTH_LIMIT),
            trace: Trace::new(options.trace_limit),
            cursor: LineCursor::default(),
            failure: None,
            failure_unclosed: false,
            warnings: Vec::new(),
            passed_over: None,
            think: reasoning.blocks,
            reasoning_open: reasoning.open_at_end,
            fences: Vec::new(),
            lookahead: Lookahead::default(),
            first_opener: None,
            calls: None,
            cut_off: None,
        }
    }

    fn run(mut self) -> Outcome {
        let (win, stop) = self.layers();
        self.finish(win, stop)
    }

    /// The layers' winner, if any, and how the stop reason reads.
    fn layers(&mut self) -> (Option<Win>, StopClass) {
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
                self.drop_fences_inside_json();
                self.fenced().or_else(|| self.scanned())
            }
        };
        (win, stop)
    }

    /// `line L, column C` for a byte offset.
    pub(super) fn locate(&mut self, offset: usize) -> String {
        let mut place = String::with_capacity(32);
        push_place(&mut place, self.cursor.locate(self.text, offset));
        place
    }

    /// Keep the most specific rejection; the first one wins a tie.
    pub(super) fn reject(&mut self, rejection: Rejection) {
        let better = self
            .failure
            .as_ref()
            .is_none_or(|held| rejection.kind.specificity() > held.kind.specificity());
        if better {
            self.failure = Some(rejection);
            self.failure_unclosed = false;
        }
    }

    pub(super) fn rejected_verdict(&self, rejection: &Rejection) -> Verdict {
        let (defect, message) = rejection.explain(self.text, self.max_depth);
        Verdict::Rejected {
            kind: rejection.kind,
            defect,
            offset: rejection.offset,
            message,
        }
    }

    /// Record a rejected candidate in the trace (explained when the outcome is finished,
    /// and only if it is kept).
    pub(super) fn trace_rejection(
        &mut self,
        layer: Layer,
        span: (usize, usize),
        label: impl FnOnce(&mut Self) -> String,
        rejection: &Rejection,
    ) {
        if self.trace.has_room() {
            let label = label(self);
            self.trace.push_rejected(layer, span, || label, rejection);
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
        match judge_exact(
            self.text,
            start,
            end,
            true,
            self.max_depth,
            self.options.value_form,
        ) {
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
                        remark: None,
                    },
                    several_distinct: false,
                    not_a_schema: false,
                })
            }
            Judged::Rejected(rejection) => {
                self.trace_rejection(Layer::Direct, (start, end), |_| label(), &rejection);
                // Prose that merely starts like a scalar ("true story…") is not a JSON failure.
                if looks_like_json && !is_prose_in_brackets(self.text.as_bytes(), start) {
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
        let mut pool = Pool::new(self.options);
        let fences = std::mem::take(&mut self.fences);
        for fence in &fences {
            if !self.in_think_block(fence.outer.0) {
                self.judge_fence(fence, &mut pool);
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

    /// One fence: its content judged as exactly one value, the winners pooled.
    fn judge_fence(&mut self, fence: &Fence, pool: &mut Pool) {
        let label = || fence.describe();
        // Another language's fence counts only when its whole body is one literal.
        let foreign = !fence.may_hold_json();
        if foreign && !fence.holds_one_literal(self.text) {
            let reason = "tagged as another language".to_owned();
            self.trace.push(
                Layer::Fenced,
                fence.content,
                label,
                Verdict::Skipped { reason },
            );
            return;
        }
        let judged = judge_exact(
            self.text,
            fence.content.0,
            fence.content.1,
            !fence.closed,
            self.max_depth,
            self.options.value_form,
        );
        match judged {
            Judged::Parsed(parsed) => {
                let slot = self
                    .trace
                    .push(Layer::Fenced, parsed.span, label, Verdict::Accepted);
                let outer_end = fence.outer.1;
                let remark = foreign.then(|| foreign_fence_remark(fence, parsed.span.0));
                let entry = Entry {
                    parsed,
                    slot,
                    outer_end,
                    remark,
                };
                pool.add(entry, None);
            }
            Judged::Rejected(rejection) => {
                self.trace_rejection(Layer::Fenced, fence.content, |_| label(), &rejection);
                if rejection.kind == FailureKind::Truncated && rejection.limit == self.text.len() {
                    self.cut_off = Some((rejection.start, rejection.clone()));
                }
                let bytes = self.text.as_bytes();
                // An untagged fence holding a quoted line is prose in a code block, not JSON.
                let json_like = fence.tag.is_some() || bytes[start_of(self.text, fence)] != b'"';
                if json_like {
                    self.reject(rejection);
                }
            }
            Judged::Continues { value_end } => self.fence_goes_on(fence, value_end, pool),
            Judged::Empty => {
                let reason = "empty".to_owned();
                self.trace.push(
                    Layer::Fenced,
                    fence.content,
                    label,
                    Verdict::Skipped { reason },
                );
            }
        }
    }

    /// A fence whose first value ends at `value_end` with more text after it.
    fn fence_goes_on(&mut self, fence: &Fence, value_end: usize, pool: &mut Pool) {
        let label = || fence.describe();
        let bytes = self.text.as_bytes();
        let start = start_of(self.text, fence);
        let carry = self
            .lookahead
            .carries_on(bytes, start, value_end, fence.content.1);
        if let Some(carry) = carry {
            // The text after the value carries on the same JSON: the value is a piece.
            self.refuse_fragment(
                Layer::Fenced,
                carry,
                (start, value_end),
                fence.content.1,
                label,
            );
            return;
        }
        // A value and then a remark ("That's all.", a missing closing fence): the value is
        // the answer and the remark is trailing prose. A second value would be a different
        // matter, so any bracket after it refuses.
        let rest = &bytes[value_end..fence.content.1];
        if !rest.iter().any(|b| matches!(b, b'{' | b'[')) {
            let head = judge_exact(
                self.text,
                fence.content.0,
                value_end,
                false,
                self.max_depth,
                self.options.value_form,
            );
            if let Judged::Parsed(parsed) = head {
                let slot = self
                    .trace
                    .push(Layer::Fenced, parsed.span, label, Verdict::Accepted);
                let entry = Entry {
                    parsed,
                    slot,
                    outer_end: value_end,
                    remark: None,
                };
                pool.add(entry, None);
                return;
            }
        }
        let rejection = Rejection::continues(start, fence.content.1, value_end);
        self.trace_rejection(Layer::Fenced, fence.content, |_| label(), &rejection);
        self.reject(rejection);
    }

    /// Layer 3: balanced values found in prose.
    fn scanned(&mut self) -> Option<Win> {
        let mut pool = Pool::new(self.options);
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
    pub(super) fn settle(&mut self, pool: Pool, layer: Layer) -> Option<Win> {
        let Winner {
            entry,
            losers,
            several_distinct,
            echo_passed,
            echo_alone,
            not_a_schema,
        } = pool.winner()?;
        for (slot, reason) in losers {
            self.trace.set_verdict(slot, Verdict::Passed { reason });
        }
        let (_, echo_end) = entry.parsed.span;
        if echo_alone
            && self
                .failure
                .as_ref()
                .is_some_and(|held| held.start >= echo_end)
        {
            // A schema echoed, then an answer that failed: the failure is the outcome, never
            // the schema taken for the answer.
            let reason =
                "a JSON Schema (the prompt's own, echoed) before an answer that failed".to_owned();
            self.trace
                .set_verdict(entry.slot, Verdict::Passed { reason });
            self.note_schema_echo(entry.parsed.span.0);
            return None;
        }
        if let Some(at) = echo_passed {
            self.note_schema_echo(at);
        }
        Some(Win {
            layer,
            entry,
            several_distinct,
            not_a_schema,
        })
    }

    /// Fences whose opening lies inside a JSON string are not fences: the
    /// first `{` / `[` of the text is read as JSON, and any fence it reads
    /// through (only a string can hold backticks) is left out.
    fn drop_fences_inside_json(&mut self) {
        let bytes = self.text.as_bytes();
        let Some(first) = memchr::memchr2(b'{', b'[', bytes) else {
            return;
        };
        if self.fences.iter().all(|fence| fence.outer.0 < first) {
            return;
        }
        let scan = scan_value(bytes, first, bytes.len(), self.max_depth, None);
        let reached = match scan.end {
            ScanEnd::Complete { end } => end,
            ScanEnd::Truncated { .. } => bytes.len(),
            ScanEnd::Invalid { at, .. } => at,
        };
        self.fences
            .retain(|fence| !(first < fence.outer.0 && fence.outer.0 < reached));
    }

    pub(super) fn in_think_block(&self, offset: usize) -> bool {
        self.think
            .iter()
            .any(|&(start, end)| start <= offset && offset < end)
    }
}
