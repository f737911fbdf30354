//! The repair-effectiveness line of `jxray check`: how many recorded requests were
//! re-asked (repair chains of two or more attempts), how many the last attempt repaired,
//! and that share by the first attempt's failure kind.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::Checked;
use crate::chain::{assemble, ChainLink, ChainState};
use crate::engine::FailureKind;

/// The chains of one run, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RepairChains {
    /// Chains of two or more attempts.
    pub(crate) re_asked: usize,
    /// Of those, the ones whose first attempt failed and whose last is ok.
    pub(crate) repaired: usize,
    /// By the first attempt's failure kind: (chains, repaired).
    pub(crate) by_first_failure: BTreeMap<&'static str, (usize, usize)>,
}

impl RepairChains {
    /// `repair chains: 3 re-asked, 2 repaired (67%) · by first failure: invalid 2 of 2, schema 0 of 1`
    pub(crate) fn line(&self) -> String {
        let share = self.repaired as f64 * 100.0 / self.re_asked.max(1) as f64;
        let mut line = format!(
            "repair chains: {} re-asked, {} repaired ({share:.0}%)",
            self.re_asked, self.repaired
        );
        let kinds: Vec<String> = self
            .by_first_failure
            .iter()
            .map(|(kind, (chains, repaired))| format!("{kind} {repaired} of {chains}"))
            .collect();
        if !kinds.is_empty() {
            line.push_str(&format!(" · by first failure: {}", kinds.join(", ")));
        }
        line
    }
}

impl Serialize for RepairChains {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Kinds<'a>(&'a BTreeMap<&'static str, (usize, usize)>);
        impl Serialize for Kinds<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (kind, (chains, repaired)) in self.0 {
                    map.serialize_entry(
                        kind,
                        &serde_json::json!({"chains": chains, "repaired": repaired}),
                    )?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("re_asked", &self.re_asked)?;
        map.serialize_entry("repaired", &self.repaired)?;
        map.serialize_entry("by_first_failure", &Kinds(&self.by_first_failure))?;
        map.end()
    }
}

/// What is kept of each recorded capture until the end of the run: its file, whether it
/// was ok, its failure kind, its link. Captures with no request file beside them are
/// never in a chain and are not kept.
#[derive(Debug, Default)]
pub(crate) struct ChainTally {
    captures: Vec<(PathBuf, Option<FailureKind>, Option<ChainLink>)>,
}

impl ChainTally {
    pub(crate) fn add(&mut self, item: &Checked) {
        let Some(state) = item.chain.as_deref() else {
            return;
        };
        // A file's first capture speaks for it (a response's message, before its tool
        // calls); a file's captures arrive together, in report order.
        if self
            .captures
            .last()
            .is_some_and(|(path, ..)| *path == item.capture.path)
        {
            return;
        }
        let failure = item
            .outcome
            .failure
            .as_ref()
            .filter(|_| !item.outcome.ok())
            .map(|failure| failure.kind);
        let link = match state {
            ChainState::Linked(link) => Some(link.clone()),
            ChainState::Recorded => None,
        };
        self.captures
            .push((item.capture.path.clone(), failure, link));
    }

    /// The counts; none when no request was re-asked.
    pub(crate) fn finish(&self) -> Option<RepairChains> {
        let chains = assemble(
            self.captures
                .iter()
                .enumerate()
                .map(|(key, (path, _, link))| (key, path.as_path(), link.as_ref())),
        );
        let mut counts = RepairChains::default();
        for chain in chains.iter().filter(|chain| chain.members.len() >= 2) {
            let (Some(first), Some(last)) = (chain.members.first(), chain.members.last()) else {
                continue;
            };
            counts.re_asked += 1;
            let first_failure = self.captures[first.key].1;
            let repaired = first_failure.is_some() && self.captures[last.key].1.is_none();
            counts.repaired += usize::from(repaired);
            if let Some(kind) = first_failure {
                let entry = counts.by_first_failure.entry(kind.as_str()).or_default();
                entry.0 += 1;
                entry.1 += usize::from(repaired);
            }
        }
        (counts.re_asked > 0).then_some(counts)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::capture::Capture;
    use crate::check::Checker;
    use crate::engine::Options;

    fn checked(path: &str, text: &str, state: ChainState) -> Checked {
        let mut capture = Capture::from_text(path, text);
        capture.path = PathBuf::from(path);
        Checked {
            chain: Some(Arc::new(state)),
            early: None,
            ..Checker::new(Options::default(), None).check(capture)
        }
    }

    fn linked(id: &str, attempt: u32, re_ask_of: &str) -> ChainState {
        ChainState::Linked(ChainLink {
            id: id.into(),
            attempt,
            re_ask_of: Some(re_ask_of.into()),
        })
    }

    #[test]
    fn repaired_chains_are_counted_by_the_first_failure() {
        let mut tally = ChainTally::default();
        // Recorded: a trailing comma, re-asked and repaired.
        tally.add(&checked("c/d/a.json", "{\"a\": 1,}", ChainState::Recorded));
        tally.add(&checked(
            "c/d/b.json",
            "{\"a\": 1}",
            linked("d/a.json", 2, "d/a.json"),
        ));
        // Written by a loop: no JSON, re-asked, still none.
        tally.add(&checked("c/d/x.jsonl", "sorry", linked("k", 1, "")));
        tally.add(&checked(
            "c/d/y.jsonl",
            "still no",
            linked("k", 2, "d/x.jsonl"),
        ));
        // A recorded capture no one re-asked is no chain.
        tally.add(&checked("c/d/z.json", "{\"a\": 1,}", ChainState::Recorded));
        let counts = tally.finish().unwrap();
        assert_eq!(counts.re_asked, 2);
        assert_eq!(counts.repaired, 1);
        assert_eq!(
            counts.line(),
            "repair chains: 2 re-asked, 1 repaired (50%) · by first failure: invalid 1 of 1, no-json 0 of 1"
        );
        assert_eq!(
            serde_json::to_value(&counts).unwrap(),
            serde_json::json!({"re_asked": 2, "repaired": 1, "by_first_failure": {
                "invalid": {"chains": 1, "repaired": 1}, "no-json": {"chains": 1, "repaired": 0}}})
        );
    }

    #[test]
    fn no_re_ask_is_no_line() {
        let mut tally = ChainTally::default();
        tally.add(&checked("c/d/a.json", "{}", ChainState::Recorded));
        tally.add(&checked("c/d/x.jsonl", "{}", linked("k", 1, "")));
        assert_eq!(tally.finish(), None);
    }
}
