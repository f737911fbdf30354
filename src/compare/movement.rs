//! What one capture came out as in a run, and how that moved between two runs.

use serde_json::Value;

use super::diff::ValueDiff;
use crate::engine::{Defect, Outcome};
use crate::mix::MixKey;

/// What one capture came out as: its badge word and, for `invalid`, the defect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Standing {
    pub(crate) key: MixKey,
    pub(crate) defect: Option<Defect>,
}

impl Standing {
    pub(crate) fn of(outcome: &Outcome) -> Standing {
        Standing {
            key: MixKey::of(outcome),
            defect: outcome.failure.as_ref().and_then(|failure| failure.defect),
        }
    }

    pub(crate) fn ok(self) -> bool {
        matches!(self.key, MixKey::Layer(_))
    }

    /// `fenced`, `truncated`, `invalid (trailing-comma)`.
    pub(crate) fn label(self) -> String {
        match self.defect {
            Some(defect) => format!("{} ({})", self.key.as_str(), defect.as_str()),
            None => self.key.as_str().to_string(),
        }
    }
}

/// A capture's standing and, when it was accepted, its value: what a run keeps
/// of each capture to compare it with another run.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    pub(crate) standing: Standing,
    pub(crate) value: Option<Value>,
}

impl Observed {
    pub fn of(outcome: &Outcome) -> Observed {
        let standing = Standing::of(outcome);
        Observed {
            standing,
            value: standing.ok().then(|| outcome.value.clone()).flatten(),
        }
    }

    /// Where the values of two accepted captures differ; empty when either
    /// side has no value.
    pub(crate) fn value_diff(&self, new: &Observed) -> ValueDiff {
        match (&self.value, &new.value) {
            (Some(old), Some(new)) => ValueDiff::between(old, new),
            _ => ValueDiff::default(),
        }
    }
}

/// How a capture moved from the old run to the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Movement {
    /// Ok both times from the same layer with the same value, or failed both times the
    /// same way.
    Same,
    /// Ok both times with the same value, from another layer (`fenced → direct`): what a
    /// prompt change often aims for.
    LayerMoved,
    /// Ok both times, with different values.
    ValueChanged,
    /// Failed before, ok now.
    Fixed,
    /// Ok before, failed now: a regression.
    Broke,
    /// Failed both times, with a different kind or defect.
    DifferentFailure,
    /// Only in the new run.
    Added,
    /// Only in the old run.
    Removed,
}

impl Movement {
    pub const ALL: [Movement; 8] = [
        Movement::Same,
        Movement::LayerMoved,
        Movement::ValueChanged,
        Movement::Fixed,
        Movement::Broke,
        Movement::DifferentFailure,
        Movement::Added,
        Movement::Removed,
    ];

    /// How a capture moved; `Same` when neither run has it.
    pub(crate) fn between(old: Option<&Observed>, new: Option<&Observed>) -> Movement {
        let (old, new) = match (old, new) {
            (None, None) => return Movement::Same,
            (None, Some(_)) => return Movement::Added,
            (Some(_), None) => return Movement::Removed,
            (Some(old), Some(new)) => (old, new),
        };
        match (old.standing.ok(), new.standing.ok()) {
            (false, true) => Movement::Fixed,
            (true, false) => Movement::Broke,
            (true, true) => match (&old.value, &new.value) {
                (Some(before), Some(after)) if !ValueDiff::between(before, after).is_empty() => {
                    Movement::ValueChanged
                }
                _ if old.standing.key != new.standing.key => Movement::LayerMoved,
                _ => Movement::Same,
            },
            (false, false) if old.standing == new.standing => Movement::Same,
            (false, false) => Movement::DifferentFailure,
        }
    }

    /// The word the text report and the JSON outputs use.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Movement::Same => "same",
            Movement::LayerMoved => "layer-moved",
            Movement::ValueChanged => "value-changed",
            Movement::Fixed => "fixed",
            Movement::Broke => "broke",
            Movement::DifferentFailure => "different-failure",
            Movement::Added => "added",
            Movement::Removed => "removed",
        }
    }

    /// The words a reader sees: `value changed`, `different failure`, `same value` (its
    /// line goes on `fenced → direct`).
    pub(crate) fn words(self) -> &'static str {
        match self {
            Movement::LayerMoved => "same value",
            Movement::ValueChanged => "value changed",
            Movement::DifferentFailure => "different failure",
            other => other.as_str(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{FailureKind, Layer};
    use serde_json::json;

    fn ok(layer: Layer, value: Value) -> Observed {
        Observed {
            standing: Standing {
                key: MixKey::Layer(layer),
                defect: None,
            },
            value: Some(value),
        }
    }

    fn failed(kind: FailureKind, defect: Option<Defect>) -> Observed {
        Observed {
            standing: Standing {
                key: MixKey::Failure(kind),
                defect,
            },
            value: None,
        }
    }

    #[test]
    fn movements_say_which_way_they_went() {
        let between = |old: &Observed, new: &Observed| Movement::between(Some(old), Some(new));
        let acme = ok(Layer::Fenced, json!({"vendor": "Acme"}));
        let truncated = failed(FailureKind::Truncated, None);
        assert_eq!(between(&acme, &acme), Movement::Same);
        // The layer moved, the value did not: its own movement.
        let direct = ok(Layer::Direct, json!({"vendor": "Acme"}));
        assert_eq!(between(&acme, &direct), Movement::LayerMoved);
        assert_eq!(between(&direct, &direct), Movement::Same);
        assert_eq!(Movement::LayerMoved.words(), "same value");
        let evil = ok(Layer::Fenced, json!({"vendor": "Evil Corp"}));
        assert_eq!(between(&acme, &evil), Movement::ValueChanged);
        assert_eq!(between(&acme, &truncated), Movement::Broke);
        assert_eq!(between(&truncated, &acme), Movement::Fixed);
        let comma = failed(FailureKind::Invalid, Some(Defect::TrailingComma));
        let quotes = failed(FailureKind::Invalid, Some(Defect::SingleQuotes));
        assert_eq!(between(&comma, &quotes), Movement::DifferentFailure);
        assert_eq!(between(&comma, &truncated), Movement::DifferentFailure);
        assert_eq!(between(&comma, &comma), Movement::Same);
        assert_eq!(comma.standing.label(), "invalid (trailing-comma)");
        assert_eq!(Movement::between(None, Some(&comma)), Movement::Added);
        assert_eq!(Movement::between(Some(&comma), None), Movement::Removed);
        assert_eq!(Movement::ValueChanged.words(), "value changed");
    }
}
