//! The `jxray` binary as a user runs it: every command's output (golden files), exit
//! codes, config, pipes, hostile input, and the docs checked against the program.
//!
//! One test binary, one module a former test file: it links the crate once.

#[path = "../support/mod.rs"]
mod support;

mod chains;
mod check;
mod ci;
mod compare;
mod config;
mod docs;
mod early_signals;
mod extract;
mod golden;
mod hardening;
mod html;
mod misc;
mod pipes;
mod record;
mod request_schema;
mod stream;
mod test_command;
mod triage;
