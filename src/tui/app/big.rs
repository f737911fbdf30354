//! Big captures: their panes are built off the UI thread and kept for a while.
//!
//! Building and wrapping the panes of a capture of many MB takes longer than a
//! key may wait, so the app shows a preview at once (see [`Detail::preview`])
//! and asks the event loop for a [`DetailJob`]; the built detail comes back as
//! an action. The last few built details are kept, so going back to a big
//! capture shows it at once.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::engine::Outcome;
use crate::schema::Schema;
use crate::tui::action::EntryId;
use crate::tui::layout::View;
use crate::tui::search::Query;

use super::entries::Entry;
use crate::tui::detail::{Detail, DetailJob};

/// From this size of raw text up, panes are built in the background: about
/// 15 ms of building in a release build, well inside a key's 50 ms.
pub(super) const BIG_CAPTURE: usize = 1024 * 1024;

/// Built details of big captures kept after the user moved on (each costs
/// about ten times its capture's size).
const KEEP: usize = 2;

/// Whether `entry`'s panes are built in the background.
pub(super) fn is_big(entry: &Entry) -> bool {
    entry.capture.text.as_ref().map_or(0, String::len) >= BIG_CAPTURE
}

/// The built details kept, and the build asked for last.
#[derive(Debug, Default)]
pub struct BigPanes {
    kept: VecDeque<Detail>,
    /// What was asked for last (entry, outcome, query): asked again only after it arrives.
    asked: Option<(EntryId, Arc<Outcome>, Option<Query>)>,
    job: Option<DetailJob>,
}

impl BigPanes {
    /// A kept detail that shows `entry` as it is now, wrapped for this screen, taken
    /// out of the cache.
    pub(crate) fn take(
        &mut self,
        entry: &Entry,
        query: Option<&Query>,
        view: View,
    ) -> Option<Detail> {
        let at = self
            .kept
            .iter()
            .position(|d| d.shows(entry.id, &entry.outcome, query) && d.fits(view))?;
        self.kept.remove(at)
    }

    /// Keep a built detail the user moved away from (the oldest kept one goes).
    pub(crate) fn keep(&mut self, detail: Detail) {
        if detail.building {
            return;
        }
        // One per capture and width: zooming in and out keeps both.
        self.kept.retain(|kept| {
            kept.entry != detail.entry
                || kept
                    .panes
                    .iter()
                    .zip(&detail.panes)
                    .any(|(a, b)| a.rows.width != b.rows.width)
        });
        self.kept.push_front(detail);
        self.kept.truncate(KEEP);
    }

    /// Ask for `entry`'s panes, unless that build was asked for already.
    pub(crate) fn ask(
        &mut self,
        entry: &Entry,
        query: Option<&Query>,
        schema: Option<&Arc<Schema>>,
        screen: View,
    ) {
        if self.was_asked(entry.id, &entry.outcome, query) {
            return;
        }
        self.asked = Some((entry.id, Arc::clone(&entry.outcome), query.cloned()));
        let job = DetailJob::new(entry.subject(), query.cloned(), schema.cloned(), screen);
        self.job = Some(job);
    }

    /// A build arrived: the same one may be asked for again later.
    pub(crate) fn arrived(&mut self, detail: &Detail) {
        if self.was_asked(detail.entry, &detail.outcome, detail.query.as_ref()) {
            self.asked = None;
        }
    }

    fn was_asked(&self, entry: EntryId, outcome: &Arc<Outcome>, query: Option<&Query>) -> bool {
        self.asked.as_ref().is_some_and(|(id, asked, q)| {
            *id == entry && Arc::ptr_eq(asked, outcome) && q.as_ref() == query
        })
    }

    /// The build to start ([`App::frame_effects`] hands it to the event loop).
    ///
    /// [`App::frame_effects`]: crate::tui::App::frame_effects
    pub fn take_job(&mut self) -> Option<DetailJob> {
        self.job.take()
    }
}
