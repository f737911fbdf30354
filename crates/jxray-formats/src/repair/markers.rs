//! The markers a repair request puts around text the model wrote (its previous reply, the
//! validator's findings that quote it), and finding a quoted reply again in a later request.
//!
//! A pair is `<<<LABEL>>>` / `<<<END_LABEL>>>`, numbered (`<<<LABEL_3>>>`) when the quoted
//! text holds the plain pair, so the quote cannot be ended early from inside it.

use std::collections::HashSet;

/// The label of the previous reply's quote.
pub(super) const REPLY: &str = "PREVIOUS_REPLY";
/// The label of the block that lists a schema's findings.
pub(super) const FINDINGS: &str = "SCHEMA_FINDINGS";

/// A begin and end marker for `label` that `quoted` holds neither of. One pass over
/// `quoted`: every `<<<LABEL…>>>` / `<<<END_LABEL…>>>` it holds takes one number out of
/// use, so the smallest free number is at most their count.
pub(super) fn pair(label: &str, quoted: &str) -> (String, String) {
    let taken = taken_numbers(label, quoted);
    let n = (0..).find(|n| !taken.contains(n)).unwrap_or(0);
    (marker("", label, n), marker("END_", label, n))
}

fn marker(prefix: &str, label: &str, n: usize) -> String {
    if n == 0 {
        format!("<<<{prefix}{label}>>>")
    } else {
        format!("<<<{prefix}{label}_{n}>>>")
    }
}

/// The numbers of the `label` markers `text` holds (0 for the unnumbered pair).
fn taken_numbers(label: &str, text: &str) -> HashSet<usize> {
    let bytes = text.as_bytes();
    let mut taken = HashSet::new();
    for (at, _) in text.match_indices(label) {
        let before = &bytes[..at];
        if !(before.ends_with(b"<<<") || before.ends_with(b"<<<END_")) {
            continue;
        }
        if let Some(n) = number_after(&text[at + label.len()..]) {
            taken.insert(n);
        }
    }
    taken
}

/// `>>>` is 0, `_12>>>` is 12; anything else is no marker. A number too long to be one we
/// would ever choose is ignored.
fn number_after(rest: &str) -> Option<usize> {
    if rest.starts_with(">>>") {
        return Some(0);
    }
    let digits = rest.strip_prefix('_')?;
    let len = digits.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 || len > 9 || !digits[len..].starts_with(">>>") {
        return None;
    }
    digits[..len].parse().ok()
}

/// The previous reply a repair request quotes (as [`super::repair_prompt`] writes it), found
/// in a later request's text: how `jxray record` links a re-ask to the capture it re-asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotedReply<'a> {
    /// The quoted text.
    pub text: &'a str,
    /// The quote is only the reply's first characters (the request said it was cut).
    pub cut: bool,
}

/// The reply quoted in `request` between the markers, when it holds a repair request.
pub fn quoted_reply(request: &str) -> Option<QuotedReply<'_>> {
    let opening = format!("\n<<<{REPLY}");
    let begin_at = request.find(&opening)? + 1;
    let after_label = &request[begin_at + opening.len() - 1..];
    let n = number_after(after_label)?;
    let begin = marker("", REPLY, n);
    if !request[begin_at..].starts_with(&format!("{begin}\n")) {
        return None;
    }
    let end = marker("END_", REPLY, n);
    let body_at = begin_at + begin.len() + 1;
    let end_at = body_at + request[body_at..].find(&format!("\n{end}"))?;
    let after = &request[end_at + 1 + end.len()..];
    Some(QuotedReply {
        text: &request[body_at..end_at],
        cut: after
            .trim_start_matches('\n')
            .starts_with("(The reply was cut to its first "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_free_number_is_taken() {
        assert_eq!(pair(REPLY, "plain").0, "<<<PREVIOUS_REPLY>>>");
        let holds = "<<<END_PREVIOUS_REPLY>>> and <<<PREVIOUS_REPLY_1>>>";
        assert_eq!(
            pair(REPLY, holds),
            (
                "<<<PREVIOUS_REPLY_2>>>".to_owned(),
                "<<<END_PREVIOUS_REPLY_2>>>".to_owned()
            )
        );
        // Another label's markers take no number of this one's.
        assert_eq!(pair(FINDINGS, holds).0, "<<<SCHEMA_FINDINGS>>>");
    }

    #[test]
    fn numbers_that_are_not_markers_take_nothing() {
        let text = "<<<PREVIOUS_REPLY_>>> <<<PREVIOUS_REPLY_x>>> PREVIOUS_REPLY>>> <<<PREVIOUS_REPLY_99999999999>>>";
        assert_eq!(pair(REPLY, text).0, "<<<PREVIOUS_REPLY>>>");
    }

    #[test]
    fn a_quote_full_of_markers_is_numbered_in_one_pass() {
        // Every number from 0 to 19,999 is taken: the pair is the 20,000th, found without
        // searching the text once per number tried.
        let text: String = (0..20_000)
            .map(|n| format!("{}\n", marker("", REPLY, n)))
            .collect();
        assert_eq!(pair(REPLY, &text).0, "<<<PREVIOUS_REPLY_20000>>>");
    }
}
