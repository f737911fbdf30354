//! The extraction engine: text in, [`Outcome`] out. No I/O, no UI.
//!
//! Layers are tried cheapest first (direct, fenced, scanned); the first
//! candidate that parses after lossless repair wins, and every candidate
//! looked at is kept in the trace.

mod candidate;
mod causes;
mod conclude;
mod decode;
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
mod stop;
mod stringified;
mod surrogate;
mod think;
mod trace;

pub use decode::{decode_exact, normalise_exponent};
pub use extract::extract;
pub use options::{Options, Pick};
pub use outcome::*;
pub use position::line_col;
pub use stop::classify_stop_reason;
pub use stringified::{find_stringified, Stringified};
