//! Eight bytes at a time: tests on a 64-bit word's bytes for the loops that skip runs of
//! plain text. A test may flag a word for a byte that does not match (past one that does),
//! never miss one; the caller's byte-by-byte loop decides.

/// `byte` in each of the eight bytes of a word.
pub(crate) const fn splat(byte: u8) -> u64 {
    u64::from_le_bytes([byte; 8])
}

/// Up to eight bytes as a word, the missing ones zero.
pub(crate) fn word_of(bytes: &[u8]) -> u64 {
    if let Ok(eight) = <[u8; 8]>::try_from(bytes) {
        return u64::from_le_bytes(eight);
    }
    let mut word = [0u8; 8];
    let len = bytes.len().min(8);
    word[..len].copy_from_slice(&bytes[..len]);
    u64::from_le_bytes(word)
}

/// The high bit of each byte of `word` below `bound` (at most 0x80): nonzero when any is.
pub(crate) fn below(word: u64, bound: u8) -> u64 {
    word.wrapping_sub(splat(bound)) & !word & splat(0x80)
}

/// The high bit of each byte of `word` that is `byte`: nonzero when any is.
pub(crate) fn equal(word: u64, byte: u8) -> u64 {
    below(word ^ splat(byte), 1)
}
