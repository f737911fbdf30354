//! Which captures the list shows, in which order, and the layer mix.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::engine::{Cause, Defect, FailureKind, Layer, Outcome, WarningKind};
use crate::group::GroupBy;

/// A filter by outcome (`f`), or by the group a capture is in (`f`'s model and prompt
/// entries, and the group view `b`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Filter {
    #[default]
    All,
    Failures,
    Layer(Layer),
    Failure(FailureKind),
    Repaired,
    Warned,
    /// Failures whose candidate has this defect (headline or not).
    Defect(Defect),
    /// Captures with this warning.
    Warning(WarningKind),
    /// Failures with this cause (refusal, filtered, runaway).
    Cause(Cause),
    /// Captures in this group (`--by`'s names: a model, a prompt's words and digest).
    Group(GroupBy, Arc<str>),
    /// Captures by their place in a repair chain.
    Chain(ChainRole),
}

/// A capture's place in a repair chain (of two attempts or more), as the filter menu
/// offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainRole {
    /// Any attempt of a chain.
    InChain,
    /// An attempt that was re-asked: every one but a chain's last.
    ReAsked,
    /// Every attempt of a chain whose last attempt has a value.
    Repaired,
}

impl ChainRole {
    pub(crate) const ALL: [ChainRole; 3] =
        [ChainRole::InChain, ChainRole::ReAsked, ChainRole::Repaired];

    fn label(self) -> &'static str {
        match self {
            ChainRole::InChain => "in a chain",
            ChainRole::ReAsked => "re-asked",
            ChainRole::Repaired => "repaired chain",
        }
    }
}

impl Filter {
    /// The fixed choices, in the order the menu lists them.
    pub(crate) fn choices() -> Vec<Filter> {
        let mut choices = vec![Filter::All, Filter::Failures];
        choices.extend(Layer::ALL.iter().copied().map(Filter::Layer));
        choices.extend(FailureKind::ALL.iter().copied().map(Filter::Failure));
        choices.extend([Filter::Repaired, Filter::Warned]);
        choices
    }

    /// The menu: the fixed choices, then each cause, defect and warning that
    /// some capture has (dozens of kinds exist; a menu of zeros helps no one).
    pub fn menu<'a>(outcomes: impl Iterator<Item = &'a Outcome>) -> Vec<Filter> {
        let mut kinds = Kinds::default();
        for outcome in outcomes {
            kinds.add(outcome);
        }
        Filter::menu_of(&kinds)
    }

    /// The menu for the kinds the captures have (kept up to date by the list).
    pub fn menu_of(kinds: &Kinds) -> Vec<Filter> {
        let Kinds {
            causes,
            defects,
            warnings,
            models,
            prompts,
            ..
        } = kinds;
        let mut warnings = warnings.clone();
        let mut choices = Filter::choices();
        choices.extend(
            Cause::ALL
                .iter()
                .copied()
                .filter(|c| causes.contains(c))
                .map(Filter::Cause),
        );
        choices.extend(
            Defect::ALL
                .iter()
                .copied()
                .filter(|d| defects.contains(d))
                .map(Filter::Defect),
        );
        warnings.sort();
        warnings.dedup();
        choices.extend(warnings.into_iter().map(Filter::Warning));
        if kinds.chains {
            choices.extend(ChainRole::ALL.map(Filter::Chain));
        }
        for (by, names) in [(GroupBy::Model, models), (GroupBy::Prompt, prompts)] {
            choices.extend(names.iter().map(|name| Filter::Group(by, Arc::clone(name))));
        }
        choices
    }

    /// What the list's title, the menu and the footer call it.
    pub(crate) fn label(&self) -> &str {
        match self {
            Filter::Group(_, name) => name,
            other => other.kind_label(),
        }
    }

    fn kind_label(&self) -> &'static str {
        match *self {
            Filter::Group(by, _) => by.as_str(),
            Filter::All => "all",
            Filter::Failures => "any failure",
            Filter::Layer(layer) => layer.as_str(),
            Filter::Failure(kind) => kind.as_str(),
            Filter::Repaired => "with repairs",
            Filter::Warned => "with warnings",
            Filter::Defect(defect) => defect.as_str(),
            Filter::Warning(warning) => warning.as_str(),
            Filter::Cause(cause) => cause.as_str(),
            Filter::Chain(role) => role.label(),
        }
    }

    /// What the menu groups a choice under: "defect", "warning", "cause", "model",
    /// "prompt", or nothing.
    pub(crate) fn group(&self) -> Option<&'static str> {
        match self {
            Filter::Defect(_) => Some("defect"),
            Filter::Warning(_) => Some("warning"),
            Filter::Cause(_) => Some("cause"),
            Filter::Chain(_) => Some("chain"),
            Filter::Group(by, _) => Some(by.as_str()),
            _ => None,
        }
    }

    /// Whether an outcome passes (a group or chain filter passes every outcome: an entry's
    /// group or chain decides, `Entry::shown_by` and the list's chains).
    pub(crate) fn matches(&self, outcome: &Outcome) -> bool {
        match *self {
            Filter::Group(..) | Filter::Chain(_) => true,
            Filter::All => true,
            Filter::Failures => !outcome.ok(),
            Filter::Layer(layer) => outcome.ok() && outcome.layer == Some(layer),
            Filter::Failure(kind) => outcome.failure.as_ref().map(|f| f.kind) == Some(kind),
            Filter::Repaired => !outcome.repairs.is_empty(),
            Filter::Warned => !outcome.warnings.is_empty(),
            Filter::Defect(defect) => outcome.failure.as_ref().is_some_and(|f| {
                f.defect == Some(defect) || f.defects.iter().any(|d| d.kind == defect)
            }),
            Filter::Warning(kind) => outcome.warnings.iter().any(|w| w.kind == kind),
            Filter::Cause(cause) => outcome.failure.as_ref().and_then(|f| f.cause) == Some(cause),
        }
    }
}

/// The list order (`t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    #[default]
    Source,
    /// Failures first (most specific kind first), then layers, each by source.
    Outcome,
    /// Newest file first (by modification time), then by source.
    Modified,
}

impl Sort {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Sort::Source => "by source",
            Sort::Outcome => "by outcome",
            Sort::Modified => "newest first",
        }
    }

    /// The next order for `t`: source, outcome, modification time, source again.
    pub(crate) fn toggled(self) -> Sort {
        match self {
            Sort::Source => Sort::Outcome,
            Sort::Outcome => Sort::Modified,
            Sort::Modified => Sort::Source,
        }
    }
}

/// Rank of an outcome in the outcome sort.
pub(super) fn outcome_rank(outcome: &Outcome) -> usize {
    match (&outcome.failure, outcome.layer) {
        (Some(failure), _) => FailureKind::ALL
            .iter()
            .position(|&kind| kind == failure.kind)
            .unwrap_or(0),
        (None, Some(layer)) => {
            FailureKind::ALL.len() + Layer::ALL.iter().position(|&l| l == layer).unwrap_or(0)
        }
        (None, None) => 0,
    }
}

/// The causes, defects and warnings some capture has, each once: what the
/// filter menu offers beyond its fixed choices.
#[derive(Debug, Clone, Default)]
pub struct Kinds {
    causes: Vec<Cause>,
    defects: Vec<Defect>,
    warnings: Vec<WarningKind>,
    /// The models and recorded prompts the captures name.
    models: BTreeSet<Arc<str>>,
    prompts: BTreeSet<Arc<str>>,
    /// Some capture is linked into a repair chain.
    chains: bool,
}

impl Kinds {
    /// The model a capture names and the recorded prompt it was asked with, when known.
    pub(crate) fn add_groups(&mut self, model: Option<&str>, prompt: Option<String>) {
        if let Some(model) = model.filter(|m| !self.models.contains(*m)) {
            self.models.insert(Arc::from(model));
        }
        if let Some(prompt) = prompt.filter(|p| !self.prompts.contains(p.as_str())) {
            self.prompts.insert(Arc::from(prompt));
        }
    }

    /// A capture that is linked into a repair chain (its request file says so).
    pub(crate) fn add_link(&mut self, linked: bool) {
        self.chains |= linked;
    }

    pub(crate) fn add(&mut self, outcome: &Outcome) {
        if let Some(failure) = &outcome.failure {
            add_new(&mut self.causes, failure.cause);
            add_new(&mut self.defects, failure.defect);
            for defect in &failure.defects {
                add_new(&mut self.defects, Some(defect.kind));
            }
        }
        for warning in &outcome.warnings {
            add_new(&mut self.warnings, Some(warning.kind));
        }
    }
}

/// A handful of kinds at most: a scan beats a set.
fn add_new<T: PartialEq>(seen: &mut Vec<T>, item: Option<T>) {
    if let Some(item) = item.filter(|item| !seen.contains(item)) {
        seen.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(layer: Layer) -> Outcome {
        let mut outcome = Outcome::default();
        outcome.layer = Some(layer);
        outcome.value = Some(serde_json::json!(1));
        outcome
    }

    #[test]
    fn filters_match_their_outcomes() {
        let fenced = ok(Layer::Fenced);
        let bad = Outcome::unreadable("x");
        assert!(Filter::Layer(Layer::Fenced).matches(&fenced));
        assert!(!Filter::Layer(Layer::Direct).matches(&fenced));
        assert!(Filter::Failures.matches(&bad));
        assert!(Filter::Failure(FailureKind::Unreadable).matches(&bad));
        assert!(!Filter::Failures.matches(&fenced));
        assert_eq!(Filter::choices().len(), 13);
    }

    #[test]
    fn the_menu_offers_only_defects_warnings_and_causes_that_occur() {
        let text = "Sure! {\"a\": 1,}";
        let bad = crate::engine::extract(text, &crate::engine::Options::default());
        let defect = bad
            .failure
            .as_ref()
            .and_then(|f| f.defect)
            .expect("a defect");
        let mut warned = ok(Layer::Scanned);
        warned.warnings.push(crate::engine::Warning::new(
            WarningKind::TrailingProse,
            None,
            "",
        ));
        let menu = Filter::menu([&bad, &warned].into_iter());
        assert!(menu.contains(&Filter::Defect(defect)));
        assert!(menu.contains(&Filter::Warning(WarningKind::TrailingProse)));
        assert!(!menu.contains(&Filter::Warning(WarningKind::ThinkBlock)));
        assert!(!menu.iter().any(|f| matches!(f, Filter::Cause(_))));
        assert!(Filter::Defect(defect).matches(&bad));
        assert!(!Filter::Defect(defect).matches(&warned));
        assert!(Filter::Warning(WarningKind::TrailingProse).matches(&warned));
    }

    #[test]
    fn failures_sort_before_successes() {
        assert!(outcome_rank(&Outcome::unreadable("x")) < outcome_rank(&ok(Layer::Direct)));
        assert!(outcome_rank(&ok(Layer::Direct)) < outcome_rank(&ok(Layer::Scanned)));
    }
}
