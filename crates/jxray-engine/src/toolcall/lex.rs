//! Small readers for tool-call markup: names, special tokens, bounded searches. Each reads
//! a bounded stretch of text from a given offset, so a recogniser costs O(1) per marker.

use memchr::memmem;

/// The longest special token or tool name read, in bytes.
const LONGEST_TOKEN: usize = 64;

/// Past ASCII white space.
pub(super) fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Whether `bytes[i..]` starts with `pattern`.
pub(super) fn at(bytes: &[u8], i: usize, pattern: &[u8]) -> bool {
    bytes.get(i..).is_some_and(|rest| rest.starts_with(pattern))
}

/// A byte a tool name may hold: letters, digits, `_`, `.` and `-`.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// The longest tool name read backwards from markup that follows it.
const LONGEST_NAME: usize = 64;

/// The length of the tool name that ends right before `i` (`NAME[ARGS]`, `call:NAME{`),
/// when there is one no longer than [`LONGEST_NAME`].
pub(super) fn name_len_before(bytes: &[u8], i: usize) -> Option<usize> {
    let len = bytes[..i]
        .iter()
        .rev()
        .take(LONGEST_NAME + 1)
        .take_while(|b| is_name_byte(**b))
        .count();
    (1..=LONGEST_NAME).contains(&len).then_some(len)
}

/// The end of a tool name at `i` (`get_weather`, `functions.get_weather`, `web-search`),
/// or `i` when there is none. Bounded: a name longer than that is not a name.
pub(super) fn name_end(bytes: &[u8], i: usize) -> usize {
    let stop = bytes.len().min(i + LONGEST_TOKEN);
    let end = (i..stop).find(|&k| !is_name_byte(bytes[k])).unwrap_or(stop);
    let starts_well = bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
    if starts_well && end < bytes.len() && end < i + LONGEST_TOKEN {
        end
    } else {
        i
    }
}

/// The name at `i`, if there is one, and where it ends.
pub(super) fn name_at(bytes: &[u8], i: usize) -> Option<(String, usize)> {
    let end = name_end(bytes, i);
    (end > i).then(|| (String::from_utf8_lossy(&bytes[i..end]).into_owned(), end))
}

/// A special token at `i`: `<|name|>` or DeepSeek's `<｜name｜>` (full-width bars, `▁` for
/// `_`), its name spelled with `_`, and where it ends.
pub(super) fn special_token(bytes: &[u8], i: usize) -> Option<(String, usize)> {
    const WIDE_BAR: &[u8] = "｜".as_bytes();
    const LOWER_BLOCK: &[u8] = "▁".as_bytes();
    let bar_len = |k: usize| {
        if at(bytes, k, b"|") {
            Some(1)
        } else if at(bytes, k, WIDE_BAR) {
            Some(WIDE_BAR.len())
        } else {
            None
        }
    };
    if !at(bytes, i, b"<") {
        return None;
    }
    let mut k = i + 1 + bar_len(i + 1)?;
    let mut name = String::new();
    let stop = bytes.len().min(k + LONGEST_TOKEN);
    while k < stop {
        if let Some(len) = bar_len(k) {
            return at(bytes, k + len, b">").then_some((name, k + len + 1));
        }
        if at(bytes, k, LOWER_BLOCK) {
            name.push('_');
            k += LOWER_BLOCK.len();
        } else if bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_' {
            name.push(bytes[k] as char);
            k += 1;
        } else {
            return None;
        }
    }
    None
}

/// Where `pattern` starts in `bytes[from..]`, looking at most `limit` bytes ahead.
pub(super) fn find_within(
    bytes: &[u8],
    from: usize,
    pattern: &[u8],
    limit: usize,
) -> Option<usize> {
    let stop = bytes.len().min(from.saturating_add(limit));
    let window = bytes.get(from..stop)?;
    memmem::find(window, pattern).map(|k| from + k)
}

/// Where a call's region ends: after `closer` if the text has it, else the end of the text.
pub(super) fn region_end(bytes: &[u8], from: usize, closer: &[u8]) -> usize {
    match bytes
        .get(from..)
        .and_then(|rest| memmem::find(rest, closer))
    {
        Some(k) => from + k + closer.len(),
        None => bytes.len(),
    }
}

/// A quoted string at `i` (`"…"` without escapes inside), its text and where it ends.
pub(super) fn quoted_at(bytes: &[u8], i: usize) -> Option<(String, usize)> {
    if !at(bytes, i, b"\"") {
        return None;
    }
    let close = find_within(bytes, i + 1, b"\"", LONGEST_TOKEN)?;
    let text = &bytes[i + 1..close];
    (!text.contains(&b'\\') && !text.contains(&b'\n'))
        .then(|| (String::from_utf8_lossy(text).into_owned(), close + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_tokens_in_both_spellings() {
        let read = |text: &str| special_token(text.as_bytes(), 0);
        assert_eq!(read("<|call|>x"), Some(("call".to_owned(), 8)));
        let wide = "<｜tool▁call▁begin｜>";
        assert_eq!(read(wide), Some(("tool_call_begin".to_owned(), wide.len())));
        assert_eq!(read("<|tool_call>"), None);
        assert_eq!(read("<| a |>"), None);
        assert_eq!(read(&format!("<|{}|>", "a".repeat(100))), None);
    }

    #[test]
    fn names_are_bounded_and_start_with_a_letter() {
        assert_eq!(
            name_at(b"get_weather>", 0),
            Some(("get_weather".to_owned(), 11))
        );
        assert_eq!(name_at(b"9lives>", 0), None);
        assert_eq!(
            name_at(b"tail", 0),
            None,
            "a name must be followed by something"
        );
        assert_eq!(name_at(&[b'a'; 200], 0), None);
    }
}
