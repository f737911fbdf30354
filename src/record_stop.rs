//! `jxray record --stop-on`: each streamed response is read as it passes the proxy —
//! the provider's events through [`LiveStream`], the answer they add up to through the
//! streaming extractor (contract §7) — and at the first signal named, the proxy ends the
//! stream: the upstream request is dropped, so the provider stops generating, and the
//! app's stream is ended in the provider's own words for a length stop, so its SDK reads a
//! cut answer and never a complete one. Opt-in: a signal may fire on an answer the app
//! would still have used. With no signal named (`record --tui`), streams are only watched,
//! for the workbench to show where each call in flight stands.

use std::sync::Arc;

use crate::capture::LiveStream;
use crate::engine::{Extractor, Options, SignalKind, Snapshot};
use jxray_record::{Stop, StreamWatch, Watches};

/// What `--stop-on` may name for the proxy.
pub const PROXY_SIGNALS: [SignalKind; 4] = [
    SignalKind::Runaway,
    SignalKind::ToolCallText,
    SignalKind::Refusal,
    SignalKind::Invalid,
];

/// Watches every streamed response for `kinds`.
#[derive(Debug)]
pub struct StopWatches {
    kinds: Arc<[SignalKind]>,
}

impl StopWatches {
    pub fn new(kinds: Vec<SignalKind>) -> StopWatches {
        StopWatches {
            kinds: kinds.into(),
        }
    }
}

impl Watches for StopWatches {
    fn watch(
        &self,
        content_type: &str,
        content_encoding: Option<&str>,
    ) -> Option<Box<dyn StreamWatch>> {
        // Compressed bytes cannot be read as they pass; they are forwarded whole.
        if content_encoding.is_some_and(|encoding| !encoding.eq_ignore_ascii_case("identity")) {
            return None;
        }
        let content_type = content_type.to_ascii_lowercase();
        let streamed = content_type.starts_with("text/event-stream")
            || content_type.contains("ndjson")
            || content_type.starts_with("application/x-ndjson");
        streamed.then(|| {
            Box::new(Watch {
                kinds: Arc::clone(&self.kinds),
                live: LiveStream::default(),
                extractor: Extractor::new(Options::default()),
                snapshot: Snapshot::default(),
            }) as Box<dyn StreamWatch>
        })
    }
}

/// One streamed response being watched.
struct Watch {
    kinds: Arc<[SignalKind]>,
    live: LiveStream,
    extractor: Extractor,
    snapshot: Snapshot,
}

impl StreamWatch for Watch {
    fn status(&self) -> Option<String> {
        let bytes = self.extractor.text().len();
        if bytes == 0 {
            return None;
        }
        let signals: Vec<String> = self
            .extractor
            .signals()
            .iter()
            .map(|signal| format!("{} at byte {}", signal.kind.as_str(), signal.byte))
            .collect();
        let signals = match signals.is_empty() {
            true => String::new(),
            false => format!(" · {}", signals.join(", ")),
        };
        Some(format!(
            "{bytes} bytes of output · {}{signals}",
            self.snapshot.state.words()
        ))
    }

    fn feed(&mut self, bytes: &[u8]) -> Option<Stop> {
        let gained = self.live.push_bytes(bytes);
        if gained.is_empty() {
            return None;
        }
        self.extractor.feed_str_into(&gained, &mut self.snapshot);
        let signal = self
            .snapshot
            .signals
            .iter()
            .find(|signal| self.kinds.contains(&signal.kind))?;
        // A provider whose ending cannot be written is forwarded whole.
        let ending = self.live.cut_ending()?;
        Some(Stop {
            ending: ending.into(),
            signal: signal.kind.as_str().to_string(),
            byte: signal.byte,
            message: signal.message.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(content: &str, finish: Option<&str>) -> String {
        let chunk = serde_json::json!({"id": "c1", "object": "chat.completion.chunk", "created": 7,
            "model": "m", "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": finish}]});
        format!("data: {chunk}\n\n")
    }

    #[test]
    fn a_runaway_openai_stream_is_ended_as_a_length_stop() {
        let watches = StopWatches::new(vec![SignalKind::Runaway]);
        let mut watch = watches
            .watch("text/event-stream; charset=utf-8", None)
            .unwrap();
        assert!(watch.feed(chunk("{\"a\": 1,", None).as_bytes()).is_none());
        let spaces = chunk(&" ".repeat(64), None);
        let stop = (0..20)
            .find_map(|_| watch.feed(spaces.as_bytes()))
            .expect("the runaway stops it");
        assert_eq!((stop.signal.as_str(), stop.byte), ("runaway", 8 + 511));
        let ending = std::str::from_utf8(&stop.ending).unwrap();
        let last: serde_json::Value = serde_json::from_str(
            ending
                .lines()
                .next()
                .unwrap()
                .strip_prefix("data: ")
                .unwrap(),
        )
        .unwrap();
        assert_eq!(last["choices"][0]["finish_reason"], "length");
        assert_eq!(
            (last["id"].as_str(), last["model"].as_str()),
            (Some("c1"), Some("m"))
        );
        assert!(ending.ends_with("data: [DONE]\n\n"));
    }

    #[test]
    fn responses_that_are_not_streams_or_are_compressed_are_not_watched() {
        let watches = StopWatches::new(vec![SignalKind::Runaway]);
        assert!(watches.watch("application/json", None).is_none());
        assert!(watches.watch("text/event-stream", Some("gzip")).is_none());
        assert!(watches.watch("application/x-ndjson", None).is_some());
    }
}
