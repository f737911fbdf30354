//! Naming the defects of issue 13's families where the validator stopped:
//! the same rules the lenient reading fixes by, so the name and the fix agree.

use super::advice::advice;
use super::number;
use super::rewriter::unicode_space;
use crate::outcome::Defect;
use crate::scan::{Expect, Problem};

/// The family of the problem at `at`, with a message naming what was
/// found and what to change; `None` when the problem is none of them.
pub(crate) fn name_family(text: &str, at: usize, problem: Problem) -> Option<(Defect, String)> {
    let rest = text.get(at..)?;
    let first = rest.chars().next();
    if let Some(space) = first.filter(|&c| unicode_space(c)) {
        return Some(found(
            Defect::UnicodeSpace,
            format!("U+{:04X}", space as u32),
        ));
    }
    if let Some(token) = number_token(text, at) {
        let kinds = number::respell(token).map(|r| r.fixes).unwrap_or_default();
        if kinds.contains(&crate::outcome::RepairKind::Lenient(Defect::NumberFormat)) {
            return Some(found(Defect::NumberFormat, format!("`{token}`")));
        }
    }
    let Problem::Unexpected(expect) = problem else {
        return None;
    };
    let wants_value = matches!(expect, Expect::Value | Expect::ValueOrClose);
    match expect {
        Expect::Colon if starts_clear_value(rest) => {
            return Some(found(Defect::MissingColon, describe(rest)));
        }
        Expect::ValueOrClose | Expect::KeyOrClose if rest.starts_with(',') => {
            return Some(found(Defect::LeadingComma, "`,`".to_owned()));
        }
        _ => {}
    }
    let word = leading_word(rest);
    if wants_value && word == "undefined" {
        return Some(found(Defect::Undefined, "`undefined`".to_owned()));
    }
    if wants_value && super::word::is_capital_literal(word) {
        return Some(found(Defect::LiteralCase, format!("`{word}`")));
    }
    None
}

fn found(defect: Defect, what: String) -> (Defect, String) {
    (defect, format!("{what}: {}", advice(defect)))
}

/// The number-like token around `at` (`.5`, `0x1F`, `5.`), if there is one.
fn number_token(text: &str, at: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let part = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'+' | b'-');
    let mut start = at.min(bytes.len());
    while start > 0 && part(bytes[start - 1]) {
        start -= 1;
    }
    let end = bytes[at.min(bytes.len())..]
        .iter()
        .position(|&b| !part(b))
        .map_or(bytes.len(), |n| at + n);
    let token = text.get(start..end)?;
    let starts_numeric = token
        .bytes()
        .find(|b| !matches!(b, b'+' | b'-'))
        .is_some_and(|b| b.is_ascii_digit() || b == b'.');
    (starts_numeric && start < end).then_some(token)
}

fn leading_word(rest: &str) -> &str {
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

fn starts_clear_value(rest: &str) -> bool {
    rest.starts_with(['"', '{', '[', '-'])
        || rest.starts_with(|c: char| c.is_ascii_digit())
        || ["true", "false", "null"]
            .iter()
            .any(|w| rest.starts_with(w))
}

fn describe(rest: &str) -> String {
    rest.chars()
        .next()
        .map_or_else(|| "the end".to_owned(), |c| format!("`{c}` after a key"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{scan_value, ScanEnd};

    fn family(text: &str) -> Option<Defect> {
        match scan_value(text.as_bytes(), 0, text.len(), 128, None).end {
            ScanEnd::Invalid { at, problem, .. } => name_family(text, at, problem).map(|f| f.0),
            other => panic!("{text} did not fail: {other:?}"),
        }
    }

    #[test]
    fn each_family_is_named() {
        assert_eq!(family("{\"a\" 1}"), Some(Defect::MissingColon));
        assert_eq!(family("[, 1, 2]"), Some(Defect::LeadingComma));
        assert_eq!(family("{, \"a\": 1}"), Some(Defect::LeadingComma));
        assert_eq!(family("{\"a\":\u{a0}1}"), Some(Defect::UnicodeSpace));
        for number in [".5", "5.", "+1", "0x1F", "-.5", "1_000"] {
            let text = format!("[{number}]");
            assert_eq!(family(&text), Some(Defect::NumberFormat), "{text}");
        }
        assert_eq!(family("{\"a\": undefined}"), Some(Defect::Undefined));
        assert_eq!(family("[TRUE]"), Some(Defect::LiteralCase));
        assert_eq!(family("{\"a\": NULL}"), Some(Defect::LiteralCase));
        assert_eq!(family("{\"a\": Null}"), None);
        assert_eq!(family("{\"a\": NONE}"), None);
    }

    #[test]
    fn other_problems_are_left_to_the_general_diagnosis() {
        for text in [
            "{\"a\": True}",
            "[1 2]",
            "{\"a\": 007}",
            "{a: 1}",
            "[1,]",
            "{\"a\": hello}",
        ] {
            assert_eq!(family(text), None, "{text}");
        }
    }

    #[test]
    fn the_message_says_what_to_change() {
        let text = "[0x1F]";
        let (_, message) = name_family(text, 2, Problem::Unexpected(Expect::CommaOrClose)).unwrap();
        assert!(message.starts_with("`0x1F`: a number spelled"), "{message}");
    }
}
