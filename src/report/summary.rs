//! The layer mix: how many captures came from each layer or failed each way.
//! A rising `fenced` or `scanned` share means the format instruction is being lost.

use std::path::PathBuf;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::chains::RepairChains;
use super::early::EarlySignals;
use super::groups::Groups;
use super::marks::Marks;
use crate::check::Checked;
use crate::engine::{Cause, FailureKind, Layer, Outcome, WarningKind};
use crate::mix::{Mix, MixKey};

/// Counts per layer (successes) and per failure kind; each capture counts
/// once, under the word its badge shows. Beside them, the captures carrying each cause
/// and warning (when the outcomes were counted here, not only their mix).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    mix: Mix,
    marks: Option<Marks>,
    /// The counts some runs have beside the mix (boxed: most summaries have none).
    beside: Option<Box<Beside>>,
}

/// With `--by`, the mix of each group; the repair chains among recorded captures, when a
/// request was re-asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Beside {
    groups: Option<Groups>,
    chains: Option<RepairChains>,
    /// The saved streams' first signals worth stopping for.
    early: Option<EarlySignals>,
    /// jxray fixture files found among the captures and passed over, in report order.
    fixtures: Vec<PathBuf>,
}

impl Summary {
    #[cfg(test)]
    pub(crate) fn from_outcomes<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Summary {
        let mut summary = Summary::default();
        outcomes
            .into_iter()
            .for_each(|outcome| summary.add(outcome));
        summary
    }

    /// Count one more outcome.
    pub(crate) fn add(&mut self, outcome: &Outcome) {
        self.mix.add(MixKey::of(outcome));
        self.marks.get_or_insert_with(Marks::default).add(outcome);
    }

    /// Count one more capture: its outcome, and for a saved stream the first signal worth
    /// stopping for.
    pub(crate) fn count(&mut self, checked: &Checked) {
        self.add(&checked.outcome);
        if let Some(early) = &checked.early {
            let beside = self.beside.get_or_insert_with(Box::default);
            let signals = beside.early.get_or_insert_with(EarlySignals::default);
            signals.add(early, !checked.outcome.ok());
        }
    }

    /// The saved streams' first signals worth stopping for, when one had any.
    pub(crate) fn early(&self) -> Option<&EarlySignals> {
        self.beside.as_ref()?.early.as_ref()
    }

    /// The summary of a mix counted elsewhere (a compared run).
    pub(crate) fn from_mix(mix: Mix) -> Summary {
        Summary {
            mix,
            marks: None,
            beside: None,
        }
    }

    /// The same counts with the mix of each group beside them.
    pub(crate) fn with_groups(mut self, groups: Groups) -> Summary {
        self.beside.get_or_insert_with(Box::default).groups = Some(groups);
        self
    }

    /// The same counts with the repair chains beside them.
    pub(crate) fn with_chains(mut self, chains: RepairChains) -> Summary {
        self.beside.get_or_insert_with(Box::default).chains = Some(chains);
        self
    }

    /// A jxray fixture file was passed over (`check` replays none; `jxray test` does).
    pub(crate) fn pass_over_fixture(&mut self, path: PathBuf) {
        self.beside
            .get_or_insert_with(Box::default)
            .fixtures
            .push(path);
    }

    /// The fixture files passed over, in report order.
    pub(crate) fn fixtures_passed_over(&self) -> &[PathBuf] {
        self.beside
            .as_ref()
            .map_or(&[], |beside| beside.fixtures.as_slice())
    }

    /// The repair chains counted, when a request was re-asked.
    pub(crate) fn chains(&self) -> Option<&RepairChains> {
        self.beside.as_ref()?.chains.as_ref()
    }

    /// The mix of each group, with `--by`.
    pub(crate) fn groups(&self) -> Option<&Groups> {
        self.beside.as_ref()?.groups.as_ref()
    }

    /// Captures with the cause or warning of this name (`refusal`, `tool-call-text`).
    pub(crate) fn marked(&self, name: &str) -> usize {
        self.marks.as_ref().map_or(0, |marks| marks.named(name))
    }

    /// The causes and warnings some capture carries, with their counts.
    pub(crate) fn marks_present(&self) -> Vec<(&'static str, usize)> {
        self.marks.as_ref().map(Marks::present).unwrap_or_default()
    }

    pub(crate) fn total(&self) -> usize {
        self.mix.total()
    }

    pub(crate) fn ok(&self) -> usize {
        Layer::ALL.iter().map(|layer| self.layer(*layer)).sum()
    }

    pub(crate) fn failed(&self) -> usize {
        self.total() - self.ok()
    }

    pub(crate) fn layer(&self, layer: Layer) -> usize {
        self.mix.count(MixKey::Layer(layer))
    }

    pub(crate) fn failure(&self, kind: FailureKind) -> usize {
        self.mix.count(MixKey::Failure(kind))
    }

    /// Percentage of all captures, 0 when there are none.
    pub(crate) fn share(&self, count: usize) -> f64 {
        match self.total() {
            0 => 0.0,
            total => count as f64 * 100.0 / total as f64,
        }
    }
}

/// Every layer and failure kind appears, zero or not, so scripts can rely on the keys (and
/// every cause and warning, when the outcomes were counted here).
impl Serialize for Summary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Counts<'a, T: Copy>(&'a [T], &'a dyn Fn(T) -> (&'static str, usize));
        impl<T: Copy> Serialize for Counts<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for item in self.0 {
                    let (key, count) = (self.1)(*item);
                    map.serialize_entry(key, &count)?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("total", &self.total())?;
        map.serialize_entry("ok", &self.ok())?;
        map.serialize_entry("failed", &self.failed())?;
        map.serialize_entry(
            "layers",
            &Counts(Layer::ALL, &|l: Layer| (l.as_str(), self.layer(l))),
        )?;
        map.serialize_entry(
            "failures",
            &Counts(FailureKind::ALL, &|k: FailureKind| {
                (k.as_str(), self.failure(k))
            }),
        )?;
        if let Some(marks) = &self.marks {
            map.serialize_entry(
                "causes",
                &Counts(Cause::ALL, &|c: Cause| (c.as_str(), marks.cause(c))),
            )?;
            map.serialize_entry(
                "warnings",
                &Counts(WarningKind::ALL, &|k: WarningKind| {
                    (k.as_str(), marks.warning(k))
                }),
            )?;
        }
        if let Some(chains) = self.chains() {
            map.serialize_entry("repair_chains", chains)?;
        }
        if let Some(early) = self.early() {
            map.serialize_entry("early_signals", early)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(layer: Layer) -> Outcome {
        let mut outcome = Outcome::default();
        outcome.layer = Some(layer);
        outcome.value = Some(json!(1));
        outcome
    }

    #[test]
    fn each_capture_counts_once() {
        let mut schema_failed = ok(Layer::Fenced);
        schema_failed.failure = Outcome::unreadable("x").failure.map(|mut f| {
            f.kind = FailureKind::Schema;
            f
        });
        let outcomes = [
            ok(Layer::Direct),
            ok(Layer::Fenced),
            ok(Layer::Fenced),
            schema_failed,
            Outcome::unreadable("gone"),
            Outcome::default(),
        ];
        let summary = Summary::from_outcomes(&outcomes);
        assert_eq!((summary.total(), summary.ok(), summary.failed()), (6, 3, 3));
        assert_eq!(summary.layer(Layer::Fenced), 2);
        assert_eq!(summary.failure(FailureKind::Schema), 1);
        assert_eq!(summary.failure(FailureKind::NoJson), 1);
        assert_eq!(summary.share(3), 50.0);
        let mut written = serde_json::to_value(&summary).unwrap();
        let marks = written.as_object_mut().unwrap();
        let (causes, warnings) = (
            marks.remove("causes").unwrap(),
            marks.remove("warnings").unwrap(),
        );
        assert_eq!(
            written,
            json!({"total": 6, "ok": 3, "failed": 3,
                   "layers": {"direct": 1, "fenced": 2, "scanned": 0, "lenient": 0},
                   "failures": {"truncated": 0, "no-json": 1, "invalid": 0, "schema": 1, "unreadable": 1}})
        );
        // Every cause and warning is a key, zero or not.
        assert_eq!(causes.as_object().unwrap().len(), Cause::ALL.len());
        assert_eq!(warnings.as_object().unwrap().len(), WarningKind::ALL.len());
        assert_eq!(causes["tool-call-text"], 0);
        assert_eq!(Summary::default().share(0), 0.0);
    }
}
