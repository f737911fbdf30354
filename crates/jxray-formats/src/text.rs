//! Bytes as text, or why they are not: what every reader of a capture does with the bytes
//! it was given (a file, a request body, a JavaScript or Python string's bytes).

use std::sync::Arc;

/// Why a capture could not be read; the message names the cause and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Unreadable {
    pub message: String,
    /// The bytes, when they were read but are not UTF-8: shown with each invalid byte
    /// marked, and kept by a fixture (`input_base64`) so its verdict replays exactly.
    pub bytes: Option<Arc<[u8]>>,
}

impl Unreadable {
    pub fn new(message: impl Into<String>) -> Unreadable {
        Unreadable {
            message: message.into(),
            bytes: None,
        }
    }

    /// Bytes that were read but are not UTF-8.
    pub fn not_utf8(message: impl Into<String>, bytes: Vec<u8>) -> Unreadable {
        Unreadable {
            message: message.into(),
            bytes: Some(bytes.into()),
        }
    }
}

/// The text without a leading byte-order mark.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Bytes as text: UTF-8, or UTF-16 with a byte-order mark (what Windows PowerShell's `>`
/// writes). Anything else names the first bad byte.
pub fn decode(bytes: Vec<u8>) -> Result<String, Unreadable> {
    match bytes.as_slice() {
        [0xFF, 0xFE, rest @ ..] => return decode_utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => return decode_utf16(rest, u16::from_be_bytes),
        _ => {}
    }
    if let Some(order) = utf16_without_bom(&bytes) {
        // ASCII in UTF-16 is valid UTF-8 full of NULs: name the encoding instead.
        return Err(Unreadable::new(format!(
            "looks like {order} without a byte-order mark (a NUL byte every other byte); \
             re-save the capture as UTF-8"
        )));
    }
    String::from_utf8(bytes).map_err(|error| {
        let offset = error.utf8_error().valid_up_to();
        let byte = error.as_bytes().get(offset).copied().unwrap_or_default();
        Unreadable::not_utf8(
            format!(
                "not UTF-8: byte 0x{byte:02X} at offset {offset} is invalid; re-save the \
                 capture as UTF-8"
            ),
            error.into_bytes(),
        )
    })
}

/// Bytes looked at to recognise UTF-16 without a byte-order mark.
const UTF16_SNIFF: usize = 512;

/// `UTF-16LE` or `UTF-16BE` when the start of `bytes` has a NUL in every other byte (the
/// high half of ASCII characters) and none in between: text that is really UTF-8 almost
/// never holds NULs at all.
pub fn utf16_without_bom(bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(UTF16_SNIFF) & !1];
    if head.len() < 4 {
        return None;
    }
    let pairs = head.len() / 2;
    let count = |pick: fn(&[u8]) -> bool| head.chunks_exact(2).filter(|pair| pick(pair)).count();
    // Nine pairs in ten, so that a few non-ASCII characters do not hide it.
    let mostly = |n: usize| n * 10 >= pairs * 9;
    if mostly(count(|pair| pair[0] != 0 && pair[1] == 0)) {
        Some("UTF-16LE")
    } else if mostly(count(|pair| pair[0] == 0 && pair[1] != 0)) {
        Some("UTF-16BE")
    } else {
        None
    }
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, Unreadable> {
    if !bytes.len().is_multiple_of(2) {
        return Err(Unreadable::new(
            "UTF-16 with an odd number of bytes (cut short?); re-save the capture as UTF-8",
        ));
    }
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    char::decode_utf16(units)
        .enumerate()
        .map(|(index, decoded)| {
            decoded.map_err(|_| {
                Unreadable::new(format!(
                    "invalid UTF-16: unpaired surrogate at byte offset {}; re-save the capture as UTF-8",
                    2 + index * 2
                ))
            })
        })
        .collect()
}
