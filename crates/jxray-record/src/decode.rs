//! A decoded copy of a compressed body (a response, or a request), for the capture.
//!
//! The client's `Accept-Encoding` and the upstream's `Content-Encoding` are never touched:
//! the client gets the bytes the upstream sent. The capture must still be readable, so a
//! copy is decoded here (gzip, deflate, brotli, zstd), bounded in *decoded* bytes by the
//! limit of the side the body belongs to and by the budget shared by every exchange, so
//! that a small body cannot unpack into a large one. An encoding this cannot decode is
//! reported, and the capture is kept encoded under a name jxray does not read as a capture.

use std::io::Read;
use std::sync::Arc;

use crate::budget::{Budget, Held, Refused};

/// What decoding a body gave.
#[derive(Debug)]
pub enum DecodedBody {
    /// The body as the model's server meant it (no encoding, or decoded).
    Plain(Held),
    /// No encoding: the body is the bytes as they came.
    Identity,
    /// Encoded in a way this cannot decode; the name of the encoding.
    Unsupported(String),
    /// Decoding failed; why.
    Failed(String),
    /// Decoded, the body is larger than its side's limit, or than the budget shared by
    /// every exchange has room for.
    Refused(Refused),
}

/// How many bytes are read from a decoder at a time.
const STEP: usize = 64 * 1024;

/// Decode `bytes` sent with `Content-Encoding: encoding`, to at most `limit` decoded
/// bytes, each taken from `budget` before it is held.
pub fn decode(
    bytes: &[u8],
    encoding: Option<&str>,
    limit: usize,
    budget: &Arc<Budget>,
) -> DecodedBody {
    let encodings: Vec<String> = encoding
        .unwrap_or("")
        .split(',')
        .map(|e| e.trim().to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e != "identity")
        .collect();
    let mut decoded: Option<Held> = None;
    // Encodings are listed in the order they were applied: undo the last first.
    for encoding in encodings.iter().rev() {
        let body = decoded.as_ref().map_or(bytes, Held::as_slice);
        let result = match encoding.as_str() {
            "gzip" | "x-gzip" => {
                read_bounded(flate2::read::MultiGzDecoder::new(body), limit, budget)
            }
            "deflate" => read_bounded(flate2::read::ZlibDecoder::new(body), limit, budget)
                .or_else(|_| read_bounded(flate2::read::DeflateDecoder::new(body), limit, budget)),
            "br" => read_bounded(
                brotli_decompressor::Decompressor::new(body, 4096),
                limit,
                budget,
            ),
            "zstd" => match zstd::stream::read::Decoder::new(body) {
                Ok(decoder) => read_bounded(decoder, limit, budget),
                Err(error) => Err(Stop::Failed(error.to_string())),
            },
            other => return DecodedBody::Unsupported(other.to_string()),
        };
        match result {
            Ok(plain) => decoded = Some(plain),
            Err(Stop::Refused(refused)) => return DecodedBody::Refused(refused),
            Err(Stop::Failed(why)) => {
                return DecodedBody::Failed(format!("cannot decode its {encoding}: {why}"))
            }
        }
    }
    match decoded {
        Some(plain) => DecodedBody::Plain(plain),
        None => DecodedBody::Identity,
    }
}

enum Stop {
    Refused(Refused),
    Failed(String),
}

/// Read a decoder to its end, a step at a time, stopping at the first byte past `limit`
/// or past what the budget allows: a small body that unpacks to gigabytes costs no more
/// than the limit.
fn read_bounded(mut reader: impl Read, limit: usize, budget: &Arc<Budget>) -> Result<Held, Stop> {
    let mut out = Held::new(budget, limit);
    let mut step = vec![0u8; STEP];
    loop {
        let read = match reader.read(&mut step) {
            Ok(0) => return Ok(out),
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(Stop::Failed(error.to_string())),
        };
        out.extend(&step[..read]).map_err(Stop::Refused)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn budget() -> Arc<Budget> {
        Budget::new(usize::MAX)
    }

    fn plain(decoded: DecodedBody) -> Vec<u8> {
        match decoded {
            DecodedBody::Plain(held) => held.as_slice().to_vec(),
            other => panic!("not decoded: {other:?}"),
        }
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn compressed_bodies_are_decoded_for_the_capture() {
        let body = br#"{"choices":[]}"#.to_vec();
        assert_eq!(
            plain(decode(&gzip(&body), Some("gzip"), 100, &budget())),
            body
        );
        let zstd = zstd::stream::encode_all(&body[..], 1).unwrap();
        assert_eq!(plain(decode(&zstd, Some("zstd"), 100, &budget())), body);
        assert!(matches!(
            decode(&body, None, 100, &budget()),
            DecodedBody::Identity
        ));
        assert!(matches!(
            decode(&body, Some("identity"), 100, &budget()),
            DecodedBody::Identity
        ));
        let twice = gzip(&gzip(&body));
        assert_eq!(
            plain(decode(&twice, Some("gzip, gzip"), 100, &budget())),
            body
        );
    }

    #[test]
    fn a_bomb_stops_at_the_limit_in_decoded_bytes() {
        let bomb = gzip(&vec![b' '; 10_000_000]);
        assert!(bomb.len() < 100_000);
        let budget = budget();
        assert!(matches!(
            decode(&bomb, Some("gzip"), 1000, &budget),
            DecodedBody::Refused(Refused::OverLimit)
        ));
        assert_eq!(budget.used(), 0, "what was held is given back");
        let small = Budget::new(100_000);
        assert!(matches!(
            decode(&bomb, Some("gzip"), usize::MAX, &small),
            DecodedBody::Refused(Refused::OverBudget)
        ));
    }

    #[test]
    fn broken_and_cut_bodies_never_panic_or_keep_what_they_took() {
        // The fuzz target's invariants (fuzz/fuzz_targets/record_body.rs) over bodies made
        // here: each encoder's output cut at every length, and bytes flipped in it.
        let plain: Vec<u8> = (0..3000u32).map(|n| (n * 7 % 251) as u8).collect();
        let encoded = [
            ("gzip", gzip(&plain)),
            ("deflate", {
                let mut encoder =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
                encoder.write_all(&plain).unwrap();
                encoder.finish().unwrap()
            }),
            ("zstd", zstd::stream::encode_all(&plain[..], 1).unwrap()),
            ("br", b"\x1b\x00\x00\x00\x00".to_vec()),
        ];
        let budget = Budget::new(4096);
        for (encoding, body) in &encoded {
            for cut in 0..body.len() {
                let mut broken = body[..cut].to_vec();
                if let Some(byte) = broken.get_mut(cut / 2) {
                    *byte ^= 0x5a;
                }
                for bytes in [&body[..cut], &broken[..]] {
                    if let DecodedBody::Plain(held) = decode(bytes, Some(encoding), 2048, &budget) {
                        assert!(held.len() <= 2048);
                    }
                    assert_eq!(budget.used(), 0, "{encoding} cut at {cut}");
                }
            }
        }
    }

    #[test]
    fn an_unknown_encoding_or_a_broken_body_is_reported() {
        assert!(matches!(
            decode(b"x", Some("compress"), 100, &budget()),
            DecodedBody::Unsupported(name) if name == "compress"
        ));
        assert!(matches!(
            decode(b"nope", Some("gzip"), 100, &budget()),
            DecodedBody::Failed(_)
        ));
    }
}
