//! What the serving layer did, where only the capture's place tells: a tool call sent with
//! empty arguments, a fenced answer to a request that asked for JSON mode, and a decoding
//! loop under it (the request file `jxray record` writes beside a capture). Each points at
//! the server, not the prompt.

use std::cell::OnceCell;

use crate::capture::{Capture, RecordedRequest};
use crate::engine::{self, Cause, FailureKind, Layer, Options, Outcome, Warning, WarningKind};

/// Reword or add to `outcome` what the serving layer did with `capture`.
pub(super) fn note_serving(
    capture: &Capture,
    text: &str,
    options: &Options,
    outcome: &mut Outcome,
) {
    // Read when a note needs it, and once.
    let read = OnceCell::new();
    let request = || read.get_or_init(|| request_beside(capture)).as_ref();
    note_empty_arguments(capture, text, options, outcome, &request);
    if outcome.layer == Some(Layer::Fenced) {
        note_json_mode_ignored(request(), outcome);
    }
    note_runaway_under_json_mode(&request, outcome);
}

/// The request beside the capture, read on first use.
type Beside<'a> = dyn Fn() -> Option<&'a RecordedRequest> + 'a;

/// A decoding loop in an output whose request asked for JSON mode is constrained
/// decoding's, whatever the text opens with: the message says the request asked for it.
fn note_runaway_under_json_mode<'a>(request: &Beside<'a>, outcome: &mut Outcome) {
    let Some(failure) = outcome
        .failure
        .as_mut()
        .filter(|failure| failure.cause == Some(Cause::Runaway))
    else {
        return;
    };
    if let Some(mode) = request().and_then(|request| request.json_mode.as_deref()) {
        failure.message = format!(
            "the request asked for JSON mode ({mode}), and {}",
            failure.message
        );
    }
}

/// The request file beside a capture that is a file of its own (a line of a log has none).
fn request_beside(capture: &Capture) -> Option<RecordedRequest> {
    if capture.line.is_some() {
        return None;
    }
    RecordedRequest::beside(&capture.path)?.ok()
}

/// A tool call whose arguments are `""` is a call without arguments, not an empty answer:
/// `{}` when the request says its tool takes no parameters, else `no-json` saying so.
fn note_empty_arguments<'a>(
    capture: &Capture,
    text: &str,
    options: &Options,
    outcome: &mut Outcome,
    request: &Beside<'a>,
) {
    if !capture.call_arguments || !text.trim().is_empty() {
        return;
    }
    let tool = capture.tool.as_deref().filter(|tool| {
        request().is_some_and(|request| {
            request
                .tools_without_parameters
                .iter()
                .any(|name| name == tool)
        })
    });
    if let Some(tool) = tool {
        let mut empty = engine::extract("{}", options);
        // The value is not in the text: nothing there to point at.
        empty.span = None;
        empty.warnings.append(&mut outcome.warnings);
        empty.warnings.push(Warning::new(
            WarningKind::EmptyArguments,
            None,
            format!(
                "the call to `{tool}` came with empty arguments (`\"\"`); the request's schema for it takes no \
                 parameters, so they are read as `{{}}` — a serving layer should send `{{}}`"
            ),
        ));
        *outcome = empty;
        return;
    }
    if let Some(failure) = outcome
        .failure
        .as_mut()
        .filter(|failure| failure.kind == FailureKind::NoJson)
    {
        failure.message = "the tool call's arguments are empty (`\"\"`, not `{}`): the model called the tool \
             without arguments; a tool that takes parameters needs them (check the tool's schema in the request), \
             and for one that takes none the serving layer should send `{}`"
            .to_owned();
    }
}

/// A fenced answer although the request asked for JSON mode: the server did not honour
/// `response_format` (some do not on the streaming path).
fn note_json_mode_ignored(request: Option<&RecordedRequest>, outcome: &mut Outcome) {
    let Some(request) = request else {
        return;
    };
    let Some(mode) = request.json_mode.as_deref() else {
        return;
    };
    outcome.warnings.push(Warning::new(
        WarningKind::JsonModeIgnored,
        outcome.span.map(|(start, _)| start),
        format!(
            "the answer came in a markdown fence although the request asked for JSON mode ({mode}): the server \
             did not honour the request's response format (some servers apply it only without streaming); \
             check the server's structured-output support — the prompt is not the problem"
        ),
    ));
}
