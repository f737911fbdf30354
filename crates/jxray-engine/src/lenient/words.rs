//! A lenient reading changes punctuation and quoting only: it never loses a word of the
//! text. Every word of the raw span must still be in the reading, in order and as often
//! as it was written; only a literal or a number may change its spelling (`True`, `NaN`,
//! `0x1F`), and a comment's words go with the comment.

use super::{LenientText, Refusal};
use crate::outcome::{Defect, RepairKind};

/// The fixes that decide where a string starts or ends: the ones that could leave text out
/// of the value (a quote placed before the words it should have closed after).
const MOVES_STRING_ENDS: [Defect; 5] = [
    Defect::UnterminatedString,
    Defect::UnescapedQuote,
    Defect::DoubledQuotes,
    Defect::KeyQuote,
    Defect::MissingStart,
];

/// Refuse `reading` when a word of the raw text it read is missing from it. Read only for
/// a reading that moved where a string ends (the other fixes keep every byte of text).
pub(super) fn keep_every_word(text: &str, reading: &mut LenientText) {
    let has = |defects: &[Defect]| {
        reading.repairs.iter().any(|repair| {
            matches!(repair.kind, RepairKind::Lenient(defect) if defects.contains(&defect))
        })
    };
    if reading.refused.is_some() || has(&[Defect::Comment]) || !has(&MOVES_STRING_ENDS) {
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

/// The first word of `raw` that `read` no longer holds, if any. A reading keeps the text's
/// order, so the raw words (less those a reading respells) must be a subsequence of the
/// reading's words: one forward pass over each.
fn lost_word<'a>(raw: &'a str, read: &str) -> Option<&'a str> {
    let mut kept = Words::new(read);
    Words::new(raw)
        .filter(|word| !respelled(word))
        .find(|word| !kept.any(|other| other == *word))
}

/// The runs of letters and digits of a text, an escape (`\n`, `\u00e9`) counting as a
/// separator, so a raw text and its escaped reading have the same words.
struct Words<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Words<'a> {
        Words { text, at: 0 }
    }

    /// Whether the character at `at` is a letter or digit, and its length.
    fn word_char(&self, at: usize) -> (bool, usize) {
        let byte = self.text.as_bytes()[at];
        if byte.is_ascii() {
            return (byte.is_ascii_alphanumeric(), 1);
        }
        let c = self.text[at..].chars().next().unwrap_or(' ');
        (c.is_alphanumeric(), c.len_utf8())
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        loop {
            // Past ASCII punctuation and space, a run at a time.
            self.at += bytes[self.at.min(bytes.len())..]
                .iter()
                .position(|&b| b.is_ascii_alphanumeric() || b == b'\\' || !b.is_ascii())
                .unwrap_or(bytes.len() - self.at.min(bytes.len()));
            if self.at >= bytes.len() {
                return None;
            }
            if bytes[self.at] == b'\\' {
                self.skip_escape();
                continue;
            }
            let (is_word, len) = self.word_char(self.at);
            if !is_word {
                self.at += len;
                continue;
            }
            let start = self.at;
            while self.at < bytes.len() {
                if bytes[self.at].is_ascii_alphanumeric() {
                    self.at += 1;
                    continue;
                }
                match self.word_char(self.at) {
                    (true, len) if !bytes[self.at].is_ascii() => self.at += len,
                    _ => break,
                }
            }
            return Some(&self.text[start..self.at]);
        }
    }
}

impl Words<'_> {
    /// Past the escape at `at` (`\u` and four hex digits, or one character), never into
    /// the middle of a character.
    fn skip_escape(&mut self) {
        let bytes = self.text.as_bytes();
        let next = self.at + 1;
        self.at = match bytes.get(next) {
            Some(b'u') => next + 5,
            Some(_) => next + self.word_char(next).1,
            None => next,
        };
        while self.at < bytes.len() && !self.text.is_char_boundary(self.at) {
            self.at += 1;
        }
    }
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
        assert_eq!(
            lost_word("['caf\\u00e9 au lait']", "[\"caf\\u00e9 au lait\"]"),
            None
        );
        // An escaped character of any length, or an escape cut short, is passed whole.
        assert_eq!(lost_word("[\"a\\„b\"]", "[\"a„b\"]"), None);
        assert_eq!(lost_word("\\u12é", "x"), None);
        // Order counts: a word moved elsewhere was lost where it stood.
        assert_eq!(lost_word("[\"b\", \"a\"]", "[\"a\", \"b\"]"), Some("a"));
    }
}
