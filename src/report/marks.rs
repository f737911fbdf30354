//! Causes and warnings counted per capture: `check`'s summary shows them beside the layer
//! mix, and the drift gate bounds them (`--max-share tool-call-text=0`).

use std::collections::BTreeMap;

use crate::engine::{Cause, Outcome, WarningKind};

/// How many captures carry each cause and each warning. A capture counts once per name,
/// so `tool-call-text` (a cause and a warning) counts every capture that has either.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Marks {
    causes: BTreeMap<Cause, usize>,
    warnings: BTreeMap<WarningKind, usize>,
    named: BTreeMap<&'static str, usize>,
}

impl Marks {
    /// Count one more outcome.
    pub(super) fn add(&mut self, outcome: &Outcome) {
        let cause = outcome.failure.as_ref().and_then(|failure| failure.cause);
        let kinds = outcome.warning_kinds();
        if let Some(cause) = cause {
            *self.causes.entry(cause).or_default() += 1;
        }
        for kind in &kinds {
            *self.warnings.entry(*kind).or_default() += 1;
        }
        let mut names: Vec<&'static str> = cause.map(Cause::as_str).into_iter().collect();
        names.extend(kinds.iter().map(|kind| kind.as_str()));
        names.sort_unstable();
        names.dedup();
        for name in names {
            *self.named.entry(name).or_default() += 1;
        }
    }

    pub(super) fn cause(&self, cause: Cause) -> usize {
        self.causes.get(&cause).copied().unwrap_or(0)
    }

    pub(super) fn warning(&self, kind: WarningKind) -> usize {
        self.warnings.get(&kind).copied().unwrap_or(0)
    }

    /// Captures with the cause or warning of this name.
    pub(super) fn named(&self, name: &str) -> usize {
        self.named.get(name).copied().unwrap_or(0)
    }

    /// Every cause, then every warning, each name once, in the vocabulary's order.
    pub(super) fn names() -> Vec<&'static str> {
        let causes = Cause::ALL.iter().map(|cause| cause.as_str());
        let warnings = WarningKind::ALL.iter().map(|kind| kind.as_str());
        let mut names: Vec<&'static str> = Vec::new();
        for name in causes.chain(warnings) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// The names some capture carries, with their counts, in the vocabulary's order.
    pub(super) fn present(&self) -> Vec<(&'static str, usize)> {
        Marks::names()
            .into_iter()
            .map(|name| (name, self.named(name)))
            .filter(|&(_, count)| count > 0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{extract, Options};

    #[test]
    fn a_name_that_is_a_cause_and_a_warning_counts_each_capture_once() {
        let mut marks = Marks::default();
        for text in [
            "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>",
            "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
            "I can't help with that.",
            "{\"a\": 1} and that is all",
        ] {
            marks.add(&extract(text, &Options::default()));
        }
        assert_eq!(marks.cause(Cause::ToolCallText), 1);
        assert_eq!(marks.warning(WarningKind::ToolCallText), 1);
        assert_eq!(marks.named("tool-call-text"), 2);
        assert_eq!(
            marks.present(),
            vec![("refusal", 1), ("tool-call-text", 2), ("trailing-prose", 1)]
        );
        assert_eq!(
            Marks::names()
                .iter()
                .filter(|n| **n == "tool-call-text")
                .count(),
            1
        );
    }
}
