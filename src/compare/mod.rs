//! Two runs of the same prompts side by side: "did my change help?"
//!
//! A [`Run`] keeps one compact [`Standing`] per capture, keyed so that the same
//! capture matches across runs: by its source relative to the folder given
//! (`a/b.txt`, `log.jsonl:3`, `logs.db#ID`), and for a single log file by what
//! follows the file name (`:3`, `#ID`), so `old.jsonl` and `new.jsonl` compare
//! line by line or record by record.

mod report;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::capture::{self, LoadError, LoadOptions};
use crate::engine::{Defect, Options, Outcome};
use crate::mix::{Mix, MixKey};
use crate::schema::{CaptureSchemas, Schema};

pub use report::{write_json, write_text};

/// What one capture came out as: its badge word and, for `invalid`, the defect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Standing {
    pub key: MixKey,
    pub defect: Option<Defect>,
}

impl Standing {
    pub fn of(outcome: &Outcome) -> Standing {
        Standing {
            key: MixKey::of(outcome),
            defect: outcome.failure.as_ref().and_then(|failure| failure.defect),
        }
    }

    pub fn ok(self) -> bool {
        matches!(self.key, MixKey::Layer(_))
    }

    /// `fenced`, `truncated`, `invalid (trailing-comma)`.
    pub fn label(self) -> String {
        match self.defect {
            Some(defect) => format!("{} ({})", self.key.as_str(), defect.as_str()),
            None => self.key.as_str().to_string(),
        }
    }
}

/// How a capture's verdict moved from the old run to the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Movement {
    /// Failed before, ok now.
    Fixed,
    /// Ok before, failed now: a regression.
    Broke,
    /// Ok both times or failed both times, differently (`fenced → direct`).
    Changed,
    /// Only in the new run.
    Added,
    /// Only in the old run.
    Removed,
}

impl Movement {
    pub const ALL: [Movement; 5] = [
        Movement::Fixed,
        Movement::Broke,
        Movement::Changed,
        Movement::Added,
        Movement::Removed,
    ];

    /// The change between two verdicts; `None` when nothing changed.
    pub fn between(old: Option<Standing>, new: Option<Standing>) -> Option<Movement> {
        match (old, new) {
            (None, None) => None,
            (None, Some(_)) => Some(Movement::Added),
            (Some(_), None) => Some(Movement::Removed),
            (Some(old), Some(new)) if old == new => None,
            (Some(old), Some(new)) => Some(match (old.ok(), new.ok()) {
                (false, true) => Movement::Fixed,
                (true, false) => Movement::Broke,
                _ => Movement::Changed,
            }),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Movement::Fixed => "fixed",
            Movement::Broke => "broke",
            Movement::Changed => "changed",
            Movement::Added => "added",
            Movement::Removed => "removed",
        }
    }
}

/// One run: its mix and every capture's verdict, by match key.
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub mix: Mix,
    /// Match key to (source as reported, verdict).
    verdicts: HashMap<String, (String, Standing)>,
}

impl Run {
    /// Load and extract every capture under `path` (with the schema, if any),
    /// keeping only each capture's verdict.
    pub fn load(
        path: &Path,
        load: &LoadOptions,
        options: &Options,
        schema: Option<&Arc<Schema>>,
    ) -> Result<Run, LoadError> {
        let captures = capture::load(path, load)?;
        // Checked as `check` checks: `--schema`, else the schema a capture's log recorded.
        let schemas = CaptureSchemas::default();
        let verdicts: Vec<(String, Standing)> = captures
            .into_par_iter()
            .map(|capture| {
                let outcome = schemas.extract(schema, &capture, options);
                (capture.source, Standing::of(&outcome))
            })
            .collect();
        let mut run = Run::default();
        for (source, verdict) in verdicts {
            run.insert(path, source, verdict);
        }
        Ok(run)
    }

    /// Record one capture's verdict; `root` is the path the run was loaded from.
    pub fn insert(&mut self, root: &Path, source: String, verdict: Standing) {
        self.mix.add(verdict.key);
        let key = match_key(root, &source);
        if let Some((_, previous)) = self.verdicts.insert(key, (source, verdict)) {
            self.mix.remove(previous.key);
        }
    }

    /// The verdict of the capture that `source` (loaded from `root`) matches.
    pub fn verdict(&self, root: &Path, source: &str) -> Option<Standing> {
        self.verdict_by_key(&match_key(root, source))
    }

    /// The verdict of the capture with this [`match_key`].
    pub fn verdict_by_key(&self, key: &str) -> Option<Standing> {
        self.verdicts.get(key).map(|(_, verdict)| *verdict)
    }

    pub fn len(&self) -> usize {
        self.verdicts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.verdicts.is_empty()
    }
}

/// The key a capture matches by across runs: its source, less the file name
/// when the run is one file (`run.jsonl:3` → `:3`, `logs.db#abc` → `#abc`).
pub fn match_key(root: &Path, source: &str) -> String {
    let root = root.to_string_lossy();
    match source.strip_prefix(root.as_ref()) {
        Some(rest) if rest.starts_with([':', '#']) => rest.to_string(),
        Some("") => String::new(),
        _ => source.to_string(),
    }
}

/// One capture whose verdict changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    /// The source in the new run (in the old run for a removed capture).
    pub source: String,
    pub change: Movement,
    pub old: Option<Standing>,
    pub new: Option<Standing>,
}

/// Two runs compared.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub old: Mix,
    pub new: Mix,
    /// Captures present in both runs.
    pub matched: usize,
    /// Every capture whose verdict changed, sorted by source.
    pub changes: Vec<Changed>,
}

impl Comparison {
    pub fn new(old: &Run, new: &Run) -> Comparison {
        let mut changes = Vec::new();
        let mut matched = 0;
        for (key, (source, verdict)) in &new.verdicts {
            let before = old.verdicts.get(key).map(|(_, verdict)| *verdict);
            matched += usize::from(before.is_some());
            if let Some(change) = Movement::between(before, Some(*verdict)) {
                changes.push(Changed {
                    source: source.clone(),
                    change,
                    old: before,
                    new: Some(*verdict),
                });
            }
        }
        for (key, (source, verdict)) in &old.verdicts {
            if !new.verdicts.contains_key(key) {
                changes.push(Changed {
                    source: source.clone(),
                    change: Movement::Removed,
                    old: Some(*verdict),
                    new: None,
                });
            }
        }
        changes.sort_by(|a, b| a.source.cmp(&b.source));
        Comparison {
            old: old.mix.clone(),
            new: new.mix.clone(),
            matched,
            changes,
        }
    }

    /// How many changes of this kind.
    pub fn count(&self, change: Movement) -> usize {
        self.changes.iter().filter(|c| c.change == change).count()
    }

    /// Whether any capture that was ok has failed: what CI should stop on.
    pub fn regressed(&self) -> bool {
        self.count(Movement::Broke) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{FailureKind, Layer};

    fn ok(layer: Layer) -> Standing {
        Standing {
            key: MixKey::Layer(layer),
            defect: None,
        }
    }

    fn failed(kind: FailureKind, defect: Option<Defect>) -> Standing {
        Standing {
            key: MixKey::Failure(kind),
            defect,
        }
    }

    #[test]
    fn changes_say_which_way_they_went() {
        let truncated = failed(FailureKind::Truncated, None);
        let fenced = ok(Layer::Fenced);
        assert_eq!(Movement::between(Some(fenced), Some(fenced)), None);
        assert_eq!(
            Movement::between(Some(fenced), Some(ok(Layer::Direct))),
            Some(Movement::Changed)
        );
        assert_eq!(
            Movement::between(Some(fenced), Some(truncated)),
            Some(Movement::Broke)
        );
        assert_eq!(
            Movement::between(Some(truncated), Some(fenced)),
            Some(Movement::Fixed)
        );
        let comma = failed(FailureKind::Invalid, Some(Defect::TrailingComma));
        let quotes = failed(FailureKind::Invalid, Some(Defect::SingleQuotes));
        assert_eq!(
            Movement::between(Some(comma), Some(quotes)),
            Some(Movement::Changed)
        );
        assert_eq!(comma.label(), "invalid (trailing-comma)");
        assert_eq!(Movement::between(None, Some(comma)), Some(Movement::Added));
        assert_eq!(
            Movement::between(Some(comma), None),
            Some(Movement::Removed)
        );
    }

    #[test]
    fn a_single_log_matches_by_line_or_id_and_a_folder_by_relative_path() {
        let log = Path::new("runs/old.jsonl");
        assert_eq!(match_key(log, "runs/old.jsonl:3"), ":3");
        assert_eq!(match_key(log, "runs/old.jsonl#req-7"), "#req-7");
        assert_eq!(match_key(Path::new("a.txt"), "a.txt"), "");
        assert_eq!(match_key(Path::new("runs/monday"), "a/b.txt"), "a/b.txt");
        // A name that merely starts like the root is not cut.
        assert_eq!(match_key(Path::new("run"), "run2.txt"), "run2.txt");
    }

    #[test]
    fn a_comparison_lists_every_change_by_source_with_both_mixes() {
        let (old_root, new_root) = (Path::new("old"), Path::new("new"));
        let mut old = Run::default();
        old.insert(old_root, "a.txt".into(), ok(Layer::Fenced));
        old.insert(old_root, "b.txt".into(), ok(Layer::Direct));
        old.insert(old_root, "gone.txt".into(), ok(Layer::Direct));
        let mut new = Run::default();
        new.insert(new_root, "a.txt".into(), ok(Layer::Direct));
        new.insert(
            new_root,
            "b.txt".into(),
            failed(FailureKind::Truncated, None),
        );
        new.insert(new_root, "c.txt".into(), ok(Layer::Direct));
        let comparison = Comparison::new(&old, &new);
        let listed: Vec<(&str, Movement)> = comparison
            .changes
            .iter()
            .map(|c| (c.source.as_str(), c.change))
            .collect();
        assert_eq!(
            listed,
            [
                ("a.txt", Movement::Changed),
                ("b.txt", Movement::Broke),
                ("c.txt", Movement::Added),
                ("gone.txt", Movement::Removed)
            ]
        );
        assert_eq!(comparison.matched, 2);
        assert!(comparison.regressed());
        assert_eq!(comparison.old.count(MixKey::Layer(Layer::Direct)), 2);
        assert_eq!(comparison.new.count(MixKey::Layer(Layer::Direct)), 2);
        assert_eq!(old.verdict(old_root, "a.txt"), Some(ok(Layer::Fenced)));
    }
}
