//! What extraction says about a tool call written as text: a warning on a value that is a
//! call's JSON body, a `no-json` failure with its cause for a call without one.

use super::{
    call_at_candidate, calls_before, find_calls, markup_end, tool_in_json, tool_in_value, Call,
};
use crate::extract::Extraction;
use crate::form::Decoded;
use crate::outcome::*;
use crate::position::line_col;

impl Extraction<'_> {
    /// Every tool call in the text (found once, when first asked for).
    pub(crate) fn tool_calls(&mut self) -> &[Call] {
        let text = self.text;
        self.calls.get_or_insert_with(|| find_calls(text))
    }

    /// The call whose JSON body is the value at `span`: a warning and the call, and where
    /// the call's closing markup ends (it is not trailing prose).
    pub(crate) fn note_tool_call_body(
        &mut self,
        span: (usize, usize),
        value: &Decoded,
        outer_end: usize,
    ) -> Option<(ToolCallText, usize)> {
        // A fenced answer needs only the stretch before it read, not the whole text.
        let near;
        let calls = match &self.calls {
            Some(calls) => calls.as_slice(),
            None => {
                near = calls_before(self.text, span.0);
                near.as_slice()
            }
        };
        let mut call = calls.iter().find(|call| call.body == Some(span.0))?.text();
        if call.tool.is_none() {
            // The same name whether the value is a tree or compact text.
            call.tool = match value {
                Decoded::Tree(tree) => tool_in_value(tree),
                Decoded::Text(json) => tool_in_json(json.get()),
            };
        }
        self.warn_call_text(&call, "value");
        Some((call, markup_end(self.text, outer_end)))
    }

    /// A failed candidate that is a call's JSON body (`<tool_call>{…` closed by a stray
    /// token): the outcome still names the call and its dialect, beside the body's defect.
    pub(crate) fn note_failed_call_body(&mut self, outcome: &mut Outcome, start: usize) {
        let Some(call) = self
            .tool_calls()
            .iter()
            .find(|call| call.body == Some(start))
        else {
            return;
        };
        let mut call = call.text();
        if call.tool.is_none() {
            call.tool = crate::toolcall::tool_named_in_broken_body(self.text, start);
        }
        self.warn_call_text(&call, "failed value");
        if let Some(failure) = outcome.failure.as_mut() {
            failure.message = format!(
                "{} — this is the JSON body of a tool call written as text ({}): the serving layer's tool parser \
                 did not take the call, so fix that first",
                failure.message,
                call.describe()
            );
        }
        outcome.tool_call = Some(call);
    }

    /// The warning `tool-call-text`: the serving layer, not the prompt, is the fix.
    fn warn_call_text(&mut self, call: &ToolCallText, what: &str) {
        let place = self.locate(call.offset);
        self.warnings.push(Warning::new(
            WarningKind::ToolCallText,
            Some(call.offset),
            format!(
                "the {what} is the JSON body of a tool call written as text ({}) at {place}: the serving layer \
                 did not parse the model's tool-call syntax; set its tool parser or chat template for this model, \
                 or turn tool calling on (the prompt is not the problem)",
                call.describe()
            ),
        ));
    }

    /// A tool call in a dialect without a JSON body, when it is what the output is: the
    /// held failure's candidate is such a call, or nothing else was a candidate.
    pub(crate) fn tool_call_failure(&mut self) -> Option<(Failure, ToolCallText)> {
        let held = self.failure.as_ref();
        let call = match held {
            Some(rejection) if rejection.kind == FailureKind::Truncated => return None,
            Some(rejection) => call_at_candidate(self.text, rejection.start)?,
            None => self
                .tool_calls()
                .iter()
                .find(|call| call.body.is_none())?
                .clone(),
        };
        self.failure = None;
        let call = call.text();
        let (line, column) = line_col(self.text, call.offset);
        let message = format!(
            "a tool call written as text ({}) at line {line}, column {column}: this syntax has no JSON body, and \
             the serving layer's tool parser did not take it; set the serving layer's tool parser or chat template \
             for this model, or turn tool calling on (a format instruction will not fix it)",
            call.describe()
        );
        let failure = Failure::new(FailureKind::NoJson, call.offset, (line, column), message)
            .with_cause(Some(Cause::ToolCallText));
        Some((failure, call))
    }
}
