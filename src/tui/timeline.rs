//! The arrival view's content (`T`): how a saved stream arrived. Its answer is fed to the
//! streaming extractor in the chunks it came in (contract §7), once, when the view opens;
//! each step shows what a caller streaming it knew after that chunk — the state, the
//! partial value (never invented), the paths still open, the signals so far — and the
//! head says when the first value came and when the stream was already lost.

use std::sync::Mutex;

use serde_json::Value;

use crate::capture::{Arrival, Capture};
use crate::check::EarlySignal;
use crate::engine::{DeltaRef, Deltas, Extractor, Options, Replay, Signal, Snapshot, State};

use super::help::HelpLine;
use super::request::wrap;
use super::sanitize::printable;

/// A saved stream, chunk by chunk.
#[derive(Debug)]
pub struct Timeline {
    steps: Vec<Step>,
    /// The answer's length in bytes.
    bytes: usize,
    /// The first chunk that showed a value.
    first_value: Option<usize>,
    /// The first signal worth stopping for.
    early: Option<EarlySignal>,
    /// When the first byte came, in milliseconds from the request (a recorded stream).
    first_byte_ms: Option<u64>,
    /// The last lines drawn, by chunk and width: every frame draws them, and the value
    /// they show is replayed from the first chunk.
    drawn: Mutex<Option<Drawn>>,
}

/// Lines drawn, and the (chunk, width) they were drawn at.
type Drawn = ((usize, usize), Vec<HelpLine>);

impl PartialEq for Timeline {
    /// The same stream, read the same way (what was last drawn aside).
    fn eq(&self, other: &Timeline) -> bool {
        (
            &self.steps,
            self.bytes,
            self.first_value,
            &self.early,
            self.first_byte_ms,
        ) == (
            &other.steps,
            other.bytes,
            other.first_value,
            &other.early,
            other.first_byte_ms,
        )
    }
}

/// What was known after one chunk.
#[derive(Debug, PartialEq)]
struct Step {
    /// The bytes of the answer received so far.
    end: usize,
    /// When the chunk had come, in milliseconds from the request (a recorded stream).
    ms: Option<u64>,
    state: State,
    provisional: bool,
    deltas: Deltas,
    open_paths: Vec<String>,
    signals: Vec<Signal>,
}

impl Timeline {
    /// The timeline of a saved stream's answer, with when its bytes came when `jxray
    /// record` kept that; none for a capture that was not streamed.
    pub fn of(capture: &Capture, arrival: Option<&Arrival>) -> Option<Timeline> {
        let chunks = capture.chunks.as_deref()?;
        let ends = &chunks.ends;
        let text = capture.text.as_deref().ok()?;
        let mut extractor = Extractor::new(Options::default());
        let mut steps = Vec::with_capacity(ends.len());
        let mut from = 0;
        for (&end, &raw_end) in ends.iter().zip(&chunks.raw_ends) {
            let Snapshot {
                state,
                provisional,
                deltas,
                open_paths,
                signals,
                ..
            } = extractor.feed_str(text.get(from..end)?);
            from = end;
            steps.push(Step {
                end,
                ms: arrival.and_then(|arrival| arrival.ms_at(raw_end)),
                state,
                provisional,
                deltas,
                open_paths: open_paths.iter().map(str::to_owned).collect(),
                signals,
            });
        }
        let first_value = steps.iter().position(|step| {
            step.deltas
                .iter()
                .any(|delta| matches!(delta, DeltaRef::Add { .. }))
        });
        // From the steps just read: the stream is fed once.
        let early = crate::check::first_in(capture, steps.iter().map(|step| &step.signals[..]));
        Some(Timeline {
            steps,
            bytes: text.len(),
            first_value,
            early,
            first_byte_ms: arrival.and_then(Arrival::first_byte_ms),
            drawn: Mutex::new(None),
        })
    }

    /// How many chunks the stream came in.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether it came in none.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The value shown after chunk `at` (from 0): the deltas so far, replayed.
    fn value_at(&self, at: usize) -> Option<Value> {
        let mut replay = Replay::new();
        for step in self.steps.iter().take(at + 1) {
            replay.apply_all(&step.deltas);
        }
        replay.value().cloned()
    }

    /// The overlay's lines at chunk `at` (from 0), wrapped at `width` columns.
    pub(crate) fn lines(&self, at: usize, width: usize) -> Vec<HelpLine> {
        // A poisoned lock only means a panic mid-draw: the cache is refilled.
        let mut drawn = self
            .drawn
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        match drawn.as_ref() {
            Some((key, lines)) if *key == (at, width) => lines.clone(),
            _ => {
                let lines = self.lines_at(at, width);
                *drawn = Some(((at, width), lines.clone()));
                lines
            }
        }
    }

    fn lines_at(&self, at: usize, width: usize) -> Vec<HelpLine> {
        let at = at.min(self.len().saturating_sub(1));
        let Some(step) = self.steps.get(at) else {
            return vec![HelpLine::Text("the stream holds no answer".into())];
        };
        let mut lines = Vec::new();
        let mut text = |line: String| wrap(&printable(&line), width.max(8), &mut lines);
        let provisional = if step.provisional {
            " (provisional)"
        } else {
            ""
        };
        text(format!(
            "chunk {} of {} · byte {} of {}{} · {}{provisional}",
            at + 1,
            self.len(),
            step.end,
            self.bytes,
            at_time(step.ms, " · "),
            step.state.words(),
        ));
        let first_byte = self
            .first_byte_ms
            .map(|ms| format!("first byte at {} · ", duration(ms)))
            .unwrap_or_default();
        text(match self.first_value {
            Some(first) => format!(
                "{first_byte}first value at chunk {} (byte {}{})",
                first + 1,
                self.steps[first].end,
                at_time(self.steps[first].ms, ", ")
            ),
            None => format!("{first_byte}no value in the whole stream"),
        });
        text(match &self.early {
            Some(early) => format!(
                "{} certain at chunk {} of {} (byte {}{}); {} of the output came after it",
                early.kind.as_str(),
                early.chunk,
                early.chunks,
                early.byte,
                at_time(
                    self.steps.get(early.chunk - 1).and_then(|step| step.ms),
                    ", "
                ),
                crate::check::percent(early.bytes_after(), early.bytes)
            ),
            None => "no signal to stop for".to_string(),
        });
        let open = step.open_paths.iter().map(|path| shown_path(path));
        text(format!("open: {}", open.collect::<Vec<_>>().join(", ")));
        let signals: Vec<String> = self.steps[..=at]
            .iter()
            .flat_map(|step| &step.signals)
            .map(|signal| format!("{} at byte {}", signal.kind.as_str(), signal.byte))
            .collect();
        if !signals.is_empty() {
            text(format!("signals so far: {}", signals.join(", ")));
        }
        lines.push(HelpLine::Blank);
        lines.push(HelpLine::Heading("The value so far"));
        match self.value_at(at) {
            Some(value) => {
                let pretty = serde_json::to_string_pretty(&value).unwrap_or_default();
                for line in pretty.lines() {
                    wrap(&printable(line), width.max(8), &mut lines);
                }
            }
            None => lines.push(HelpLine::Text("(none yet)".into())),
        }
        lines
    }
}

/// `412 ms`, `3.4 s`, after `joiner`; nothing when the time is not known.
fn at_time(ms: Option<u64>, joiner: &str) -> String {
    ms.map(|ms| format!("{joiner}{}", duration(ms)))
        .unwrap_or_default()
}

fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// A JSON Pointer as the view shows it: the whole value is `(root)`.
fn shown_path(path: &str) -> &str {
    if path.is_empty() {
        "(root)"
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(chunks: &[&str]) -> Capture {
        Capture::streamed("s.sse", chunks)
    }

    fn texts(lines: &[HelpLine]) -> Vec<String> {
        lines
            .iter()
            .filter_map(|line| match line {
                HelpLine::Text(text) => Some(text.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn each_step_shows_what_was_known_then() {
        let capture = streamed(&[
            "Here:\n```json\n",
            "{\"city\": \"Pa",
            "ris\", \"n\": 1",
            "}\n```",
        ]);
        let timeline = Timeline::of(&capture, None).unwrap();
        assert_eq!(timeline.len(), 4);
        let first = texts(&timeline.lines(0, 80));
        assert!(
            first[0].starts_with("chunk 1 of 4 · byte 14 of "),
            "{first:?}"
        );
        assert!(first[0].ends_with("waiting: fence"), "{first:?}");
        assert_eq!(first[1], "first value at chunk 2 (byte 26)");
        assert_eq!(first[2], "no signal to stop for");
        assert!(first.contains(&"(none yet)".to_string()));
        let second = texts(&timeline.lines(1, 80));
        assert!(second[0].ends_with("reading fenced"), "{second:?}");
        assert_eq!(second[3], "open: (root), /city");
        assert!(
            second.iter().any(|line| line.contains("\"city\": \"Pa\"")),
            "{second:?}"
        );
        // The number shows once its token ended.
        let third = texts(&timeline.lines(2, 80));
        assert!(
            !third.iter().any(|line| line.contains("\"n\"")),
            "{third:?}"
        );
        let last = texts(&timeline.lines(9, 80));
        assert!(
            last.iter().any(|line| line.contains("\"n\": 1")),
            "{last:?}"
        );
    }

    #[test]
    fn the_head_says_when_the_stream_was_already_lost() {
        let mut chunks = vec!["{\"a\": 1,"];
        chunks.extend(std::iter::repeat_n("        ", 100));
        let timeline = Timeline::of(&streamed(&chunks), None).unwrap();
        let shown = texts(&timeline.lines(64, 80));
        assert_eq!(
            shown[2],
            "runaway certain at chunk 65 of 101 (byte 519); 36% of the output came after it"
        );
        assert!(
            shown[4].starts_with("signals so far: runaway at byte 519"),
            "{shown:?}"
        );
        assert!(Timeline::of(&Capture::from_text("a.txt", "{}"), None).is_none());
    }
}
