//! jxray: find, repair and explain the JSON in raw language-model output.
//!
//! The [`engine`] (the `jxray-engine` crate, which library users depend on directly) is
//! the heart and knows nothing of files or terminals; [`capture`] reads model outputs from
//! disk, and the command line ([`cli`] parses it, [`commands`] runs it: the `jxray` binary
//! and the Python package's `jxray` command are both [`commands::main`]) and the terminal
//! UI are clients of both.
//!
//! ```
//! use jxray::engine::{extract, Layer, Options};
//!
//! let raw = "Sure! Here it is:\n```json\n{\"city\": \"Paris\"}\n```\nAnything else?";
//! let outcome = extract(raw, &Options::default());
//!
//! assert!(outcome.ok());
//! assert_eq!(outcome.layer, Some(Layer::Fenced));
//! assert_eq!(outcome.value.as_ref().unwrap()["city"], "Paris");
//! assert_eq!(outcome.warning_kinds()[0].as_str(), "trailing-prose");
//!
//! // A cut-off answer is a failure of its own kind, with a place and a fix.
//! let cut = extract("{\"items\": [1, 2,", &Options::default());
//! let failure = cut.failure.unwrap();
//! assert_eq!(failure.kind.as_str(), "truncated");
//! assert_eq!((failure.line, failure.column), (1, 17));
//! ```

// `pub` means API: what the binary, the tests and the Python package use. An item only
// the crate uses is `pub(crate)`, and this lint (an error in CI) says when one is not.
#![warn(unreachable_pub)]

pub mod capture;
pub(crate) mod chain;
pub mod check;
pub(crate) mod choices;
pub mod cli;
pub mod commands;
pub mod compare;
pub mod config;
pub use jxray_engine as engine;
pub mod fixture;
pub mod group;
pub mod mix;
pub mod pipeline;
pub mod record_stop;
pub mod report;
pub mod schema;
pub mod text;
pub mod tui;
pub mod watch;

/// The whole `jxray` command line (what the binary and the Python package's `jxray` run).
pub use commands::main as command_line;
pub use engine::{extract, Options, Outcome};
