//! Reading a file's captures into the list, whole or in parts: a re-read capture keeps
//! its id (matched by source), and what a file no longer holds leaves.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::capture::Capture;
use crate::engine::Outcome;
use crate::mix::MixKey;
use crate::tui::action::{EntryId, Loaded};
use crate::tui::search::Query;

use super::matching::matches;
use super::question_of;
use super::{slim, sort_key, Entries, Entry};

/// A file whose captures arrive in parts: its earlier entries, matched by source
/// as the parts come so a re-read capture keeps its id.
#[derive(Debug, Default)]
pub(super) struct Reading {
    old: HashMap<String, Entry>,
    mark_changes: bool,
}

impl Entries {
    /// Replace everything read from `path` with `loaded` (empty when the file is gone).
    /// A capture whose source was already listed keeps its id, so the selection stays put.
    /// Returns the ids of the new entries. (The app reads a file through [`begin_file`],
    /// [`add_to_file`] and [`end_file`], whole or in parts; this is their whole-file use.)
    ///
    /// [`begin_file`]: Entries::begin_file
    /// [`add_to_file`]: Entries::add_to_file
    /// [`end_file`]: Entries::end_file
    #[cfg(test)]
    pub(crate) fn replace_file(
        &mut self,
        path: &Path,
        loaded: Vec<Loaded>,
        query: Option<&Query>,
        mark_changes: bool,
    ) -> Vec<EntryId> {
        self.begin_file(path, mark_changes);
        let ids = self.add_to_file(path, loaded, query, false);
        self.end_file(path);
        ids
    }

    /// Start reading `path` again, in parts: its entries leave the list and wait to be
    /// matched by the captures that come.
    pub(crate) fn begin_file(&mut self, path: &Path, mark_changes: bool) {
        let mut old: HashMap<String, Entry> = HashMap::new();
        for id in self.by_path.remove(path).unwrap_or_default() {
            if let Some(entry) = self.remove(id) {
                old.insert(entry.capture.source.clone(), entry.clone());
            }
        }
        let reading = Reading { old, mark_changes };
        self.reading.insert(path.to_path_buf(), reading);
    }

    /// Add a part of `path`'s captures, their outcomes `slim` or whole; returns the
    /// ids of the new entries.
    pub(crate) fn add_to_file(
        &mut self,
        path: &Path,
        loaded: Vec<Loaded>,
        query: Option<&Query>,
        slim_outcomes: bool,
    ) -> Vec<EntryId> {
        let mut reading = self.reading.remove(path).unwrap_or_default();
        // A log of identical lines gives identical outcomes: one is kept for all of them.
        let mut last: Option<Arc<Outcome>> = None;
        let adding = Adding {
            query,
            slim_outcomes,
            mark_changes: reading.mark_changes,
        };
        let ids: Vec<EntryId> = loaded
            .into_iter()
            .map(|one| {
                let previous = reading.old.remove(&one.capture.source);
                self.add_one(one, previous, &adding, &mut last)
            })
            .collect();
        if !ids.is_empty() {
            self.by_path
                .entry(path.to_path_buf())
                .or_default()
                .extend(&ids);
        }
        self.reading.insert(path.to_path_buf(), reading);
        self.dirty = true;
        ids
    }

    /// Add one capture, carrying over what its `previous` entry keeps; its id.
    fn add_one(
        &mut self,
        loaded: Loaded,
        previous: Option<Entry>,
        adding: &Adding<'_>,
        last: &mut Option<Arc<Outcome>>,
    ) -> EntryId {
        let Loaded {
            capture,
            outcome,
            request,
            modified,
        } = loaded;
        // Searched while whole: a slim outcome has no value to search.
        let asked = request.as_deref().and_then(question_of);
        let matched = adding
            .query
            .is_some_and(|q| matches(q, &capture, &outcome, asked));
        let outcome = self.shared_outcome(outcome, adding.slim_outcomes, last);
        let (id, saved, changed, fresh) = match previous {
            Some(previous) => carried_over(
                previous,
                (&capture, &outcome),
                adding.slim_outcomes,
                adding.mark_changes,
            ),
            None => self.new_entry(adding.mark_changes),
        };
        if fresh {
            self.arrived.push(!outcome.ok());
        }
        let (file_end, line) = sort_key(&capture);
        let saved = saved.or_else(|| self.fixture_of(&capture));
        self.index.insert(id, self.all.len());
        self.mix_all.add(MixKey::of(&outcome));
        self.all.push(Entry {
            id,
            capture: Arc::new(capture),
            outcome,
            saved,
            matched,
            changed,
            gone: false,
            modified,
            request,
            slim: adding.slim_outcomes,
            removed: false,
            file_end,
            line,
        });
        id
    }

    /// The outcome as the list keeps it: slim ones shared by value, whole ones with the
    /// `last` when they are equal.
    fn shared_outcome(
        &mut self,
        outcome: Outcome,
        slim_outcomes: bool,
        last: &mut Option<Arc<Outcome>>,
    ) -> Arc<Outcome> {
        let outcome = if slim_outcomes {
            self.shared.get(slim(&outcome))
        } else {
            match last.take() {
                Some(shared) if *shared == outcome => shared,
                _ => Arc::new(outcome),
            }
        };
        *last = Some(Arc::clone(&outcome));
        outcome
    }

    /// A capture that was not in the list: a new id, nothing saved, changed and fresh when
    /// changes are marked.
    fn new_entry(&mut self, mark_changes: bool) -> (EntryId, Option<PathBuf>, bool, bool) {
        self.next_id += 1;
        (self.next_id, None, mark_changes, mark_changes)
    }

    /// `path` is read: its earlier captures that did not come again are gone.
    pub(crate) fn end_file(&mut self, path: &Path) {
        self.reading.remove(path);
    }
}

/// How one part of a file's captures is added.
struct Adding<'a> {
    query: Option<&'a Query>,
    slim_outcomes: bool,
    mark_changes: bool,
}

/// What a capture read again keeps of its earlier entry: its id, its saved fixture while the
/// text is the same, and whether it is marked changed (when the file's changes are marked
/// and its text or outcome differs).
fn carried_over(
    previous: Entry,
    (capture, outcome): (&Capture, &Arc<Outcome>),
    slim_outcomes: bool,
    mark_changes: bool,
) -> (EntryId, Option<PathBuf>, bool, bool) {
    let same_text = previous.capture.text == capture.text;
    // A slim outcome only says what the list shows, so when either side is slim (a file
    // once read in parts is read whole now, or the other way) the slim forms are compared.
    let same_outcome = match slim_outcomes || previous.slim {
        true => slim(&previous.outcome) == slim(outcome),
        false => previous.outcome == *outcome,
    };
    let differs = !same_text || !same_outcome;
    let fresh = mark_changes && differs;
    (
        previous.id,
        previous.saved.filter(|_| same_text),
        previous.changed || fresh,
        fresh,
    )
}
