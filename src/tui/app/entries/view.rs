//! The list view: the entries under the filter, in the sort's order, with the view's mix
//! and the folder every source shares; settled once per burst of changes.

use crate::mix::{Mix, MixKey};

use super::super::filter::{outcome_rank, Filter, Kinds, Sort};
use super::{Entries, Questions};

impl Entries {
    pub(crate) fn set_filter(&mut self, filter: Filter) {
        self.filter = filter;
        self.touch();
    }

    pub(crate) fn set_sort(&mut self, sort: Sort) {
        self.sort = sort;
        self.touch();
    }

    /// Sort, filter and count again if anything changed since the last time.
    pub(crate) fn settle(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let changed = std::mem::take(&mut self.changed);
        let from = self.counted.min(self.all.len());
        // Removing an entry is a change: when nothing changed, `all` holds no removed entry.
        // Under a chain filter, a re-ask that arrives changes what the captures before it are.
        let appended = !changed
            && from > 0
            && !matches!(self.filter, Filter::Chain(_))
            && self.sort == Sort::Source
            && self.all[from - 1..].is_sorted_by(|a, b| a.sort_key() <= b.sort_key());
        if appended {
            self.count(from);
        } else {
            self.compact_and_sort();
            self.view.clear();
            self.mix_view = Mix::new();
            self.kinds = Kinds::default();
            self.questions = Questions::default();
            self.count(0);
            match self.sort {
                Sort::Source => {}
                // Stable: ties keep source order.
                Sort::Outcome => {
                    let all = &self.all;
                    self.view.sort_by_key(|&i| outcome_rank(&all[i].outcome));
                }
                Sort::Modified => {
                    let all = &self.all;
                    self.view.sort_by(|&a, &b| all[b].age().cmp(&all[a].age()));
                }
            }
        }
        self.counted = self.all.len();
    }

    /// Drop the removed entries and sort by source, re-indexing only if anything moved.
    fn compact_and_sort(&mut self) {
        let before = self.all.len();
        self.all.retain(|entry| !entry.removed);
        let mut moved = self.all.len() != before;
        if !self.all.is_sorted_by(|a, b| a.sort_key() <= b.sort_key()) {
            self.all.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            moved = true;
        }
        if moved {
            self.rebuild_index();
        }
    }

    /// Add the entries of `all` from `from` on to the view (in source order) and the
    /// counts. The counts are of live captures: a file marked gone no longer counts.
    fn count(&mut self, from: usize) {
        let places = match self.filter {
            Filter::Chain(role) => Some((role, self.chain_places())),
            _ => None,
        };
        for (i, entry) in self.all.iter().enumerate().skip(from) {
            self.kinds.add(&entry.outcome);
            self.kinds.add_groups(entry.model(), entry.prompt_group());
            self.kinds
                .add_link(entry.request.as_ref().is_some_and(|r| r.chain.is_some()));
            self.questions.add(entry.question());
            let shown = match &places {
                Some((role, places)) => places.get(&entry.id).is_some_and(|p| p.is(*role)),
                None => entry.shown_by(&self.filter),
            };
            if shown {
                self.view.push(i);
            }
            if shown && !entry.gone {
                self.mix_view.add(MixKey::of(&entry.outcome));
            }
        }
        let sources = self.all[from..].iter().map(|e| e.capture.source.as_str());
        self.folder = if from == 0 {
            common_folder(sources)
        } else {
            common_folder(std::iter::once(self.folder.as_str()).chain(sources))
        };
    }

    fn rebuild_index(&mut self) {
        self.index = self
            .all
            .iter()
            .enumerate()
            .map(|(i, entry)| (entry.id, i))
            .collect();
    }
}

/// The longest folder prefix (ending in `/`) that every source shares.
pub(super) fn common_folder<'a>(mut sources: impl Iterator<Item = &'a str>) -> String {
    let Some(first) = sources.next() else {
        return String::new();
    };
    let mut common = first.rfind('/').map_or("", |at| &first[..=at]);
    for source in sources {
        while !common.is_empty() && !source.starts_with(common) {
            let shorter = &common[..common.len() - 1];
            common = shorter.rfind('/').map_or("", |at| &shorter[..=at]);
        }
        if common.is_empty() {
            break;
        }
    }
    common.to_string()
}
