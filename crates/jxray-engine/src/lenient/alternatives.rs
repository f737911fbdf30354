//! Fixes with alternatives. Where a fix could be made more than one way (the missing quote
//! of a string before either of two commas, a closer that closes one level or two), the
//! reader takes one way and notes each other way as a fork. Every fork is read too: when
//! two ways give different values, no reading is offered and both values are shown. A
//! reading that fails may be stood in for by the other way at a fork whose choice is a
//! matter of structure (which frames a closer closes), never at one that guesses at text.

use serde_json::Value;

use super::fork::{Choice, Fork};
use super::rewriter::Rewriter;
use super::{LenientText, Refusal};

/// At most this many forks are noted per reading, and this many readings are made per
/// candidate: a bounded number of passes keeps the reading linear. A reading with more
/// forks than can be read is refused: its other ways were not all read.
const MAX_FORKS: usize = 4;
const MAX_RESCUES: usize = 3;
const MAX_READINGS: usize = 1 + MAX_RESCUES + MAX_FORKS;

const TOO_MANY: &str =
    "more fixes with alternatives than can all be read: which readings were meant is a guess";

impl Rewriter<'_> {
    /// The choice at `at`: `first`, unless this reading is made with the other one; the
    /// other one is noted as a fork.
    pub(super) fn decide(
        &mut self,
        at: usize,
        first: Choice,
        other: Choice,
        rescues: bool,
    ) -> Choice {
        if let Some(forced) = self.forced_at(at) {
            return forced;
        }
        self.offer(at, other, rescues);
        first
    }

    /// The choice this reading was told to make at `at`, if any.
    pub(super) fn forced_at(&self, at: usize) -> Option<Choice> {
        self.forced.iter().find(|f| f.at == at).map(|f| f.choice)
    }

    /// Note another way to make the fix at `at`.
    pub(super) fn offer(&mut self, at: usize, choice: Choice, rescues: bool) {
        if self.forced_at(at).is_some() {
            return;
        }
        if self.forks.len() == MAX_FORKS {
            self.guess(at, TOO_MANY);
            return;
        }
        self.forks.push(Fork {
            at,
            choice,
            rescues,
        });
    }
}

/// One reading, and whether its text parses.
struct Reading {
    text: LenientText,
    parses: bool,
}

fn read_once(text: &str, start: usize, limit: usize, closing: bool, forced: &[Fork]) -> Reading {
    let mut rewriter = Rewriter::new(text, limit).forcing(forced.to_vec());
    if closing {
        rewriter = rewriter.closing();
    }
    let text = rewriter.run(start);
    let parses = text.refused.is_none() && super::is_json(&text.text);
    Reading { text, parses }
}

fn value_of(reading: &LenientText) -> Value {
    crate::decode::decode(&reading.text)
        .map(|(value, _)| value)
        .unwrap_or_default()
}

/// The reading of the value at `start`, with every fork's other way read too.
pub(super) fn settle(text: &str, start: usize, limit: usize, closing: bool) -> LenientText {
    let mut cost = 0;
    let mut settled = settle_costing(text, (start, limit, closing), &mut cost);
    settled.cost = cost;
    settled
}

/// `settle`, adding the bytes every reading read to `cost`.
fn settle_costing(text: &str, place: (usize, usize, bool), cost: &mut usize) -> LenientText {
    let (start, limit, closing) = place;
    let mut readings = 1;
    let first = read_once(text, start, limit, closing, &[]);
    *cost += first.text.cost;
    let mut forced = Vec::new();
    let chosen = if first.parses {
        first
    } else {
        match rescue(text, place, &first, &mut forced, (&mut readings, cost)) {
            Some(rescued) => rescued,
            None => return first.text,
        }
    };
    // Values are built only when two readings parse: most other ways do not.
    let mut value: Option<Value> = None;
    for fork in chosen.text.forks.clone() {
        if readings >= MAX_READINGS {
            let mut unread = chosen.text;
            unread.refused = Some(Refusal {
                offset: fork.at,
                reason: TOO_MANY.into(),
                guess: true,
            });
            return unread;
        }
        readings += 1;
        let mut other_way = forced.clone();
        other_way.push(fork);
        let other = read_once(text, start, limit, closing, &other_way);
        *cost += other.text.cost;
        if !other.parses {
            continue;
        }
        let value = value.get_or_insert_with(|| value_of(&chosen.text));
        let other_value = value_of(&other.text);
        if other_value != *value {
            return disagree(chosen.text, fork.at, value, &other_value);
        }
    }
    chosen.text
}

/// A reading that failed: the other way at its forks that may stand in, one after another,
/// until one reads.
fn rescue(
    text: &str,
    (start, limit, closing): (usize, usize, bool),
    failed: &Reading,
    forced: &mut Vec<Fork>,
    (readings, cost): (&mut usize, &mut usize),
) -> Option<Reading> {
    let mut forks = failed.text.forks.clone();
    while *readings <= MAX_RESCUES {
        let fork = forks.iter().find(|f| f.rescues).copied()?;
        forced.push(fork);
        *readings += 1;
        let attempt = read_once(text, start, limit, closing, forced);
        *cost += attempt.text.cost;
        if attempt.parses {
            return Some(attempt);
        }
        forks = attempt.text.forks;
    }
    None
}

/// Two ways give two values: no reading, and the message shows both where they differ.
fn disagree(mut reading: LenientText, at: usize, first: &Value, other: &Value) -> LenientText {
    let (a, b) = (first.to_string(), other.to_string());
    let (a, b) = differing_windows(&a, &b);
    reading.refused = Some(Refusal {
        offset: at,
        reason: format!(
            "two readings give different values and nothing in the text tells which was meant: `{a}` or `{b}`"
        )
        .into(),
        guess: true,
    });
    reading
}

/// The two texts around the place where they first differ, shortened with `…`.
fn differing_windows(a: &str, b: &str) -> (String, String) {
    let common = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((at, _), _)| at);
    let from = floor_boundary(a, common.saturating_sub(24));
    (window(a, from), window(b, from))
}

fn window(text: &str, from: usize) -> String {
    const SHOWN: usize = 64;
    let end = floor_boundary(text, (from + SHOWN).min(text.len()));
    let head = if from > 0 { "…" } else { "" };
    let tail = if end < text.len() { "…" } else { "" };
    format!("{head}{}{tail}", &text[from..end])
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_windows_start_before_the_first_difference() {
        let (a, b) = differing_windows(r#"["hello, world"]"#, r#"["hello","world"]"#);
        assert_eq!(a, r#"["hello, world"]"#);
        assert_eq!(b, r#"["hello","world"]"#);
        let long = "x".repeat(100);
        let (a, b) = differing_windows(&format!("{long}a{long}"), &format!("{long}b{long}"));
        assert!(a.starts_with('…') && a.ends_with('…'), "{a}");
        assert_eq!(a.chars().nth(25), Some('a'));
        assert_eq!(b.chars().nth(25), Some('b'));
    }

    #[test]
    fn windows_fall_on_character_boundaries() {
        let text = "é".repeat(40);
        let (a, _) = differing_windows(&format!("{text}1"), &format!("{text}2"));
        assert!(a.ends_with('1'), "{a}");
    }
}
