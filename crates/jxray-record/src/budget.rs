//! The memory the proxy may hold for captures, all exchanges together.
//!
//! Each exchange's copies are bounded by their side's limit, but many exchanges at once
//! would still add up; every byte of capacity held for a copy (the teed bodies, a decoded
//! body) is taken from one [`Budget`] first, and a copy that cannot get its bytes is not
//! kept. Capacity, not length, is counted: what a `Vec` reserved is what the process holds.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The bytes all copies together may hold.
#[derive(Debug)]
pub struct Budget {
    limit: usize,
    used: AtomicUsize,
}

impl Budget {
    pub fn new(limit: usize) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            used: AtomicUsize::new(0),
        })
    }

    /// The bytes held now, by every copy.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    fn take(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                used.checked_add(bytes).filter(|&total| total <= self.limit)
            })
            .is_ok()
    }

    fn give_back(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::SeqCst);
    }
}

/// Bytes taken from a budget for memory that is not a buffer of ours (a parsed JSON
/// body), given back when dropped.
#[derive(Debug)]
pub struct Reserved {
    budget: Arc<Budget>,
    bytes: usize,
}

impl Budget {
    /// `bytes` from the budget for as long as the reservation lives, or `None` when it
    /// has no room.
    pub fn reserve(self: &Arc<Budget>, bytes: usize) -> Option<Reserved> {
        self.take(bytes).then(|| Reserved {
            budget: self.clone(),
            bytes,
        })
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        self.budget.give_back(self.bytes);
    }
}

/// A buffer whose capacity is taken from a budget, and given back when it is dropped.
#[derive(Debug)]
pub struct Held {
    budget: Arc<Budget>,
    bytes: Vec<u8>,
    /// The capacity taken from the budget (at least `bytes.capacity()`).
    taken: usize,
    /// The most this buffer may hold.
    limit: usize,
}

/// Why bytes could not be added to a [`Held`] buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Past the buffer's own limit.
    OverLimit,
    /// The budget shared by every exchange has no room left.
    OverBudget,
}

impl Held {
    /// An empty buffer of at most `limit` bytes.
    pub fn new(budget: &Arc<Budget>, limit: usize) -> Held {
        Held {
            budget: budget.clone(),
            bytes: Vec::new(),
            taken: 0,
            limit,
        }
    }

    /// Append `data`. Capacity grows by doubling but never past the limit, and is taken
    /// from the budget before it is allocated (the old block and the new one together,
    /// while the bytes move).
    pub fn extend(&mut self, data: &[u8]) -> Result<(), Refused> {
        let needed = self.bytes.len().saturating_add(data.len());
        if needed > self.limit {
            return Err(Refused::OverLimit);
        }
        if needed > self.bytes.capacity() {
            let grown = needed
                .max(self.bytes.capacity().saturating_mul(2))
                .max(4096)
                .min(self.limit);
            if grown > self.taken {
                // Moving to a larger block holds both for a moment: both are counted.
                if !self.budget.take(grown) {
                    return Err(Refused::OverBudget);
                }
                self.bytes.reserve_exact(grown - self.bytes.len());
                self.budget
                    .give_back(std::mem::replace(&mut self.taken, grown));
            } else {
                self.bytes.reserve_exact(grown - self.bytes.len());
            }
        }
        self.bytes.extend_from_slice(data);
        Ok(())
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    pub fn budget(&self) -> &Arc<Budget> {
        &self.budget
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.bytes
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Edit the bytes in place (a redaction: about as long), keeping the budget's count
    /// honest.
    pub fn edit<R>(&mut self, edit: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        let result = edit(&mut self.bytes);
        self.recount();
        result
    }

    /// Move the bytes (and what they took from the budget) out, leaving this empty.
    pub fn take(&mut self) -> Held {
        let taken = std::mem::take(&mut self.taken);
        Held {
            budget: self.budget.clone(),
            bytes: std::mem::take(&mut self.bytes),
            taken,
            limit: self.limit,
        }
    }

    fn recount(&mut self) {
        let capacity = self.bytes.capacity();
        if capacity > self.taken {
            // An edit may grow the copy a little; it is counted even past the budget,
            // since the bytes already exist.
            self.budget
                .used
                .fetch_add(capacity - self.taken, Ordering::SeqCst);
        } else {
            self.budget.give_back(self.taken - capacity);
        }
        self.taken = capacity;
    }

    /// Empty the buffer and give its capacity back.
    pub fn clear(&mut self) {
        self.bytes = Vec::new();
        self.budget.give_back(std::mem::take(&mut self.taken));
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_taken_from_the_budget_and_given_back() {
        let budget = Budget::new(9000);
        let mut first = Held::new(&budget, 6000);
        first.extend(&[1; 5000]).unwrap();
        assert_eq!(budget.used(), 5000);
        assert!(budget.used() >= 5000 && budget.used() <= 6000);
        assert!(first.as_slice().len() == 5000);
        let mut second = Held::new(&budget, 6000);
        assert_eq!(second.extend(&[2; 5000]), Err(Refused::OverBudget));
        drop(first);
        assert_eq!(budget.used(), 0);
        second.extend(&[2; 5000]).unwrap();
        assert_eq!(second.extend(&[2; 1001]), Err(Refused::OverLimit));
    }

    #[test]
    fn a_reservation_holds_its_bytes_until_dropped() {
        let budget = Budget::new(100);
        let first = budget.reserve(60).unwrap();
        assert!(budget.reserve(60).is_none());
        drop(first);
        assert!(budget.reserve(60).is_some());
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn growth_never_reserves_past_the_limit() {
        let budget = Budget::new(usize::MAX);
        let mut held = Held::new(&budget, 10_000);
        for _ in 0..100 {
            held.extend(&[0; 100]).unwrap();
        }
        assert_eq!(held.len(), 10_000);
        assert!(budget.used() <= 10_000, "{}", budget.used());
    }
}
