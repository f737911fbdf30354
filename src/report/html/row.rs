//! One row of the report's table: a capture that failed or drifted from plain JSON, as
//! HTML, built when the capture passes and kept instead of the capture (bounded in size:
//! a window of the raw text around the failure, a capped value).

use std::fmt::Write as _;

use super::escape::{attribute, escaped, push_escaped};
use crate::check::Checked;
use crate::engine::{FailureKind, Layer, Outcome};
use crate::text::{ceil_char_boundary, floor_char_boundary};

/// Bytes of raw text shown on each side of the failure.
const WINDOW: usize = 2048;
/// Bytes of a decoded value shown.
const VALUE_CAP: usize = 8192;

/// Whether a capture has a row: it failed, or its JSON came from anywhere but `direct`.
pub(super) fn listed(outcome: &Outcome) -> bool {
    !outcome.ok() || outcome.layer != Some(Layer::Direct)
}

/// The row of `item` in `group`.
pub(super) fn row(item: &Checked, group: &str) -> String {
    let outcome = &item.outcome;
    let kind = outcome.badge();
    let failure = outcome.failure.as_ref();
    let defect = failure.and_then(|f| f.defect).map_or("", |d| d.as_str());
    let cause = failure.and_then(|f| f.cause).map_or("", |c| c.as_str());
    let place = failure.map_or(String::new(), |f| format!("{}:{}", f.line, f.column));
    // A message is the finding, then its advice after the first "; ", except a `schema`
    // failure's, which lists its violations joined by "; ".
    let (finding, advice) = failure.map_or(("", ""), |f| match f.kind {
        FailureKind::Schema => (f.message.as_str(), ""),
        _ => f
            .message
            .split_once("; ")
            .unwrap_or((f.message.as_str(), "")),
    });
    let mut html = String::with_capacity(1024);
    let _ = write!(
        html,
        "<tbody class=\"row\" data-group=\"{}\" data-kind=\"{kind}\"><tr>\
         <td class=\"group\">{}</td><td class=\"src\">{}</td><td class=\"kind k-{kind}\">{kind}</td>\
         <td>{defect}</td><td>{cause}</td><td>{place}</td><td>{}</td><td>{}</td></tr>",
        attribute(group),
        escaped(group),
        escaped(&item.capture.source),
        escaped(finding),
        escaped(advice),
    );
    html.push_str(
        "<tr class=\"more\"><td colspan=\"8\"><details><summary>raw text and value</summary>",
    );
    html.push_str("<h4>Raw</h4><pre class=\"raw\">");
    match &item.capture.text {
        Ok(text) => push_window(&mut html, text, failure.map(|f| f.offset)),
        Err(unreadable) => push_escaped(&mut html, &unreadable.to_string(), true),
    }
    html.push_str("</pre>");
    push_value(&mut html, outcome);
    html.push_str("</details></td></tr></tbody>\n");
    html
}

/// The text around `at` (the failure's byte offset), the character there marked; the
/// start of the text when there is no failure.
fn push_window(html: &mut String, text: &str, at: Option<usize>) {
    let at = floor_char_boundary(text, at.unwrap_or(0));
    let start = floor_char_boundary(text, at.saturating_sub(WINDOW));
    let end = ceil_char_boundary(text, at.saturating_add(WINDOW));
    if start > 0 {
        let _ = writeln!(html, "<span class=\"cut\">… {start} bytes before</span>");
    }
    push_escaped(html, &text[start..at], true);
    let marked = text[at..].chars().next();
    html.push_str("<mark class=\"at\">");
    match marked {
        Some(ch) => push_escaped(html, ch.encode_utf8(&mut [0; 4]), true),
        None => html.push_str("◀ the text ends here"),
    }
    html.push_str("</mark>");
    let after = at + marked.map_or(0, char::len_utf8);
    push_escaped(html, &text[after.min(end)..end], true);
    if end < text.len() {
        let _ = write!(
            html,
            "\n<span class=\"cut\">… {} bytes after</span>",
            text.len() - end
        );
    }
}

/// The decoded value, else the lenient reading's (not accepted), else why there is none.
fn push_value(html: &mut String, outcome: &Outcome) {
    let lenient = outcome.lenient.as_ref().and_then(|l| l.value.as_ref());
    let (heading, value) = match (&outcome.value, lenient) {
        (Some(value), _) => ("Decoded value", Some(value)),
        (None, Some(value)) => ("Lenient reading (not accepted)", Some(value)),
        (None, None) => ("Decoded value", None),
    };
    let _ = write!(html, "<h4>{heading}</h4><pre class=\"value\">");
    match value.map(|v| serde_json::to_string_pretty(v).unwrap_or_default()) {
        Some(text) if text.len() > VALUE_CAP => {
            push_escaped(html, &text[..floor_char_boundary(&text, VALUE_CAP)], true);
            let _ = write!(
                html,
                "\n<span class=\"cut\">… {} bytes more</span>",
                text.len() - floor_char_boundary(&text, VALUE_CAP)
            );
        }
        Some(text) => push_escaped(html, &text, true),
        None => html.push_str("<span class=\"cut\">no value</span>"),
    }
    html.push_str("</pre>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Capture;
    use crate::check::Checker;
    use crate::engine::Options;

    fn checked(text: &str) -> Checked {
        Checker::new(Options::default(), None).check(Capture::from_text("a<b>.txt", text))
    }

    #[test]
    fn a_failure_row_marks_its_place_and_keeps_markup_as_text() {
        let item = checked("<script>alert(1)</script> {\"a\": 1,}");
        assert!(listed(&item.outcome));
        let html = row(&item, "g\"><script>");
        assert!(
            html.contains("data-group=\"g&quot;&gt;&lt;script&gt;\""),
            "{html}"
        );
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("<mark class=\"at\">}</mark>"), "{html}");
        assert!(html.contains("<td>trailing-comma</td>"), "{html}");
        assert!(html.contains("Lenient reading (not accepted)"), "{html}");
        assert!(html.contains("a&lt;b&gt;.txt"), "{html}");
    }

    #[test]
    fn a_long_text_shows_a_window_around_the_failure() {
        let text = format!("{}{{\"a\": 1,}}{}", "x".repeat(10_000), "y".repeat(10_000));
        let html = row(&checked(&text), "g");
        assert!(html.contains("bytes before"), "{}", html.len());
        assert!(html.contains("bytes after"));
        assert!(html.len() < 2 * WINDOW + 2048, "{}", html.len());
        assert!(
            !listed(&checked("{\"a\": 1}").outcome),
            "plain JSON has no row"
        );
    }
}
