//! Reasoning blocks (`<think>…</think>`) that models put before the answer.
//!
//! JSON inside a reasoning block is the model thinking aloud, never the
//! answer, so these regions are skipped by the fenced and scanned layers.

const OPENERS: [&str; 2] = ["<think>", "<thinking>"];
const CLOSERS: [&str; 2] = ["</think>", "</thinking>"];

/// Byte ranges of every reasoning block, in order, including the tags.
///
/// A closing tag with no opening tag (some servers strip the opener) makes
/// everything before it reasoning; an opening tag that is never closed runs
/// to the end of the text.
pub(crate) fn find_think_blocks(text: &str) -> Vec<(usize, usize)> {
    let mut openers = NextMatch::new(&OPENERS);
    let mut closers = NextMatch::new(&CLOSERS);
    let mut blocks = Vec::new();
    let mut from = 0;
    loop {
        let open = openers.at_or_after(text, from);
        let close = closers.at_or_after(text, from);
        match (open, close) {
            (Some((open, open_len)), close) if close.is_none_or(|(c, _)| open < c) => {
                match closers.at_or_after(text, open + open_len) {
                    Some((close, close_len)) => {
                        blocks.push((open, close + close_len));
                        from = close + close_len;
                    }
                    None => {
                        blocks.push((open, text.len()));
                        return blocks;
                    }
                }
            }
            (_, Some((close, close_len))) => {
                blocks.push((from, close + close_len));
                from = close + close_len;
            }
            _ => return blocks,
        }
    }
}

/// The next match of any of several needles, remembered per needle so that
/// each needle's search only ever moves forward (linear in the text).
struct NextMatch<'n> {
    needles: &'n [&'n str],
    /// Per needle: not searched yet, or its next match from the last search (None: no more).
    cached: Vec<Option<Option<usize>>>,
}

impl<'n> NextMatch<'n> {
    fn new(needles: &'n [&'n str]) -> Self {
        NextMatch {
            needles,
            cached: vec![None; needles.len()],
        }
    }

    fn at_or_after(&mut self, text: &str, from: usize) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        for (needle, cached) in self.needles.iter().zip(self.cached.iter_mut()) {
            let stale = match cached {
                None => true,
                Some(Some(at)) => *at < from,
                Some(None) => false,
            };
            if stale {
                let found = text
                    .get(from..)
                    .and_then(|rest| rest.find(needle))
                    .map(|at| from + at);
                *cached = Some(found);
            }
            if let Some(Some(at)) = cached {
                if best.is_none_or(|(b, _)| *at < b) {
                    best = Some((*at, needle.len()));
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::find_think_blocks;

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
    }
}
