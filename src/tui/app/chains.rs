//! The selected capture's repair chain: where it sits (`attempt 2 of 2 · re-ask of …` in
//! the header) and `c`, which walks the chain.

use super::{App, EntryId};
use crate::chain::assemble;

/// Where the selected capture sits in its repair chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChainPlace {
    pub(crate) attempt: u32,
    /// The last attempt's number.
    pub(crate) of: u32,
    /// The source of the attempt it re-asks.
    pub(crate) re_ask_of: Option<String>,
    /// The next attempt, the first after the last.
    pub(crate) next: EntryId,
}

impl App {
    /// The selected capture's place in its chain, when it is in one; assembled from the
    /// recorded captures in the list (a handful next to the extraction each costs).
    pub(crate) fn selected_chain(&self) -> Option<ChainPlace> {
        let selected = self.selected_entry()?;
        selected.request.as_ref()?;
        let recorded = self.entries.iter().filter_map(|entry| {
            let request = entry.request.as_deref()?;
            Some((
                entry.id,
                entry.capture.path.as_path(),
                request.chain.as_ref(),
            ))
        });
        let chains = assemble(recorded);
        let chain = chains
            .into_iter()
            .find(|chain| chain.place(selected.id).is_some())?;
        let (at, before) = chain.place(selected.id)?;
        let next = chain.members[(at + 1) % chain.members.len()].key;
        Some(ChainPlace {
            attempt: chain.members[at].attempt,
            of: chain.members.last()?.attempt,
            re_ask_of: before
                .and_then(|id| self.entries.get(id))
                .map(|entry| entry.capture.source.clone()),
            next,
        })
    }

    /// `c`: select the next attempt of the selected capture's chain.
    pub(super) fn next_in_chain(&mut self) {
        let Some(place) = self.selected_chain() else {
            self.warn("not part of a repair chain: chains are recorded re-asks (jxray record) and repair loops run with captures=");
            return;
        };
        match self.entries.position(place.next) {
            Some(position) => self.select_position(position),
            None => self.warn("the chain's next attempt is hidden by the filter"),
        }
    }
}
