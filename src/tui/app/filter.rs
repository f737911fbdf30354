//! Which captures the list shows, in which order, and the layer mix.

use crate::engine::{FailureKind, Layer, Outcome};

/// A filter by outcome (`f`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    #[default]
    All,
    Failures,
    Layer(Layer),
    Failure(FailureKind),
    Repaired,
    Warned,
}

impl Filter {
    /// Every choice, in the order the menu lists them.
    pub fn choices() -> Vec<Filter> {
        let mut choices = vec![Filter::All, Filter::Failures];
        choices.extend(Layer::ALL.map(Filter::Layer));
        choices.extend(FailureKind::ALL.map(Filter::Failure));
        choices.extend([Filter::Repaired, Filter::Warned]);
        choices
    }

    pub fn label(self) -> &'static str {
        match self {
            Filter::All => "all",
            Filter::Failures => "any failure",
            Filter::Layer(layer) => layer.as_str(),
            Filter::Failure(kind) => kind.as_str(),
            Filter::Repaired => "with repairs",
            Filter::Warned => "with warnings",
        }
    }

    pub fn matches(self, outcome: &Outcome) -> bool {
        match self {
            Filter::All => true,
            Filter::Failures => !outcome.ok(),
            Filter::Layer(layer) => outcome.ok() && outcome.layer == Some(layer),
            Filter::Failure(kind) => outcome.failure.as_ref().map(|f| f.kind) == Some(kind),
            Filter::Repaired => !outcome.repairs.is_empty(),
            Filter::Warned => !outcome.warnings.is_empty(),
        }
    }
}

/// The list order (`t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    #[default]
    Source,
    /// Failures first (most specific kind first), then layers, each by source.
    Outcome,
}

impl Sort {
    pub fn label(self) -> &'static str {
        match self {
            Sort::Source => "by source",
            Sort::Outcome => "by outcome",
        }
    }

    pub fn toggled(self) -> Sort {
        match self {
            Sort::Source => Sort::Outcome,
            Sort::Outcome => Sort::Source,
        }
    }
}

/// Rank of an outcome in the outcome sort.
pub fn outcome_rank(outcome: &Outcome) -> usize {
    match (&outcome.failure, outcome.layer) {
        (Some(failure), _) => FailureKind::ALL
            .iter()
            .position(|&kind| kind == failure.kind)
            .unwrap_or(0),
        (None, Some(layer)) => {
            FailureKind::ALL.len() + Layer::ALL.iter().position(|&l| l == layer).unwrap_or(0)
        }
        (None, None) => 0,
    }
}

/// How many captures landed in each layer and each failure kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub total: usize,
    pub layers: [usize; 4],
    pub failures: [usize; 5],
}

impl Tally {
    pub fn add(&mut self, outcome: &Outcome) {
        self.total += 1;
        match (&outcome.failure, outcome.layer) {
            (Some(failure), _) => {
                if let Some(i) = FailureKind::ALL.iter().position(|&k| k == failure.kind) {
                    self.failures[i] += 1;
                }
            }
            (None, Some(layer)) => {
                if let Some(i) = Layer::ALL.iter().position(|&l| l == layer) {
                    self.layers[i] += 1;
                }
            }
            (None, None) => self.failures[1] += 1,
        }
    }

    /// Non-zero counts as (`badge`, count), layers first, in vocabulary order.
    pub fn parts(&self) -> Vec<(&'static str, usize)> {
        let layers = Layer::ALL.iter().map(|l| l.as_str()).zip(self.layers);
        let failures = FailureKind::ALL
            .iter()
            .map(|k| k.as_str())
            .zip(self.failures);
        layers.chain(failures).filter(|&(_, n)| n > 0).collect()
    }

    pub fn failed(&self) -> usize {
        self.failures.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(layer: Layer) -> Outcome {
        Outcome {
            layer: Some(layer),
            value: Some(serde_json::json!(1)),
            ..Outcome::default()
        }
    }

    #[test]
    fn filters_match_their_outcomes() {
        let fenced = ok(Layer::Fenced);
        let bad = Outcome::unreadable("x");
        assert!(Filter::Layer(Layer::Fenced).matches(&fenced));
        assert!(!Filter::Layer(Layer::Direct).matches(&fenced));
        assert!(Filter::Failures.matches(&bad));
        assert!(Filter::Failure(FailureKind::Unreadable).matches(&bad));
        assert!(!Filter::Failures.matches(&fenced));
        assert_eq!(Filter::choices().len(), 13);
    }

    #[test]
    fn tally_counts_and_lists_nonzero_parts() {
        let mut tally = Tally::default();
        tally.add(&ok(Layer::Fenced));
        tally.add(&ok(Layer::Fenced));
        tally.add(&Outcome::unreadable("x"));
        assert_eq!(tally.parts(), [("fenced", 2), ("unreadable", 1)]);
        assert_eq!(tally.failed(), 1);
    }

    #[test]
    fn failures_sort_before_successes() {
        assert!(outcome_rank(&Outcome::unreadable("x")) < outcome_rank(&ok(Layer::Direct)));
        assert!(outcome_rank(&ok(Layer::Direct)) < outcome_rank(&ok(Layer::Scanned)));
    }
}
