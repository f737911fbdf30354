//! `jxray compare` output: the two mixes side by side, then every change.

use std::io::{self, Write};

use serde::Serialize;

use super::{Changed, Comparison, Movement, Standing};
use crate::engine::{FailureKind, Layer};
use crate::mix::MixKey;
use crate::report::{visible, Painter, Summary, Tone};

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
            "{label}  {}  {} captures: {} ok, {} failed",
            visible(name),
            summary.total(),
            summary.ok(),
            summary.failed()
        )?;
    }
    writeln!(out)?;
    write_mixes(out, comparison, painter)?;
    writeln!(out)?;
    write_counts(out, comparison, painter)?;
    write_changes(out, &comparison.changes, painter)
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

fn write_counts(out: &mut dyn Write, comparison: &Comparison, painter: Painter) -> io::Result<()> {
    let changed = comparison.count(Movement::Fixed)
        + comparison.count(Movement::Broke)
        + comparison.count(Movement::Changed);
    let broke = painter.paint(
        &format!("{} broke", comparison.count(Movement::Broke)),
        if comparison.regressed() {
            Tone::Bad
        } else {
            Tone::Dim
        },
    );
    writeln!(
        out,
        "{changed} of {} matched captures changed: {} fixed, {broke}, {} changed otherwise; \
         {} only in new, {} only in old",
        comparison.matched,
        comparison.count(Movement::Fixed),
        comparison.count(Movement::Changed),
        comparison.count(Movement::Added),
        comparison.count(Movement::Removed),
    )
}

fn write_changes(out: &mut dyn Write, changes: &[Changed], painter: Painter) -> io::Result<()> {
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
        let word = format!("{:<7}", changed.change.as_str());
        let line = format!(
            "{} {:<pad$}  {} → {}",
            painter.paint(&word, tone),
            visible(&changed.source),
            side(changed.old),
            side(changed.new)
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// A verdict in a change line; `-` for a side that does not have the capture.
fn side(verdict: Option<Standing>) -> String {
    verdict.map_or_else(|| "-".to_string(), Standing::label)
}

fn signed(delta: i64) -> String {
    match delta {
        0 => "0".to_string(),
        d if d > 0 => format!("+{d}"),
        d => d.to_string(),
    }
}

/// One document: both runs' summaries, the change counts and every change.
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
    struct Outcome {
        outcome: &'static str,
        ok: bool,
        defect: Option<&'static str>,
    }
    #[derive(Serialize)]
    struct Item<'a> {
        source: &'a str,
        change: Movement,
        old: Option<Outcome>,
        new: Option<Outcome>,
    }
    #[derive(Serialize)]
    struct Document<'a> {
        old: Side<'a>,
        new: Side<'a>,
        matched: usize,
        counts: serde_json::Map<String, serde_json::Value>,
        changes: Vec<Item<'a>>,
    }
    let outcome = |verdict: Option<Standing>| {
        verdict.map(|v| Outcome {
            outcome: v.key.as_str(),
            ok: v.ok(),
            defect: v.defect.map(|d| d.as_str()),
        })
    };
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
        changes: comparison
            .changes
            .iter()
            .map(|c| Item {
                source: &c.source,
                change: c.change,
                old: outcome(c.old),
                new: outcome(c.new),
            })
            .collect(),
    };
    crate::text::write_json(&mut *out, &document, true)?;
    out.write_all(b"\n")
}
