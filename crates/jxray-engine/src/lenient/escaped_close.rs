//! A list item whose closing quote came out escaped at the end of its line
//! (`"Open the lid.\",` and the next item on the next line). Read on as text, the string
//! would run into the next item and that item would disappear, which is no reading: the
//! escaped quote is the item's closing quote, unless the escaped quotes before it leave
//! one open (`"say \"stop\",`: the end of a quoted phrase, or the string's end).

use super::rewriter::Rewriter;
use super::string::{Body, Quote};
use crate::outcome::{Defect, RepairKind};

impl Rewriter<'_> {
    /// Whether the `\"` at `j` closes the array item whose text starts at `from`. Refuses
    /// the reading when it ends a line before the next item but cannot close the item.
    pub(super) fn escaped_close_at(&mut self, j: usize, from: usize, string: Body) -> bool {
        let in_array = !self.stack.is_empty() && !self.top_is_object();
        if string.quote != Quote::Double || string.key || !in_array {
            return false;
        }
        if self.bytes.get(j + 1) != Some(&b'"') || !self.next_item_on_next_line(j + 2) {
            return false;
        }
        let escaped_before = self.bytes[from..j]
            .windows(2)
            .filter(|pair| pair == b"\\\"")
            .count();
        if escaped_before % 2 == 1 {
            self.guess(
                j,
                "an escaped quote at the end of a line before the next item: the end of a quoted phrase, or the item's closing quote",
            );
            return false;
        }
        true
    }

    /// `\",` + a new line + `"`: the comma, then the next item's opening quote on a later
    /// line.
    fn next_item_on_next_line(&self, after: usize) -> bool {
        let (next, comma) = self.peek(after);
        if next != Some(b',') {
            return false;
        }
        let (next, quote) = self.peek(comma + 1);
        next == Some(b'"') && self.bytes[comma + 1..quote].contains(&b'\n')
    }

    /// Close the string at the escaped quote at `j`; the reading goes on after it.
    pub(super) fn close_escaped(&mut self, j: usize) -> usize {
        self.fix(RepairKind::Lenient(Defect::UnterminatedString), j);
        self.out.push(b'"');
        self.end_item(j + 2);
        j + 2
    }
}
