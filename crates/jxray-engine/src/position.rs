//! Byte offsets to the 1-based line and column people read, and to the UTF-16 code units
//! JavaScript's strings are indexed by.

use super::swar::{char_count, utf16_units};

/// `text`'s length in UTF-16 code units: a byte offset into UTF-8 text as an offset into the
/// same text as a JavaScript string (`utf16_len(&text[..offset])`).
pub fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    utf16_units(text.as_bytes())
}

/// The 1-based line and column (counted in characters) of a byte offset.
///
/// An offset past the end, or inside a multi-byte character, is clamped to
/// the nearest character boundary before it.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text.as_bytes()[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + text[line_start..offset].chars().count();
    (line, column)
}

/// Line and column lookups for offsets that mostly move forward.
///
/// Each lookup continues from the previous one, so locating many offsets in
/// increasing order costs one pass over the text, not one pass each.
#[derive(Debug, Default)]
pub(crate) struct LineCursor {
    offset: usize,
    line: usize,
    /// Characters between the start of the current line and `offset`.
    column: usize,
}

impl LineCursor {
    pub(crate) fn locate(&mut self, text: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.offset || self.line == 0 {
            *self = LineCursor {
                offset: 0,
                line: 1,
                column: 0,
            };
        }
        let passed = &text.as_bytes()[self.offset..offset];
        let mut line_start = 0;
        if let Some(last) = memchr::memrchr(b'\n', passed) {
            self.line += memchr::memchr_iter(b'\n', passed).count();
            self.column = 0;
            line_start = last + 1;
        }
        self.column += char_count(&passed[line_start..]);
        self.offset = offset;
        (self.line, self.column + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::{line_col, LineCursor};

    #[test]
    fn the_cursor_agrees_with_line_col_in_any_order() {
        let text = "ab\ncé\n\nxyz";
        let mut cursor = LineCursor::default();
        for offset in [0, 2, 3, 6, 8, 9, 11, 4, 0, 99] {
            assert_eq!(
                cursor.locate(text, offset),
                line_col(text, offset),
                "{offset}"
            );
        }
    }

    #[test]
    fn counts_lines_and_characters() {
        let text = "ab\ncé\nx";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 2), (1, 3));
        assert_eq!(line_col(text, 3), (2, 1));
        // 'é' is two bytes; the column after it is 3.
        assert_eq!(line_col(text, 6), (2, 3));
        assert_eq!(line_col(text, 7), (3, 1));
    }

    #[test]
    fn clamps_out_of_range_and_mid_character_offsets() {
        assert_eq!(line_col("é", 1), (1, 1));
        assert_eq!(line_col("ab", 99), (1, 3));
        assert_eq!(line_col("", 5), (1, 1));
    }
}
