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
        quote_by_separator
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
