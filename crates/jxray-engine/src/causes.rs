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

/// What a looping decoder left at the end of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runaway {
    /// A flood of white space: under constrained decoding, a grammar that allows unbounded
    /// white space between tokens.
    WhiteSpace,
    /// One token (or a short group of them) over and over.
    Repeat,
}

/// Which kind of loop the text ends in, if any: a long run of white space or of one
/// repeated token at its end.
pub(crate) fn runaway(text: &str) -> Option<Runaway> {
    let bytes = text.as_bytes();
    let window = &bytes[bytes.len().saturating_sub(RUNAWAY_WINDOW)..];
    let spaces = window
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    if spaces >= RUNAWAY_MIN {
        return Some(Runaway::WhiteSpace);
    }
    // A period p repeats at the end when window[k] == window[k + p] for a long stretch.
    let repeats = (1..=LONGEST_TOKEN).any(|period| {
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
    });
    repeats.then_some(Runaway::Repeat)
}

/// Why the output looped and what to change, for a `runaway` failure. A flood of white
/// space in an output that opens with JSON is constrained decoding's doing: the fix is a
/// server setting that bounds white space, never a bigger token limit.
pub(crate) fn runaway_advice(kind: Runaway, text: &str) -> String {
    let opens_with_json = matches!(
        text.trim_start_matches('\u{feff}')
            .trim_start()
            .as_bytes()
            .first(),
        Some(b'{' | b'[')
    );
    match kind {
        Runaway::WhiteSpace if opens_with_json => "the output ran to its limit on a flood of white space inside \
             its JSON: constrained decoding let the model write white space without end (the grammar allows unbounded \
             white space); a bigger limit will not help — bound it on the server: vLLM's `disable_any_whitespace` \
             (structured-outputs option of the xgrammar and guidance backends) or its white-space limit, llama.cpp's \
             grammar (a `ws` rule with a bounded repeat), Ollama's `format` given the JSON Schema rather than `\"json\"`"
            .to_owned(),
        Runaway::WhiteSpace => "the output ran to its limit on a long run of white space: decoding looped; a bigger \
             limit will not help — if the request asked for JSON through constrained decoding, bound white space on the \
             server (vLLM's `disable_any_whitespace`, llama.cpp's grammar, Ollama's `format` with a schema)"
            .to_owned(),
        Runaway::Repeat => "the output ran to its limit repeating one token: decoding looped; a bigger limit will not \
             help — raise the repetition or frequency penalty, lower the temperature, or bound the schema's arrays and \
             strings (`maxItems`, `maxLength`)"
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_runaway(text: &str) -> bool {
        runaway(text).is_some()
    }

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

    #[test]
    fn white_space_in_json_points_at_the_server_never_at_the_limit() {
        let flood = format!("{{\"a\": 1,{}", "\n".repeat(300));
        let advice = runaway_advice(runaway(&flood).unwrap(), &flood);
        assert!(advice.contains("disable_any_whitespace"), "{advice}");
        assert!(!advice.contains("raise the token limit"), "{advice}");
        let chant = format!("[{}", "\"ha\", ".repeat(100));
        assert_eq!(runaway(&chant), Some(Runaway::Repeat));
        assert!(runaway_advice(Runaway::Repeat, &chant).contains("repetition"));
    }
}
