//! The lenient reading: what the model meant, if meaning-changing fixes are
//! allowed (trailing commas, single and curly quotes, unquoted keys, Python
//! and mis-cased literals, comments, and the rest of [`RepairKind`]'s
//! lenient kinds).
//!
//! It rewrites one value in a forward pass and records every fix at its byte
//! offset. It never completes truncated text: the only closers it adds stand
//! in for ones the text wrote wrongly (or, in an output known to be finished,
//! ones it left out), and the only quote it adds is placed where the text
//! itself goes on to close the structure. Where a fix could be made more than
//! one way, each way is read (`alternatives.rs`); where they give different
//! values, or a fix would need a guess, the reading is refused (a wrong value
//! is worse than none).

mod advice;
mod alternatives;
mod bare;
mod escaped_close;
mod families;
mod fork;
mod key;
mod number;
mod quote;
mod rewriter;
mod start;
mod string;
mod structure;
mod unterminated;
mod word;
mod words;

use std::borrow::Cow;

use super::outcome::Repair;

pub(crate) use advice::advice;
pub(crate) use families::name_family;

/// A rewritten candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LenientText {
    /// Where the reading starts in the raw text.
    pub start: usize,
    /// Where the value ends in the raw text (exclusive).
    pub end: usize,
    pub text: String,
    /// Every fix (lenient and lossless), at absolute offsets, in order.
    pub repairs: Vec<Repair>,
    /// Why no reading is offered, when a fix would be a guess.
    pub refused: Option<Refusal>,
    /// The other ways a fix could have been made (read by `alternatives::settle`).
    forks: Vec<fork::Fork>,
    /// Bytes read in all, by this reading and every other way of it that was read.
    cost: usize,
}

/// The place where a lenient reading would have to guess, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub offset: usize,
    pub reason: Cow<'static, str>,
    /// The text fits more than one reading (rather than none): worth showing even when
    /// the reading fixed nothing else.
    pub guess: bool,
}

/// Rewrite the value that starts at `start`, reading no further than `limit`.
pub(crate) fn rewrite(text: &str, start: usize, limit: usize) -> LenientText {
    alternatives::settle(text, start, limit, false)
}

/// Rewrite the value that starts at `start` in an output known to be finished whose
/// brackets are left open at `limit` (`missing-closer`): the closers are added there.
/// Never used for a text that may have been cut off.
pub(crate) fn rewrite_closing(text: &str, start: usize, limit: usize) -> LenientText {
    let mut reading = alternatives::settle(text, start, limit, true);
    if reading.parses() {
        words::keep_every_word(text, &mut reading);
    }
    reading
}

/// The lenient reading of the first value from `start` on that reads as
/// JSON; a value that does not (a `{placeholder}` in prose) is stepped over
/// whole, so nothing inside a broken value is ever taken for the answer.
///
/// Linear: every attempt starts after the whole extent of the one before.
pub(crate) fn read(text: &str, start: usize, limit: usize) -> LenientText {
    let limit = limit.min(text.len());
    let mut first = rewrite(text, start, limit);
    if first.parses() {
        words::keep_every_word(text, &mut first);
        return first;
    }
    // The attempts read past their extent at times (a quote read as text):
    // a budget of twice the text keeps the whole walk linear.
    let mut budget = 2 * limit.saturating_sub(start);
    let mut at = match words_before_opener(text.as_bytes(), first.start, limit) {
        // `json\n{…}`: leftover words, then the value.
        Some(opener) => Some(opener),
        None => extent_end(text.as_bytes(), first.start, limit),
    };
    while let Some(next) = at.and_then(|from| next_opener(text.as_bytes(), from, limit)) {
        let mut attempt = rewrite(text, next, limit);
        if attempt.parses() {
            words::keep_every_word(text, &mut attempt);
            return attempt;
        }
        budget = budget.saturating_sub(attempt.cost);
        if budget == 0 {
            break;
        }
        at = extent_end(text.as_bytes(), next, limit);
    }
    first
}

impl LenientText {
    fn parses(&self) -> bool {
        self.refused.is_none() && is_json(&self.text)
    }
}

/// Whether `text` is one JSON value (checked without building it).
fn is_json(text: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// The opener after plain words at `start` (a fence tag left behind: `json\n{…}`); `None`
/// when `start` is an opener or what comes before the opener could be part of a value
/// whose start was lost (a quote, colon, comma or closer).
fn words_before_opener(bytes: &[u8], start: usize, limit: usize) -> Option<usize> {
    let opener = next_opener(bytes, start, limit)?;
    let words = &bytes[start..opener];
    (!words.is_empty()
        && !words
            .iter()
            .any(|b| matches!(b, b'"' | b'\'' | b':' | b',' | b'}' | b']')))
    .then_some(opener)
}

/// The first `{` or `[` at or after `from` that is not code's (`row['6']`).
fn next_opener(bytes: &[u8], from: usize, limit: usize) -> Option<usize> {
    (from.min(limit)..limit)
        .find(|&at| matches!(bytes[at], b'{' | b'[') && !crate::code::is_code_opener(bytes, at))
}

/// Where the bracketed value opening at `start` closes (string-aware, any
/// closer counts), or `None` when it never does before `limit`.
fn extent_end(bytes: &[u8], start: usize, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = start;
    while i < limit {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'{' | b'[' if !in_string => depth += 1,
            b'}' | b']' if !in_string => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests;
