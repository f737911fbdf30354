//! What the text around a value is, read as it arrives: prose, a reasoning block, a fence,
//! tool-call markup — and where a candidate value begins in it. A candidate is read by a
//! [`ValueReader`]; one that fails is dropped (a bracket in prose, or a defect no
//! continuation repairs) and the reading goes on after it, so no byte is read twice.

use super::tree::Tree;
use super::value::{Progress, ValueReader};
use super::{OpenPaths, SignalKind, State, StreamLayer, Waiting};
use crate::diagnose::diagnose;
use crate::outcome::{Defect, Dialect};
use crate::scan::{scan_value, ScanEnd};

/// How far past the failing byte the engine's validator may read to name the defect.
const NAMING_LOOKAHEAD: usize = 64;

/// A signal found while reading, before its line and column are known.
#[derive(Debug)]
pub(super) struct Event {
    pub kind: SignalKind,
    pub at: usize,
    pub defect: Option<Defect>,
    pub dialect: Option<Dialect>,
    pub later_may_change: Option<bool>,
    pub message: String,
}

impl Event {
    pub(super) fn at(kind: SignalKind, at: usize, message: String) -> Event {
        Event {
            kind,
            at,
            defect: None,
            dialect: None,
            later_may_change: None,
            message,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Region {
    Prose,
    Think,
    /// A fence of `len` `mark`s; `json` when its tag says JSON (or it has none); `body` once
    /// a byte of its body that is not white space came.
    Fence {
        mark: u8,
        len: usize,
        json: bool,
        body: bool,
    },
    ToolCall(Dialect),
}

#[derive(Debug)]
pub(super) struct Candidate {
    pub(super) reader: ValueReader,
    pub(super) start: usize,
    pub(super) layer: StreamLayer,
    pub(super) dialect: Option<Dialect>,
    pub(super) provisional: bool,
    /// A string or number that is the whole output, if nothing but white space follows.
    pub(super) scalar: bool,
    /// Where the reading goes on when the candidate fails.
    pub(super) around: Region,
}

/// A value read whole that the text after it may still take back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Held {
    /// A string or number at the start: the output's value only if nothing follows it.
    Scalar,
    /// The first value is a JSON Schema: the prompt's own, echoed, if another value follows.
    Echo(StreamLayer, Option<Dialect>),
}

/// What a region's reading did.
pub(super) enum Next {
    /// Everything available was read.
    Wait,
    /// The region changed or a candidate began: read on.
    Go,
}

/// The regions of one output, read so far.
#[derive(Debug)]
pub(super) struct Regions {
    pub(super) max_depth: usize,
    pub(super) cursor: usize,
    pub(super) line_start: usize,
    pub(super) region: Region,
    pub(super) candidate: Option<Candidate>,
    /// The candidate that closed: the value.
    pub(super) settled: Option<(StreamLayer, Option<Dialect>)>,
    pub(super) held: Option<Held>,
    pub(super) begun: bool,
    /// A candidate began before the one being read (only the first value can be an echo).
    pub(super) begun_before: bool,
    pub(super) events: Vec<Event>,
}

impl Regions {
    pub(super) fn new(max_depth: usize) -> Regions {
        Regions {
            max_depth,
            cursor: 0,
            line_start: 0,
            region: Region::Prose,
            candidate: None,
            settled: None,
            held: None,
            begun: false,
            begun_before: false,
            events: Vec::new(),
        }
    }

    /// Read what `text` holds past the last call; whether it found signals (in `events`).
    pub(super) fn advance(&mut self, text: &str, tree: &mut Tree) -> bool {
        while self.settled.is_none() {
            let next = match self.candidate.as_mut() {
                Some(candidate) => match candidate.reader.advance(text, tree) {
                    Progress::NeedMore => Next::Wait,
                    Progress::Done(end) => {
                        self.settle(text, end);
                        Next::Go
                    }
                    Progress::Failed(at) => {
                        self.fail(text, at, tree);
                        Next::Go
                    }
                },
                None => match self.region {
                    Region::Prose => self.prose(text, tree),
                    Region::Think => self.think(text),
                    Region::Fence { .. } => self.fence(text, tree),
                    Region::ToolCall(dialect) => self.tool_call(text, dialect, tree),
                },
            };
            if let Next::Wait = next {
                break;
            }
        }
        !self.events.is_empty()
    }

    pub(super) fn state(&self) -> State {
        if let Some((layer, dialect)) = self.settled {
            return State::Reading { layer, dialect };
        }
        match self.held {
            Some(Held::Scalar) => {
                return State::Reading {
                    layer: StreamLayer::Direct,
                    dialect: None,
                }
            }
            Some(Held::Echo(layer, dialect)) if self.candidate.is_none() => {
                return State::Reading { layer, dialect }
            }
            _ => {}
        }
        if let Some(candidate) = &self.candidate {
            return State::Reading {
                layer: candidate.layer,
                dialect: candidate.dialect,
            };
        }
        let why = match self.region {
            Region::Prose => Waiting::Prose,
            Region::Think => Waiting::Reasoning,
            Region::Fence { .. } => Waiting::Fence,
            Region::ToolCall(_) => Waiting::ToolCall,
        };
        State::Waiting { why }
    }

    /// A value from prose until it closes, and a held value until what follows decides.
    pub(super) fn provisional(&self) -> bool {
        match &self.candidate {
            Some(candidate) => candidate.provisional,
            None => self.held.is_some(),
        }
    }

    /// Make `into` the paths still open (none while no candidate is being read).
    pub(super) fn fill_open_paths(&self, into: &mut OpenPaths) {
        match &self.candidate {
            Some(candidate) => candidate.reader.fill_open_paths(into),
            None if !into.is_empty() => into.clear(),
            None => {}
        }
    }

    /// Whether a candidate value has begun (a refusal holds none).
    pub(super) fn value_begun(&self) -> bool {
        self.begun
    }

    /// The candidate closed at `end`: it is the value — unless it is a scalar (text may
    /// follow it) or the first value is a JSON Schema (another value may follow it).
    fn settle(&mut self, text: &str, end: usize) {
        self.cursor = end;
        let Some(candidate) = self.candidate.take() else {
            return;
        };
        if candidate.scalar {
            self.held = Some(Held::Scalar);
            return;
        }
        // Only a first value that names `properties` or `$schema` is decoded to look.
        let candidate_text = &text[candidate.start..end];
        let may_be_schema =
            candidate_text.contains("\"properties\"") || candidate_text.contains("\"$schema\"");
        if self.held.is_none()
            && !self.begun_before
            && may_be_schema
            && crate::decode_exact(candidate_text).is_ok_and(|value| is_json_schema(&value))
        {
            self.held = Some(Held::Echo(candidate.layer, candidate.dialect));
            self.region = reading_on(candidate.around);
            return;
        }
        self.settled = Some((candidate.layer, candidate.dialect));
    }

    /// The candidate cannot continue at `at`: drop it, say why (unless it was a bracket in
    /// a sentence), and read on from the failing byte, which may open the next candidate.
    fn fail(&mut self, text: &str, at: usize, tree: &mut Tree) {
        let Some(candidate) = self.candidate.take() else {
            return;
        };
        tree.withdraw();
        let in_prose = candidate.layer == StreamLayer::Scanned;
        // A bracket in a sentence (`{Happy to help}`) fails before its first member: no defect.
        if !in_prose || candidate.reader.began_inside() {
            let (defect, message) = name_defect(text, candidate.start, at, self.max_depth);
            self.events.push(Event {
                kind: SignalKind::Invalid,
                at,
                defect: Some(defect),
                dialect: candidate.dialect,
                later_may_change: Some(in_prose),
                message,
            });
        }
        self.region = reading_on(candidate.around);
        let bytes = text.as_bytes();
        let opens = at > candidate.start && matches!(bytes.get(at), Some(b'{' | b'['));
        self.cursor = if opens { at } else { next_char(text, at) };
    }

    /// A candidate begins at `at`.
    pub(super) fn begin(
        &mut self,
        at: usize,
        (layer, dialect): (StreamLayer, Option<Dialect>),
        provisional: bool,
        tree: &mut Tree,
    ) {
        if let Some(Held::Echo(..)) = self.held.take() {
            // Another value follows a JSON Schema: the schema was the prompt's, echoed.
            tree.withdraw();
        }
        self.begun_before = self.begun;
        self.begun = true;
        tree.begin();
        self.candidate = Some(Candidate {
            reader: ValueReader::new(at, self.max_depth),
            start: at,
            layer,
            dialect,
            provisional,
            scalar: false,
            around: self.region,
        });
        self.cursor = at;
    }
}

/// Where reading goes on in the region a candidate was found in: a fence's body has begun.
fn reading_on(region: Region) -> Region {
    match region {
        Region::Fence {
            mark, len, json, ..
        } => Region::Fence {
            mark,
            len,
            json,
            body: true,
        },
        region => region,
    }
}

/// Whether a value is a JSON Schema document (`$schema`, or `type` with `properties`), as
/// the engine passes over an echoed one.
fn is_json_schema(value: &serde_json::Value) -> bool {
    value.as_object().is_some_and(|object| {
        object.contains_key("$schema")
            || (object.contains_key("type")
                && object
                    .get("properties")
                    .is_some_and(serde_json::Value::is_object))
    })
}

/// The defect the engine's validator and diagnosis name for the candidate at `start`.
/// The validator reads at most a little past `failed`, where the stream found it, so naming
/// costs what the candidate's own bytes cost.
fn name_defect(text: &str, start: usize, failed: usize, max_depth: usize) -> (Defect, String) {
    let bytes = text.as_bytes();
    let limit = (failed + NAMING_LOOKAHEAD).min(bytes.len());
    let scan = scan_value(bytes, start, limit, max_depth, None);
    match scan.end {
        ScanEnd::Invalid {
            at,
            problem,
            after_comma,
        } => {
            let found = diagnose(text, at, problem, after_comma, max_depth);
            (found.defect, found.message)
        }
        _ => (
            Defect::Syntax,
            "the value cannot continue here; ask for strict JSON".into(),
        ),
    }
}

/// The offset of the character after the one at `at`.
fn next_char(text: &str, at: usize) -> usize {
    text[at.min(text.len())..]
        .chars()
        .next()
        .map_or(text.len(), |c| at + c.len_utf8())
}
