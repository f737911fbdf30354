//! Reasoning blocks (`<think>…</think>`) that models put before the answer.
//!
//! JSON inside a reasoning block is the model thinking aloud, never the
//! answer, so these regions are skipped by the fenced and scanned layers.

/// Tags that open and close a reasoning block: `<think>` (DeepSeek R1, Qwen), `<thinking>`,
/// and the names prompts give a scratch area (`<reasoning>`, `<scratchpad>`, `<reflection>`).
const TAGS: [(&[u8], bool); 10] = [
    (b"<think>", true),
    (b"<thinking>", true),
    (b"<reasoning>", true),
    (b"<scratchpad>", true),
    (b"<reflection>", true),
    (b"</think>", false),
    (b"</thinking>", false),
    (b"</reasoning>", false),
    (b"</scratchpad>", false),
    (b"</reflection>", false),
];

/// The reasoning blocks of a text.
#[derive(Debug, Default)]
pub(crate) struct ThinkBlocks {
    /// Byte ranges of every block, in order, including the tags.
    pub blocks: Vec<(usize, usize)>,
    /// Where the block that is never closed opens: the text ends inside it.
    pub open_at_end: Option<usize>,
}

/// Every reasoning block, and whether the text ends inside one.
///
/// A closing tag with no opening tag (some servers strip the opener) makes
/// everything before it reasoning; an opening tag that is never closed runs
/// to the end of the text. One pass over the bytes, looking only at `<`.
pub(crate) fn find_reasoning(text: &str) -> ThinkBlocks {
    let bytes = text.as_bytes();
    let mut blocks = Vec::new();
    // Where the next headless block would start, and the open tag if any.
    let mut from = 0;
    let mut open: Option<usize> = None;
    let mut i = 0;
    while let Some(at) = memchr::memchr(b'<', &bytes[i..]) {
        let at = i + at;
        let tag = TAGS.iter().find(|(tag, _)| bytes[at..].starts_with(tag));
        i = at + 1;
        let Some(&(tag, opens)) = tag else {
            continue;
        };
        let end = at + tag.len();
        match (open, opens) {
            (None, true) => open = Some(at),
            (Some(start), false) => {
                blocks.push((start, end));
                open = None;
                from = end;
            }
            (None, false) => {
                blocks.push((from, end));
                from = end;
            }
            // A second opener inside an open block changes nothing.
            (Some(_), true) => {}
        }
        i = end;
    }
    if let Some(start) = open {
        blocks.push((start, bytes.len()));
    }
    ThinkBlocks {
        blocks,
        open_at_end: open,
    }
}

#[cfg(test)]
mod tests {
    use super::find_reasoning;

    fn find_think_blocks(text: &str) -> Vec<(usize, usize)> {
        find_reasoning(text).blocks
    }

    #[test]
    fn closed_unclosed_and_headless_blocks() {
        let text = "<think>a {\"x\":1}</think>\n{\"a\": 1}";
        assert_eq!(find_think_blocks(text), vec![(0, 24)]);
        assert_eq!(find_think_blocks("ok <think>never ends"), vec![(3, 20)]);
        assert_eq!(find_think_blocks("reasoning\n</think>\n{}"), vec![(0, 18)]);
        assert_eq!(
            find_think_blocks("<thinking>x</thinking><think>y</think>"),
            vec![(0, 22), (22, 38)]
        );
        assert!(find_think_blocks("{\"a\": 1}").is_empty());
        assert_eq!(find_reasoning("x <think>never ends").open_at_end, Some(2));
        assert_eq!(find_reasoning("<think>a</think>{}").open_at_end, None);
        assert_eq!(find_reasoning("a</think>{}").open_at_end, None);
        assert_eq!(
            find_think_blocks("<reasoning>{\"d\": 1}</reasoning>{}"),
            vec![(0, 31)]
        );
        assert_eq!(
            find_think_blocks("<scratchpad>a</scratchpad><reflection>b</reflection>"),
            vec![(0, 26), (26, 52)]
        );
    }
}
