//! Words for a `\u` escape that names half of a UTF-16 surrogate pair.
//!
//! serde_json calls every unpaired surrogate escape "lone leading" (even `\udc00`, a
//! trailing one) or "unexpected end of hex escape". The user needs to know which half
//! is there and which is missing, so the escape itself is read back from the text.

/// Bytes before the decoder's position searched for the escape: the escape itself, a
/// following one (`\ud800\u0041`) and a character of slack.
const WINDOW: usize = 16;

/// A plain message for a surrogate error reported at `offset` in `text`, or `None` when
/// no unpaired surrogate escape sits just before it.
pub fn describe(text: &str, offset: usize) -> Option<String> {
    let end = offset.min(text.len());
    let bytes = text.as_bytes();
    let start = end.saturating_sub(WINDOW);
    let (code, _) = (start..end)
        .rev()
        .filter_map(|at| escape_at(bytes, at).map(|code| (code, at)))
        .find(|(code, _)| (0xD800..=0xDFFF).contains(code))?;
    Some(if code >= 0xDC00 {
        format!(
            "lone trailing surrogate \\u{code:04x}: no leading surrogate (\\ud800–\\udbff) comes before it; \
             write the character itself or its full surrogate pair"
        )
    } else {
        format!(
            "lone leading surrogate \\u{code:04x}: no trailing surrogate (\\udc00–\\udfff) follows it; \
             write the character itself or its full surrogate pair"
        )
    })
}

/// The code unit of a `\uXXXX` escape starting at `at`.
fn escape_at(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 6)?;
    if digits[0] != b'\\' || digits[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&digits[2..]).ok()?;
    u32::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::describe;

    fn decoder_offset(text: &str) -> usize {
        let error = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        // Single-line inputs: the column is the offset.
        error.column()
    }

    #[test]
    fn a_trailing_surrogate_alone_is_called_trailing() {
        let text = r#"{"a": "\udc00"}"#;
        let message = describe(text, decoder_offset(text)).unwrap();
        assert!(
            message.starts_with("lone trailing surrogate \\udc00"),
            "{message}"
        );
    }

    #[test]
    fn a_leading_surrogate_without_its_pair_is_called_leading() {
        for text in [r#"["\ud800x"]"#, r#"["\ud800\u0041"]"#, r#"["\ud800"]"#] {
            let message = describe(text, decoder_offset(text)).unwrap();
            assert!(
                message.starts_with("lone leading surrogate \\ud800"),
                "{text}: {message}"
            );
        }
    }

    #[test]
    fn other_errors_are_left_alone() {
        assert_eq!(describe(r#"["\u0041" x]"#, 10), None);
        assert_eq!(describe("", 5), None);
    }
}
