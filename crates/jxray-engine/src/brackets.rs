//! Words in brackets are prose, not a broken value: `{Happy to help!}`, `[citation
//! needed]`, a narrated call `[tool_call: read_file for path 'config.yaml']`. Each check
//! reads a bounded stretch after the opener.

use super::space::skip_json_space;

/// How far after the opener the checks read.
const LOOK_AHEAD: usize = 256;

/// Words in a row that make a sentence rather than a list of bare values.
const SENTENCE_WORDS: usize = 3;

/// Whether the bracket at `start` holds prose: words with no quote, colon or nested
/// bracket before the closer, or (`[…]`) a sentence.
pub(crate) fn is_prose_in_brackets(bytes: &[u8], start: usize) -> bool {
    // Most brackets open a value: no word follows them, and that is all that is read.
    let (word, first_word_end) = first_word(bytes, start);
    if word.is_empty() || is_literal_like(word) {
        return false;
    }
    is_words_in_brackets(bytes, start, first_word_end)
        || (bytes[start] == b'[' && is_sentence_in_brackets(bytes, start, first_word_end))
}

/// `{Happy to help! Anything else?}`, `[citation needed]`: words before the closer, with
/// no quote, nested bracket or line break (and in `[…]` no comma or colon). In `{…}` a colon
/// is prose too unless it has a member's shape: one bare word since the opener or the last
/// comma before it (`{name: "x"}` is an object with unquoted keys; `today? :)` is a smile).
fn is_words_in_brackets(bytes: &[u8], start: usize, first_word_end: usize) -> bool {
    let closer = if bytes[start] == b'{' { b'}' } else { b']' };
    // The segment since the opener began with the first word and holds nothing else yet.
    let mut segment = Segment::Word;
    for &byte in bytes[first_word_end..].iter().take(LOOK_AHEAD) {
        match byte {
            b'"' | b'{' | b'[' | b'\n' => return false,
            b',' | b':' if closer == b']' => return false,
            b':' if segment != Segment::Other => return false,
            b',' => segment = Segment::Empty,
            b'}' | b']' => return byte == closer,
            _ => segment = segment.after(byte),
        }
    }
    false
}

/// What a stretch between separators in `{…}` holds so far: a key has one bare word.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Segment {
    /// Only spaces so far.
    Empty,
    /// One bare word.
    Word,
    /// One bare word and the spaces after it.
    WordSpaced,
    /// Anything else: words in a row, punctuation.
    Other,
}

impl Segment {
    fn after(self, byte: u8) -> Segment {
        let word_byte =
            byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'$') || byte >= 0x80;
        let space = byte.is_ascii_whitespace();
        match self {
            Segment::Empty if space => Segment::Empty,
            Segment::Empty | Segment::Word if word_byte => Segment::Word,
            Segment::Word | Segment::WordSpaced if space => Segment::WordSpaced,
            _ => Segment::Other,
        }
    }
}

/// The first run of letters after the opener, and where it ends.
fn first_word(bytes: &[u8], start: usize) -> (&[u8], usize) {
    let near = bytes.len().min(start + LOOK_AHEAD);
    let body_start = skip_json_space(bytes, start + 1, near);
    let end = bytes[body_start..near]
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .map_or(near, |at| body_start + at);
    (&bytes[body_start..end], end)
}

/// `[tool_call: read_file for path 'config.yaml']`, `[See the note on "scope" below]`: a
/// `[…]` closed on its line that starts with a word and holds a sentence — words in a row
/// with only spaces between them, quoted phrases among them but never a quoted key — and
/// either a colon right after its first word or no comma (a list of bare values has commas).
fn is_sentence_in_brackets(bytes: &[u8], start: usize, first_word_end: usize) -> bool {
    let mut i = first_word_end;
    i += bytes[i..].iter().take_while(|&&b| is_word_byte(b)).count();
    let labelled = bytes.get(i) == Some(&b':');
    let (mut run, mut longest, mut commas) = (1, 1, false);
    let stop = bytes.len().min(start + LOOK_AHEAD);
    while i < stop {
        match bytes[i] {
            b']' => return longest >= SENTENCE_WORDS && (labelled || !commas),
            b'\n' | b'{' | b'[' | b'}' => return false,
            b' ' | b'\t' => i += 1,
            quote @ (b'"' | b'\'') => {
                let Some(close) = bytes[i + 1..stop]
                    .iter()
                    .position(|&b| b == quote || b == b'\n')
                else {
                    return false;
                };
                let after = i + 1 + close;
                let next = skip_json_space(bytes, after + 1, stop);
                if bytes[after] != quote || (quote == b'"' && bytes.get(next) == Some(&b':')) {
                    return false;
                }
                run += 1;
                longest = longest.max(run);
                i = after + 1;
            }
            byte if is_word_byte(byte) => {
                i += bytes[i..stop]
                    .iter()
                    .take_while(|&&b| is_word_byte(b))
                    .count();
                run += 1;
                longest = longest.max(run);
            }
            byte => {
                commas |= byte == b',';
                run = 0;
                i += 1;
            }
        }
    }
    false
}

/// A byte of a word in a sentence: not space, punctuation that separates, or a bracket.
fn is_word_byte(byte: u8) -> bool {
    !byte.is_ascii_whitespace() && !b",:;\"'[]{}()!?".contains(&byte)
}

/// Words that are values (or named defects of values), never prose.
fn is_literal_like(word: &[u8]) -> bool {
    let lower = word.to_ascii_lowercase();
    matches!(
        lower.as_slice(),
        b"true" | b"false" | b"null" | b"none" | b"nan" | b"infinity" | b"undefined"
    )
}

#[cfg(test)]
mod tests {
    use super::is_prose_in_brackets;

    #[test]
    fn prose_in_brackets_is_not_a_candidate() {
        let yes = [
            "{Happy to help! Anything else?}",
            "[citation needed]",
            "{name}",
            "[tool_call: read_file for path 'config.yaml']",
            "[See the note on \"scope\" below]",
            "[Note: the values below are estimates, not measurements]",
            "{Hi there! Thanks for reaching out, how can I help you today? :)}",
            "{Hey, thanks for logging in! How can I help you today? :D \u{2026}}",
            "{Meeting moved to 10:30, see you there}",
        ];
        for text in yes {
            assert!(is_prose_in_brackets(text.as_bytes(), 0), "{text}");
        }
        let no = [
            "{city: \"Paris\"}",
            "[True, False]",
            "{\"a\": 1}",
            "[NaN]",
            "{ok: true}",
            "{a b",
            "[New York City, Paris]",
            "[apple, banana, \"cherry\"]",
            "[say hello \"world\": 1]",
            "[one two three",
            "[one two three\n]",
            "[a, [b c d]]",
            "{name: x, age: 3}",
            "{ok, fine: 1}",
            "{prénom: Ada}",
            "{a_b : 1}",
            "{Note: thanks, bye}",
        ];
        for text in no {
            assert!(!is_prose_in_brackets(text.as_bytes(), 0), "{text}");
        }
    }
}
