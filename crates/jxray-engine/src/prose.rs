//! The scanned layer's pass over the prose: every `{` / `[` that can start a
//! value, tried once, in one pass with a work budget.

use super::brackets::is_prose_in_brackets;
use super::candidate::{judge_at, Judged, Parsed, Rejection};
use super::code::is_code_opener;
use super::extent::Depths;
use super::extract::{push_place, Extraction};
use super::fence::{fenced_in_brackets, opens_on_a_fence};
use super::fragment::{opens_inside_a_string, Carry};
use super::outcome::*;
use super::position::LineCursor;
use super::scan::OffsetSet;
use super::select::{Entry, Pool};
use super::space::is_json_space;

/// Total validator work allowed in the scanned layer, per byte of input.
const SCAN_BUDGET_PER_BYTE: usize = 16;

/// The pass's state: the regions no candidate starts in, the tool calls once needed, the
/// openers already read as part of a value, the work left, and buffers reused from
/// candidate to candidate.
struct Pass {
    skip: Regions,
    calls: Option<CallMarks>,
    structural: OffsetSet,
    budget: usize,
    depths: Option<Depths>,
    stack: Vec<(u8, usize)>,
}

/// Regions no candidate starts in, passed in order.
struct Regions(std::iter::Peekable<std::vec::IntoIter<(usize, usize)>>);

impl Regions {
    fn new(mut spans: Vec<(usize, usize)>) -> Regions {
        spans.sort_unstable();
        Regions(spans.into_iter().peekable())
    }

    /// Where to go on from when `start` lies in a region no candidate starts in.
    fn skipped(&mut self, start: usize) -> Option<usize> {
        while self.0.peek().is_some_and(|&(_, end)| end <= start) {
            self.0.next();
        }
        let &(skip_start, skip_end) = self.0.peek()?;
        (skip_start <= start).then(|| skip_end.max(start + 1))
    }
}

/// The tool calls as the pass needs them: the calls without a JSON body (a bracket inside
/// one is one of its arguments), and where bodies open, the next one last.
struct CallMarks {
    regions: Regions,
    bodies: Vec<usize>,
}

impl CallMarks {
    /// Whether the opener at `start` is a call's body (`<function=NAME={…}` is no assignment).
    fn is_body(&mut self, start: usize) -> bool {
        while self.bodies.last().is_some_and(|&body| body < start) {
            self.bodies.pop();
        }
        self.bodies.last() == Some(&start)
    }
}

/// After one candidate: go on from an offset, or stop with the start of a candidate that
/// ran to the end of the text.
enum Then {
    From(usize),
    Stop(Option<usize>),
}

impl Extraction<'_> {
    /// Try every `{` / `[` that can start a value, in one pass with a work budget.
    ///
    /// Returns the start of a candidate that ran to the end of the text, if any.
    pub(super) fn scan_prose(
        &mut self,
        pool: &mut Pool,
        no_start: &[(usize, usize)],
        where_: &str,
    ) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let skip: Vec<(usize, usize)> = no_start.iter().chain(self.think.iter()).copied().collect();
        let mut pass = Pass {
            skip: Regions::new(skip),
            calls: None,
            structural: OffsetSet::new(bytes.len()),
            budget: SCAN_BUDGET_PER_BYTE * bytes.len() + 4096,
            depths: None,
            stack: Vec::new(),
        };
        let mut i = 0;
        while let Some(found) = memchr::memchr2(b'{', b'[', &bytes[i..]) {
            let start = i + found;
            if let Some(next) = pass.skip.skipped(start) {
                i = next;
                continue;
            }
            // Found when an opener outside fences and reasoning first needs them: the
            // brackets of a fenced answer never do.
            let calls = match pass.calls.as_mut() {
                Some(calls) => calls,
                None => pass.calls.insert(self.call_marks()),
            };
            if let Some(next) = calls.regions.skipped(start) {
                i = next;
                continue;
            }
            let is_body = calls.is_body(start);
            // `{Happy to help!}`: words in braces are prose, not a broken object; `,"{`: a
            // string's first character in a document.
            if pass.structural.contains(start)
                || is_prose_in_brackets(bytes, start)
                || opens_inside_a_string(bytes, start)
            {
                i = start + 1;
                continue;
            }
            if !is_body && is_code_opener(bytes, start) {
                // `x = [1, 2]`: code, and every bracket inside it is code too.
                let depths = pass.depths.get_or_insert_with(|| Depths::new(bytes));
                let target = depths.depth_at(bytes, start);
                i = depths
                    .closes_at(bytes, start + 1, target)
                    .map_or(start + 1, |end| end.max(start + 1));
                continue;
            }
            if pass.budget == 0 {
                self.note_budget_spent(start);
                return None;
            }
            match self.try_opener(&mut pass, pool, start, where_) {
                Then::From(next) => i = next,
                Then::Stop(cut) => return cut,
            }
        }
        None
    }

    /// The tool calls of the text, as the pass reads them.
    fn call_marks(&mut self) -> CallMarks {
        let calls = self.tool_calls();
        let regions = calls.iter().filter(|call| call.body.is_none());
        let mut bodies: Vec<usize> = calls.iter().filter_map(|call| call.body).collect();
        bodies.reverse();
        CallMarks {
            regions: Regions::new(regions.map(|call| (call.start, call.end)).collect()),
            bodies,
        }
    }

    fn note_budget_spent(&mut self, start: usize) {
        let bytes = self.text.as_bytes();
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
    }

    /// Judge the value that starts at the opener `start`.
    fn try_opener(&mut self, pass: &mut Pass, pool: &mut Pool, start: usize, where_: &str) -> Then {
        let text = self.text;
        let bytes = text.as_bytes();
        let (judged, reached) = match self.cut_off.take_if(|(at, _)| *at == start) {
            // Read by the fenced layer already (what it opened is of no more use after it).
            Some((_, rejection)) => (Judged::Rejected(rejection), text.len()),
            None => judge_at(
                text,
                start,
                self.max_depth,
                self.options.value_form,
                &mut pass.structural,
                &mut pass.stack,
            ),
        };
        pass.budget = pass.budget.saturating_sub(reached - start + 1);
        let label = |cursor: &mut LineCursor| {
            let mut label = String::with_capacity(48);
            label.push('`');
            label.push(bytes[start] as char);
            label.push_str("` at ");
            push_place(&mut label, cursor.locate(text, start));
            if !where_.is_empty() {
                label.push(' ');
                label.push_str(where_);
            }
            label
        };
        match judged {
            Judged::Parsed(parsed) => Then::From(self.take_parsed(pool, parsed, label)),
            // `{{…}}`: template braces around a value; the inner one is the candidate.
            Judged::Rejected(_) if bytes[start] == b'{' && bytes.get(start + 1) == Some(&b'{') => {
                Then::From(start + 1)
            }
            Judged::Rejected(rejection) => {
                let span = (start, reached.max(start + 1).min(bytes.len()));
                self.trace_rejection(
                    Layer::Scanned,
                    span,
                    |this| label(&mut this.cursor),
                    &rejection,
                );
                self.after_rejection(pass, pool, rejection, start, reached)
            }
            Judged::Continues { .. } | Judged::Empty => Then::From(start + 1),
        }
    }

    /// A value that parsed: a candidate for the pool, unless it is a piece of a larger one.
    /// Returns where the pass goes on.
    fn take_parsed(
        &mut self,
        pool: &mut Pool,
        parsed: Parsed,
        label: impl Fn(&mut LineCursor) -> String,
    ) -> usize {
        let bytes = self.text.as_bytes();
        let (value_start, value_end) = parsed.span;
        let carry = self
            .lookahead
            .carries_on(bytes, value_start, value_end, bytes.len());
        if let Some(Carry::Closer { at }) = carry {
            if fenced_in_brackets(bytes, parsed.span, at) {
                return self.take_bracketed_fence(pool, parsed, at, label);
            }
        }
        if let Some(carry) = carry {
            let span = parsed.span;
            self.refuse_fragment(Layer::Scanned, carry, span, bytes.len(), || {
                label(&mut LineCursor::default())
            });
            return value_end;
        }
        let demoted = demotion(self.text, &parsed);
        let text_label = if self.trace.has_room() {
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
        let outer_end = parsed.span.1;
        pool.add(
            Entry {
                parsed,
                slot,
                outer_end,
                remark: None,
            },
            demoted,
        );
        value_end
    }

    /// `[```json … ```]`: the value of a fence wrapped in brackets, the closer at `closer`.
    fn take_bracketed_fence(
        &mut self,
        pool: &mut Pool,
        parsed: Parsed,
        closer: usize,
        label: impl Fn(&mut LineCursor) -> String,
    ) -> usize {
        let text_label = label(&mut self.cursor);
        let place = self.locate(parsed.span.0);
        let slot = self.trace.push(
            Layer::Scanned,
            parsed.span,
            || text_label,
            Verdict::Accepted,
        );
        let remark = Warning::new(
            WarningKind::TrailingProse,
            Some(parsed.span.1),
            format!(
                "the value at {place} is the body of a code fence wrapped in brackets (`[```json … ```]`); \
                 the brackets and the fence around it were left out — ask for the JSON alone"
            ),
        );
        pool.add(
            Entry {
                parsed,
                slot,
                outer_end: closer + 1,
                remark: Some(remark),
            },
            None,
        );
        closer + 1
    }

    /// A candidate that failed at `reached`: hold its failure, and say where the pass goes on.
    fn after_rejection(
        &mut self,
        pass: &mut Pass,
        pool: &Pool,
        rejection: Rejection,
        start: usize,
        reached: usize,
    ) -> Then {
        let bytes = self.text.as_bytes();
        if rejection.kind == FailureKind::Truncated {
            // Cut off inside a larger value that already failed: the larger value is the
            // candidate (its defects and its cut are reported).
            let enclosed = self.failure_unclosed
                && self.failure.as_ref().is_some_and(|held| held.start < start);
            if !enclosed {
                self.reject(rejection);
            }
            return Then::Stop(Some(start));
        }
        if reached >= bytes.len() {
            // It ran to the end of the text (a string whose quote never closed took in the
            // rest): everything after its opener is inside it, never an answer of its own.
            self.reject(rejection);
            return Then::Stop(Some(start));
        }
        // A substantial value that failed before the answer deserves a word.
        if reached - start >= 16 && pool.is_empty() {
            self.flag_fragment(&rejection);
        }
        self.reject(rejection);
        if opens_on_a_fence(bytes, start) {
            // `[```json …`: the bracket wraps a fence; the value is inside it.
            return Then::From(start + 1);
        }
        // Inside a value that closes, every later opener is a fragment of it; a stray
        // opener that never closes must not hide what follows.
        let depths = pass.depths.get_or_insert_with(|| Depths::new(bytes));
        let target = depths.depth_at(bytes, start);
        if let Some(end) = depths.closes_at(bytes, reached.max(start + 1), target) {
            return Then::From(end.max(start + 1));
        }
        let offset = self.failure.as_ref().map_or(start, |held| held.offset);
        let held_here = self
            .failure
            .as_ref()
            .is_some_and(|held| held.start == start);
        // Only a value that got somewhere (a member or an item) claims what follows.
        let progressed = got_somewhere(&bytes[start..offset.clamp(start, bytes.len())]);
        if held_here && progressed {
            self.failure_unclosed = true;
        }
        // `{"a{}": 1, "b": [x`: an opener inside a string of a value that got somewhere
        // (read up to where it failed) is that string's text, not a value of its own.
        mark_openers_in_strings(&bytes[start..reached], start, &mut pass.structural);
        // `{"a": {}{"b": 1}`, `{"a": {{}`: an opener right after a container closed or an
        // object opened inside a value that got somewhere, where that value wanted a comma
        // or a key, is a broken member or item of it, not a value of its own.
        if matches!(bytes.get(reached), Some(b'{' | b'[')) {
            let inside = &bytes[start..reached];
            let after_structure = inside
                .iter()
                .rposition(|&b| !is_json_space(b))
                .is_some_and(|last| last > 0 && matches!(inside[last], b'}' | b']' | b'{'));
            if after_structure && got_somewhere(inside) {
                pass.structural.insert(reached);
            }
        }
        Then::From(start + 1)
    }

    /// A value that parsed but is only the start of a larger one: never the answer.
    pub(super) fn refuse_fragment(
        &mut self,
        layer: Layer,
        carry: Carry,
        span: (usize, usize),
        limit: usize,
        label: impl FnOnce() -> String,
    ) {
        let (start, _) = span;
        let rejection = match carry {
            Carry::UnescapedQuote { quote } => Some(Rejection::shaped(
                Defect::UnescapedQuote,
                start,
                limit,
                quote,
                string_opening(self.text.as_bytes(), start, quote),
            )),
            Carry::MoreMembers { closer } => Some(Rejection::shaped(
                Defect::Syntax,
                start,
                limit,
                closer,
                start,
            )),
            // Nothing opened before the value: the closer is one too many, not the end of
            // a larger value this one is a piece of.
            Carry::Closer { at } if layer == Layer::Fenced || self.first_opener() >= start => {
                Some(Rejection::extra_closer(start, limit, at))
            }
            Carry::Closer { .. } => None,
        };
        match rejection {
            Some(rejection) => {
                self.trace_rejection(layer, span, |_| label(), &rejection);
                self.reject(rejection);
            }
            None => {
                self.trace.push(layer, span, label, Verdict::Skipped {
                    reason: "a piece of a larger value that failed: the text after it closes a bracket opened before it".to_owned(),
                });
            }
        }
    }

    /// Where the first `{` or `[` of the text is (its length when there is none).
    fn first_opener(&mut self) -> usize {
        let text = self.text.as_bytes();
        *self.first_opener.get_or_insert_with(|| {
            text.iter()
                .position(|&byte| matches!(byte, b'{' | b'['))
                .unwrap_or(text.len())
        })
    }

    pub(super) fn flag_fragment(&mut self, rejection: &Rejection) {
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
}

/// The opening quote of the string whose closing quote is at `quote`.
fn string_opening(bytes: &[u8], start: usize, quote: usize) -> usize {
    (start..quote)
        .rev()
        .find(|&k| bytes[k] == b'"' && (k == 0 || bytes[k - 1] != b'\\'))
        .unwrap_or(start)
}

/// Why a parsed value in prose is probably not the answer, if it is not.
fn demotion(text: &str, parsed: &Parsed) -> Option<String> {
    let bytes = text.as_bytes();
    let (start, end) = parsed.span;
    if start > 0 && bytes[start - 1] == b'{' && bytes.get(end) == Some(&b'}') {
        return Some("inside {{…}} template braces".to_owned());
    }
    let scalar_array = parsed.value.is_scalar_array();
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

/// Whether a value's text so far has a member or an item (a colon or a comma).
fn got_somewhere(seen: &[u8]) -> bool {
    seen.iter().any(|&b| b == b':' || b == b',')
}

/// Mark the openers inside the strings of `read` (a value's text the grammar read without
/// a fault, from `offset` in the text) when the value got somewhere by its structure: a
/// colon or a comma outside its strings. (`{"Note: the {"a": 1}` got nowhere: the opener
/// inside its string still starts the answer.)
fn mark_openers_in_strings(read: &[u8], offset: usize, structural: &mut OffsetSet) {
    let mut in_string = false;
    let mut escaped = false;
    let mut separated = false;
    let mut inside = Vec::new();
    for (at, &byte) in read.iter().enumerate() {
        if escaped {
            escaped = false;
        } else if in_string {
            match byte {
                b'\\' => escaped = true,
                b'"' => in_string = false,
                b'{' | b'[' => inside.push(offset + at),
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b':' | b',' => separated = true,
                _ => {}
            }
        }
    }
    if separated {
        for at in inside {
            structural.insert(at);
        }
    }
}
