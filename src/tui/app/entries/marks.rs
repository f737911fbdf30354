//! Which captures are fixtures already (by their input), and the marks that say so.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::capture::Capture;
use crate::fixture::input_hash;
use crate::tui::action::EntryId;

use super::Entries;

impl Entries {
    /// Remember which inputs are fixtures already and mark their captures saved.
    /// The fixtures folder as it is now: a capture whose input is there is marked saved,
    /// and one whose fixture was deleted is not any more.
    pub(crate) fn set_fixtures(&mut self, fixtures: HashMap<u64, PathBuf>) {
        self.fixtures = fixtures;
        for i in 0..self.all.len() {
            self.all[i].saved = self.fixture_of(&self.all[i].capture);
        }
        self.touch();
    }

    /// Record a fixture written for an entry.
    pub(crate) fn set_saved(&mut self, id: EntryId, path: PathBuf) {
        if let Some(entry) = self.get_mut(id) {
            if let Ok(text) = &entry.capture.text {
                let hash = input_hash(text);
                entry.saved = Some(path.clone());
                self.fixtures.insert(hash, path);
            }
        }
    }

    pub(super) fn fixture_of(&self, capture: &Capture) -> Option<PathBuf> {
        if self.fixtures.is_empty() {
            return None;
        }
        let text = capture.text.as_ref().ok()?;
        self.fixtures.get(&input_hash(text)).cloned()
    }
}
