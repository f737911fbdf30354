//! A string whose closing quote is missing although its text goes on to close every
//! open bracket (`{"note": "check the valve}]`): the quote goes where the structure
//! closes. The string may also have ended before a comma in its text; that place is read
//! too, and the reading is refused if the two places give different values. (The last
//! comma is enough: if the text after an earlier comma reads as more items, so does the
//! text after the last one, in the same container.)

use super::fork::Choice;
use super::rewriter::Rewriter;
use super::string::Body;

impl Rewriter<'_> {
    /// The string from `from` ran to the end of the candidate: if its text then closes
    /// every open bracket, the closing quote belongs before those closers. `marks` is
    /// where its text and its fixes began in the output.
    pub(super) fn unterminated(
        &mut self,
        from: usize,
        string: Body,
        marks: (usize, usize),
    ) -> usize {
        let Some(suffix) = self.closing_suffix(from).filter(|_| !string.key) else {
            return self.limit;
        };
        // White space before the closers is layout, not the string's text.
        let place = from
            + self.bytes[from..suffix]
                .iter()
                .rposition(|b| !b.is_ascii_whitespace())
                .map_or(0, |last| last + 1);
        if let Some(reason) = self.unclear_end(from, place) {
            self.guess(place, reason);
            return self.limit;
        }
        let stop = match self.forced_at(from) {
            Some(Choice::QuoteBefore(comma)) => comma,
            _ => {
                let last_comma = self.bytes[from..place].iter().rposition(|&b| b == b',');
                if let Some(comma) = last_comma {
                    self.offer(from, Choice::QuoteBefore(from + comma), false);
                }
                place
            }
        };
        let (out_start, repairs_start) = marks;
        self.out.truncate(out_start);
        self.repairs.truncate(repairs_start);
        self.body(from, Body { inner: 0, ..string }, stop)
    }

    /// Why the end of the string's text at `place` is no clear place for its closing quote.
    fn unclear_end(&self, from: usize, place: usize) -> Option<&'static str> {
        let content = &self.bytes[from..place];
        let last = *content.last()?;
        if matches!(last, b'}' | b']' | b'{' | b'[') {
            return Some("brackets in the string's text right where its closing quote belongs: where it ends is a guess");
        }
        if matches!(
            last,
            b'+' | b'-' | b'*' | b'=' | b'&' | b'|' | b'<' | b'>' | b',' | b';' | b':' | b'('
        ) {
            return Some("the string's text stops mid-expression where its closing quote belongs: something after it may be lost");
        }
        if self.escaped_quote_before(place) {
            return Some("an escaped quote just before the place the closing quote belongs: it may have been meant to close the string");
        }
        let quote_by_separator = content
            .windows(2)
            .any(|w| matches!(w, [b'\'' | b'"', b',' | b':'] | [b',' | b':', b'\'' | b'"']))
            || content.windows(3).any(|w| {
                matches!(
                    w,
                    [b'\'' | b'"', b' ', b',' | b':'] | [b',' | b':', b' ', b'\'' | b'"']
                )
            });
        // `then: 'press start'`: quotes that pair up as a phrase of the text; ending the
        // string at one of them would leave the other unpaired, which is no reading.
        (quote_by_separator && !quotes_pair_up(content))
            .then_some("a string without its closing quote whose text holds more keys or items")
    }

    /// Where the text from `from` to the end is white space and exactly the
    /// closers of every open bracket, innermost first.
    fn closing_suffix(&self, from: usize) -> Option<usize> {
        let mut at = self.limit;
        let mut frames = self.stack.iter();
        while at > from {
            let byte = self.bytes[at - 1];
            at -= 1;
            if byte.is_ascii_whitespace() {
                continue;
            }
            if byte != frames.next()?.closer {
                return None;
            }
            if frames.len() == 0 {
                return (at > from).then_some(at);
            }
        }
        None
    }
}

/// Whether the quotes in a string's text pair up as quoted phrases: of each kind, every
/// opening quote follows no letter or digit, every closing one is followed by none, and
/// none is left open (an apostrophe inside a word, `don't`, is no quote).
fn quotes_pair_up(content: &[u8]) -> bool {
    let word = |at: Option<&u8>| at.is_some_and(u8::is_ascii_alphanumeric);
    [b'\'', b'"'].into_iter().all(|quote| {
        let mut open = false;
        for (k, _) in content.iter().enumerate().filter(|&(_, &b)| b == quote) {
            let before = k.checked_sub(1).and_then(|p| content.get(p));
            let after = content.get(k + 1);
            if quote == b'\'' && word(before) && word(after) {
                continue;
            }
            let misplaced = if open { word(after) } else { word(before) };
            if misplaced {
                return false;
            }
            open = !open;
        }
        !open
    })
}

#[cfg(test)]
mod tests {
    use super::quotes_pair_up;

    #[test]
    fn quoted_phrases_pair_up() {
        for text in [
            "then: 'press start'",
            "say 'hi', then 'bye'",
            "don't: 'stop'",
            "no quotes",
        ] {
            assert!(quotes_pair_up(text.as_bytes()), "{text}");
        }
        for text in ["one, 'two", "a', 'b", "x'y: 'z", "'open"] {
            assert!(!quotes_pair_up(text.as_bytes()), "{text}");
        }
    }
}
