//! The formats jxray reads and writes, with no I/O and no native dependency, so that every
//! front end compiles the same code: the CLI and the workbench (the root crate), the Python
//! package, and a WebAssembly build for JavaScript runtimes.
//!
//! - [`envelope`]: provider response bodies (OpenAI chat and Responses, Anthropic, Gemini,
//!   Ollama, their batch lines) → the model's text, stop reason, model and tool calls;
//! - [`describe`]: an outcome in one line, as `check` prints it and errors say it;
//! - [`escape`]: text made safe to print (no control, bidi or escape sequence acts);
//! - [`record`]: one outcome as the line `jxray check --format jsonl` prints;
//! - [`fixture`]: the fixture file format, its expectations and the replay verdict;
//! - [`judge`]: one text judged against the app's contract, for every front end;
//! - [`style`]: terminal colour, only when asked for;
//! - [`repair`]: whether a failure is worth one repair request, and its text;
//! - [`recorded`]: the names of the files `jxray record` writes, which the readers read;
//! - [`text`]: bytes as text (UTF-8, UTF-16 with a byte-order mark) or why they are not;
//! - [`usage`]: the tokens a call used, from any provider's or SDK's usage;
//! - [`violation`]: how a value breaks a schema, whichever validator found it;
//! - [`Provider`]: which format a capture came from.

pub mod describe;
pub mod envelope;
pub mod escape;
pub mod fixture;
pub mod judge;
mod provider;
pub mod record;
pub mod recorded;
pub mod repair;
pub mod style;
pub mod text;
pub mod usage;
pub mod violation;

pub use provider::Provider;
pub use text::Unreadable;
