//! `jxray compare` output: the two mixes side by side, then every change; or
//! one JSON document, or one JSON line per capture.

use std::io::{self, Write};

use serde::Serialize;

use super::{Comparison, GroupChange, Movement, Observed, Paired, ValueDiff};
use crate::engine::{FailureKind, Layer};
use crate::mix::{delta_text, Mix, MixKey};
use crate::report::{visible, Painter, Summary, Tone};
use crate::text::count_of;

/// Widest outcome word (`unreadable`), so columns line up.
const WORD_WIDTH: usize = 10;

/// The human report. `old` and `new` name the two runs as the user gave them.
pub fn write_text(
    out: &mut dyn Write,
    comparison: &Comparison,
    (old, new): (&str, &str),
    painter: Painter,
) -> io::Result<()> {
    for (label, name, mix) in [("old", old, &comparison.old), ("new", new, &comparison.new)] {
        let summary = Summary::from_mix(mix.clone());
        writeln!(
            out,
            "{label}  {}  {}: {} ok, {} failed",
            visible(name),
            count_of(summary.total(), "capture"),
            summary.ok(),
            summary.failed()
        )?;
    }
    writeln!(out)?;
    write_mixes(out, comparison, painter)?;
    writeln!(out)?;
    write_counts(out, comparison, painter)?;
    write_groups(out, comparison, painter)?;
    write_changes(out, comparison, painter)
}

/// `--by`: each group's captures and share failed in both runs, and how its mix moved.
fn write_groups(out: &mut dyn Write, comparison: &Comparison, painter: Painter) -> io::Result<()> {
    let Some((by, groups)) = &comparison.groups else {
        return Ok(());
    };
    writeln!(out)?;
    let heading = format!("by {}, the worst now first", by.as_str());
    writeln!(out, "{}", painter.paint(&heading, Tone::Strong))?;
    let pad = groups
        .iter()
        .map(|group| visible(&group.name).chars().count())
        .filter(|width| *width <= 48)
        .max()
        .unwrap_or(0);
    for group in groups {
        let (before, after) = (
            GroupChange::failed_share(&group.old),
            GroupChange::failed_share(&group.new),
        );
        let tone = match after.total_cmp(&before) {
            std::cmp::Ordering::Less => Tone::Good,
            std::cmp::Ordering::Greater => Tone::Bad,
            std::cmp::Ordering::Equal => Tone::Dim,
        };
        let change = painter.paint(&format!("{:+.1} points", after - before), tone);
        writeln!(
            out,
            "{:<pad$}  old {}  new {}  {change}",
            visible(&group.name),
            failed_words(&group.old),
            failed_words(&group.new),
        )?;
        let moved = delta_text(&group.old, &group.new);
        let moved = if moved.is_empty() {
            "no change".to_string()
        } else {
            moved
        };
        writeln!(out, "    {moved}")?;
    }
    Ok(())
}

/// `12 captures, 3 failed (25.0%)`.
fn failed_words(mix: &Mix) -> String {
    format!(
        "{}, {} failed ({:.1}%)",
        count_of(mix.total(), "capture"),
        mix.failed(),
        GroupChange::failed_share(mix)
    )
}

fn write_mixes(out: &mut dyn Write, comparison: &Comparison, painter: Painter) -> io::Result<()> {
    let header = format!(
        "{:<WORD_WIDTH$}  {:>7}  {:>7}  {:>7}",
        "outcome", "old", "new", "change"
    );
    writeln!(out, "{}", painter.paint(&header, Tone::Strong))?;
    let keys = Layer::ALL
        .iter()
        .copied()
        .map(MixKey::Layer)
        .chain(FailureKind::ALL.iter().copied().map(MixKey::Failure));
    for key in keys {
        let (before, after) = (comparison.old.count(key), comparison.new.count(key));
        if before == 0 && after == 0 {
            continue;
        }
        // More successes is better, more failures is worse.
        let better = matches!(key, MixKey::Layer(_)) == (after > before);
        let tone = match after.cmp(&before) {
            std::cmp::Ordering::Equal => Tone::Dim,
            _ if better => Tone::Good,
            _ => Tone::Bad,
        };
        let delta = signed(after as i64 - before as i64);
        writeln!(
            out,
            "{:<WORD_WIDTH$}  {before:>7}  {after:>7}  {}",
            key.as_str(),
            painter.paint(&format!("{delta:>7}"), tone)
        )?;
    }
    let (before, after) = (comparison.old.total(), comparison.new.total());
    let delta = signed(after as i64 - before as i64);
    writeln!(
        out,
        "{:<WORD_WIDTH$}  {before:>7}  {after:>7}  {delta:>7}",
        "total"
    )
}

/// Most paths a change line lists before `and N more`.
const PATHS_SHOWN: usize = 4;

fn write_counts(out: &mut dyn Write, comparison: &Comparison, painter: Painter) -> io::Result<()> {
    let count = |change: Movement| comparison.count(change);
    let broke = painter.paint(
        &format!("{} broke", count(Movement::Broke)),
        if comparison.regressed() {
            Tone::Bad
        } else {
            Tone::Dim
        },
    );
    writeln!(
        out,
        "{}: {} same, {} same value from another layer, {} value changed, {} fixed, {broke}, \
         {} different failure; {} only in new, {} only in old",
        count_of(comparison.matched, "matched capture"),
        count(Movement::Same),
        count(Movement::LayerMoved),
        count(Movement::ValueChanged),
        count(Movement::Fixed),
        count(Movement::DifferentFailure),
        count(Movement::Added),
        count(Movement::Removed),
    )
}

/// Widest change word (`different failure`), so sources line up.
const CHANGE_WIDTH: usize = 17;

fn write_changes(out: &mut dyn Write, comparison: &Comparison, painter: Painter) -> io::Result<()> {
    let changes: Vec<&Paired> = comparison.changes().collect();
    if changes.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    let pad = changes
        .iter()
        .map(|c| visible(&c.source).chars().count())
        .filter(|width| *width <= 48)
        .max()
        .unwrap_or(0);
    for changed in changes {
        let tone = match changed.change {
            Movement::Fixed => Tone::Good,
            Movement::Broke => Tone::Bad,
            _ => Tone::Notice,
        };
        let word = format!("{:<CHANGE_WIDTH$}", changed.change.words());
        let mut line = format!(
            "{} {:<pad$}  {} → {}",
            painter.paint(&word, tone),
            visible(&changed.source),
            side(changed.old.as_ref()),
            side(changed.new.as_ref())
        );
        if !changed.diff.is_empty() {
            line.push_str(&format!(
                ": {}",
                visible(&changed.diff.summary(PATHS_SHOWN))
            ));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// A verdict in a change line; `-` for a side that does not have the capture.
fn side(verdict: Option<&Observed>) -> String {
    verdict.map_or_else(|| "-".to_string(), |v| v.standing.label())
}

fn signed(delta: i64) -> String {
    match delta {
        0 => "0".to_string(),
        d if d > 0 => format!("+{d}"),
        d => d.to_string(),
    }
}

#[derive(Serialize)]
struct SideOutcome {
    outcome: &'static str,
    ok: bool,
    defect: Option<&'static str>,
}

/// One capture of the comparison as JSON: how it moved, both outcomes, the paths.
#[derive(Serialize)]
struct Item<'a> {
    source: &'a str,
    change: Movement,
    old: Option<SideOutcome>,
    new: Option<SideOutcome>,
    paths: &'a ValueDiff,
    #[serde(skip_serializing_if = "Option::is_none")]
    group: Option<&'a str>,
}

impl<'a> Item<'a> {
    fn of(paired: &'a Paired) -> Item<'a> {
        let outcome = |verdict: Option<&Observed>| {
            verdict.map(|v| SideOutcome {
                outcome: v.standing.key.as_str(),
                ok: v.standing.ok(),
                defect: v.standing.defect.map(|d| d.as_str()),
            })
        };
        Item {
            source: &paired.source,
            change: paired.change,
            old: outcome(paired.old.as_ref()),
            new: outcome(paired.new.as_ref()),
            paths: &paired.diff,
            group: paired.group.as_deref(),
        }
    }
}

/// One document: both runs' summaries, the counts of each movement and every change.
pub fn write_json(
    out: &mut dyn Write,
    comparison: &Comparison,
    (old, new): (&str, &str),
) -> io::Result<()> {
    #[derive(Serialize)]
    struct Side<'a> {
        path: &'a str,
        summary: Summary,
    }
    #[derive(Serialize)]
    struct Group<'a> {
        group: &'a str,
        old: Summary,
        new: Summary,
    }
    #[derive(Serialize)]
    struct Document<'a> {
        old: Side<'a>,
        new: Side<'a>,
        matched: usize,
        counts: serde_json::Map<String, serde_json::Value>,
        changes: Vec<Item<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        by: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        groups: Option<Vec<Group<'a>>>,
    }
    let document = Document {
        old: Side {
            path: old,
            summary: Summary::from_mix(comparison.old.clone()),
        },
        new: Side {
            path: new,
            summary: Summary::from_mix(comparison.new.clone()),
        },
        matched: comparison.matched,
        counts: Movement::ALL
            .iter()
            .map(|c| (c.as_str().to_string(), comparison.count(*c).into()))
            .collect(),
        changes: comparison.changes().map(Item::of).collect(),
        by: comparison.groups.as_ref().map(|(by, _)| by.as_str()),
        groups: comparison.groups.as_ref().map(|(_, groups)| {
            groups
                .iter()
                .map(|group| Group {
                    group: &group.name,
                    old: Summary::from_mix(group.old.clone()),
                    new: Summary::from_mix(group.new.clone()),
                })
                .collect()
        }),
    };
    crate::text::write_json(&mut *out, &document, true)?;
    out.write_all(b"\n")
}

/// One JSON object a line for every capture of either run, `same` ones too,
/// sorted by source: a stream to join with `check --format jsonl`.
pub fn write_jsonl(out: &mut dyn Write, comparison: &Comparison) -> io::Result<()> {
    for paired in &comparison.pairs {
        crate::text::write_json(&mut *out, &Item::of(paired), false)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
