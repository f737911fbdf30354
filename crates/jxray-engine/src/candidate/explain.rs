//! The words of a rejected candidate: its defect and a message a person can act on, built
//! only when someone reads them.

use super::{Cause, Finished, Rejection};
use crate::diagnose::diagnose;
use crate::outcome::{Defect, FailureKind};
use crate::position::line_col;
use crate::scan::Open;

impl Rejection {
    /// The defect and a message a person can act on.
    pub(crate) fn explain(&self, text: &str, max_depth: usize) -> (Option<Defect>, String) {
        match &self.cause {
            Cause::Diagnosed {
                problem,
                after_comma,
            } => {
                let diagnosis = diagnose(text, self.offset, *problem, *after_comma, max_depth);
                (Some(diagnosis.defect), diagnosis.message)
            }
            Cause::Unclosed {
                inside,
                opened_at,
                evidence,
            } => unclosed(text, *inside, *opened_at, evidence),
            Cause::Unfinished {
                inside, opened_at, ..
            } => self.unfinished(text, *inside, *opened_at),
            Cause::Continues => {
                let (line, column) = line_col(text, self.offset);
                (
                    Some(Defect::Syntax),
                    format!("more than one value where one was expected: text goes on at line {line}, column {column}; ask for exactly one JSON value"),
                )
            }
            Cause::Decoder(message) => (Some(Defect::Syntax), message.clone()),
            Cause::Shaped { defect, opened_at } => {
                (Some(*defect), shaped_message(text, *defect, *opened_at))
            }
            Cause::ExtraCloser { opened_at } => {
                let (line, column) = line_col(text, *opened_at);
                let closer = text
                    .get(self.offset..)
                    .and_then(|rest| rest.chars().next())
                    .unwrap_or('}');
                (
                    Some(Defect::Syntax),
                    format!(
                        "an extra `{closer}` after the value that opened at line {line}, column {column}: \
                         it closes nothing, so the model wrote one closer too many (or the start of the output was lost); \
                         ask for exactly one JSON value"
                    ),
                )
            }
        }
    }

    /// A value still open where the text ends (cut off) or goes on (a closer left out).
    fn unfinished(&self, text: &str, inside: Open, opened_at: usize) -> (Option<Defect>, String) {
        let (line, column) = line_col(text, opened_at);
        let what = inside.describe();
        if self.kind == FailureKind::Truncated {
            return (
                None,
                format!(
                    "the output ends inside the {what} opened at line {line}, column {column}: \
                     it was cut off; raise the token limit or shrink the request"
                ),
            );
        }
        let closer = if inside == Open::String {
            "closing quote"
        } else {
            "closer"
        };
        (
            Some(Defect::Syntax),
            format!(
                "the {what} opened at line {line}, column {column} is never closed, yet the text goes on \
                 after it: the model left out its {closer}, the output was not cut off; tell it to close \
                 every {what} it opens (a bigger token limit will not help)"
            ),
        )
    }
}

/// Brackets still open although the output is finished: only the closers are missing.
fn unclosed(
    text: &str,
    inside: Open,
    opened_at: usize,
    evidence: &Finished,
) -> (Option<Defect>, String) {
    let (line, column) = line_col(text, opened_at);
    let what = inside.describe();
    let why = match evidence {
        Finished::FenceClosed => "its fence closed after it".to_owned(),
        Finished::StopReason(spelled) => {
            format!("the stop reason `{spelled}` says the model completed")
        }
    };
    (
        Some(Defect::MissingCloser),
        format!(
            "the {what} opened at line {line}, column {column} is never closed, yet the output is finished \
             ({why}): the model left out its closing brackets, the output was not cut off; tell it to close \
             every object and array it opens (a bigger token limit will not help)"
        ),
    )
}

/// What to tell the user about a defect found by its shape.
fn shaped_message(text: &str, defect: Defect, opened_at: usize) -> String {
    let (line, column) = line_col(text, opened_at);
    match defect {
        Defect::UnescapedQuote => format!(
            "a `\"` inside the string opened at line {line}, column {column} ended it early, and the value goes on after it; \
             tell the model to escape quotes inside strings as \\\""
        ),
        Defect::UnterminatedString => format!(
            "the string opened at line {line}, column {column} has no closing quote, yet the text goes on to close every bracket: \
             the quote was dropped, the output was not cut off; tell the model to close every string (a bigger token limit will not help)"
        ),
        Defect::MissingStart => "the text begins inside a value: its first tokens were lost. \
             A client or serving layer dropped the start of the stream, or a prefilled `{` was never re-attached to the reply; \
             fix the pipeline, not the prompt"
            .to_owned(),
        _ => format!(
            "the value that opened at line {line}, column {column} closes early: its members go on after the closer; \
             check the brackets (or a quote inside a string) the model wrote"
        ),
    }
}
