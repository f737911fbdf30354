//! What to change, for each defect a lenient reading fixes.

use crate::outcome::Defect;

/// One sentence: what the defect is and what to tell the model (or the pipeline).
pub(crate) fn advice(defect: Defect) -> &'static str {
    match defect {
        Defect::TrailingComma => "a comma after the last item; tell the model not to put one there",
        Defect::SingleQuotes => "single-quoted string; JSON needs double quotes — ask for strict JSON, not a Python dict",
        Defect::UnquotedKey => "unquoted key; keys must be double-quoted strings, numbers too (`{\"2\": …}`)",
        Defect::PythonLiteral => "Python literal; JSON spells them `true`, `false`, `null` — ask for JSON, not Python",
        Defect::Comment => "comment; JSON has no comments — tell the model to leave them out",
        Defect::SmartQuotes => "curly quotes used as JSON quotes; the model (or an editor on the way) typeset them — ask for straight `\"`",
        Defect::Ellipsis => "ellipsis: the model left content out; ask for the complete value",
        Defect::MissingComma => "missing comma between items; ask for strict JSON",
        Defect::NestingTooDeep => "nesting too deep; ask for a flatter structure",
        Defect::LeadingZero => "number with a leading zero (`007`); JSON numbers have none — ask for a string if the zeros matter",
        Defect::NonFiniteNumber => "`NaN` or `Infinity`, which JSON cannot hold; ask for `null` (or a string) instead",
        Defect::InvalidEscape => "an escape JSON does not have (`\\'`, markdown `\\_`); tell the model not to escape those characters",
        Defect::MismatchedBracket => "a closing bracket that does not match its opener (`[ … }`); ask for strict JSON",
        Defect::DoubledQuotes => "a string wrapped in doubled quotes (`\"\"x\"\"`); tell the model to quote once",
        Defect::UnescapedQuote => "a `\"` inside a string ends it early; tell the model to escape inner quotes as `\\\"`",
        Defect::UnterminatedString => "a string whose closing quote is missing although the structure goes on; ask for strict JSON",
        Defect::MissingStart => "the text begins inside a value: a client or serving layer dropped its first tokens (a prefill not re-attached?)",
        Defect::MissingColon => "no colon between a key and its value (`{\"a\" 1}`); ask for strict JSON",
        Defect::LeadingComma => "a comma before the first item (`[, 1]`); ask for strict JSON",
        Defect::UnicodeSpace => "a non-breaking or other Unicode space between tokens; JSON allows only ASCII white space",
        Defect::NumberFormat => "a number spelled as JSON does not allow (`.5`, `5.`, `+1`, `0x1F`); ask for plain decimal numbers",
        Defect::Undefined => "JavaScript's `undefined`; JSON has `null` — ask for `null` or for the key to be left out",
        Defect::LiteralCase => "a literal in capitals (`TRUE`, `NULL`); JSON spells them `true`, `false`, `null`",
        Defect::MissingCloser => "the output finished with brackets still open; tell the model to close every object and array it opens",
        Defect::UnquotedValue => "a string value without quotes (`\"status\": active`); tell the model to quote every string value",
        Defect::KeyQuote => "a key with one of its quotes missing (`{\"name: \"x\"}`); tell the model to quote every key on both sides",
        Defect::Syntax => "not JSON; ask for strict JSON",
    }
}

#[cfg(test)]
mod tests {
    use super::advice;
    use crate::outcome::{Defect, RepairKind};

    #[test]
    fn every_defect_has_advice_and_its_fix_is_named_after_it() {
        for &defect in Defect::ALL {
            assert!(!advice(defect).is_empty(), "{defect:?}");
            let fix = RepairKind::Lenient(defect);
            assert_eq!(fix.as_str(), defect.as_str());
            assert_eq!(RepairKind::from_name(fix.as_str()), Some(fix));
            let json = serde_json::to_string(&fix).unwrap();
            assert_eq!(json, format!("\"{}\"", defect.as_str()));
            assert_eq!(serde_json::from_str::<RepairKind>(&json).unwrap(), fix);
        }
        for kind in [
            RepairKind::RawControlChar,
            RepairKind::EscapedBacktick,
            RepairKind::DecodedString,
        ] {
            assert_eq!(RepairKind::from_name(kind.as_str()), Some(kind));
            assert_eq!(kind.defect(), None);
        }
        assert!(serde_json::from_str::<RepairKind>("\"no-such-fix\"").is_err());
    }
}
