//! A [`Run`] as text, for a host that keeps no Rust object between calls (a WebAssembly
//! instance is lent to any call): one field a line, the prompt last (it may hold newlines).
//! Written and read only here; the host carries it without reading it. Hand-written, so
//! the module carries no serializer for a value that never leaves the package.

use super::run::{Last, Limits, Run};
use super::Action;

/// The first line: which layout follows.
const VERSION: &str = "jxray-run 1";
/// An absent value.
const NONE: &str = "-";

impl Run {
    /// This run as text ([`Run::from_state`] reads it back).
    pub fn state(&self) -> String {
        let number = |value: Option<f64>| value.map_or(NONE.to_owned(), |n| n.to_string());
        let last = match &self.last {
            None => NONE.to_owned(),
            Some(last) => format!(
                "{} {} {} {}",
                last.action.as_str(),
                u8::from(last.accepted),
                u8::from(last.lenient),
                last.raw_output_hash
            ),
        };
        let failures: Vec<&str> = self
            .failures
            .iter()
            .map(|failure| failure.as_deref().unwrap_or(NONE))
            .collect();
        [
            VERSION.to_owned(),
            self.limits.max_repairs.to_string(),
            number(self.limits.max_tokens),
            number(self.limits.max_ms),
            self.tokens.to_string(),
            self.stopped.clone().unwrap_or_else(|| NONE.to_owned()),
            last,
            failures.join(" "),
            self.prompt.clone(),
        ]
        .join("\n")
    }

    /// The run [`Run::state`] wrote; an error (a bug in the host) for any other text.
    pub fn from_state(text: &str) -> Result<Run, String> {
        read(text).ok_or_else(|| "jxray bug: a repair run's state is not readable".to_owned())
    }
}

fn read(text: &str) -> Option<Run> {
    let mut lines = text.splitn(9, '\n');
    let mut next = || lines.next();
    if next()? != VERSION {
        return None;
    }
    let limits = Limits {
        max_repairs: next()?.parse().ok()?,
        max_tokens: optional_number(next()?)?,
        max_ms: optional_number(next()?)?,
    };
    let tokens = next()?.parse().ok()?;
    let stopped = optional(next()?).map(str::to_owned);
    let last = match optional(next()?) {
        None => None,
        Some(line) => Some(last(line)?),
    };
    let failures = match next()? {
        "" => Vec::new(),
        line => line
            .split(' ')
            .map(|name| optional(name).map(str::to_owned))
            .collect(),
    };
    let prompt = next()?.to_owned();
    Some(Run {
        limits,
        prompt,
        failures,
        tokens,
        stopped,
        last,
    })
}

fn last(line: &str) -> Option<Last> {
    let mut parts = line.split(' ');
    let action = Action::from_name(parts.next()?)?;
    let flag = |part: Option<&str>| match part? {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    };
    Some(Last {
        action,
        accepted: flag(parts.next())?,
        lenient: flag(parts.next())?,
        raw_output_hash: parts.next()?.to_owned(),
    })
}

fn optional(text: &str) -> Option<&str> {
    (text != NONE).then_some(text)
}

/// `Some(None)` for an absent number, `None` for text that is no number.
fn optional_number(text: &str) -> Option<Option<f64>> {
    match optional(text) {
        None => Some(None),
        Some(number) => number.parse().ok().map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::{Decision, Policy};
    use jxray_engine::{extract, Options};
    use serde_json::json;

    #[test]
    fn a_run_goes_through_its_text_unchanged() {
        let limits = Limits {
            max_repairs: 2,
            max_tokens: Some(1500.5),
            max_ms: None,
        };
        let mut run = Run::new("Give JSON.\nLine two - with a dash", limits);
        assert_eq!(Run::from_state(&run.state()).unwrap(), run);
        let raw = "{\"a\": 1,}";
        let outcome = extract(raw, &Options::default());
        let decision: Decision = Policy::default().decide(&outcome, raw, &[]);
        run.took(&outcome, &decision, &json!({"total_tokens": 12}));
        let raw = "{\"a\": 1}";
        let outcome = extract(raw, &Options::default());
        run.took(
            &outcome,
            &Policy::default().decide(&outcome, raw, &[]),
            &json!(null),
        );
        let back = Run::from_state(&run.state()).unwrap();
        assert_eq!(back, run);
        assert!(run.may_call(0.0) == back.clone().may_call(0.0));
    }

    #[test]
    fn other_text_is_refused() {
        for text in ["", "jxray-run 2\n1", "jxray-run 1\nx\n-\n-\n0\n-\n-\n\np"] {
            assert!(Run::from_state(text).is_err(), "{text:?}");
        }
    }
}
