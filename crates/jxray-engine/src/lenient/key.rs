//! Keys with one of their quotes missing: `{"name: "x"}` (the closing one; the colon
//! ends the key) and `{name": "x"}` (the opening one; the quote before the colon is
//! the key's closing quote).

use super::fork::Choice;
use super::rewriter::Rewriter;
use super::string::Body;
use crate::outcome::{Defect, RepairKind};

impl Rewriter<'_> {
    /// A colon at `j` inside a key, followed by a value: the key may have ended there with
    /// its closing quote missing (`{"name: "x"}`), or the colon may be text. The way the
    /// text after it suggests is read first — text when the next quote ends a key (a colon
    /// follows it), else the key's end — and the other way is read too, so that two
    /// readings with different values give none.
    pub(super) fn key_ends_at_colon(&mut self, j: usize, string: Body) -> bool {
        let (_, at) = self.peek(j + 1);
        // `"10:30"` is text; `"name: "x"` and `"key:"value"` are a key and its value; in
        // `"x:": 1` the quote after the colon closes the key (a colon follows it), so the
        // colon is the key's text.
        let value_follows = if at == j + 1 {
            let quote = (at < self.limit).then(|| self.quote_at(at)).flatten();
            let after_quote = quote.and_then(|_| self.char_at(at)).map(char::len_utf8);
            after_quote.is_some_and(|len| self.peek(at + len).0 != Some(b':'))
        } else {
            self.starts_clear_value(at)
        };
        if !value_follows {
            return false;
        }
        // The quote that would close this key, if it were not closed here: a colon after it
        // makes this colon the key's text.
        let closes_later = self
            .next_closing_quote(j + 1)
            .is_some_and(|quote| self.peek(quote + 1).0 == Some(b':'));
        let (first, other) = if closes_later {
            (Choice::Text, Choice::KeyEnds)
        } else {
            (Choice::KeyEnds, Choice::Text)
        };
        if self.decide(j, first, other, false) != Choice::KeyEnds {
            return false;
        }
        if !self.inner_quotes_pair(string, j) {
            return true;
        }
        self.fix(RepairKind::Lenient(Defect::KeyQuote), j);
        self.out.push(b'"');
        self.end_item(j);
        true
    }

    /// After a bare key ending at `end`: `name":` — the quote is the key's closing one and
    /// its opening one is missing. Returns where the key ends, past that quote.
    pub(super) fn closing_quote_of_bare_key(&self, end: usize) -> Option<usize> {
        (end < self.limit && self.bytes[end] == b'"' && self.peek(end + 1).0 == Some(b':'))
            .then_some(end + 1)
    }
}
