//! Watching the raw text for what a caller may want to stop for, independently of where
//! the value stands: a runaway (decoding that loops on white space or one token) and a
//! refusal by its shape. Each watcher reads every byte once, or a bounded stretch.

use crate::refusal::{is_refusal, SHORT};

/// The default run, in bytes, of white space or one repeated token that is a runaway.
pub const DEFAULT_RUNAWAY_BYTES: usize = 512;
/// The longest repeated token looked for, in bytes.
const LONGEST_TOKEN: usize = 32;
/// A token repeats at least this many times in a runaway run.
const MIN_REPEATS: usize = 8;
/// How often (in bytes) the tail is checked for a repeated token.
const CHECK_EVERY: usize = 64;

/// A run of white space or of one repeated token past a bound.
#[derive(Debug)]
pub(super) struct Runaway {
    bound: usize,
    /// White space bytes in a row up to `seen`.
    spaces: usize,
    /// How far the text has been watched.
    seen: usize,
    /// Where the tail was last checked for a repeated token.
    checked: usize,
    /// The longest a repeated-token run ending at `checked` can be: a run grows by at most
    /// the bytes that arrive, so no check is needed until this could reach the bound.
    longest: usize,
    fired: bool,
}

impl Runaway {
    pub(super) fn new(bound: usize) -> Runaway {
        Runaway {
            bound: bound.max(1),
            spaces: 0,
            seen: 0,
            checked: 0,
            longest: 0,
            fired: false,
        }
    }

    /// Watch the bytes of `text` not seen yet; the byte at which a runaway became certain,
    /// the first time one does.
    pub(super) fn watch(&mut self, text: &[u8]) -> Option<usize> {
        if self.fired {
            self.seen = text.len();
            return None;
        }
        if let Some(at) = self.spaces_reach_bound(&text[self.seen..]) {
            self.fired = true;
            self.seen = text.len();
            return Some(at);
        }
        self.seen = text.len();
        if text.len() >= self.checked + CHECK_EVERY && text.len() >= self.bound {
            let arrived = text.len() - self.checked;
            self.checked = text.len();
            if self.longest + arrived < self.bound {
                self.longest += arrived;
                return None;
            }
            match self.repeated_tail(text) {
                Ok(at) => {
                    self.fired = true;
                    return Some(at);
                }
                Err(longest) => self.longest = longest,
            }
        }
        None
    }

    /// Count the white space run through `new` (the bytes after `seen`); the offset of the
    /// byte where it reached the bound, relative to the whole text, when it did. Only the
    /// chunk's ends and every `bound`-th byte are looked at: a run of `bound` bytes inside
    /// the chunk covers one of those.
    fn spaces_reach_bound(&mut self, new: &[u8]) -> Option<usize> {
        // Most chunks begin and end with something else: the run is over, none reached.
        if let (Some(first), Some(last)) = (new.first(), new.last()) {
            if !first.is_ascii_whitespace()
                && !last.is_ascii_whitespace()
                && new.len() <= self.bound
            {
                self.spaces = 0;
                return None;
            }
        }
        let start = self.seen;
        let leading = new.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if self.spaces + leading >= self.bound {
            return Some(start + self.bound - self.spaces - 1);
        }
        if leading == new.len() {
            self.spaces += leading;
            return None;
        }
        let mut probe = leading + self.bound;
        while probe < new.len() {
            if new[probe].is_ascii_whitespace() {
                let before = new[..probe]
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
                let run_start = probe - before;
                let after = new[probe..]
                    .iter()
                    .take(self.bound - before)
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
                if before + after >= self.bound {
                    return Some(start + run_start + self.bound - 1);
                }
            }
            probe += self.bound;
        }
        self.spaces = new
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        None
    }

    /// Whether `text` ends in one token repeated over at least the bound: where the run
    /// reached the bound; if not, the longest run of any period that ends it (at least
    /// [`LONGEST_TOKEN`]: a period not tried is a run of its own length). Only the periods
    /// whose byte equals the last byte are tried (found by one search of the window), each
    /// given up at its first mismatch from the end.
    fn repeated_tail(&self, text: &[u8]) -> Result<usize, usize> {
        let Some((&last, before)) = text.split_last() else {
            return Err(LONGEST_TOKEN);
        };
        let window = &before[before.len() - LONGEST_TOKEN.min(before.len())..];
        let mut longest = LONGEST_TOKEN;
        // Nearest first: the shortest period that repeats is the token.
        for at in memchr::memrchr_iter(last, window) {
            let period = window.len() - at;
            // Each byte against the one a period later, from the end back.
            let same = text[..text.len() - period]
                .iter()
                .rev()
                .zip(text[period..].iter().rev())
                .take_while(|(a, b)| a == b)
                .count();
            let run = same + period;
            if run >= self.bound && run >= MIN_REPEATS * period {
                return Ok(text.len() - run + self.bound - 1);
            }
            longest = longest.max(run);
        }
        Err(longest)
    }
}

/// A refusal by its shape, judged at sentence ends while the text is short and no value
/// has begun (a refusal is short and holds no JSON).
#[derive(Debug, Default)]
pub(super) struct Refusal {
    fired: bool,
}

impl Refusal {
    /// Whether `text` so far reads as a refusal, the first time it does.
    pub(super) fn watch(&mut self, text: &str, value_begun: bool) -> bool {
        if self.fired || value_begun || text.len() > SHORT {
            return false;
        }
        let ends_a_sentence = text
            .trim_end_matches([' ', '\t'])
            .ends_with(['.', '!', '?', '\n', '。', '！', '？']);
        if ends_a_sentence && is_refusal(text) {
            self.fired = true;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a byte-by-byte count of white space first reaches `bound`.
    fn first_run(text: &[u8], bound: usize) -> Option<usize> {
        let mut run = 0;
        text.iter().position(|b| {
            run = if b.is_ascii_whitespace() { run + 1 } else { 0 };
            run == bound
        })
    }

    #[test]
    fn white_space_runs_are_found_where_a_byte_by_byte_count_finds_them() {
        let bound = 16;
        let mut seed = 7u64;
        for case in 0..400 {
            // Text of words and runs of every length around the bound.
            let mut text = Vec::new();
            while text.len() < 200 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let run = (seed >> 33) as usize % (bound + 4);
                text.extend(std::iter::repeat_n(b' ', run));
                text.extend_from_slice(b"word");
            }
            let chunk = 1 + case % 50;
            let mut runaway = Runaway::new(bound);
            let mut found = None;
            let mut seen = 0;
            while seen < text.len() && found.is_none() {
                let end = (seen + chunk).min(text.len());
                // Only white space: the repeated-token check must not answer first.
                runaway.checked = usize::MAX / 2;
                found = runaway.watch(&text[..end]);
                seen = end;
            }
            assert_eq!(
                found,
                first_run(&text, bound),
                "case {case}, chunks of {chunk}"
            );
        }
    }

    /// Every period tried from the shortest: the answer `repeated_tail` must give.
    fn every_period(text: &[u8], bound: usize) -> Option<usize> {
        (1..=LONGEST_TOKEN.min(text.len() - 1)).find_map(|period| {
            let same = (period..text.len())
                .rev()
                .take_while(|&i| text[i] == text[i - period])
                .count();
            let run = same + period;
            (run >= bound && run >= MIN_REPEATS * period).then(|| text.len() - run + bound - 1)
        })
    }

    #[test]
    fn a_repeated_token_is_found_as_trying_every_period_finds_it() {
        let mut seed = 11u64;
        let mut runaways = 0;
        for case in 0..300 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let period = 1 + (seed >> 33) as usize % 40;
            let token: Vec<u8> = (0..period)
                .map(|k| b"ab ab\t\n"[(k * 7 + case) % 7])
                .collect();
            let mut text = b"prefix text ".to_vec();
            let repeats = (seed >> 40) as usize % 30;
            for _ in 0..repeats {
                text.extend_from_slice(&token);
            }
            text.extend_from_slice(&token[..(seed >> 50) as usize % period]);
            let expected = every_period(&text, 64);
            runaways += usize::from(expected.is_some());
            assert_eq!(
                Runaway::new(64).repeated_tail(&text).ok(),
                expected,
                "case {case}"
            );
        }
        assert!(runaways > 50, "{runaways} runaways among the cases");
    }

    #[test]
    fn a_check_is_skipped_only_where_no_run_can_have_reached_the_bound() {
        let mut seed = 5u64;
        let mut next = |below: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % below
        };
        let mut runaways = 0;
        for case in 0..300 {
            // Words that never repeat, runs of a token of every period, more words.
            let mut text = Vec::new();
            while text.len() < 1500 {
                if next(3) == 0 {
                    let period = 1 + next(36);
                    let token: Vec<u8> = (0..period).map(|_| b"ab \n{\"1"[next(7)]).collect();
                    for _ in 0..next(120) {
                        text.extend_from_slice(&token);
                    }
                } else {
                    text.extend_from_slice(format!("w{} ", next(100_000)).as_bytes());
                }
            }
            let bound = [64, 200, 512][case % 3];
            let chunk = 1 + next(90);
            let (mut skipping, mut every) = (Runaway::new(bound), Runaway::new(bound));
            let (mut found, mut expected) = (None, None);
            for end in (chunk..text.len()).step_by(chunk) {
                found = found.or(skipping.watch(&text[..end]));
                // Checked at every check point.
                every.longest = usize::MAX / 2;
                expected = expected.or(every.watch(&text[..end]));
            }
            runaways += usize::from(expected.is_some());
            assert_eq!(
                found, expected,
                "case {case}, bound {bound}, chunks of {chunk}"
            );
        }
        assert!(runaways > 50, "{runaways} runaways among the cases");
    }
}
