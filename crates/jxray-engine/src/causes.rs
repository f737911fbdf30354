//! Why an output failed beyond its form: the provider blocked it (`filtered`) or the
//! model declined (`refusal`, by its stop reason; by its shape in `refusal`), or decoding
//! looped until the limit (`runaway`). Each check reads a bounded part of the text.

use super::outcome::Cause;

/// What a stop reason says about why the output is missing or blocked.
pub(crate) fn stop_cause(stop_reason: Option<&str>) -> Option<Cause> {
    let reason = stop_reason?.trim().to_ascii_lowercase().replace('-', "_");
    match reason.as_str() {
        "refusal" => Some(Cause::Refusal),
        "content_filter" | "safety" | "recitation" | "blocklist" | "prohibited_content"
        | "spii" | "image_safety" | "language" => Some(Cause::Filtered),
        _ => None,
    }
}

/// Shortest run at the end of a text that counts as a runaway, in bytes.
const RUNAWAY_MIN: usize = 256;
/// Longest repeated token looked for, in bytes.
const LONGEST_TOKEN: usize = 32;
/// How much of the end of the text is examined.
const RUNAWAY_WINDOW: usize = 64 * 1024;

/// Whether the text ends in a long run of white space or of one repeated token.
pub(crate) fn is_runaway(text: &str) -> bool {
    let bytes = text.as_bytes();
    let window = &bytes[bytes.len().saturating_sub(RUNAWAY_WINDOW)..];
    let spaces = window
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    if spaces >= RUNAWAY_MIN {
        return true;
    }
    // A period p repeats at the end when window[k] == window[k + p] for a long stretch.
    (1..=LONGEST_TOKEN).any(|period| {
        if window.len() <= period {
            return false;
        }
        let last = window.len() - period;
        let same = (0..last)
            .rev()
            .take_while(|&k| window[k] == window[k + period])
            .count();
        let run = same + period;
        run >= RUNAWAY_MIN && run >= 8 * period
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_reasons_that_block_or_refuse() {
        assert_eq!(stop_cause(Some("SAFETY")), Some(Cause::Filtered));
        assert_eq!(stop_cause(Some("content_filter")), Some(Cause::Filtered));
        assert_eq!(
            stop_cause(Some("PROHIBITED_CONTENT")),
            Some(Cause::Filtered)
        );
        assert_eq!(stop_cause(Some("refusal")), Some(Cause::Refusal));
        assert_eq!(stop_cause(Some("stop")), None);
        assert_eq!(stop_cause(None), None);
    }

    #[test]
    fn runaway_tails_are_recognised() {
        assert!(is_runaway(&format!("{{\"a\": \"x{}", " ".repeat(300))));
        assert!(is_runaway(&format!("{{\"a\": [{}", "\"ha\", ".repeat(100))));
        assert!(is_runaway(&format!("{{\"a\": \"{}", "\n\t".repeat(200))));
        assert!(!is_runaway("{\"a\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"));
        let varied: String = (0..200).map(|n| format!("{n}, ")).collect();
        assert!(!is_runaway(&format!("[{varied}")));
    }
}
