//! The validator's tokens: strings (with their lossless repairs) and numbers.

use super::{Open, Problem, ScanEnd};
use crate::outcome::RepairKind;

/// Scan a string that opens at `start`; `Ok` is the offset after its closing quote.
pub(super) fn scan_string(
    bytes: &[u8],
    start: usize,
    limit: usize,
    repairs: &mut Vec<(RepairKind, usize)>,
) -> Result<usize, ScanEnd> {
    let truncated = ScanEnd::Truncated {
        inside: Open::String,
        opened_at: start,
    };
    let mut j = start + 1;
    loop {
        // Plain bytes are the common case: skip them in a tight loop.
        while j < limit && !matches!(bytes[j], b'"' | b'\\' | 0..=0x1f) {
            j += 1;
        }
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
    }
}

fn bad(at: usize, problem: Problem) -> ScanEnd {
    ScanEnd::Invalid {
        at,
        problem,
        after_comma: false,
    }
}

/// Scan a number that starts at `start`; `Ok` is the offset after it.
pub(super) fn scan_number(bytes: &[u8], start: usize, limit: usize) -> Result<usize, ScanEnd> {
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
