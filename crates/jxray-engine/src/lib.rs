#![warn(missing_docs)]
//! The extraction engine: text in, [`Outcome`] out. No I/O, no UI.
//!
//! Layers are tried cheapest first (direct, fenced, scanned); the first
//! candidate that parses after lossless repair wins, and every candidate
//! looked at is kept in the trace.

mod candidate;
mod causes;
mod compact;
mod conclude;
mod decode;
mod decoded;
mod defects;
mod diagnose;
mod extent;
mod extract;
mod fence;
mod fragment;
mod lenient;
mod options;
mod outcome;
mod position;
mod prose;
mod scan;
mod select;
mod space;
mod stop;
mod stringified;
mod surrogate;
mod think;
mod trace;

pub use decode::{decode_exact, same_value};
pub use extract::extract;
pub use options::{Options, Pick, ValueForm};
pub use outcome::{
    Attempt, Cause, Defect, DefectAt, Failure, FailureKind, JsonText, Layer, LenientReading,
    Outcome, Repair, RepairKind, StopClass, Verdict, Warning, WarningKind,
};
pub use position::line_col;
pub use stop::classify_stop_reason;
pub use stringified::{find_stringified, Stringified};
