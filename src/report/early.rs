//! What early signals would have saved, counted over a run's saved streams: per kind of
//! signal, the streams whose answer failed and where it fired first, and the share of
//! their output bytes that came after it (what a caller that stopped there would not have
//! paid for). A signal in a stream whose answer still had a value is counted apart: there,
//! stopping would have lost the answer.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::check::{percent, EarlySignal};
use crate::engine::SignalKind;

/// The counts of one kind of signal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Count {
    /// Failed streams it fired first in.
    captures: usize,
    /// Their output bytes, and those that came after the signal.
    bytes: usize,
    after: usize,
    /// About how many of their output's tokens came after it, for the streams whose usage
    /// says their tokens.
    tokens_after: u64,
    /// Streams it fired first in whose answer had a value all the same.
    with_value: usize,
}

/// The early signals of a run's streams, by kind (runaway, tool-call-text, refusal,
/// invalid).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct EarlySignals {
    kinds: Vec<(SignalKind, Count)>,
}

impl EarlySignals {
    /// Count a stream's first signal; `failed`: its answer had no value.
    pub(crate) fn add(&mut self, early: &EarlySignal, failed: bool) {
        let at = match self.kinds.iter().position(|(kind, _)| *kind == early.kind) {
            Some(at) => at,
            None => {
                // In one order whatever order the streams came in.
                let at = self
                    .kinds
                    .iter()
                    .position(|(kind, _)| rank(*kind) > rank(early.kind))
                    .unwrap_or(self.kinds.len());
                self.kinds.insert(at, (early.kind, Count::default()));
                at
            }
        };
        let count = &mut self.kinds[at].1;
        if failed {
            count.captures += 1;
            count.bytes += early.bytes;
            count.after += early.bytes_after();
            count.tokens_after += early.tokens_after().unwrap_or(0);
        } else {
            count.with_value += 1;
        }
    }

    /// `early signals in streams: runaway 3 (91% of their output after it), refusal 1
    /// (64%)`; none when no stream had one.
    pub(crate) fn line(&self) -> Option<String> {
        let parts: Vec<String> = self
            .kinds
            .iter()
            .filter(|(_, count)| count.captures > 0 || count.with_value > 0)
            .enumerate()
            .map(|(i, (kind, count))| part(*kind, count, i == 0))
            .collect();
        (!parts.is_empty()).then(|| format!("early signals in streams: {}", parts.join(", ")))
    }
}

/// Where a kind is said among the others: the costliest to let run first.
fn rank(kind: SignalKind) -> usize {
    [
        SignalKind::Runaway,
        SignalKind::ToolCallText,
        SignalKind::Refusal,
        SignalKind::Invalid,
    ]
    .iter()
    .position(|k| *k == kind)
    .unwrap_or(usize::MAX)
}

fn part(kind: SignalKind, count: &Count, first: bool) -> String {
    let mut part = format!("{} {}", kind.as_str(), count.captures);
    if count.captures > 0 {
        let share = percent(count.after, count.bytes);
        let whose = if first {
            " of their output after it"
        } else {
            ""
        };
        let tokens = match count.tokens_after {
            0 => String::new(),
            tokens => format!(", about {tokens} tokens"),
        };
        part.push_str(&format!(" ({share}{whose}{tokens})"));
    }
    if count.with_value > 0 {
        part.push_str(&format!(" and {} that still had a value", count.with_value));
    }
    part
}

impl Serialize for EarlySignals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.kinds.len()))?;
        for (kind, count) in &self.kinds {
            map.serialize_entry(
                kind.as_str(),
                &serde_json::json!({
                    "captures": count.captures,
                    "output_bytes": count.bytes,
                    "bytes_after": count.after,
                    "tokens_after": count.tokens_after,
                    "with_value": count.with_value,
                }),
            )?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signal(kind: SignalKind, byte: usize, bytes: usize) -> EarlySignal {
        EarlySignal {
            kind,
            byte,
            chunk: 1,
            chunks: 2,
            bytes,
            ms: None,
            tokens: None,
        }
    }

    #[test]
    fn each_kind_says_its_failed_streams_and_the_share_after_it() {
        let mut early = EarlySignals::default();
        assert_eq!(early.line(), None);
        early.add(&signal(SignalKind::Runaway, 99, 1000), true);
        early.add(&signal(SignalKind::Runaway, 299, 1000), true);
        early.add(&signal(SignalKind::Refusal, 9, 40), true);
        early.add(&signal(SignalKind::Refusal, 9, 40), false);
        // Runaway: 900 + 700 of 2000 bytes after; refusal: 30 of 40.
        assert_eq!(
            early.line().unwrap(),
            "early signals in streams: runaway 2 (80% of their output after it), \
             refusal 1 (75%) and 1 that still had a value"
        );
        let json = serde_json::to_value(&early).unwrap();
        assert_eq!(json["runaway"]["bytes_after"], 1600);
        assert_eq!(json["refusal"]["with_value"], 1);
        assert_eq!(percent(1, 1000), "1%");
        assert_eq!(percent(999, 1000), "99%");
    }
}
