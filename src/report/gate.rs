//! The drift gate: `--max-share fenced=10%,truncated=0` fails a run whose layer mix drifted.
//!
//! A model that stops answering in plain JSON still passes `check` (a fence is extracted),
//! so a rising `fenced` or `scanned` share goes unseen until a bound says how much is too
//! much. Each bound is a share of all captures, in percent.

use std::fmt;
use std::str::FromStr;

use super::marks::Marks;
use super::Summary;
use crate::engine::{FailureKind, Layer};

/// What a bound counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShareOf {
    Layer(Layer),
    Failure(FailureKind),
    /// Captures with a cause or warning of this name (`refusal`, `tool-call-text`).
    Marked(&'static str),
    /// Every capture that is not ok.
    Failed,
}

impl ShareOf {
    fn name(self) -> &'static str {
        match self {
            ShareOf::Layer(layer) => layer.as_str(),
            ShareOf::Failure(kind) => kind.as_str(),
            ShareOf::Marked(name) => name,
            ShareOf::Failed => "failed",
        }
    }

    fn count(self, summary: &Summary) -> usize {
        match self {
            ShareOf::Layer(layer) => summary.layer(layer),
            ShareOf::Failure(kind) => summary.failure(kind),
            ShareOf::Marked(name) => summary.marked(name),
            ShareOf::Failed => summary.failed(),
        }
    }

    fn parse(name: &str) -> Option<ShareOf> {
        if name == "failed" {
            return Some(ShareOf::Failed);
        }
        let layer = Layer::ALL.iter().copied().find(|l| l.as_str() == name);
        let kind = FailureKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == name);
        let marked = Marks::names().into_iter().find(|&mark| mark == name);
        layer
            .map(ShareOf::Layer)
            .or(kind.map(ShareOf::Failure))
            .or(marked.map(ShareOf::Marked))
    }
}

/// One `name=N%` bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bound {
    pub(crate) of: ShareOf,
    /// The largest share allowed, in percent (0 to 100).
    pub(crate) max_percent: f64,
}

/// Every bound of one `--max-share` value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DriftGate {
    bounds: Vec<Bound>,
}

/// Why a `--max-share` value was not understood; the message shows the right form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}; write bounds as `fenced=10%,truncated=0`")]
pub(crate) struct GateError(String);

impl FromStr for DriftGate {
    type Err = GateError;

    fn from_str(text: &str) -> Result<DriftGate, GateError> {
        let mut bounds = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((name, value)) = part.split_once('=') else {
                return Err(GateError(format!("`{part}` has no `=`")));
            };
            let name = name.trim();
            let of = ShareOf::parse(name).ok_or_else(|| {
                let layers: Vec<&str> = Layer::ALL.iter().map(|l| l.as_str()).collect();
                let kinds: Vec<&str> = FailureKind::ALL.iter().map(|k| k.as_str()).collect();
                GateError(format!(
                    "`{name}` is not a layer ({}), a failure kind ({}), a cause or warning (`refusal`, `tool-call-text`, …) or `failed`",
                    layers.join(", "),
                    kinds.join(", ")
                ))
            })?;
            let number = value.trim().strip_suffix('%').unwrap_or(value.trim());
            let max_percent = number
                .parse::<f64>()
                .ok()
                .filter(|n| (0.0..=100.0).contains(n))
                .ok_or_else(|| {
                    GateError(format!(
                        "`{value}` for `{name}` is not a share from 0% to 100%"
                    ))
                })?;
            bounds.push(Bound { of, max_percent });
        }
        if bounds.is_empty() {
            return Err(GateError("no bound given".into()));
        }
        Ok(DriftGate { bounds })
    }
}

/// A bound the run went over.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Breach {
    pub(crate) bound: Bound,
    pub(crate) count: usize,
    pub(crate) total: usize,
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = self.count as f64 * 100.0 / self.total.max(1) as f64;
        write!(
            f,
            "drift gate: {} is {share:.1}% ({} of {} captures), over its bound of {}%",
            self.bound.of.name(),
            self.count,
            self.total,
            self.bound.max_percent
        )
    }
}

impl DriftGate {
    /// The bounds the counts go over, in the order they were given.
    pub(crate) fn breaches(&self, summary: &Summary) -> Vec<Breach> {
        let total = summary.total();
        self.bounds
            .iter()
            .filter_map(|bound| {
                let count = bound.of.count(summary);
                let breach = Breach {
                    bound: *bound,
                    count,
                    total,
                };
                (total > 0 && summary.share(count) > bound.max_percent).then_some(breach)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;
    use serde_json::json;

    fn summary(direct: usize, fenced: usize, unreadable: usize) -> Summary {
        let ok = |layer| {
            let mut outcome = Outcome::default();
            outcome.layer = Some(layer);
            outcome.value = Some(json!(1));
            outcome
        };
        let outcomes: Vec<Outcome> = std::iter::repeat_n(ok(Layer::Direct), direct)
            .chain(std::iter::repeat_n(ok(Layer::Fenced), fenced))
            .chain(std::iter::repeat_n(Outcome::unreadable("x"), unreadable))
            .collect();
        Summary::from_outcomes(&outcomes)
    }

    #[test]
    fn parses_percentages_bare_numbers_and_every_name() {
        let gate: DriftGate = "fenced=10%, truncated=0,failed=2.5".parse().unwrap();
        assert_eq!(
            gate.bounds,
            [
                Bound {
                    of: ShareOf::Layer(Layer::Fenced),
                    max_percent: 10.0
                },
                Bound {
                    of: ShareOf::Failure(FailureKind::Truncated),
                    max_percent: 0.0
                },
                Bound {
                    of: ShareOf::Failed,
                    max_percent: 2.5
                },
            ]
        );
        assert!("no-json=1%".parse::<DriftGate>().is_ok());
    }

    #[test]
    fn a_bad_bound_says_what_and_how() {
        for (text, says) in [
            ("fenced", "has no `=`"),
            ("fence=10%", "`fence` is not a layer (direct, fenced"),
            ("fenced=ten", "`ten` for `fenced`"),
            ("fenced=120%", "from 0% to 100%"),
            ("", "no bound given"),
        ] {
            let error = text.parse::<DriftGate>().unwrap_err().to_string();
            assert!(error.contains(says), "{text:?}: {error}");
            assert!(error.ends_with("write bounds as `fenced=10%,truncated=0`"));
        }
    }

    #[test]
    fn only_shares_over_their_bound_are_breaches() {
        let gate: DriftGate = "fenced=10%,direct=100%,unreadable=0".parse().unwrap();
        let breaches = gate.breaches(&summary(8, 1, 1));
        assert_eq!(breaches.len(), 1, "10% fenced is at the bound, not over it");
        assert_eq!(
            breaches[0].to_string(),
            "drift gate: unreadable is 10.0% (1 of 10 captures), over its bound of 0%"
        );
        let breaches = gate.breaches(&summary(7, 3, 0));
        assert_eq!(
            breaches[0].to_string(),
            "drift gate: fenced is 30.0% (3 of 10 captures), over its bound of 10%"
        );
        assert!(gate.breaches(&summary(0, 0, 0)).is_empty());
    }

    #[test]
    fn a_cause_or_warning_is_bounded_like_a_layer() {
        use crate::engine::{extract, Options};
        let gate: DriftGate = "tool-call-text=0,refusal=50%".parse().unwrap();
        assert_eq!(gate.bounds[0].of, ShareOf::Marked("tool-call-text"));
        let texts = [
            "{\"a\": 1}",
            "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>",
            "<function=f>\n<parameter=a>\n1\n</parameter>\n</function>",
            "{\"b\": 2}",
        ];
        let outcomes: Vec<_> = texts
            .iter()
            .map(|t| extract(t, &Options::default()))
            .collect();
        let breaches = gate.breaches(&Summary::from_outcomes(&outcomes));
        assert_eq!(
            breaches.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["drift gate: tool-call-text is 50.0% (2 of 4 captures), over its bound of 0%"]
        );
    }
}
