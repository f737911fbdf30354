//! What a caller streaming the output could have known early (contract §7): a saved
//! stream's answer is fed to the streaming extractor in the chunks it arrived in, and the
//! first signal worth stopping for — a runaway, a refusal, a tool call written as text, or
//! a value no continuation can repair — is kept with the byte and chunk where it became
//! certain. `check` counts, per kind, the share of the output that came after it: what
//! stopping there would have saved.

use serde::Serialize;

use crate::capture::Capture;
use crate::engine::{Extractor, Options, Signal, SignalKind, Snapshot};

/// The first signal worth stopping for in a stream, and where it became certain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EarlySignal {
    /// What it was (`runaway`, `refusal`, `tool-call-text`, `invalid`).
    pub kind: SignalKind,
    /// The byte of the answer's text where it became certain.
    pub byte: usize,
    /// The chunk it came in (from 1), of `chunks`.
    pub chunk: usize,
    pub chunks: usize,
    /// The answer's length in bytes: `bytes - byte - 1` came after the signal.
    pub bytes: usize,
    /// When its chunk had come, in milliseconds from the request (a stream `jxray record`
    /// kept the arrival of).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    /// The output's tokens, when the stream's usage says them; those after the signal are
    /// taken in the share of bytes after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
}

impl EarlySignal {
    /// The same, with when its chunk came, from the stream's arrival.
    pub(crate) fn timed(mut self, capture: &Capture, arrival: &crate::capture::Arrival) -> Self {
        let raw_end = capture
            .chunks
            .as_deref()
            .and_then(|chunks| chunks.raw_ends.get(self.chunk - 1));
        self.ms = raw_end.and_then(|&end| arrival.ms_at(end));
        self
    }

    /// The bytes of the answer that came after it.
    pub fn bytes_after(&self) -> usize {
        self.bytes.saturating_sub(self.byte + 1)
    }

    /// About how many of the output's tokens came after it: its tokens in the share of
    /// its bytes after the signal (a stream says its tokens only as a total).
    pub fn tokens_after(&self) -> Option<u64> {
        let share = self.bytes_after() as f64 / self.bytes.max(1) as f64;
        self.tokens
            .map(|tokens| (tokens as f64 * share).round() as u64)
    }
}

/// The first decisive signal in a stream capture's answer, fed in its chunks; none for a
/// capture that was not streamed, or when none fired.
pub(crate) fn first_signal(capture: &Capture, options: &Options) -> Option<EarlySignal> {
    let ends = &capture.chunks.as_deref()?.ends;
    let text = capture.text.as_deref().ok()?;
    let mut extractor = Extractor::new(options.clone());
    let mut snapshot = Snapshot::default();
    let mut from = 0;
    // Fed only as far as the first decisive signal.
    let fed = ends.iter().map_while(|&end| {
        let chunk = text.get(from..end)?;
        from = end;
        extractor.feed_str_into(chunk, &mut snapshot);
        Some(std::mem::take(&mut snapshot.signals))
    });
    first_in(capture, fed)
}

/// The first decisive signal among the signals each chunk of `capture`'s answer raised,
/// in order (from a stream fed once, however its caller fed it).
pub(crate) fn first_in<S: std::borrow::Borrow<[Signal]>>(
    capture: &Capture,
    chunk_signals: impl IntoIterator<Item = S>,
) -> Option<EarlySignal> {
    let chunks = capture.chunks.as_deref()?;
    let bytes = capture.text.as_deref().ok()?.len();
    chunk_signals
        .into_iter()
        .enumerate()
        .find_map(|(index, signals)| {
            let signal = signals.borrow().iter().find(|signal| decisive(signal))?;
            Some(EarlySignal {
                kind: signal.kind,
                byte: signal.byte,
                chunk: index + 1,
                chunks: chunks.ends.len(),
                bytes,
                ms: None,
                tokens: chunks.output_tokens,
            })
        })
}

/// `after` of `total` as a whole percentage, never rounded up to 100 or down to 0.
pub(crate) fn percent(after: usize, total: usize) -> String {
    if total == 0 {
        return "0%".into();
    }
    let exact = after as f64 * 100.0 / total as f64;
    let shown = match exact.round() {
        x if x >= 100.0 && after < total => 99.0,
        x if x <= 0.0 && after > 0 => 1.0,
        x => x,
    };
    format!("{shown}%")
}

/// Whether a caller would stop for it: a reasoning block is no reason, and a value in
/// prose that fails may still be followed by the answer.
fn decisive(signal: &Signal) -> bool {
    match signal.kind {
        SignalKind::Runaway | SignalKind::Refusal | SignalKind::ToolCallText => true,
        SignalKind::Invalid => signal.later_may_change != Some(true),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(chunks: &[&str]) -> Capture {
        Capture::streamed("s.sse", chunks)
    }

    #[test]
    fn the_first_decisive_signal_is_kept_with_its_chunk() {
        let capture = streamed(&["{\"a\": 1", " x", "yz and more"]);
        let early = first_signal(&capture, &Options::default()).expect("invalid");
        assert_eq!(early.kind, SignalKind::Invalid);
        assert_eq!((early.chunk, early.chunks), (2, 3));
        assert_eq!(
            early.byte,
            capture.text.as_ref().unwrap().find('x').unwrap()
        );
        assert_eq!(early.bytes_after(), "yz and more".len());
    }

    #[test]
    fn a_clean_stream_and_a_capture_not_streamed_have_none() {
        let clean = streamed(&["{\"a\":", " 1}"]);
        assert_eq!(first_signal(&clean, &Options::default()), None);
        // A reasoning block is no reason to stop; nor is a bracket in prose that fails.
        let thought = streamed(&["<think>hm</think>", "Note [1 x] then ", "{\"a\": 1}"]);
        assert_eq!(first_signal(&thought, &Options::default()), None);
        let whole = Capture::from_text("a.txt", "I'm sorry, but I can't help with that.");
        assert_eq!(first_signal(&whole, &Options::default()), None);
        let refused = streamed(&["I'm sorry, but I can't help", " with that."]);
        let early = first_signal(&refused, &Options::default()).unwrap();
        assert_eq!((early.kind, early.chunk), (SignalKind::Refusal, 2));
    }
}
