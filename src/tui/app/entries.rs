//! The captures the app knows, and the filtered, sorted view the list shows.
//!
//! Results arrive in bursts from background threads; adding is cheap and
//! marks the view dirty, and [`Entries::settle`] re-sorts and re-filters once
//! per burst.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::capture::{Capture, RecordedRequest};
use crate::engine::Outcome;
use crate::tui::action::{EntryId, Loaded};
use crate::tui::detail::Subject;
use crate::tui::search::Query;
use crate::watch::{Mix, MixKey};

use super::filter::{outcome_rank, Filter, Kinds, Sort, Tally};
use super::slim::{slim, Shared};

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
    /// Its file's modification time when it was read (`t` sorts by it, `F` follows it).
    pub modified: Option<SystemTime>,
    /// The request `jxray record` wrote beside its file, read with it.
    pub request: Option<Arc<RecordedRequest>>,
    /// Its outcome is slim (see [`super::slim`]): read in parts, not selected since.
    pub slim: bool,
    /// Taken out of the list (re-read or dropped); compacted away by `settle`.
    removed: bool,
    /// Where the file part of the source ends, and the line: `log.jsonl:2` sorts
    /// before `log.jsonl:10` (offsets, not a copy: a million entries are a million strings less).
    file_end: usize,
    line: usize,
}

impl Entry {
    /// What its panes are built from.
    pub fn subject(&self) -> Subject {
        Subject {
            id: self.id,
            capture: Arc::clone(&self.capture),
            outcome: Arc::clone(&self.outcome),
            request: self.request.clone(),
        }
    }
}

/// A file whose captures arrive in parts: its earlier entries, matched by source
/// as the parts come so a re-read capture keeps its id.
#[derive(Debug, Default)]
struct Reading {
    old: HashMap<String, Entry>,
    mark_changes: bool,
    modified: Option<SystemTime>,
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
    /// Files being read in parts, with what they held before.
    reading: HashMap<PathBuf, Reading>,
    /// Entries of `all` the view and the counts cover: new ones that only were
    /// appended in order are counted alone (a million-line log arrives in parts).
    counted: usize,
    /// Something besides appending happened since the last settle.
    changed: bool,
    /// The slim outcomes, one of each.
    shared: Shared,
    /// Positions in `all` of the entries the list shows, in list order.
    pub view: Vec<usize>,
    pub filter: Filter,
    pub sort: Sort,
    /// The whole folder's mix, and the mix under the filter.
    pub tally_all: Tally,
    pub tally_view: Tally,
    /// The folder every source starts with (`runs/2026-11/`), shown once over the list.
    pub folder: String,
    /// The whole folder's mix by badge word, to set beside a baseline's.
    pub mix_all: Mix,
    /// The causes, defects and warnings the captures have: the filter menu's choices.
    pub kinds: Kinds,
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
        self.touch();
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
    /// Returns the ids of the new entries. (The app reads a file through [`begin_file`],
    /// [`add_to_file`] and [`end_file`], whole or in parts; this is their whole-file use.)
    ///
    /// [`begin_file`]: Entries::begin_file
    /// [`add_to_file`]: Entries::add_to_file
    /// [`end_file`]: Entries::end_file
    #[cfg(test)]
    pub fn replace_file(
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
    pub fn begin_file(&mut self, path: &Path, mark_changes: bool) {
        let mut old: HashMap<String, Entry> = HashMap::new();
        for id in self.by_path.remove(path).unwrap_or_default() {
            if let Some(entry) = self.remove(id) {
                old.insert(entry.capture.source.clone(), entry.clone());
            }
        }
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let reading = Reading {
            old,
            mark_changes,
            modified,
        };
        self.reading.insert(path.to_path_buf(), reading);
    }

    /// Add a part of `path`'s captures, their outcomes `slim` or whole; returns the
    /// ids of the new entries.
    pub fn add_to_file(
        &mut self,
        path: &Path,
        loaded: Vec<Loaded>,
        query: Option<&Query>,
        slim_outcomes: bool,
    ) -> Vec<EntryId> {
        let mut reading = self.reading.remove(path).unwrap_or_default();
        let mut ids = Vec::with_capacity(loaded.len());
        // A log of identical lines gives identical outcomes: one is kept for all of them.
        let mut last: Option<Arc<Outcome>> = None;
        for Loaded {
            capture,
            outcome,
            request,
        } in loaded
        {
            let previous = reading.old.remove(&capture.source);
            // Searched while whole: a slim outcome has no value to search.
            let matched = query.is_some_and(|q| matches(q, &capture, &outcome));
            let outcome = if slim_outcomes {
                self.shared.get(slim(&outcome))
            } else {
                match last.take() {
                    Some(shared) if *shared == outcome => shared,
                    _ => Arc::new(outcome),
                }
            };
            last = Some(Arc::clone(&outcome));
            let same_text = previous
                .as_ref()
                .is_some_and(|p| p.capture.text == capture.text);
            let same_outcome = previous.as_ref().is_some_and(|p| match slim_outcomes {
                true => slim(&p.outcome) == *outcome,
                false => p.outcome == outcome,
            });
            let differs = !same_text || (previous.is_some() && !same_outcome);
            let (id, saved, changed) = match previous {
                Some(p) => (
                    p.id,
                    p.saved.filter(|_| same_text),
                    p.changed || (reading.mark_changes && differs),
                ),
                None => {
                    self.next_id += 1;
                    (self.next_id, None, reading.mark_changes)
                }
            };
            let (file_end, line) = sort_key(&capture);
            let saved = saved.or_else(|| self.fixture_of(&capture));
            self.index.insert(id, self.all.len());
            self.all.push(Entry {
                id,
                capture: Arc::new(capture),
                outcome,
                saved,
                matched,
                changed,
                gone: false,
                modified: reading.modified,
                request,
                slim: slim_outcomes,
                removed: false,
                file_end,
                line,
            });
            ids.push(id);
        }
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

    /// Make room for `more` entries at once: growing a list of a million by doubling
    /// copies it, and its index, on the UI thread again and again.
    pub fn make_room(&mut self, more: usize) {
        self.all.reserve(more);
        self.index.reserve(more);
        self.view.reserve(more);
    }

    /// `path` is read: its earlier captures that did not come again are gone.
    pub fn end_file(&mut self, path: &Path) {
        self.reading.remove(path);
    }

    /// Something other than appending changed: the next settle starts over.
    fn touch(&mut self) {
        self.dirty = true;
        self.changed = true;
    }

    /// Take an entry out of the list in O(1): it stays in `all` as a tombstone until
    /// [`Entries::settle`] compacts.
    fn remove(&mut self, id: EntryId) -> Option<&Entry> {
        let i = self.index.remove(&id)?;
        self.touch();
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
        self.mark_ids_gone(ids)
    }

    /// Mark the captures of the file at exactly `path` gone (a folder took its place);
    /// captures below `path` are left alone.
    pub fn mark_file_gone(&mut self, path: &Path) -> usize {
        let ids = self.by_path.get(path).cloned().unwrap_or_default();
        self.mark_ids_gone(ids)
    }

    fn mark_ids_gone(&mut self, ids: Vec<EntryId>) -> usize {
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
        if count > 0 {
            self.touch();
        }
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
        self.touch();
    }

    /// Record a fixture written for an entry.
    pub fn set_saved(&mut self, id: EntryId, path: PathBuf) {
        if let Some(entry) = self.get_mut(id) {
            if let Ok(text) = &entry.capture.text {
                let hash = crate::fixture::input_hash(text);
                entry.saved = Some(path.clone());
                self.fixtures.insert(hash, path);
            }
        }
    }

    /// Drop an entry's saved mark (its fixture file was deleted).
    pub fn forget_saved(&mut self, id: EntryId) {
        let path = self.get_mut(id).and_then(|entry| entry.saved.take());
        if let Some(path) = path {
            self.fixtures.retain(|_, fixture| *fixture != path);
        }
    }

    fn fixture_of(&self, capture: &Capture) -> Option<PathBuf> {
        if self.fixtures.is_empty() {
            return None;
        }
        let text = capture.text.as_ref().ok()?;
        self.fixtures
            .get(&crate::fixture::input_hash(text))
            .cloned()
    }

    /// Set a new outcome on an entry (after re-extraction), slim if its was.
    pub fn set_outcome(&mut self, id: EntryId, outcome: Outcome) {
        let outcome = match self.get(id).is_some_and(|entry| entry.slim) {
            true => self.shared.get(slim(&outcome)),
            false => Arc::new(outcome),
        };
        if let Some(entry) = self.get_mut(id) {
            entry.outcome = outcome;
        }
    }

    /// Give a slim entry its whole outcome (it was selected). What the list shows
    /// of it stays the same, so nothing is counted again.
    pub fn expand(&mut self, id: EntryId, outcome: Arc<Outcome>) {
        if let Some(&i) = self.index.get(&id) {
            let entry = &mut self.all[i];
            entry.outcome = outcome;
            entry.slim = false;
        }
    }

    /// Re-run the search over every entry; returns how many match.
    pub fn mark_matches(&mut self, query: Option<&Query>) -> usize {
        let mut count = 0;
        for entry in self.all.iter_mut().filter(|entry| !entry.removed) {
            entry.matched = query.is_some_and(|q| matches(q, &entry.capture, &entry.outcome));
            count += usize::from(entry.matched);
        }
        self.touch();
        count
    }

    pub fn set_filter(&mut self, filter: Filter) {
        self.filter = filter;
        self.touch();
    }

    pub fn set_sort(&mut self, sort: Sort) {
        self.sort = sort;
        self.touch();
    }

    /// Sort, filter and count again if anything changed since the last time.
    pub fn settle(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let changed = std::mem::take(&mut self.changed);
        let from = self.counted.min(self.all.len());
        // Removing an entry is a change: when nothing changed, `all` holds no removed entry.
        let appended = !changed
            && from > 0
            && self.sort == Sort::Source
            && self.all[from - 1..].is_sorted_by(|a, b| a.sort_key() <= b.sort_key());
        if appended {
            self.count(from);
        } else {
            self.compact_and_sort();
            self.view.clear();
            self.tally_all = Tally::default();
            self.tally_view = Tally::default();
            self.mix_all = Mix::new();
            self.kinds = Kinds::default();
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
        for (i, entry) in self.all.iter().enumerate().skip(from) {
            self.kinds.add(&entry.outcome);
            let shown = self.filter.matches(&entry.outcome);
            if shown {
                self.view.push(i);
            }
            if !entry.gone {
                self.tally_all.add(&entry.outcome);
                self.mix_all.add(MixKey::of(&entry.outcome));
                if shown {
                    self.tally_view.add(&entry.outcome);
                }
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

impl Entry {
    /// How new the capture is: its file's modification time, then its line
    /// (a log's later lines are newer).
    pub fn age(&self) -> (Option<SystemTime>, usize) {
        (self.modified, self.line)
    }

    /// The file part of the source, then the line.
    fn sort_key(&self) -> (&str, usize) {
        (&self.capture.source[..self.file_end], self.line)
    }
}

impl Entries {
    /// The list position of the newest capture in the view (what `F` follows).
    pub fn newest(&self) -> Option<usize> {
        (0..self.view.len()).max_by_key(|&position| self.all[self.view[position]].age())
    }
}

/// The longest folder prefix (ending in `/`) that every source shares.
fn common_folder<'a>(mut sources: impl Iterator<Item = &'a str>) -> String {
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

/// Sources sort as `jxray check` sorts them: by file, then by line number. Returns
/// where the file part of the source ends, and the line.
fn sort_key(capture: &Capture) -> (usize, usize) {
    let line = capture.line.unwrap_or(0);
    let file = capture
        .line
        .and_then(|line| capture.source.strip_suffix(&format!(":{line}")))
        .unwrap_or(&capture.source);
    (file.len(), line)
}

/// Whether a search query matches a capture's source, raw text or decoded value
/// (whose strings may differ from the raw text by their escapes: `\u00e9` is `é`).
pub fn matches(query: &Query, capture: &Capture, outcome: &Outcome) -> bool {
    query.is_in(&capture.source)
        || capture.text.as_deref().is_ok_and(|text| query.is_in(text))
        || outcome
            .value
            .as_ref()
            .is_some_and(|value| value_matches(query, value))
}

/// Whether a key, string, or number of the value holds the query. Iterative:
/// a deeply nested value cannot overflow the stack.
fn value_matches(query: &Query, value: &serde_json::Value) -> bool {
    use serde_json::Value;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) if query.is_in(text) => return true,
            Value::Number(number) if query.is_in(&number.to_string()) => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (key, item) in map {
                    if query.is_in(key) {
                        return true;
                    }
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Layer;

    fn loaded(source: &str, path: &str, layer: Option<Layer>) -> Loaded {
        let mut capture = Capture::from_text(source, "text");
        capture.path = PathBuf::from(path);
        let outcome = match layer {
            Some(layer) => {
                let mut outcome = Outcome::default();
                outcome.layer = Some(layer);
                outcome.value = Some(serde_json::json!({}));
                outcome
            }
            None => Outcome::unreadable("gone"),
        };
        Loaded {
            capture,
            outcome,
            request: None,
        }
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

    /// The view and every count, to compare a settle that counted only what was
    /// appended with one that counted everything.
    fn summary(entries: &Entries) -> (Vec<usize>, Tally, Tally, Mix, String, Vec<Filter>) {
        (
            entries.view.clone(),
            entries.tally_all,
            entries.tally_view,
            entries.mix_all.clone(),
            entries.folder.clone(),
            Filter::menu_of(&entries.kinds),
        )
    }

    #[test]
    fn parts_appended_in_order_are_counted_as_a_full_settle_counts_them() {
        let mut entries = Entries::default();
        entries.set_filter(Filter::Failures);
        let part = |range: std::ops::Range<usize>| -> Vec<Loaded> {
            range
                .map(|n| {
                    let layer = (n % 3 != 0).then_some(Layer::Direct);
                    let mut l = loaded(&format!("runs/log.jsonl:{n}"), "runs/log.jsonl", layer);
                    l.capture.line = Some(n);
                    l
                })
                .collect()
        };
        let path = Path::new("runs/log.jsonl");
        entries.begin_file(path, false);
        entries.add_to_file(path, part(1..5), None, true);
        entries.settle();
        entries.add_to_file(path, part(5..12), None, true);
        entries.end_file(path);
        entries.settle();
        let appended = summary(&entries);
        assert_eq!(appended.0.len(), 3, "lines 3, 6 and 9 failed");
        assert_eq!(appended.4, "runs/");
        entries.set_sort(Sort::Source);
        entries.settle();
        assert_eq!(summary(&entries), appended);
    }

    #[test]
    fn identical_outcomes_are_kept_once() {
        let mut entries = Entries::default();
        let lines = (1..4)
            .map(|n| {
                let mut l = loaded(&format!("log.jsonl:{n}"), "log.jsonl", None);
                l.capture.line = Some(n);
                l
            })
            .collect();
        entries.replace_file(Path::new("log.jsonl"), lines, None, false);
        entries.settle();
        let (a, b) = (entries.at(0).unwrap(), entries.at(2).unwrap());
        assert!(Arc::ptr_eq(&a.outcome, &b.outcome));
    }

    #[test]
    fn the_common_folder_ends_at_a_slash() {
        let folder = |list: &[&str]| common_folder(list.iter().copied());
        assert_eq!(folder(&["runs/a/x.txt", "runs/a/y/z.txt"]), "runs/a/");
        assert_eq!(folder(&["runs/ab.txt", "runs/ac.txt"]), "runs/");
        assert_eq!(folder(&["runs/a.txt", "other.txt"]), "");
        assert_eq!(folder(&["a.jsonl:1"]), "");
        assert_eq!(folder(&[]), "");
    }

    #[test]
    fn search_finds_decoded_values_whose_raw_text_is_escaped() {
        let raw = r#"{"city": "Caf\u00e9 M\u00fcller"}"#;
        let capture = Capture::from_text("a.txt", raw);
        let outcome = crate::engine::extract(raw, &crate::engine::Options::default());
        assert!(matches(&Query::new("café").unwrap(), &capture, &outcome));
        assert!(matches(&Query::new("müller").unwrap(), &capture, &outcome));
        assert!(!matches(&Query::new("zürich").unwrap(), &capture, &outcome));
    }
}
