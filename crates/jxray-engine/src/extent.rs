//! Where a failed candidate would have ended, had it been valid.
//!
//! A `{` or `[` after the point where a candidate failed may still be inside
//! it (`{"a": 1 "b": {"c": 2}}`); offering `{"c": 2}` as the answer would
//! return a fragment of a larger value. A stray opener in prose (`{"` junk)
//! never closes, and must not hide the value after it. Bracket depth tells
//! the two apart.
//!
//! Depth here ignores strings (beyond the failure point nothing is known
//! about them), so it is a careful guess, not a parse. Per 64-byte block it
//! keeps the depth at the block's start and the minimum depth inside it, plus
//! suffix minima, so every question costs O(1) to "never closes" or a walk
//! that the caller then skips over: linear in total, ~n/5 bytes of memory.

use super::swar::{equal, splat, word_of};

const BLOCK: usize = 64;

pub(crate) struct Depths {
    /// Depth before the first byte of each block.
    start: Vec<i32>,
    /// Lowest depth before any byte of each block.
    low: Vec<i32>,
    /// Lowest depth in this block or any later one (and at the very end).
    suffix_low: Vec<i32>,
    /// Depth after the last byte.
    end: i32,
    /// Per-byte depths of the block asked about last: questions move forward,
    /// so each block is expanded at most about once.
    block: Block,
}

struct Block {
    index: usize,
    len: usize,
    /// Depth before each byte of the block.
    before: [i32; BLOCK],
    /// Lowest of `before[k..len]`.
    low_from: [i32; BLOCK],
}

static DELTA: [i8; 256] = {
    let mut table = [0i8; 256];
    table[b'{' as usize] = 1;
    table[b'[' as usize] = 1;
    table[b'}' as usize] = -1;
    table[b']' as usize] = -1;
    table
};

/// Depth change per byte, as a table: this is the hot loop on adversarial input.
fn delta(byte: u8) -> i32 {
    i32::from(DELTA[usize::from(byte)])
}

/// Whether any of up to eight bytes is a bracket: most runs of text hold none, and are
/// passed over a word at a time. (`[` `]` `{` `}` are 0x5b 0x5d 0x7b 0x7d: with bit 0x20
/// cleared, 0x5b or 0x5d. The bit tricks may flag a word without one, never miss one.)
fn has_bracket(bytes: &[u8]) -> bool {
    let folded = word_of(bytes) & !splat(0x20);
    equal(folded, 0x5b) | equal(folded, 0x5d) != 0
}

impl Depths {
    pub(crate) fn new(bytes: &[u8]) -> Depths {
        let blocks = bytes.len().div_ceil(BLOCK);
        let mut start = Vec::with_capacity(blocks);
        let mut low = Vec::with_capacity(blocks);
        let mut depth = 0i32;
        for chunk in bytes.chunks(BLOCK) {
            start.push(depth);
            let mut lowest = depth;
            // The lowest depth before any byte: only a closer lowers it, and the last
            // byte's change shows in the next block.
            let (last, body) = chunk
                .split_last()
                .map_or((0, chunk), |(&last, body)| (last, body));
            for eight in body.chunks(8).filter(|eight| has_bracket(eight)) {
                for &byte in eight {
                    depth += delta(byte);
                    if byte & 0xdf == b']' {
                        lowest = lowest.min(depth);
                    }
                }
            }
            depth += delta(last);
            low.push(lowest);
        }
        let mut suffix_low = vec![depth; blocks];
        let mut running = depth;
        for b in (0..blocks).rev() {
            running = running.min(low[b]);
            suffix_low[b] = running;
        }
        Depths {
            start,
            low,
            suffix_low,
            end: depth,
            block: Block {
                index: usize::MAX,
                len: 0,
                before: [0; BLOCK],
                low_from: [0; BLOCK],
            },
        }
    }

    fn expand(&mut self, bytes: &[u8], index: usize) -> &Block {
        if self.block.index != index {
            let chunk = &bytes[index * BLOCK..((index + 1) * BLOCK).min(bytes.len())];
            let block = &mut self.block;
            block.index = index;
            block.len = chunk.len();
            let mut depth = self.start[index];
            for (k, &byte) in chunk.iter().enumerate() {
                block.before[k] = depth;
                depth += delta(byte);
            }
            let mut lowest = i32::MAX;
            for k in (0..chunk.len()).rev() {
                lowest = lowest.min(block.before[k]);
                block.low_from[k] = lowest;
            }
        }
        &self.block
    }

    /// Depth before byte `at`.
    pub(crate) fn depth_at(&mut self, bytes: &[u8], at: usize) -> i32 {
        if at >= bytes.len() {
            return self.end;
        }
        self.expand(bytes, at / BLOCK).before[at % BLOCK]
    }

    /// The first position at or after `from` where the depth is back to `target`
    /// (the candidate's closing bracket has been passed), or None if it never is.
    pub(crate) fn closes_at(&mut self, bytes: &[u8], from: usize, target: i32) -> Option<usize> {
        if from >= bytes.len() {
            return (self.end <= target).then_some(bytes.len());
        }
        let mut index = from / BLOCK;
        let mut k = from % BLOCK;
        loop {
            let later = self.suffix_low.get(index + 1).copied().unwrap_or(self.end);
            let block = self.expand(bytes, index);
            if block.low_from[k] <= target {
                let found = (k..block.len).find(|&j| block.before[j] <= target)?;
                return Some(index * BLOCK + found);
            }
            if later > target {
                return None;
            }
            // Some later block (or the very end) gets back down: find it.
            index += 1;
            k = 0;
            while index < self.low.len() && self.low[index] > target {
                index += 1;
            }
            if index >= self.low.len() {
                return Some(bytes.len());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Depths;

    #[test]
    fn every_bracket_is_seen_in_any_word() {
        for byte in 0..=255u8 {
            let bracket = matches!(byte, b'[' | b']' | b'{' | b'}');
            for fill in [b'a', b' ', 0x00, 0xff] {
                for at in 0..8 {
                    let mut word = [fill; 8];
                    word[at] = byte;
                    for len in at + 1..=8 {
                        let seen = super::has_bracket(&word[..len]);
                        assert!(seen || !bracket, "{byte:#x} at {at} of {len}");
                    }
                }
            }
        }
        assert!(!super::has_bracket(b"abc: 12,"));
        assert!(!super::has_bracket(b"xyz"));
    }

    #[test]
    fn finds_where_a_failed_value_closes() {
        let text = "x {\"a\": 1 \"b\": {\"c\": 2}} {\"d\": 3}";
        let bytes = text.as_bytes();
        let mut depths = Depths::new(bytes);
        let start = 2;
        let target = depths.depth_at(bytes, start);
        // Failure at the missing comma; the value closes after "}}".
        let end = depths.closes_at(bytes, 10, target).unwrap();
        assert_eq!(&text[..end], "x {\"a\": 1 \"b\": {\"c\": 2}}");
    }

    #[test]
    fn a_stray_opener_never_closes_even_across_many_blocks() {
        let text = format!("{{\" junk {} {{\"a\": 1}}", "word ".repeat(100));
        let bytes = text.as_bytes();
        let mut depths = Depths::new(bytes);
        assert_eq!(depths.closes_at(bytes, 3, 0), None);
        let long = "{".repeat(10_000);
        let mut depths = Depths::new(long.as_bytes());
        for start in [0, 1, 500, 9_999] {
            assert_eq!(
                depths.closes_at(long.as_bytes(), start + 1, start as i32),
                None
            );
        }
    }

    #[test]
    fn block_jumps_agree_with_a_plain_walk() {
        let text = format!("[{}{}]", "[1, {\"a\": [2]}], ".repeat(40), "x".repeat(130));
        let bytes = text.as_bytes();
        let mut depths = Depths::new(bytes);
        for from in 1..bytes.len() {
            let mut depth = depths.depth_at(bytes, from);
            let mut plain = None;
            for (j, &b) in bytes.iter().enumerate().skip(from) {
                if depth <= 0 {
                    plain = Some(j);
                    break;
                }
                depth += super::delta(b);
            }
            if plain.is_none() && depth <= 0 {
                plain = Some(bytes.len());
            }
            assert_eq!(depths.closes_at(bytes, from, 0), plain, "from {from}");
        }
    }
}
