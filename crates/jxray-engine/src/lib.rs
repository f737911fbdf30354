#![warn(missing_docs)]
#![doc = include_str!("../README.md")]

// The layers are tried cheapest first (direct, fenced, scanned: `extract`, `prose`, with
// `fence` and `think` finding the regions); each candidate is judged by `candidate` (the
// validator in `scan`, the decoder in `decode`, `form` and `compact`), kept from being a
// fragment by `fragment` and `extent`, chosen by `select`; `conclude` turns the verdicts
// into an outcome: acceptance and its warnings (`stringified`), or the most specific
// failure with its diagnosis (`diagnose`, `defects`, `causes`, `stop`) and its lenient
// reading (`lenient`). Tool calls written as text are recognised by `toolcall`, words in
// brackets by `brackets`. `outcome` and `options` are the vocabulary; `trace`, `position`
// and `space` are shared helpers.

mod brackets;
mod candidate;
mod causes;
mod code;
mod conclude;
mod decode;
mod defects;
mod diagnose;
mod extent;
mod extract;
mod fence;
mod form;
mod fragment;
mod lenient;
mod lost_start;
mod options;
mod outcome;
mod path;
mod plain;
mod position;
mod prose;
mod refusal;
mod scan;
mod schema_echo;
mod select;
mod space;
mod stop;
mod stream;
mod stringified;
mod surrogate;
mod swar;
mod think;
mod toolcall;
mod trace;

pub use decode::{decode_exact, same_value};
pub use extract::{extract, extract_accepted};
pub use options::{Acceptor, Options, Pick, UnknownPick, ValueForm};
pub use outcome::{
    Attempt, Cause, Defect, DefectAt, Dialect, Failure, FailureKind, JsonText, Layer,
    LenientReading, Outcome, Repair, RepairKind, StopClass, ToolCallText, Verdict, Warning,
    WarningKind,
};
pub use path::member_path;
pub use position::{line_col, utf16_len};
pub use stop::classify_stop_reason;
pub use stream::{
    Delta, DeltaIter, DeltaRef, Deltas, Extractor, ItemFinding, ItemValidator, OpenPaths, Part,
    PathIter, Paths, Pointer, Replay, Signal, SignalKind, Snapshot, State, StreamLayer, Waiting,
    DEFAULT_RUNAWAY_BYTES,
};
pub use stringified::{find_stringified, Stringified};
