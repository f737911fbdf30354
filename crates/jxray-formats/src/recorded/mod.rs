//! The capture folder's format, between `jxray record`, the repair loops (Python and
//! TypeScript, through their bindings) and the readers: what the files are named
//! ([`names`]), the request file beside each capture and the chain link in it
//! ([`request`]), a repair attempt's files ([`attempt`]), and where a file goes when its
//! name is taken ([`place`]). Defined once here; the writers do only the I/O.

pub mod attempt;
pub mod names;
pub mod place;
pub mod request;

pub use attempt::{attempt_files, AttemptRecord};
pub use names::{
    attempt_stem, capture_stem, model_part, request_file_name, request_stem, LocalTime,
    ATTEMPT_SUFFIX, RECORDED_EXTENSIONS, REQUEST_SUFFIX, TEMP_FILE_PREFIX,
};
pub use request::{
    ChainLink, ChainState, ProxiedRequest, RequestFile, RequestFileError, REQUEST_VERSION,
};
