//! The validator's tokens: strings (with their lossless repairs) and numbers.

use super::{Open, Problem, ScanEnd};
use crate::outcome::RepairKind;
use crate::swar::{below, equal, word_of};

/// Scan a string that opens at `start` and holds plain bytes up to `plain`; `Ok` is the
/// offset after its closing quote.
pub(super) fn scan_string(
    bytes: &[u8],
    start: usize,
    plain: usize,
    limit: usize,
    repairs: &mut Vec<(RepairKind, usize)>,
) -> Result<usize, ScanEnd> {
    let truncated = ScanEnd::Truncated {
        inside: Open::String,
        opened_at: start,
    };
    let mut j = plain;
    loop {
        if j >= limit {
            return Err(truncated);
        }
        match bytes[j] {
            b'"' => return Ok(j + 1),
            b'\\' => {
                let Some(&escaped) = bytes.get(j + 1).filter(|_| j + 1 < limit) else {
                    return Err(truncated);
                };
                match escaped {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                    b'`' => {
                        repairs.push((RepairKind::EscapedBacktick, j));
                        j += 2;
                    }
                    b'u' => {
                        for k in 2..6 {
                            if j + k >= limit {
                                return Err(truncated);
                            }
                            if !bytes[j + k].is_ascii_hexdigit() {
                                return Err(bad(j, Problem::BadEscape));
                            }
                        }
                        j += 6;
                    }
                    _ => return Err(bad(j, Problem::BadEscape)),
                }
            }
            b'\n' | b'\r' | b'\t' => {
                repairs.push((RepairKind::RawControlChar, j));
                j += 1;
            }
            _ => return Err(bad(j, Problem::ControlChar)),
        }
        j = plain_end(bytes, j, limit);
    }
}

/// Where the plain bytes of a string that start at `j` end: the first `"`, `\\` or control
/// character before `limit`, else `limit`. Plain bytes are the common case, so they are
/// read eight at a time. The bit tricks may flag a plain byte only past one that is flagged
/// rightly (a borrow carries up from it), so the lowest flagged byte is the first one.
pub(crate) fn plain_end(bytes: &[u8], mut j: usize, limit: usize) -> usize {
    while let Some(chunk) = bytes.get(j..j + 8).filter(|_| j + 8 <= limit) {
        let word = word_of(chunk);
        let flagged = equal(word, b'"') | equal(word, b'\\') | below(word, 0x20);
        if flagged != 0 {
            // Bytes are read little-endian: the first is the lowest.
            return j + (flagged.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < limit && !matches!(bytes[j], b'"' | b'\\' | 0..=0x1f) {
        j += 1;
    }
    j
}

fn bad(at: usize, problem: Problem) -> ScanEnd {
    ScanEnd::Invalid {
        at,
        problem,
        after_comma: false,
    }
}

/// Scan a number that starts at `start`; `Ok` is the offset after it.
pub(crate) fn scan_number(bytes: &[u8], start: usize, limit: usize) -> Result<usize, ScanEnd> {
    let truncated = ScanEnd::Truncated {
        inside: Open::Literal,
        opened_at: start,
    };
    let digits = |mut j: usize| -> Result<usize, ScanEnd> {
        if j >= limit {
            return Err(truncated);
        }
        if !bytes[j].is_ascii_digit() {
            return Err(bad(j, Problem::BadNumber));
        }
        while j < limit && bytes[j].is_ascii_digit() {
            j += 1;
        }
        Ok(j)
    };
    let mut j = start;
    if bytes[j] == b'-' {
        j += 1;
    }
    if j >= limit {
        return Err(truncated);
    }
    if bytes[j] == b'0' {
        j += 1;
        if j < limit && bytes[j].is_ascii_digit() {
            return Err(bad(start, Problem::LeadingZero));
        }
    } else {
        j = digits(j)?;
    }
    if j < limit && bytes[j] == b'.' {
        j = digits(j + 1)?;
    }
    if j < limit && matches!(bytes[j], b'e' | b'E') {
        j += 1;
        if j < limit && matches!(bytes[j], b'+' | b'-') {
            j += 1;
        }
        j = digits(j)?;
    }
    Ok(j)
}

#[cfg(test)]
mod tests {
    use super::plain_end;

    fn byte_by_byte(bytes: &[u8], from: usize, limit: usize) -> usize {
        (from..limit)
            .find(|&j| matches!(bytes[j], b'"' | b'\\' | 0..=0x1f))
            .unwrap_or(limit)
    }

    #[test]
    fn plain_end_stops_where_a_byte_by_byte_scan_stops() {
        for special in 0..=255u8 {
            for fill in [b'a', b' ', 0xc3, 0x7f, 0xff] {
                for at in 0..20 {
                    let mut bytes = vec![fill; 20];
                    bytes[at] = special;
                    for (from, limit) in [(0, 20), (1, 20), (0, 9), (3, 17), (at, 20)] {
                        assert_eq!(
                            plain_end(&bytes, from, limit),
                            byte_by_byte(&bytes, from, limit),
                            "byte {special:#x} at {at} in {fill:#x}, {from}..{limit}"
                        );
                    }
                }
            }
        }
    }
}
