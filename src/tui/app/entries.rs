//! The captures the app knows, and the filtered, sorted view the list shows.
//!
//! Results arrive in bursts from background threads; adding is cheap and
//! marks the view dirty, and [`Entries::settle`] re-sorts and re-filters once
//! per burst.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::capture::Capture;
use crate::engine::Outcome;
use crate::tui::action::{EntryId, Loaded};
use crate::tui::search::Query;
use crate::watch::{Mix, MixKey};

use super::filter::{outcome_rank, Filter, Sort, Tally};

/// One capture in the list.
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: EntryId,
    pub capture: Arc<Capture>,
    pub outcome: Arc<Outcome>,
    /// Where it was saved as a fixture this session.
    pub saved: Option<PathBuf>,
    /// Whether the current search matches its source or text.
    pub matched: bool,
    /// New or different since watching re-read it, until the user looks at it.
    pub changed: bool,
    /// Its file is gone; it leaves the list with the next change.
    pub gone: bool,
    /// Taken out of the list (re-read or dropped); compacted away by `settle`.
    removed: bool,
    /// The file part of the source and the line: `log.jsonl:2` sorts before `log.jsonl:10`.
    sort_key: (String, usize),
}

#[derive(Debug, Default)]
pub struct Entries {
    all: Vec<Entry>,
    next_id: EntryId,
    /// The entries each file contributed: re-reading or removing a file touches only its
    /// own entries, never the whole list (20,000 deletions must not be quadratic).
    by_path: HashMap<PathBuf, Vec<EntryId>>,
    /// Position in `all` of every live entry (removed ones are not in it).
    index: HashMap<EntryId, usize>,
    /// Entries marked gone, dropped at the next change.
    gone: Vec<EntryId>,
    /// Positions in `all` of the entries the list shows, in list order.
    pub view: Vec<usize>,
    pub filter: Filter,
    pub sort: Sort,
    /// The whole folder's mix, and the mix under the filter.
    pub tally_all: Tally,
    pub tally_view: Tally,
    /// The whole folder's mix by badge word, to set beside a baseline's.
    pub mix_all: Mix,
    /// Hashes of the inputs in the fixtures folder, and their files.
    fixtures: HashMap<u64, PathBuf>,
    dirty: bool,
}

impl Entries {
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The entry at list position `position`.
    pub fn at(&self, position: usize) -> Option<&Entry> {
        self.view.get(position).and_then(|&i| self.all.get(i))
    }

    pub fn get(&self, id: EntryId) -> Option<&Entry> {
        self.index.get(&id).and_then(|&i| self.all.get(i))
    }

    pub fn get_mut(&mut self, id: EntryId) -> Option<&mut Entry> {
        let i = *self.index.get(&id)?;
        self.dirty = true;
        self.all.get_mut(i)
    }

    /// The list position of an entry, if the view shows it.
    pub fn position(&self, id: EntryId) -> Option<usize> {
        let i = *self.index.get(&id)?;
        self.view.iter().position(|&v| v == i)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.all.iter().filter(|entry| !entry.removed)
    }

    /// Replace everything read from `path` with `loaded` (empty when the file is gone).
    /// A capture whose source was already listed keeps its id, so the selection stays put.
    /// Returns the ids of the new entries.
    pub fn replace_file(
        &mut self,
        path: &Path,
        loaded: Vec<Loaded>,
        query: Option<&Query>,
        mark_changes: bool,
    ) -> Vec<EntryId> {
        let mut old: HashMap<String, Entry> = HashMap::new();
        for id in self.by_path.remove(path).unwrap_or_default() {
            if let Some(entry) = self.remove(id) {
                old.insert(entry.capture.source.clone(), entry.clone());
            }
        }
        let mut ids = Vec::with_capacity(loaded.len());
        for Loaded { capture, outcome } in loaded {
            let previous = old.remove(&capture.source);
            let same_text = previous
                .as_ref()
                .is_some_and(|p| p.capture.text == capture.text);
            let differs = !same_text || previous.as_ref().is_some_and(|p| *p.outcome != outcome);
            let (id, saved, changed) = match previous {
                Some(p) => (
                    p.id,
                    p.saved.filter(|_| same_text),
                    p.changed || (mark_changes && differs),
                ),
                None => {
                    self.next_id += 1;
                    (self.next_id, None, mark_changes)
                }
            };
            let matched = query.is_some_and(|q| matches(q, &capture));
            let sort_key = sort_key(&capture);
            let saved = saved.or_else(|| self.fixture_of(&capture));
            self.index.insert(id, self.all.len());
            self.all.push(Entry {
                id,
                capture: Arc::new(capture),
                outcome: Arc::new(outcome),
                saved,
                matched,
                changed,
                gone: false,
                removed: false,
                sort_key,
            });
            ids.push(id);
        }
        if !ids.is_empty() {
            self.by_path.insert(path.to_path_buf(), ids.clone());
        }
        self.dirty = true;
        ids
    }

    /// Take an entry out of the list in O(1): it stays in `all` as a tombstone until
    /// [`Entries::settle`] compacts.
    fn remove(&mut self, id: EntryId) -> Option<&Entry> {
        let i = self.index.remove(&id)?;
        self.dirty = true;
        let entry = &mut self.all[i];
        entry.removed = true;
        Some(entry)
    }

    /// Mark the captures read from `path` (a file, or everything under a folder) as gone.
    /// A file costs only its own entries; a folder, one look at each known file.
    pub fn mark_gone(&mut self, path: &Path) -> usize {
        let ids: Vec<EntryId> = match self.by_path.get(path) {
            Some(ids) => ids.clone(),
            None => self
                .by_path
                .iter()
                .filter(|(file, _)| file.starts_with(path))
                .flat_map(|(_, ids)| ids.iter().copied())
                .collect(),
        };
        let mut count = 0;
        for id in ids {
            let Some(&i) = self.index.get(&id) else {
                continue;
            };
            let entry = &mut self.all[i];
            if !entry.gone {
                entry.gone = true;
                self.gone.push(id);
                count += 1;
            }
        }
        self.dirty |= count > 0;
        count
    }

    /// Drop the captures marked gone (only those: the rest of the list is not looked at).
    pub fn drop_gone(&mut self) {
        for id in std::mem::take(&mut self.gone) {
            let Some(&i) = self.index.get(&id) else {
                continue;
            };
            if !self.all[i].gone {
                continue;
            }
            let path = self.all[i].capture.path.clone();
            self.remove(id);
            if let Some(ids) = self.by_path.get_mut(&path) {
                ids.retain(|&other| other != id);
                if ids.is_empty() {
                    self.by_path.remove(&path);
                }
            }
        }
    }

    /// Every file the captures came from.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.by_path.keys().cloned().collect()
    }

    /// Remember which inputs are fixtures already and mark their captures saved.
    pub fn set_fixtures(&mut self, fixtures: HashMap<u64, PathBuf>) {
        self.fixtures = fixtures;
        for i in 0..self.all.len() {
            if self.all[i].saved.is_none() {
                self.all[i].saved = self.fixture_of(&self.all[i].capture);
            }
        }
        self.dirty = true;
    }

    /// Record a fixture written for an entry.
    pub fn set_saved(&mut self, id: EntryId, path: PathBuf) {
        if let Some(entry) = self.get_mut(id) {
            if let Ok(text) = &entry.capture.text {
                let hash = input_hash(text);
                entry.saved = Some(path.clone());
                self.fixtures.insert(hash, path);
            }
        }
    }

    fn fixture_of(&self, capture: &Capture) -> Option<PathBuf> {
        if self.fixtures.is_empty() {
            return None;
        }
        let text = capture.text.as_ref().ok()?;
        self.fixtures.get(&input_hash(text)).cloned()
    }

    /// Set a new outcome on an entry (after re-extraction).
    pub fn set_outcome(&mut self, id: EntryId, outcome: Outcome) {
        if let Some(entry) = self.get_mut(id) {
            entry.outcome = Arc::new(outcome);
        }
    }

    /// Re-run the search over every entry; returns how many match.
    pub fn mark_matches(&mut self, query: Option<&Query>) -> usize {
        let mut count = 0;
        for entry in self.all.iter_mut().filter(|entry| !entry.removed) {
            entry.matched = query.is_some_and(|q| matches(q, &entry.capture));
            count += usize::from(entry.matched);
        }
        self.dirty = true;
        count
    }

    pub fn set_filter(&mut self, filter: Filter) {
        self.filter = filter;
        self.dirty = true;
    }

    pub fn set_sort(&mut self, sort: Sort) {
        self.sort = sort;
        self.dirty = true;
    }

    /// Sort, filter and count again if anything changed since the last time.
    pub fn settle(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        self.all.retain(|entry| !entry.removed);
        self.all.sort_by(|a, b| a.sort_key.cmp(&b.sort_key));
        self.rebuild_index();
        let mut view: Vec<usize> = (0..self.all.len())
            .filter(|&i| self.filter.matches(&self.all[i].outcome))
            .collect();
        if self.sort == Sort::Outcome {
            // Stable: ties keep source order.
            view.sort_by_key(|&i| outcome_rank(&self.all[i].outcome));
        }
        // The counts are of live captures: a file marked gone no longer counts.
        self.tally_all = Tally::default();
        self.mix_all = Mix::new();
        for entry in self.all.iter().filter(|entry| !entry.gone) {
            self.tally_all.add(&entry.outcome);
            self.mix_all.add(MixKey::of(&entry.outcome));
        }
        self.tally_view = Tally::default();
        for &i in view.iter().filter(|&&i| !self.all[i].gone) {
            self.tally_view.add(&self.all[i].outcome);
        }
        self.view = view;
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

/// A fixture's input, hashed: enough to recognise a capture that is a fixture already.
pub fn input_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// Sources sort as `jxray check` sorts them: by file, then by line number.
fn sort_key(capture: &Capture) -> (String, usize) {
    let line = capture.line.unwrap_or(0);
    let file = capture
        .line
        .and_then(|line| capture.source.strip_suffix(&format!(":{line}")))
        .unwrap_or(&capture.source);
    (file.to_string(), line)
}

/// Whether a search query matches a capture's source or raw text.
pub fn matches(query: &Query, capture: &Capture) -> bool {
    query.is_in(&capture.source) || capture.text.as_deref().is_ok_and(|text| query.is_in(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Layer;

    fn loaded(source: &str, path: &str, layer: Option<Layer>) -> Loaded {
        let mut capture = Capture::from_text(source, "text");
        capture.path = PathBuf::from(path);
        let outcome = match layer {
            Some(layer) => Outcome {
                layer: Some(layer),
                value: Some(serde_json::json!({})),
                ..Outcome::default()
            },
            None => Outcome::unreadable("gone"),
        };
        Loaded { capture, outcome }
    }

    #[test]
    fn entries_sort_by_source_and_filter() {
        let mut entries = Entries::default();
        entries.replace_file(
            Path::new("b"),
            vec![loaded("b", "b", Some(Layer::Direct))],
            None,
            false,
        );
        entries.replace_file(Path::new("a"), vec![loaded("a", "a", None)], None, false);
        entries.settle();
        let sources: Vec<&str> = (0..2)
            .map(|i| entries.at(i).unwrap().capture.source.as_str())
            .collect();
        assert_eq!(sources, ["a", "b"]);
        entries.set_filter(Filter::Failures);
        entries.settle();
        assert_eq!(entries.view.len(), 1);
        assert_eq!(entries.tally_all.total, 2);
        assert_eq!(entries.tally_view.total, 1);
    }

    #[test]
    fn rereading_a_file_keeps_ids_by_source_and_drops_the_gone() {
        let mut entries = Entries::default();
        let first = entries.replace_file(
            Path::new("log.jsonl"),
            vec![
                loaded("log.jsonl:1", "log.jsonl", None),
                loaded("log.jsonl:2", "log.jsonl", None),
            ],
            None,
            false,
        );
        let again = entries.replace_file(
            Path::new("log.jsonl"),
            vec![loaded("log.jsonl:2", "log.jsonl", Some(Layer::Fenced))],
            None,
            false,
        );
        entries.settle();
        assert_eq!(again, [first[1]]);
        assert_eq!(entries.len(), 1);
        assert!(entries.get(first[0]).is_none());
        entries.replace_file(Path::new("log.jsonl"), Vec::new(), None, false);
        entries.settle();
        assert!(entries.is_empty());
    }

    #[test]
    fn gone_files_leave_the_counts_at_once_and_the_list_at_the_next_change() {
        let mut entries = Entries::default();
        for name in ["dir/a", "dir/b", "c"] {
            entries.replace_file(
                Path::new(name),
                vec![loaded(name, name, Some(Layer::Direct))],
                None,
                false,
            );
        }
        entries.settle();
        assert_eq!(entries.mark_gone(Path::new("dir")), 2);
        assert_eq!(entries.mark_gone(Path::new("c")), 1);
        assert_eq!(entries.mark_gone(Path::new("c")), 0, "already gone");
        entries.settle();
        assert_eq!(
            entries.tally_all.total, 0,
            "the footer counts live captures"
        );
        assert_eq!(entries.len(), 3, "still listed, marked gone");
        entries.drop_gone();
        entries.settle();
        assert!(entries.is_empty());
        assert!(entries.paths().is_empty());
        // A file that comes back is listed again.
        entries.replace_file(Path::new("c"), vec![loaded("c", "c", None)], None, false);
        entries.settle();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries.at(0).unwrap().capture.source, "c");
    }

    #[test]
    fn jsonl_lines_sort_by_number() {
        let mut entries = Entries::default();
        let lines: Vec<Loaded> = [10, 2, 1]
            .iter()
            .map(|n| {
                let mut l = loaded(&format!("log.jsonl:{n}"), "log.jsonl", None);
                l.capture.line = Some(*n);
                l
            })
            .collect();
        entries.replace_file(Path::new("log.jsonl"), lines, None, false);
        entries.replace_file(
            Path::new("a"),
            vec![loaded("log.jsonl.txt", "a", None)],
            None,
            false,
        );
        entries.settle();
        let sources: Vec<&str> = (0..4)
            .map(|i| entries.at(i).unwrap().capture.source.as_str())
            .collect();
        assert_eq!(
            sources,
            [
                "log.jsonl:1",
                "log.jsonl:2",
                "log.jsonl:10",
                "log.jsonl.txt"
            ]
        );
    }

    #[test]
    fn search_marks_sources_and_texts() {
        let mut entries = Entries::default();
        entries.replace_file(
            Path::new("a"),
            vec![loaded("alpha", "a", None)],
            None,
            false,
        );
        entries.replace_file(Path::new("b"), vec![loaded("beta", "b", None)], None, false);
        assert_eq!(entries.mark_matches(Query::new("alp").as_ref()), 1);
        assert_eq!(entries.mark_matches(Query::new("TEXT").as_ref()), 0);
        assert_eq!(entries.mark_matches(Query::new("text").as_ref()), 2);
    }
}
