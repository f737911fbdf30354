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
use crate::group::{label_of, GroupBy};
use crate::mix::{Mix, MixKey};
use crate::tui::action::EntryId;
use crate::tui::detail::Subject;

mod chains;
mod marks;
mod matching;
mod names;
mod reading;

pub(crate) use names::Questions;
use reading::Reading;
mod view;

use super::filter::{Filter, Kinds, Sort};
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
    pub(crate) request: Option<Arc<RecordedRequest>>,
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
    /// The group it is in, `by` model, prompt, …, as `check --by` names it.
    pub(crate) fn group(&self, by: GroupBy) -> String {
        label_of(by, &self.capture, self.request.as_deref(), self.modified)
    }

    /// Whether the list shows it under `filter`.
    pub fn shown_by(&self, filter: &Filter) -> bool {
        match filter {
            Filter::Group(by, name) => self.group(*by) == **name,
            other => other.matches(&self.outcome),
        }
    }

    /// The question a recorded capture answers ([`question_of`] its request).
    pub(crate) fn question(&self) -> Option<&str> {
        question_of(self.request.as_deref()?)
    }

    /// The model it names, else the model its recorded request asked for.
    fn model(&self) -> Option<&str> {
        self.capture
            .model
            .as_deref()
            .or_else(|| self.request.as_ref().and_then(|r| r.model.as_deref()))
    }

    /// The recorded prompt it was asked with (`--by prompt`), when it was recorded.
    fn prompt_group(&self) -> Option<String> {
        self.request.is_some().then(|| self.group(GroupBy::Prompt))
    }

    /// What its panes are built from.
    pub(crate) fn subject(&self) -> Subject {
        Subject {
            id: self.id,
            capture: Arc::clone(&self.capture),
            outcome: Arc::clone(&self.outcome),
        }
    }
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
    /// The live captures' mix, kept up to date as they come, change and go (never
    /// recounted); a file marked gone no longer counts.
    pub mix_all: Mix,
    /// The mix of the live captures the filter shows, counted with the view.
    pub mix_view: Mix,
    /// The folder every source starts with (`runs/2026-11/`), shown once over the list.
    pub(crate) folder: String,
    /// The causes, defects and warnings the captures have: the filter menu's choices.
    pub kinds: Kinds,
    /// Whether the recorded captures ask different questions (the list names them by it).
    pub(crate) questions: Questions,
    /// Whether each capture that came new or changed in a watched re-read failed, in
    /// the order read; taken by the watch sparkline.
    pub(crate) arrived: Vec<bool>,
    /// Hashes of the inputs in the fixtures folder, and their files.
    fixtures: HashMap<u64, PathBuf>,
    dirty: bool,
}

impl Entries {
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
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
    pub(crate) fn position(&self, id: EntryId) -> Option<usize> {
        let i = *self.index.get(&id)?;
        self.view.iter().position(|&v| v == i)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.all.iter().filter(|entry| !entry.removed)
    }

    /// Make room for `more` entries at once: growing a list of a million by doubling
    /// copies it, and its index, on the UI thread again and again.
    pub(crate) fn make_room(&mut self, more: usize) {
        self.all.reserve(more);
        self.index.reserve(more);
        self.view.reserve(more);
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
        if !entry.gone {
            self.mix_all.remove(MixKey::of(&entry.outcome));
        }
        Some(entry)
    }

    /// Mark the captures read from `path` (a file, or everything under a folder) as gone.
    /// A file costs only its own entries; a folder, one look at each known file.
    pub(crate) fn mark_gone(&mut self, path: &Path) -> usize {
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
    pub(crate) fn mark_file_gone(&mut self, path: &Path) -> usize {
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
                self.mix_all.remove(MixKey::of(&entry.outcome));
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
    pub(crate) fn drop_gone(&mut self) {
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
    pub(crate) fn paths(&self) -> Vec<PathBuf> {
        self.by_path.keys().cloned().collect()
    }

    /// Set a new outcome on an entry (after re-extraction), slim if its was.
    pub(crate) fn set_outcome(&mut self, id: EntryId, outcome: Outcome) {
        let outcome = match self.get(id).is_some_and(|entry| entry.slim) {
            true => self.shared.get(slim(&outcome)),
            false => Arc::new(outcome),
        };
        let Some(&i) = self.index.get(&id) else {
            return;
        };
        self.touch();
        let entry = &mut self.all[i];
        if !entry.gone {
            self.mix_all.remove(MixKey::of(&entry.outcome));
            self.mix_all.add(MixKey::of(&outcome));
        }
        entry.outcome = outcome;
    }

    /// Give a slim entry its whole outcome (it was selected). What the list shows
    /// of it stays the same, so nothing is counted again.
    pub(crate) fn expand(&mut self, id: EntryId, outcome: Arc<Outcome>) {
        if let Some(&i) = self.index.get(&id) {
            let entry = &mut self.all[i];
            entry.outcome = outcome;
            entry.slim = false;
        }
    }
}

impl Entry {
    /// How new the capture is: its file's modification time, then its line
    /// (a log's later lines are newer).
    pub(crate) fn age(&self) -> (Option<SystemTime>, usize) {
        (self.modified, self.line)
    }

    /// The file part of the source, then the line.
    fn sort_key(&self) -> (&str, usize) {
        (&self.capture.source[..self.file_end], self.line)
    }
}

impl Entries {
    /// The list position of the newest capture in the view (what `F` follows).
    pub(crate) fn newest(&self) -> Option<usize> {
        (0..self.view.len()).max_by_key(|&position| self.all[self.view[position]].age())
    }
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

#[cfg(test)]
mod tests;

/// The question a recorded request asks: its last user message, unless that is a repair
/// request — jxray's, or any loop's re-ask its link names (a re-ask answers the question of
/// its first attempt).
pub(crate) fn question_of(request: &RecordedRequest) -> Option<&str> {
    if request
        .chain
        .as_ref()
        .is_some_and(|link| link.re_ask_of.is_some())
    {
        return None;
    }
    let asked = request.last_user.as_deref()?;
    let opening = jxray_formats::repair::OPENING.trim_end();
    (!asked.trim_start().starts_with(opening) && asked.chars().any(char::is_alphanumeric))
        .then_some(asked)
}
