//! Two runs of the same prompts side by side: "did my change help?"
//!
//! A [`Run`] keeps one compact [`Standing`] per capture, keyed so that the same
//! capture matches across runs: by its source relative to the folder given
//! (`a/b.txt`, `log.jsonl:3`, `logs.db#ID`), and for a single log file by what
//! follows the file name (`:3`, `#ID`), so `old.jsonl` and `new.jsonl` compare
//! line by line or record by record.

mod diff;
mod movement;
mod report;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::capture::{self, LoadError, LoadOptions};
use crate::check::Checker;
use crate::engine::Options;
use crate::group::{GroupBy, Grouper};
use crate::mix::Mix;
use crate::schema::Schema;

pub(crate) use diff::ValueDiff;
pub use movement::{Movement, Observed, Standing};
pub use report::{write_json, write_jsonl, write_text};

/// One run: its mix and every capture's verdict, by match key.
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub(crate) mix: Mix,
    /// Match key to (source as reported, what it came out as).
    verdicts: HashMap<String, (String, Observed)>,
    /// With `--by`: each capture's group, by match key, and each group's mix.
    group_of: HashMap<String, String>,
    groups: BTreeMap<String, Mix>,
}

impl Run {
    /// Load and extract every capture under `path` (with the schema, if any),
    /// keeping each capture's standing and value.
    pub(crate) fn load(
        path: &Path,
        load: &LoadOptions,
        options: &Options,
        schema: Option<&Arc<Schema>>,
    ) -> Result<Run, LoadError> {
        Run::load_by(path, load, options, schema, None)
    }

    /// [`Run::load`], naming each capture's group when `by` is given.
    pub(crate) fn load_by(
        path: &Path,
        load: &LoadOptions,
        options: &Options,
        schema: Option<&Arc<Schema>>,
        by: Option<GroupBy>,
    ) -> Result<Run, LoadError> {
        let mut captures = capture::load(path, load)?;
        if schema.is_none() {
            with_asked_schemas(&mut captures);
        }
        let labels: Vec<Option<String>> = match by {
            Some(by) => {
                let mut grouper = Grouper::new(by);
                captures.iter().map(|c| Some(grouper.label(c))).collect()
            }
            None => vec![None; captures.len()],
        };
        // Checked as `check` checks: `--schema`, else the schema a capture's log recorded or
        // its request asked for.
        let checker = Checker::new(options.clone(), schema.cloned());
        let verdicts: Vec<(String, Observed)> = captures
            .into_par_iter()
            .map(|capture| {
                let outcome = checker.outcome(&capture);
                (capture.source, Observed::of(&outcome))
            })
            .collect();
        let mut run = Run::default();
        for ((source, verdict), group) in verdicts.into_iter().zip(labels) {
            run.insert_in(path, source, verdict, group);
        }
        Ok(run)
    }

    /// Record one capture's verdict; `root` is the path the run was loaded from.
    pub fn insert(&mut self, root: &Path, source: String, verdict: Observed) {
        self.insert_in(root, source, verdict, None);
    }

    /// [`Run::insert`], in `group` when there is one.
    pub(crate) fn insert_in(
        &mut self,
        root: &Path,
        source: String,
        verdict: Observed,
        group: Option<String>,
    ) {
        self.mix.add(verdict.standing.key);
        let key = match_key(root, &source);
        if let Some(group) = group {
            self.groups
                .entry(group.clone())
                .or_default()
                .add(verdict.standing.key);
            if let Some(previous) = self.group_of.insert(key.clone(), group) {
                if let Some((_, before)) = self.verdicts.get(&key) {
                    if let Some(mix) = self.groups.get_mut(&previous) {
                        mix.remove(before.standing.key);
                    }
                }
            }
        }
        if let Some((_, previous)) = self.verdicts.insert(key, (source, verdict)) {
            self.mix.remove(previous.standing.key);
        }
    }

    /// What the capture that `source` (loaded from `root`) matches came out as.
    #[cfg(test)]
    pub(crate) fn verdict(&self, root: &Path, source: &str) -> Option<&Observed> {
        self.verdict_by_key(&match_key(root, source))
    }

    /// What the capture with this [`match_key`] came out as.
    pub(crate) fn verdict_by_key(&self, key: &str) -> Option<&Observed> {
        self.verdicts.get(key).map(|(_, verdict)| verdict)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.verdicts.is_empty()
    }
}

/// The key a capture matches by across runs: its source, less the file name
/// when the run is one file (`run.jsonl:3` → `:3`, `logs.db#abc` → `#abc`).
pub(crate) fn match_key(root: &Path, source: &str) -> String {
    let root = root.to_string_lossy();
    match source.strip_prefix(root.as_ref()) {
        Some(rest) if rest.starts_with([':', '#']) => rest.to_string(),
        Some("") => String::new(),
        _ => source.to_string(),
    }
}

/// One capture of either run, and how it moved.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    /// The source in the new run (in the old run for a removed capture).
    pub(crate) source: String,
    pub(crate) change: Movement,
    pub(crate) old: Option<Observed>,
    pub(crate) new: Option<Observed>,
    /// For `value changed`, where the values differ.
    pub(crate) diff: ValueDiff,
    /// With `--by`: its group (in the new run, else in the old).
    pub(crate) group: Option<String>,
}

/// One group's mix in both runs (`--by`).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupChange {
    pub(crate) name: String,
    pub(crate) old: Mix,
    pub(crate) new: Mix,
}

impl GroupChange {
    /// The share of a mix that failed, in percent.
    pub(crate) fn failed_share(mix: &Mix) -> f64 {
        match mix.total() {
            0 => 0.0,
            total => mix.failed() as f64 * 100.0 / total as f64,
        }
    }
}

/// Two runs compared.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub(crate) old: Mix,
    pub(crate) new: Mix,
    /// Captures present in both runs.
    pub(crate) matched: usize,
    /// Every capture of either run (`same` ones too), sorted by source.
    pub(crate) pairs: Vec<Paired>,
    /// With `--by`: what each group was grouped by, and each group's mixes, the worst
    /// group now first.
    pub(crate) groups: Option<(GroupBy, Vec<GroupChange>)>,
}

impl Comparison {
    pub(crate) fn new(old: &Run, new: &Run) -> Comparison {
        let mut pairs = Vec::new();
        let mut matched = 0;
        for (key, (source, after)) in &new.verdicts {
            let before = old.verdicts.get(key).map(|(_, verdict)| verdict);
            matched += usize::from(before.is_some());
            pairs.push(Paired {
                source: source.clone(),
                change: Movement::between(before, Some(after)),
                diff: before.map(|b| b.value_diff(after)).unwrap_or_default(),
                old: before.cloned(),
                new: Some(after.clone()),
                group: new.group_of.get(key).cloned(),
            });
        }
        for (key, (source, before)) in &old.verdicts {
            if !new.verdicts.contains_key(key) {
                pairs.push(Paired {
                    source: source.clone(),
                    change: Movement::Removed,
                    old: Some(before.clone()),
                    new: None,
                    diff: ValueDiff::default(),
                    group: old.group_of.get(key).cloned(),
                });
            }
        }
        pairs.sort_by(|a, b| a.source.cmp(&b.source));
        Comparison {
            old: old.mix.clone(),
            new: new.mix.clone(),
            matched,
            pairs,
            groups: None,
        }
    }

    /// The same comparison with each group's mixes, grouped `by`, the worst group now
    /// first (then the worst before, then by name).
    pub(crate) fn with_groups(mut self, by: GroupBy, old: &Run, new: &Run) -> Comparison {
        let names: std::collections::BTreeSet<&String> =
            old.groups.keys().chain(new.groups.keys()).collect();
        let mut groups: Vec<GroupChange> = names
            .into_iter()
            .map(|name| GroupChange {
                name: name.clone(),
                old: old.groups.get(name).cloned().unwrap_or_default(),
                new: new.groups.get(name).cloned().unwrap_or_default(),
            })
            .collect();
        groups.sort_by(|a, b| {
            let share = |group: &GroupChange| {
                (
                    GroupChange::failed_share(&group.new),
                    GroupChange::failed_share(&group.old),
                )
            };
            let ((a_new, a_old), (b_new, b_old)) = (share(a), share(b));
            b_new
                .total_cmp(&a_new)
                .then(b_old.total_cmp(&a_old))
                .then(a.name.cmp(&b.name))
        });
        self.groups = Some((by, groups));
        self
    }

    /// How many captures moved this way.
    pub(crate) fn count(&self, change: Movement) -> usize {
        self.pairs.iter().filter(|c| c.change == change).count()
    }

    /// Every capture that did not come out the same.
    pub(crate) fn changes(&self) -> impl Iterator<Item = &Paired> {
        self.pairs.iter().filter(|c| c.change != Movement::Same)
    }

    /// Whether any capture that was ok has failed: what CI should stop on.
    pub(crate) fn regressed(&self) -> bool {
        self.count(Movement::Broke) > 0
    }
}

/// Each capture with the schema its request file asked for, unless it carries one (contract
/// §2), as `check` judges it; each file's request is read once.
fn with_asked_schemas(captures: &mut [crate::capture::Capture]) {
    let mut read = std::collections::HashMap::new();
    for capture in captures.iter_mut() {
        let asked = read
            .entry(capture.path.clone())
            .or_insert_with(|| crate::capture::RequestBeside::read(&capture.path).map(|r| r.asked));
        capture.ask_schema_of(asked.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{FailureKind, Layer};
    use crate::mix::MixKey;
    use serde_json::json;

    fn ok(layer: Layer, value: serde_json::Value) -> Observed {
        Observed {
            standing: Standing {
                key: MixKey::Layer(layer),
                defect: None,
            },
            value: Some(value),
        }
    }

    fn truncated() -> Observed {
        Observed {
            standing: Standing {
                key: MixKey::Failure(FailureKind::Truncated),
                defect: None,
            },
            value: None,
        }
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
    fn a_comparison_pairs_every_capture_by_source_with_both_mixes() {
        let (old_root, new_root) = (Path::new("old"), Path::new("new"));
        let mut old = Run::default();
        old.insert(
            old_root,
            "a.txt".into(),
            ok(Layer::Fenced, json!({"v": "Acme"})),
        );
        old.insert(old_root, "b.txt".into(), ok(Layer::Direct, json!(1)));
        old.insert(old_root, "gone.txt".into(), ok(Layer::Direct, json!(1)));
        old.insert(old_root, "same.txt".into(), ok(Layer::Fenced, json!([1])));
        let mut new = Run::default();
        new.insert(
            new_root,
            "a.txt".into(),
            ok(Layer::Direct, json!({"v": "Evil"})),
        );
        new.insert(new_root, "b.txt".into(), truncated());
        new.insert(new_root, "c.txt".into(), ok(Layer::Direct, json!(1)));
        new.insert(new_root, "same.txt".into(), ok(Layer::Fenced, json!([1])));
        old.insert(old_root, "moved.txt".into(), ok(Layer::Fenced, json!([2])));
        new.insert(new_root, "moved.txt".into(), ok(Layer::Direct, json!([2])));
        let comparison = Comparison::new(&old, &new);
        let listed: Vec<(&str, Movement)> = comparison
            .pairs
            .iter()
            .map(|c| (c.source.as_str(), c.change))
            .collect();
        assert_eq!(
            listed,
            [
                ("a.txt", Movement::ValueChanged),
                ("b.txt", Movement::Broke),
                ("c.txt", Movement::Added),
                ("gone.txt", Movement::Removed),
                ("moved.txt", Movement::LayerMoved),
                ("same.txt", Movement::Same),
            ]
        );
        assert_eq!(comparison.pairs[0].diff.changed, ["$.v"]);
        assert_eq!(comparison.changes().count(), 5);
        assert_eq!(comparison.matched, 4);
        assert!(comparison.regressed());
        assert_eq!(comparison.old.count(MixKey::Layer(Layer::Direct)), 2);
        assert_eq!(comparison.new.count(MixKey::Layer(Layer::Direct)), 3);
        let fenced = old.verdict(old_root, "a.txt").map(|o| o.standing.key);
        assert_eq!(fenced, Some(MixKey::Layer(Layer::Fenced)));
    }
}
