//! Keys with one of their quotes missing: `{"name: "x"}` (the closing one; the colon
//! ends the key) and `{name": "x"}` (the opening one; the quote before the colon is
//! the key's closing quote).

use super::alternatives::Choice;
use super::rewriter::Rewriter;
use crate::outcome::{Defect, RepairKind};

impl Rewriter<'_> {
    /// A colon at `j` inside a key, followed by a value: the key may have ended there with
    /// its closing quote missing (`{"name: "x"}`), or the colon may be text. The colon is
    /// read as text first; the other way stands in if that reading fails, and is read
    /// anyway, so that two readings with different values give none.
    pub(super) fn key_ends_at_colon(&mut self, j: usize) -> bool {
        let (_, at) = self.peek(j + 1);
        // `"10:30"` is text; `"name: "x"` and `"key:"value"` are a key and its value.
        let value_follows = if at == j + 1 {
            at < self.limit && self.quote_at(at).is_some()
        } else {
            self.starts_clear_value(at)
        };
        if !value_follows {
            return false;
        }
        if self.decide(j, Choice::Text, Choice::KeyEnds, true) != Choice::KeyEnds {
            return false;
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
