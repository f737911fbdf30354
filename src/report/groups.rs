//! `--by`: the mix of each group (model, provider, prompt, folder, day), the worst group
//! first, as every format writes it: lines of text, JSON, a Markdown table.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use super::{visible, Painter, Summary, Tone};
use crate::check::Checked;
use crate::engine::{FailureKind, Layer};
use crate::group::GroupBy;
use crate::text::count_of;

/// Group names longer than this are not padded, so one long name does not push every line.
const NAME_PAD: usize = 48;

/// One [`Summary`] per group, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Groups {
    by: GroupBy,
    summaries: BTreeMap<String, Summary>,
}

impl Groups {
    pub(crate) fn new(by: GroupBy) -> Groups {
        Groups {
            by,
            summaries: BTreeMap::new(),
        }
    }

    pub(crate) fn by(&self) -> GroupBy {
        self.by
    }

    /// Count `checked` in the group `label` (its outcome, and a stream's early signal).
    pub(crate) fn count(&mut self, label: &str, checked: &Checked) {
        self.group(label).count(checked);
    }

    /// Count `outcome` in the group `label`.
    #[cfg(test)]
    pub(crate) fn add(&mut self, label: &str, outcome: &crate::engine::Outcome) {
        self.group(label).add(outcome);
    }

    /// The group `label`'s counts, new when it has none yet.
    fn group(&mut self, label: &str) -> &mut Summary {
        self.summaries.entry(label.to_string()).or_default()
    }

    /// The groups, the worst first: the highest share failed, then the most failures,
    /// then by name.
    pub(crate) fn worst_first(&self) -> Vec<(&str, &Summary)> {
        let mut groups: Vec<(&str, &Summary)> = self
            .summaries
            .iter()
            .map(|(name, summary)| (name.as_str(), summary))
            .collect();
        groups.sort_by(|(a_name, a), (b_name, b)| {
            failed_share(b)
                .total_cmp(&failed_share(a))
                .then(b.failed().cmp(&a.failed()))
                .then(a_name.cmp(b_name))
        });
        groups
    }

    /// As `check --format json` writes them: `[{"group", "failed_share", "summary"}, …]`.
    pub(crate) fn records(&self) -> Vec<GroupRecord<'_>> {
        self.worst_first()
            .into_iter()
            .map(|(group, summary)| GroupRecord {
                group,
                failed_share: (failed_share(summary) * 10.0).round() / 10.0,
                summary,
            })
            .collect()
    }
}

/// One group in the JSON report.
#[derive(Debug, Serialize)]
pub(crate) struct GroupRecord<'a> {
    pub(crate) group: &'a str,
    /// The share of the group's captures that failed, in percent, to one decimal.
    pub(crate) failed_share: f64,
    pub(crate) summary: &'a Summary,
}

/// The share failed, in percent.
pub(crate) fn failed_share(summary: &Summary) -> f64 {
    summary.share(summary.failed())
}

/// Each layer and failure kind a group holds, with its count: the mix's cells.
pub(crate) fn mix_cells(summary: &Summary) -> Vec<(&'static str, usize)> {
    let layers = Layer::ALL
        .iter()
        .map(|layer| (layer.as_str(), summary.layer(*layer)));
    let failures = FailureKind::ALL
        .iter()
        .map(|kind| (kind.as_str(), summary.failure(*kind)));
    layers.chain(failures).collect()
}

/// The text report's part: a heading, then two lines a group (its counts, its mix) and
/// a third with the causes and warnings it carries.
pub(crate) fn write_text(out: &mut dyn Write, groups: &Groups, painter: Painter) -> io::Result<()> {
    let heading = format!("by {}, the worst first", groups.by().as_str());
    writeln!(out, "{}", painter.paint(&heading, Tone::Strong))?;
    let ordered = groups.worst_first();
    let pad = ordered
        .iter()
        .map(|(name, _)| visible(name).chars().count())
        .filter(|width| *width <= NAME_PAD)
        .max()
        .unwrap_or(0);
    for (name, summary) in ordered {
        let failed = format!(
            "{} failed ({:.1}%)",
            summary.failed(),
            failed_share(summary)
        );
        let tone = if summary.failed() > 0 {
            Tone::Bad
        } else {
            Tone::Good
        };
        writeln!(
            out,
            "{:<pad$}  {}, {}",
            visible(name),
            count_of(summary.total(), "capture"),
            painter.paint(&failed, tone)
        )?;
        let present = |cells: Vec<(&str, usize)>| {
            cells
                .into_iter()
                .filter(|(_, count)| *count > 0)
                .map(|(word, count)| format!("{word} {count} ({:.1}%)", summary.share(count)))
                .collect::<Vec<_>>()
                .join("  ")
        };
        writeln!(out, "    {}", present(mix_cells(summary)))?;
        let marks = present(summary.marks_present());
        if !marks.is_empty() {
            writeln!(out, "    {}", painter.paint(&marks, Tone::Dim))?;
        }
        if let Some(early) = summary.early().and_then(|early| early.line()) {
            writeln!(out, "    {}", painter.paint(&early, Tone::Dim))?;
        }
    }
    Ok(())
}

/// The step summary's table: a row a group, the worst first, each cell `count (share)`.
pub(crate) fn markdown(groups: &Groups, cell: &dyn Fn(&str) -> String) -> String {
    let words: Vec<&str> = mix_cells(&Summary::default())
        .into_iter()
        .map(|(word, _)| word)
        .collect();
    let mut text = format!(
        "| {} | captures | failed | {} |\n| --- | ---: | ---: |{}\n",
        groups.by().as_str(),
        words.join(" | "),
        " ---: |".repeat(words.len())
    );
    for (name, summary) in groups.worst_first() {
        let cells: Vec<String> = mix_cells(summary)
            .into_iter()
            .map(|(_, count)| share_cell(summary, count))
            .collect();
        text.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            cell(name),
            summary.total(),
            share_cell(summary, summary.failed()),
            cells.join(" | ")
        ));
    }
    text.push('\n');
    text
}

/// `3 (25.0%)`, or `0` alone.
fn share_cell(summary: &Summary, count: usize) -> String {
    match count {
        0 => "0".to_string(),
        count => format!("{count} ({:.1}%)", summary.share(count)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;
    use serde_json::json;

    fn ok(layer: Layer) -> Outcome {
        let mut outcome = Outcome::default();
        outcome.layer = Some(layer);
        outcome.value = Some(json!(1));
        outcome
    }

    #[test]
    fn the_worst_group_comes_first_then_the_most_failures_then_the_name() {
        let mut groups = Groups::new(GroupBy::Model);
        groups.add("b-clean", &ok(Layer::Direct));
        groups.add("a-half", &ok(Layer::Fenced));
        groups.add("a-half", &Outcome::unreadable("x"));
        groups.add("c-half", &ok(Layer::Direct));
        groups.add("c-half", &ok(Layer::Direct));
        groups.add("c-half", &Outcome::unreadable("x"));
        groups.add("c-half", &Outcome::unreadable("x"));
        let order: Vec<&str> = groups.worst_first().into_iter().map(|(n, _)| n).collect();
        assert_eq!(order, ["c-half", "a-half", "b-clean"]);
        let mut text = Vec::new();
        write_text(&mut text, &groups, Painter::plain()).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("a-half   2 captures, 1 failed (50.0%)\n    fenced 1 (50.0%)  unreadable 1 (50.0%)\n"),
            "{text}"
        );
        let table = markdown(&groups, &|text| text.to_string());
        assert!(
            table.contains("| c-half | 4 | 2 (50.0%) | 2 (50.0%) | 0 |"),
            "{table}"
        );
    }
}
