//! What each capture is checked against beyond extraction: the user's schema and an
//! earlier run (`--baseline`), and how a capture moved against that run.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Entry;
use crate::compare::{match_key, Movement, Observed, Run, ValueDiff};
use crate::schema::Schema;

/// The schema each value must satisfy and the earlier run each capture is
/// compared with, when the user gave them.
#[derive(Debug, Clone, Default)]
pub struct Checks {
    /// `--schema FILE` or the config's `schema =`.
    pub schema: Option<Arc<Schema>>,
    /// `--baseline DIR`: the earlier run, and the path it was loaded from.
    pub baseline: Option<Arc<(PathBuf, Run)>>,
    /// A `schema.json` found beside the captures and not given: offered in a notice.
    pub offered_schema: Option<PathBuf>,
}

impl Checks {
    /// How `entry` (loaded from `root`) changed against the baseline; `None`
    /// without a baseline or when it came out the same.
    pub(crate) fn change(&self, root: &Path, entry: &Entry) -> Option<Movement> {
        let (_, run) = self.baseline.as_deref()?;
        let old = run.verdict_by_key(&match_key(root, &entry.capture.source));
        let moved = Movement::between(old, Some(&Observed::of(&entry.outcome)));
        // The same value from another layer is the same here: the footer's mix shows the move.
        (!matches!(moved, Movement::Same | Movement::LayerMoved)).then_some(moved)
    }

    /// Where `entry`'s value differs from the baseline's value for it; `None`
    /// unless both were accepted with different values.
    pub(crate) fn value_diff(&self, root: &Path, entry: &Entry) -> Option<ValueDiff> {
        let (_, run) = self.baseline.as_deref()?;
        let old = run.verdict_by_key(&match_key(root, &entry.capture.source))?;
        let diff = old.value_diff(&Observed::of(&entry.outcome));
        (!diff.is_empty()).then_some(diff)
    }
}
