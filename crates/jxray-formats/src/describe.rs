//! One outcome said in one line, as `jxray check` prints it after the badge and as every
//! front end's error message says it: `invalid trailing-comma at 3:14: …; repairs: …`.

use jxray_engine::Outcome;

use crate::escape::escape_line;

/// The short detail after the badge: defect, place and message on failure;
/// then repairs and warnings (a truncation the provider did not signal is
/// worth seeing on a failure line too).
pub fn detail(outcome: &Outcome) -> String {
    let mut parts = Vec::new();
    if let Some(failure) = &outcome.failure {
        let defect = failure
            .defect
            .map(|defect| format!("{} ", defect.as_str()))
            .unwrap_or_default();
        parts.push(format!(
            "{defect}at {}:{}: {}",
            failure.line,
            failure.column,
            single_line(&failure.message)
        ));
        if let Some(cause) = failure.cause {
            parts.push(format!("cause: {}", cause.as_str()));
        }
        // Every defect, when there is more to say than the headline.
        let more =
            failure.defects.len() > 1 || (failure.defect.is_none() && !failure.defects.is_empty());
        if more {
            let defects = counted(failure.defects.iter().map(|d| d.kind.as_str()));
            parts.push(format!("defects: {defects}"));
        }
    }
    let repairs = counted(outcome.repairs.iter().map(|r| r.kind.as_str()));
    if !repairs.is_empty() {
        parts.push(format!("repairs: {repairs}"));
    }
    let warnings = counted(outcome.warnings.iter().map(|w| w.kind.as_str()));
    if !warnings.is_empty() {
        parts.push(format!("warnings: {warnings}"));
    }
    parts.join("; ")
}

/// The outcome as one plain line: `badge detail`, as `extract` prints it.
pub fn describe(outcome: &Outcome) -> String {
    let detail = detail(outcome);
    if detail.is_empty() {
        outcome.badge().to_string()
    } else {
        format!("{} {detail}", outcome.badge())
    }
}

/// `a, b ×2` in first-seen order.
fn counted<'a>(kinds: impl Iterator<Item = &'a str>) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for kind in kinds {
        match counts.iter_mut().find(|(seen, _)| *seen == kind) {
            Some((_, count)) => *count += 1,
            None => counts.push((kind, 1)),
        }
    }
    let parts: Vec<String> = counts
        .into_iter()
        .map(|(kind, count)| match count {
            1 => kind.to_string(),
            n => format!("{kind} ×{n}"),
        })
        .collect();
    parts.join(", ")
}

/// A message on one line: line breaks folded to spaces, anything else unsafe escaped.
fn single_line(text: &str) -> String {
    let folded = if text.contains(['\n', '\r']) {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        text.to_string()
    };
    escape_line(&folded).into_owned()
}
