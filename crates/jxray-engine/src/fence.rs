//! Markdown code fences: ``` and ~~~, tagged or not, indented, on one line,
//! or left open at the end of the text.
//!
//! One pass over the lines; nothing is re-read, so 100,000 unterminated
//! fences cost the same per byte as one.

/// One code fence found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fence {
    /// From the first byte of the opening marker to the end of the closing marker line.
    pub outer: (usize, usize),
    /// The content between the markers.
    pub content: (usize, usize),
    /// The info string's first word, as written (`json`, `JSON`, `python`).
    pub tag: Option<String>,
    /// False when the text ended before a closing marker.
    pub closed: bool,
    /// 1-based line of the opening marker.
    pub line: usize,
}

impl Fence {
    /// Whether the tag says JSON (`json`, `jsonc`, `json5`, any case), or there is no tag.
    pub fn may_hold_json(&self) -> bool {
        self.tag.as_deref().is_none_or(is_json_tag)
    }

    /// How the trace names the fence (built for every fence judged: written piece by piece,
    /// without the formatting machinery).
    pub fn describe(&self) -> String {
        let mut name = String::with_capacity(48);
        match &self.tag {
            Some(tag) => {
                name.push_str("fence tagged `");
                name.push_str(tag);
                name.push('`');
            }
            None => name.push_str("untagged fence"),
        }
        name.push_str(" at line ");
        name.push_str(itoa::Buffer::new().format(self.line));
        if !self.closed {
            name.push_str(" (never closed)");
        }
        name
    }
}

impl Fence {
    /// Whether the fence's whole body is one dict or list literal — the answer written in
    /// the fence's language (`{"ok": True}` in a `python` fence), not code: one bracketed
    /// value and nothing around it, with no call, assignment or name in it other than
    /// literal words and keys. Linear: one pass over the body.
    pub fn holds_one_literal(&self, text: &str) -> bool {
        let body = text[self.content.0..self.content.1].trim();
        let bytes = body.as_bytes();
        matches!(bytes.first(), Some(b'{' | b'[')) && literal_closes_at_end(bytes)
    }
}

/// `[```json\n{"a":"b"}\n```]`: whether the value at `start..end` is the whole body of a
/// fence that sits inside a bracket pair, the fence's closing marker followed by the
/// closer at `closer`. The brackets wrap the fence, not the value: the value is the answer.
pub(crate) fn fenced_in_brackets(
    bytes: &[u8],
    (start, end): (usize, usize),
    closer: usize,
) -> bool {
    let between = &bytes[end..closer];
    let marker_after = trim_ascii(between);
    if !is_marker(marker_after) {
        return false;
    }
    let before = trim_ascii_end(&bytes[..start]);
    let tag = before
        .iter()
        .rposition(|b| !b.is_ascii_alphanumeric())
        .map_or(0, |at| at + 1);
    let marker_end = tag;
    let marker_start = bytes[..marker_end]
        .iter()
        .rposition(|&b| b != marker_after[0])
        .map_or(0, |at| at + 1);
    let opener_at = trim_ascii_end(&bytes[..marker_start]).len();
    if marker_end - marker_start < 3 || opener_at == 0 {
        return false;
    }
    let opener = bytes[opener_at - 1];
    matches!((opener, bytes[closer]), (b'[', b']') | (b'{', b'}'))
}

/// Whether a fence marker follows the opener at `at` (`[```json`): the bracket wraps a
/// fence, and the value is inside it.
pub(crate) fn opens_on_a_fence(bytes: &[u8], at: usize) -> bool {
    let rest = bytes[at + 1..].trim_ascii_start();
    let run = rest.iter().take_while(|&&b| b == b'`').count();
    let tildes = rest.iter().take_while(|&&b| b == b'~').count();
    run.max(tildes) >= 3
}

/// Three or more backticks, or tildes.
fn is_marker(run: &[u8]) -> bool {
    run.len() >= 3 && matches!(run[0], b'`' | b'~') && run.iter().all(|&b| b == run[0])
}

fn trim_ascii(bytes: &[u8]) -> &[u8] {
    trim_ascii_end(bytes.trim_ascii_start())
}

fn trim_ascii_end(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii_end()
}

/// Words a literal may hold outside strings: JSON's, Python's and JavaScript's constants.
const LITERAL_WORDS: [&[u8]; 10] = [
    b"true",
    b"false",
    b"null",
    b"True",
    b"False",
    b"None",
    b"NaN",
    b"Infinity",
    b"undefined",
    b"inf",
];

/// One pass over a bracketed body: strings (either quote) skipped, `#` and `//` comments
/// skipped; after the outer bracket closes only comments may follow, and nothing code-like
/// (a call, an assignment, a bare name that is not a key) may appear.
fn literal_closes_at_end(bytes: &[u8]) -> bool {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'"' | b'\'') => i = skip_quoted(bytes, i, quote),
            b'#' => i = skip_line(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_line(bytes, i),
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return only_comments(&bytes[i + 1..]);
                }
            }
            b'(' | b'=' | b';' => return false,
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let end = bytes[i..]
                    .iter()
                    .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
                    .map_or(bytes.len(), |n| i + n);
                let word = &bytes[i..end];
                let next = bytes[end..].iter().find(|c| !c.is_ascii_whitespace());
                let is_key = next == Some(&b':');
                let glued_to_number =
                    i > 0 && (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b'.');
                if !(is_key || glued_to_number || LITERAL_WORDS.contains(&word)) {
                    return false;
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The offset after the string opening at `at` with `quote` (the end of the body if it
/// never closes); `i` at the closing quote is the caller's next step.
fn skip_quoted(bytes: &[u8], at: usize, quote: u8) -> usize {
    let mut j = at + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b if b == quote => return j,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// Whether `rest` holds nothing but white space and `#` / `//` comments.
fn only_comments(rest: &[u8]) -> bool {
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            b if b.is_ascii_whitespace() => i += 1,
            b'#' => i = skip_line(rest, i),
            b'/' if rest.get(i + 1) == Some(&b'/') => i = skip_line(rest, i),
            _ => return false,
        }
    }
    true
}

fn skip_line(bytes: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n)
}

fn is_json_tag(tag: &str) -> bool {
    ["json", "jsonc", "json5"]
        .iter()
        .any(|known| tag.eq_ignore_ascii_case(known))
}

struct OpenFence {
    marker: u8,
    run: usize,
    start: usize,
    content_start: usize,
    tag: Option<String>,
    line: usize,
}

/// Every fence in `text`, in order.
pub(crate) fn find_fences(text: &str) -> Vec<Fence> {
    let bytes = text.as_bytes();
    // Every fence opens with a run of three backticks or tildes: a text without one has none.
    let has_run = memchr::memchr2_iter(b'`', b'~', bytes).any(|at| {
        bytes
            .get(at..at + 3)
            .is_some_and(|run| run[1] == run[0] && run[2] == run[0])
    });
    if !has_run {
        return Vec::new();
    }
    let mut fences = Vec::new();
    let mut open: Option<OpenFence> = None;
    let mut line_start = 0;
    let mut line_number = 1;
    while line_start <= bytes.len() {
        // A line with neither a backtick nor a tilde neither opens nor closes a fence: go
        // on from the line of the next one, counting the lines passed.
        let Some(marker) = memchr::memchr2(b'`', b'~', &bytes[line_start..]) else {
            break;
        };
        let passed = &bytes[line_start..line_start + marker];
        if let Some(last_break) = memchr::memrchr(b'\n', passed) {
            line_number += memchr::memchr_iter(b'\n', passed).count();
            line_start += last_break + 1;
        }
        let line_end = memchr_newline(bytes, line_start);
        let next_start = line_end + 1;
        // The line without its line ending (CRLF too).
        let mut body_end = line_end;
        if body_end > line_start && bytes[body_end - 1] == b'\r' {
            body_end -= 1;
        }
        let line = &text[line_start..body_end];
        match open.take() {
            None => {
                open = open_marker(
                    line,
                    line_start,
                    next_start.min(bytes.len()),
                    line_number,
                    &mut fences,
                )
            }
            Some(fence) => {
                if let Some(close_at) = closing_marker(line, fence.marker, fence.run) {
                    let content_end = if close_at == 0 {
                        line_start
                    } else {
                        line_start + close_at
                    };
                    fences.push(Fence {
                        outer: (fence.start, body_end),
                        content: (fence.content_start, content_end.max(fence.content_start)),
                        tag: fence.tag,
                        closed: true,
                        line: fence.line,
                    });
                } else {
                    open = Some(fence);
                }
            }
        }
        if line_end >= bytes.len() {
            break;
        }
        line_start = next_start;
        line_number += 1;
    }
    if let Some(fence) = open {
        fences.push(Fence {
            outer: (fence.start, bytes.len()),
            content: (fence.content_start.min(bytes.len()), bytes.len()),
            tag: fence.tag,
            closed: false,
            line: fence.line,
        });
    }
    fences
}

fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |i| from + i)
}

/// Length of the run of `marker` bytes at the start of `s`.
fn run_length(s: &[u8], marker: u8) -> usize {
    s.iter().take_while(|&&b| b == marker).count()
}

/// Recognise an opening marker on a line; a whole one-line fence is pushed at once.
fn open_marker(
    line: &str,
    line_start: usize,
    next_line_start: usize,
    line_number: usize,
    fences: &mut Vec<Fence>,
) -> Option<OpenFence> {
    let bytes = line.as_bytes();
    let indent = bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let (at, marker, run) = match bytes.get(indent) {
        Some(&m @ (b'`' | b'~')) if run_length(&bytes[indent..], m) >= 3 => {
            (indent, m, run_length(&bytes[indent..], m))
        }
        // Models also open a fence at the end of a prose line: "Here you go: ```json".
        _ => mid_line_opener(bytes)?,
    };
    let info = line[at + run..].trim();
    // A fence whose info string ends with a closing run is a whole fence on one line.
    if marker == b'`' && info.len() > 3 && info.ends_with("```") {
        let inner_end = line_start + at + run + line[at + run..].trim_end().len()
            - run_length_rev(info.as_bytes(), b'`');
        let after_open = line_start + at + run;
        let (tag, content_start) = split_tag(&line[at + run..], after_open);
        fences.push(Fence {
            outer: (line_start + at, line_start + line.len()),
            content: (content_start.min(inner_end), inner_end),
            tag,
            closed: true,
            line: line_number,
        });
        return None;
    }
    // Backtick info strings may not contain backticks (CommonMark); that is inline code.
    if marker == b'`' && info.contains('`') {
        return None;
    }
    let tag = info.split_whitespace().next().map(str::to_owned);
    Some(OpenFence {
        marker,
        run,
        start: line_start + at,
        content_start: next_line_start,
        tag,
        line: line_number,
    })
}

/// A run of 3+ backticks after prose, followed by nothing or one tag word.
fn mid_line_opener(bytes: &[u8]) -> Option<(usize, u8, usize)> {
    let at = bytes.windows(3).position(|w| w == b"```")?;
    let run = run_length(&bytes[at..], b'`');
    let rest = std::str::from_utf8(&bytes[at + run..]).ok()?.trim();
    let one_word = !rest.contains(char::is_whitespace) && !rest.contains('`');
    (rest.is_empty() || (one_word && is_json_tag(rest))).then_some((at, b'`', run))
}

fn run_length_rev(s: &[u8], marker: u8) -> usize {
    s.iter().rev().take_while(|&&b| b == marker).count()
}

/// Split "json {…} " into the tag and where the content starts.
fn split_tag(after_marker: &str, offset: usize) -> (Option<String>, usize) {
    let trimmed = after_marker.trim_start();
    let lead = after_marker.len() - trimmed.len();
    let word_len = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let word = &trimmed[..word_len];
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '+')
    {
        (Some(word.to_owned()), offset + lead + word_len)
    } else {
        (None, offset + lead)
    }
}

/// Where a closing marker starts on this line, if the line closes the fence.
fn closing_marker(line: &str, marker: u8, run: usize) -> Option<usize> {
    let trimmed_end = line.trim_end();
    let bytes = trimmed_end.as_bytes();
    let tail = run_length_rev(bytes, marker);
    if tail < run {
        return None;
    }
    let before = &trimmed_end[..bytes.len() - tail];
    if before.trim().is_empty() {
        return Some(0);
    }
    // "{"a": 1}```": a closing run glued to the last content line.
    (marker == b'`').then_some(bytes.len() - tail)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_fence_in_brackets_is_told_from_an_item() {
        let wrapped = |text: &str| {
            let start = text.find("{\"").unwrap();
            let end = text[start..].find('}').unwrap() + start + 1;
            let closer = text.rfind([']', '}']).unwrap();
            super::fenced_in_brackets(text.as_bytes(), (start, end), closer)
        };
        assert!(wrapped("[```json\n{\"a\":\"b\"}\n```]"));
        assert!(wrapped("{```\n{\"a\":\"b\"}\n```}"));
        assert!(wrapped("[ ~~~json\n{\"a\":\"b\"}\n~~~ ]"));
        assert!(!wrapped("[```json\n{\"a\":\"b\"}\n```}"));
        assert!(!wrapped("[{\"a\":\"b\"}]"));
        assert!(!wrapped("[1, ```\n{\"a\":\"b\"}\n```]"));
        assert!(!wrapped("[``\n{\"a\":\"b\"}\n``]"));
    }

    use super::*;

    fn contents(text: &str) -> Vec<(Option<String>, String, bool)> {
        find_fences(text)
            .into_iter()
            .map(|f| (f.tag, text[f.content.0..f.content.1].to_owned(), f.closed))
            .collect()
    }

    #[test]
    fn tagged_untagged_tilde_and_indented() {
        let text = "a\n```json\n{\"a\": 1}\n```\n~~~\n[1]\n~~~\n  ```JSON\n  {}\n  ```\n";
        assert_eq!(
            contents(text),
            vec![
                (Some("json".into()), "{\"a\": 1}\n".into(), true),
                (None, "[1]\n".into(), true),
                (Some("JSON".into()), "  {}\n".into(), true),
            ]
        );
    }

    #[test]
    fn crlf_single_line_and_unterminated() {
        assert_eq!(
            contents("```json\r\n{}\r\n```\r\n"),
            vec![(Some("json".into()), "{}\r\n".into(), true)]
        );
        assert_eq!(
            contents("```json {\"a\": 1} ```"),
            vec![(Some("json".into()), " {\"a\": 1} ".into(), true)]
        );
        assert_eq!(
            contents("```json\n{\"a\": [1,"),
            vec![(Some("json".into()), "{\"a\": [1,".into(), false)]
        );
    }

    #[test]
    fn an_info_string_does_not_close_and_inline_code_is_not_a_fence() {
        let text = "```json\n{\"code\": \"\n```python\n\"}\n```\nuse ```x``` here";
        let found = contents(text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "{\"code\": \"\n```python\n\"}\n");
    }

    #[test]
    fn mid_line_openers_and_glued_closers() {
        assert_eq!(
            contents("Here you go: ```json\n{\"a\": 1}```\nbye"),
            vec![(Some("json".into()), "{\"a\": 1}".into(), true)]
        );
    }

    #[test]
    fn lines_without_a_marker_are_passed_but_counted() {
        let text =
            "Intro\r\n\nmore `code` here\n~~~\n{\n  \"a\": 1\n}\n~~~\n\nnote\n  ```json\n[]\n  ```";
        let found: Vec<(usize, (usize, usize))> = find_fences(text)
            .iter()
            .map(|fence| (fence.line, fence.content))
            .collect();
        let second = text.find("[]").unwrap();
        assert_eq!(found, [(4, (29, 42)), (11, (second, second + 3))]);
    }

    #[test]
    fn many_unterminated_fences_are_found_in_one_pass() {
        let text = "```\n".repeat(1000);
        assert_eq!(find_fences(&text).len(), 500);
    }
}
