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
}

fn delta(byte: u8) -> i32 {
    match byte {
        b'{' | b'[' => 1,
        b'}' | b']' => -1,
        _ => 0,
    }
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
            for &byte in chunk {
                lowest = lowest.min(depth);
                depth += delta(byte);
            }
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
        }
    }

    /// Depth before byte `at`.
    pub(crate) fn depth_at(&self, bytes: &[u8], at: usize) -> i32 {
        let at = at.min(bytes.len());
        if at == bytes.len() {
            return self.end;
        }
        let block = at / BLOCK;
        self.start[block]
            + bytes[block * BLOCK..at]
                .iter()
                .map(|&b| delta(b))
                .sum::<i32>()
    }

    /// The first position at or after `from` where the depth is back to `target`
    /// (the candidate's closing bracket has been passed), or None if it never is.
    pub(crate) fn closes_at(&self, bytes: &[u8], from: usize, target: i32) -> Option<usize> {
        let mut j = from.min(bytes.len());
        let mut depth = self.depth_at(bytes, j);
        loop {
            if depth <= target {
                return Some(j);
            }
            if j >= bytes.len() {
                return None;
            }
            if j.is_multiple_of(BLOCK) {
                let block = j / BLOCK;
                if self.suffix_low[block] > target {
                    return None;
                }
                if self.low[block] > target {
                    j = (j + BLOCK).min(bytes.len());
                    depth = self.start.get(block + 1).copied().unwrap_or(self.end);
                    continue;
                }
            }
            depth += delta(bytes[j]);
            j += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Depths;

    #[test]
    fn finds_where_a_failed_value_closes() {
        let text = "x {\"a\": 1 \"b\": {\"c\": 2}} {\"d\": 3}";
        let bytes = text.as_bytes();
        let depths = Depths::new(bytes);
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
        let depths = Depths::new(bytes);
        assert_eq!(depths.closes_at(bytes, 3, 0), None);
        let long = "{".repeat(10_000);
        let depths = Depths::new(long.as_bytes());
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
        let depths = Depths::new(bytes);
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
