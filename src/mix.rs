//! The mix: how many captures each layer and failure kind holds. One type for every
//! count of outcomes — `check`'s summary, `compare`'s two runs, the workbench's footer
//! (kept up to date as captures come and go, never recounted) and the change since
//! watching started (`fenced 12→3  truncated 0→2`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::engine::{FailureKind, Layer, Outcome};

/// What one outcome counts as: its layer on success, else its failure kind;
/// the same word as [`Outcome::badge`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MixKey {
    Layer(Layer),
    Failure(FailureKind),
}

impl MixKey {
    pub(crate) fn of(outcome: &Outcome) -> MixKey {
        match (&outcome.failure, outcome.layer) {
            (Some(failure), _) => MixKey::Failure(failure.kind),
            (None, Some(layer)) => MixKey::Layer(layer),
            (None, None) => MixKey::Failure(FailureKind::NoJson),
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            MixKey::Layer(layer) => layer.as_str(),
            MixKey::Failure(kind) => kind.as_str(),
        }
    }
}

/// Counts per [`MixKey`], iterated layers first, then failures, each in
/// the contract's order (the order of the enums).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mix {
    counts: BTreeMap<MixKey, usize>,
}

impl Mix {
    pub(crate) fn new() -> Mix {
        Mix::default()
    }

    /// The mix of a set of outcomes.
    #[cfg(test)]
    pub(crate) fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Mix {
        outcomes.into_iter().map(MixKey::of).collect()
    }

    pub(crate) fn add(&mut self, key: MixKey) {
        *self.counts.entry(key).or_insert(0) += 1;
    }

    /// Take one away (a capture changed or vanished); never below zero.
    pub(crate) fn remove(&mut self, key: MixKey) {
        if let Some(count) = self.counts.get_mut(&key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.counts.remove(&key);
            }
        }
    }

    pub fn count(&self, key: MixKey) -> usize {
        self.counts.get(&key).copied().unwrap_or(0)
    }

    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }

    /// How many are failures of any kind.
    pub fn failed(&self) -> usize {
        self.counts
            .iter()
            .filter(|(key, _)| matches!(key, MixKey::Failure(_)))
            .map(|(_, count)| count)
            .sum()
    }

    /// The non-zero counts as (badge, count), layers first, each in vocabulary order.
    pub(crate) fn parts(&self) -> Vec<(&'static str, usize)> {
        self.entries()
            .into_iter()
            .map(|(key, count)| (key.as_str(), count))
            .collect()
    }

    /// The non-zero counts by key, layers first, each in vocabulary order.
    pub(crate) fn entries(&self) -> Vec<(MixKey, usize)> {
        self.counts
            .iter()
            .filter(|(_, &count)| count > 0)
            .map(|(key, &count)| (*key, count))
            .collect()
    }
}

impl FromIterator<MixKey> for Mix {
    fn from_iter<I: IntoIterator<Item = MixKey>>(keys: I) -> Mix {
        let mut mix = Mix::new();
        keys.into_iter().for_each(|key| mix.add(key));
        mix
    }
}

/// `fenced 12→3  truncated 0→2`: every entry whose count differs between
/// `start` and `now`, in the mix order, separated by two spaces; empty when
/// nothing moved.
pub(crate) fn delta_text(start: &Mix, now: &Mix) -> String {
    let mut keys: Vec<MixKey> = start
        .counts
        .keys()
        .chain(now.counts.keys())
        .copied()
        .collect();
    keys.sort();
    keys.dedup();
    let mut text = String::new();
    for key in keys {
        let (before, after) = (start.count(key), now.count(key));
        if before != after {
            if !text.is_empty() {
                text.push_str("  ");
            }
            // Writing to a String cannot fail.
            let _ = write!(text, "{} {before}→{after}", key.as_str());
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(kind: FailureKind) -> Outcome {
        let mut outcome = Outcome::unreadable("x");
        if let Some(failure) = outcome.failure.as_mut() {
            failure.kind = kind;
        }
        outcome
    }

    fn accepted(layer: Layer) -> Outcome {
        let mut outcome = Outcome::default();
        outcome.layer = Some(layer);
        outcome.value = Some(serde_json::json!({}));
        outcome
    }

    #[test]
    fn a_key_reads_as_the_outcome_badge() {
        let outcomes = [
            accepted(Layer::Fenced),
            accepted(Layer::Direct),
            failed(FailureKind::Truncated),
            failed(FailureKind::Schema),
            Outcome::default(),
        ];
        for outcome in &outcomes {
            assert_eq!(MixKey::of(outcome).as_str(), outcome.badge());
        }
    }

    #[test]
    fn only_moved_entries_show_layers_first_in_contract_order() {
        let start = Mix::of(
            &[
                vec![accepted(Layer::Fenced); 12],
                vec![accepted(Layer::Direct); 4],
                vec![failed(FailureKind::NoJson)],
            ]
            .concat(),
        );
        let now = Mix::of(
            &[
                vec![accepted(Layer::Fenced); 3],
                vec![accepted(Layer::Direct); 4],
                vec![accepted(Layer::Scanned); 9],
                vec![failed(FailureKind::Truncated); 2],
            ]
            .concat(),
        );
        assert_eq!(
            delta_text(&start, &now),
            "fenced 12→3  scanned 0→9  truncated 0→2  no-json 1→0"
        );
        assert_eq!(delta_text(&now, &now), "");
        assert_eq!(now.total(), 18);
    }

    #[test]
    fn removing_keeps_counts_exact_and_never_negative() {
        let mut mix: Mix = [MixKey::Layer(Layer::Fenced); 2].into_iter().collect();
        mix.remove(MixKey::Layer(Layer::Fenced));
        mix.remove(MixKey::Failure(FailureKind::Invalid));
        assert_eq!(mix.count(MixKey::Layer(Layer::Fenced)), 1);
        mix.remove(MixKey::Layer(Layer::Fenced));
        mix.remove(MixKey::Layer(Layer::Fenced));
        assert_eq!(
            mix,
            Mix::new(),
            "an emptied entry is gone, so mixes compare equal"
        );
    }
}
