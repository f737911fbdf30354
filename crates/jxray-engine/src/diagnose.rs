//! Naming the first problem of an invalid candidate, so the user knows what
//! to tell the model to stop doing.

use super::outcome::Defect;
use super::scan::{Expect, Problem};

/// A diagnosis: the defect and a message a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Diagnosis {
    pub defect: Defect,
    pub message: String,
}

/// Diagnose the byte at `at` where the validator stopped.
pub(crate) fn diagnose(
    text: &str,
    at: usize,
    problem: Problem,
    after_comma: bool,
    max_depth: usize,
) -> Diagnosis {
    // Issue 13's families, named by the rules the lenient reading fixes them by.
    if let Some((defect, message)) = super::lenient::name_family(text, at, problem) {
        return Diagnosis { defect, message };
    }
    let rest = text.get(at..).unwrap_or("");
    let found = describe_found(rest);
    let (defect, message) = match problem {
        Problem::TooDeep => (
            Defect::NestingTooDeep,
            format!("nesting deeper than {max_depth} levels; ask for a flatter structure"),
        ),
        Problem::BadEscape => (
            Defect::Syntax,
            format!("invalid escape {found} in a string; only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX are JSON"),
        ),
        Problem::ControlChar => (
            Defect::Syntax,
            "raw control character inside a string; it must be escaped".to_owned(),
        ),
        Problem::BadNumber => (
            Defect::Syntax,
            format!("malformed number: expected a digit, found {found}"),
        ),
        Problem::Unexpected(expect) => unexpected(rest, expect, after_comma, &found),
    };
    Diagnosis { defect, message }
}

fn unexpected(rest: &str, expect: Expect, after_comma: bool, found: &str) -> (Defect, String) {
    let first = rest.chars().next();
    let wants_value = matches!(expect, Expect::Value | Expect::ValueOrClose);
    let wants_key = matches!(expect, Expect::Key | Expect::KeyOrClose);
    if rest.starts_with("//") || rest.starts_with("/*") || rest.starts_with('#') {
        return (
            Defect::Comment,
            format!("comment {found}: JSON has no comments; tell the model to leave them out"),
        );
    }
    if after_comma && matches!(first, Some('}' | ']')) {
        return (
            Defect::TrailingComma,
            format!("trailing comma before {found}; tell the model not to put a comma after the last item"),
        );
    }
    if matches!(
        first,
        Some('\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}' | '\u{201e}')
    ) {
        return (
            Defect::SmartQuotes,
            format!("typographic quote {found}; JSON needs straight double quotes"),
        );
    }
    if rest.starts_with("...") || rest.starts_with('\u{2026}') {
        return (
            Defect::Ellipsis,
            "ellipsis: the model left content out; ask for the complete value".to_owned(),
        );
    }
    if (wants_key || wants_value) && first == Some('\'') {
        return (
            Defect::SingleQuotes,
            "single-quoted string; JSON needs double quotes".to_owned(),
        );
    }
    let word = leading_word(rest);
    if wants_value && matches!(word, "True" | "False" | "None") {
        let json = match word {
            "True" => "true",
            "False" => "false",
            _ => "null",
        };
        return (
            Defect::PythonLiteral,
            format!("Python literal `{word}`; JSON spells it `{json}`"),
        );
    }
    if wants_key && !word.is_empty() {
        return (
            Defect::UnquotedKey,
            format!("unquoted key `{word}`; keys must be double-quoted strings"),
        );
    }
    if expect == Expect::CommaOrClose && starts_value(rest) {
        return (
            Defect::MissingComma,
            format!("missing comma before {found}"),
        );
    }
    let wanted = match expect {
        Expect::Value => "a value",
        Expect::ValueOrClose => "a value or `]`",
        Expect::Key => "a double-quoted key",
        Expect::KeyOrClose => "a double-quoted key or `}`",
        Expect::Colon => "`:` after the key",
        Expect::CommaOrClose => "`,` or a closing bracket",
    };
    (Defect::Syntax, format!("expected {wanted}, found {found}"))
}

/// Letters, digits and underscores at the start of `rest`.
fn leading_word(rest: &str) -> &str {
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    &rest[..end]
}

fn starts_value(rest: &str) -> bool {
    rest.starts_with(['"', '{', '[', '-', 't', 'f', 'n'])
        || rest.starts_with(|c: char| c.is_ascii_digit())
}

/// "`x`" for the character at the problem, or "the end of the candidate".
fn describe_found(rest: &str) -> String {
    match rest.chars().next() {
        None => "the end of the candidate".to_owned(),
        Some('/') if rest.starts_with("//") => "`//`".to_owned(),
        Some('/') if rest.starts_with("/*") => "`/*`".to_owned(),
        Some(c) if c.is_control() => format!("U+{:04X}", c as u32),
        Some(c) => format!("`{c}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::scan_value;
    use crate::scan::ScanEnd;

    fn defect_of(text: &str) -> Defect {
        match scan_value(text.as_bytes(), 0, text.len(), 128, None).end {
            ScanEnd::Invalid {
                at,
                problem,
                after_comma,
            } => diagnose(text, at, problem, after_comma, 128).defect,
            other => panic!("{text} did not fail: {other:?}"),
        }
    }

    #[test]
    fn each_named_defect() {
        assert_eq!(defect_of("{\"total\": 1240,}"), Defect::TrailingComma);
        assert_eq!(defect_of("[1, 2, ]"), Defect::TrailingComma);
        assert_eq!(defect_of("{'total': 1240}"), Defect::SingleQuotes);
        assert_eq!(defect_of("{city: \"Paris\"}"), Defect::UnquotedKey);
        assert_eq!(defect_of("{\"ok\": True}"), Defect::PythonLiteral);
        assert_eq!(defect_of("{\"a\": None}"), Defect::PythonLiteral);
        assert_eq!(
            defect_of("{\n \"total\": 1240 // euros\n}"),
            Defect::Comment
        );
        assert_eq!(defect_of("{/* c */ \"a\": 1}"), Defect::Comment);
        assert_eq!(defect_of("{\u{201c}a\u{201d}: 1}"), Defect::SmartQuotes);
        assert_eq!(defect_of("[1, 2, ...]"), Defect::Ellipsis);
        assert_eq!(defect_of("{\"a\": 1 \"b\": 2}"), Defect::MissingComma);
        assert_eq!(defect_of("{\"a\" 1}"), Defect::MissingColon);
        assert_eq!(defect_of(&"[".repeat(300)), Defect::NestingTooDeep);
    }
}
