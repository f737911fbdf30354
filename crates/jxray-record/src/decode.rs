//! A decoded copy of a compressed response, for the capture.
//!
//! The client's `Accept-Encoding` and the upstream's `Content-Encoding` are never touched:
//! the client gets the bytes the upstream sent. The capture must still be readable, so a
//! copy is decoded here (gzip, deflate, brotli, zstd), bounded so that a small body cannot unpack
//! into an unbounded one. An encoding this cannot decode is reported, and the
//! capture is kept encoded under a name jxray does not read as a capture.

use std::io::Read;

/// What decoding a body gave.
#[derive(Debug, PartialEq, Eq)]
pub enum DecodedBody {
    /// The body as the model's server meant it (no encoding, or decoded).
    Plain(Vec<u8>),
    /// Encoded in a way this cannot decode; the name of the encoding.
    Unsupported(String),
    /// Decoding failed or went past the limit.
    Failed(String),
}

/// Decode `bytes` sent with `Content-Encoding: encoding`, to at most `limit` bytes.
pub fn decode(bytes: Vec<u8>, encoding: Option<&str>, limit: usize) -> DecodedBody {
    let encodings: Vec<String> = encoding
        .unwrap_or("")
        .split(',')
        .map(|e| e.trim().to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e != "identity")
        .collect();
    let mut body = bytes;
    // Encodings are listed in the order they were applied: undo the last first.
    for encoding in encodings.iter().rev() {
        let result = match encoding.as_str() {
            "gzip" | "x-gzip" => read_bounded(flate2::read::MultiGzDecoder::new(&body[..]), limit),
            "deflate" => read_bounded(flate2::read::ZlibDecoder::new(&body[..]), limit)
                .or_else(|_| read_bounded(flate2::read::DeflateDecoder::new(&body[..]), limit)),
            "br" => read_bounded(
                brotli_decompressor::Decompressor::new(&body[..], 4096),
                limit,
            ),
            "zstd" => match zstd::stream::read::Decoder::new(&body[..]) {
                Ok(decoder) => read_bounded(decoder, limit),
                Err(error) => Err(error.to_string()),
            },
            other => return DecodedBody::Unsupported(other.to_string()),
        };
        match result {
            Ok(plain) => body = plain,
            Err(why) => return DecodedBody::Failed(format!("cannot decode its {encoding}: {why}")),
        }
    }
    DecodedBody::Plain(body)
}

fn read_bounded(reader: impl Read, limit: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let read = reader
        .take(limit as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    if read > limit {
        return Err(format!("it unpacks to more than {limit} bytes"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn compressed_bodies_are_decoded_for_the_capture() {
        let body = br#"{"choices":[]}"#.to_vec();
        assert_eq!(
            decode(gzip(&body), Some("gzip"), 100),
            DecodedBody::Plain(body.clone())
        );
        let zstd = zstd::stream::encode_all(&body[..], 1).unwrap();
        assert_eq!(
            decode(zstd, Some("zstd"), 100),
            DecodedBody::Plain(body.clone())
        );
        assert_eq!(
            decode(body.clone(), None, 100),
            DecodedBody::Plain(body.clone())
        );
        assert_eq!(
            decode(body.clone(), Some("identity"), 100),
            DecodedBody::Plain(body)
        );
    }

    #[test]
    fn a_bomb_or_an_unknown_encoding_is_reported() {
        let bomb = gzip(&vec![b' '; 10_000]);
        assert!(matches!(
            decode(bomb, Some("gzip"), 100),
            DecodedBody::Failed(_)
        ));
        assert_eq!(
            decode(b"x".to_vec(), Some("compress"), 100),
            DecodedBody::Unsupported("compress".to_string())
        );
        assert!(matches!(
            decode(b"nope".to_vec(), Some("gzip"), 100),
            DecodedBody::Failed(_)
        ));
    }
}
