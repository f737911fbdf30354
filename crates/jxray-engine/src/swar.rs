//! Eight bytes at a time: tests on a 64-bit word's bytes for the loops that skip runs of
//! plain text. A test may flag a word for a byte that does not match (past one that does),
//! never miss one; the caller's byte-by-byte loop decides.

/// `byte` in each of the eight bytes of a word.
pub(crate) const fn splat(byte: u8) -> u64 {
    u64::from_le_bytes([byte; 8])
}

/// Up to eight bytes as a word, the missing ones zero.
pub(crate) fn word_of(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    let len = bytes.len().min(8);
    word[..len].copy_from_slice(&bytes[..len]);
    u64::from_le_bytes(word)
}

/// Whether a byte of `word` is below `bound` (at most 0x80).
pub(crate) fn has_below(word: u64, bound: u8) -> bool {
    word.wrapping_sub(splat(bound)) & !word & splat(0x80) != 0
}

/// Whether a byte of `word` is `byte`.
pub(crate) fn has_byte(word: u64, byte: u8) -> bool {
    has_below(word ^ splat(byte), 1)
}
