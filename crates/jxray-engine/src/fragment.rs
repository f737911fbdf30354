//! Never a fragment: telling a whole value from a piece of a larger one.
//!
//! A value that parses can still be only the start of what the model wrote:
//! an unescaped quote inside a string closes it early, the closers that
//! follow end the object, and the rest of the real value trails after it
//! (`{"msg": "press "}" to close", "ok": true}`). Its shape gives it away: the
//! text right after it carries on the same JSON. Every check here looks at a
//! bounded stretch after the value, so the scan stays linear.

use std::collections::HashMap;

use super::scan::{scan_value, ScanEnd};
use super::space::{is_json_space, skip_json_space};

/// How the text after a value carries on the same JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Carry {
    /// A string goes on after the value's closer: the quote at `quote`, the
    /// last one inside the value, was text, not the end of its string.
    UnescapedQuote { quote: usize },
    /// `, "key": …` follows: the value was closed too early, at `closer`.
    MoreMembers { closer: usize },
    /// A closer follows that balances an opener before the value: the value
    /// is an item of a larger one that failed.
    Closer { at: usize },
}

/// How far past a value the checks look once the extraction's look-ahead budget is spent.
const LOOK_AHEAD: usize = 256;

/// Look-ahead work allowed per byte of text before the checks fall back to [`LOOK_AHEAD`].
const LOOK_AHEAD_BUDGET_PER_BYTE: usize = 2;

/// The checks of one extraction, with what they already learned.
///
/// The items after a value can be long (a model's strings run to kilobytes), so the scan
/// for "more items, then a closer" is not cut at a fixed distance. It stays linear because
/// every position the scan passes between items is remembered with the answer: the next
/// candidate, an item of the same run, finds it there instead of scanning the run again.
/// A budget of work per byte of text bounds whatever the memo does not catch.
#[derive(Debug, Default)]
pub(crate) struct Lookahead {
    /// Item boundaries (positions after a comma, or where a run started) and whether the
    /// run from there ends in a closer, for scans bounded by `memo_limit`.
    memo: HashMap<usize, Option<usize>>,
    memo_limit: usize,
    budget: Option<usize>,
}

impl Lookahead {
    /// Whether the text after the value `[start, end)` (read up to `limit`)
    /// carries on the same JSON.
    pub(crate) fn carries_on(
        &mut self,
        bytes: &[u8],
        start: usize,
        end: usize,
        limit: usize,
    ) -> Option<Carry> {
        let limit = limit.min(bytes.len());
        if end >= limit || end <= start {
            return None;
        }
        if is_template_braced(bytes, start, end) {
            return None;
        }
        let closes = matches!(bytes[end - 1], b'}' | b']');
        // A closer with no string before it, then `"key":`: the value closed too early.
        let closed_early = || Carry::MoreMembers { closer: end - 1 };
        // A quote glued to the closer is never prose: the string went on.
        if closes && bytes[end] == b'"' {
            return match last_quote(bytes, start, end) {
                Some(quote) => Some(Carry::UnescapedQuote { quote }),
                // With no string in the value, the quote ends a key that began before it
                // (`{}": …`, the closer standing where the key's first quote was), or
                // opens a string that goes on into structure.
                None => (colon_at(bytes, end + 1, limit)
                    || string_then_structure(bytes, end, limit))
                .then(closed_early),
            };
        }
        let next = skip_space_and_comments(bytes, end, limit);
        match bytes.get(next).filter(|_| next < limit) {
            Some(b'"') if closes && string_then_structure(bytes, next, limit) => Some(
                last_quote(bytes, start, end)
                    .map_or_else(closed_early, |quote| Carry::UnescapedQuote { quote }),
            ),
            Some(b',') if closes && key_follows(bytes, next + 1, limit) => {
                Some(Carry::MoreMembers { closer: end - 1 })
            }
            Some(b'}' | b']') => Some(Carry::Closer { at: next }),
            // `, 2, "x"]` and `[] null, []]` (an item with no comma before it): more items,
            // then the enclosing closer; `[]ull,[]]`: on the same line, a closer whose
            // opener is before the value.
            Some(&byte) => {
                let items = if byte == b',' { next + 1 } else { next };
                self.items_then_closer(bytes, items, limit)
                    .or_else(|| unopened_closer_on_line(bytes, next, limit))
                    .map(|at| Carry::Closer { at })
            }
            None => None,
        }
    }

    /// `, 2, "x"]`: more items and then a closer with no opener; where that closer is.
    fn items_then_closer(&mut self, bytes: &[u8], from: usize, limit: usize) -> Option<usize> {
        if self.memo_limit != limit {
            self.memo.clear();
            self.memo_limit = limit;
        }
        if let Some(&known) = self.memo.get(&from) {
            return known;
        }
        let budget = self
            .budget
            .get_or_insert(LOOK_AHEAD_BUDGET_PER_BYTE * bytes.len() + 4096);
        let stop = if *budget > 0 {
            limit
        } else {
            limit.min(from + LOOK_AHEAD)
        };
        let mut boundaries = vec![from];
        let mut at = from;
        // `None`: the scan reached `stop` undecided (only when the budget is spent).
        let answer = loop {
            at = skip_json_space(bytes, at, stop);
            match scan_value(bytes, at, stop, 16, None).end {
                ScanEnd::Complete { end } => at = skip_json_space(bytes, end, stop),
                ScanEnd::Truncated { .. } if stop < limit => break None,
                _ => break Some(None),
            }
            match bytes.get(at).filter(|_| at < stop) {
                Some(b',') => {
                    at += 1;
                    boundaries.push(at);
                }
                Some(b'}' | b']') => break Some(Some(at)),
                None if stop < limit => break None,
                _ => break Some(None),
            }
        };
        *budget = budget.saturating_sub(at.saturating_sub(from));
        match answer {
            Some(answer) => {
                self.memo
                    .extend(boundaries.into_iter().map(|boundary| (boundary, answer)));
                answer
            }
            None => None,
        }
    }
}

/// `{{…}}`: a value inside doubled template braces — unless the outer brace stands where
/// a JSON value goes (after a key's colon, a comma after a value, or an array's bracket):
/// there the doubled brace is a broken document's, and what is inside it is part of it.
pub(crate) fn is_template_braced(bytes: &[u8], start: usize, end: usize) -> bool {
    start > 0
        && bytes[start] == b'{'
        && bytes[start - 1] == b'{'
        && bytes.get(end) == Some(&b'}')
        && !where_a_value_goes(bytes, start - 1)
}

/// `,"{` or `":"[`: an opener glued to a quote that is itself glued to a document's comma,
/// bracket or key's colon is the first character of a string in that document, not a value
/// of its own (a quoted value in prose has a space or a word before its quote).
pub(crate) fn opens_inside_a_string(bytes: &[u8], start: usize) -> bool {
    if start < 2 || bytes[start - 1] != b'"' {
        return false;
    }
    match bytes[start - 2] {
        b',' | b'[' | b'{' => true,
        b':' => start >= 3 && bytes[start - 3] == b'"',
        _ => false,
    }
}

/// Whether the JSON before `at` (past white space) wants a value there: `"key":`, `[`, or
/// a comma after a value.
fn where_a_value_goes(bytes: &[u8], at: usize) -> bool {
    let before = |end: usize| bytes[..end].iter().rposition(|b| !b.is_ascii_whitespace());
    let Some(i) = before(at) else {
        return false;
    };
    match bytes[i] {
        b'[' => true,
        b':' => before(i).is_some_and(|key| bytes[key] == b'"'),
        b',' => before(i).is_some_and(|value| {
            matches!(bytes[value], b'"' | b'}' | b']' | b'0'..=b'9' | b'e' | b'l')
        }),
        _ => false,
    }
}

/// Past white space and `//` / `#` line comments (a commented array goes on after them).
fn skip_space_and_comments(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    let stop = limit.min(i.saturating_add(LOOK_AHEAD));
    loop {
        i = skip_json_space(bytes, i, limit);
        let comment =
            bytes[i.min(limit)..limit].starts_with(b"//") || (i < limit && bytes[i] == b'#');
        if !comment || i >= stop {
            return i;
        }
        while i < stop && bytes[i] != b'\n' {
            i += 1;
        }
        if i >= stop {
            // The comment runs on past the look-ahead: what follows is not known, so
            // nothing after the value is taken for code (and `i` may be inside a character).
            return limit;
        }
    }
}

/// The closing quote of the last string inside the value, if the value ends
/// with a string and its closers.
fn last_quote(bytes: &[u8], start: usize, end: usize) -> Option<usize> {
    let mut k = end;
    while k > start {
        k -= 1;
        match bytes[k] {
            b'}' | b']' => {}
            byte if is_json_space(byte) => {}
            b'"' => return Some(k),
            _ => return None,
        }
    }
    None
}

/// A string at `at` (within the look-ahead) followed by `,` `:` `}` or `]`.
fn string_then_structure(bytes: &[u8], at: usize, limit: usize) -> bool {
    let Some(after) = string_end(bytes, at, limit) else {
        return false;
    };
    let next = skip_json_space(bytes, after, limit);
    next < limit && matches!(bytes[next], b',' | b':' | b'}' | b']')
}

/// A `:` at `at` after white space.
fn colon_at(bytes: &[u8], at: usize, limit: usize) -> bool {
    let next = skip_json_space(bytes, at, limit);
    next < limit && bytes[next] == b':'
}

/// A `}` or `]` on the rest of the line (within the look-ahead) that closes
/// nothing opened after `at`.
fn unopened_closer_on_line(bytes: &[u8], at: usize, limit: usize) -> Option<usize> {
    let stop = limit.min(at + LOOK_AHEAD);
    let mut depth = 0i32;
    for (offset, &byte) in bytes[at..stop].iter().enumerate() {
        match byte {
            b'\n' => return None,
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return Some(at + offset),
            b'}' | b']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `"key":` at `at` after white space.
fn key_follows(bytes: &[u8], at: usize, limit: usize) -> bool {
    let at = skip_json_space(bytes, at, limit);
    if at >= limit || bytes[at] != b'"' {
        return false;
    }
    let Some(after) = string_end(bytes, at, limit) else {
        return false;
    };
    let next = skip_json_space(bytes, after, limit);
    next < limit && bytes[next] == b':'
}

/// The offset after the closing quote of the string opening at `at`, on the same line.
///
/// Not cut at a fixed distance (a string a model wrote can be long), and still linear:
/// each call reads from one quote to the next, and the values it is asked about are
/// followed by different quotes, so no stretch of text is read twice for the same reason.
fn string_end(bytes: &[u8], at: usize, limit: usize) -> Option<usize> {
    let mut j = at + 1;
    while j < limit {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            b'\n' => return None,
            _ => j += 1,
        }
    }
    None
}

/// Where a string that runs to the end of the text should have closed: the
/// text inside it goes on to close every bracket open around it (in order),
/// with nothing but closers and white space after. `open` is the stack of
/// brackets open when the string began; the answer is the first closer of
/// that run, where the missing quote belongs. A closing fence may follow the
/// closers on a line of its own: the fence closing says the output went on.
pub(crate) fn missing_quote(bytes: &[u8], content: usize, open: &[(u8, usize)]) -> Option<usize> {
    if open.is_empty() {
        return None;
    }
    let mut remaining = open.len();
    let mut nested = 0usize;
    let mut first_closer = None;
    let mut j = content;
    while j < bytes.len() {
        let byte = bytes[j];
        if remaining == 0 {
            if byte == b'\n' && closes_a_fence(&bytes[j + 1..]) {
                return first_closer;
            }
            if !(is_json_space(byte) || matches!(byte, b'}' | b']')) {
                return None;
            }
            j += 1;
            continue;
        }
        match byte {
            b'\\' => j += 1,
            b'{' | b'[' => nested += 1,
            b'}' | b']' if nested > 0 => nested -= 1,
            b'}' | b']' => {
                let (opener, _) = open[remaining - 1];
                let matches = (opener == b'{') == (byte == b'}');
                if !matches {
                    return None;
                }
                first_closer.get_or_insert(j);
                remaining -= 1;
            }
            _ => {}
        }
        j += 1;
    }
    if remaining == 0 {
        first_closer
    } else {
        None
    }
}

/// A line that is a fence's closing marker (three or more backticks or tildes).
fn closes_a_fence(line: &[u8]) -> bool {
    let line = line.trim_ascii_start();
    let marker = line.first().copied();
    let run = line.iter().take_while(|&&b| Some(b) == marker).count();
    matches!(marker, Some(b'`' | b'~')) && run >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    fn carry(text: &str, start: usize, end: usize) -> Option<Carry> {
        Lookahead::default().carries_on(text.as_bytes(), start, end, text.len())
    }

    #[test]
    fn long_items_and_strings_after_a_value_still_carry_it_on() {
        let long = "x".repeat(2000);
        let items = format!("[\"a\"}},{{\"k\": null}},{{\"t\": \"{long}\"}},null]");
        let start = items.find("{\"k\"").unwrap();
        let end = items[start..].find('}').unwrap() + start + 1;
        assert_eq!(
            carry(&items, start, end),
            Some(Carry::Closer {
                at: items.len() - 1
            }),
            "a run of items longer than a fixed window still ends in the enclosing closer"
        );
        let quote = format!("{{\"q\": \"she said \"}} \"{long}\", \"n\": 2}}");
        let end = quote.find('}').unwrap() + 1;
        assert!(matches!(
            carry(&quote, 0, end),
            Some(Carry::UnescapedQuote { .. })
        ));
        let prose = format!("First {{\"a\": 1}}, then {{\"b\": \"{long}\"}} and that is all.");
        let end = prose.find('}').unwrap() + 1;
        assert_eq!(
            carry(&prose, 6, end),
            None,
            "two answers in prose are not one value"
        );
    }

    #[test]
    fn a_run_of_items_is_read_once_and_remembered() {
        let text = format!("[{}]", vec!["{}"; 1000].join(","));
        let mut lookahead = Lookahead::default();
        for item in 0..1000 {
            let start = 1 + 3 * item;
            let carried = lookahead.carries_on(text.as_bytes(), start, start + 2, text.len());
            assert!(carried.is_some(), "item {item} is part of the array");
        }
        assert!(
            lookahead.budget.unwrap() > text.len(),
            "the run was scanned once, not once per item"
        );
    }

    #[test]
    fn an_unescaped_quote_carries_the_string_on() {
        let text = "Answer: {\"msg\": \"press \"}\" to close\", \"ok\": true}";
        let end = text.find("}\"").unwrap() + 1;
        assert_eq!(
            carry(text, 8, end),
            Some(Carry::UnescapedQuote {
                quote: text.find(" \"}").unwrap() + 1
            })
        );
        let spaced = "{\"q\": \"she said \"} \"twice\", \"n\": 2}";
        let end = spaced.find('}').unwrap() + 1;
        assert!(matches!(
            carry(spaced, 0, end),
            Some(Carry::UnescapedQuote { .. })
        ));
    }

    #[test]
    fn more_members_and_closers_carry_on() {
        let text = "{\"a\": 1}, \"b\": 2}";
        assert_eq!(carry(text, 0, 8), Some(Carry::MoreMembers { closer: 7 }));
        let text = "[{\"i\":1{\"i\":2}]";
        assert_eq!(carry(text, 7, 14), Some(Carry::Closer { at: 14 }));
        let text = "[1, {\"b\": 2} // second\n]";
        assert_eq!(carry(text, 4, 12), Some(Carry::Closer { at: 23 }));
    }

    #[test]
    fn a_closer_is_placed_at_the_closer_and_a_long_comment_decides_nothing() {
        // Items, then the enclosing closer: the carry names the closer, not the first item.
        let text = "[{\"a\": 1}, {\"b\": 2}]";
        assert_eq!(carry(text, 1, 9), Some(Carry::Closer { at: 19 }));
        // Found by fuzzing: a `#` comment longer than the look-ahead, over multi-byte
        // characters, then a closer. Nothing is known past the look-ahead, so no carry,
        // and never an offset inside a character.
        let text = format!("[]#a{}a`]", "\u{fffd}".repeat(114));
        assert_eq!(carry(&text, 0, 2), None);
        let outcome = crate::extract(&text, &crate::Options::default());
        if let Some(failure) = &outcome.failure {
            assert!(text.is_char_boundary(failure.offset));
        }
    }

    #[test]
    fn prose_after_a_value_does_not_carry_on() {
        for text in [
            "{\"a\": 1}, and that is all",
            "{\"a\": 1} \"quoted\" words",
            "{\"a\": 1}\n{\"b\": 2}",
            "{\"a\": 1}, {\"b\": 2}",
            "{\"a\": 1}, {\"b\": 2} and more",
            "{{\"a\": 1}}",
        ] {
            let start = text.rfind("{\"a\"").unwrap();
            let end = start + 8;
            assert_eq!(carry(text, start, end), None, "{text}");
        }
    }

    #[test]
    fn a_missing_quote_is_found_where_the_structure_closes() {
        let text = "{\"list\": [{\"v\": \"alpha}]}";
        let open = [(b'{', 0), (b'[', 9), (b'{', 10)];
        let content = text.find("alpha").unwrap();
        assert_eq!(
            missing_quote(text.as_bytes(), content, &open),
            Some(text.find('}').unwrap())
        );
        // Cut off inside the string: the brackets are not closed.
        let cut = "{\"list\": [{\"v\": \"alph";
        assert_eq!(missing_quote(cut.as_bytes(), content, &open), None);
        // A closer that does not match is not the structure closing.
        let wrong = "{\"a\": \"x]";
        assert_eq!(missing_quote(wrong.as_bytes(), 7, &[(b'{', 0)]), None);
        // Prose after the closers: not this shape.
        let prose = "{\"a\": \"x} and more";
        assert_eq!(missing_quote(prose.as_bytes(), 7, &[(b'{', 0)]), None);
        let nested = "{\"a\": \"see {x}} ";
        assert_eq!(missing_quote(nested.as_bytes(), 7, &[(b'{', 0)]), Some(14));
        let fenced = "```json\n{\"a\": \"x}\n```\nDone.";
        assert_eq!(missing_quote(fenced.as_bytes(), 15, &[(b'{', 8)]), Some(16));
    }
}
