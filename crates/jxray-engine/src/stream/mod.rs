//! A verdict while the output arrives (contract §7): an [`Extractor`] is fed an output chunk
//! by chunk and says after each what is known so far — where it is ([`State`]), what the
//! value has become (the [`Deltas`] of a value that never invents and never shrinks), which
//! paths are still open and which are final, and the [`Signal`]s a caller may stop for —
//! and at the end exactly what [`crate::extract`] says of the joined text.
//!
//! Every byte is read once: the regions around a value (prose, a reasoning block, a fence,
//! tool-call markup) by [`regions`], the value by [`value`], the runaway and refusal
//! watchers by [`watch`]. `end` runs the engine once on the whole text.

mod deltas;
mod items;
mod markers;
mod pointer;
mod readers;
mod regions;
mod replay;
mod signal;
mod tree;
mod value;
mod watch;

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::extract::extract;
use crate::options::Options;
use crate::outcome::{Dialect, Outcome};
use crate::position::LineCursor;

pub use deltas::{DeltaRef, Deltas, Iter as DeltaIter, Part, PathIter, Paths};
pub use items::{ItemFinding, ItemValidator};
pub use pointer::Pointer;
pub use replay::Replay;
pub use signal::{Signal, SignalKind};
pub use watch::DEFAULT_RUNAWAY_BYTES;

use regions::Regions;
use tree::Tree;

/// Where the extractor is in the output.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum State {
    /// No value has begun, and why.
    Waiting {
        /// What the text is at the moment.
        why: Waiting,
    },
    /// A candidate value is being read (or has been read whole).
    Reading {
        /// Where it was found.
        layer: StreamLayer,
        /// The tool-call dialect, for a tool call's body.
        #[serde(skip_serializing_if = "Option::is_none")]
        dialect: Option<Dialect>,
    },
}

impl State {
    /// In words: `waiting: fence`, `reading fenced`, `reading tool-call-text`.
    pub fn words(&self) -> String {
        let value = serde_json::to_value(self).unwrap_or_default();
        let word = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        match (word("state"), word("why"), word("layer")) {
            (Some(state), Some(why), _) => format!("{state}: {why}"),
            (Some(state), None, Some(layer)) => format!("{state} {layer}"),
            (Some(state), _, _) => state,
            _ => String::new(),
        }
    }
}

/// Why no value has begun.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Waiting {
    /// Text that is not a value.
    Prose,
    /// A reasoning block (`<think>`) is open.
    Reasoning,
    /// A fence opened; its value has not begun.
    Fence,
    /// Tool-call markup is open.
    ToolCall,
}

/// Where a value being read was found.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StreamLayer {
    /// At the start of the output.
    Direct,
    /// Inside a markdown code fence.
    Fenced,
    /// In prose.
    Scanned,
    /// The body of a tool call written as text.
    ToolCallText,
}

/// One change to the value shown, owned: a snapshot's [`DeltaRef`] copied to be kept past
/// the next chunk ([`DeltaRef::to_delta`], [`Deltas::to_vec`]). Replaying them gives the value.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Delta {
    /// A value began at `path` (a JSON Pointer, `""` for the whole value): a number or
    /// literal whose token ended, an empty object or array, or a string's first characters.
    Add {
        /// Where.
        path: Pointer,
        /// What it is so far.
        value: Value,
    },
    /// More characters of the string at `path`.
    Append {
        /// Where.
        path: Pointer,
        /// The characters.
        text: String,
    },
    /// The candidate being read failed and is dropped: the value is gone.
    Withdraw,
}

/// How many stamps a reader takes at a time.
const STAMP_BLOCK: u64 = 1 << 32;

/// The paths still open, outermost first: every open container, then the string being
/// read. Each is a prefix of the innermost, so they are that one path and where each ends;
/// a snapshot kept for the whole stream has them rewritten in place only when they change.
#[derive(Debug, Clone, Default)]
pub struct OpenPaths {
    innermost: String,
    /// Each open path's length, outermost first.
    ends: Vec<usize>,
    /// Which reading of the paths these are ([`OpenPaths::stamps`]): a snapshot that holds
    /// the reader's latest is left alone, at the cost of one comparison.
    stamp: u64,
}

impl PartialEq for OpenPaths {
    fn eq(&self, other: &OpenPaths) -> bool {
        self.innermost == other.innermost && self.ends == other.ends
    }
}

impl Eq for OpenPaths {}

impl OpenPaths {
    /// Each open path (a JSON Pointer, `""` for the whole value), outermost first.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.ends.iter().map(|&end| &self.innermost[..end])
    }

    /// How many paths are open.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The innermost open path.
    pub fn innermost(&self) -> Option<&str> {
        self.iter().last()
    }

    /// Make these the paths `innermost` ends at each of `ends`, the reading `stamp`.
    pub(super) fn set(&mut self, innermost: &str, ends: impl Iterator<Item = usize>, stamp: u64) {
        self.innermost.clear();
        self.innermost.push_str(innermost);
        self.ends.clear();
        self.ends.extend(ends);
        self.stamp = stamp;
    }

    /// No path open, and no reading's.
    pub(super) fn clear(&mut self) {
        self.set("", std::iter::empty(), 0);
    }

    /// The first of a block of stamps no other reader has: a reader takes the next of its
    /// block at every change to its open paths ([`OpenPaths::next_stamp`]), so a snapshot
    /// moved between extractors is never taken for either's, and a change costs no atomic.
    pub(super) fn stamps() -> u64 {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        NEXT.fetch_add(STAMP_BLOCK, std::sync::atomic::Ordering::Relaxed)
    }

    /// The stamp after `stamp`: the next in its block, or the first of a new block.
    pub(super) fn next_stamp(stamp: u64) -> u64 {
        if (stamp + 1).is_multiple_of(STAMP_BLOCK) {
            return OpenPaths::stamps();
        }
        stamp + 1
    }
}

impl Serialize for OpenPaths {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// What is known after a chunk.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Snapshot {
    /// Where the extractor is.
    #[serde(flatten)]
    pub state: State,
    /// A value from prose is held back until its container closes: it may still turn out
    /// to be a bracket in a sentence.
    pub provisional: bool,
    /// The changes to the value since the last snapshot.
    pub deltas: Deltas,
    /// The paths still open (JSON Pointers, the innermost last).
    pub open_paths: OpenPaths,
    /// The paths that became final since the last snapshot: a string or container that
    /// closed (a number or literal is final when it appears).
    pub final_paths: Paths,
    /// The signals raised since the last snapshot.
    pub signals: Vec<Signal>,
    /// The bytes received so far.
    pub bytes: usize,
}

impl Default for Snapshot {
    /// Before the first chunk: waiting in prose, nothing shown.
    fn default() -> Snapshot {
        Snapshot {
            state: State::Waiting {
                why: Waiting::Prose,
            },
            provisional: false,
            deltas: Deltas::default(),
            open_paths: OpenPaths::default(),
            final_paths: Paths::default(),
            signals: Vec::new(),
            bytes: 0,
        }
    }
}

/// The longest chunk taken byte by byte when it is ASCII (longer ones are checked and
/// copied whole, which is cheaper for them).
const SHORT_CHUNK: usize = 4;

/// The extractor of one streamed output.
#[derive(Debug)]
pub struct Extractor {
    options: Options,
    text: String,
    /// The start of a UTF-8 sequence split across chunks.
    pending: Vec<u8>,
    /// Where the first byte that is not UTF-8 came.
    not_utf8: Option<usize>,
    received: usize,
    regions: Regions,
    tree: Tree,
    /// With a validator: each value judged as it closes.
    items: Option<items::ItemCheck>,
    /// Raised since the last snapshot.
    fresh: Vec<Signal>,
    signals: Vec<Signal>,
    runaway: watch::Runaway,
    refusal: watch::Refusal,
    lines: LineCursor,
}

impl Extractor {
    /// An extractor that ends with `options` (their stop reason is replaced by `end`'s).
    pub fn new(options: Options) -> Extractor {
        let max_depth = options.max_depth;
        Extractor {
            options,
            text: String::new(),
            pending: Vec::new(),
            not_utf8: None,
            received: 0,
            regions: Regions::new(max_depth),
            tree: Tree::default(),
            items: None,
            fresh: Vec::new(),
            signals: Vec::new(),
            runaway: watch::Runaway::new(DEFAULT_RUNAWAY_BYTES),
            refusal: watch::Refusal::default(),
            lines: LineCursor::default(),
        }
    }

    /// The same, with another bound for `runaway` (in bytes).
    pub fn with_runaway_bytes(mut self, bytes: usize) -> Extractor {
        self.runaway = watch::Runaway::new(bytes);
        self
    }

    /// The same, judging each value as it closes with `validator` (an array's item, an
    /// object's member, the whole value): what it finds is a `schema` signal with the path.
    pub fn with_validator(mut self, validator: Arc<dyn ItemValidator>) -> Extractor {
        self.items = Some(items::ItemCheck::new(validator));
        self.tree.ended = Some(Vec::new());
        self
    }

    /// Feed the next chunk of bytes: a UTF-8 sequence may be split between chunks.
    pub fn feed(&mut self, chunk: &[u8]) -> Snapshot {
        let mut snapshot = Snapshot::default();
        self.feed_into(chunk, &mut snapshot);
        snapshot
    }

    /// Feed the next chunk of text.
    pub fn feed_str(&mut self, chunk: &str) -> Snapshot {
        let mut snapshot = Snapshot::default();
        self.feed_str_into(chunk, &mut snapshot);
        snapshot
    }

    /// Feed the next chunk of bytes, and make `snapshot` what is known after it. The same
    /// as [`Extractor::feed`], for a caller that keeps one snapshot for the whole stream:
    /// its buffers are used again, so once they have grown, a chunk's changes allocate
    /// nothing.
    pub fn feed_into(&mut self, chunk: &[u8], snapshot: &mut Snapshot) {
        self.received += chunk.len();
        if self.pending.is_empty() {
            // A short ASCII chunk is text as it is: no UTF-8 check or copy call per byte.
            if chunk.len() <= SHORT_CHUNK && chunk.is_ascii() {
                self.text.reserve(chunk.len());
                for &byte in chunk {
                    self.text.push(char::from(byte));
                }
                return self.read(snapshot);
            }
            if let Ok(text) = std::str::from_utf8(chunk) {
                return self.feed_text(text, snapshot);
            }
        }
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(chunk);
        match std::str::from_utf8(&bytes) {
            Ok(text) => {
                let text = text.to_owned();
                self.feed_text(&text, snapshot)
            }
            // The start of a sequence the next chunk may finish.
            Err(error) if error.error_len().is_none() => {
                self.pending = bytes.split_off(error.valid_up_to());
                let text = String::from_utf8(bytes).unwrap_or_default();
                self.feed_text(&text, snapshot)
            }
            // Not UTF-8: the output is unreadable; the rest is still watched, as text.
            Err(error) => {
                self.not_utf8
                    .get_or_insert(self.text.len() + error.valid_up_to());
                let text = String::from_utf8_lossy(&bytes).into_owned();
                self.feed_text(&text, snapshot)
            }
        }
    }

    /// Feed the next chunk of text into `snapshot` (see [`Extractor::feed_into`]).
    pub fn feed_str_into(&mut self, chunk: &str, snapshot: &mut Snapshot) {
        self.received += chunk.len();
        self.feed_text(chunk, snapshot)
    }

    fn feed_text(&mut self, chunk: &str, snapshot: &mut Snapshot) {
        self.text.push_str(chunk);
        self.read(snapshot)
    }

    /// Read what the last chunk added to the text, into `snapshot`.
    fn read(&mut self, snapshot: &mut Snapshot) {
        self.reuse(snapshot);
        if self.regions.advance(&self.text, &mut self.tree) {
            for event in std::mem::take(&mut self.regions.events) {
                let signal = self.signal(event);
                self.raise(signal);
            }
        }
        self.judge_items();
        if let Some(at) = self.runaway.watch(self.text.as_bytes()) {
            let signal = self.signal(regions::Event {
                kind: SignalKind::Runaway,
                at,
                defect: None,
                dialect: None,
                later_may_change: None,
                message: "a run of white space or one repeated token: the decoding is looping; stop and change the request or the serving settings".into(),
            });
            self.raise(signal);
        }
        if self.refusal.watch(&self.text, self.regions.value_begun()) {
            let at = self.text.len().saturating_sub(1);
            let signal = self.signal(regions::Event {
                kind: SignalKind::Refusal,
                at,
                defect: None,
                dialect: None,
                later_may_change: None,
                message: "the output so far reads as a refusal".into(),
            });
            self.raise(signal);
        }
        self.fill(snapshot);
    }

    fn signal(&mut self, event: regions::Event) -> Signal {
        let (line, column) = self.lines.locate(&self.text, event.at);
        Signal {
            kind: event.kind,
            byte: event.at,
            line,
            column,
            defect: event.defect,
            dialect: event.dialect,
            later_may_change: event.later_may_change,
            path: None,
            message: event.message,
        }
    }

    /// With a validator: the values that ended in this chunk, judged; each new finding a
    /// `schema` signal at the value's last byte.
    fn judge_items(&mut self) {
        let Some(items) = self.items.as_mut() else {
            return;
        };
        let ended = self.tree.ended.as_mut().map(std::mem::take);
        let found = items.judge(
            &self.tree.deltas,
            ended.unwrap_or_default(),
            self.tree.withdrawals,
        );
        for items::Found { end, finding } in found {
            let event = regions::Event::at(SignalKind::Schema, end - 1, finding.message);
            let mut signal = self.signal(event);
            signal.path = Some(finding.pointer);
            self.raise(signal);
        }
    }

    fn raise(&mut self, signal: Signal) {
        self.signals.push(signal.clone());
        self.fresh.push(signal);
    }

    /// Empty the last snapshot: its changes' and final paths' room is this chunk's.
    fn reuse(&mut self, snapshot: &mut Snapshot) {
        self.tree
            .reuse(&mut snapshot.deltas, &mut snapshot.final_paths);
        snapshot.signals.clear();
    }

    /// What is known now, into `snapshot` (emptied by [`Extractor::reuse`]).
    fn fill(&mut self, snapshot: &mut Snapshot) {
        snapshot.state = self.regions.state();
        snapshot.provisional = self.regions.provisional();
        std::mem::swap(&mut self.tree.deltas, &mut snapshot.deltas);
        self.regions.fill_open_paths(&mut snapshot.open_paths);
        std::mem::swap(&mut self.tree.finals, &mut snapshot.final_paths);
        if !self.fresh.is_empty() {
            snapshot.signals.append(&mut self.fresh);
        }
        snapshot.bytes = self.received;
    }

    /// The text received so far (a split UTF-8 sequence not yet whole is not in it).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Every signal raised so far.
    pub fn signals(&self) -> &[Signal] {
        &self.signals
    }

    /// Where the first byte that is not UTF-8 came, when one did: the output is
    /// `unreadable`, as a capture of the same bytes is.
    pub fn not_utf8(&self) -> Option<usize> {
        self.not_utf8
            .or_else(|| (!self.pending.is_empty()).then_some(self.text.len()))
    }

    /// The outcome of the whole output, with its stop reason: exactly what [`extract`]
    /// says of the joined text.
    pub fn end(self, stop_reason: Option<&str>) -> Outcome {
        extract(
            &self.text,
            &self.options.clone().with_stop_reason(stop_reason),
        )
    }
}

#[cfg(test)]
mod tests;
