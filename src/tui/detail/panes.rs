//! The selected capture's three panes as the workbench holds them: their docs, wrapped
//! rows and scroll, and what they were built from.

use std::sync::Arc;

use ratatui::layout::Rect;

use crate::capture::Capture;
use crate::engine::Outcome;
use crate::schema::Schema;
use crate::tui::doc::{Doc, Gutter, Paint};
use crate::tui::ids::EntryId;
use crate::tui::layout::{inner, layout, PaneId, View};
use crate::tui::rows::Rows;
use crate::tui::search::Query;

/// What panes are built from: one capture as the list holds it.
#[derive(Debug, Clone)]
pub struct Subject {
    pub(crate) id: EntryId,
    pub(crate) capture: Arc<Capture>,
    pub(crate) outcome: Arc<Outcome>,
}

/// One pane: its doc wrapped at the pane's width, and where it is scrolled to.
#[derive(Debug, Clone, Default)]
pub struct PaneState {
    pub doc: Doc,
    pub rows: Rows,
    /// The first row on screen.
    pub scroll: usize,
    /// Rows the pane shows.
    pub height: usize,
    /// Where to scroll once the width is known: the failure, the first change, the span.
    target: Option<Target>,
}

#[derive(Debug, Clone, Copy)]
enum Target {
    /// Show this byte offset about a third down the pane, if it is not on the first page.
    Offset(usize),
    Bottom,
    /// Keep this logical line on top (a rebuilt doc of the same capture).
    Line(usize),
}

impl PaneState {
    fn new(doc: Doc) -> PaneState {
        let target = target(&doc);
        PaneState {
            doc,
            target,
            ..PaneState::default()
        }
    }

    /// The doc line shown on the pane's top row.
    fn top_line(&self) -> Option<usize> {
        self.rows.rows.get(self.scroll).map(|row| row.line)
    }

    /// Wrap for the pane's rectangle (borders included); the top line stays on top.
    fn fit(&mut self, outer: Rect) {
        let width = self.width_in(outer);
        self.height = usize::from(inner(outer).height);
        if self.needs_wrap(width) {
            let top_line = self.top_line();
            self.rows = Rows::build(&self.doc, width);
            self.scroll = top_line.map_or(0, |line| self.rows.first_row_of_line(line));
            if let Some(target) = self.target.take() {
                self.scroll = match target {
                    Target::Line(line) => self.rows.first_row_of_line(line),
                    Target::Bottom => self.rows.len(),
                    Target::Offset(offset) => {
                        let row = self.rows.row_of_offset(offset);
                        if row >= self.height {
                            row - self.height / 3
                        } else {
                            0
                        }
                    }
                };
            }
        }
        self.scroll = self.scroll.min(self.max_scroll());
    }

    /// The text's width in the pane's rectangle (borders and gutter taken off).
    fn width_in(&self, outer: Rect) -> usize {
        usize::from(inner(outer).width)
            .saturating_sub(self.doc.gutter_width())
            .max(1)
    }

    /// Whether the doc must be wrapped (again) for `width`.
    fn needs_wrap(&self, width: usize) -> bool {
        self.rows.width != width || (self.rows.is_empty() && !self.doc.lines.is_empty())
    }

    pub fn max_scroll(&self) -> usize {
        self.rows.len().saturating_sub(self.height)
    }

    pub(crate) fn scroll_by(&mut self, delta: isize) {
        self.scroll = self
            .scroll
            .saturating_add_signed(delta)
            .min(self.max_scroll());
    }

    pub(crate) fn scroll_to(&mut self, row: usize) {
        self.scroll = row.min(self.max_scroll());
    }
}

/// Each pane's rectangle on this screen, or as a tab when it is not shown.
fn pane_areas(view: View) -> impl Iterator<Item = (PaneId, Rect)> {
    let (area, zoom, current, list) = view;
    PaneId::ALL.into_iter().filter_map(move |pane| {
        let layout = layout(area, zoom && pane == current, pane, list);
        layout.panes[pane.index()].map(|outer| (pane, outer))
    })
}

/// The first thing worth seeing in a doc.
fn target(doc: &Doc) -> Option<Target> {
    let mark = |paint: Paint| doc.marks.iter().find(|m| m.paint == paint).map(|m| m.start);
    if let Some(offset) = mark(Paint::Failure) {
        return Some(Target::Offset(offset));
    }
    if matches!(doc.trailer, Some((_, Paint::Failure))) {
        return Some(Target::Bottom);
    }
    // A pure diff opens at its first change; one with a heading (the lenient
    // reading's "NOT ACCEPTED") opens at the heading.
    let pure_diff = matches!(
        doc.lines.first().map(|line| line.gutter),
        Some(Gutter::Diff { .. })
    );
    let change = doc
        .lines
        .iter()
        .filter(|_| pure_diff)
        .find(|line| matches!(line.gutter, Gutter::Diff { sign, .. } if sign != ' '));
    change
        .map(|line| line.start)
        .or_else(|| mark(Paint::Accepted))
        .map(Target::Offset)
}

/// The panes of the selected capture.
#[derive(Debug, Clone)]
pub struct Detail {
    pub(crate) entry: EntryId,
    /// The outcome the docs were built from; a new one means a rebuild.
    pub(crate) outcome: Arc<Outcome>,
    pub(crate) query: Option<Query>,
    pub panes: [PaneState; 3],
    /// A big capture's stand-in while its panes are built in the background.
    pub building: bool,
}

impl Detail {
    pub(crate) fn build(
        subject: &Subject,
        query: Option<&Query>,
        schema: Option<&Schema>,
    ) -> Detail {
        let docs = super::build(&subject.capture, &subject.outcome, query, schema);
        Detail::of(subject, query, docs, false)
    }

    /// What a big capture shows at once: the head of its raw text, while
    /// [`Detail::build`] runs in the background.
    pub(crate) fn preview(subject: &Subject, query: Option<&Query>) -> Detail {
        let docs = super::preview(&subject.capture, &subject.outcome);
        Detail::of(subject, query, docs, true)
    }

    fn of(subject: &Subject, query: Option<&Query>, docs: [Doc; 3], building: bool) -> Detail {
        Detail {
            entry: subject.id,
            outcome: Arc::clone(&subject.outcome),
            query: query.cloned(),
            panes: docs.map(PaneState::new),
            building,
        }
    }

    /// Take over where the user scrolled the preview `old` to; a pane left at its
    /// top opens where the built doc wants (the failure, the first change).
    pub(crate) fn keep_scrolled_place(&mut self, old: &Detail) {
        for (new, old) in self.panes.iter_mut().zip(&old.panes) {
            if old.scroll == 0 {
                continue;
            }
            let top_line = old.top_line().unwrap_or(0);
            if new.rows.is_empty() {
                new.target = Some(Target::Line(top_line));
            } else {
                // Wrapped already (off the UI thread): scroll there now.
                new.target = None;
                new.scroll_to(new.rows.first_row_of_line(top_line));
            }
        }
    }

    /// Keep the place of `old`, an earlier build for the same capture.
    pub(crate) fn keep_place(&mut self, old: &Detail) {
        for (new, old) in self.panes.iter_mut().zip(&old.panes) {
            let top_line = old.top_line().unwrap_or(0);
            new.target = Some(Target::Line(top_line));
        }
    }

    /// Whether this detail still shows the capture `id`, whose outcome is `outcome` now.
    pub(crate) fn shows(&self, id: EntryId, outcome: &Arc<Outcome>, query: Option<&Query>) -> bool {
        self.entry == id && Arc::ptr_eq(&self.outcome, outcome) && self.query.as_ref() == query
    }

    /// Re-wrap every pane for the screen, each at the width it has (or would have as a tab).
    pub(crate) fn fit(&mut self, view: View) {
        for (pane, outer) in pane_areas(view) {
            self.panes[pane.index()].fit(outer);
        }
    }

    /// Whether [`Detail::fit`] would only re-measure, not wrap again (wrapping a
    /// big capture's panes is a background job).
    pub(crate) fn fits(&self, view: View) -> bool {
        pane_areas(view).all(|(pane, outer)| {
            let state = &self.panes[pane.index()];
            !state.needs_wrap(state.width_in(outer))
        })
    }

    pub fn pane(&self, pane: PaneId) -> &PaneState {
        &self.panes[pane.index()]
    }

    pub(crate) fn pane_mut(&mut self, pane: PaneId) -> &mut PaneState {
        &mut self.panes[pane.index()]
    }
}
