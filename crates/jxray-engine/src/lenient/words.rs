//! A lenient reading changes punctuation and quoting only: it never loses a word of the
//! text. Every word of the raw span must still be in the reading, as often as it was
//! written; only a literal or a number may change its spelling (`True`, `NaN`, `0x1F`), and
//! a comment's words go with the comment.

use std::collections::HashMap;

use super::{LenientText, Refusal};
use crate::outcome::{Defect, RepairKind};

/// Refuse `reading` when a word of the raw text it read is missing from it.
pub(super) fn keep_every_word(text: &str, reading: &mut LenientText) {
    let dropped_comment = reading
        .repairs
        .iter()
        .any(|repair| repair.kind == RepairKind::Lenient(Defect::Comment));
    if reading.refused.is_some() || dropped_comment {
        return;
    }
    let raw = text.get(reading.start..reading.end).unwrap_or_default();
    if let Some(word) = lost_word(raw, &reading.text) {
        reading.refused = Some(Refusal {
            offset: reading.start + raw.find(word).unwrap_or(0),
            reason: format!("the reading would lose the word `{word}`; a reading changes punctuation, never words").into(),
            guess: false,
        });
    }
}

/// The first word of `raw` that `read` no longer holds, if any.
fn lost_word<'a>(raw: &'a str, read: &str) -> Option<&'a str> {
    let mut kept: HashMap<&str, usize> = HashMap::new();
    for word in words(read) {
        *kept.entry(word).or_default() += 1;
    }
    words(raw).find(|word| {
        if respelled(word) {
            return false;
        }
        match kept.get_mut(word) {
            Some(count) if *count > 0 => {
                *count -= 1;
                false
            }
            _ => true,
        }
    })
}

/// The runs of letters and digits of a text, an escape (`\n`, `\u00e9`) counting as a
/// separator, so a raw text and its escaped reading have the same words.
fn words(text: &str) -> impl Iterator<Item = &str> {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || loop {
        let (start, c) = chars.next()?;
        if c == '\\' {
            let skip = match chars.next() {
                Some((_, 'u')) => 4,
                _ => 0,
            };
            (0..skip).for_each(|_| {
                chars.next();
            });
            continue;
        }
        if !c.is_alphanumeric() {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(at, next)) = chars.peek().filter(|(_, next)| next.is_alphanumeric()) {
            end = at + next.len_utf8();
            chars.next();
        }
        return Some(&text[start..end]);
    })
}

/// A word a reading may spell differently: a number, or a literal of some language.
fn respelled(word: &str) -> bool {
    let numeric = word.starts_with(|c: char| c.is_ascii_digit());
    let lower = word.to_ascii_lowercase();
    numeric
        || matches!(
            lower.as_str(),
            "true" | "false" | "null" | "none" | "nan" | "inf" | "infinity" | "undefined"
        )
}

#[cfg(test)]
mod tests {
    use super::lost_word;

    #[test]
    fn punctuation_may_change_but_no_word_is_lost() {
        assert_eq!(
            lost_word("{'a': True, b: café}", "{\"a\": true, \"b\": \"café\"}"),
            None
        );
        assert_eq!(lost_word("[\"x\ny\"]", "[\"x\\ny\"]"), None);
        assert_eq!(lost_word("{\"a\": 0x1F}", "{\"a\": 31}"), None);
        assert_eq!(lost_word("[\"one\", \"two\"]", "[\"one\"]"), Some("two"));
        assert_eq!(lost_word("[\"a a\"]", "[\"a\"]"), Some("a"));
        assert_eq!(lost_word("“Paris”", "\"Paris\""), None);
    }
}
