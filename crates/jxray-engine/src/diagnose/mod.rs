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
        Problem::BadEscape => bad_escape(rest),
        Problem::ControlChar => (
            Defect::Syntax,
            "raw control character inside a string; it must be escaped — ask for strict JSON".to_owned(),
        ),
        Problem::BadNumber if leading_word(rest.trim_start_matches('-')) == "Infinity" => non_finite("-Infinity"),
        Problem::BadNumber => (
            Defect::Syntax,
            format!("malformed number: expected a digit, found {found}; ask for plain decimal numbers"),
        ),
        Problem::LeadingZero => (
            Defect::LeadingZero,
            format!("number `{}` has a leading zero, which JSON does not allow; ask for plain numbers (or a string if the zeros matter)", number_at(rest)),
        ),
        Problem::MismatchedBracket => (
            Defect::MismatchedBracket,
            format!("{found} does not close the bracket that is open here; the model lost track of its nesting: ask for a flatter structure or check the brackets it wrote"),
        ),
        Problem::Unexpected(expect) => {
            let before = text.get(..at).unwrap_or("");
            unexpected(before, rest, expect, after_comma, &found)
        }
    };
    Diagnosis { defect, message }
}

fn bad_escape(rest: &str) -> (Defect, String) {
    // `\u12"` is a cut-short escape; `\users` (a Windows path) is a backslash meant as text.
    let unicode = rest.as_bytes().get(1) == Some(&b'u')
        && rest.as_bytes().get(2).is_some_and(u8::is_ascii_hexdigit);
    // A `\u` escape is shown with what follows it, up to the four digits it needed.
    let shown = if unicode { 6 } else { 2 };
    let escape: String = rest
        .chars()
        .take(shown)
        .take_while(|c| !matches!(c, '"' | '\n'))
        .collect();
    let advice = match rest.as_bytes().get(1) {
        Some(b'u') if unicode => {
            "a `\\u` escape needs exactly four hex digits (`\\u00e9`); tell the model to write \
             the character itself (JSON strings hold any Unicode)"
        }
        Some(b'\'') => "a single quote needs no escape in JSON; tell the model not to escape `'`",
        Some(b'_' | b'*' | b'[' | b']' | b'#' | b'(' | b')' | b'-' | b'.' | b'!' | b'>') => {
            "markdown escaping leaked into the JSON; tell the model to write the character plainly"
        }
        // A Windows path (`C:\Users`) or a regular expression (`\d+`): the backslash was meant
        // as text and needed doubling.
        _ => {
            "a backslash meant as text (a Windows path, a regular expression) must be doubled \
              (`\\\\`); tell the model to escape backslashes in strings \
              (only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX are JSON escapes)"
        }
    };
    (
        Defect::InvalidEscape,
        format!("invalid escape `{escape}` in a string: {advice}"),
    )
}

fn non_finite(word: &str) -> (Defect, String) {
    (
        Defect::NonFiniteNumber,
        format!("`{word}` is not a JSON number; ask the model for null (or a string) where a value is undefined or infinite"),
    )
}

/// The number that starts `rest`, for messages.
fn number_at(rest: &str) -> &str {
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// After a string closed, a word follows without a comma: the string's closing
/// quote was a quote the model meant as text (or the string was doubled: `""x""`).
fn quote_trouble(before: &str, rest: &str) -> Option<(Defect, String)> {
    let trimmed = before.trim_end_matches([' ', '\t', '\n', '\r']);
    if !trimmed.ends_with('"') || !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let opened = trimmed[..trimmed.len() - 1].trim_end_matches([' ', '\t', '\n', '\r']);
    if opened.ends_with('"') && trimmed.len() - opened.len() == 1 {
        let before_pair = opened[..opened.len() - 1].trim_end_matches([' ', '\t', '\n', '\r']);
        if before_pair.ends_with([':', ',', '[', '{']) {
            return Some((
                Defect::DoubledQuotes,
                "a string wrapped in doubled quotes (`\"\"x\"\"`); tell the model to quote each string once".to_owned(),
            ));
        }
    }
    Some((
        Defect::UnescapedQuote,
        "a `\"` inside a string ended it early; tell the model to escape quotes inside strings as \\\" (or to use single quotes in the text)".to_owned(),
    ))
}

/// Where the validator met a token it did not expect, with what a rule needs to name it.
struct Site<'a> {
    before: &'a str,
    rest: &'a str,
    expect: Expect,
    after_comma: bool,
    found: &'a str,
    first: Option<char>,
    word: &'a str,
}

impl Site<'_> {
    fn wants_value(&self) -> bool {
        matches!(self.expect, Expect::Value | Expect::ValueOrClose)
    }

    fn wants_key(&self) -> bool {
        matches!(self.expect, Expect::Key | Expect::KeyOrClose)
    }
}

type Named = Option<(Defect, String)>;

/// The rules for an unexpected token, most telling first; the first that fits names it.
const UNEXPECTED: [fn(&Site) -> Named; 15] = [
    comment,
    trailing_comma,
    smart_quote,
    escaped_json,
    html_entity,
    ellipsis,
    single_quote,
    non_finite_word,
    python_literal,
    unquoted_key,
    key_quote,
    unquoted_value,
    quote_after_string,
    missing_comma,
    key_without_value,
];

fn unexpected(
    before: &str,
    rest: &str,
    expect: Expect,
    after_comma: bool,
    found: &str,
) -> (Defect, String) {
    let site = Site {
        before,
        rest,
        expect,
        after_comma,
        found,
        first: rest.chars().next(),
        word: leading_word(rest),
    };
    if let Some(named) = UNEXPECTED.iter().find_map(|rule| rule(&site)) {
        return named;
    }
    let wanted = match expect {
        Expect::Value => "a value",
        Expect::ValueOrClose => "a value or `]`",
        Expect::Key => "a double-quoted key",
        Expect::KeyOrClose => "a double-quoted key or `}`",
        Expect::Colon => "`:` after the key",
        Expect::CommaOrClose => "`,` or a closing bracket",
    };
    (
        Defect::Syntax,
        format!("expected {wanted}, found {found}; ask for strict JSON"),
    )
}

fn comment(site: &Site) -> Named {
    let rest = site.rest;
    (rest.starts_with("//") || rest.starts_with("/*") || rest.starts_with('#')).then(|| {
        (
            Defect::Comment,
            format!(
                "comment {}: JSON has no comments; tell the model to leave them out",
                site.found
            ),
        )
    })
}

fn trailing_comma(site: &Site) -> Named {
    (site.after_comma && matches!(site.first, Some('}' | ']'))).then(|| {
        (
            Defect::TrailingComma,
            format!(
                "trailing comma before {}; tell the model not to put a comma after the last item",
                site.found
            ),
        )
    })
}

fn smart_quote(site: &Site) -> Named {
    matches!(
        site.first,
        Some('\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}' | '\u{201e}')
    )
    .then(|| {
        (
            Defect::SmartQuotes,
            format!(
                "typographic quote {}; JSON needs straight double quotes — ask for straight `\"` (or check what typeset them on the way)",
                site.found
            ),
        )
    })
}

/// `\"` or `\n` outside a string: JSON escaped as if it sat inside one.
fn escaped_json(site: &Site) -> Named {
    let structural = site.wants_key() || site.wants_value() || site.expect == Expect::CommaOrClose;
    let escaped = site.rest.starts_with("\\\"") || site.rest.starts_with("\\n");
    (structural && escaped).then(|| {
        (
            Defect::Syntax,
            format!(
                "`{}` outside a string: the JSON is escaped as if it sat inside a string \
                 (encoded twice, by a logger or a tool that stringified it); unescape it once in \
                 the pipeline, or ask the model for plain JSON",
                &site.rest[..2]
            ),
        )
    })
}

fn html_entity(site: &Site) -> Named {
    let entity = ["&quot;", "&#34;", "&#x22;"]
        .into_iter()
        .find(|entity| site.rest.starts_with(entity))?;
    Some((
        Defect::Syntax,
        format!(
            "HTML entity `{entity}` where JSON has `\"`: the output was HTML-escaped on its way \
             (a web page, a template or a log layer); unescape it in the pipeline before parsing"
        ),
    ))
}

fn ellipsis(site: &Site) -> Named {
    (site.rest.starts_with("...") || site.rest.starts_with('\u{2026}')).then(|| {
        (
            Defect::Ellipsis,
            "ellipsis: the model left content out; ask for the complete value".to_owned(),
        )
    })
}

fn single_quote(site: &Site) -> Named {
    ((site.wants_key() || site.wants_value()) && site.first == Some('\'')).then(|| {
        (
            Defect::SingleQuotes,
            "single-quoted string; JSON needs double quotes — ask for strict JSON, not a Python dict".to_owned(),
        )
    })
}

fn non_finite_word(site: &Site) -> Named {
    (site.wants_value() && matches!(site.word, "NaN" | "Infinity" | "inf" | "nan"))
        .then(|| non_finite(site.word))
}

fn python_literal(site: &Site) -> Named {
    let json = match site.word {
        "True" => "true",
        "False" => "false",
        "None" => "null",
        _ => return None,
    };
    site.wants_value().then(|| {
        (
            Defect::PythonLiteral,
            format!(
                "Python literal `{}`; JSON spells it `{json}` — ask for JSON, not Python",
                site.word
            ),
        )
    })
}

fn unquoted_key(site: &Site) -> Named {
    let half_quoted = site.rest[site.word.len()..].starts_with("\":");
    (site.wants_key() && !site.word.is_empty() && !half_quoted).then(|| {
        (
            Defect::UnquotedKey,
            format!(
                "unquoted key `{}`; keys must be double-quoted strings — ask for strict JSON",
                site.word
            ),
        )
    })
}

/// `{"name: "x"}` (the colon is inside the key: its closing quote is missing) or
/// `{name": "x"}` (its opening quote is).
fn key_quote(site: &Site) -> Named {
    let before = site.before.trim_end_matches([' ', '\t', '\n', '\r']);
    let key_holds_colon = site.expect == Expect::Colon
        && before.ends_with('"')
        && before[..before.len() - 1]
            .rsplit('"')
            .next()
            .is_some_and(|key| key.trim_end().ends_with(':'));
    let opening_lost = site.wants_key()
        && !site.word.is_empty()
        && site.rest[site.word.len()..].starts_with("\":");
    (key_holds_colon || opening_lost).then(|| {
        (
            Defect::KeyQuote,
            "a key with one of its quotes missing (`{\"name: \"x\"}`, `{name\": \"x\"}`); tell the model to quote every key on both sides".to_owned(),
        )
    })
}

/// `"status": active`, `"id": 3f2a9c1e-…`: a string value written without quotes.
fn unquoted_value(site: &Site) -> Named {
    let letter_first = site.first.is_some_and(char::is_alphabetic) && site.wants_value();
    // `3f2a…`: the validator read `3` as a number and stopped at the letter after it.
    let glued_to_number = site.expect == Expect::CommaOrClose
        && site.before.ends_with(|c: char| c.is_ascii_digit())
        && site
            .first
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '-' || c == '/');
    (letter_first || glued_to_number).then(|| {
        let word: String = site
            .rest
            .chars()
            .take_while(|c| !matches!(c, ',' | '}' | ']' | '\n'))
            .take(40)
            .collect();
        (
            Defect::UnquotedValue,
            format!(
                "a string value without quotes (`{}`); tell the model to quote every string value",
                word.trim_end()
            ),
        )
    })
}

fn quote_after_string(site: &Site) -> Named {
    if site.expect != Expect::CommaOrClose {
        return None;
    }
    quote_trouble(site.before, site.rest)
}

fn missing_comma(site: &Site) -> Named {
    (site.expect == Expect::CommaOrClose && starts_value(site.rest)).then(|| {
        (
            Defect::MissingComma,
            format!(
                "missing comma before {}; tell the model to separate items with commas (ask for strict JSON)",
                site.found
            ),
        )
    })
}

/// `{"a": , "b": 1}`: a key and its colon, then no value.
fn key_without_value(site: &Site) -> Named {
    let after_colon = site
        .before
        .trim_end_matches([' ', '\t', '\n', '\r'])
        .ends_with(':');
    (site.wants_value() && matches!(site.first, Some('}' | ',' | ']')) && after_colon).then(|| {
        (
            Defect::Syntax,
            format!(
                "a key with no value before {}; tell the model to write `null` where it has no value",
                site.found
            ),
        )
    })
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
mod tests;
