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

/// How many characters UTF-8 `bytes` hold: the bytes that do not continue one (`10xxxxxx`),
/// counted eight at a time.
pub(crate) fn char_count(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut continuing = 0;
    for chunk in &mut chunks {
        continuing += continuing_in(word_of(chunk));
    }
    continuing += chunks
        .remainder()
        .iter()
        .filter(|&&byte| continues(byte))
        .count();
    bytes.len() - continuing
}

/// How many UTF-16 code units UTF-8 `bytes` hold: one for each character, one more for each
/// that takes four bytes (a lead byte `11110xxx`), counted eight bytes at a time in one pass.
pub(crate) fn utf16_units(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let (mut continuing, mut four_byte) = (0, 0);
    for chunk in &mut chunks {
        let word = word_of(chunk);
        continuing += continuing_in(word);
        // Bits 6, 5 and 4 moved up to bit 7: all four set, the byte leads four.
        four_byte +=
            (word & (word << 1) & (word << 2) & (word << 3) & splat(0x80)).count_ones() as usize;
    }
    for &byte in chunks.remainder() {
        continuing += usize::from(continues(byte));
        four_byte += usize::from(byte >= 0xF0);
    }
    bytes.len() - continuing + four_byte
}

/// The bytes of `word` that continue a character.
fn continuing_in(word: u64) -> usize {
    // A byte's bit 6 moves up to its bit 7: set there and clear here, it continues.
    (word & !(word << 1) & splat(0x80)).count_ones() as usize
}

fn continues(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::{char_count, utf16_units};

    #[test]
    fn utf16_units_are_counted_from_the_bytes() {
        let long = "😀".repeat(200) + &"é".repeat(300) + "中\u{10FFFF}z";
        for text in [
            "",
            "ascii text here",
            "é",
            "中文",
            "😀",
            "a😀é中\u{10FFFF}z",
            &long,
        ] {
            for start in 0..text.len() {
                let Some(tail) = text.get(start..) else {
                    continue;
                };
                assert_eq!(
                    utf16_units(tail.as_bytes()),
                    tail.encode_utf16().count(),
                    "{tail:?}"
                );
            }
        }
    }

    #[test]
    fn char_count_counts_characters() {
        for text in [
            "",
            "a",
            "é",
            "ab\ncé\n\nxyz",
            "😀 partial ⚠️ an column old",
            "東京 be model ✅ 太郎 Zürich",
        ] {
            for start in 0..text.len() {
                let tail = &text.as_bytes()[start..];
                let expected = tail.iter().filter(|&&b| b & 0xC0 != 0x80).count();
                assert_eq!(char_count(tail), expected, "{text:?} from {start}");
            }
        }
    }
}
