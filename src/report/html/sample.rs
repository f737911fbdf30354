//! A fixed number of items kept from a stream of any length, each item as likely as any
//! other to be kept (reservoir sampling), with the same choice on every run.

/// Keeps at most `cap` items, in the order they arrived.
#[derive(Debug)]
pub(super) struct Sample<T> {
    cap: usize,
    seen: usize,
    kept: Vec<(usize, T)>,
    state: u64,
}

impl<T> Sample<T> {
    pub(super) fn new(cap: usize) -> Sample<T> {
        Sample {
            cap,
            seen: 0,
            kept: Vec::new(),
            state: 0x9e37_79b9_7f4a_7c15,
        }
    }

    /// Whether the next item offered would be kept: call before building it, so an item
    /// that will not be kept costs nothing.
    pub(super) fn wants_next(&mut self) -> Option<usize> {
        self.seen += 1;
        if self.kept.len() < self.cap {
            return Some(self.kept.len());
        }
        let pick = (self.next_random() % self.seen as u64) as usize;
        (pick < self.cap).then_some(pick)
    }

    /// Keep `item` in the slot [`Sample::wants_next`] gave.
    pub(super) fn keep(&mut self, slot: usize, item: T) {
        let index = self.seen - 1;
        if slot == self.kept.len() {
            self.kept.push((index, item));
        } else {
            self.kept[slot] = (index, item);
        }
    }

    /// How many items were offered.
    pub(super) fn seen(&self) -> usize {
        self.seen
    }

    /// The items kept, in the order they arrived.
    pub(super) fn into_items(mut self) -> Vec<T> {
        self.kept.sort_by_key(|(index, _)| *index);
        self.kept.into_iter().map(|(_, item)| item).collect()
    }

    /// xorshift64*: fast, and the same sequence on every run.
    fn next_random(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(count: usize, cap: usize) -> (usize, Vec<usize>) {
        let mut sample = Sample::new(cap);
        for item in 0..count {
            if let Some(slot) = sample.wants_next() {
                sample.keep(slot, item);
            }
        }
        (sample.seen(), sample.into_items())
    }

    #[test]
    fn under_the_cap_everything_is_kept_in_order() {
        assert_eq!(sample(5, 10), (5, vec![0, 1, 2, 3, 4]));
    }

    #[test]
    fn over_the_cap_the_sample_spans_the_stream_in_order() {
        let (seen, kept) = sample(100_000, 100);
        assert_eq!((seen, kept.len()), (100_000, 100));
        assert!(kept.windows(2).all(|pair| pair[0] < pair[1]));
        // Evenly spread, not the first hundred: about half from each half of the stream.
        let late = kept.iter().filter(|item| **item >= 50_000).count();
        assert!(
            (30..=70).contains(&late),
            "{late} of 100 from the second half"
        );
    }
}
