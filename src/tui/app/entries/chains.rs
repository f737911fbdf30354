//! Each capture's place in the repair chains among the list's captures, for the filter
//! menu's chain entries. A re-ask that arrives later changes what the captures before it
//! are (re-asked, repaired), so the places are found again over the whole list whenever
//! the view is settled under a chain filter.

use std::collections::HashMap;

use super::super::filter::{ChainRole, Filter};
use super::Entries;
use crate::chain::assemble;
use crate::tui::action::EntryId;

/// What a capture in a chain of two attempts or more is.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Place {
    re_asked: bool,
    repaired: bool,
}

impl Place {
    pub(super) fn is(self, role: ChainRole) -> bool {
        match role {
            ChainRole::InChain => true,
            ChainRole::ReAsked => self.re_asked,
            ChainRole::Repaired => self.repaired,
        }
    }
}

impl Entries {
    /// How many captures `filter` shows (the filter menu's counts).
    pub(crate) fn count_shown(&self, filter: &Filter) -> usize {
        match filter {
            Filter::Chain(role) => {
                let places = self.chain_places();
                let live = places.keys().filter(|id| self.get(**id).is_some());
                live.filter(|id| places[*id].is(*role)).count()
            }
            other => self.iter().filter(|entry| entry.shown_by(other)).count(),
        }
    }

    /// The places of the captures that are in a chain of two attempts or more.
    pub(super) fn chain_places(&self) -> HashMap<EntryId, Place> {
        let recorded = self.all.iter().filter_map(|entry| {
            let request = entry.request.as_deref()?;
            let path = entry.capture.path.as_path();
            Some((entry.id, path, request.chain.as_ref()))
        });
        let mut places = HashMap::new();
        for chain in assemble(recorded) {
            let Some((last, before)) = chain.members.split_last() else {
                continue;
            };
            if before.is_empty() {
                continue;
            }
            let repaired = self.get(last.key).is_some_and(|entry| entry.outcome.ok());
            for member in before {
                places.insert(
                    member.key,
                    Place {
                        re_asked: true,
                        repaired,
                    },
                );
            }
            places.insert(
                last.key,
                Place {
                    re_asked: false,
                    repaired,
                },
            );
        }
        places
    }
}
