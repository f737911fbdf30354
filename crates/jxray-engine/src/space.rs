//! JSON white space (RFC 8259: space, tab, line feed, carriage return), the one
//! definition every layer, the validator and the look-aheads share.

/// Whether `byte` is JSON white space.
pub(crate) fn is_json_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first offset at or after `i` (and before `limit`) that is not JSON white space.
pub(crate) fn skip_json_space(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    while i < limit && is_json_space(bytes[i]) {
        i += 1;
    }
    i
}

/// The span without JSON white space at either end.
pub(crate) fn trim_span(bytes: &[u8], start: usize, end: usize) -> (usize, usize) {
    let mut e = end.min(bytes.len());
    let s = skip_json_space(bytes, start, e);
    while e > s && is_json_space(bytes[e - 1]) {
        e -= 1;
    }
    (s, e)
}
