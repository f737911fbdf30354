//! Choosing among the candidates that parsed, the way a careful reader would.

use super::candidate::Parsed;
use super::options::Pick;
use super::trace::Slot;

/// A parsed candidate and where its trace entry is.
pub(crate) struct Entry {
    pub parsed: Parsed,
    pub slot: Slot,
    /// Where the candidate's container ends (a fence's closing marker line),
    /// so that only what follows it counts as trailing prose.
    pub outer_end: usize,
}

/// The chosen candidate, the ones that lost (with why), and whether values differed.
pub(crate) struct Winner {
    pub entry: Entry,
    pub losers: Vec<(Slot, String)>,
    pub several_distinct: bool,
}

/// Collects parsed candidates; keeps only what the policy may still pick.
///
/// "Demoted" candidates (a citation like `[1]` inside a sentence, a value
/// inside `{{…}}` template braces) are picked only when nothing better parsed.
pub(crate) struct Pool {
    pick: Pick,
    primary: Option<Entry>,
    demoted: Option<Entry>,
    pub several_distinct: bool,
    /// Trace slots of candidates that lost, with why.
    pub losers: Vec<(Slot, String)>,
}

impl Pool {
    pub(crate) fn new(pick: Pick) -> Pool {
        Pool {
            pick,
            primary: None,
            demoted: None,
            several_distinct: false,
            losers: Vec::new(),
        }
    }

    pub(crate) fn add(&mut self, entry: Entry, demoted_because: Option<String>) {
        // Comparing with what is held is enough to see two distinct values
        // (equality is transitive), and never copies a value.
        let differs = [&self.primary, &self.demoted]
            .into_iter()
            .flatten()
            .any(|held| !held.parsed.value.same_as(&entry.parsed.value));
        self.several_distinct |= differs;
        let pick_reason = self.pick_reason();
        let (held, loser_reason) = match &demoted_because {
            None => (&mut self.primary, pick_reason),
            Some(reason) => (&mut self.demoted, reason.clone()),
        };
        let keep_new = match self.pick {
            Pick::First => held.is_none(),
            Pick::Last => true,
        };
        if keep_new {
            if let Some(old) = held.replace(entry) {
                self.losers.push((old.slot, loser_reason));
            }
        } else {
            self.losers
                .push((entry.slot, demoted_because.unwrap_or(loser_reason)));
        }
    }

    fn pick_reason(&self) -> String {
        match self.pick {
            Pick::First => "an earlier candidate parsed (policy: first)".to_owned(),
            Pick::Last => "a later candidate parsed (policy: last)".to_owned(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.primary.is_none() && self.demoted.is_none()
    }

    /// The winner; a demoted candidate wins only alone.
    pub(crate) fn winner(mut self) -> Option<Winner> {
        let winner = match (self.primary.take(), self.demoted.take()) {
            (Some(primary), Some(demoted)) => {
                self.losers.push((
                    demoted.slot,
                    "looked like part of the prose; a better candidate parsed".to_owned(),
                ));
                primary
            }
            (Some(only), None) | (None, Some(only)) => only,
            (None, None) => return None,
        };
        Some(Winner {
            entry: winner,
            losers: self.losers,
            several_distinct: self.several_distinct,
        })
    }
}
