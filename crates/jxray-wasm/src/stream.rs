//! The streaming extractor for JavaScript (`createExtractor`, npm/src/stream.js): one per
//! instance — the package gives each stream an instance of its own — fed each chunk, its
//! snapshot handed back as JSON (the changes, never the whole value again). The end is the
//! host's: it judges the joined text with `extract`, as contract §7 says the end is. With
//! the host's validator, each part of the value is judged as it closes (`schema` signals).

use std::cell::RefCell;
use std::sync::Arc;

use jxray_engine::{Extractor, Options, Snapshot};
use jxray_formats::judge;

use crate::validator::{self, HostValidator};

thread_local! {
    /// This instance's stream, and the snapshot it fills anew per chunk (its buffers kept).
    static STREAM: RefCell<Option<(Extractor, Snapshot)>> = const { RefCell::new(None) };
}

/// Start a stream (a runaway bound of 0 is the default bound), judging each part of the
/// value as it closes when `host` holds a validator.
pub fn open(runaway_bytes: usize, host: Option<Arc<dyn HostValidator>>) -> Result<Vec<u8>, String> {
    let mut extractor = Extractor::new(Options::default());
    if runaway_bytes > 0 {
        extractor = extractor.with_runaway_bytes(runaway_bytes);
    }
    if let Some(host) = host {
        extractor = extractor.with_validator(judge::items(validator::wired(host, false)));
    }
    STREAM.with(|stream| *stream.borrow_mut() = Some((extractor, Snapshot::default())));
    Ok(b"{}".to_vec())
}

/// Feed the next chunk; the snapshot as JSON.
pub fn feed(chunk: &str) -> Result<Vec<u8>, String> {
    STREAM.with(|stream| {
        let mut stream = stream.borrow_mut();
        let (extractor, snapshot) = stream
            .as_mut()
            .ok_or("jxray: this extractor was not opened, or has ended")?;
        extractor.feed_str_into(chunk, snapshot);
        serde_json::to_vec(snapshot).map_err(|error| error.to_string())
    })
}

/// End the stream: its memory goes.
pub fn close() -> Result<Vec<u8>, String> {
    STREAM.with(|stream| *stream.borrow_mut() = None);
    Ok(b"{}".to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_fed_and_closed() {
        open(0, None).unwrap();
        let snapshot: serde_json::Value =
            serde_json::from_slice(&feed("{\"a\": \"x").unwrap()).unwrap();
        assert_eq!(snapshot["state"], "reading");
        assert_eq!(snapshot["open_paths"], serde_json::json!(["", "/a"]));
        close().unwrap();
        assert!(feed("more").is_err());
    }

    /// Says a `severity` that is not `low` or `high` is wrong, as a zod enum would.
    struct Severity;

    impl HostValidator for Severity {
        fn valid(&self, _: &str) -> bool {
            true
        }
        fn issues(&self, _: &str) -> String {
            String::new()
        }
        fn closed_issues(&self, path: &str, value: &str) -> String {
            let value: serde_json::Value = serde_json::from_str(value).unwrap();
            match value.get("severity").and_then(serde_json::Value::as_str) {
                Some("low" | "high") | None => String::new(),
                Some(_) if path.starts_with("/tickets/") => {
                    r#"[{"path":["severity"],"message":"Invalid option"}]"#.into()
                }
                Some(_) => String::new(),
            }
        }
    }

    #[test]
    fn with_the_hosts_validator_an_item_is_judged_as_it_closes() {
        open(0, Some(Arc::new(Severity))).unwrap();
        let text = r#"{"tickets": [{"severity": "low"}, {"severity": "urgent"}, {"severity""#;
        let snapshot: serde_json::Value = serde_json::from_slice(&feed(text).unwrap()).unwrap();
        let signals = snapshot["signals"].as_array().unwrap();
        assert_eq!(signals.len(), 1, "{snapshot}");
        assert_eq!(signals[0]["kind"], "schema");
        assert_eq!(signals[0]["path"], "/tickets/1/severity");
        assert_eq!(
            signals[0]["message"],
            r#"/tickets/1/severity = "urgent": Invalid option"#
        );
        // The byte where the item closed (its `}`), in the text as fed.
        assert_eq!(signals[0]["byte"], text.find(r#""urgent"}"#).unwrap() + 8);
        close().unwrap();
    }
}
