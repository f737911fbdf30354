//! What a repair request tells the model about each defect: what to change in its reply,
//! worded for the model (the engine's messages are written for the developer, and quote
//! the output, which must stay inside the quote).

use jxray_engine::Defect;

/// The problem, as the model would recognise it in its reply, and what to write instead.
pub(super) fn for_defect(defect: Defect) -> (&'static str, &'static str) {
    match defect {
        Defect::TrailingComma => (
            "a comma after the last item of an object or array",
            "remove it",
        ),
        Defect::SingleQuotes => ("single-quoted strings", "use double quotes"),
        Defect::UnquotedKey => ("keys without quotes", "put every key in double quotes"),
        Defect::PythonLiteral => ("Python's True, False or None", "write true, false or null"),
        Defect::Comment => ("comments", "leave them out: JSON has no comments"),
        Defect::SmartQuotes => ("typographic quotes", "use straight double quotes"),
        Defect::Ellipsis => (
            "an ellipsis where content was left out",
            "write the complete value",
        ),
        Defect::MissingComma => ("no comma between two items", "separate items with commas"),
        Defect::NestingTooDeep => ("nesting that is too deep", "use a flatter structure"),
        Defect::LeadingZero => (
            "numbers with a leading zero",
            "write plain numbers, or strings where the zeros matter",
        ),
        Defect::NonFiniteNumber => ("NaN or Infinity", "write null instead"),
        Defect::InvalidEscape => (
            "backslash escapes JSON does not have",
            "write the character itself, and double a backslash meant as text",
        ),
        Defect::MismatchedBracket => (
            "a closing bracket that does not match its opening one",
            "close each { with } and each [ with ]",
        ),
        Defect::DoubledQuotes => (
            "strings wrapped in doubled quotes",
            "quote each string once",
        ),
        Defect::UnescapedQuote => (
            "a double quote inside a string that ends it early",
            "escape it as \\\"",
        ),
        Defect::UnterminatedString => ("a string without its closing quote", "close every string"),
        Defect::MissingStart => (
            "a reply that begins in the middle of a value",
            "write the whole value from its opening bracket",
        ),
        Defect::MissingColon => (
            "a key without a colon after it",
            "put a colon between each key and its value",
        ),
        Defect::LeadingComma => ("a comma before the first item", "remove it"),
        Defect::UnicodeSpace => (
            "non-breaking or other Unicode spaces between tokens",
            "use plain spaces",
        ),
        Defect::NumberFormat => (
            "numbers JSON cannot read (.5, 5., +1, 0x1F)",
            "write plain decimal numbers",
        ),
        Defect::Undefined => ("undefined", "write null instead"),
        Defect::LiteralCase => (
            "true, false or null in capitals",
            "write them in lower case",
        ),
        Defect::MissingCloser => ("brackets left open", "close every { and ["),
        Defect::UnquotedValue => (
            "string values without quotes",
            "put every string value in double quotes",
        ),
        Defect::KeyQuote => (
            "keys with one of their quotes missing",
            "quote every key on both sides",
        ),
        _ => ("JSON syntax errors", "write strict JSON"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_defect_has_its_own_words() {
        let generic = for_defect(Defect::Syntax);
        for defect in Defect::ALL.iter().filter(|d| **d != Defect::Syntax) {
            assert_ne!(for_defect(*defect), generic, "{defect:?}");
        }
    }
}
